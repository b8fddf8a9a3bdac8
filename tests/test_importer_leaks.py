"""Leaks the reliability suite found in the roster and catalogue readers (issue 13), each
shown by one small input: a raw Python error (zlib's, a seek's, a RecursionError, Python's
limit on an integer's digits) where one clean ``InputFileError`` now stands."""

from __future__ import annotations

from pathlib import Path

import pytest

import mathhammer as mh
from mathhammer.errors import InputFileError

ROSTER = Path(__file__).resolve().parent / "data" / "rosters" / "necrons.rosz"


def test_a_rosz_whose_member_is_corrupt_is_an_input_file_error(tmp_path: Path) -> None:
    data = bytearray(ROSTER.read_bytes())
    for i in range(2000, 2100):  # inside the member's deflated data: zlib.error today
        data[i] ^= 0x55
    (tmp_path / "corrupt.rosz").write_bytes(bytes(data))
    with pytest.raises(InputFileError):
        mh.read_roster(tmp_path / "corrupt.rosz")


def test_a_rosz_cut_at_the_front_is_an_input_file_error(tmp_path: Path) -> None:
    # the central directory's offsets point before the start: "negative seek value -40"
    (tmp_path / "cut.rosz").write_bytes(ROSTER.read_bytes()[40:])
    with pytest.raises(InputFileError):
        mh.read_roster(tmp_path / "cut.rosz")


def test_a_catalogue_nested_too_deep_is_an_input_file_error(tmp_path: Path) -> None:
    # RecursionError today (targets_json refuses the same document cleanly)
    (tmp_path / "deep.json").write_text('{"catalogue": ' + "[" * 100_000 + "]" * 100_000 + "}")
    with pytest.raises(InputFileError):
        mh.read_catalogue(tmp_path / "deep.json")


def test_a_roster_json_nested_too_deep_is_an_input_file_error(tmp_path: Path) -> None:
    (tmp_path / "deep.json").write_text('{"roster": ' + "[" * 100_000 + "]" * 100_000 + "}")
    with pytest.raises(InputFileError):
        mh.read_roster(tmp_path / "deep.json")


def test_a_catalogue_xml_nested_too_deep_is_an_input_file_error(tmp_path: Path) -> None:
    # the XML parses (iteratively); the tree is then converted recursively: RecursionError
    deep = "<catalogue>" + "<a>" * 100_000 + "</a>" * 100_000 + "</catalogue>"
    (tmp_path / "deep.cat").write_text(deep)
    with pytest.raises(InputFileError):
        mh.read_catalogue(tmp_path / "deep.cat")


def test_a_roster_json_number_of_5000_digits_is_an_input_file_error(tmp_path: Path) -> None:
    # Python's json refuses to read it with a ValueError ("Exceeds the limit (4300 digits)")
    (tmp_path / "digits.json").write_text('{"roster": {"costs": ' + "9" * 5000 + "}}")
    with pytest.raises(InputFileError):
        mh.read_roster(tmp_path / "digits.json")


def test_a_catalogue_number_of_5000_digits_is_an_input_file_error(tmp_path: Path) -> None:
    (tmp_path / "digits.json").write_text('{"catalogue": {"revision": ' + "9" * 5000 + "}}")
    with pytest.raises(InputFileError):
        mh.read_catalogue(tmp_path / "digits.json")
