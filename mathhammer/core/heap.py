"""Batches that leave the objects already made out of the garbage collector's work.

A batch fills the package's caches with hundreds of thousands of small objects, and every
full collection walked them all though they hold no garbage. Inside :func:`settled_heap` the
objects that existed on entering are set aside (:func:`gc.freeze`) and given back on leaving
(:func:`gc.unfreeze`), so garbage among them is collected later, not lost; no collection of
the middle or the oldest generation is made inside the block, and the youngest is collected
after :data:`YOUNG_COLLECTION` new objects. Rows that keep it: BATCH-compare and
BATCH-report of ``benchmarks/bench_perf.py``; the measurements are in docs/performance.md,
sections 2 and 3.

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
