"""A sweep's work, cut into tasks: the rows of a few attackers against every target, in one
context.

A task is what one worker computes at a time. It holds whole attackers (their rows against
every target in the task's context), enough of them to make at least :data:`TASK_ROWS` rows:
a tenth of a second or more (a quarter on average over the shared catalogues), against a
scheduler's overhead of a millisecond per task (about 10 ms where the scheduler shares two
cores with its workers: a Dask cluster receives them four at a time,
:data:`~mathhammer.sweeps.executors.DASK_BATCH`). Within a
task an attacker's hit and wound distributions are made once and reused against every target
(the engine's caches are the worker's). A Monte Carlo check draws from the task's own seed,
spawned from the sweep's by the task's number: the same numbers whoever runs it.

The targets are not part of a task: every task is against all of them, and they are sent to
each worker once (:func:`run_task` takes them beside the task), not with every task (a
scheduler that reads each task it is given then reads a few attackers, not every target).
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np

from ..core.heap import settled_heap
from ..decisions.runs import Request
from ..decisions.work import request_work
from ..errors import LimitError
from ..model.context import Context
from ..montecarlo.engine import simulate
from ..results.columns import ALL_COLUMNS, attack_columns, columns_frame
from ..rules.registry import RulesetLike
from ..units.loadout import Loadout
from ..units.options import Metric, attacked_declarations, choice_columns, choose, choose_rows
from ..units.targets import Target

__all__ = [
    "SWEEP_COLUMNS",
    "TASK_ROWS",
    "Task",
    "arrow",
    "arrow_schema",
    "check_rows",
    "run_task",
    "tasks_of",
    "typed",
]

#: Each task makes at least this many rows (whole attackers), where there are that many.
TASK_ROWS = 256
#: The columns of a sweep's frame, in order: ``context`` (the name of the sweep's context)
#: after the target, then the vocabulary of :mod:`mathhammer.results.columns` (a column
#: no row fills is left out of a collected frame; the Parquet files hold them all, so that
#: every file has one schema).
_OWN = tuple(c for c in ALL_COLUMNS if c != "context")
_AT = _OWN.index("target") + 1
SWEEP_COLUMNS = (*_OWN[:_AT], "context", *_OWN[_AT:])
#: The columns that hold text; the others hold numbers.
TEXT_COLUMNS = frozenset(
    {"loadout", "target", "context", "phase", "weapons_used", "unknown_abilities",
     "loadout_source", "target_source"}
)  # fmt: skip


@dataclass(frozen=True)
class Task:
    """The rows of ``loadouts`` against every target of the sweep, in one context.

    Attributes
    ----------
    index : int
        The task's number in the sweep (its file, and its seed's spawn key).
    context_name : str
    context : Context
    loadouts : tuple
    target_count : int
        How many targets the sweep has (the task is against all of them).
    rules, metric
        As for :func:`mathhammer.compare`.
    check_trials : int
        Monte Carlo trials of each row's check (0: none).
    seed : numpy.random.SeedSequence
        The task's own seed.
    """

    index: int
    context_name: str
    context: Context
    loadouts: tuple[Loadout, ...]
    target_count: int
    rules: RulesetLike
    metric: Metric
    check_trials: int
    seed: np.random.SeedSequence

    @property
    def rows(self) -> int:
        return len(self.loadouts) * self.target_count


def tasks_of(
    loadouts: Sequence[Loadout],
    targets: Sequence[Target],
    contexts: Sequence[tuple[str, Context]],
    *,
    rules: RulesetLike,
    metric: Metric,
    check_trials: int,
    seed: np.random.SeedSequence,
    task_rows: int = TASK_ROWS,
) -> Iterator[Task]:
    """The tasks of a sweep, in the order of its rows: context by context, attackers in
    order, each task whole attackers making at least ``task_rows`` rows.

    Examples
    --------
    >>> import mathhammer as mh
    >>> gun = mh.Weapon("Gun", 2, 3, 4)
    >>> loadouts = [mh.Loadout(f"L{i}", [(gun, 1)]) for i in range(5)]
    >>> targets = list(mh.targets.STANDARD)[:3]
    >>> tasks = list(tasks_of(loadouts, targets, [("default", mh.Context())], rules="11e",
    ...                       metric="mean_damage", check_trials=0,
    ...                       seed=np.random.SeedSequence(1), task_rows=6))
    >>> [(t.index, len(t.loadouts), t.rows) for t in tasks]
    [(0, 2, 6), (1, 2, 6), (2, 1, 3)]
    """
    per_task = max(1, -(-task_rows // max(1, len(targets))))
    index = 0
    for name, context in contexts:
        for start in range(0, len(loadouts), per_task):
            chunk = tuple(loadouts[start : start + per_task])
            task_seed = np.random.SeedSequence(seed.entropy, spawn_key=(*seed.spawn_key, index))
            yield Task(index, name, context, chunk, len(targets), rules, metric,
                       check_trials, task_seed)  # fmt: skip
            index += 1


def check_rows(
    loadouts: Sequence[Loadout],
    targets: Sequence[Target],
    contexts: Sequence[tuple[str, Context]],
    rules: RulesetLike,
) -> None:
    """Refuse a sweep one of whose rows the exact engine would refuse, before the first
    task: every declaration planned against every target in every context, as the engine
    checks an attack (its sizes and estimated work, in about 0.1 ms; alike declarations
    once), so that an absurd loadout stops the sweep at once, not hours in.

    Examples
    --------
    >>> import mathhammer as mh
    >>> huge = Loadout("Huge", [(mh.Weapon("Gun", 1, 3, 4), 6000)])
    >>> check_rows([huge], [mh.targets.get("Vehicle")], [("default", Context())], "11e")
    Traceback (most recent call last):
    ...
    mathhammer.errors.LimitError: sweep row 'Huge' against 'Vehicle' (default): attack dice ...
    """
    seen: set[Any] = set()
    for name, context in contexts:
        for loadout in loadouts:
            situation, declared = attacked_declarations(loadout, context)
            for declaration, target in itertools.product(declared, targets):
                key = (name, tuple(declaration.weapon_counts), target.name)
                if key not in seen:
                    seen.add(key)
                    row = f"sweep row {_row_name(loadout, declaration)} against {target.name!r}"
                    _check_row(declaration, target, situation, rules, f"{row} ({name})")


def _row_name(loadout: Loadout, declaration: Loadout) -> str:
    """A row's loadout, and the option of it refused where it has several."""
    if declaration is loadout:
        return repr(loadout.name)
    return f"{loadout.name!r} (option {declaration.name!r})"


def _check_row(
    declaration: Loadout, target: Target, context: Context | None, rules: RulesetLike, row: str
) -> None:
    """The engine's refusal of one row, named by ``row``."""
    request = Request(declaration.weapons, target.unit, None, None, rules, context)
    try:
        request_work(request)
    except LimitError as exc:
        raise LimitError(f"{row}: {exc}") from None


def run_task(task: Task, targets: Sequence[Target]) -> Any:
    """The task's rows against ``targets`` (the sweep's), as a :class:`pandas.DataFrame`
    with every column of :data:`SWEEP_COLUMNS` (text as objects, numbers as floats)."""
    with settled_heap():  # the caches it fills are not garbage: not walked again and again
        return typed(columns_frame(_rows(task, targets)), task.context_name)


def _rows(task: Task, targets: Sequence[Target]) -> list[dict[str, Any]]:
    """Each loadout of the task against each target, one row each (with a Monte Carlo
    check when the task has trials)."""
    options: dict[str, Any] = {"rules": task.rules, "context": task.context, "metric": task.metric}
    if not task.check_trials:
        return [
            row for loadout in task.loadouts for row, _ in choose_rows(loadout, targets, **options)
        ]
    streams = iter(task.seed.spawn(task.rows))
    return [
        _checked_row(task, loadout, target, options, next(streams))
        for loadout in task.loadouts
        for target in targets
    ]


def _checked_row(
    task: Task,
    loadout: Loadout,
    target: Target,
    options: dict[str, Any],
    stream: np.random.SeedSequence,
) -> dict[str, Any]:
    """The row of a loadout against a target, with its Monte Carlo check drawn from
    ``stream``."""
    choice = choose(loadout, target, **options)
    check = simulate(
        choice.declaration.weapons,
        target.unit,
        trials=task.check_trials,
        rng=np.random.default_rng(stream),
        rules=task.rules,
        context=choice.context,
    )
    row = attack_columns(choice.result, target=target, loadout=loadout, check=check)
    row.update(choice_columns(loadout, choice.declaration))
    return row


def typed(frame: Any, context_name: str) -> Any:
    """``frame`` with the sweep's columns, in order, and its context, typed as its Parquet
    file reads back (text as pandas reads Arrow strings, numbers as floats): a frame
    collected in memory and one read from disk are the same."""
    import pandas as pd

    pa = arrow()
    frame = frame.reindex(columns=[c for c in SWEEP_COLUMNS if c != "context"])
    frame.insert(SWEEP_COLUMNS.index("context"), "context", context_name)
    for column in frame.columns:
        if column in TEXT_COLUMNS:
            frame[column] = frame[column].astype(object).where(frame[column].notna(), None)
        else:
            frame[column] = pd.to_numeric(frame[column], errors="coerce").astype("float64")
    return pa.Table.from_pandas(frame, schema=arrow_schema(), preserve_index=False).to_pandas()


def arrow() -> Any:
    """:mod:`pyarrow`, imported on first use with the system allocator unless the
    environment names another (``ARROW_DEFAULT_MEMORY_POOL``): a task's rows are small, and
    Arrow's default allocator reserves a gigabyte of address space in every process that
    writes, which a process with a memory limit may not have."""
    os.environ.setdefault("ARROW_DEFAULT_MEMORY_POOL", "system")
    import pyarrow

    return pyarrow


@cache
def arrow_schema() -> Any:
    """The Arrow schema of every task's rows: text columns as strings, the others as
    floats."""
    pa = arrow()

    return pa.schema(
        [(c, pa.string() if c in TEXT_COLUMNS else pa.float64()) for c in SWEEP_COLUMNS]
    )
