"""Internal: bSData catalogues (the data BattleScribe and NewRecruit build lists from) as
datasheets.

:func:`read_catalogue` reads a catalogue file with the files it links, or a directory of
them, in JSON, XML or zipped XML, and returns a :class:`Catalogue` of
:class:`~mathhammer.units.datasheet.Datasheet` objects with an import report. The parts:
:mod:`.files` (files into one tree shape, safely), :mod:`.links` (the catalogue set and its
links), :mod:`.tree` and :mod:`.composition` (what a unit holds), :mod:`.profiles`
(characteristics), :mod:`.points` (points by unit size) and :mod:`.datasheets`.

Its public names are reached through :mod:`mathhammer.io` and the top level; the modules
here may change without notice.
"""

from __future__ import annotations

from .catalogue import Catalogue, read_catalogue

__all__ = ["Catalogue", "read_catalogue"]
