"""Reports follow the selection rules (issue 12, point 2).

Shooting and fighting are separate rows; a model that is not a MONSTER or VEHICLE fires
its sidearms or its other guns, never both; each model fights with one melee weapon plus
its [EXTRA ATTACKS] weapons; the report takes the best legal declaration per target and
says which (``phase``, ``weapons_used``); a ``use`` column overrides the default.

Every expected value is derived by hand below, as a Fraction, from per-attack
probabilities: with D1 weapons against W1 models (or D2 against W2) and fewer unsaved
attacks possible than the target has models, wounds lost are exactly linear, so the mean
is attacks x P(hit) x P(wound) x P(unsaved) x wounds per unsaved attack.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

import mathhammer as mh
from mathhammer.io import read_attackers
from mathhammer.io.report import build_report
from mathhammer.units.datasheet import Datasheet, ModelProfile, Wargear
from mathhammer.units.options import AttackOptions
from mathhammer.units.targets import Target

HEADER = "unit,weapon,count,A,BS/WS,S,AP,D,abilities,type"
SQUAD = f"""{HEADER}
Squad,Bolt rifle,5,2,3+,4,-1,1,,Ranged
Squad,Plasma pistol,5,1,3+,8,-3,2,[PISTOL],Ranged
Squad,Chainsword,5,3,3+,4,-1,1,,Melee
"""
#: T3 Sv6+ W1: a bolt rifle or chainsword attack (3+ to hit, 3+ to wound, AP-1: no save)
#: is unsaved with 2/3 * 2/3 = 4/9; a plasma pistol attack with 2/3 * 5/6 = 5/9.
HORDE = Target(mh.Unit.of("Horde", 60, 3, 6, 1))
#: T8 Sv3+ W2: a bolt rifle attack is unsaved with 2/3 * 1/6 * 1/2 = 1/18 (1 wound);
#: a plasma pistol attack with 2/3 * 1/2 * 5/6 = 5/18 (2 wounds, exactly one model).
BRUTES = Target(mh.Unit.of("Brutes", 5, 8, 3, 2))
TOL = 1e-12


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "army.csv"
    path.write_text(text, encoding="utf-8")
    return path


def rows(frame: Any) -> dict[tuple[str, str], Any]:
    return {(r.loadout, r.target): r for r in frame.itertuples()}


def test_shooting_and_fighting_are_separate_rows_and_the_better_guns_fire(
    tmp_path: Path,
) -> None:
    units = read_attackers(write(tmp_path, SQUAD))
    assert [(u.name, u.phase) for u in units] == [
        ("Squad (ranged)", "shooting"),
        ("Squad (melee)", "fight"),
    ]
    assert [u.points for u in units] == [None, None]  # the points column is optional
    frame = build_report(units, [HORDE, BRUTES])
    assert "loadout_points" not in frame.columns
    got = rows(frame)
    rifles, pistols = 10 * Fraction(4, 9), 5 * Fraction(5, 9)  # 40/9 against 25/9
    assert rifles > pistols
    horde = got[("Squad (ranged)", "Horde")]
    assert (horde.phase, horde.weapons_used) == ("shooting", "5x Bolt rifle")
    assert abs(horde.mean_damage - float(rifles)) < TOL  # not rifles + pistols (65/9)
    brutes = got[("Squad (ranged)", "Brutes")]
    assert brutes.weapons_used == "5x Plasma pistol"
    assert abs(brutes.mean_damage - float(5 * Fraction(5, 18) * 2)) < TOL  # 25/9 > 10/18
    melee = got[("Squad (melee)", "Horde")]
    assert (melee.phase, melee.weapons_used) == ("fight", "5x Chainsword")
    assert abs(melee.mean_damage - float(15 * Fraction(4, 9))) < TOL


FIGHTERS = f"""{HEADER},models
Assault,Chainsword,10,3,3+,4,-1,1,,Melee,10
Assault,Power fist,1,3,4+,8,-2,2,,Melee,
"""


def test_each_model_fights_with_one_weapon_the_best_against_each_target(
    tmp_path: Path,
) -> None:
    (unit,) = read_attackers(write(tmp_path, FIGHTERS))
    assert [o.name for o in unit.options] == ["10x Chainsword", "9x Chainsword, 1x Power fist"]
    # T5 Sv4+: a chainsword attack is unsaved with 2/3 * 1/3 * 2/3 = 4/27, a fist attack
    # with 1/2 * 2/3 * 5/6 = 5/18 (its D2 takes one W1 model): 30 * 4/27 = 40/9 for the
    # chainswords alone, 27 * 4/27 + 3 * 5/18 = 29/6 with the fist.
    tough = Target(mh.Unit.of("Tough", 60, 5, 4, 1))
    # Horde: 30 * 4/9 = 40/3 for the chainswords alone, 12 + 3 * 1/2 * 5/6 = 53/4 with the fist
    frame = build_report([unit], [tough, HORDE])
    got = rows(frame)
    assert got[("Assault", "Tough")].weapons_used == "9x Chainsword, 1x Power fist"
    assert abs(got[("Assault", "Tough")].mean_damage - 29 / 6) < TOL
    assert got[("Assault", "Horde")].weapons_used == "10x Chainsword"
    assert abs(got[("Assault", "Horde")].mean_damage - 40 / 3) < TOL


@pytest.mark.parametrize(
    ("use", "names"),
    [
        (("", ""), ["5x Bolt rifle", "5x Plasma pistol"]),  # the rules' choice
        (("", "yes"), ["5x Bolt rifle, 5x Plasma pistol"]),  # forced in: both fire
        (("no", ""), ["5x Plasma pistol"]),  # forced out
        (("hot", "cold"), ["hot", "cold"]),  # named alternatives
    ],
)
def test_the_use_column_overrides_the_default(
    tmp_path: Path, use: tuple[str, str], names: list[str]
) -> None:
    text = (
        f"{HEADER},use\nSquad,Bolt rifle,5,2,3+,4,-1,1,,Ranged,{use[0]}\n"
        f"Squad,Plasma pistol,5,1,3+,8,-3,2,[PISTOL],Ranged,{use[1]}\n"
    )
    (unit,) = read_attackers(write(tmp_path, text))
    assert [o.name for o in unit.options] == names


def test_forced_rows_are_added_and_their_damage_too(tmp_path: Path) -> None:
    text = (
        f"{HEADER},use\nSquad,Bolt rifle,5,2,3+,4,-1,1,,Ranged,\n"
        "Squad,Plasma pistol,5,1,3+,8,-3,2,[PISTOL],Ranged,yes\n"
    )
    (unit,) = read_attackers(write(tmp_path, text))
    row = build_report([unit], [HORDE]).iloc[0]
    assert abs(row.mean_damage - float(10 * Fraction(4, 9) + 5 * Fraction(5, 9))) < TOL


def test_a_unit_that_marks_every_row_no_is_refused(tmp_path: Path) -> None:
    text = f"{HEADER},use\nSquad,Bolt rifle,5,2,3+,4,-1,1,,Ranged,no\n"
    with pytest.raises(mh.CsvError, match="column 'use': unit 'Squad' marks every row no"):
        read_attackers(write(tmp_path, text))


@pytest.mark.parametrize(
    ("extra", "options"),
    [
        ("keywords\nSquad,Gun,1,2,3+,4,0,1,,Ranged,VEHICLE", 1),  # a VEHICLE fires both
        ("models\nSquad,Gun,1,2,3+,4,0,1,,Ranged,2", 1),  # a model for each weapon
        ("models\nSquad,Gun,1,2,3+,4,0,1,,Ranged,1", 2),  # one model: one or the other
    ],
)
def test_monsters_vehicles_and_enough_models_fire_everything(
    tmp_path: Path, extra: str, options: int
) -> None:
    first, row = extra.split("\n")
    text = f"{HEADER},{first}\n{row}\nSquad,Pistol,1,1,3+,4,0,1,[PISTOL],Ranged,\n"
    (unit,) = read_attackers(write(tmp_path, text))
    assert len(unit.options) == options


def test_unit_values_must_agree_and_models_be_positive(tmp_path: Path) -> None:
    text = f"{HEADER},models\nSquad,Gun,1,2,3+,4,0,1,,Ranged,0\n"
    with pytest.raises(mh.CsvError, match=":2: column 'models': expected an integer >= 1"):
        read_attackers(write(tmp_path, text))
    text = (
        f"{HEADER},keywords\nSquad,Gun,1,2,3+,4,0,1,,Ranged,VEHICLE\n"
        "Squad,Gun,1,2,3+,4,0,1,,Ranged,MONSTER\n"
    )
    with pytest.raises(mh.CsvError, match=":3: column 'keywords': unit 'Squad' has"):
        read_attackers(write(tmp_path, text))


def test_compare_takes_the_options_and_names_the_choice(tmp_path: Path) -> None:
    units = read_attackers(write(tmp_path, SQUAD))
    frame = mh.compare(units, [HORDE.unit, BRUTES.unit])
    assert frame.weapons_used.tolist() == [
        "5x Bolt rifle",
        "5x Plasma pistol",
        "5x Chainsword",
        "5x Chainsword",
    ]
    renamed = mh.compare({"Guns": units[0]}, BRUTES.unit)
    assert renamed.loadout.tolist() == ["Guns"] and renamed.weapons_used[0] == "5x Plasma pistol"
    # a plain Loadout is its own single option: no choice columns
    plain = mh.compare({"all": units[0].weapons}, BRUTES.unit)
    assert "phase" not in plain.columns


PISTOL = mh.Weapon("Pistol", 1, 3, 8, -3, 2, "[PISTOL]")
RIFLE = mh.Weapon("Rifle", 2, 3, 4, -1, 1)
KNIFE = mh.Weapon("Knife", 2, 3, 4, 0, 1, melee=True)
MAUL = mh.Weapon("Maul", 3, 4, 8, -2, 2, melee=True)
BITE = mh.Weapon("Bite", 1, 4, 4, 0, 1, "[EXTRA ATTACKS]", melee=True)
GEAR = tuple(
    Wargear(w.name, (w,)) for w in (PISTOL, RIFLE, KNIFE, MAUL, BITE)
)  # each a single profile
TROOPER = ModelProfile(
    "Trooper", 4, 4, 1, min_count=4, max_count=4, weapons=("Rifle", "Pistol", "Knife")
)
BOSS = ModelProfile("Boss", 4, 3, 2, weapons=("Pistol", "Knife", "Maul", "Bite"))


def test_datasheet_options_choose_per_model_type() -> None:
    sheet = Datasheet("Troop", (TROOPER, BOSS), GEAR)
    ranged, melee = sheet.loadouts()
    assert isinstance(ranged, AttackOptions) and isinstance(melee, AttackOptions)
    assert [o.name for o in ranged.options] == ["4x Rifle, 1x Pistol", "5x Pistol"]
    assert [o.name for o in melee.options] == [
        "5x Knife, 1x Bite",
        "4x Knife, 1x Maul, 1x Bite",
    ]
    # a VEHICLE fires every gun it carries
    (guns, _) = Datasheet("Walker", (TROOPER,), GEAR, keywords=("VEHICLE",)).loadouts()
    assert isinstance(guns, AttackOptions)
    assert [o.name for o in guns.options] == ["4x Rifle, 4x Pistol"]


@pytest.mark.system
def test_report_with_workers_matches_a_serial_one_for_options(tmp_path: Path) -> None:
    units = read_attackers(write(tmp_path, SQUAD))
    serial = build_report(units, [HORDE, BRUTES], trials=200, rng=3)
    parallel = build_report(units, [HORDE, BRUTES], trials=200, rng=3, jobs=2)
    assert serial.equals(parallel)
    assert serial.weapons_used.tolist()[:2] == ["5x Bolt rifle", "5x Plasma pistol"]
    assert (serial.mc_z.abs() < 5).all()


def test_the_context_given_reaches_datasheet_options_and_fights_are_melee() -> None:
    # Against T4 Sv4+ W1, a 3+ S4 AP0 attack is unsaved with 2/3 * 1/2 * 1/2 = 1/6, or
    # 1/2 * 1/2 * 1/2 = 1/8 when cover (ranged attacks only) worsens the BS to 4+.
    gun = mh.Weapon("Gun", 1, 3, 4, 0, 1)
    axe = mh.Weapon("Axe", 1, 3, 4, 0, 1, melee=True)
    sheet = Datasheet(
        "Duo",
        (ModelProfile("Duo", 4, 4, 1, min_count=6, max_count=6, weapons=("Gun", "Axe")),),
        (Wargear("Gun", (gun,)), Wargear("Axe", (axe,))),
    )
    cover = mh.Context(target_in_cover=True)
    frame = mh.compare(sheet.loadouts(), mh.Unit.of("Guard", 20, 4, 4, 1), context=cover)
    assert frame.phase.tolist() == ["shooting", "fight"]
    assert abs(frame.mean_damage[0] - 6 / 8) < TOL
    assert abs(frame.mean_damage[1] - 6 / 6) < TOL
