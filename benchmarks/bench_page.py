"""The page's goals: the matrix of two 2,000-point lists in under 10 s, a cell's attack in
under 1 s, on 2 cores.

The lists are made from the shared BSData catalogues: the first datasheets of a faction,
each at its default size and price, until 2,000 points (Necrons against Orks, then the
other way round). Each matrix is built cold (``mathhammer.clear_caches()`` first), in both
phases, as the page builds it; a cell's attack is what a click computes (the attack, its
P(at least k) and what it would take), timed for the 12 x 12 corner of the ranged matrix.
``mh.explore``'s goal is a change answered in well under a second: each control of a cell
comparing the list's first eight ranged loadouts is changed in turn (a new value, cold, then
back to one seen before, from the cache), and the curves and table recomputed.

    python benchmarks/bench_page.py [--shared ../shared/data]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import mathhammer as mh  # noqa: E402
from mathhammer.page.explore import ExploreState  # noqa: E402
from mathhammer.page.layout import PageState  # noqa: E402
from mathhammer.page.matrix import of_phase  # noqa: E402
from mathhammer.page.text import cell_text  # noqa: E402

POINTS = 2000


def two_thousand(folder: Path, faction: str) -> mh.io.Army:
    """The faction's first datasheets, until 2,000 points: their loadouts and targets."""
    army = mh.read_army(folder, faction=faction)
    chosen, total = [], 0
    for target in army.targets:
        if target.points and total + target.points <= POINTS:
            chosen.append(target.name)
            total += target.points
    keep = set(chosen)
    loadouts = [x for x in army.loadouts if x.name.rsplit(" (", 1)[0] in keep]
    targets = [t for t in army.targets if t.name in keep]
    return mh.io.Army(army.source, army.kind, loadouts, targets, army.datasheets, army.report)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", default=str(HERE.parent.parent / "shared" / "data"))
    args = parser.parse_args()
    folder = Path(args.shared) / "bsdata-11e"
    lists = {"Necrons": two_thousand(folder, "Necrons"), "Orks": two_thousand(folder, "Orks")}
    failed = False
    for mine, theirs in (("Necrons", "Orks"), ("Orks", "Necrons")):
        state = PageState(mine=lists[mine], theirs=list(lists[theirs].targets))
        mh.clear_caches()
        start = time.perf_counter()
        shapes = []
        for phase in ("ranged", "melee"):
            state.phase = phase
            shapes.append(state.table().shape)
        built = time.perf_counter() - start
        state.phase = "ranged"
        units, targets = state.table().index[:12], [t.name for t in state.theirs][:12]
        clicks = []
        for unit in units:
            for target in targets:
                start = time.perf_counter()
                cell_text(state, unit, target)
                clicks.append(time.perf_counter() - start)
        worst, median = max(clicks), statistics.median(clicks)
        failed |= built > 10 or worst > 1
        print(
            f"{mine} vs {theirs}: matrices {shapes} built in {built:.2f} s (goal < 10 s); "
            f"{len(clicks)} cells: median {median * 1e3:.0f} ms, worst {worst * 1e3:.0f} ms "
            "(goal < 1 s)"
        )
    failed |= explore(lists["Necrons"])
    return 1 if failed else 0


def explore(army: mh.io.Army) -> bool:
    """Time each change of an explore cell: new values cold, values seen before cached."""
    loadouts = of_phase(army.loadouts, "ranged")[:8]
    state = ExploreState.of(loadouts, mh.targets.STANDARD)
    mh.clear_caches()
    state.results(), state.table()
    changes = [("hit", 1), ("wound", -1), ("reroll_hits", "ones"), ("target", "Vehicle")]
    changes += [("situation", ("half_range",)), ("rules", "10e")]
    fresh, again = [], []
    for name, value in changes:
        before = getattr(state, name)
        for value_now, times in ((value, fresh), (before, again)):
            setattr(state, name, value_now)
            start = time.perf_counter()
            state.results(), state.table()
            times.append(time.perf_counter() - start)
    print(
        f"explore, {len(loadouts)} loadouts: a new choice median "
        f"{statistics.median(fresh) * 1e3:.0f} ms, worst {max(fresh) * 1e3:.0f} ms; one seen "
        f"before median {statistics.median(again) * 1e3:.0f} ms, worst "
        f"{max(again) * 1e3:.0f} ms (goal < 1 s)"
    )
    return max(fresh + again) > 1


if __name__ == "__main__":
    sys.exit(main())
