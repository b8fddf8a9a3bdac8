"""Time a report of every weapon profile of one faction against the standard targets.

The faction is read from the BSData snapshot beside the repository
(../shared/data/bsdata-11e). Two reports are timed, each from the catalogue read to the
finished table, with ``--jobs`` worker processes (2 by default):

- **profiles**: every weapon profile of the faction's datasheets as its own loadout, carried
  by the default number of the model type that carries it, against the standard suite;
- **datasheets**: what ``mathhammer report CATALOGUE --faction F`` runs: every datasheet's
  ranged and melee loadouts (one more loadout per alternative profile).

The goal, ≤ 30 s on 2 cores, is for each; the exit status is 1 when one misses it.

    python benchmarks/bench_faction_report.py [--faction Orks] [--jobs 2] [--data PATH]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import mathhammer as mh  # noqa: E402
from mathhammer.io.report import build_report  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "bsdata-11e"
#: The goal in seconds for each report, catalogue read included.
GOAL = 30.0


def profile_loadouts(sheets: list[mh.Datasheet]) -> list[mh.Loadout]:
    """Every weapon profile of the datasheets, each carried by its model type's default count."""
    out: list[mh.Loadout] = []
    for sheet in sheets:
        carriers = {name: m for m in sheet.models for name in m.options}
        for gear in sheet.wargear:
            model = carriers.get(gear.name)
            count = max(1, model.default_count or 1) if model else 1
            for profile in gear.profiles:
                name = f"{sheet.name} / {gear.name} / {profile.name} #{len(out)}"
                out.append(mh.Loadout(name, [(profile, count)], source=sheet.source))
    return out


def timed(label: str, run: object) -> float:
    start = time.perf_counter()
    rows = run()  # type: ignore[operator]
    seconds = time.perf_counter() - start
    status = "met" if seconds <= GOAL else "MISSED"
    print(f"{label:12s} {rows:6d} rows  {seconds:6.2f} s  goal <= {GOAL:.0f} s  {status}")
    return seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--faction", default="Orks")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--data", type=Path, default=DATA)
    args = parser.parse_args()
    targets = list(mh.targets.STANDARD)

    def by_profile() -> int:
        sheets = list(mh.read_catalogue(args.data).faction(args.faction))
        loadouts = profile_loadouts(sheets)
        return len(build_report(loadouts, targets, jobs=args.jobs))

    def by_datasheet() -> int:
        army = mh.read_army(args.data, faction=args.faction)
        return len(build_report(army.loadouts, targets, jobs=args.jobs))

    print(f"faction {args.faction}, {args.jobs} jobs, {len(targets)} standard targets")
    worst = max(timed("profiles", by_profile), timed("datasheets", by_datasheet))
    return 0 if worst <= GOAL else 1


if __name__ == "__main__":
    raise SystemExit(main())
