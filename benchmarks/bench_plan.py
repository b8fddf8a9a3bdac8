"""Time ``plan`` for a 2,000-point list against every datasheet of a faction.

The list is made from the BSData snapshot beside the repository (../shared/data/bsdata-11e):
the shooting units of one faction's datasheets, each at its default size, in the
catalogue's order, until their points reach 2,000. The targets are every datasheet of
another faction (Orks: 97 units). Timed from the catalogue read to the finished plan, as
``mathhammer plan CATALOGUE --faction F --targets CATALOGUE --target-faction G --metric
points`` runs it.

The goal, ≤ 30 s on 2 cores; the exit status is 1 when it misses it.

    python benchmarks/bench_plan.py [--faction Necrons] [--targets Orks] [--points 2000]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import mathhammer as mh  # noqa: E402
from mathhammer.cli.plan import units_of  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "bsdata-11e"
#: The goal in seconds, catalogue read included.
GOAL = 30.0


def army_list(data: Path, faction: str, points: int) -> list[mh.Loadout]:
    """Shooting units of the faction, in the catalogue's order, until ``points``."""
    army = mh.read_army(data, faction=faction)
    chosen: list[mh.Loadout] = []
    total = 0
    for loadout in units_of(list(army.loadouts), "shooting"):
        if loadout.points is None or total >= points:
            continue
        chosen.append(loadout)
        total += loadout.points
    return chosen


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--faction", default="Necrons")
    parser.add_argument("--targets", default="Orks")
    parser.add_argument("--points", type=int, default=2000)
    parser.add_argument("--data", type=Path, default=DATA)
    args = parser.parse_args()
    start = time.perf_counter()
    units = army_list(args.data, args.faction, args.points)
    targets = mh.read_army(args.data, faction=args.targets, csv_kind="targets").targets
    plan = mh.plan_army(units, targets, metric="points_destroyed")
    seconds = time.perf_counter() - start
    points = sum(u.points or 0 for u in units)
    status = "met" if seconds <= GOAL else "MISSED"
    print(
        f"{len(units)} units ({points} pts), {len(plan.declarations)} declarations, "
        f"{len(targets)} targets: {plan.method}, {plan.scored} plans scored"
    )
    print(f"plan      {seconds:6.2f} s  goal <= {GOAL:.0f} s  {status}")
    print(f"points {plan.value:.1f} for the plan, {plan.naive:.1f} at {plan.baseline}")
    return 0 if seconds <= GOAL else 1


if __name__ == "__main__":
    sys.exit(main())
