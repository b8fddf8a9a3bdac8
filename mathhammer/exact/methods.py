"""Which of the exact engine's equivalent ways of storing and applying a transition runs.

A transition of the target's states is stored dense up to
:data:`~mathhammer.core.tuning.DENSE_LIMIT` states and sparse past it, and applied band by band from
:data:`~mathhammer.core.tuning.BAND_STATES` states where every attack moves a state forward
by a few places only (a one-group target's line is dense when small, else banded). The
three compute the same numbers; their sizes choose between them (docs/architecture.md,
section 3.1). :func:`forcing` makes every transition of a block one kind
(:data:`TRANSITIONS`), so that a test checks each kind against the others on any attack.

Examples
--------
>>> import mathhammer as mh
>>> weapon = mh.Weapon("Bolt rifle", attacks=2, skill=3, strength=4, ap=-1, damage=1)
>>> target = mh.Unit.of("Intercessors", models=5, toughness=4, save=3, wounds=2)
>>> usual = mh.attack([(weapon, 10)], target).killed.mean()
>>> with forcing("sparse"):
...     forced = mh.attack([(weapon, 10)], target).killed.mean()
>>> abs(usual - forced) < 1e-12
True
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from ..core import caches
from ..core.tuning import BAND_STATES, DENSE_LIMIT

__all__ = ["TRANSITIONS", "banded", "dense", "forced", "forcing"]

#: The kinds of transition :func:`forcing` takes: dense matrices and no bands; sparse
#: matrices (bands on a line, which has no sparse form) and no bands elsewhere; bands
#: wherever a transition has them, its matrix stored as by its size.
TRANSITIONS = ("dense", "sparse", "banded")

_FORCED: ContextVar[str | None] = ContextVar("mathhammer_transition", default=None)


def forced() -> str | None:
    """The kind of transition forced in this block (:func:`forcing`), or None."""
    return _FORCED.get()


def dense(states: int) -> bool:
    """Whether a transition of ``states`` states is stored as a dense matrix."""
    kind = _FORCED.get()
    if kind is None:
        return states <= DENSE_LIMIT
    return kind == "dense"


def banded(states: int) -> bool | None:
    """Whether a transition of ``states`` states is applied by bands where it has them:
    True or False when forced, None when its size and the work decide
    (:data:`~mathhammer.core.tuning.BAND_STATES`, then
    :data:`~mathhammer.core.tuning.BAND_ENTRIES` per product)."""
    kind = _FORCED.get()
    if kind is None:
        return None if states >= BAND_STATES else False
    return kind == "banded"


@contextmanager
def forcing(kind: str) -> Iterator[None]:
    """Make every transition of the block the kind ``kind`` (one of :data:`TRANSITIONS`).

    The package's caches are emptied on entering and on leaving, so that nothing computed
    one way is found again the other. For tests: the numbers are the same, the time not.

    Raises
    ------
    ValueError
        For a kind not in :data:`TRANSITIONS`.
    """
    if kind not in TRANSITIONS:
        raise ValueError(f"kind must be one of {', '.join(TRANSITIONS)}; got {kind!r}")
    caches.clear()
    token = _FORCED.set(kind)
    try:
        yield
    finally:
        _FORCED.reset(token)
        caches.clear()
