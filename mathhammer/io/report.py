"""Batch reports: every attacking unit against every target, as one tidy table.

The work is split by attacking unit, so a report computed with several worker
processes is identical, row for row, to a serial one.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..core.dist import Dist
from ..errors import LimitError, OptionError, RulesError, field_error
from ..montecarlo.engine import simulate
from ..results.attack import AttackResult
from ..results.columns import ALL_COLUMNS, attack_columns, columns_frame
from ..rules import Ruleset, get_ruleset
from ..units.loadout import Loadout
from ..units.options import DEFAULT_METRIC, Metric, check_metric, choice_columns, choose
from ..units.targets import Target

__all__ = ["REPORT_COLUMNS", "SkippedTarget", "build_report", "usable_targets", "write_csv_atomic"]

#: The columns of a report, in order (those that apply: points and panic columns only
#: appear when the inputs have points or the ruleset has Panic Tests, Monte Carlo
#: columns with ``check_trials``, ``phase`` and ``weapons_used`` for units choosing among
#: legal declarations). The vocabulary of :mod:`mathhammer.results.columns`.
REPORT_COLUMNS = ALL_COLUMNS


@dataclass(frozen=True)
class SkippedTarget:
    """A target left out of a report because the ruleset cannot resolve attacks on it."""

    target: str
    reason: str

    def __str__(self) -> str:
        return f"skipped {self.target}: {self.reason}"


def usable_targets(
    targets: Sequence[Target], rules: str | Ruleset = "11e"
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


def _unit_rows(
    args: tuple[Loadout, Sequence[Target], str | Ruleset, int, np.random.SeedSequence, Metric],
) -> list[tuple[dict[str, Any], Dist]]:
    """One loadout against every target (run in a worker process for ``jobs > 1``): each
    row with the distribution its chart shows."""
    loadout, targets, rules, check_trials, seeds, metric = args
    rows = []
    for stream, target in zip(seeds.spawn(len(targets)), targets, strict=True):
        try:
            choice = choose(loadout, target, rules=rules, metric=metric)
        except LimitError as exc:
            raise _located(exc, loadout, target) from None
        rows.append((choice.row, _chart(choice.result, target)))
        if not check_trials:
            continue
        used = choice.declaration
        check = simulate(
            used.weapons,
            target.unit,
            trials=check_trials,
            rng=np.random.default_rng(stream),
            rules=rules,
            context=choice.context,
        )
        row = attack_columns(choice.result, target=target, loadout=loadout, check=check)
        row.update(choice_columns(loadout, used))
        rows[-1] = (row, rows[-1][1])
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
    rules: str | Ruleset = "11e",
    metric: Metric = DEFAULT_METRIC,
    check_trials: int = 0,
    jobs: int = 1,
    rng: Any = None,
    progress: Callable[[int], None] | None = None,
) -> Any:
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
    check_trials : int
        If positive, a Monte Carlo estimate per row: ``mc_mean_killed``,
        ``mc_se_killed`` and ``mc_z`` (its deviation from the exact mean in exact
        standard errors), for the option chosen.
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
        For ``jobs``, ``check_trials`` or ``metric`` out of range.
    RulesError
        When the ruleset refuses every target.

    Examples
    --------
    >>> import mathhammer as mh
    >>> bolt = mh.Weapon("Bolt rifle", attacks=2, skill=3, strength=4, ap=-1, damage=1)
    >>> frame = build_report([mh.Loadout("bolters", [(bolt, 10)], 160)],
    ...                      [mh.targets.get("Line infantry")], check_trials=2000, rng=1)
    >>> list(frame.columns[-3:]), round(float(frame.mean_killed[0]), 3)
    (['mc_mean_killed', 'mc_se_killed', 'mc_z'], 1.417)
    """
    _check_options(jobs, check_trials, metric)
    usable, skipped = usable_targets(targets, rules)
    if not usable:
        raise RulesError(
            f"rules={get_ruleset(rules).name!r} refuses every target: "
            + "; ".join(f"{s.target}: {s.reason}" for s in skipped)
        )
    root = rng if isinstance(rng, np.random.SeedSequence) else np.random.SeedSequence(rng)
    work = [
        (loadout, tuple(usable), rules, check_trials, stream, metric)
        for loadout, stream in zip(attackers, root.spawn(len(attackers)), strict=True)
    ]
    rows: list[tuple[dict[str, Any], Dist]] = []
    if jobs == 1:
        for done, args in enumerate(work, start=1):
            rows.extend(_unit_rows(args))
            if progress:
                progress(done)
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for done, unit_rows in enumerate(pool.map(_unit_rows, work, chunksize=8), start=1):
                rows.extend(unit_rows)
                if progress:
                    progress(done)
    frame = columns_frame([row for row, _ in rows])
    frame.attrs["skipped_targets"] = tuple(skipped)
    frame.attrs["distributions"] = tuple(chart for _, chart in rows)
    return frame


def _check_options(jobs: Any, check_trials: Any, metric: Any) -> None:
    """Refuse out-of-range options before any work."""
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise field_error(OptionError, "jobs", "an integer >= 1", jobs)
    if (
        isinstance(check_trials, bool)
        or not isinstance(check_trials, int)
        or check_trials < 0
        or check_trials == 1
    ):
        raise field_error(OptionError, "check_trials", "0 or an integer >= 2", check_trials)
    check_metric(metric)


def write_csv_atomic(frame: Any, path: str | Path) -> None:
    """Write a frame to CSV through a temporary file and a rename: never half a file."""
    target = Path(path)
    handle, temporary = tempfile.mkstemp(
        prefix=f".{target.name}.", suffix=".tmp", dir=target.parent or Path(".")
    )
    try:
        with os.fdopen(handle, "w", newline="", encoding="utf-8") as out:
            frame.to_csv(out, index=False, float_format="%.6g")
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temporary, 0o666 & ~umask)  # as an ordinary new file, not mkstemp's 0600
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
