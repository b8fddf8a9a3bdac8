"""Where a warning points: the first frame outside the package, so that it names the line
of the user's code that led to it, however deep the package's calls run."""

from __future__ import annotations

import sys
from pathlib import Path

__all__ = ["outside_stacklevel"]

#: The package's folder: frames of files under it are the package's own.
_PACKAGE = str(Path(__file__).resolve().parents[1])


def outside_stacklevel() -> int:
    """The ``stacklevel`` for :func:`warnings.warn`, called by the function that warns,
    of the first caller outside the package (the outermost frame when every one is the
    package's own).

    Examples
    --------
    >>> import warnings
    >>> def warn() -> None:  # a doctest's frames are outside the package
    ...     warnings.warn("here", stacklevel=outside_stacklevel())
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     warn()
    >>> caught[0].filename.endswith(".py")
    False
    """
    frame = sys._getframe(2)  # the caller of the function that warns
    level = 2
    while frame.f_back is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        frame = frame.f_back
        level += 1
    return level
