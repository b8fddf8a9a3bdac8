"""The 11th edition's hit, wound and save checks read from tables equal the rules as written.

:func:`~mathhammer.rules.eleventh.hit_outcome`, :func:`~mathhammer.rules.eleventh.wound_outcome`
and :func:`~mathhammer.rules.eleventh.save_outcome` read a row of a table that the literal
form of each rule filled once (:func:`~mathhammer.rules.base.tabulate`). Every row of
every table is compared here with the literal form on each face, as are parameters
outside the tables (which the literal form answers), scalars and arrays of dice; the
literal forms themselves are pinned by hand-derived rows.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import product
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mathhammer.rules import eleventh
from mathhammer.rules.base import FACE_ARRAY, tabulate

TABLES: dict[str, tuple[dict[Any, np.ndarray], Callable[..., Any], Callable[..., Any]]] = {
    "hit": (eleventh._HIT_ROWS, eleventh._hit_rule, eleventh.hit_outcome),
    "wound": (eleventh._WOUND_ROWS, eleventh._wound_rule, eleventh.wound_outcome),
    "save": (eleventh._SAVE_ROWS, eleventh._save_rule, eleventh.save_outcome),
}


@pytest.mark.parametrize("name", TABLES)
def test_every_row_is_the_rule_on_each_face(name: str) -> None:
    rows, rule, public = TABLES[name]
    for params, row in rows.items():
        expected = np.asarray(rule(FACE_ARRAY, *params))
        assert row[FACE_ARRAY].tolist() == expected.tolist(), params
        assert public(FACE_ARRAY, *params).tolist() == expected.tolist(), params
        for face in (1, 4, 6):  # a scalar die reads the same
            assert int(public(face, *params)) == int(expected[face - 1]), (params, face)
        assert row[FACE_ARRAY].dtype == expected.dtype
        assert not row.flags.writeable


def test_the_tables_cover_the_usual_parameters() -> None:
    assert len(eleventh._HIT_ROWS) == 6 * 5 * 6 * 6
    assert len(eleventh._WOUND_ROWS) == 5 * 5 * 6
    assert len(eleventh._SAVE_ROWS) == 7 * 6 * 6  # an invulnerable save of 2+..6+ or none
    assert (3, 0, 6, 1) in eleventh._HIT_ROWS and (-1, 3, None) in eleventh._SAVE_ROWS


def test_hand_derived_rows() -> None:
    # BS 4+ at -1: a natural 5 or better (the 6 critical); a 1 always fails
    assert eleventh.hit_outcome(FACE_ARRAY, 4, -1).tolist() == [0, 0, 0, 0, 1, 2]
    # [INDIRECT FIRE]: unmodified 1-3 fail, even at +1 against 2+; critical on 5+
    assert eleventh.hit_outcome(FACE_ARRAY, 2, 1, 5, 3).tolist() == [0, 0, 0, 1, 2, 2]
    # a modifier past the cap counts as +/-1
    assert eleventh.hit_outcome(FACE_ARRAY, 3, 5).tolist() == [0, 1, 1, 1, 1, 2]
    assert eleventh.wound_outcome(FACE_ARRAY, 2, 2).tolist() == [0, 1, 1, 1, 1, 2]
    # [ANTI-X 4+]: critical wounds on 4+, whatever is needed
    assert eleventh.wound_outcome(FACE_ARRAY, 6, 0, 4).tolist() == [0, 0, 0, 2, 2, 2]
    # Sv3+ at AP -2 with a 4+ invulnerable: 4+ saves
    assert eleventh.save_outcome(FACE_ARRAY, -2, 3, 4).tolist() == [0, 0, 0, 1, 1, 1]
    # Sv7+ (none) at AP 0: nothing saves
    assert not eleventh.save_outcome(FACE_ARRAY, 0, 7).any()


@pytest.mark.parametrize(
    ("public", "rule", "params"),
    [
        (eleventh.hit_outcome, eleventh._hit_rule, (1, 0, 6, 1)),  # BS 1+: outside
        (eleventh.hit_outcome, eleventh._hit_rule, (3, -4, 6, 0)),
        (eleventh.hit_outcome, eleventh._hit_rule, (3, 0, 8, 1)),  # never critical
        (eleventh.wound_outcome, eleventh._wound_rule, (7, 0, 6)),
        (eleventh.wound_outcome, eleventh._wound_rule, (4, 3, 1)),
        (eleventh.save_outcome, eleventh._save_rule, (-9, 3, None)),
        (eleventh.save_outcome, eleventh._save_rule, (1, 1, 7)),
    ],
)
def test_parameters_outside_the_tables_follow_the_rule(public, rule, params) -> None:  # type: ignore[no-untyped-def]
    assert public(FACE_ARRAY, *params).tolist() == np.asarray(rule(FACE_ARRAY, *params)).tolist()


def test_array_parameters_follow_the_rule() -> None:
    skills = np.array([[2], [4], [6]])  # unhashable: the literal form, over the dice's shape
    out = eleventh.hit_outcome(np.tile(FACE_ARRAY, (3, 1)), skills)  # type: ignore[arg-type]
    assert out.tolist() == [eleventh.hit_outcome(FACE_ARRAY, int(s)).tolist() for s in skills[:, 0]]


@given(
    dice=st.lists(st.integers(1, 6), min_size=1, max_size=40),
    skill=st.integers(0, 9),
    modifier=st.integers(-4, 4),
    critical=st.integers(0, 9),
    fails=st.integers(0, 8),
)
def test_rolled_dice_read_as_the_rule(
    dice: list[int], skill: int, modifier: int, critical: int, fails: int
) -> None:
    rolled = np.array(dice)
    assert (
        eleventh.hit_outcome(rolled, skill, modifier, critical, fails).tolist()
        == eleventh._hit_rule(rolled, skill, modifier, critical, fails).tolist()
    )
    needed = min(max(skill, 1), 7)
    assert (
        eleventh.wound_outcome(rolled, needed, modifier, critical).tolist()
        == eleventh._wound_rule(rolled, needed, modifier, critical).tolist()
    )
    invuln = None if fails > 6 else fails
    assert (
        eleventh.save_outcome(rolled, -modifier, skill, invuln).tolist()
        == eleventh._save_rule(rolled, -modifier, skill, invuln).tolist()
    )


def test_tabulate_calls_the_rule_once_over_the_grid() -> None:
    calls = []

    def rule(natural: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        calls.append(natural.shape)
        out: np.ndarray = natural * 10 + a - b
        return out

    table = tabulate(rule, {"a": [1, 2, 3], "b": [0, 5]})
    assert calls == [(3, 2, 7)]
    assert sorted(table) == sorted(product([1, 2, 3], [0, 5]))
    assert table[(2, 5)].tolist() == [0, 7, 17, 27, 37, 47, 57]
    with pytest.raises(ValueError):
        table[(2, 5)][0] = 1  # read-only
