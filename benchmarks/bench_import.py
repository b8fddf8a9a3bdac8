"""Time ``read_catalogue`` on the shared BSData snapshot: four factions, libraries, game system.

The snapshot beside the repository (../shared/data/bsdata-11e, JSON as BSData ships it)
is read ``--repeat`` times (5 by default) in fresh processes, each timed from outside
around the whole process (interpreter start-up and ``import mathhammer`` included), and
``--repeat`` times in this process after one untimed read (the reading alone). The same
files written as XML (``.cat``/``.gst``) and as zipped XML (``.catz``/``.gstz``) are timed
the same way in this process. The goal, ≤ 3 s, is for the JSON read in a fresh process;
the exit status is 1 when its median misses it.

    python benchmarks/bench_import.py [--repeat 5] [--data PATH] [--forms json,xml,zip]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data" / "bsdata-11e"
#: The goal in seconds for the median JSON read in a fresh process.
GOAL = 3.0
FORMS = ("json", "xml", "zip")


def _environment() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    return env


def _fresh(data: Path, repeat: int) -> list[float]:
    """Wall times of whole processes that import mathhammer and read the snapshot."""
    probe = (
        "import sys; from mathhammer.io.bsdata import read_catalogue; read_catalogue(sys.argv[1])"
    )
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, "-c", probe, str(data)], env=_environment(), cwd=ROOT, check=True
        )
        times.append(time.perf_counter() - start)
    return times


def _warm(read: Callable[[], object], repeat: int) -> list[float]:
    read()  # untimed: the imports and the first touch of every module
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        read()
        times.append(time.perf_counter() - start)
    return times


def _write_form(data: Path, target: Path, form: str) -> None:
    """The snapshot written as XML or zipped XML, as BattleScribe's own files are."""
    sys.path.insert(0, str(ROOT / "tests"))
    from bsdata_helpers import to_xml

    target.mkdir()
    for path in data.glob("*.json"):
        ((kind, body),) = json.loads(path.read_text("utf-8")).items()
        suffix = ".gst" if kind == "gameSystem" else ".cat"
        xml = to_xml(kind, body)
        if form == "zip":
            with zipfile.ZipFile(target / f"{path.stem}{suffix}z", "w", zipfile.ZIP_DEFLATED) as z:
                z.writestr(f"{path.stem}{suffix}", xml)
        else:
            (target / f"{path.stem}{suffix}").write_bytes(xml)


def _row(name: str, times: list[float], goal: float | None) -> tuple[str, bool]:
    median = statistics.median(times)
    status = "" if goal is None else ("ok" if median <= goal else "MISSED")
    goal_text = f"{goal:.2f} s" if goal is not None else "-"
    line = (
        f"{name:<34} {median:>6.3f} s {min(times):>6.3f} s {max(times):>6.3f} s "
        f"{goal_text:>8}  {status}"
    )
    return line, status == "MISSED"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="timed reads per measure")
    parser.add_argument("--data", type=Path, default=DATA, help="the BSData snapshot folder")
    parser.add_argument("--forms", default=",".join(FORMS), help="json, xml and/or zip")
    args = parser.parse_args(argv)
    forms = [f.strip() for f in args.forms.split(",") if f.strip()]
    if args.repeat < 1:
        parser.error(f"--repeat must be at least 1; got {args.repeat}")
    if not set(forms) <= set(FORMS):
        parser.error(f"--forms must be among {', '.join(FORMS)}; got {args.forms!r}")
    if not args.data.is_dir():
        parser.error(f"--data must be the BSData snapshot folder; got {str(args.data)!r}")
    sys.path.insert(0, str(ROOT))
    from mathhammer.io.bsdata import read_catalogue

    catalogue = read_catalogue(args.data)
    report = catalogue.report
    print(f"snapshot {args.data}: {len(list(args.data.glob('*.json')))} files")
    print(
        f"{report.datasheets} datasheets of {len(catalogue.factions)} factions, "
        f"{report.weapons} weapons, {report.models} model types, {len(report.skipped)} skipped"
    )
    print(f"python {sys.executable}; load average {os.getloadavg()[0]:.2f} at start")
    print(f"\n{'read_catalogue':<34} {'median':>8} {'min':>8} {'max':>8} {'goal':>8}  status")
    failed = False
    if "json" in forms:
        fresh = _fresh(args.data, args.repeat)
        line, missed = _row("JSON, fresh process (with import)", fresh, GOAL)
        failed |= missed
        print(line)
    with tempfile.TemporaryDirectory() as scratch:
        for form in forms:
            folder = args.data
            if form != "json":
                folder = Path(scratch) / form
                _write_form(args.data, folder, form)
            label = {"json": "JSON", "xml": "XML", "zip": "zipped XML"}[form]
            times = _warm(partial(read_catalogue, folder), args.repeat)
            print(_row(f"{label}, in process", times, None)[0])
    print(f"\nmedians of {args.repeat} reads; the goal is for the JSON read in a fresh process")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
