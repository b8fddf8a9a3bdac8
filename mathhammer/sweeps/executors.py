"""Where a sweep's tasks run: here, in local processes, or on a Dask cluster.

:func:`task_results` yields each task's result as it completes, with a bounded number of
tasks in flight (so a long sweep holds a few results at a time, not all of them). What every
task needs (``shared``: a sweep's targets) is sent once to each Dask worker
(``Client.scatter``), not with each task:

- ``executor=None``: serially with ``jobs=1``, else in ``jobs`` local processes
  (:func:`~mathhammer.io.workers.completed_map`, the workers of ``mathhammer report --jobs``);
- any :class:`concurrent.futures.Executor`;
- ``"dask"``: a Dask ``LocalCluster`` of ``jobs`` worker processes, started and closed here;
- ``"tcp://host:port"``: a running Dask scheduler (refused within :data:`CONNECT_TIMEOUT`
  seconds when it cannot be reached);
- a ``distributed.Client``, as it is.

Dask is the optional extra ``mathhammer[dask]``. Tasks go to it unhashed (``pure=False``):
hashing a task's targets for a key took longer than the scheduler's own work. A task
resubmitted after a worker died may complete twice; the caller's writer is idempotent per task.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from contextlib import AbstractContextManager, contextmanager, nullcontext
from functools import partial
from itertools import islice
from typing import Any, TypeVar

from ..core.caches import clear as clear_caches
from ..errors import OptionError, field_error
from ..io.workers import completed_map

__all__ = ["CONNECT_TIMEOUT", "EXECUTORS", "LOCAL_CLUSTER_CONFIG", "task_results"]

T = TypeVar("T")
S = TypeVar("S")
R = TypeVar("R")

#: Tasks in flight per worker: tasks differ in cost (a unit with many weapon options
#: takes longer), and a slow one must not leave a worker idle.
AHEAD = 8
#: Tasks sent to a Dask worker at a time: each submission costs the scheduler and the
#: client about 10 ms of the cores the workers use too (on two cores, a LocalCluster sweep
#: of 256-row tasks ran 10 % slower than of 1024-row ones). The tasks, their seeds and their
#: files stay as they are; only their transport is grouped.
DASK_BATCH = 4
#: How long a scheduler address may take to answer, in seconds.
CONNECT_TIMEOUT = 5
#: The Dask settings of a LocalCluster started here: no statistical profiler sampling the
#: worker's stack every 10 ms (it competes for the interpreter with the task it samples:
#: the tasks took 5 % longer), and the system monitor (the dashboard's memory and CPU
#: graphs) every 5 s rather than 0.5 s. A cluster of one's own keeps its settings.
LOCAL_CLUSTER_CONFIG = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.system-monitor.interval": "5s",
}
#: What ``executor=`` takes, in words.
EXECUTORS = (
    "None (local processes), a concurrent.futures.Executor, 'dask' (a LocalCluster), "
    "a scheduler address 'tcp://host:port' or a distributed.Client"
)


def task_results(
    function: Callable[[T, S], R],
    tasks: Iterable[T],
    shared: S,
    *,
    executor: Any = None,
    jobs: int = 1,
    on_cluster: Callable[[str], None] | None = None,
) -> Iterator[tuple[T, R]]:
    """``(task, function(task, shared))`` for each task, as they complete.

    ``on_cluster`` is told the dashboard address of a Dask cluster."""
    if executor is None:
        yield from _local_results(function, tasks, shared, jobs)
        return
    with _executor(executor, jobs, on_cluster) as (pool, workers, client):
        if client is not None:
            [shared] = client.scatter([shared], broadcast=True, hash=False)
        batch = 1 if client is None else DASK_BATCH
        for done in _as_completed(
            pool, partial(_each, function), _batches(tasks, batch), shared,
            in_flight=max(2 * workers, AHEAD * workers // batch),
        ):  # fmt: skip
            yield from zip(*done, strict=True)


def _local_results(
    function: Callable[[T, S], R], tasks: Iterable[T], shared: S, jobs: int
) -> Iterator[tuple[T, R]]:
    """:func:`task_results` without an executor: serially, or in ``jobs`` local processes."""
    if jobs == 1:
        yield from ((task, function(task, shared)) for task in tasks)
        return
    each = partial(_with, function, shared)
    yield from completed_map(each, list(tasks), jobs=jobs, ahead=AHEAD * jobs)


def _with(function: Callable[[T, S], R], shared: S, task: T) -> R:
    return function(task, shared)


def _each(function: Callable[[T, S], R], tasks: list[T], shared: S) -> list[R]:
    return [function(task, shared) for task in tasks]


def _batches(tasks: Iterable[T], size: int) -> Iterator[list[T]]:
    source = iter(tasks)
    while batch := list(islice(source, size)):
        yield batch


def _executor(
    spec: Any, jobs: int, on_cluster: Callable[[str], None] | None
) -> AbstractContextManager[tuple[Executor, int, Any]]:
    """The executor a spec names, its number of workers and its Dask client (None for
    another executor); a cluster started here is closed on leaving."""
    if isinstance(spec, Executor):
        return nullcontext((spec, max(1, getattr(spec, "_max_workers", jobs)), None))
    if not isinstance(spec, str):
        if not _is_client(spec):
            raise field_error(OptionError, "executor", EXECUTORS, spec)
        return nullcontext(_attached(spec, on_cluster))
    if spec == "dask":
        return _local_cluster(jobs, on_cluster)
    if "://" in spec:
        return _scheduler(spec, on_cluster)
    raise field_error(OptionError, "executor", EXECUTORS, spec)


def _is_client(spec: Any) -> bool:
    """True if ``spec`` is a ``distributed.Client`` (Dask being installed)."""
    client_type = _client_type()
    return client_type is not None and isinstance(spec, client_type)


def _attached(client: Any, on_cluster: Callable[[str], None] | None) -> tuple[Executor, int, Any]:
    """A running cluster's executor, its number of workers and its client; ``on_cluster``
    is told its dashboard."""
    _announce(client, on_cluster)
    workers = len(client.scheduler_info().get("workers", {}))
    return client.get_executor(pure=False), max(1, workers), client


def _announce(client: Any, on_cluster: Callable[[str], None] | None) -> None:
    """Tell ``on_cluster`` (if any) the client's dashboard address."""
    if on_cluster is not None:
        on_cluster(str(client.dashboard_link))


@contextmanager
def _local_cluster(
    jobs: int, on_cluster: Callable[[str], None] | None
) -> Iterator[tuple[Executor, int, Any]]:
    """A Dask ``LocalCluster`` of ``jobs`` worker processes, closed on leaving."""
    dask = _distributed()
    config = importlib.import_module("dask").config
    with (
        config.set(LOCAL_CLUSTER_CONFIG),
        dask.LocalCluster(
            n_workers=jobs, threads_per_worker=1, processes=True, dashboard_address=":0"
        ) as cluster,
        dask.Client(cluster) as client,
    ):
        _announce(client, on_cluster)
        try:
            yield client.get_executor(pure=False), jobs, client
        finally:
            # a worker holding the engine's full caches took over 4 s to exit (and
            # was then killed by its nanny); emptied first, it exits at once
            client.run(clear_caches, on_error="ignore")


@contextmanager
def _scheduler(
    address: str, on_cluster: Callable[[str], None] | None
) -> Iterator[tuple[Executor, int, Any]]:
    """A client of the running Dask scheduler at ``address``, closed on leaving."""
    try:
        client = _distributed().Client(address, timeout=f"{CONNECT_TIMEOUT}s")
    except (OSError, TimeoutError) as exc:
        raise OptionError(
            f"executor: no Dask scheduler answered at {address!r} within "
            f"{CONNECT_TIMEOUT} s ({type(exc).__name__}); is it running, and is the "
            "address right?"
        ) from None
    with client:
        yield _attached(client, on_cluster)


def _distributed() -> Any:
    """The ``distributed`` module (the dask extra), imported where it is used."""
    try:
        return importlib.import_module("distributed")
    except ImportError:
        raise OptionError(
            'executor: Dask is the optional extra mathhammer[dask]; pip install "mathhammer[dask]"'
        ) from None


def _client_type() -> type | None:
    """``distributed.Client`` when Dask is installed."""
    try:
        return _distributed().Client  # type: ignore[no-any-return]
    except OptionError:
        return None


def _as_completed(
    pool: Executor,
    function: Callable[[T, S], R],
    tasks: Iterable[T],
    shared: Any,
    in_flight: int,
) -> Iterator[tuple[T, R]]:
    """Submit at most ``in_flight`` items at a time (tasks, or batches of them for Dask);
    yield each as it completes. An item's error is raised here, with its own type and
    message; the items in flight are then cancelled."""
    pending: dict[Future[R], T] = {}
    source = iter(tasks)
    try:
        for task in source:
            pending[pool.submit(function, task, shared)] = task
            if len(pending) >= in_flight:
                yield from _completed(pending)
        while pending:
            yield from _completed(pending)
    finally:
        for future in pending:
            future.cancel()


def _completed(pending: dict[Future[R], T]) -> Iterator[tuple[T, R]]:
    done, _ = wait(list(pending), return_when=FIRST_COMPLETED)
    for future in done:
        task = pending.pop(future)
        yield task, future.result()
