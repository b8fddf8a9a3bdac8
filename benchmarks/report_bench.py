"""Time ``mathhammer report`` on 1,000 attacker weapon lines against the standard suite.

The weapon lines are real profiles: the first ranged and melee weapons of the Wahapedia
export beside the repository (../shared/data/wahapedia-10e), five lines to an attacking
unit. Prints the serial and ``--jobs 2`` wall times and checks both reports are identical.

    python benchmarks/report_bench.py [--lines 1000] [--export PATH]
"""

from __future__ import annotations

import argparse
import csv
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
EXPORT = HERE.parents[1] / "shared" / "data" / "wahapedia-10e" / "Datasheets_wargear.csv"
COLUMNS = ["unit", "weapon", "count", "A", "BS/WS", "S", "AP", "D", "abilities", "points", "type"]


def rows_from_export(path: Path, lines: int) -> list[list[str]]:
    """Weapon lines as the attackers CSV wants them, from the export's own values."""
    out: list[list[str]] = []
    with path.open(encoding="utf-8-sig", newline="") as handle:
        for row in csv.DictReader(handle, delimiter="|"):
            skill = row["BS_WS"].strip()
            skill = "N/A" if skill in ("N/A", "-", "") else skill.rstrip("+") + "+"
            if not re.fullmatch(r"\d+|\d*D\d+(\+\d+)?", row["A"].strip()):
                continue
            if not row["S"].strip().isdigit():
                continue
            abilities = re.sub(r"<[^>]*>", "", row["description"])
            if skill == "N/A" and "torrent" not in abilities.lower():
                continue
            n = len(out)
            out.append(
                [
                    f"Unit {n // 5:04d}",
                    row["name"],
                    "5",
                    row["A"].strip(),
                    skill,
                    row["S"].strip(),
                    row["AP"].strip().replace("-0", "0") or "0",
                    row["D"].strip(),
                    abilities,
                    "100" if n % 5 == 0 else "",
                    row["type"].strip() or "Ranged",
                ]
            )
            if len(out) == lines:
                break
    return out


def run(args: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "mathhammer", "report", *args, "--no-progress"],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=1000)
    parser.add_argument("--export", type=Path, default=EXPORT)
    args = parser.parse_args()
    rows = rows_from_export(args.export, args.lines)
    with tempfile.TemporaryDirectory() as tmp:
        attackers = Path(tmp) / "attackers.csv"
        with attackers.open("w", newline="", encoding="utf-8") as handle:
            writer = csv.writer(handle)
            writer.writerow(COLUMNS)
            writer.writerows(rows)
        serial = run([str(attackers), "-o", str(Path(tmp) / "serial.csv")])
        parallel = run([str(attackers), "-o", str(Path(tmp) / "jobs2.csv"), "--jobs", "2"])
        same = (Path(tmp) / "serial.csv").read_bytes() == (Path(tmp) / "jobs2.csv").read_bytes()
    print(f"{len(rows)} weapon lines ({len(rows) // 5} units) x 9 targets")
    print(f"serial:  {serial:6.1f} s (goal <= 30 s)")
    print(f"--jobs 2: {parallel:6.1f} s ({serial / parallel:.2f}x); reports identical: {same}")


if __name__ == "__main__":
    main()
