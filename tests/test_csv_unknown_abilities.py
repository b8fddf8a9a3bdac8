"""Every unknown ability token of an attackers CSV reaches the user (issue 12, point 1).

``[SUSTAINED HIT 1]``, ``[LETHAL HIT], [DEVESTATING WOUNDS]`` and ``[ANTI-INFANTRY 4]``
used to be dropped without a word (the reader switched the warning off): each token now
warns with ``file:line`` and a suggestion, is listed on what the reader returns and in the
report's ``unknown_abilities`` column, and is an error with ``strict=True``.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

import mathhammer as mh
from mathhammer.io import read_army, read_attackers
from mathhammer.io.attackers_csv import unknown_abilities
from mathhammer.io.report import build_report
from mathhammer.units.targets import Target

TEXT = """unit,weapon,count,A,BS/WS,S,AP,D,abilities
Squad,Bolt rifle,5,2,3+,4,-1,1,[SUSTAINED HIT 1]
Squad,Heavy bolter,1,3,4+,5,-1,2,"[LETHAL HIT], [DEVESTATING WOUNDS]"
Needlers,Needle rifle,5,2,3+,2,0,1,[ANTI-INFANTRY 4]
Clean,Gun,5,2,3+,4,0,1,[ASSAULT]
"""
SUGGESTED = {
    "SUSTAINED HIT 1": "SUSTAINED HITS 1",
    "LETHAL HIT": "LETHAL HITS",
    "DEVESTATING WOUNDS": "DEVASTATING WOUNDS",
    "ANTI-INFANTRY 4": "ANTI-INFANTRY 4+",
}


@pytest.fixture
def path(tmp_path: Path) -> Path:
    out = tmp_path / "army.csv"
    out.write_text(TEXT, encoding="utf-8")
    return out


def test_each_token_warns_once_with_its_line_and_suggestion(path: Path) -> None:
    with pytest.warns(mh.UnknownAbilityWarning) as caught:
        read_attackers(path)
    messages = [str(w.message) for w in caught if w.category is mh.UnknownAbilityWarning]
    lines = {"SUSTAINED HIT 1": 2, "LETHAL HIT": 3, "DEVESTATING WOUNDS": 3, "ANTI-INFANTRY 4": 4}
    assert len(messages) == len(lines)
    for (token, line), message in zip(lines.items(), messages, strict=True):
        assert message.startswith(f"{path}:{line}: weapon ")
        assert f"{token!r} (did you mean {SUGGESTED[token]!r}?)" in message


def test_the_tokens_are_listed_on_the_units_and_in_the_report(path: Path) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", mh.UnknownAbilityWarning)
        units = read_attackers(path)
    found = unknown_abilities(units)
    assert [(u.token, u.weapon, u.source) for u in found] == [
        ("SUSTAINED HIT 1", "Bolt rifle", f"{path}:2"),
        ("LETHAL HIT", "Heavy bolter", f"{path}:3"),
        ("DEVESTATING WOUNDS", "Heavy bolter", f"{path}:3"),
        ("ANTI-INFANTRY 4", "Needle rifle", f"{path}:4"),
    ]
    frame = build_report(units, [Target(mh.Unit.of("Horde", 10, 3, 6, 1))])
    column = frame.set_index("loadout").unknown_abilities
    assert column["Squad"] == "SUSTAINED HIT 1; LETHAL HIT; DEVESTATING WOUNDS"
    assert column["Needlers"] == "ANTI-INFANTRY 4"
    assert column.isna()["Clean"]


def test_strict_makes_the_first_token_an_error_at_its_place(path: Path) -> None:
    with pytest.raises(mh.CsvError) as info:
        read_attackers(path, strict=True)
    error = info.value
    assert (error.file, error.line, error.column) == (str(path), 2, "abilities")
    assert (error.field, error.value) == ("Weapon.abilities", "SUSTAINED HIT 1")
    assert str(error) == (
        f"{path}:2: column 'abilities': Weapon.abilities must be a known ability; "
        "got 'SUSTAINED HIT 1' (did you mean 'SUSTAINED HITS 1'?)"
    )


def test_a_token_with_no_close_ability_is_still_an_error_when_strict(tmp_path: Path) -> None:
    path = tmp_path / "odd.csv"
    path.write_text("unit,weapon,count,A,BS/WS,S,AP,D,abilities\nU,Gun,1,1,3+,4,0,1,Waaagh\n")
    with pytest.raises(mh.CsvError, match="got 'WAAAGH' \\(not a core weapon ability\\)"):
        read_attackers(path, strict=True)


def test_read_army_collects_the_tokens_instead_of_warning(path: Path) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # any warning fails the test
        army = read_army(path)
    assert [str(u) for u in army.unknown_abilities][0] == (
        f"{path}:2: weapon 'Bolt rifle': unknown ability 'SUSTAINED HIT 1' "
        "(did you mean 'SUSTAINED HITS 1'?), ignored"
    )
    assert len(army.unknown_abilities) == 4
    with pytest.raises(mh.CsvError, match=":2: column 'abilities'"):
        read_army(path, strict=True)


def test_tokens_of_rows_never_used_are_still_listed(tmp_path: Path) -> None:
    path = tmp_path / "army.csv"
    path.write_text(
        "unit,weapon,count,A,BS/WS,S,AP,D,abilities,type,use\n"
        "U,Gun,1,1,3+,4,0,1,,Ranged,\n"
        "U,Claw,1,1,3+,4,0,1,[LANCEE],Melee,no\n"
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", mh.UnknownAbilityWarning)
        (unit,) = read_attackers(path)
    assert unit.phase == "shooting"
    assert [u.token for u in unit.unknown_abilities] == ["LANCEE"]
