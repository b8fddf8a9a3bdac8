"""Batch reports: every attacking unit against every target, as one tidy table.

The work is split by attacking unit, so a report computed with several worker
processes is identical, row for row, to a serial one. :func:`report_rows` gives the rows
as they are computed, for a report too long to hold (the command line streams them to
its CSV); :func:`build_report` collects them into one table.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

import numpy as np

from ..core.dist import Dist
from ..core.heap import settled_heap
from ..errors import LimitError, OptionError, RulesError, field_error
from ..montecarlo.engine import SeedLike, seed_sequence, simulate
from ..results.attack import AttackResult
from ..results.columns import (
    ALL_COLUMNS,
    attack_columns,
    columns_frame,
    context_columns,
    situation_columns,
)
from ..rules import Ruleset, get_ruleset
from ..rules.registry import RulesetLike
from ..units.loadout import Loadout
from ..units.options import (
    DEFAULT_METRIC,
    Metric,
    check_metric,
    choice_columns,
    choose,
    choose_rows,
)
from ..units.targets import Target

if TYPE_CHECKING:
    import pandas as pd

from .outputs import check_output, write_output
from .report_csv import neutralised
from .workers import ordered_map

__all__ = [
    "MAX_JOBS",
    "REPORT_COLUMNS",
    "ReportRows",
    "SkippedTarget",
    "build_report",
    "report_rows",
    "usable_targets",
    "write_csv_atomic",
]

#: The columns of a report, in order (those that apply: points and panic columns only
#: appear when the inputs have points or the ruleset has Panic Tests, Monte Carlo
#: columns with ``trials``, ``phase`` and ``weapons_used`` for units choosing among
#: legal declarations). The vocabulary of :mod:`mathhammer.results.columns`.
REPORT_COLUMNS = ALL_COLUMNS
#: The most worker processes a report starts.
MAX_JOBS = 256


@dataclass(frozen=True)
class SkippedTarget:
    """A target left out of a report because the ruleset cannot resolve attacks on it."""

    target: str
    reason: str

    def __str__(self) -> str:
        return f"skipped {self.target}: {self.reason}"


def usable_targets(
    targets: Sequence[Target], rules: RulesetLike = "11e"
) -> tuple[list[Target], list[SkippedTarget]]:
    """The targets the ruleset resolves, and those it refuses with its reason.

    The classic rules, for one, have no wound roll against a VEHICLE.

    Examples
    --------
    >>> from mathhammer import Target, Unit
    >>> guard = Target(Unit.of("Guard", 10, 3, 5, 1, keywords="INFANTRY", leadership=7))
    >>> tank = Target(Unit.of("Tank", 1, 10, 3, 12, keywords="VEHICLE", leadership=9))
    >>> kept, skipped = usable_targets([guard, tank], rules="classic")
    >>> [t.name for t in kept]
    ['Guard']
    >>> print(skipped[0])  # doctest: +NORMALIZE_WHITESPACE
    skipped Tank: target 'Tank' is a VEHICLE: its wound roll is in a section the rules
    do not include
    """
    ruleset = get_ruleset(rules)
    kept, skipped = [], []
    for target in targets:
        try:
            ruleset.check_target(target.unit)
        except RulesError as refused:
            reason = str(refused).removeprefix(f"rules={ruleset.name!r}: ")
            skipped.append(SkippedTarget(target.name, reason))
        else:
            kept.append(target)
    return kept, skipped


#: One row of a report and the distribution its chart shows.
Row = tuple[dict[str, Any], Dist]
#: One loadout's share of a report's work, as sent to a worker process.
_Work = tuple[Loadout, tuple[Target, ...], str | Ruleset, int, np.random.SeedSequence, Metric]


def _unit_rows(args: _Work) -> list[Row]:
    """One loadout against every target (run in a worker process for ``jobs > 1``): each
    row with the distribution its chart shows."""
    with settled_heap():  # the caches it fills are not garbage: not walked again and again
        return _rows_of(*args)


def _rows_of(
    loadout: Loadout,
    targets: tuple[Target, ...],
    rules: RulesetLike,
    trials: int,
    seeds: np.random.SeedSequence,
    metric: Metric,
) -> list[Row]:
    """One loadout's rows: exact alone, or each with its Monte Carlo check."""
    if not trials:
        return _exact_rows(loadout, targets, rules, metric)
    return _checked_rows(loadout, targets, rules, trials, seeds, metric)


def _exact_rows(
    loadout: Loadout, targets: tuple[Target, ...], rules: RulesetLike, metric: Metric
) -> list[Row]:
    """One loadout's exact rows (made once for loadouts of the same weapons)."""
    rows: list[Row] = []
    found = choose_rows(loadout, targets, rules=rules, metric=metric)
    for target in targets:
        try:
            row, result = next(found)
        except LimitError as exc:
            raise _located(exc, loadout, target) from None
        row.update(context_columns(loadout.context, result.rules))
        rows.append((row, _chart(result, target)))
    return rows


def _checked_rows(
    loadout: Loadout,
    targets: tuple[Target, ...],
    rules: RulesetLike,
    trials: int,
    seeds: np.random.SeedSequence,
    metric: Metric,
) -> list[Row]:
    """One loadout's rows, each with a Monte Carlo check of the option chosen."""
    rows: list[Row] = []
    for stream, target in zip(seeds.spawn(len(targets)), targets, strict=True):
        try:
            choice = choose(loadout, target, rules=rules, metric=metric)
        except LimitError as exc:
            raise _located(exc, loadout, target) from None
        used = choice.declaration
        check = simulate(
            used.weapons,
            target.unit,
            trials=trials,
            rng=np.random.default_rng(stream),
            rules=rules,
            context=choice.context,
        )
        row = attack_columns(choice.result, target=target, loadout=loadout, check=check)
        row.update(choice_columns(loadout, used))
        row.update(situation_columns(choice.context))
        row.update(context_columns(choice.context, choice.result.rules))
        rows.append((row, _chart(choice.result, target)))
    return rows


def _chart(result: AttackResult, target: Target) -> Dist:
    """What a row's chart shows: models destroyed, or wounds lost against one model."""
    return result.damage if target.unit.models == 1 else result.killed


def _located(exc: LimitError, loadout: Loadout, target: Target) -> LimitError:
    """The engine's limit, placed at the loadout's row of its file, with a remedy."""
    where = f"{loadout.source}: " if loadout.source else ""
    return field_error(
        LimitError,
        f"{where}{loadout.name!r} against {target.name!r}: {exc.field}",
        exc.constraint or "within the exact engine's limit",
        exc.value,
        "the exact engine's limit: estimate this attack by Monte Carlo with "
        "`mathhammer attack ... --trials N`, or split the unit into smaller loadouts",
    )


def build_report(
    attackers: Sequence[Loadout],
    targets: Sequence[Target],
    *,
    rules: RulesetLike = "11e",
    metric: Metric = DEFAULT_METRIC,
    trials: int = 0,
    jobs: int = 1,
    rng: SeedLike = None,
    progress: Callable[[int], None] | None = None,
) -> pd.DataFrame:
    """Every loadout against every target.

    Parameters
    ----------
    attackers : sequence of Loadout
        E.g. from :func:`mathhammer.io.read_attackers`; each is attacked in its own
        context. A unit's legal alternatives in a phase
        (:class:`~mathhammer.units.options.AttackOptions`, as the readers give them) are
        each tried against each target, and the best is the row.
    targets : sequence of Target
        Targets with points, e.g. from :func:`mathhammer.io.read_targets` or
        :data:`mathhammer.targets.STANDARD`. Those the ruleset refuses (the classic
        rules and a VEHICLE) are left out: see :func:`usable_targets`.
    rules : str or Ruleset
        The ruleset.
    metric : str or callable
        What makes one option better than another against a target: a column of
        :data:`~mathhammer.units.options.CHOICE_METRICS` (``"mean_damage"``, wounds lost,
        by default), or a function of the row. A column a row lacks (points against a
        target without any) ranks that row's options by ``mean_damage``.
    trials : int
        If positive, a Monte Carlo estimate per row: ``mc_mean_killed``,
        ``mc_se_killed``, ``mc_z`` (its deviation from the exact mean in exact
        standard errors) and ``mc_p`` (the p-value of its counts under the exact
        distribution, :func:`~mathhammer.results.agreement.agreement_p`), for the
        option chosen.
    jobs : int
        Worker processes; the result is identical to a serial run.
    rng : None, int or numpy.random.SeedSequence
        Seeds the Monte Carlo checks; each (loadout, target) pair gets its own stream
        spawned from it, so worker processes reproduce a serial run exactly.
    progress : callable, optional
        Called with the number of loadouts finished after each one.

    Returns
    -------
    pandas.DataFrame
        One row per (loadout, target), in input order, with the columns of
        :data:`REPORT_COLUMNS` that apply. ``frame.attrs["skipped_targets"]`` lists the
        :class:`SkippedTarget` records of the targets left out, and
        ``frame.attrs["distributions"]`` each row's distribution (models destroyed, or
        wounds lost against a single model) for charts.

    Raises
    ------
    OptionError
        For ``jobs``, ``trials``, ``metric`` or ``rng`` out of range.
    RulesError
        When the ruleset refuses every target.

    Examples
    --------
    >>> import mathhammer as mh
    >>> bolt = mh.Weapon("Bolt rifle", attacks=2, skill=3, strength=4, ap=-1, damage=1)
    >>> frame = build_report([mh.Loadout("bolters", [(bolt, 10)], 160)],
    ...                      [mh.targets.get("Line infantry")], trials=2000, rng=1)
    >>> list(frame.columns[-4:]), round(float(frame.mean_killed[0]), 3)
    (['mc_mean_killed', 'mc_se_killed', 'mc_z', 'mc_p'], 1.417)
    """
    rows = report_rows(
        attackers,
        targets,
        rules=rules,
        metric=metric,
        trials=trials,
        jobs=jobs,
        rng=rng,
        progress=progress,
    )
    collected = list(rows)
    frame = columns_frame([row for row, _ in collected])
    frame.attrs["skipped_targets"] = rows.skipped
    frame.attrs["distributions"] = tuple(chart for _, chart in collected)
    return frame


def report_rows(
    attackers: Sequence[Loadout],
    targets: Sequence[Target],
    *,
    rules: RulesetLike = "11e",
    metric: Metric = DEFAULT_METRIC,
    trials: int = 0,
    jobs: int = 1,
    rng: Any = None,
    progress: Callable[[int], None] | None = None,
) -> ReportRows:
    """The rows of :func:`build_report`, computed as they are iterated.

    The arguments are those of :func:`build_report`, and are checked here, before any
    work. Iterating gives each row (a dict of :func:`~mathhammer.results.columns.attack_columns`)
    with the distribution its chart shows, in input order, holding only a few loadouts'
    rows at a time: a report of any length runs in the same memory.

    Examples
    --------
    >>> import mathhammer as mh
    >>> bolt = mh.Weapon("Bolt rifle", attacks=2, skill=3, strength=4, ap=-1, damage=1)
    >>> rows = report_rows([mh.Loadout("bolters", [(bolt, 10)])],
    ...                    [mh.targets.get("Line infantry"), mh.targets.get("Vehicle")])
    >>> [(row["target"], round(row["mean_killed"], 3)) for row, _ in rows]
    [('Line infantry', 1.417), ('Vehicle', 0.0)]
    """
    _check_options(jobs, trials, metric)
    root = seed_sequence(rng)
    usable, skipped = usable_targets(targets, rules)
    if not usable:
        raise RulesError(
            f"rules={get_ruleset(rules).name!r} refuses every target: "
            + "; ".join(f"{s.target}: {s.reason}" for s in skipped)
        )
    work = [
        (loadout, tuple(usable), rules, trials, stream, metric)
        for loadout, stream in zip(attackers, root.spawn(len(attackers)), strict=True)
    ]
    return ReportRows(work, tuple(skipped), jobs, progress)


class ReportRows:
    """A report's rows, computed as they are iterated (see :func:`report_rows`).

    Attributes
    ----------
    skipped : tuple of SkippedTarget
        The targets left out, known before any row is computed.
    """

    def __init__(
        self,
        work: Sequence[_Work],
        skipped: tuple[SkippedTarget, ...],
        jobs: int,
        progress: Callable[[int], None] | None,
    ) -> None:
        self._work = work
        self.skipped = skipped
        self._jobs = jobs
        self._progress = progress

    def __len__(self) -> int:
        """The number of loadouts (each gives one row per usable target)."""
        return len(self._work)

    def __iter__(self) -> Generator[Row, None, None]:
        if self._jobs == 1:
            units: Iterator[list[Row]] = map(_unit_rows, self._work)
        else:
            units = ordered_map(_unit_rows, self._work, jobs=self._jobs)
        try:
            for done, rows in enumerate(units, start=1):
                if self._progress:
                    self._progress(done)
                yield from rows
        finally:
            close = getattr(units, "close", None)
            if close is not None:  # stop the workers of a report left early
                close()


def _check_options(jobs: Any, trials: Any, metric: Any) -> None:
    """Refuse out-of-range options before any work."""
    _check_jobs(jobs)
    if not _is_integer(trials) or trials < 0 or trials == 1:
        raise field_error(OptionError, "trials", "0 or an integer >= 2", trials)
    check_metric(metric)


def _check_jobs(jobs: Any) -> None:
    """Refuse a number of worker processes that is not from 1 to :data:`MAX_JOBS`."""
    if not _is_integer(jobs) or jobs < 1:
        raise field_error(OptionError, "jobs", "an integer >= 1", jobs)
    if jobs > MAX_JOBS:
        raise field_error(
            OptionError, "jobs", f"at most {MAX_JOBS}", jobs, "one per processor core is plenty"
        )


def _is_integer(value: Any) -> bool:
    """Whether a value is an int (True and False are not numbers of anything)."""
    return isinstance(value, int) and not isinstance(value, bool)


def write_csv_atomic(frame: Any, path: str | Path, *, force: bool = False) -> None:
    """Write a frame to CSV through a temporary file and a rename: never half a file.

    A symbolic link's target is replaced, not the link; a device or FIFO (``/dev/null``)
    is written in place; a read-only file is refused unless ``force``
    (see :mod:`mathhammer.io.outputs`). Text cells that a spreadsheet would read as a
    formula (starting ``=``, ``+``, ``-``, ``@``, a tab or a carriage return) are written
    after a ``'`` (:func:`~mathhammer.io.report_csv.neutralise`).

    Raises
    ------
    OptionError
        For a path that cannot be written (a folder, a missing folder, a read-only file).
    """
    target = check_output(path, force=force, hint="pass force=True to replace it")

    def write(out: IO[Any]) -> None:
        neutralised(frame).to_csv(out, index=False, float_format="%.6g")

    write_output(target, write)
