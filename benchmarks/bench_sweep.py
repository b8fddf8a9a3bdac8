"""Time a many-versus-many sweep serially, in local processes and on a Dask LocalCluster
(issue 17), and measure its memory.

The sweep: every loadout of the four factions of the shared BSData catalogues (each
datasheet at its default size, one loadout per phase) against every datasheet of the four
as a target, one context: the rows are counted and printed.

* ``SERIAL``: one process (wall clock).
* ``POOL2``: two local processes (``SweepExecution(jobs=2)``); goal: at least 1.7x serial.
* ``DASK2``: a Dask ``LocalCluster`` of two worker processes, its start included; goal:
  at least 1.7x serial.
* ``MEMORY``: the peak resident memory of a process that sweeps to Parquet with
  ``collect=False``, against the same for a tenth of the rows: the goal is that it does not
  grow with the rows (at most 1.5x the tenth's).

The runs are interleaved, round after round (``--rounds``, 3), the order of the three
turning each round: on a shared machine the speed of both cores changes from minute to
minute (a serial run took 94 to 130 s within the hour), and a ratio of two runs made minutes
apart measures that change as much as the sweep. Each row gives its median; the speedup is
the median of the rounds' own ratios.

Every frame (serial, pool, cluster) is compared bit for bit. Needs the catalogues beside
the repository (``../shared/data/bsdata-11e``) and the dask extra.

    python benchmarks/bench_sweep.py [--catalogues PATH] [--skip-dask] [--rounds N]
"""

from __future__ import annotations

import os

#: The thread pools of numpy's BLAS and of OpenMP, pinned to one thread before numpy is
#: imported: in every run alike (two processes each running two BLAS threads on two cores
#: fight over them; Dask pins its workers' too).
for _name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

import argparse  # noqa: E402
import json  # noqa: E402
import resource  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
import warnings  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

FACTIONS = ("Necrons", "Orks", "T'au Empire", "Tyranids")
SPEEDUP_GOAL = 1.7
MEMORY_GOAL = 1.5


def armies(catalogues: Path) -> tuple[list[Any], list[Any]]:
    from mathhammer.io.sources import read_army

    loadouts, targets = [], []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for faction in FACTIONS:
            army = read_army(catalogues, faction=faction)
            loadouts += [_named(x, faction) for x in army.loadouts]
            targets += [_target(t, faction) for t in army.targets]
    return loadouts, targets


def _named(loadout: Any, faction: str) -> Any:
    from dataclasses import replace

    return replace(loadout, name=f"{faction}: {loadout.name}")


def _target(target: Any, faction: str) -> Any:
    from dataclasses import replace

    return replace(target, unit=replace(target.unit, name=f"{faction}: {target.unit.name}"))


def memory_child(catalogues: str, out: str, fraction: int) -> None:
    """Sweep 1/fraction of the attackers to Parquet, rows left on disk; print the rows and
    the peak resident memory."""
    import mathhammer as mh

    loadouts, targets = armies(Path(catalogues))
    rows = mh.sweep(loadouts[::fraction], targets, output=mh.SweepOutput(out, collect=False))
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"rows": rows, "peak_mb": peak}))


def _peak(catalogues: Path, fraction: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as folder:
        code = (
            f"import sys; sys.path.insert(0, {str(ROOT)!r}); "
            "from benchmarks.bench_sweep import memory_child; "
            f"memory_child({str(catalogues)!r}, {folder + '/sweep'!r}, {fraction})"
        )
        done = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
        )
        return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default = ROOT.parent / "shared" / "data" / "bsdata-11e"
    parser.add_argument("--catalogues", type=Path, default=default)
    parser.add_argument("--skip-dask", action="store_true")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    import pandas as pd

    import mathhammer as mh

    loadouts, targets = armies(args.catalogues)
    print(
        f"{len(loadouts)} attackers x {len(targets)} targets = {len(loadouts) * len(targets)} rows"
    )
    frames, missed = {}, False
    runs = [("SERIAL", mh.SweepExecution()), ("POOL2", mh.SweepExecution(jobs=2))]
    if not args.skip_dask:
        runs.append(("DASK2", mh.SweepExecution("dask", jobs=2)))
    seconds: dict[str, list[float]] = {name: [] for name, _ in runs}
    for round_ in range(args.rounds):
        turn = round_ % len(runs)
        for name, execution in runs[turn:] + runs[:turn]:
            mh.clear_caches()
            start = time.perf_counter()
            frames[name] = mh.sweep(loadouts, targets, execution=execution)
            seconds[name].append(time.perf_counter() - start)
            print(f"round {round_ + 1}: {name} {seconds[name][-1]:.1f} s", flush=True)
    n = len(frames["SERIAL"])
    print(f"\n{'row':<8} {'seconds':>8} {'rows/s':>8} {'us/row':>7} {'speedup':>8}  goal    "
          "status  rounds (s)")  # fmt: skip
    for name, _ in runs:
        median = statistics.median(seconds[name])
        ratios = [a / b for a, b in zip(seconds["SERIAL"], seconds[name], strict=True)]
        speedup = statistics.median(ratios)
        goal = "" if name == "SERIAL" else f">= {SPEEDUP_GOAL}x"
        status = "" if name == "SERIAL" else ("met" if speedup >= SPEEDUP_GOAL else "MISSED")
        missed |= status == "MISSED"
        each = ", ".join(f"{t:.1f}" for t in seconds[name])
        print(f"{name:<8} {median:8.1f} {n / median:8.0f} {1e6 * median / n:7.0f} "
              f"{speedup:7.2f}x  {goal:<7} {status:<7} {each}")  # fmt: skip
    for name in frames:
        pd.testing.assert_frame_equal(frames["SERIAL"], frames[name], check_exact=True)
    print(f"frames identical bit for bit: {', '.join(frames)} ({n} rows)")
    small, whole = _peak(args.catalogues, 10), _peak(args.catalogues, 1)
    ratio = whole["peak_mb"] / small["peak_mb"]
    status = "met" if ratio <= MEMORY_GOAL else "MISSED"
    missed |= status == "MISSED"
    print(
        f"MEMORY   peak {whole['peak_mb']:.0f} MB for {whole['rows']:.0f} rows to Parquet, "
        f"{small['peak_mb']:.0f} MB for {small['rows']:.0f}: {ratio:.2f}x (goal <= "
        f"{MEMORY_GOAL}x) {status}"
    )
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
