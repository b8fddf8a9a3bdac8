"""CSV profiles: values as datasheets print them, and one-line located errors."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import mathhammer as mh
from mathhammer import CsvError, errors, read_attackers, read_targets
from mathhammer.io.attackers_csv import ATTACKER_COLUMNS, ATTACKER_FIELDS, ATTACKER_OPTIONAL
from mathhammer.io.targets_csv import TARGET_COLUMNS, TARGET_FIELDS

ATTACKERS = """unit,weapon,count,A,BS/WS,S,AP,D,abilities,points,type,half_range
Squad,Bolt rifle,9,2,3+,4,-1,1,"[ASSAULT], [HEAVY]",90,Ranged,no
Squad,Plasma,1,1,3+,7,-2,2,[RAPID FIRE 1],,Ranged,no
Flamers,Flamer,3,D6,N/A,4,0,1,[TORRENT],60,,yes
Choppas,Choppa,10,3,3+,4,-1,1,,80,Melee,
"""

TARGETS = """unit,group,models,T,Sv,InSv,W,FNP,keywords,CHARACTER,Ld,points
Marines,Bodyguard,4,4,3+,-,2,-,"INFANTRY, IMPERIUM",no,7,100
Marines,Captain,1,4,2+,4+,5,-,,yes,,
Horde,,20,3,6+,,1,6+,INFANTRY,no,6,120
"""


def write(tmp_path: Path, text: str, name: str = "in.csv") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_attackers(tmp_path: Path) -> None:
    path = write(tmp_path, ATTACKERS)
    units = read_attackers(path)
    assert all(isinstance(u, mh.Loadout) for u in units)
    assert [u.name for u in units] == ["Squad", "Flamers", "Choppas"]
    assert [u.source for u in units] == [f"{path}:2", f"{path}:4", f"{path}:5"]
    squad = units[0]
    assert [(w.name, n) for w, n in squad.weapon_counts] == [("Bolt rifle", 9), ("Plasma", 1)]
    assert squad.weapon_counts[0][0] == mh.Weapon(
        "Bolt rifle", 2, 3, 4, -1, 1, "[ASSAULT], [HEAVY]"
    )
    assert squad.points == 90
    assert squad.context == mh.Context()
    flamers = units[1]
    assert flamers.weapon_counts[0][0].attacks.text == "D6"
    assert flamers.context == mh.Context(half_range=True)
    assert units[2].weapon_counts[0][0].melee and units[2].context == mh.Context(melee=True)


def test_targets(tmp_path: Path) -> None:
    path = write(tmp_path, TARGETS)
    targets = read_targets(path)
    assert all(isinstance(t, mh.Target) for t in targets)
    assert [t.source for t in targets] == [f"{path}:2", f"{path}:4"]
    marines, horde = targets
    assert marines.points == 100 and marines.unit.leadership == 7
    assert marines.unit.keywords == ("INFANTRY", "IMPERIUM")
    assert [g.label for g in marines.unit.groups] == ["Bodyguard", "Captain"]
    assert marines.unit.groups[1] == mh.ModelGroup(
        1, 4, 2, 5, invuln=4, character=True, name="Captain"
    )
    assert horde.unit.groups[0].fnp == 6 and horde.points == 120


def test_classic_attackers_take_the_characteristic(tmp_path: Path) -> None:
    text = "unit,weapon,count,A,BS/WS,S,AP,D,abilities,points\nG,Lasgun,10,1,3,3,0,1,,50\n"
    (unit,) = read_attackers(write(tmp_path, text), rules="classic")
    assert unit.weapon_counts[0][0].bs == 3 and unit.weapon_counts[0][0].skill is None


HEADER = "unit,weapon,count,A,BS/WS,S,AP,D,abilities,points"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            f"{HEADER}\nSquad,Gun,1,2,3+,x,0,1,,\n",
            ":2: column 'S': Weapon.strength: cannot read dice expression 'x' at position 0",
        ),
        (
            f"{HEADER}\nSquad,Gun,1,2D,3+,4,0,1,,\n",
            ":2: column 'A': Weapon.attacks: cannot read dice expression '2D' at position 2",
        ),
        (
            f"{HEADER}\nSquad,Gun,1,2,3x,4,0,1,,\n",
            ":2: column 'BS/WS': expected a roll written '3+' or '3'; got '3x'",
        ),
        (
            f"{HEADER}\nSquad,Gun,1,2,7+,4,0,1,,\n",
            ":2: column 'BS/WS': Weapon.skill must be an integer from 2 to 6; got 7",
        ),
        (
            f"{HEADER}\nSquad,Gun,1,2,N/A,4,0,1,,\n",
            ":2: column 'BS/WS': 'N/A' is only for [TORRENT] weapons",
        ),
        (
            f"{HEADER}\nSquad,Gun,1,2,3+,4,1,1,,\n",
            ":2: column 'AP': Weapon.ap must be an integer <= 0; got 1",
        ),
        (f"{HEADER}\nSquad,Gun,0,2,3+,4,0,1,,\n", ":2: column 'count': expected an integer >= 1"),
        (
            f"{HEADER}\nSquad,Gun,1,2,3+,4,0,1,,90\nSquad,Gun,1,2,3+,4,0,1,,80\n",
            ":3: column 'points': unit 'Squad' has 90 on an earlier row but 80 here",
        ),
        (f"{HEADER}\nSquad,Gun,1,2,3+,4,0,1\n", ":2: expected 10 values; got 8"),
        (
            f"{HEADER}, UNIT \nSquad,Gun,1,2,3+,4,0,1,,,Squad\n",
            ":1: column 'unit': given twice, as 'unit' and 'UNIT'",
        ),
        ("unit,weapon,count\nSquad,Gun,1\n", ":1: missing columns ['A', 'BS/WS', 'S', 'AP'"),
        ("unit;weapon;count\n", ":1: missing columns"),  # semicolons are read (a spreadsheet)
        ("unit|weapon|count\n", ":1: the header is one column containing '|'"),
        ("", ": the file is empty; expected a header row"),
        (f"{HEADER}\n", ": no rows after the header"),
    ],
)
def test_attacker_errors(tmp_path: Path, text: str, message: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(CsvError, match=re.escape(str(path) + message)) as info:
        read_attackers(path)
    assert "\n" not in str(info.value)


T_HEADER = "unit,group,models,T,Sv,InSv,W,FNP,keywords,CHARACTER,Ld,points"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            f"{T_HEADER}\nU,,5,4,1+,,1,,,no,,\n",
            ":2: column 'Sv': ModelGroup.save must be an integer from 2 to 7; got 1",
        ),
        (f"{T_HEADER}\nU,,5,4,3+,,1,,,maybe,,\n", ":2: column 'CHARACTER': expected yes or no"),
        (f"{T_HEADER}\nU,,five,4,3+,,1,,,no,,\n", ":2: column 'models': expected an integer"),
        (
            f"{T_HEADER}\nU,Boss,1,4,3+,,4,,,yes,,\nU,Guard,5,4,3+,,1,,,no,,\n",
            ":2: unit 'U': Unit.groups must put every non-CHARACTER group before",
        ),
        (
            f"{T_HEADER}\nU,,5,4,3+,,1,,,no,7,\nU,x,1,4,2+,,3,,,yes,8,\n",
            ":3: column 'Ld': unit 'U' has 7 on an earlier row but 8 here",
        ),
    ],
)
def test_target_errors(tmp_path: Path, text: str, message: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(CsvError, match=re.escape(str(path) + message)):
        read_targets(path)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(CsvError, match="nope.csv: no such file"):
        read_targets(tmp_path / "nope.csv")


def test_context_flags_like_points_may_stand_on_one_row(tmp_path: Path) -> None:
    text = (
        "unit,weapon,count,A,BS/WS,S,AP,D,abilities,points,half_range\n"
        "Squad,Gun,1,2,3+,4,0,1,,90,yes\nSquad,Pistol,1,1,3+,4,0,1,,,\n"
    )
    (unit,) = read_attackers(write(tmp_path, text))
    assert unit.context == mh.Context(half_range=True) and unit.points == 90
    clash = text.replace(",,\n", ",,no\n")
    with pytest.raises(CsvError, match="column 'half_range': unit 'Squad' has True"):
        read_attackers(write(tmp_path, clash))


def test_the_error_class_is_the_one_of_mathhammer_errors() -> None:
    assert CsvError is errors.CsvError
    assert issubclass(CsvError, errors.InputFileError) and issubclass(CsvError, ValueError)


def test_a_value_error_carries_its_place_and_its_cause(tmp_path: Path) -> None:
    path = write(tmp_path, f"{HEADER}\nSquad,Gun,1,2,7+,4,0,1,,\n")
    with pytest.raises(CsvError) as info:
        read_attackers(path)
    error = info.value
    assert (error.file, error.line, error.column) == (str(path), 2, "BS/WS")
    assert (error.field, error.constraint, error.value) == (
        "Weapon.skill",
        "an integer from 2 to 6",
        7,
    )
    path = write(tmp_path, f"{HEADER}\nSquad,Gun,1,2D,3+,4,0,1,,\n")
    with pytest.raises(CsvError) as info:
        read_attackers(path)
    assert (info.value.column, info.value.field, info.value.value) == ("A", "Weapon.attacks", "2D")
    with pytest.raises(CsvError) as info:
        read_attackers(tmp_path / "absent.csv")
    assert (info.value.line, info.value.column, info.value.field) == (None, None, None)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (  # found by the field of the loadout's error, not by its text
            f"{HEADER}\nSquad,Gun,1,2,3+,4,0,1,,0\n",
            ":2: column 'points': Loadout.points must be an integer >= 1; got 0",
        ),
        (
            f"{HEADER}\nSquad,Gun,1,0,3+,4,0,1,,\n",
            ":2: column 'A': Weapon.attacks must be at least 1 on every roll; got '0'",
        ),
        (
            f"{HEADER}\nSquad,Gun,1,1,3+,4,0,D6-1,,\n",
            ":2: column 'D': Weapon.damage: cannot read dice expression 'D6-1' at position 2",
        ),
        (
            f"{HEADER},stationary\nSquad,Gun,1,1,3+,4,0,1,,,yes\nSquad,Gun,1,1,3+,4,0,1,,,no\n",
            ":3: column 'stationary': unit 'Squad' has True on an earlier row but False here",
        ),
    ],
)
def test_more_attacker_errors_are_placed_at_their_column(
    tmp_path: Path, text: str, message: str
) -> None:
    path = write(tmp_path, text)
    with pytest.raises(CsvError, match=re.escape(str(path) + message)):
        read_attackers(path)


def test_a_unit_error_is_placed_at_the_column_of_its_field(tmp_path: Path) -> None:
    path = write(tmp_path, f"{T_HEADER}\nU,,5,4,3+,,1,,,no,13,\n")
    with pytest.raises(CsvError) as info:
        read_targets(path)
    assert str(info.value).startswith(f"{path}:2: column 'Ld': unit 'U': Unit.leadership")
    assert info.value.field == "Unit.leadership" and info.value.value == 13


def test_every_field_maps_to_a_column_of_its_file() -> None:
    assert set(ATTACKER_FIELDS.values()) <= set(ATTACKER_COLUMNS + ATTACKER_OPTIONAL)
    assert set(TARGET_FIELDS.values()) <= set(TARGET_COLUMNS)


def test_read_attackers_feed_compare_with_their_own_context(tmp_path: Path) -> None:
    text = f"{HEADER},half_range\nMelta,Melta gun,2,1,3+,9,-4,D6,[MELTA 2],100,yes\n"
    (melta,) = read_attackers(write(tmp_path, text))
    vehicle = mh.targets.get("Vehicle")
    row = mh.compare(melta, vehicle, context=mh.Context(half_range=False)).iloc[0]
    near = mh.attack(melta.weapons, vehicle.unit, context=mh.Context(half_range=True))
    far = mh.attack(melta.weapons, vehicle.unit)
    assert row.mean_damage == near.damage.mean() != far.damage.mean()
    assert row.loadout_points == 100


def test_a_semicolon_csv_from_a_spreadsheet_reads_as_the_comma_one(tmp_path: Path) -> None:
    """Excel set to a language with decimal commas saves ';'-separated values."""
    comma = write(tmp_path, f'{HEADER}\nSquad,Gun,10,2,3+,4,-1,1,"[RAPID FIRE 1], [LANCE]",90\n')
    semi = tmp_path / "semi.csv"
    semi.write_text(
        f"{HEADER.replace(',', ';')}\nSquad;Gun;10;2;3+;4;-1;1;[RAPID FIRE 1], [LANCE];90\n"
    )
    assert read_attackers(semi) == read_attackers(comma)
