"""Target CSVs as people write them: optional columns with defaults, headers in any case,
unknown columns warned about and kept, points per group; ``mh.targets.load`` reads them."""

from __future__ import annotations

import re
import warnings
from fractions import Fraction
from pathlib import Path

import pytest

import mathhammer as mh
from mathhammer.errors import CsvError, InputFileWarning
from mathhammer.io import read_attackers, read_targets
from mathhammer.io.csv_reader import CsvReader
from mathhammer.io.targets_csv import TARGET_COLUMNS

TOL = 1e-12


def write(tmp_path: Path, text: str, name: str = "targets.csv") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def quietly_read(path: Path) -> list[mh.Target]:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # none expected
        return read_targets(path)


# --------------------------------------------------------------------------- optional columns
def test_only_unit_models_t_sv_w_are_required(tmp_path: Path) -> None:
    (guard,) = quietly_read(write(tmp_path, "unit,models,T,Sv,W\nGuard,10,3,5+,1\n"))
    assert guard.unit == mh.Unit("Guard", mh.ModelGroup(10, 3, 5, 1))
    group = guard.unit.groups[0]
    assert (group.name, group.invuln, group.fnp, group.character) == ("", None, None, False)
    assert guard.unit.keywords == () and guard.unit.leadership is None
    assert guard.points is None and guard.group_points is None


def test_a_missing_required_column_is_still_an_error(tmp_path: Path) -> None:
    path = write(tmp_path, "unit,models,T,W\nGuard,10,3,1\n")
    with pytest.raises(CsvError, match=re.escape(f"{path}:1: missing columns ['Sv']")):
        read_targets(path)


def test_the_full_header_still_reads(tmp_path: Path) -> None:
    text = ",".join(TARGET_COLUMNS) + "\nMarines,Guard,4,4,3+,-,2,-,INFANTRY,no,7,100,1,ones\n"
    (marines,) = quietly_read(write(tmp_path, text))
    assert marines.points == 100 and marines.unit.leadership == 7
    assert marines.unit.worsen_ap == 1 and marines.unit.reroll_saves == "ones"


def test_worsen_ap_is_the_units_and_must_agree(tmp_path: Path) -> None:
    text = "unit,group,models,T,Sv,W,worsen AP\nSquad,A,4,4,3+,2,1\nSquad,B,1,4,2+,4,\n"
    (squad,) = quietly_read(write(tmp_path, text))
    assert squad.unit.worsen_ap == 1
    bad = "unit,group,models,T,Sv,W,worsen AP\nSquad,A,4,4,3+,2,1\nSquad,B,1,4,2+,4,2\n"
    with pytest.raises(mh.CsvError, match="worsen AP"):
        quietly_read(write(tmp_path, bad))
    with pytest.raises(mh.CsvError, match="worsen AP"):
        quietly_read(write(tmp_path, "unit,models,T,Sv,W,worsen AP\nSquad,4,4,3+,2,9\n"))


# --------------------------------------------------------------------------- headers
def test_headers_are_read_in_any_case_with_spaces_around(tmp_path: Path) -> None:
    text = " UNIT , Models ,t,sv, w , insv ,fnp,Keywords,character,ld,POINTS\n"
    text += "Marines,5,4,3+,2,4+,6+,infantry,no,6+,100\n"
    (marines,) = quietly_read(write(tmp_path, text))
    assert marines.unit.groups[0] == mh.ModelGroup(5, 4, 3, 2, invuln=4, fnp=6)
    assert marines.unit.keywords == ("INFANTRY",) and marines.unit.leadership == 8
    assert marines.points == 100


def test_attackers_headers_are_read_in_any_case_too(tmp_path: Path) -> None:
    header = "Unit, Weapon ,COUNT,a,bs/ws,s,ap,d,Abilities,Points\n"
    path = write(tmp_path, header + "Squad,Bolt rifle,5,2,3+,4,-1,1,,90\n", "army.csv")
    (squad,) = read_attackers(path)
    assert squad.points == 90 and squad.weapon_counts[0][1] == 5


def test_a_column_given_twice_is_an_error(tmp_path: Path) -> None:
    path = write(tmp_path, "unit,models,T,Sv,W,t\nGuard,10,3,5+,1,4\n")
    with pytest.raises(CsvError) as info:
        read_targets(path)
    assert str(info.value) == f"{path}:1: column 'T': given twice, as 'T' and 't'; keep one"


# --------------------------------------------------------------------------- unknown columns
def test_an_unknown_column_warns_naming_file_and_column_and_is_kept(tmp_path: Path) -> None:
    path = write(tmp_path, "unit,models,T,Sv,W,Colour,notes\nGuard,10,3,5+,1,green,cheap\n")
    with pytest.warns(InputFileWarning) as caught:
        (guard,) = read_targets(path)
    assert [str(w.message).split(": not")[0] for w in caught] == [
        f"{path}:1: column 'Colour'",
        f"{path}:1: column 'notes'",
    ]
    assert [(w.message.file, w.message.column) for w in caught] == [  # type: ignore[union-attr]
        (str(path), "Colour"),
        (str(path), "notes"),
    ]
    plain = write(tmp_path, "unit,models,T,Sv,W\nGuard,10,3,5+,1\n", "plain.csv")
    assert guard == quietly_read(plain)[0]
    with pytest.warns(InputFileWarning):
        reader = CsvReader(path, ("unit", "models", "T", "Sv", "W"), ())
    assert reader.extra_columns == ("Colour", "notes")
    assert reader.rows[0][1]["Colour"] == "green" and reader.rows[0][1]["notes"] == "cheap"


def test_an_unknown_column_of_an_attackers_file_warns_and_is_not_an_error(tmp_path: Path) -> None:
    header = "unit,weapon,count,A,BS/WS,S,AP,D,abilities,points,colour\n"
    path = write(tmp_path, header + "Squad,Gun,5,2,3+,4,-1,1,,90,red\n", "army.csv")
    with pytest.warns(InputFileWarning, match=re.escape(f"{path}:1: column 'colour'")):
        (squad,) = read_attackers(path)
    assert squad.points == 90


# --------------------------------------------------------------------------- points
BOYZ = """unit,group,models,T,Sv,W,CHARACTER,points
Boyz,Boyz,10,5,-,1,no,85
Boyz,Warboss,1,6,4+,6,yes,65
"""


def test_points_on_every_row_are_each_group_s(tmp_path: Path) -> None:
    (boyz,) = quietly_read(write(tmp_path, BOYZ))
    assert boyz.points == 150 and boyz.group_points == (85, 65)
    assert boyz.model_points == (8.5, 65.0)


def test_points_destroyed_credit_the_models_of_each_group(tmp_path: Path) -> None:
    (boyz,) = quietly_read(write(tmp_path, BOYZ))
    # one automatic hit, S10 vs T5 wounds on 2+ (5/6), no save, D1: a Boy (8.5 points)
    # dies with 5/6; spread evenly, he would have been worth 150/11
    torch = mh.Weapon("Torch", 1, skill="N/A", strength=10, abilities="[TORRENT]")
    destroyed = boyz.points_destroyed(mh.attack(torch, boyz.unit))
    assert destroyed is not None
    assert abs(destroyed - float(Fraction(5, 6) * Fraction(85, 10))) < TOL


def test_points_on_one_row_are_the_unit_s(tmp_path: Path) -> None:
    text = BOYZ.replace("yes,65", "yes,")
    (boyz,) = quietly_read(write(tmp_path, text))
    assert boyz.points == 85 and boyz.group_points is None
    assert boyz.model_points == (85 / 11, 85 / 11)


def test_points_on_some_rows_but_not_all_are_an_error(tmp_path: Path) -> None:
    text = BOYZ + "Boyz,Nob,1,5,4+,2,yes,\n"
    path = write(tmp_path, text)
    with pytest.raises(CsvError) as info:
        read_targets(path)
    assert str(info.value) == (
        f"{path}:4: column 'points': unit 'Boyz' has points on 2 of its 3 rows; give each "
        "group's points on every row, or the whole unit's on one row"
    )


def test_one_value_repeated_on_every_row_warns_that_it_is_read_per_group(
    tmp_path: Path,
) -> None:
    path = write(tmp_path, BOYZ.replace("yes,65", "yes,85"))
    with pytest.warns(InputFileWarning, match="read as each group's points \\(170 in all\\)"):
        (boyz,) = read_targets(path)
    assert boyz.group_points == (85, 85) and boyz.points == 170


def test_a_negative_group_points_is_placed_at_the_points_column(tmp_path: Path) -> None:
    path = write(tmp_path, BOYZ.replace("yes,65", "yes,-5"))
    with pytest.raises(CsvError, match=re.escape(f"{path}:2: column 'points': unit 'Boyz'")):
        read_targets(path)


# --------------------------------------------------------------------------- mh.targets.load
def test_targets_load_reads_a_csv_by_its_suffix(tmp_path: Path) -> None:
    for name in ("threats.csv", "THREATS.CSV"):
        path = write(tmp_path, BOYZ, name)
        loaded = mh.targets.load(path)
        assert isinstance(loaded, tuple) and loaded == tuple(quietly_read(path))
        assert loaded[0].source == f"{path}:2"
    path = write(tmp_path, "unit,models,T,Sv\n", "bad.csv")
    with pytest.raises(CsvError, match="missing columns"):
        mh.targets.load(path)


def test_targets_load_still_reads_a_json_suite(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        '{"targets": [{"name": "Guard", "groups": [{"count": 10, "toughness": 3, '
        '"save": "5+", "wounds": 1, "points": 60}], "leadership": "7+"}]}',
        "suite.json",
    )
    (guard,) = mh.targets.load(path)
    assert guard.unit == mh.Unit("Guard", mh.ModelGroup(10, 3, 5, 1), leadership=7)
    assert guard.points == 60
