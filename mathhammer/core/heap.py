"""Batches that leave the objects already made out of the garbage collector's work.

A batch (a sweep's task, a table of comparisons) fills the package's caches with hundreds of
thousands of small objects: results, distributions, the tuples of their keys. Python's
collector walks every object it tracks on each full collection, and makes one each time the
objects that survived grow by a quarter: a sweep's worker spent a fifth of its time there
(4.8 s of 23 s on a third of the catalogues' many-versus-many), walking caches that hold no
garbage. Inside :func:`settled_heap`, the objects that existed on entering are set aside
(:func:`gc.freeze`) and the collector walks only those made since; on leaving they are given
back (:func:`gc.unfreeze`), so garbage among them is collected later, not lost. The objects
the block itself makes and keeps (the caches it fills: a comparison of every Wahapedia
weapon adds some hundred thousand) are walked once, by the youngest generation's
collection they survive, and no more inside the block: no collection of the middle or the
oldest generation is made there (their thresholds are raised, then restored), and on
leaving the block's survivors join the oldest generation with the rest, unwalked (frozen
and given back with it). The middle generation's collections walked each survivor a
second time: 0.2-0.3 s of a comparison of every Wahapedia weapon (5 s), and the full
collections a fifth of it before. Cyclic garbage that outlives a young collection, rare in
this package, waits for the next full collection after the block. The youngest generation
is collected after :data:`YOUNG_COLLECTION` new objects rather than 700: an attack makes
some hundreds of short-lived objects, and each collection walked the young ones that had
not yet been freed (a comparison of 400 weapons made 1.6 % fewer instructions).

Nested and concurrent uses share one freeze: the first to enter freezes, the last to leave
unfreezes. A process that froze objects itself (a server before it forks) is left as it is:
nothing is frozen or given back.

Examples
--------
>>> import gc
>>> with settled_heap():
...     gc.get_freeze_count() > 0
True
>>> gc.get_freeze_count()
0
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["NO_FULL_COLLECTION", "YOUNG_COLLECTION", "settled_heap"]

_LOCK = threading.Lock()
#: The blocks inside :func:`settled_heap` now, and whether their freeze is theirs.
_DEPTH = 0
_OWNED = False
#: The collector's thresholds before the outermost block, restored after it.
_THRESHOLDS = (700, 10, 10)
#: The middle and the oldest generations' thresholds inside a block: neither is collected.
NO_FULL_COLLECTION = 1_000_000
#: The youngest generation's threshold inside a block (at least; a larger one is kept).
YOUNG_COLLECTION = 20_000


@contextmanager
def settled_heap() -> Iterator[None]:
    """Leave the objects that exist now out of garbage collection until the block ends."""
    global _DEPTH, _OWNED, _THRESHOLDS
    with _LOCK:
        if _DEPTH == 0:
            _OWNED = gc.get_freeze_count() == 0
            if _OWNED:
                gc.freeze()
                _THRESHOLDS = gc.get_threshold()
                young = max(_THRESHOLDS[0], YOUNG_COLLECTION)
                gc.set_threshold(young, NO_FULL_COLLECTION, NO_FULL_COLLECTION)
        _DEPTH += 1
    try:
        yield
    finally:
        with _LOCK:
            _DEPTH -= 1
            if _DEPTH == 0 and _OWNED:
                gc.set_threshold(*_THRESHOLDS)
                gc.freeze()  # the block's survivors too: all given back to the oldest
                gc.unfreeze()
