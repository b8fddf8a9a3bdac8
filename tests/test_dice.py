"""Dice expressions: exact distributions by enumeration, and errors with positions."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from mathhammer import Dice, DiceSyntaxError, ProfileError, parse_dice


def enumerate_dice(count: int, sides: int, bonus: int) -> np.ndarray:
    out = np.zeros(count * sides + bonus + 1)
    for faces in itertools.product(range(1, sides + 1), repeat=count):
        out[sum(faces) + bonus] += 1
    outcomes: int = sides**count  # int ** int is typed Any (a negative power is a float)
    return out / outcomes


@pytest.mark.parametrize(
    ("text", "count", "sides", "bonus", "canonical"),
    [
        ("D3", 1, 3, 0, "D3"),
        ("D6", 1, 6, 0, "D6"),
        ("2D6", 2, 6, 0, "2D6"),
        ("D6+1", 1, 6, 1, "D6+1"),
        ("2D3+2", 2, 3, 2, "2D3+2"),
        ("D3+3", 1, 3, 3, "D3+3"),
        (" d6 + 2 ", 1, 6, 2, "D6+2"),
        ("3d3", 3, 3, 0, "3D3"),
    ],
)
def test_random_expressions(text: str, count: int, sides: int, bonus: int, canonical: str) -> None:
    d = parse_dice(text)
    assert (d.count, d.sides, d.bonus, d.text) == (count, sides, bonus, canonical)
    np.testing.assert_allclose(
        d.dist.probabilities, enumerate_dice(count, sides, bonus), atol=1e-12
    )
    assert d.min == count + bonus and d.max == count * sides + bonus
    assert d.mean == pytest.approx(d.dist.mean(), abs=1e-12)
    assert not d.is_constant


@pytest.mark.parametrize("value", [3, "3", " 3 ", np.int64(3)])
def test_constants(value: object) -> None:
    d = parse_dice(value)  # type: ignore[arg-type]
    assert d.is_constant and int(d) == 3 and d.text == "3"
    np.testing.assert_array_equal(d.dist.probabilities, [0, 0, 0, 1])


def test_equality_ignores_spelling() -> None:
    assert parse_dice("d6+1") == parse_dice("D6 + 1")
    assert parse_dice(2) == parse_dice("2")
    assert parse_dice("D6") != parse_dice("D3")
    assert Dice.parse(parse_dice("D3")) is not None


def test_roll_covers_the_faces() -> None:
    rng = np.random.default_rng(3)
    rolls = parse_dice("2D3+2").roll(rng, 20_000)
    assert rolls.min() == 4 and rolls.max() == 8
    assert abs(rolls.mean() - 6.0) < 0.05


def test_random_has_no_int() -> None:
    with pytest.raises(TypeError, match="random"):
        int(parse_dice("D6"))


@pytest.mark.parametrize(
    ("text", "position", "reason"),
    [
        ("", 0, "empty"),
        ("x", 0, "unexpected 'x'"),
        ("2D", 2, "number of sides"),
        ("D6-1", 2, "only '\\+N' may follow"),
        ("D6+", 2, "only '\\+N' may follow"),
        ("D1", 1, "between 2 and 20 sides"),
        ("D66", 1, "between 2 and 20 sides"),
        ("0D6", 0, "at least 1"),
        ("3D6+2x", 5, "unexpected 'x'"),
        ("3 4", 2, "unexpected '4'"),
    ],
)
def test_syntax_errors_name_text_and_position(text: str, position: int, reason: str) -> None:
    with pytest.raises(DiceSyntaxError, match=reason) as info:
        parse_dice(text)
    assert info.value.position == position
    assert info.value.text == text
    assert repr(text) in str(info.value)
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("value", [True, 2.5, None, -1])
def test_non_text_values(value: object) -> None:
    with pytest.raises(ProfileError, match="dice must be"):
        parse_dice(value)  # type: ignore[arg-type]
