"""The situation of a report (issue: no situation for roster and catalogue reports): the
flags every command that attacks takes (--half-range, --stationary, --charged, --in-cover,
the names of a profiles CSV's context columns), a ``context`` column in every report, and
several situations side by side (--situation far --situation close)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

import mathhammer as mh
from mathhammer.cli import main

DATA = Path(__file__).parent / "data"
ORKS = DATA / "rosters" / "real" / "orks_11e_attached.json"

ARMY = """unit,weapon,count,A,BS/WS,S,AP,D,abilities,points,type
Melta squad,Meltagun,5,1,3+,9,-4,D6,"[RAPID FIRE 1], [MELTA 2]",100,Ranged
Axes,Power axe,5,3,3+,5,-2,1,[LANCE],80,Melee
"""
TARGETS = """unit,group,models,T,Sv,InSv,W,FNP,keywords,CHARACTER,Ld,points
Tank,,1,10,3+,,12,,VEHICLE,no,,150
"""
MELTA = mh.Weapon("Meltagun", 1, 3, 9, -4, "D6", "[RAPID FIRE 1], [MELTA 2]")
TANK = mh.Unit.of("Tank", 1, 10, 3, 12, keywords="VEHICLE")


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path]:
    army, targets = tmp_path / "army.csv", tmp_path / "targets.csv"
    army.write_text(ARMY)
    targets.write_text(TARGETS)
    return army, targets


def rows(path: Path) -> list[dict[str, str]]:
    return list(csv.DictReader(path.open()))


def test_a_flag_sets_every_units_situation_and_the_row_says_so(
    files: tuple[Path, Path], tmp_path: Path
) -> None:
    army, targets = files
    out = tmp_path / "o.csv"
    argv = ["report", str(army), "--targets", str(targets), "-o", str(out), "--no-progress"]
    assert main(argv) == 0
    plain = {r["loadout"]: r for r in rows(out)}
    assert main([*argv, "--half-range", "--charged"]) == 0
    close = {r["loadout"]: r for r in rows(out)}
    assert plain["Melta squad"]["context"] == "default"
    assert close["Melta squad"]["context"] == "half_range; charged"
    want = mh.attack([(MELTA, 5)], TANK, context=mh.Context(half_range=True, charged=True))
    assert float(close["Melta squad"]["mean_damage"]) == pytest.approx(want.damage.mean(), rel=1e-5)
    assert float(close["Melta squad"]["mean_damage"]) > float(plain["Melta squad"]["mean_damage"])
    # [LANCE]: +1 to wound when charging, for the axes (melee: the phase is its own column)
    assert float(close["Axes"]["mean_damage"]) > float(plain["Axes"]["mean_damage"])
    assert close["Axes"]["phase"] == "fight" and close["Axes"]["context"] == "half_range; charged"


def test_several_situations_side_by_side(files: tuple[Path, Path], tmp_path: Path) -> None:
    army, targets = files
    out = tmp_path / "o.csv"
    argv = ["report", str(army), "--targets", str(targets), "-o", str(out), "--no-progress",
            "--situation", "far", "--situation", "close+stationary"]  # fmt: skip
    assert main(argv) == 0
    got = [(r["loadout"], r["context"]) for r in rows(out)]
    assert got == [
        ("Melta squad", "default"),
        ("Melta squad", "half_range; remained_stationary"),
        ("Axes", "default"),
        ("Axes", "half_range; remained_stationary"),
    ]
    melta = [r for r in rows(out) if r["loadout"] == "Melta squad"]
    want = mh.attack([(MELTA, 5)], TANK, context=mh.Context(half_range=True))
    assert float(melta[1]["mean_damage"]) == pytest.approx(want.damage.mean(), rel=1e-5)


def test_a_roster_report_takes_the_situation(tmp_path: Path) -> None:
    out = tmp_path / "o.csv"
    argv = ["report", str(ORKS), "-o", str(out), "--no-progress", "--stationary"]
    assert main(argv) == 0
    assert {r["context"] for r in rows(out)} == {"remained_stationary"}


def test_an_unknown_situation_is_one_clear_line(
    files: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    army, _ = files
    assert main(["report", str(army), "--situation", "nearby", "-o", "/dev/null"]) == 1
    err = capsys.readouterr().err
    assert "--situation must be names or flags of ['far', 'default', 'close'" in err
    assert "got 'nearby'" in err


def test_plan_and_durability_take_the_flags(
    files: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    army, targets = files
    assert main(["plan", str(army), "--targets", str(targets), "--metric", "points"]) == 0
    far = capsys.readouterr().out
    assert main(["plan", str(army), "--targets", str(targets), "--metric", "points",
                 "--half-range"]) == 0  # fmt: skip
    close = capsys.readouterr().out
    assert far != close
    suite = tmp_path / "suite.json"
    gun = {"name": "Meltagun", "count": 5, "attacks": 1, "skill": 3, "strength": 9, "ap": -4,
           "damage": "D6", "abilities": "[RAPID FIRE 1], [MELTA 2]"}  # fmt: skip
    meltas = {"name": "Meltas", "role": "anti-tank", "points": 100, "weapons": [gun]}
    suite.write_text(json.dumps({"attackers": [meltas]}))
    out = tmp_path / "d.csv"
    base = ["durability", str(targets), "--attackers", str(suite), "-o", str(out)]
    assert main([*base, "--half-range"]) == 0
    (row,) = rows(out)
    want = mh.attack([(MELTA, 5)], TANK, context=mh.Context(half_range=True))
    assert float(row["killed_mean"]) == pytest.approx(want.killed.mean(), rel=1e-5)
