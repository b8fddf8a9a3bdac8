"""BLAS on one thread while the exact engine's chains on a layout run.

A multi-threaded BLAS splits each matrix product between its threads and waits for the
slowest: on a busy two-core machine the layout's chain ran up to 40 times slower at times.
The chain's products are small and many, so one thread loses little on an idle machine. Row
that keeps it: MIXED640 of ``benchmarks/bench_perf.py`` (docs/performance.md, sections 2
and 3).

:func:`one_thread` pins every BLAS loaded in the process to one thread for a block in the
main thread and gives each back the threads it had after it (nested blocks pin once).
The libraries are found by threadpoolctl when first needed (a few milliseconds, once);
where it finds none, nothing is changed.

Examples
--------
>>> with one_thread():
...     inside = blas_threads()
>>> set(inside) <= {1}
True
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

__all__ = ["blas_threads", "one_thread"]

#: Blocks inside :func:`one_thread` now (in the main thread).
_depth = 0
#: Each BLAS's controller with the threads it had when the first block began.
_saved: list[tuple[Any, int]] = []
#: The controllers of the BLAS libraries loaded when first asked for (None: not yet).
_found: list[Any] | None = None


def _controllers() -> list[Any]:
    """The threadpoolctl controllers of the loaded BLAS libraries, found once."""
    global _found
    if _found is None:
        from threadpoolctl import ThreadpoolController  # noqa: PLC0415 (a few ms: on first use)

        _found = list(ThreadpoolController().select(user_api="blas").lib_controllers)
    return _found


def blas_threads() -> list[int]:
    """The threads each loaded BLAS library uses now (as threadpoolctl finds them).

    Examples
    --------
    >>> all(count >= 1 for count in blas_threads())
    True
    """
    return [int(controller.get_num_threads()) for controller in _controllers()]


@contextmanager
def one_thread() -> Iterator[None]:
    """Every loaded BLAS on one thread within the block; the threads each had, after it.

    In the main thread only: the OpenBLAS this was measured with (0.3.31) ignores a count
    set from any other thread, so a pin or a restore made there would not hold (a block
    in another thread runs with the threads there are: one while the main thread's block
    runs). Blocks nest: the outermost pins and restores."""
    global _depth
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    if _depth == 0:
        _pin()
    _depth += 1
    try:
        yield
    finally:
        _depth -= 1
        if _depth == 0:
            _restore()


def _pin() -> None:
    """Every loaded BLAS on one thread, the threads of those that had more kept."""
    for controller in _controllers():
        threads = int(controller.get_num_threads())
        if threads != 1:
            _saved.append((controller, threads))
            controller.set_num_threads(1)


def _restore() -> None:
    """Each BLAS :func:`_pin` pinned back on the threads it had."""
    while _saved:
        controller, threads = _saved.pop()
        controller.set_num_threads(threads)
