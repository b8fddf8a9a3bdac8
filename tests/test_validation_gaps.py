"""Values the constructors and readers let through (issue 13, point 11).

Typed abilities are validated like the profiles; ``Context.precision_group`` is a group's
index or label; only the digits 0-9 are digits in a characteristic, a dice expression or
a CSV cell (``int`` reads ``"٣"``, ``"３"`` and ``"1_0"``); and a simulation's result
compares without raising. The distribution's own gaps are in ``test_dist_validation.py``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import mathhammer as mh
from mathhammer.abilities import (
    Anti,
    Blast,
    LethalHits,
    Melta,
    NoEffect,
    SustainedHits,
    parse_abilities,
)
from mathhammer.errors import CsvError
from mathhammer.io import read_attackers, read_targets
from mathhammer.io.csv_reader import flag, integer, leadership, threshold
from mathhammer.model.values import parse_leadership, parse_roll, parse_save, parse_skill


def untyped(value: object) -> Any:
    """A value of the wrong type, given on purpose."""
    return value


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: Anti(keyword=untyped(5)), "Anti.keyword must be a keyword; got 5"),
        (lambda: Anti(keyword="X", threshold=untyped(3.5)), "Anti.threshold must be an integer"),
        (lambda: LethalHits(keywords=untyped("VEHICLE")), "LethalHits.keywords must be a tuple"),
        (lambda: LethalHits(keywords=("VEHICLE", "")), "LethalHits.keywords must be non-empty"),
        (lambda: SustainedHits(untyped(0)), "SustainedHits.value must be at least 1 on every"),
        (lambda: SustainedHits.of("0"), "SustainedHits.value must be at least 1 on every roll"),
        (lambda: Melta.of(0), "Melta.value must be at least 1 on every roll; got '0'"),
        (lambda: SustainedHits.of(1, keywords="VEHICLE"), "SustainedHits.keywords must be a"),
        (lambda: Blast(untyped(2.0)), "Blast.value must be an integer >= 1; got 2.0"),
        (lambda: NoEffect(name=untyped(5)), "NoEffect.name must be the ability's name; got 5"),
        (lambda: NoEffect(name=" "), "NoEffect.name must be the ability's name; got ' '"),
    ],
)
def test_typed_abilities_are_validated(make: Callable[[], object], message: str) -> None:
    with pytest.raises(mh.ProfileError, match=re.escape(message)):
        make()


def test_typed_abilities_are_normalised() -> None:
    vehicle = ["VEHICLE"]
    assert LethalHits(keywords=("vehicle",)).applies_to(vehicle)
    assert SustainedHits.of(2, keywords=["  light   vehicle "]).keywords == ("LIGHT VEHICLE",)
    assert Anti(keyword="vehicle", threshold=4).applies_to(["Vehicle"])
    assert Blast(untyped(np.int64(2))).value == 2
    assert type(Blast(untyped(np.int64(2))).value) is int
    assert NoEffect(name="assault") == NoEffect(name="ASSAULT")


def test_sustained_hits_0_is_not_read_as_an_ability() -> None:
    with pytest.warns(mh.UnknownAbilityWarning, match="SUSTAINED HITS 0"):
        found, unknown = parse_abilities("[SUSTAINED HITS 0], [BLAST 0]")
        mh.Weapon("Gun", 1, 3, 4, abilities="[SUSTAINED HITS 0]")
    assert found == () and unknown == ("SUSTAINED HITS 0", "BLAST 0")


@pytest.mark.parametrize("key", [-1, 1.5, True, "", "  ", object(), ["Boss"], np.bool_(True)])
def test_precision_group_is_an_index_or_a_label(key: object) -> None:
    with pytest.raises(mh.ProfileError, match=re.escape("Context.precision_group must be None,")):
        mh.Context(precision_group=untyped(key))


def test_precision_group_keeps_an_index_or_a_label() -> None:
    index = mh.Context(precision_group=untyped(np.int64(2))).precision_group
    assert index == 2 and type(index) is int
    assert mh.Context(precision_group="Boss").precision_group == "Boss"
    assert mh.Context().precision_group is None


NOT_ASCII = ["\u0663", "\uff13", "\u0663+", "\uff13+", "\u09e9"]  # ٣ ３ ٣+ ３+ ৩


@pytest.mark.parametrize("text", NOT_ASCII)
@pytest.mark.parametrize("parse", [parse_roll, parse_save, parse_skill, parse_leadership])
def test_characteristics_are_written_with_the_digits_0_to_9(
    parse: Callable[[str], int], text: str
) -> None:
    with pytest.raises(mh.ProfileError, match=re.escape(repr(text))):
        parse(text)


@pytest.mark.parametrize("text", ["\uff13D6", "D\uff16", "\u0663", "D6+\u0661", "2D\u0666"])
def test_dice_are_written_with_the_digits_0_to_9(text: str) -> None:
    with pytest.raises(mh.ProfileError, match="written with the digits 0-9"):
        mh.Weapon("Gun", text, 3, 4)
    with pytest.raises(mh.ProfileError, match="written with the digits 0-9"):
        SustainedHits.of(text)
    with pytest.raises(mh.ProfileError, match="written with the digits 0-9"):
        mh.MortalWounds(text)


@pytest.mark.parametrize("ability", ["SUSTAINED HITS \u0663", "BLAST \uff12", "MELTA D\u0663"])
def test_ability_numbers_are_written_with_the_digits_0_to_9(ability: str) -> None:
    found, unknown = parse_abilities(ability)
    assert found == () and unknown == (ability,)
    with pytest.warns(mh.UnknownAbilityWarning, match=re.escape(ability)):
        assert mh.Weapon("Gun", 1, 3, 4, abilities=ability).abilities == ()


@pytest.mark.parametrize("text", [*NOT_ASCII, "1_0", "1 0", "0x10", "1e3", "", "1.0", "++1"])
def test_csv_integers_are_written_with_the_digits_0_to_9(text: str) -> None:
    with pytest.raises(ValueError, match=re.escape(f"expected an integer; got {text!r}")):
        integer(text)


@pytest.mark.parametrize("text", [*NOT_ASCII, "1_0"])
def test_csv_rolls_and_leadership_are_written_with_the_digits_0_to_9(text: str) -> None:
    with pytest.raises(ValueError, match=re.escape(f"got {text!r}")):
        threshold(text)
    with pytest.raises(ValueError, match=re.escape(f"got {text!r}")):
        leadership(text)


def test_csv_values_still_read() -> None:
    assert integer(" +4 ") == 4 and integer("-1") == -1 and integer("007") == 7
    assert threshold("3+") == 3 and leadership("6+") == 8 and leadership("8") == 8
    assert flag("Yes") is True
    with pytest.raises(ValueError, match="expected yes or no; got 'x"):
        flag("x" * 1_000)


@pytest.mark.parametrize(
    ("row", "column"),
    [
        ("Squad,Gun,1_0,1,3+,4,0,1,", "count"),
        ("Squad,Gun,1,\uff13D6,3+,4,0,1,", "A"),
        ("Squad,Gun,1,1,\u0663+,4,0,1,", "BS/WS"),
        ("Squad,Gun,1,1,3+,\u0664,0,1,", "S"),
        ("Squad,Gun,1,1,3+,4,-\u0661,1,", "AP"),
        ("Squad,Gun,1,1,3+,4,0,D\u0663,", "D"),
    ],
)
def test_csv_files_refuse_other_digits(tmp_path: Path, row: str, column: str) -> None:
    path = tmp_path / "army.csv"
    path.write_text("unit,weapon,count,A,BS/WS,S,AP,D,abilities\n" + row + "\n", encoding="utf-8")
    with pytest.raises(CsvError) as info:
        read_attackers(path)
    assert (info.value.line, info.value.column) == (2, column)


def test_targets_files_refuse_other_digits(tmp_path: Path) -> None:
    path = tmp_path / "targets.csv"
    path.write_text("unit,models,T,Sv,W\nU,\u0665,4,3+,1\n", encoding="utf-8")
    with pytest.raises(CsvError, match=re.escape(":2: column 'models': expected an integer")):
        read_targets(path)


def test_simulation_results_compare_without_raising() -> None:
    gun = mh.Weapon("Gun", "D6", 3, 4, 0, 1, abilities="[DEVASTATING WOUNDS], [HAZARDOUS]")
    squad = mh.Unit.of("Squad", 5, 4, 3, 1)

    def run(seed: int) -> mh.SimulationResult:
        return mh.simulate([gun, mh.MortalWounds("D3")], squad, trials=200, rng=seed)

    first, again, other = run(1), run(1), run(2)
    _ = first.pools[0].unsaved  # a cached stage is not part of the comparison
    assert first == again and hash(first) == hash(again)
    assert first != other
    exact = mh.attack([gun, mh.MortalWounds("D3")], squad)
    assert first != exact and exact != first
    assert first != untyped("a result") and first is not None


def test_simulate_refuses_a_bool_rng() -> None:
    gun, squad = mh.Weapon("Gun", 1, 3, 4), mh.Unit.of("Squad", 5, 4, 3, 1)
    with pytest.raises(mh.OptionError, match=re.escape("rng must be")):
        mh.simulate(gun, squad, trials=10, rng=True)
