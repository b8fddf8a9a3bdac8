"""Ordinary-looking values that used to end in a Python traceback (issue 13, point 9).

A number of 5,000 digits (past Python's limit on reading an int from text), an AP of
-10**30 (past a C long), a CSV cell longer than the csv module's field limit, a duplicated
column, and a unit of 100,000 rows whose labels made a one-megabyte error line: each is one
clean :class:`~mathhammer.MathhammerError` line, placed at its file and line where it came
from a file.
"""

from __future__ import annotations

import csv
import re
import sys
import warnings
from collections.abc import Callable
from pathlib import Path

import pytest

import mathhammer as mh
from mathhammer.cli import main
from mathhammer.core.dice import parse_dice
from mathhammer.errors import MAX_LINE, MAX_SHOWN, CsvError, InputFileError, field_error, shown
from mathhammer.io import read_attackers, read_targets
from mathhammer.model.fields import check_int
from mathhammer.model.pools import Pool

#: A number of more digits than Python reads from text (its default limit is 4,300).
HUGE = "9" * 5_000
HEADER = "unit,weapon,count,A,BS/WS,S,AP,D,abilities,points\n"


def test_the_number_is_past_pythons_limit() -> None:
    if sys.get_int_max_str_digits() == 0:  # pragma: no cover - only with the limit lifted
        pytest.skip("this Python reads integers of any length")
    with pytest.raises(ValueError, match="Exceeds the limit"):
        int(HUGE)


def said(text: str, message: str) -> bool:
    """The expected message, or one naming the same field; or the value is past a size limit."""
    field = message.split(" must ")[0]
    return (
        text.startswith(message) or text.startswith(field + " must be") or "must be at most" in text
    )


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: mh.Weapon("Gun", HUGE, 3, 4), "Weapon.attacks must be an integer or a dice"),
        (lambda: mh.Weapon("Gun", 1, 3, 4, 0, HUGE), "Weapon.damage must be an integer or a dice"),
        (lambda: mh.Weapon("Gun", f"D6+{HUGE}", 3, 4), "Weapon.attacks must be an integer"),
        (lambda: mh.Weapon("Gun", 10**5_000, 3, 4), "Weapon.attacks must be an integer"),
        (lambda: mh.MortalWounds(HUGE), "MortalWounds.amount must be an integer"),
        (lambda: mh.Modifiers(damage_set=HUGE), "Modifiers.damage_set must be an integer"),
        (
            lambda: mh.Weapon("Gun", 1, 3, 4, abilities=f"[SUSTAINED HITS {HUGE}]"),
            "SustainedHits.value must be a number or dice such as 'D3'",
        ),
        (
            lambda: mh.Weapon("Gun", 1, 3, 4, abilities=f"[MELTA D3+{HUGE}]"),
            "Melta.value must be a number or dice such as 'D3'",
        ),
        (
            lambda: mh.Weapon("Gun", 1, 3, 4, abilities=f"[BLAST {HUGE}]"),
            "Blast.value must be at most 1,000,000",
        ),
        (lambda: mh.abilities.SustainedHits.of(HUGE), "SustainedHits.value must be an integer"),
        (lambda: mh.abilities.Blast(10**5_000), "Blast.value must be at most 1,000,000"),
        (lambda: mh.abilities.Blast(2_000_000), "Blast.value must be at most 1,000,000"),
    ],
)
def test_a_number_of_5000_digits_is_a_profile_error(
    make: Callable[[], object], message: str
) -> None:
    # a misspelt value (ProfileError) or a size past the limits (LimitError), named by its field
    with pytest.raises((mh.ProfileError, mh.LimitError)) as info:
        make()
    text = str(info.value)
    assert said(text, message), text
    assert "sys.set_int_max_str_digits" not in text
    assert len(text.splitlines()[0]) < 2 * MAX_SHOWN + 100


def test_a_misspelt_ability_with_a_huge_number_still_only_warns() -> None:
    # the suggestion reads the corrected token, whose number is refused: no suggestion then
    with pytest.warns(mh.UnknownAbilityWarning, match="SUSTAINED HIT 999"):
        gun = mh.Weapon("Gun", 1, 3, 4, abilities=f"[SUSTAINED HIT {HUGE}]")
    assert gun.abilities == ()


def test_an_ap_of_minus_10_to_the_30_is_refused_up_front() -> None:
    with pytest.raises(mh.ProfileError, match=re.escape("Weapon.ap must be an integer from -20")):
        mh.Weapon("Gun", 1, 3, 4, -(10**30))
    gun = mh.Weapon("Gun", 1, 3, 4, -20)  # the lowest, still attacked with
    result = mh.attack(gun, mh.Unit.of("Squad", 5, 4, 2, 1), modifiers=mh.Modifiers(ap=-20))
    assert result.killed.mean() > 0


def _file(tmp_path: Path, text: str, name: str = "army.csv") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


@pytest.mark.parametrize(
    ("row", "column", "message"),
    [
        (f"Squad,Gun,1,{HUGE},3+,4,0,1,,", "A", "Weapon.attacks must be an integer or a dice"),
        (f"Squad,Gun,1,1,3+,4,0,{HUGE},,", "D", "Weapon.damage must be an integer or a dice"),
        (f"Squad,Gun,1,1,3+,{HUGE},0,1,,", "S", "expected an integer of at most 9 digits"),
        (f"Squad,Gun,{HUGE},1,3+,4,0,1,,", "count", "expected an integer of at most 9 digits"),
        (f"Squad,Gun,1,1,3+,4,0,1,,{HUGE}", "points", "expected an integer of at most 9 digits"),
        (f"Squad,Gun,1,1,{HUGE}+,4,0,1,,", "BS/WS", "expected a roll written '3+' or '3'"),
        (
            f"Squad,Gun,1,1,3+,4,0,1,[SUSTAINED HITS {HUGE}],",
            "abilities",
            "SustainedHits.value must be a number or dice",
        ),
        (f"Squad,Gun,1,1,3+,4,-{'1' * 30},1,,", "AP", "expected an integer of at most 9 digits"),
        ("Squad,Gun,1,1,3+,4,-999999999,1,,", "AP", "Weapon.ap must be an integer from -20 to 0"),
    ],
    ids=["A", "D", "S", "count", "points", "BS/WS", "abilities", "AP-30-digits", "AP-9-digits"],
)
def test_huge_numbers_in_an_attackers_file_are_located(
    tmp_path: Path, row: str, column: str, message: str
) -> None:
    path = _file(tmp_path, HEADER + row + "\n")
    with pytest.raises(CsvError) as info:
        read_attackers(path)
    error = info.value
    assert (error.line, error.column) == (2, column)
    prefix = f"{path}:2: column {column!r}: "
    assert str(error).startswith(prefix), str(error)
    assert said(str(error)[len(prefix) :], message), str(error)
    assert len(str(error)) < MAX_LINE


def test_huge_numbers_in_a_targets_file_are_located(tmp_path: Path) -> None:
    path = _file(tmp_path, f"unit,models,T,Sv,W,Ld\nU,5,4,3+,1,{HUGE}\n", "targets.csv")
    with pytest.raises(CsvError, match=re.escape(f"{path}:2: column 'Ld': expected")) as info:
        read_targets(path)
    assert len(str(info.value)) < MAX_LINE


def test_a_cell_past_the_csv_field_limit_names_its_line(tmp_path: Path) -> None:
    limit = csv.field_size_limit()
    long = "x" * (limit + 1)
    path = _file(tmp_path, HEADER + "Squad,Gun,1,1,3+,4,0,1,,\n" + f"Squad,{long},1,1,3+,4,0,1,,\n")
    with pytest.raises(CsvError) as info:
        read_attackers(path)
    assert info.value.line == 3
    problem = f"cannot read the row: field larger than field limit ({limit})"
    assert str(info.value) == f"{path}:3: {problem}"
    header = _file(tmp_path, f"{long},{HEADER}", "header.csv")
    with pytest.raises(CsvError, match=re.escape(f"{header}:1: cannot read the row")):
        read_attackers(header)


def test_a_duplicated_column_is_an_error_at_the_header(tmp_path: Path) -> None:
    path = _file(tmp_path, "unit,weapon,count,A,BS/WS,S,s,AP,D,abilities\nU,G,1,1,3+,4,5,0,1,\n")
    with pytest.raises(CsvError) as info:
        read_attackers(path)
    assert (info.value.line, info.value.column) == (1, "S")
    assert str(info.value) == f"{path}:1: column 'S': given twice, as 'S' and 's'; keep one"


def _report(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert main(["report", *argv, "--no-progress"]) == 1
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith("mathhammer: error: "), err[:3]
    return err[0]


def test_points_0_and_a_limit_are_placed_at_their_row(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    zero = _file(tmp_path, HEADER + "Squad,Gun,1,1,3+,4,0,1,,0\n", "zero.csv")
    line = _report([str(zero), "-o", str(tmp_path / "out.csv")], capsys)
    assert f"{zero}:2: column 'points': Loadout.points must be an integer >= 1; got 0" in line
    many = HEADER + "Squad,Gun,1,1,3+,4,0,1,,10\nHorde,Gun,100,100,3+,4,0,1,,10\n"
    limit = _file(tmp_path, many, "limit.csv")
    line = _report([str(limit), "-o", str(tmp_path / "out.csv")], capsys)
    assert f"{limit}:3: 'Horde' against" in line and "must be at most" in line


def test_a_unit_of_20000_rows_gives_a_short_error_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = "".join(f"Big,Gun {i},1,1,3+,4,0,1,,\n" for i in range(20_000))  # the most read
    path = _file(tmp_path, HEADER + rows, "big.csv")
    line = _report([str(path), "-o", str(tmp_path / "out.csv")], capsys)
    assert len(line) < MAX_LINE, len(line)
    assert f"{path}:2: 'Big' against" in line
    assert "--trials N" in line  # the remedy survives the cut


def test_a_file_of_100000_rows_is_refused_at_its_20001st(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = "".join(f"Big,Gun {i},1,1,3+,4,0,1,,\n" for i in range(100_000))
    path = _file(tmp_path, HEADER + rows, "big.csv")
    line = _report([str(path), "-o", str(tmp_path / "out.csv")], capsys)
    assert line == f"mathhammer: error: {path}:20002: more than 20000 rows; split the file"


def test_pool_labels_count_what_does_not_fit() -> None:
    gun = mh.Weapon("Gun", 1, 3, 4)
    assert Pool(((gun, 2), (gun, 1))).label == "Gun x2 + Gun"
    many = Pool(tuple((mh.Weapon(f"Gun {i}", 1, 3, 4), 1) for i in range(1_000)))
    assert many.label.startswith("Gun 0 + Gun 1 + ") and many.label.endswith(" + 986 more")
    assert len(many.label) <= MAX_SHOWN + 20
    long = Pool(((mh.Weapon("x" * 10_000, 1, 3, 4), 1),))
    assert long.label == "x" * (MAX_SHOWN - 4) + " ..."


def test_messages_never_run_to_megabytes() -> None:
    name = "U" * 1_000_000
    error = field_error(mh.ProfileError, f"{name}: Unit.name", "short", name)
    assert len(str(error)) < MAX_LINE and error.field == f"{name}: Unit.name"
    located = InputFileError.at("f.csv", 3, name, f"unit {name!r} has 1 on an earlier row")
    assert len(str(located)) <= MAX_LINE and located.column == name
    assert str(located).startswith("f.csv:3: column 'UUU")


def test_shown_describes_an_integer_too_long_to_write() -> None:
    assert shown(10**5_000) == "<an integer of 5001 digits>"
    assert shown(-(10**5_000) + 1) == "-<an integer of 5000 digits>"
    assert shown(12345) == "12345"

    class Unprintable:
        def __repr__(self) -> str:
            raise RuntimeError("no repr")

    assert shown(Unprintable()) == "<Unprintable object>"
    with pytest.raises(mh.ProfileError, match=r"count must be an integer <= 10; got <an integer"):
        check_int("count", 10**5_000, high=10)


def test_a_size_limit_from_the_dice_reader_is_not_a_misspelling(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # parse_dice refuses absurd sizes with a LimitError: the fields pass it on, naming themselves
    def refuse(value: str | int | mh.Dice) -> mh.Dice:
        if "999999" not in str(value):
            return parse_dice(value)
        raise field_error(mh.LimitError, "dice", "at most 1,000", value, "use mathhammer.simulate")

    monkeypatch.setattr("mathhammer.model.fields.parse_dice", refuse)
    monkeypatch.setattr("mathhammer.model.ability_base.parse_dice", refuse)
    with pytest.raises(mh.LimitError, match="Weapon.attacks must be at most 1,000"):
        mh.Weapon("Gun", "999999D6", 3, 4)
    with pytest.raises(mh.LimitError, match="SustainedHits.value must be at most 1,000"):
        mh.Weapon("Gun", 1, 3, 4, abilities="[SUSTAINED HITS 999999D6]")
