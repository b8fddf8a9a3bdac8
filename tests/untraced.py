"""Test code run with coverage's measurement paused.

Coverage measures the package. Under Python 3.11 its tracer still sees every call made
by code it does not measure, at about half a microsecond each: an oracle that enumerates
die faces with exact fractions makes millions of calls, and ran at half speed under
coverage. :func:`untraced` pauses the measurement for the length of one call, when a run
measures at all. What the package's own tests run is measured as before; the package
code an oracle reads (the plain fields of its inputs) is not counted as tested by it,
which it is not.

Examples
--------
>>> @untraced
... def enumerate_faces(n: int) -> int:
...     return sum(1 for _ in range(6**n))
>>> enumerate_faces(2)
36
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")

__all__ = ["untraced"]


def untraced(function: Callable[P, R]) -> Callable[P, R]:
    """``function``, run with coverage's measurement paused while it runs (a call inside
    another such call runs as it is)."""

    @functools.wraps(function)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            from coverage import Coverage
        except ImportError:  # coverage is a development tool, not a test dependency
            return function(*args, **kwargs)
        measuring = Coverage.current()
        if measuring is None:
            return function(*args, **kwargs)
        measuring.stop()
        try:
            return function(*args, **kwargs)
        finally:
            measuring.start()

    return run
