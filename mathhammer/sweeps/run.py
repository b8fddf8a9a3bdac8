"""Many attackers against many targets in many contexts: :func:`sweep`."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import OptionError, ProfileError, field_error
from ..model.context import Context
from ..montecarlo.engine import seed_sequence
from ..rules.registry import RulesetLike
from ..units.compare import loadouts_of, targets_of
from ..units.options import DEFAULT_METRIC, Metric, check_metric
from ..units.targets import Target
from .executors import task_results
from .store import SweepStore, fingerprint
from .work import SWEEP_COLUMNS, TASK_ROWS, Task, arrow, run_task, tasks_of, typed

__all__ = ["sweep"]


def sweep(
    attackers: Any,
    targets: Any,
    *,
    contexts: Any = None,
    rules: RulesetLike = "11e",
    metric: Metric = DEFAULT_METRIC,
    trials: int = 0,
    rng: int | np.random.SeedSequence | None = 0,
    executor: Any = None,
    jobs: int | None = None,
    path: str | Path | None = None,
    resume: bool = False,
    collect: bool = True,
    progress: bool = False,
    task_rows: int = TASK_ROWS,
) -> Any:
    """Every attacker against every target in every context; one row each.

    Parameters
    ----------
    attackers, targets
        As for :func:`mathhammer.compare`: loadouts (a unit's options in a phase among
        them, as :func:`mathhammer.io.read_army` gives them) and targets.
    contexts : Context, dict of str to Context, or list of them, optional
        The situations to attack in (``Context()`` by default), each a value of the
        ``context`` column: the dict's keys, or each context's changes
        (``"half_range"``; ``"default"`` for none).
    rules, metric
        As for :func:`mathhammer.compare`.
    trials : int
        With N > 0, each row also has a Monte Carlo check of N trials (``mc_mean_killed``,
        ``mc_se_killed``, ``mc_z``, ``mc_p``), drawn from the task's own seed.
    rng : int, numpy.random.SeedSequence or None
        The checks' seed: an integer >= 0 (0 by default) or a SeedSequence, from which
        each task's seed is spawned by the task's number, so the numbers do not depend on
        who runs it; None draws fresh entropy (a sweep that is to be resumed needs a
        seed). A numpy Generator is refused: streams cannot be spawned from it
        reproducibly (:func:`~mathhammer.montecarlo.engine.seed_sequence`).
    executor : optional
        Where the tasks run: None (``jobs`` local processes; serially for one), a
        :class:`concurrent.futures.Executor`, ``"dask"`` (a Dask ``LocalCluster`` of
        ``jobs`` workers), a scheduler address ``"tcp://host:port"`` or a
        ``distributed.Client`` (:mod:`mathhammer.sweeps.executors`).
    jobs : int, optional
        Local processes, or a LocalCluster's workers: 1, or the processor count for
        ``"dask"``, by default.
    path : str or Path, optional
        A folder to write the rows to as they come, one Parquet file per task
        (:mod:`mathhammer.sweeps.store`); with ``resume=True`` a sweep interrupted there
        goes on where it stopped (the tasks written are not computed again), and a
        sweep written with other inputs is refused.
    collect : bool
        Return the rows (read back from ``path`` when given); with ``collect=False`` and
        a ``path`` the rows stay on disk, and the number of rows is returned: the
        sweep's memory is then that of a few tasks, however many rows it makes.
    progress : bool
        A progress bar of the rows (tqdm) on standard error; a Dask cluster's dashboard
        address is printed there too.
    task_rows : int
        The fewest rows of a task (whole attackers): :data:`~mathhammer.sweeps.work.TASK_ROWS`.

    Returns
    -------
    pandas.DataFrame or int
        The columns of :func:`mathhammer.compare` with ``context`` after ``target``, one
        row per attacker x target x context in that order (contexts outermost), columns
        that no row fills left out; or the number of rows (``collect=False``).

    Examples
    --------
    >>> import mathhammer as mh
    >>> bolt = mh.Weapon("Bolt rifle", attacks=2, skill=3, strength=4, ap=-1, damage=1)
    >>> frame = mh.sweep({"bolters": [(bolt, 10)]}, ["Horde infantry", "Vehicle"],
    ...                  contexts={"open": mh.Context(), "cover": mh.Context(target_in_cover=True)})
    >>> frame[["loadout", "target", "context", "mean_killed"]].round(3)
       loadout          target context  mean_killed
    0  bolters  Horde infantry    open        7.407
    1  bolters         Vehicle    open        0.000
    2  bolters  Horde infantry   cover        5.556
    3  bolters         Vehicle   cover        0.000
    """
    loadouts, against = loadouts_of(attackers), targets_of(targets)
    situations = _contexts(contexts)
    metric = check_metric(metric)
    _check_int("trials", trials, 0)
    _check_int("task_rows", task_rows, 1)
    workers = _jobs(jobs, executor)
    root = seed_sequence(rng)
    options: dict[str, Any] = {
        "rules": rules, "metric": metric, "check_trials": trials, "seed": root
    }  # fmt: skip
    tasks = list(tasks_of(loadouts, against, situations, **options, task_rows=task_rows))
    store = None
    if path is not None:
        inputs = _fingerprints(
            attackers=loadouts, targets=against, contexts=situations, rules=str(rules),
            metric=metric if isinstance(metric, str) else metric.__qualname__,
            check_trials=trials, seed=_seed_key(root), task_rows=task_rows,
        )  # fmt: skip
        store = SweepStore(path, inputs, resume=resume)
        written = store.done()
        tasks = [t for t in tasks if t.index not in written]
    elif not collect:
        raise field_error(OptionError, "collect", "True without a path", collect)
    frames = _run(
        tasks, against, store, executor=executor, jobs=workers, collect=collect, progress=progress
    )
    if not collect:
        assert store is not None
        return sum(_rows(p) for p in store.path.glob("part-*.parquet"))
    return _filled(_frame(store, frames))


def _seed_key(root: np.random.SeedSequence) -> Any:
    """The seed as a sweep's store records it: the integer it was made from (as stores
    written by a sweep seeded by an integer record it), else its entropy and spawn key."""
    return root.entropy if not root.spawn_key else (root.entropy, root.spawn_key)


def _fingerprints(**inputs: Any) -> dict[str, str]:
    """Each input's fingerprint, by name, in the order given."""
    return {name: fingerprint(value) for name, value in inputs.items()}


def _run(
    tasks: list[Task],
    against: list[Target],
    store: SweepStore | None,
    *,
    executor: Any,
    jobs: int,
    collect: bool,
    progress: bool,
) -> dict[int, Any]:
    """Run the tasks, writing each one's rows to the store as they come; the frames by
    task number when they are collected here (no store)."""
    bar = _bar(sum(t.rows for t in tasks), progress)
    frames: dict[int, Any] = {}
    try:
        results = task_results(
            run_task, tasks, against, executor=executor, jobs=jobs,
            on_cluster=(lambda link: bar.write(f"Dask dashboard: {link}")) if progress else None,
        )  # fmt: skip
        for task, frame in results:
            if store is not None:
                store.write(task.index, frame)
            elif collect:
                frames[task.index] = frame
            bar.update(task.rows)
    finally:
        bar.close()
    return frames


def _frame(store: SweepStore | None, frames: dict[int, Any]) -> Any:
    """Every row, in task order: read back from the store, or joined from ``frames``."""
    import pandas as pd

    if store is not None:
        return store.read()
    if frames:
        return pd.concat([frames[i] for i in sorted(frames)], ignore_index=True)
    return typed(pd.DataFrame(columns=SWEEP_COLUMNS), "")


def _filled(frame: Any) -> Any:
    """The frame without the columns no row fills (the names of a row are always kept)."""
    keep = [
        c for c in frame.columns if c in ("loadout", "target", "context") or frame[c].notna().any()
    ]
    return frame[keep]


def _contexts(contexts: Any) -> list[tuple[str, Context]]:
    """``(name, context)`` pairs, names unique."""
    if contexts is None:
        return [("default", Context())]
    if isinstance(contexts, Mapping):
        pairs = [(str(k), v) for k, v in contexts.items()]
        _check_contexts([value for _, value in pairs], "Context values")
        return _unique(pairs)
    items = _context_list(contexts)
    if not items:
        raise field_error(ProfileError, "contexts", "at least one Context", contexts)
    _check_contexts(items, "Context objects")
    return _unique([(", ".join(c.changes()) or "default", c) for c in items])


def _context_list(contexts: Any) -> list[Any]:
    """The items of a context or a list of them, unchecked."""
    if isinstance(contexts, Context):
        return [contexts]
    if isinstance(contexts, Sequence) and not isinstance(contexts, str):
        return list(contexts)
    raise field_error(ProfileError, "contexts", "a Context, or a list or dict of them", contexts)


def _check_contexts(values: list[Any], constraint: str) -> None:
    """Refuse the first value that is not a :class:`Context`."""
    for value in values:
        if not isinstance(value, Context):
            raise field_error(ProfileError, "contexts", constraint, value)


def _unique(pairs: list[tuple[str, Context]]) -> list[tuple[str, Context]]:
    names = [name for name, _ in pairs]
    if not pairs:
        raise field_error(ProfileError, "contexts", "at least one Context", pairs)
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise field_error(ProfileError, "context names", "unique", twice)
    return pairs


def _check_int(name: str, value: Any, least: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise field_error(OptionError, name, f"an integer >= {least}", value)


def _jobs(jobs: Any, executor: Any) -> int:
    if jobs is None:
        return (os.cpu_count() or 1) if executor == "dask" else 1
    _check_int("jobs", jobs, 1)
    return int(jobs)


def _rows(path: Path) -> int:
    arrow()
    import pyarrow.parquet as pq

    return int(pq.ParquetFile(path).metadata.num_rows)


class _NoBar:
    def update(self, n: int) -> None: ...
    def close(self) -> None: ...
    def write(self, text: str) -> None: ...


def _bar(total: int, progress: bool) -> Any:
    if not progress:
        return _NoBar()
    from tqdm import tqdm

    return tqdm(total=total, unit="rows", desc="sweep", dynamic_ncols=True)
