"""Regression tests of the leaks the reliability suite found (issue 13): each input here
once gave a raw Python error, a memory blow-up or a line of thousands of characters, and
now gives a clean mathhammer error (or the result it should)."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from typing import Any

import pytest

import mathhammer as mh
from mathhammer.abilities import parse_abilities, parse_token
from mathhammer.cli import main
from mathhammer.cli.lines import MAX_LINE
from mathhammer.errors import CsvError, DistributionError, LimitError, ProfileError
from mathhammer.io.workers import ordered_map


def gun() -> mh.Weapon:
    return mh.Weapon("Gun", 1, 3, 4)


def model(**changes: Any) -> mh.ModelProfile:
    return mh.ModelProfile(**{"name": "Trooper", "toughness": 4, "save": 3, "wounds": 1, **changes})


# ------------------------------------------------------------------ abilities
@pytest.mark.parametrize("token", [None, 5, 0.5, ["BLAST"], {"BLAST": 1}])
def test_an_ability_token_that_is_not_text_is_a_profile_error(token: Any) -> None:
    with pytest.raises(ProfileError, match="ability token must be a string"):
        parse_token(token)


@pytest.mark.parametrize("abilities", [None, 5, 0.5, False, b"[BLAST]", {"BLAST": 1}])
def test_abilities_that_are_neither_text_nor_a_list_are_a_profile_error(abilities: Any) -> None:
    with pytest.raises(ProfileError, match="abilities must be a string or a list of abilities"):
        parse_abilities(abilities)


# ------------------------------------------------------------------ datasheet parts
@pytest.mark.parametrize("profiles", [None, 3, 0.5, True, "Gun"])
def test_wargear_profiles_that_are_not_a_list_of_weapons_are_a_profile_error(
    profiles: Any,
) -> None:
    with pytest.raises(ProfileError, match=r"Wargear 'Gun'.profiles must be one or more Weapons"):
        mh.Wargear("Gun", profiles)


def test_wargear_and_model_names_are_text() -> None:
    with pytest.raises(ProfileError, match=r"Wargear.name must be a string; got 3"):
        mh.Wargear(3, (gun(),))  # type: ignore[arg-type]
    with pytest.raises(ProfileError, match=r"ModelProfile.name must be a string; got None"):
        model(name=None)


def test_a_model_s_wargear_names_are_a_list_and_one_name_is_one_item() -> None:
    assert model(weapons="Bolt rifle").weapons == ("Bolt rifle",)  # not its letters
    assert model(options="Plasma gun").options == ("Plasma gun",)
    for bad in (5, False, None, ["Gun", 3], {"Gun": 1}):
        with pytest.raises(ProfileError, match=r"ModelProfile 'Trooper'.(weapons|options)"):
            model(weapons=bad)
        with pytest.raises(ProfileError, match=r"ModelProfile 'Trooper'.options"):
            model(options=bad)


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"leadership": "6+"}, "leadership"),
        ({"leadership": -5}, "leadership"),
        ({"oc": 1.5}, "oc"),
        ({"movement": 6}, "movement"),
    ],
)
def test_a_model_s_shown_characteristics_are_checked(changes: dict[str, Any], field: str) -> None:
    with pytest.raises(ProfileError, match=rf"ModelProfile 'Trooper'.{field} must be"):
        model(**changes)
    assert model(leadership=7, oc=2, movement='6"').oc == 2


@pytest.mark.parametrize(
    "points",
    [12, None, 0.5, "90", {"10": 90}, [(10,)], [(10, 90, 1)], [("ten", 90)], [(10, -1)], [5]],
)
def test_datasheet_points_must_be_pairs_of_counts(points: Any) -> None:
    with pytest.raises(ProfileError, match=r"Datasheet 'Squad'.points must be"):
        mh.Datasheet("Squad", (model(),), points=points)


def test_datasheet_points_are_sorted_pairs_of_ints() -> None:
    points: Any = [[10, 180], (5, 90)]  # lists too, as a JSON file gives them
    sheet = mh.Datasheet("Squad", (model(max_count=10),), points=points)
    assert sheet.points == ((5, 90), (10, 180))
    assert sheet.points_for(10) == 180


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"wargear": 5}, "wargear"),
        ({"wargear": ["Gun"]}, "wargear"),
        ({"abilities": "Stealth"}, "abilities"),
        ({"not_understood": [3]}, "not_understood"),
        ({"faction": 3}, "faction"),
        ({"source": None}, "source"),
        ({"stealth": "yes"}, "stealth"),
    ],
)
def test_datasheet_fields_are_checked(changes: dict[str, Any], field: str) -> None:
    with pytest.raises(ProfileError, match=rf"Datasheet 'Squad'.{field} must be"):
        mh.Datasheet("Squad", (model(),), **changes)


def test_datasheet_models_that_are_not_a_list_are_a_profile_error() -> None:
    with pytest.raises(ProfileError, match=r"Datasheet 'Squad'.models must be one or more"):
        mh.Datasheet("Squad", 5)  # type: ignore[arg-type]
    with pytest.raises(ProfileError, match=r"Datasheet.name must be a string"):
        mh.Datasheet(None, (model(),))  # type: ignore[arg-type]


# ------------------------------------------------------------------ distributions
@pytest.mark.parametrize("minlength", [None, 2.0, "3", True, -1, {}])
def test_from_samples_minlength_must_be_a_count(minlength: Any) -> None:
    with pytest.raises(DistributionError, match="minlength must be an integer >= 0"):
        mh.Dist.from_samples([1, 2], minlength=minlength)


def test_from_samples_minlength_is_limited_before_anything_is_allocated() -> None:
    # numpy was asked for 7.28 TiB
    with pytest.raises(LimitError, match="minlength of Dist.from_samples"):
        mh.Dist.from_samples([1, 2], minlength=10**12)
    assert mh.Dist.from_samples([1], minlength=4).probabilities.tolist() == [0, 1, 0, 0]


@pytest.mark.parametrize("weights", ["7+", ["0.5", "half"], {"a": 1}, [[0.5], [0.5, 0.5]]])
def test_mixture_weights_that_are_not_numbers_are_a_distribution_error(weights: Any) -> None:
    with pytest.raises(DistributionError, match="weights must be"):
        mh.Dist.mixture(weights, [mh.Dist.constant(0), mh.Dist.constant(1)])


def test_mixture_of_things_that_are_not_distributions_is_a_distribution_error() -> None:
    with pytest.raises(DistributionError, match="dists must be a list of Dists"):
        mh.Dist.mixture([0.5, 0.5], [mh.Dist.constant(0), [0.5, 0.5]])  # type: ignore[list-item]
    for dists in (mh.Dist.constant(0), 5, None):
        with pytest.raises(DistributionError, match="dists must be a list of Dists"):
            mh.Dist.mixture([1.0], dists)  # type: ignore[arg-type]
    one = mh.Dist.constant(1)
    assert mh.Dist.mixture([1.0], (one,)) == one


@pytest.mark.parametrize("at_least", [0, True, 2.5, "12"])
def test_describe_thresholds_must_be_a_list(at_least: Any) -> None:
    with pytest.raises(DistributionError, match="at_least must be a list of integers"):
        mh.Dist.uniform(1, 6).describe(at_least)


# ------------------------------------------------------------------ readers
def test_a_wahapedia_folder_whose_name_is_too_long_is_a_csv_error(tmp_path: Path) -> None:
    with pytest.raises(CsvError, match="cannot read: .*File name too long"):
        mh.read_wahapedia(tmp_path / ("x" * 300))


# ------------------------------------------------------------------ the command line
def last_error_line(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    try:
        status = main(argv)
    except SystemExit as exc:
        status = int(exc.code or 0)
    return status, capsys.readouterr().err.splitlines()[-1]


@pytest.mark.parametrize(
    "argv",
    [
        ["demo", "--rules", "x" * 20_000],
        ["report", "--jobs", "9" * 5000],
        ["attack", "-A", "1", "--skill", "3+", "-S", "1" + "0" * 3000, "--target", "Vehicle"],
        ["x" * 10_000],
    ],
)
def test_a_usage_error_quoting_a_huge_value_is_one_short_line(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    status, line = last_error_line(argv, capsys)
    assert status == 2 and re.match(r"mathhammer( \w+)?: error: ", line)
    assert len(line) < MAX_LINE + 40 and " ... " in line


def test_an_error_naming_a_huge_path_is_one_short_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, line = last_error_line(["datasheets", str(tmp_path / ("9" * 600))], capsys)
    assert status == 1 and line.startswith("mathhammer: error: ")
    assert len(line) < MAX_LINE + 40 and line.endswith("File name too long")


@pytest.mark.parametrize("text", ["\u0663", "\uff13", "1_0", "\u00b2", " 3 4 "])
def test_integer_options_are_written_with_the_digits_0_to_9(
    text: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # Python's int() reads the first three as 3, 3 and 10
    for argv in (
        ["report", "--jobs", text],
        ["report", "--seed", text],
        ["demo", "--trials", text],
        ["attack", "-A", "1", "--skill", "3+", "-S", text, "--target", "Vehicle"],
        ["attack", "-A", "1", "--skill", "3+", "-S", "4", "--ap", text, "--target", "Vehicle"],
    ):
        status, line = last_error_line(argv, capsys)
        assert status == 2 and f"expected an integer; got {text!r}" in line, argv


# ------------------------------------------------------------------ worker processes
def _children() -> list[int]:
    """The live processes this one started (Linux's /proc)."""
    me = str(os.getpid())
    found = []
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if fields[1] == me and fields[0] != "Z":
            found.append(int(entry.name))
    return found


@pytest.mark.system
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc")
def test_no_more_workers_start_than_there_are_items() -> None:
    # --jobs 256 on a one-unit report forked 256 processes (600 MB) for one unit's work
    before = set(_children())
    results = ordered_map(abs, [-1, -2, -3], jobs=64)
    assert next(results) == 1
    started = set(_children()) - before
    assert list(results) == [2, 3]
    assert 1 <= len(started) <= 3
    assert list(ordered_map(abs, (n for n in [-4, 5]), jobs=2)) == [4, 5]  # a count unknown
