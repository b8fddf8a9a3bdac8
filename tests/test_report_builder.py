"""The batch report's library API: argument checks, progress reporting, atomic writes."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

import mathhammer as mh
from mathhammer.io import read_attackers
from mathhammer.io.report import build_report, write_csv_atomic
from mathhammer.units.targets import Target

ATTACKERS = """unit,weapon,count,A,BS/WS,S,AP,D,abilities,points
One,Gun,2,2,3+,4,0,1,,20
Two,Gun,4,2,3+,4,0,1,,40
Three,Gun,6,2,3+,4,0,1,,60
"""
TARGETS = [Target(mh.Unit.of("Horde", 10, 3, 6, 1), 60)]


@pytest.fixture
def attackers(tmp_path: Path) -> list[Any]:
    path = tmp_path / "army.csv"
    path.write_text(ATTACKERS)
    return list(read_attackers(path))


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"jobs": 0}, "jobs must be an integer >= 1; got 0"),
        ({"jobs": True}, "jobs must be an integer >= 1; got True"),
        ({"jobs": 2.0}, "jobs must be an integer >= 1; got 2.0"),
        ({"trials": -5}, "trials must be 0 or an integer >= 2; got -5"),
        ({"trials": False}, "trials must be 0 or an integer >= 2; got False"),
    ],
)
def test_bad_arguments_are_refused_before_any_work(
    attackers: list[Any], changes: dict[str, Any], message: str
) -> None:
    with pytest.raises(mh.MathhammerError, match=re.escape(message)):
        build_report(attackers, TARGETS, **changes)


@pytest.mark.system
@pytest.mark.parametrize("jobs", [1, 2])
def test_progress_counts_the_finished_units(attackers: list[Any], jobs: int) -> None:
    seen: list[int] = []
    frame = build_report(attackers, TARGETS, jobs=jobs, progress=seen.append)
    assert seen == [1, 2, 3]
    assert list(frame["loadout"]) == ["One", "Two", "Three"]
    gun = mh.Weapon("Gun", 2, 3, 4, 0, 1)
    want = [mh.attack([(gun, n)], TARGETS[0].unit).killed.mean() for n in (2, 4, 6)]
    assert list(frame["mean_killed"]) == pytest.approx(want, rel=1e-12)


def test_writing_into_a_folder_fails_and_leaves_no_temporary_file(tmp_path: Path) -> None:
    folder = tmp_path / "report.csv"
    folder.mkdir()
    with pytest.raises(mh.OptionError, match="not a folder"):
        write_csv_atomic(pd.DataFrame({"a": [1]}), folder)
    assert [p.name for p in tmp_path.iterdir()] == ["report.csv"]
    assert list(folder.iterdir()) == []


class Interrupted:
    """A frame whose writing stops half-way, as on Ctrl-C."""

    def to_csv(self, out: Any, **kwargs: Any) -> None:
        out.write("a\n1\n")
        raise KeyboardInterrupt


def test_an_interrupted_write_keeps_the_old_file(tmp_path: Path) -> None:
    out = tmp_path / "report.csv"
    out.write_text("old\n")
    with pytest.raises(KeyboardInterrupt):
        write_csv_atomic(Interrupted(), out)
    assert out.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["report.csv"]
