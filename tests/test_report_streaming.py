"""Reports stream their rows (issue 13, point 12) and their CSV is safe to open in a
spreadsheet (point 10, CSV injection)."""

from __future__ import annotations

import contextlib
import csv
import io
import sys
import tracemalloc
from pathlib import Path

import pandas as pd
import pytest
from faults import MATHHAMMER, run_limited

import mathhammer as mh
from mathhammer.cli import main
from mathhammer.io.report import build_report, report_rows, write_csv_atomic
from mathhammer.io.report_csv import RowSpool

HEADER = "unit,weapon,count,A,BS/WS,S,AP,D,abilities,points\n"


def army(path: Path, units: int) -> Path:
    rows = [f"U{i},Gun,{1 + i % 5},2,3+,4,-1,1,,{20 + i % 7}" for i in range(units)]
    path.write_text(HEADER + "\n".join(rows) + "\n")
    return path


def targets(path: Path, count: int) -> Path:
    rows = [f"T{i},10,{3 + i % 5},{3 + i % 4}+,{1 + i % 3},60" for i in range(count)]
    path.write_text("unit,models,T,Sv,W,points\n" + "\n".join(rows) + "\n")
    return path


# --------------------------------------------------------------------------- point 12
@pytest.mark.system
@pytest.mark.parametrize("jobs", [1, 2])
def test_rows_come_as_they_are_computed(tmp_path: Path, jobs: int) -> None:
    loadouts = list(mh.read_attackers(army(tmp_path / "army.csv", 60)))
    done: list[int] = []
    rows = report_rows(
        loadouts, [mh.targets.get("Horde infantry")], jobs=jobs, progress=done.append
    )
    assert len(rows) == 60  # loadouts
    first = next(iter(rows))
    # the first row is out after its loadout (and the few in flight), not after all 60
    assert first[0]["loadout"] == "U0" and 1 <= len(done) <= 40
    assert [row["loadout"] for row, _ in rows] == [f"U{i}" for i in range(60)]


def test_memory_does_not_grow_with_the_rows(tmp_path: Path) -> None:
    attackers = army(tmp_path / "army.csv", 60)
    few, many = targets(tmp_path / "few.csv", 2), targets(tmp_path / "many.csv", 30)
    peaks = []
    for suite in (few, few, many):  # the first run warms the engine's caches
        argv = ["report", str(attackers), "--targets", str(suite), "-o", str(tmp_path / "r.csv")]
        tracemalloc.start()
        with contextlib.redirect_stdout(io.StringIO()):
            assert main([*argv, "--no-progress"]) == 0
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
    assert len(pd.read_csv(tmp_path / "r.csv")) == 1800
    # 120 rows and 1,800 rows in the same memory (the old report held every row, twice)
    assert peaks[2] - peaks[1] < 2**20, [p / 2**20 for p in peaks]


def test_the_streamed_csv_is_the_frame_written_whole(tmp_path: Path) -> None:
    lines = [
        "Squad,Bolt rifle,5,2,3+,4,-1,1,[SUSTAINED HIT 1],90",
        "Squad,Plasma gun,1,1,3+,7,-2,2,[HAZARDOUS],",
        "Mob,Choppa,10,3,3+,4,-1,1,,",
    ]
    path = tmp_path / "army.csv"
    path.write_text(HEADER + "\n".join(lines) + "\n")
    out = tmp_path / "r.csv"
    argv = ["report", str(path), "-o", str(out), "--check-trials", "500", "--seed", "5"]
    with pytest.warns(UserWarning):
        loadouts = list(mh.read_attackers(path))
    assert main([*argv, "--no-progress"]) == 0
    frame = build_report(loadouts, list(mh.targets.STANDARD), trials=500, rng=5)
    numbers = frame.select_dtypes("number").columns  # noise below 1e-12 is written as 0
    frame[numbers] = frame[numbers].mask(frame[numbers].abs() < 1e-12, 0)
    assert out.read_text() == frame.to_csv(index=False, float_format="%.6g")


def test_the_terminal_shows_the_first_rows_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    attackers, suite = army(tmp_path / "army.csv", 150), targets(tmp_path / "t.csv", 1)
    argv = ["report", str(attackers), "--targets", str(suite), "-o", str(tmp_path / "r.csv")]
    assert main([*argv, "--no-progress"]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert printed[-3:] == [
        "... the first 100 of 150 rows: the CSV has them all",
        "",
        f"150 rows written to {tmp_path / 'r.csv'}",
    ]
    # the ruleset, the header, 100 rows, then where they went
    assert len(printed) == 2 + 100 + 3 and "U99 " in printed[101]


def test_a_spool_can_be_read_while_it_grows() -> None:
    with RowSpool() as spool:
        assert spool.columns == []
        spool.add({"target": "A", "mean_killed": 1.0})
        assert list(spool.rows()) == [{"target": "A", "mean_killed": 1.0}]
        spool.add({"loadout": "L", "target": "B", "mean_killed": 2.0})
        assert spool.columns == ["loadout", "target", "mean_killed"]
        assert [row["target"] for row in spool.rows()] == ["A", "B"]


@pytest.mark.slow
def test_a_hundred_thousand_units_within_a_budget(tmp_path: Path) -> None:
    # 100,000 one-weapon units against one target: 199 s and 2.1 GB in the issue; 78 s and
    # 557 MB (647 MB of address space) before this change on the reference machine; now
    # about 50 s and 350 MB, nearly all of it the loadouts read from the file
    attackers, suite = army(tmp_path / "army.csv", 100_000), targets(tmp_path / "t.csv", 1)
    out = tmp_path / "r.csv"
    argv = [*MATHHAMMER, "report", str(attackers), "--targets", str(suite), "-o", str(out)]
    done = run_limited(argv, memory=600 * 2**20, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.endswith(f"\n100000 rows written to {out}\n")
    assert sum(1 for _ in out.open()) == 100_001


# --------------------------------------------------------------------------- point 10
#: Names a spreadsheet would evaluate (the CSV reader strips a leading tab or CR).
FORMULAS = ['=HYPERLINK("http://x","y")', "+1+2", "-2+3", "@SUM(A1)"]


def test_formulas_in_names_are_neutralised_and_numbers_are_not(tmp_path: Path) -> None:
    path = tmp_path / "army.csv"
    with path.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(HEADER.strip().split(","))
        for i, name in enumerate(FORMULAS):
            writer.writerow([name, "Gun", i + 1, 2, "3+", 4, -1, 1, "", ""])
    threats = tmp_path / "threats.csv"
    threats.write_text("unit,models,T,Sv,W\n=cmd|' /C calc'!A0,5,4,3+,2\n")
    out = tmp_path / "r.csv"
    argv = ["report", str(path), "--targets", str(threats), "-o", str(out), "--no-progress"]
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(argv) == 0
    with out.open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert [row["loadout"] for row in rows] == ["'" + name for name in FORMULAS]
    assert {row["target"] for row in rows} == {"'=cmd|' /C calc'!A0"}
    assert all(row["weapons_used"][0].isdigit() for row in rows)
    frame = build_report(list(mh.read_attackers(path)), list(mh.read_targets(threats)))
    assert [float(row["mean_killed"]) for row in rows] == pytest.approx(
        list(frame["mean_killed"]), rel=1e-5
    )


@pytest.mark.parametrize("command", ["durability", "plan"])
def test_the_other_tables_neutralise_formulas_too(tmp_path: Path, command: str) -> None:
    # durability's table names each target, plan's each target chosen: both as text
    threats = tmp_path / "threats.csv"
    threats.write_text("unit,models,T,Sv,W\n=cmd|' /C calc'!A0,5,4,3+,2\n")
    out = tmp_path / "t.csv"
    argv = {
        "durability": ["durability", str(threats), "--max-copies", "2", "-o", str(out)],
        "plan": ["plan", "--targets", str(threats), "--no-progress", "-o", str(out)],
    }[command]
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(argv) == 0
    with out.open(newline="") as handle:
        cells = {cell for row in csv.reader(handle) for cell in row}
    assert "'=cmd|' /C calc'!A0" in cells and "=cmd|' /C calc'!A0" not in cells


def test_the_library_writer_neutralises_too(tmp_path: Path) -> None:
    out = tmp_path / "r.csv"
    frame = pd.DataFrame({"loadout": ["@x", "\tx", "\rx", "ok"], "mean_killed": [-1.5, 2, 0, 1]})
    write_csv_atomic(frame, out)
    assert out.read_bytes() == b"loadout,mean_killed\n'@x,-1.5\n'\tx,2\n'\rx,0\nok,1\n"


@pytest.mark.system
def test_the_csv_opens_in_pandas(tmp_path: Path) -> None:
    done = run_limited(
        [sys.executable, "-m", "mathhammer", "report", "-o", str(tmp_path / "r.csv")]
    )
    assert done.returncode == 0
    assert len(pd.read_csv(tmp_path / "r.csv")) == 72
