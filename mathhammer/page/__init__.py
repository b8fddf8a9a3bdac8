"""Internal: the page for list builders who do not write Python.

:mod:`~mathhammer.page.matrix` makes the matrix of one list against another (no dependency
beyond the package's); :mod:`~mathhammer.page.layout` lays it out with Panel (the ``app``
extra), served by ``mathhammer app`` and shown in a notebook by :func:`mathhammer.app`.
"""
