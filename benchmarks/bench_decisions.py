"""Time the decisions of issue 16 against their goals, and how close the search gets.

* ``ORDER6``: ``mh.rank_pool_orders`` of six pools against a three-group unit with a
  CHARACTER (every one of the 720 orders): at most 1 s.
* ``PLAN3x3x4``: ``mh.plan_army`` for 3 units of 3 weapon types each against 4 targets
  (4**9 assignments: the greedy search): at most 5 s; the exhaustive optimum is computed
  too, and the greedy plan's value is printed as a fraction of it.
* ``ARMY8x4x6``: 8 units of 4 weapon types against 6 targets: at most 60 s.

Cold caches, CPU clock, one run each (they take seconds). The exit status is 1 when a goal
is missed.

    python benchmarks/bench_decisions.py [--skip-optimum]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import mathhammer as mh  # noqa: E402
from mathhammer.units import targeting  # noqa: E402

RETINUE = mh.Unit(
    "Retinue",
    [
        mh.ModelGroup(10, 4, 3, 2, name="Veterans"),
        mh.ModelGroup(5, 4, 4, 1, name="Troopers"),
        mh.ModelGroup(1, 4, 2, 5, invuln=4, character=True, name="Captain"),
    ],
)
PROFILES = [
    ("Rifle", 2, 3, 4, 0, 1),
    ("Heavy", 3, 4, 5, -1, 2),
    ("Melta", 1, 3, 9, -4, "D6"),
    ("Plasma", 2, 3, 8, -3, 2),
    ("Flamer", "D6", "N/A", 4, 0, 1, "[TORRENT]"),
    ("Sniper", 1, 3, 5, -2, 3, "[PRECISION]"),
]


def weapon(i: int) -> mh.Weapon:
    name, *rest = PROFILES[i % len(PROFILES)]
    return mh.Weapon(f"{name} {i}", *rest)  # type: ignore[arg-type]


def army(units: int, kinds: int) -> list[tuple[Any, ...]]:
    out = []
    for u in range(units):
        guns = [weapon(u + k) for k in range(kinds)]
        groups = [mh.Models(2 + (u + k) % 4, [g], name=g.name) for k, g in enumerate(guns)]
        out.append((mh.Attacker(f"Unit {u}", groups), [(g.name, g.name) for g in guns]))
    return out


def seconds(work: Any) -> tuple[float, Any]:
    mh.clear_caches()
    start = time.process_time()
    result = work()
    return time.process_time() - start, result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skip-optimum", action="store_true", help="no exhaustive optimum")
    args = parser.parse_args(argv)
    targets = list(mh.targets.STANDARD)
    missed = False
    rows = []
    pools = [(weapon(i), 3) for i in range(6)]
    t, ranking = seconds(lambda: mh.rank_pool_orders(pools, RETINUE))
    rows.append(("ORDER6", t, 1.0, f"{len(ranking.orders)} orders, {ranking.method}"))
    small = army(3, 3)
    t, plan = seconds(lambda: mh.plan_army(small, targets[:4], metric="points_destroyed"))
    note = f"{plan.method}, {plan.scored} plans scored, value {plan.value:.4g}"
    if not args.skip_optimum:
        limit = targeting.MAX_EXHAUSTIVE
        targeting.MAX_EXHAUSTIVE = 4**9
        try:
            t_opt, best = seconds(
                lambda: mh.plan_army(small, targets[:4], metric="points_destroyed")
            )
        finally:
            targeting.MAX_EXHAUSTIVE = limit
        note += f"; optimum {best.value:.4g} ({plan.value / best.value:.2%}) in {t_opt:.1f} s"
    rows.append(("PLAN3x3x4", t, 5.0, note))
    big = army(8, 4)
    t, plan = seconds(lambda: mh.plan_army(big, targets[:6], metric="points_destroyed"))
    rows.append(("ARMY8x4x6", t, 60.0, f"{plan.method}, {plan.scored} plans scored"))
    print(f"{'row':10s} {'seconds':>8s} {'goal':>6s}  status  note")
    for key, took, goal, text in rows:
        status = "met" if took <= goal else "MISSED"
        missed |= took > goal
        print(f"{key:10s} {took:8.2f} {goal:6.1f}  {status:6s}  {text}")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
