"""Reading attackers and targets CSV: files that cannot be read, blank rows, empty cells.

Every error is one line, ``file:line: column 'x': problem``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mathhammer.errors import CsvError
from mathhammer.io import read_attackers, read_targets

HEADER = "unit,weapon,count,A,BS/WS,S,AP,D,abilities,points,type"
T_HEADER = "unit,group,models,T,Sv,InSv,W,FNP,keywords,CHARACTER,Ld,points"


def error(path: Path, read: object = read_attackers) -> str:
    with pytest.raises(CsvError) as info:
        read(path)  # type: ignore[operator]
    message = str(info.value)
    assert "\n" not in message
    return message


def test_a_file_that_is_not_utf8_cannot_be_read(tmp_path: Path) -> None:
    path = tmp_path / "army.csv"
    path.write_bytes(
        HEADER.encode() + b"\nSquad,Gun \xe9,1,2,3+,4,0,1,,,\n".replace(b"\xe9", b"\xff")
    )
    assert re.fullmatch(re.escape(f"{path}: cannot read: ") + ".*utf-8.*", error(path))


def test_a_folder_cannot_be_read(tmp_path: Path) -> None:
    assert error(tmp_path).startswith(f"{tmp_path}: cannot read: ")


def test_a_one_column_header_without_a_separator_lists_the_missing_columns(
    tmp_path: Path,
) -> None:
    path = tmp_path / "army.csv"
    path.write_text("unit weapon count\nSquad Gun 1\n")
    assert f"{path}:1: missing columns ['unit', 'weapon', 'count'" in error(path)


def test_blank_rows_are_skipped_and_lines_still_count(tmp_path: Path) -> None:
    path = tmp_path / "army.csv"
    rows = ["Squad,Gun,2,2,3+,4,0,1,,,", "", ",,,,,,,,,,", "Squad,Gun,2,2,3+,4,0,1,,,Psychic"]
    path.write_text("\n".join([HEADER, *rows[:3]]) + "\n")
    (unit,) = read_attackers(path)
    assert unit.name == "Squad" and len(unit.weapons) == 1
    path.write_text("\n".join([HEADER, *rows]) + "\n")
    assert error(path) == f"{path}:5: column 'type': expected Ranged or Melee; got 'Psychic'"


@pytest.mark.parametrize(
    ("row", "message"),
    [
        (",Gun,1,2,3+,4,0,1,,,", ":2: column 'unit': expected a unit name; got ''"),
        (
            "Squad,Gun,1,,3+,4,0,1,,,",
            ":2: column 'A': expected a number or dice such as 'D6+1'; got ''",
        ),
        (
            "Squad,Gun,1,2,3+,4,0, ,,,",
            ":2: column 'D': expected a number or dice such as 'D6+1'; got ''",
        ),
    ],
)
def test_empty_required_cells(tmp_path: Path, row: str, message: str) -> None:
    path = tmp_path / "army.csv"
    path.write_text(f"{HEADER}\n{row}\n")
    assert error(path) == f"{path}{message}"


def test_a_target_row_needs_a_unit_name(tmp_path: Path) -> None:
    path = tmp_path / "targets.csv"
    path.write_text(f"{T_HEADER}\n,,5,4,3+,,1,,,no,,\n")
    assert error(path, read_targets) == f"{path}:2: column 'unit': expected a unit name; got ''"
