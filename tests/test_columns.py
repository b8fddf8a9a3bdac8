"""The columns of after-attack tests come from the tests a result carries.

A ruleset's after-attack tests (the classic Panic Test) reach every table through
``result.tests``: each :class:`~mathhammer.TestResult` gives two columns named after it
(:func:`after_attack_columns`), in the Panic Test's place among the columns. The ruleset
below, defined here and never registered, has its target take a "battle-shock test"
(taken when the unit is below half strength, failed when 2D6 rolls over Ld 7), and its
columns appear with no change to the package.
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from typing import Any

import numpy as np
import pytest

import mathhammer as mh
from mathhammer.results.columns import (
    ALL_COLUMNS,
    CHECK_COLUMNS,
    COLUMNS,
    PANIC_COLUMNS,
    POINTS_COLUMNS,
    after_attack_columns,
    attack_columns,
    columns_frame,
    for_loadout,
)
from mathhammer.rules import EleventhEdition
from mathhammer.rules.base import AfterAttackTest
from mathhammer.rules.classic import panic_fails
from mathhammer.units.compare import Loadout
from mathhammer.units.targets import Target

SHOCK_COLUMNS = ("p_battle_shock_test", "p_battle_shock_fail")


def below_half_strength(killed: Any, models: int) -> Any:
    """True where the unit is left alive with fewer than half its models."""
    left = models - np.asarray(killed)
    return (left > 0) & (2 * left < models)


class BattleShock(EleventhEdition):
    """The 11th edition, and a unit left below half strength takes a battle-shock test."""

    name = "11e-battle-shock"

    def after_attack_tests(self, target: mh.Unit, before: int = 0) -> tuple[AfterAttackTest, ...]:
        taken = partial(below_half_strength, models=target.models)
        fails = partial(panic_fails, leadership=target.leadership or 7)
        return (AfterAttackTest("battle-shock test", taken, fails, dice=2),)


BOLT = mh.Weapon("Bolt rifle", attacks=2, skill=3, strength=4, ap=-1, damage=1)
SQUAD = mh.Unit.of("Squad", models=10, toughness=3, save=5, wounds=1, leadership=7)


@pytest.mark.parametrize(
    ("name", "columns"),
    [
        ("panic test", ("p_panic_test", "p_panic_fail")),
        ("Panic Test", ("p_panic_test", "p_panic_fail")),
        ("battle-shock test", SHOCK_COLUMNS),
        ("Battle-shock", SHOCK_COLUMNS),
        ("  morale check ", ("p_morale_check_test", "p_morale_check_fail")),
    ],
)
def test_the_columns_are_named_after_the_test(name: str, columns: tuple[str, str]) -> None:
    assert after_attack_columns(name) == columns


def test_the_panic_test_keeps_its_columns() -> None:
    assert PANIC_COLUMNS == ("p_panic_test", "p_panic_fail")
    start = ALL_COLUMNS.index(PANIC_COLUMNS[0])
    assert ALL_COLUMNS[start : start + 2] == PANIC_COLUMNS
    assert ALL_COLUMNS.index("mean_damage") < start < ALL_COLUMNS.index("loadout_points")


def test_a_ruleset_with_another_test_gets_its_columns() -> None:
    rules = BattleShock()
    res = mh.attack([(BOLT, 10)], SQUAD, rules=rules)
    (test,) = res.tests
    assert test.name == "battle-shock test" and 0 < test.p_failed < test.p_taken < 1
    row = attack_columns(res)
    assert list(row) == [*COLUMNS[1:], *SHOCK_COLUMNS]
    assert (row[SHOCK_COLUMNS[0]], row[SHOCK_COLUMNS[1]]) == (test.p_taken, test.p_failed)
    # taken when 6 or more of 10 die and some live: P(6 <= killed <= 9), read off the pmf
    assert test.p_taken == pytest.approx(float(np.sum(res.killed.probabilities[6:10])), abs=1e-12)
    frame = mh.compare({"bolters": [(BOLT, 10)]}, SQUAD, rules=rules)
    assert list(frame.columns) == [*COLUMNS, *SHOCK_COLUMNS]
    assert frame.loc[0, SHOCK_COLUMNS[1]] == test.p_failed


def test_every_test_of_a_result_has_its_columns_in_the_panic_tests_place() -> None:
    classic = mh.attack([(mh.Weapon("Lasgun", 1, bs=3, strength=3), 20)], SQUAD, rules="classic")
    shock = mh.TestResult("battle-shock test", p_taken=0.25, p_failed=0.125)
    res = replace(classic, tests=(*classic.tests, shock))
    target = Target(SQUAD, points=100)
    loadout = Loadout("lasguns", [(mh.Weapon("Lasgun", 1, bs=3, strength=3), 20)], points=60)
    check = mh.simulate(loadout.weapons, SQUAD, trials=200, rng=1, rules="classic")
    row = attack_columns(res, target=target, loadout=loadout, check=check)
    expected = [*COLUMNS, *PANIC_COLUMNS, *SHOCK_COLUMNS, *POINTS_COLUMNS, *CHECK_COLUMNS]
    assert list(row) == expected
    assert row["p_battle_shock_fail"] == 0.125 and row["p_panic_test"] == res.p_panic_test
    # a table puts them in the same place, whatever order the rows give them in
    scrambled = {k: row[k] for k in reversed(list(row))} | {"note": "x"}
    frame = columns_frame([scrambled, attack_columns(classic)])
    assert list(frame.columns) == [*expected, "note"]
    assert np.isnan(frame.loc[1, "p_battle_shock_test"])


def test_a_result_without_tests_has_no_test_columns() -> None:
    row = attack_columns(mh.attack([(BOLT, 10)], SQUAD))
    assert not any(c.endswith(("_test", "_fail")) for c in row)


_GUN = mh.Weapon("Gun", attacks=2, skill=3, strength=5, ap=-1, damage=2)
_LOADOUTS = [
    Loadout("plain", [(_GUN, 4)]),
    Loadout("priced", [(_GUN, 4)], points=80),
    Loadout("sourced", [(_GUN, 4)], points=45, source="army.csv:3"),
]
_TARGETS = [
    mh.targets.get("Line infantry"),
    replace(mh.targets.get("Vehicle"), source="targets.csv:2"),
    Target(mh.Unit.of("Unpriced", 5, 4, 3, 2)),
]


@pytest.mark.parametrize("target", _TARGETS, ids=lambda t: t.name)
@pytest.mark.parametrize("first", [None, *_LOADOUTS], ids=lambda x: getattr(x, "name", "none"))
@pytest.mark.parametrize("other", [None, *_LOADOUTS], ids=lambda x: getattr(x, "name", "none"))
@pytest.mark.parametrize("extra", [None, {"unknown_abilities": "BIG GUNS"}])
def test_another_loadouts_row_is_its_own_row(
    target: Target, first: Loadout | None, other: Loadout | None, extra: dict[str, Any] | None
) -> None:
    """A row made for one loadout, given to another with the same weapons: the same columns
    in the same order, with the same values, as the row made for that one."""
    result = mh.attack([(_GUN, 4)], target.unit)
    row = attack_columns(result, target=target, loadout=first)
    given = for_loadout(row, other, extra)
    own = attack_columns(result, target=target, loadout=other)
    if extra:
        own = for_loadout(own, other, extra)
    assert list(given.items()) == list(own.items())
    assert list(given) == [c for c in ALL_COLUMNS if c in given]  # in table order
