"""Worker processes that never outlive their parent, and maps over them.

:func:`ordered_map` runs a function over items in a :class:`ProcessPoolExecutor` and yields
the results in input order, with only a few chunks of work in flight at a time (so the
results of a long run are not all held at once); :func:`completed_map` yields each item with
its result as soon as it is done, whatever its place (a slow item holds back no other). Their
workers:

- end with their parent: on Linux the kernel sends them ``SIGTERM`` when it dies
  (``prctl(PR_SET_PDEATHSIG)``), and everywhere a watchdog thread ends a worker whose
  parent process has changed (the parent died and the worker was adopted);
- ignore ``SIGINT``: Ctrl-C in a terminal reaches every process of the group, and is the
  parent's to handle (it stops the workers itself, and prints one line);
- are stopped when the map is left early: by an error, an interruption, or a consumer that
  stops iterating.

A worker that dies (the out-of-memory killer, a ``kill``) is reported as a
:class:`~concurrent.futures.process.BrokenProcessPool` whose message names the signal or
the exit status; so is a pool that cannot start one of its threads (a limit on threads or
on memory): the executor's own thread would die with a traceback and leave the results
waited for ever, so the map looks whether it still runs while it waits. It looks at the
workers too: the executor's thread, reading a result that a worker died half-way through
sending, waits for the rest of it for ever (and so would a map stopped early, waiting for
that thread); the map closes its own end of the results' pipe once every worker has ended,
and the read ends.

Examples
--------
>>> list(ordered_map(abs, [-3, 1, -2], jobs=2))
[3, 1, 2]
>>> sorted(completed_map(abs, [-3, 1, -2], jobs=2))
[(-3, 3), (-2, 2), (1, 1)]
"""

from __future__ import annotations

import ctypes
import os
import queue
import signal
import sys
import threading
import time
from collections.abc import Callable, Generator, Iterable, Iterator, Sized
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import closing, contextmanager
from itertools import islice
from multiprocessing.process import BaseProcess
from typing import Any, Protocol, TypeVar

from .outputs import process_running

__all__ = ["completed_map", "ordered_map"]

T = TypeVar("T")
R = TypeVar("R")

#: Linux's prctl option that asks for a signal when the parent dies.
_PR_SET_PDEATHSIG = 1
#: How often the watchdog thread looks at the parent process, in seconds.
WATCH_INTERVAL = 0.5
#: How often a map waiting for results looks whether the pool's manager thread and its
#: workers run.
POLL_INTERVAL = 0.5
#: How long a worker sent ``SIGTERM`` by a map stopped early may take to end before it is
#: killed, in seconds.
STOP_SECONDS = 5.0


class PoolStopped(BrokenProcessPool):
    """A pool of workers that cannot run: one of its threads could not start."""

    def __init__(self, error: BaseException) -> None:
        super().__init__(
            f"the pool of worker processes could not start a thread ({error}); "
            "run again, or with fewer jobs"
        )


def ordered_map(
    function: Callable[[T], R],
    items: Iterable[T],
    *,
    jobs: int,
    chunk: int = 8,
    ahead: int | None = None,
) -> Generator[R, None, None]:
    """``function(item)`` for each item, computed in ``jobs`` processes, in input order.

    Parameters
    ----------
    function : callable
        A module-level function (it is pickled to the workers).
    items : iterable
        Its arguments; read a few chunks ahead of the results, not all at once.
    jobs : int
        Worker processes.
    chunk : int
        Items sent to a worker at a time.
    ahead : int, optional
        Chunks in flight at a time (``2 * jobs`` by default): more keep every worker busy
        when the items' costs vary (a slow one at the head holds the results behind it),
        at the cost of holding that many results.

    Raises
    ------
    BrokenProcessPool
        When a worker dies, naming how (``killed by SIGKILL`` ...).

    Notes
    -----
    No more workers start than there are ``items`` (when their number is known): the pool
    starts every worker at once, and ``--jobs 256`` on a one-unit report forked 256
    processes (600 MB) to compute one item.
    """
    with closing(_map(function, items, jobs=jobs, chunk=chunk, ahead=ahead, ordered=True)) as done:
        for _, results in done:
            yield from results


def completed_map(
    function: Callable[[T], R],
    items: Iterable[T],
    *,
    jobs: int,
    chunk: int = 1,
    ahead: int | None = None,
) -> Generator[tuple[T, R], None, None]:
    """``(item, function(item))`` for each item, computed in ``jobs`` processes, as each is
    done: a slow item at the head does not leave the other workers idle once ``ahead``
    items are waiting behind it, as it does in :func:`ordered_map`.

    The parameters, errors and workers are those of :func:`ordered_map`; ``ahead`` chunks
    in flight at a time bound the results held at once.
    """
    with closing(_map(function, items, jobs=jobs, chunk=chunk, ahead=ahead, ordered=False)) as done:
        for batch, results in done:
            yield from zip(batch, results, strict=True)


def _map(
    function: Callable[[T], R],
    items: Iterable[T],
    *,
    jobs: int,
    chunk: int,
    ahead: int | None,
    ordered: bool,
) -> Generator[tuple[list[T], list[R]], None, None]:
    """Each chunk of items with its results: in input order, or as each chunk is done."""
    if isinstance(items, Sized):
        jobs = max(1, min(jobs, len(items)))
    pool = ProcessPoolExecutor(max_workers=jobs, initializer=_start_worker, initargs=(os.getpid(),))
    processes: dict[int, BaseProcess] = {}
    chunks = _chunks(items, chunk)
    pending: dict[Future[list[R]], list[T]] = {}  # in the order sent
    # each future, once done, is put here by the pool's thread: a wait on it holds no lock
    # that an interruption could leave held (concurrent.futures.wait takes each future's
    # lock in turn, and Ctrl-C between two left the pool's thread blocked on one for ever)
    notices: queue.SimpleQueue[Future[list[R]]] = queue.SimpleQueue()
    finished = False
    failed: list[BaseException] = []  # what stopped the pool's manager thread
    try:
        with _manager_errors(pool, failed), _pool_errors(pool, processes):
            with _signals_held():  # the workers start here: Ctrl-C waits until they ignore it
                for _ in range(2 * jobs if ahead is None else max(ahead, jobs)):
                    _submit(pool, function, chunks, pending, processes, notices)
            while pending:
                done = _done(pending, ordered)
                if not done:
                    _wait(pool, notices, failed, pending, processes)
                    continue
                for future in done:
                    results = future.result()
                    batch = pending.pop(future)
                    with _signals_held():  # never half-way through the pool's own bookkeeping
                        _submit(pool, function, chunks, pending, processes, notices)
                    yield batch, results
        finished = True
    finally:
        with _signals_held():
            _stop(pool, processes.values(), finished)


@contextmanager
def _manager_errors(pool: ProcessPoolExecutor, failed: list[BaseException]) -> Iterator[None]:
    """Record in ``failed`` what stops the pool's manager thread (its error said once, by
    the map, not printed); other threads' errors are printed as before."""
    previous = threading.excepthook

    def hook(args: threading.ExceptHookArgs) -> None:
        if args.thread is not None and args.thread is _manager(pool):
            failed.append(args.exc_value or RuntimeError("its manager thread stopped"))
        else:
            previous(args)

    threading.excepthook = hook
    try:
        yield
    finally:
        if threading.excepthook is hook:
            threading.excepthook = previous


@contextmanager
def _pool_errors(pool: ProcessPoolExecutor, processes: dict[int, BaseProcess]) -> Iterator[None]:
    """Say how a pool broke: a :class:`BrokenProcessPool` naming how its worker died (once
    every worker is reaped), or :class:`PoolStopped` when its first thread did not start."""
    try:
        yield
    except PoolStopped:
        raise
    except BrokenProcessPool:
        _stop(pool, processes.values(), finished=False)  # every worker reaped: each exit known
        raise BrokenProcessPool(death_message(processes.values())) from None
    except RuntimeError as exc:  # the pool's first thread, started here, did not start
        if "can't start new thread" not in str(exc):
            raise
        raise PoolStopped(exc) from None


def _done(pending: dict[Future[list[R]], list[T]], ordered: bool) -> list[Future[list[R]]]:
    """The futures done, to be yielded now: ordered, the first sent if it is done; else
    every one done, in the order sent."""
    looked_at = list(islice(pending, 1)) if ordered else list(pending)  # in the order sent
    return [f for f in looked_at if f.done()]


def _wait(
    pool: ProcessPoolExecutor,
    notices: queue.SimpleQueue[Future[list[R]]],
    failed: list[BaseException],
    pending: dict[Future[list[R]], list[T]],
    processes: dict[int, BaseProcess],
) -> None:
    """Wait a moment for a future to be done; if none is, check that the pool's manager
    thread and its workers still run."""
    try:
        notices.get(timeout=POLL_INTERVAL)  # one done (perhaps one taken already)
    except queue.Empty:
        _check_running(pool, failed, list(pending))
        _check_workers(processes.values())


def _manager(pool: ProcessPoolExecutor) -> threading.Thread | None:
    """The pool's manager thread (the pool says nothing of it publicly)."""
    thread: threading.Thread | None = vars(pool).get("_executor_manager_thread")
    return thread


def _check_running(
    pool: ProcessPoolExecutor, failed: list[BaseException], waited: list[Future[Any]]
) -> None:
    """Raise :class:`PoolStopped` when the pool's manager thread has stopped while results
    are still waited for (it ends otherwise only once the pool is shut down, or broken:
    then every result waited for is set, and read as usual)."""
    if failed:  # what stopped it, as the hook recorded it
        raise PoolStopped(failed[0])
    thread = _manager(pool)
    if thread is None or thread.is_alive():
        return
    if any(future.done() for future in waited):
        return  # broken meanwhile: its results say how
    raise PoolStopped(RuntimeError("its manager thread stopped"))


def _check_workers(processes: Iterable[BaseProcess]) -> None:
    """Raise :class:`BrokenProcessPool` when a worker has ended while results are waited
    for (a worker of the pool ends only once it is shut down). The pool's manager thread
    says so itself within moments, unless the worker died half-way through sending a
    result: then that thread waits for the rest of it for ever."""
    if any(process.exitcode is not None for process in processes):
        raise BrokenProcessPool("a worker process ended")


def _chunks(items: Iterable[T], size: int) -> Iterator[list[T]]:
    iterator = iter(items)
    while batch := list(islice(iterator, size)):
        yield batch


def _submit(
    pool: ProcessPoolExecutor,
    function: Callable[[T], R],
    chunks: Iterator[list[T]],
    pending: dict[Future[list[R]], list[T]],
    processes: dict[int, BaseProcess],
    notices: queue.SimpleQueue[Future[list[R]]],
) -> None:
    """Send the next chunk, if any, and note the workers (to stop them, or say how one died);
    the chunk's future is put in ``notices`` once it is done."""
    batch = next(chunks, None)
    if batch is None:
        return
    try:
        future = pool.submit(_run_chunk, function, batch)
        pending[future] = batch
        future.add_done_callback(notices.put)
    finally:  # the workers start before the pool's thread, which may not start
        processes.update(pool._processes or {})  # the pool has no public list of them


@contextmanager
def _signals_held() -> Iterator[None]:
    """Hold back ``SIGINT`` and ``SIGTERM`` (where signals can be masked) for a moment: while
    workers start (they inherit the mask, and take Ctrl-C only once they ignore it) and while
    the pool updates its queues (an exception half-way through a write would leave a
    message half sent). A signal that came meanwhile is delivered at the end."""
    mask = getattr(signal, "pthread_sigmask", None)
    if mask is None or threading.current_thread() is not threading.main_thread():
        yield
        return
    held = mask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    try:
        yield
    finally:
        mask(signal.SIG_SETMASK, held)


def _run_chunk(function: Callable[[T], R], batch: list[T]) -> list[R]:  # pragma: no cover
    """One chunk of work, in a worker process (where coverage is not measured)."""
    return [function(item) for item in batch]


def _stop(pool: ProcessPoolExecutor, processes: Iterable[BaseProcess], finished: bool) -> None:
    """Shut the pool down; left early, first stop the workers' current work too. Its
    manager thread is waited for either way: left running, it races the interpreter's exit
    (which then prints an error about a closed pipe, or waits for ever).

    Left early, the workers are ended and waited for, and then this process's end of the
    results' pipe for writing is closed (the workers hold the others): a result that a
    worker was sending when it ended is cut short, and the manager thread, reading it, is
    told so (the end of the pipe) rather than waiting for the rest of it for ever."""
    if not finished:
        _end_workers(pool, processes)
    thread = _manager(pool)
    if thread is not None and thread.ident is None:  # it never started: nothing to join
        vars(pool)["_executor_manager_thread"] = None
    pool.shutdown(wait=True, cancel_futures=True)


def _end_workers(pool: ProcessPoolExecutor, processes: Iterable[BaseProcess]) -> None:
    """End the workers (``SIGTERM``, then ``SIGKILL`` after :data:`STOP_SECONDS`) and wait
    for them; then close this process's end of the results' pipe for writing."""
    processes = list(processes)
    for process in processes:
        if process.exitcode is None:
            process.terminate()
    for process in processes:
        process.join(STOP_SECONDS)
        if process.exitcode is None:  # still alive: SIGTERM held back, or not yet handled
            process.kill()
            process.join()
    _close_results_writer(pool)


def _close_results_writer(pool: ProcessPoolExecutor) -> None:
    """Close this process's end of the results' pipe for writing (the workers, ended, held
    the others): the manager thread reading a result cut short is told so."""
    results = vars(pool).get("_result_queue")  # the pool says nothing of it publicly
    if results is not None:
        results._writer.close()


class Ended(Protocol):
    """A process, as far as :func:`death_message` looks at it."""

    @property
    def exitcode(self) -> int | None: ...


def death_message(processes: Iterable[Ended]) -> str:
    """How a pool's worker died, in one line: the signal that killed it, or its status.

    Examples
    --------
    >>> class Dead:
    ...     exitcode = -9
    >>> death_message([Dead()])
    'a worker process was killed by SIGKILL (the system may have run out of memory); \
run again, or with fewer jobs'
    """
    codes = [p.exitcode for p in processes if p.exitcode]
    # the pool stops the other workers with SIGTERM once one dies: name the first cause
    codes.sort(key=lambda code: code == -signal.SIGTERM)
    return f"a worker process {_how_ended(next(iter(codes), None))}; run again, or with fewer jobs"


def _how_ended(code: int | None) -> str:
    """How a worker with this exit code ended (None: no code to tell)."""
    if code is None:
        return "ended unexpectedly"
    if code > 0:
        return f"exited with status {code}"
    name = _signal_name(-code)
    memory = " (the system may have run out of memory)" if name == "SIGKILL" else ""
    return f"was killed by {name}{memory}"


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


# --------------------------------------------------------------------------- in the worker
def _start_worker(parent: int) -> None:  # pragma: no cover (runs in the workers only)
    """Set up a worker process: ``SIGINT`` ignored, ``SIGTERM`` fatal, gone with its parent.

    The tests check its effects from outside (tests/test_report_faults.py): the workers of
    a killed parent exit, and Ctrl-C prints one line.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # a handler inherited by fork would not die
    if hasattr(signal, "pthread_sigmask"):  # held back by the parent while it started us
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})
    armed = set_parent_death_signal(signal.SIGTERM)
    watched = os.getppid()
    if watched != parent and not process_running(parent):
        os._exit(1)  # the parent died before the death signal was asked for
    watchdog = threading.Thread(
        target=watch_parent, args=(watched, WATCH_INTERVAL, _exit), daemon=True
    )
    try:
        watchdog.start()
    except RuntimeError:  # no thread may start here (a limit on threads or their stacks)
        if not armed:  # nothing else would end this worker with its parent
            os._exit(1)


def set_parent_death_signal(number: int) -> bool:
    """Ask Linux to send this process ``number`` when its parent dies (0: no signal);
    return whether it did. False on other systems: the watchdog thread serves there.

    Examples
    --------
    >>> set_parent_death_signal(0) == sys.platform.startswith("linux")
    True
    """
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.prctl(_PR_SET_PDEATHSIG, number, 0, 0, 0) == 0)
    except (OSError, AttributeError):  # no C library to load, or no prctl in it
        return False


def watch_parent(parent: int, interval: float, gone: Callable[[], object]) -> None:
    """Call ``gone()`` once the parent process is no longer ``parent`` (it died: the
    process was adopted by another), looking every ``interval`` seconds.

    Examples
    --------
    >>> watch_parent(os.getppid() + 1, 0.01, lambda: print("parent gone"))
    parent gone
    """
    while os.getppid() == parent:
        time.sleep(interval)
    gone()


def _exit() -> None:  # pragma: no cover (ends the process: runs in the workers only)
    os._exit(1)
