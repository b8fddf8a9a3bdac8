"""How a sweep runs and where its rows go: :class:`SweepExecution` and :class:`SweepOutput`.

:func:`mathhammer.sweep` takes what is computed (attackers, targets, contexts, rules, metric,
checks) as its own arguments, and these two records for the rest: where the tasks run and how
they are cut (``execution=``), and the folder the rows are written to (``output=``). Each
checks itself when it is made, so that a sweep refuses a bad option before any work starts.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import OptionError, field_error
from .work import TASK_ROWS

__all__ = ["SweepExecution", "SweepOutput", "check_least", "output_of"]


@dataclass(frozen=True)
class SweepExecution:
    """Where a sweep's tasks run, how many rows each holds, and whether progress is shown.

    Parameters
    ----------
    executor : optional
        None (``jobs`` local processes; serially for one), a
        :class:`concurrent.futures.Executor`, ``"dask"`` (a Dask ``LocalCluster`` of ``jobs``
        workers), a scheduler address ``"tcp://host:port"`` or a ``distributed.Client``
        (:mod:`mathhammer.sweeps.executors`).
    jobs : int, optional
        Local processes, or a LocalCluster's workers: 1, or the processor count for
        ``"dask"``, by default.
    task_rows : int
        The fewest rows of a task (whole attackers):
        :data:`~mathhammer.sweeps.work.TASK_ROWS`.
    progress : bool
        A progress bar of the rows (tqdm) on standard error; a Dask cluster's dashboard
        address is printed there too.

    Examples
    --------
    >>> import mathhammer as mh
    >>> mh.SweepExecution(jobs=2).workers
    2
    >>> mh.SweepExecution(jobs=0)
    Traceback (most recent call last):
    ...
    mathhammer.errors.OptionError: jobs must be an integer >= 1; got 0
    """

    executor: Any = None
    jobs: int | None = None
    task_rows: int = TASK_ROWS
    progress: bool = False

    def __post_init__(self) -> None:
        check_least("task_rows", self.task_rows, 1)
        if self.jobs is not None:
            check_least("jobs", self.jobs, 1)

    @property
    def workers(self) -> int:
        """The local processes or cluster workers the sweep starts (``jobs`` resolved)."""
        if self.jobs is not None:
            return self.jobs
        return (os.cpu_count() or 1) if self.executor == "dask" else 1

    def workers_for(self, tasks: int) -> int:
        """The workers to start for ``tasks`` tasks: :attr:`workers`, never more than the
        tasks (a cluster of 256 workers for three tasks only costs their start).

        Examples
        --------
        >>> import mathhammer as mh
        >>> mh.SweepExecution("dask", jobs=256).workers_for(3), mh.SweepExecution().workers_for(0)
        (3, 1)
        """
        return max(1, min(self.workers, tasks))


@dataclass(frozen=True)
class SweepOutput:
    """The folder a sweep writes its rows to, one Parquet file per task.

    Parameters
    ----------
    path : str or Path
        The folder (:mod:`mathhammer.sweeps.store`): new or empty, or holding a sweep of the
        same inputs with ``resume=True``.
    resume : bool
        Go on with the sweep interrupted in ``path`` (the tasks written are not computed
        again); a sweep written with other inputs is refused.
    collect : bool
        Return the rows, read back from the folder; with ``collect=False`` the rows stay on
        disk and the number of rows is returned: the sweep's memory is then that of a few
        tasks, however many rows it makes.

    Examples
    --------
    >>> import mathhammer as mh
    >>> mh.SweepOutput("sweep-out", resume=True).folder.name
    'sweep-out'
    """

    path: str | os.PathLike[str]
    resume: bool = False
    collect: bool = True

    def __post_init__(self) -> None:
        if not isinstance(self.path, (str, os.PathLike)):
            raise field_error(OptionError, "path", "a str or Path of a folder", self.path)
        object.__setattr__(self, "path", Path(self.path))

    @property
    def folder(self) -> Path:
        """The folder, as a :class:`~pathlib.Path`."""
        return Path(self.path)


def output_of(output: str | os.PathLike[str] | SweepOutput | None) -> SweepOutput | None:
    """``output=`` as a :class:`SweepOutput`: a plain path is ``SweepOutput(path)``."""
    if output is None or isinstance(output, SweepOutput):
        return output
    if isinstance(output, (str, os.PathLike)):
        return SweepOutput(Path(output))
    raise field_error(OptionError, "output", "a folder's path or a SweepOutput", output)


def check_least(name: str, value: Any, least: int) -> None:
    """Refuse ``value`` unless it is an int (not a bool) of at least ``least``."""
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise field_error(OptionError, name, f"an integer >= {least}", value)
