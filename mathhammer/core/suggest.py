"""The closest known name to one that matched nothing, for a "did you mean" hint."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

__all__ = ["closest", "did_you_mean"]


def closest(name: str, known: Iterable[str], cutoff: float = 0.6) -> str | None:
    """The known name most like ``name`` (:func:`difflib.get_close_matches`), or None when
    none is at least ``cutoff`` alike.

    Examples
    --------
    >>> closest("mean_kiled", ["mean_killed", "mean_damage"])
    'mean_killed'
    >>> closest("zzz", ["mean_killed"]) is None
    True
    """
    found = difflib.get_close_matches(name, sorted(known), n=1, cutoff=cutoff)
    return found[0] if found else None


def did_you_mean(name: object, known: Iterable[str], cutoff: float = 0.6) -> str:
    """The hint of an error for a name that matched nothing: ``"did you mean 'X'?"`` with
    the :func:`closest` known name, or ``""`` when none is close (or ``name`` is no text).

    Examples
    --------
    >>> did_you_mean("Horde infantri", ["Horde infantry", "Vehicle"])
    "did you mean 'Horde infantry'?"
    >>> did_you_mean("Tank", ["Horde infantry"])
    ''
    """
    close = closest(name, known, cutoff) if isinstance(name, str) else None
    return "" if close is None else f"did you mean {close!r}?"
