"""Batch reports: every attacking unit against every target, as one tidy table.

The work is split by attacking unit, so a report computed with several worker
processes is identical, row for row, to a serial one.
"""

from __future__ import annotations

import math
import os
import tempfile
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import MathhammerError, field_error
from ..montecarlo.engine import simulate
from ..units.compare import COLUMNS, Loadout, compare
from ..units.targets import Target
from .profiles_csv import AttackingUnit

__all__ = ["REPORT_COLUMNS", "build_report", "write_csv_atomic"]

#: The columns of a report, in order (those that apply: points and panic columns only
#: appear when the inputs have points or the ruleset has Panic Tests).
REPORT_COLUMNS = (
    *COLUMNS,
    "p_panic_test",
    "p_panic_fail",
    "loadout_points",
    "killed_per_100_points",
    "target_points",
    "points_destroyed",
    "points_destroyed_per_100_points",
    "mc_mean_killed",
    "mc_se_killed",
    "mc_z",
)


def _unit_rows(
    args: tuple[AttackingUnit, Sequence[Target], str, int, np.random.SeedSequence],
) -> Any:
    """One attacking unit against every target (run in a worker process for --jobs)."""
    unit, targets, rules, check_trials, seeds = args
    loadout = Loadout(unit.name, list(unit.weapons), unit.points)
    frame = compare([loadout], list(targets), rules=rules, context=unit.context)
    if check_trials:
        means: list[float] = []
        ses: list[float] = []
        zs: list[float] = []
        for stream, target in zip(seeds.spawn(len(targets)), targets, strict=True):
            i = len(means)
            sim = simulate(
                list(unit.weapons),
                target.unit,
                trials=check_trials,
                rng=np.random.default_rng(stream),
                rules=rules,
                context=unit.context,
            )
            exact_mean = float(frame.mean_killed.iloc[i])
            exact_sd = float(frame.sd_killed.iloc[i])
            sigma = exact_sd / math.sqrt(check_trials)
            means.append(sim.killed.mean())
            ses.append(sim.killed_se)
            zs.append(0.0 if sigma == 0 else (sim.killed.mean() - exact_mean) / sigma)
        frame["mc_mean_killed"], frame["mc_se_killed"], frame["mc_z"] = means, ses, zs
    return frame


def build_report(
    attackers: Sequence[AttackingUnit],
    targets: Sequence[Target],
    *,
    rules: str = "11e",
    check_trials: int = 0,
    jobs: int = 1,
    rng: Any = None,
    progress: Callable[[int], None] | None = None,
) -> Any:
    """Every attacking unit against every target.

    Parameters
    ----------
    attackers : sequence of AttackingUnit
        From :func:`mathhammer.io.read_attackers` (each with its own context).
    targets : sequence of Target
        Targets with points, e.g. :data:`mathhammer.targets.STANDARD`.
    check_trials : int
        If positive, a Monte Carlo estimate per row: ``mc_mean_killed``,
        ``mc_se_killed`` and ``mc_z`` (its deviation from the exact mean in exact
        standard errors).
    jobs : int
        Worker processes; the result is identical to a serial run.
    rng : None, int or numpy.random.SeedSequence
        Seeds the Monte Carlo checks; each (unit, target) pair gets its own stream
        spawned from it, so worker processes reproduce a serial run exactly.
    progress : callable, optional
        Called with the number of attacking units finished after each one.

    Returns
    -------
    pandas.DataFrame
        One row per (attacking unit, target), in input order.
    """
    import pandas as pd

    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise field_error(MathhammerError, "jobs", "an integer >= 1", jobs)
    if isinstance(check_trials, bool) or not isinstance(check_trials, int) or check_trials < 0:
        raise field_error(MathhammerError, "check_trials", "0 or an integer >= 2", check_trials)
    root = rng if isinstance(rng, np.random.SeedSequence) else np.random.SeedSequence(rng)
    work = [
        (unit, tuple(targets), rules, check_trials, stream)
        for unit, stream in zip(attackers, root.spawn(len(attackers)), strict=True)
    ]
    frames = []
    if jobs == 1:
        for done, args in enumerate(work, start=1):
            frames.append(_unit_rows(args))
            if progress:
                progress(done)
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for done, frame in enumerate(pool.map(_unit_rows, work, chunksize=8), start=1):
                frames.append(frame)
                if progress:
                    progress(done)
    frame = pd.concat(frames, ignore_index=True)
    return frame[[c for c in REPORT_COLUMNS if c in frame.columns]]


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
