"""Many attackers against many targets in many contexts: :func:`sweep`."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import OptionError, ProfileError, field_error
from ..model.context import Context
from ..montecarlo.engine import seed_sequence
from ..rules.registry import RulesetLike
from ..units.compare import loadouts_of, targets_of
from ..units.options import DEFAULT_METRIC, Metric, check_metric
from ..units.targets import Target
from .executors import task_results
from .options import SweepExecution, SweepOutput, check_least, output_of
from .store import SweepStore, fingerprint
from .work import SWEEP_COLUMNS, Task, arrow, check_rows, run_task, tasks_of, typed

if TYPE_CHECKING:
    import pandas as pd


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
    execution: SweepExecution | None = None,
    output: str | os.PathLike[str] | SweepOutput | None = None,
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
    execution : SweepExecution, optional
        Where the tasks run (here, local processes, a Dask cluster), how many rows each
        holds, and whether a progress bar is shown: ``SweepExecution()`` (serially) by
        default.
    output : str, Path or SweepOutput, optional
        A folder to write the rows to as they come, one Parquet file per task
        (:mod:`mathhammer.sweeps.store`); a :class:`SweepOutput` also says whether to
        resume a sweep interrupted there and whether to return the rows or only their
        number. Without it the rows are returned and nothing is written.

    Returns
    -------
    pandas.DataFrame or int
        The columns of :func:`mathhammer.compare` with ``context`` after ``target``, one
        row per attacker x target x context in that order (contexts outermost), columns
        that no row fills left out; or the number of rows (``SweepOutput(collect=False)``).

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
    check_least("trials", trials, 0)
    how = _execution(execution)
    out = output_of(output)
    root = seed_sequence(rng)
    options: dict[str, Any] = {
        "rules": rules, "metric": metric, "check_trials": trials, "seed": root
    }  # fmt: skip
    check_rows(loadouts, against, situations, rules)
    tasks = list(tasks_of(loadouts, against, situations, **options, task_rows=how.task_rows))
    if out is None:
        return _filled(_frame(_run(tasks, against, None, how)))
    inputs = _fingerprints(
        attackers=loadouts, targets=against, contexts=situations, rules=str(rules),
        metric=metric if isinstance(metric, str) else metric.__qualname__,
        check_trials=trials, seed=_seed_key(root), task_rows=how.task_rows,
    )  # fmt: skip
    return _stored(tasks, against, how, out, inputs)


def _stored(
    tasks: list[Task],
    against: list[Target],
    how: SweepExecution,
    out: SweepOutput,
    inputs: dict[str, str],
) -> pd.DataFrame | int:
    """Run the tasks the store in ``out``'s folder does not hold yet (all of them unless
    resumed), writing their rows there; every row, or their number (``collect=False``)."""
    store = SweepStore(out.folder, inputs, resume=out.resume)
    written = store.done()
    _run([t for t in tasks if t.index not in written], against, store, how)
    if not out.collect:
        return sum(_rows(p) for p in out.folder.glob("part-*.parquet"))
    return _filled(store.read())


def _execution(execution: Any) -> SweepExecution:
    """``execution=`` checked: a :class:`SweepExecution`, ``SweepExecution()`` for None."""
    if execution is None:
        return SweepExecution()
    if not isinstance(execution, SweepExecution):
        raise field_error(OptionError, "execution", "a SweepExecution", execution)
    return execution


def _seed_key(root: np.random.SeedSequence) -> Any:
    """The seed as a sweep's store records it: the integer it was made from (as stores
    written by a sweep seeded by an integer record it), else its entropy and spawn key."""
    return root.entropy if not root.spawn_key else (root.entropy, root.spawn_key)


def _fingerprints(**inputs: Any) -> dict[str, str]:
    """Each input's fingerprint, by name, in the order given."""
    return {name: fingerprint(value) for name, value in inputs.items()}


def _run(
    tasks: list[Task], against: list[Target], store: SweepStore | None, how: SweepExecution
) -> dict[int, Any]:
    """Run the tasks, writing each one's rows to the store as they come; the frames by
    task number when there is no store."""
    bar = _bar(sum(t.rows for t in tasks), how.progress)
    frames: dict[int, Any] = {}
    try:
        told = (lambda link: bar.write(f"Dask dashboard: {link}")) if how.progress else None
        results = task_results(
            run_task,
            tasks,
            against,
            executor=how.executor,
            jobs=how.workers_for(len(tasks)),
            on_cluster=told,
        )
        for task, frame in results:
            if store is not None:
                store.write(task.index, frame)
            else:
                frames[task.index] = frame
            bar.update(task.rows)
    finally:
        bar.close()
    return frames


def _frame(frames: dict[int, Any]) -> Any:
    """Every row, in task order, joined from ``frames``."""
    import pandas as pd

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
        _check_contexts(list(contexts.values()), "Context values")
        return _unique([(str(k), v) for k, v in contexts.items()])
    items = _context_list(contexts)
    _check_contexts(items, "Context objects")
    return _unique([(_named(c), c) for c in items])


def _named(context: Context) -> str:
    """A context's name in the ``context`` column: its changes, ``"default"`` for none."""
    return ", ".join(context.changes()) or "default"


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
    """The pairs, refused when there are none or two share a name."""
    if not pairs:
        raise field_error(ProfileError, "contexts", "at least one Context", pairs)
    names = Counter(name for name, _ in pairs)
    twice = sorted(name for name, n in names.items() if n > 1)
    if twice:
        raise field_error(ProfileError, "context names", "unique", twice)
    return pairs


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
