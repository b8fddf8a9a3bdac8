"""Batch reports: every attacking unit against every target, as one tidy table.

The work is split by attacking unit, so a report computed with several worker
processes is identical, row for row, to a serial one.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import OptionError, field_error
from ..exact.engine import attack
from ..montecarlo.engine import simulate
from ..results.columns import ALL_COLUMNS, attack_columns, columns_frame
from ..rules import Ruleset
from ..units.compare import Loadout
from ..units.targets import Target

__all__ = ["REPORT_COLUMNS", "build_report", "write_csv_atomic"]

#: The columns of a report, in order (those that apply: points and panic columns only
#: appear when the inputs have points or the ruleset has Panic Tests, Monte Carlo
#: columns with ``check_trials``). The vocabulary of :mod:`mathhammer.results.columns`.
REPORT_COLUMNS = ALL_COLUMNS


def _unit_rows(
    args: tuple[Loadout, Sequence[Target], str | Ruleset, int, np.random.SeedSequence],
) -> list[dict[str, Any]]:
    """One loadout against every target (run in a worker process for ``jobs > 1``)."""
    loadout, targets, rules, check_trials, seeds = args
    rows = []
    for stream, target in zip(seeds.spawn(len(targets)), targets, strict=True):
        exact = attack(loadout.weapons, target.unit, rules=rules, context=loadout.context)
        check = None
        if check_trials:
            check = simulate(
                loadout.weapons,
                target.unit,
                trials=check_trials,
                rng=np.random.default_rng(stream),
                rules=rules,
                context=loadout.context,
            )
        rows.append(attack_columns(exact, target=target, loadout=loadout, check=check))
    return rows


def build_report(
    attackers: Sequence[Loadout],
    targets: Sequence[Target],
    *,
    rules: str | Ruleset = "11e",
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
        context.
    targets : sequence of Target
        Targets with points, e.g. from :func:`mathhammer.io.read_targets` or
        :data:`mathhammer.targets.STANDARD`.
    check_trials : int
        If positive, a Monte Carlo estimate per row: ``mc_mean_killed``,
        ``mc_se_killed`` and ``mc_z`` (its deviation from the exact mean in exact
        standard errors).
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
        :data:`REPORT_COLUMNS` that apply.

    Raises
    ------
    OptionError
        For ``jobs`` or ``check_trials`` out of range.

    Examples
    --------
    >>> import mathhammer as mh
    >>> bolt = mh.Weapon("Bolt rifle", attacks=2, skill=3, strength=4, ap=-1, damage=1)
    >>> frame = build_report([mh.Loadout("bolters", [(bolt, 10)], 160)],
    ...                      [mh.targets.get("Line infantry")], check_trials=2000, rng=1)
    >>> list(frame.columns[-3:]), round(float(frame.mean_killed[0]), 3)
    (['mc_mean_killed', 'mc_se_killed', 'mc_z'], 1.417)
    """
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise field_error(OptionError, "jobs", "an integer >= 1", jobs)
    if (
        isinstance(check_trials, bool)
        or not isinstance(check_trials, int)
        or check_trials < 0
        or check_trials == 1
    ):
        raise field_error(OptionError, "check_trials", "0 or an integer >= 2", check_trials)
    root = rng if isinstance(rng, np.random.SeedSequence) else np.random.SeedSequence(rng)
    work = [
        (loadout, tuple(targets), rules, check_trials, stream)
        for loadout, stream in zip(attackers, root.spawn(len(attackers)), strict=True)
    ]
    rows: list[dict[str, Any]] = []
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
    return columns_frame(rows)


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
