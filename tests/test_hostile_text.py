"""Hostile text: ability text built to make a regular expression take quadratic time, and
target suites that made ``targets.load`` raise Python's own errors (issue 13, point 10).

The timings are bounds far above what a linear pass takes (milliseconds) and far below
what the quadratic one took (seconds), so a loaded machine does not make them flaky.
"""

from __future__ import annotations

import json
import re
import time
import warnings
from collections.abc import Callable
from pathlib import Path

import pytest

import mathhammer as mh
from mathhammer.errors import InputFileError
from mathhammer.io import targets_json
from mathhammer.model.ability_text import split_abilities, strip_tags, suggest_ability

TAG = re.compile(r"<[^>]*>")  # the expression strip_tags replaces, as the oracle


def seconds(work: Callable[[], object]) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


@pytest.mark.parametrize(
    "text",
    [
        "",
        "plain",
        "<b>Lethal</b> hits",
        "a < b > c",
        "<<>>",
        "<a <b> c>",
        "x < y",
        "< no end",
        "> < > <",
        "<i>[HEAVY]</i>, <a href='x'>Pistol</a>",
    ],
)
def test_strip_tags_removes_what_the_expression_removed(text: str) -> None:
    assert strip_tags(text) == TAG.sub("", text)


def test_100000_opening_brackets_take_well_under_a_second() -> None:
    text = "<" * 100_000
    assert strip_tags(text) == text  # no tag closes: nothing is removed
    assert seconds(lambda: split_abilities(text)) < 0.5
    assert seconds(lambda: split_abilities([text, "<a" * 50_000])) < 0.5
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", mh.UnknownAbilityWarning)
        assert seconds(lambda: mh.Weapon("Gun", 1, 3, 4, abilities=text)) < 1.0


def test_a_long_run_of_digits_is_suggested_in_linear_time() -> None:
    token = "SUSTAINED HIT " + "1" * 100_000 + "X"
    assert seconds(lambda: suggest_ability(token)) < 1.0
    assert suggest_ability("SUSTAINED HIT 2D6+1") == "SUSTAINED HITS 2D6+1"
    assert suggest_ability("BLST 2") == "BLAST 2"


def write(tmp_path: Path, name: str, content: str | bytes) -> Path:
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content)
    return path


SUITE = {"targets": [{"name": "Squad", "groups": [{"count": 5, "toughness": 4, "save": 3}]}]}


@pytest.mark.parametrize("load", [mh.targets.load, targets_json.load], ids=["facade", "json"])
@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("deep.json", "[" * 100_000 + "]" * 100_000, "deep.json: cannot read: nested too deeply"),
        (
            "long.json",
            json.dumps(SUITE).replace('"count": 5', '"count": ' + "9" * 5_000),
            "long.json: cannot read: a number has too many digits",
        ),
        ("latin.json", b'{"targets": "\xe9"}', "latin.json: cannot read: 'utf-8' codec"),
        ("broken.json", '{"targets": [\n', "broken.json:2: not valid JSON"),
    ],
    ids=["deep", "long", "latin", "broken"],
)
def test_a_suite_that_cannot_be_read_is_one_input_file_error(
    tmp_path: Path,
    load: Callable[[Path], object],
    name: str,
    content: str | bytes,
    message: str,
) -> None:
    path = write(tmp_path, name, content)
    with pytest.raises(InputFileError) as info:
        load(path)
    assert str(info.value).startswith(str(tmp_path / message)), str(info.value)
    assert len(str(info.value).splitlines()) == 1


@pytest.mark.parametrize("load", [mh.targets.load, targets_json.load], ids=["facade", "json"])
def test_a_missing_suite_is_one_input_file_error(
    tmp_path: Path, load: Callable[[Path], object]
) -> None:
    with pytest.raises(InputFileError, match=re.escape(f"{tmp_path / 'none.json'}: no such file")):
        load(tmp_path / "none.json")


def test_a_suite_entry_with_a_huge_name_or_points_is_a_short_profile_error(tmp_path: Path) -> None:
    group = {"count": 5, "toughness": 4, "save": 3, "wounds": 1}
    entry = {"name": "N" * 100_000, "groups": [{**group, "count": 0}]}
    path = write(tmp_path, "named.json", json.dumps({"targets": [entry]}))
    with pytest.raises(mh.ProfileError, match=r"named.json: targets\[0\] \('NNN") as info:
        mh.targets.load(path)
    assert len(str(info.value)) < 1_000
    priced = {"name": "Rich", "groups": [{**group, "points": 10**400}]}
    path = write(tmp_path, "priced.json", json.dumps({"targets": [priced]}))
    with pytest.raises(mh.ProfileError, match="Target.points must be an integer from 0 to"):
        mh.targets.load(path)
