"""Time sequences of attacks and durability against their goals (issue 15).

* ``SEQ3``: three units in turn against ten W2 models, with the target's state carried
  (``mh.sequence``), against the three attacks made separately on a fresh target: the
  goal is at most 3x their sum.
* ``DURABILITY``: ``mh.durability`` of one unit (each of the standard targets in turn)
  against the six standard attackers, copies to 50 % and 90 % included: at most 0.5 s.

Every call is cold (``mh.clear_caches()`` first, outside the timed region), timed on the
CPU clock of this process; the medians of ``--repeat`` runs (15) are printed beside the
goals. The exit status is 1 when a goal is missed.

    python benchmarks/bench_turns.py [--repeat 15]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import mathhammer as mh  # noqa: E402

TARGET = mh.Unit.of("Squad", models=10, toughness=4, save=3, wounds=2)
STEPS = [
    [(mh.Weapon("Bolt rifle", 2, 3, 4, -1, 1), 10)],
    [(mh.Weapon("Heavy bolter", 3, 3, 5, -1, 2), 3)],
    [(mh.Weapon("Plasma gun", 2, 3, 8, -3, 2), 5)],
]
SEQ_GOAL = 3.0
DURABILITY_GOAL = 0.5


def cold(work: Callable[[], Any], repeat: int) -> float:
    """The median CPU seconds of ``work`` with every cache emptied before each call."""
    times = []
    for _ in range(repeat):
        mh.clear_caches()
        start = time.process_time()
        work()
        times.append(time.process_time() - start)
    return statistics.median(times)


def separate() -> None:
    for weapons in STEPS:
        mh.attack(weapons, TARGET)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args(argv)
    missed = False
    alone = cold(separate, args.repeat)
    carried = cold(lambda: mh.sequence(STEPS, TARGET), args.repeat)
    ratio = carried / alone
    missed |= ratio > SEQ_GOAL
    print(f"{'row':12s} {'median':>10s} {'goal':>10s}  status  note")
    status = "met" if ratio <= SEQ_GOAL else "MISSED"
    print(
        f"{'SEQ3':12s} {ratio:9.2f}x {SEQ_GOAL:9.1f}x  {status:6s}"
        f"  sequence {carried * 1e3:.2f} ms vs three attacks {alone * 1e3:.2f} ms"
    )
    worst = 0.0
    for target in mh.targets.STANDARD:
        seconds = cold(partial(mh.durability, target), max(3, args.repeat // 5))
        worst = max(worst, seconds)
        status = "met" if seconds <= DURABILITY_GOAL else "MISSED"
        missed |= seconds > DURABILITY_GOAL
        goal = DURABILITY_GOAL
        print(f"{'DURABILITY':12s} {seconds:9.3f}s {goal:9.1f}s  {status:6s}  {target.name}")
    print(f"\nslowest durability: {worst:.3f} s; CPU clock, cold caches, medians")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
