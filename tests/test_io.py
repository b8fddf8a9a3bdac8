"""CSV profiles: values as datasheets print them, and one-line located errors."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import mathhammer as mh
from mathhammer.io import CsvError, read_attackers, read_targets

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
    units = read_attackers(write(tmp_path, ATTACKERS))
    assert [u.name for u in units] == ["Squad", "Flamers", "Choppas"]
    squad = units[0]
    assert [(w.name, n) for w, n in squad.weapons] == [("Bolt rifle", 9), ("Plasma", 1)]
    assert squad.weapons[0][0] == mh.Weapon("Bolt rifle", 2, 3, 4, -1, 1, "[ASSAULT], [HEAVY]")
    assert squad.points == 90
    flamers = units[1]
    assert flamers.weapons[0][0].attacks.text == "D6" and flamers.context.half_range
    assert units[2].weapons[0][0].melee and units[2].context.melee


def test_targets(tmp_path: Path) -> None:
    targets = read_targets(write(tmp_path, TARGETS))
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
    assert unit.weapons[0][0].bs == 3 and unit.weapons[0][0].skill is None


HEADER = "unit,weapon,count,A,BS/WS,S,AP,D,abilities,points"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (f"{HEADER}\nSquad,Gun,1,2,3+,x,0,1,,\n", ":2: column 'S': expected an integer; got 'x'"),
        (
            f"{HEADER}\nSquad,Gun,1,2D,3+,4,0,1,,\n",
            ":2: column 'A': Weapon.attacks: cannot read dice expression '2D' at position 2",
        ),
        (
            f"{HEADER}\nSquad,Gun,1,2,3,4,0,1,,\n",
            ":2: column 'BS/WS': expected a roll such as '3+'; got '3'",
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
        (f"{HEADER},colour\nSquad,Gun,1,2,3+,4,0,1,,,red\n", ":1: unknown columns ['colour']"),
        ("unit,weapon,count\nSquad,Gun,1\n", ":1: missing columns ['A', 'BS/WS', 'S', 'AP'"),
        ("unit;weapon;count\n", ":1: the header is one column containing ';'"),
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
    assert unit.context.half_range and unit.points == 90
    clash = text.replace(",,\n", ",,no\n")
    with pytest.raises(CsvError, match="column 'half_range': unit 'Squad' has True"):
        read_attackers(write(tmp_path, clash))
