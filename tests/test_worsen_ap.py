"""A target that worsens the AP of incoming attacks (an armour-of-contempt style defence).

Checked against the brute-force oracle (every die face) with AP, invulnerable saves and
AP modifiers around it, against the Monte Carlo, and for its inputs.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from oracle import assert_pmf, oracle_attack
from statcheck import assert_matches

import mathhammer as mh


@pytest.mark.parametrize("worsen", [0, 1, 2, 6])
@pytest.mark.parametrize(
    "weapon",
    [
        mh.Weapon("AP-2", 2, 3, 4, -2, 1),
        mh.Weapon("AP0", 2, 3, 4, 0, 1),
        mh.Weapon("AP-4 D2", 1, 3, 8, -4, 2),
        mh.Weapon("AP-1 devastating", 2, 3, 4, -1, 1, "[DEVASTATING WOUNDS]"),
    ],
    ids=lambda w: w.name,
)
def test_worsened_ap_equals_the_oracle(weapon: mh.Weapon, worsen: int) -> None:
    unit = mh.Unit(
        "Squad",
        [mh.ModelGroup(2, 4, 3, 1), mh.ModelGroup(1, 4, 2, 2, invuln=5)],
        worsen_ap=worsen,
    )
    for modifiers in (None, mh.Modifiers(ap=-1)):
        got = mh.attack([(weapon, 2)], unit, modifiers=modifiers)
        want = oracle_attack([(weapon, 2)], unit, modifiers=modifiers)
        assert_pmf(got.killed.probabilities, want.killed, f"{weapon.name}, worsen {worsen}")
        assert_pmf(got.damage.probabilities, want.damage)


def test_worsening_by_one_is_the_next_ap_up() -> None:
    gun = mh.Weapon("Gun", 2, 3, 4, -2, 1)
    worsened = mh.attack([(gun, 10)], mh.Unit("A", mh.ModelGroup(5, 4, 3, 1), worsen_ap=1))
    plain = mh.attack([(mh.Weapon("Gun", 2, 3, 4, -1, 1), 10)], mh.Unit.of("A", 5, 4, 3, 1))
    assert worsened.killed == plain.killed
    # AP 0 stays 0: nothing to worsen
    zero = mh.Weapon("Zero", 2, 3, 4, 0, 1)
    assert (
        mh.attack([(zero, 10)], mh.Unit("A", mh.ModelGroup(5, 4, 3, 1), worsen_ap=2)).killed
        == mh.attack([(zero, 10)], mh.Unit.of("A", 5, 4, 3, 1)).killed
    )


def test_the_monte_carlo_reads_it_too() -> None:
    unit = mh.Unit("A", mh.ModelGroup(10, 4, 3, 1), worsen_ap=1)
    gun = mh.Weapon("Gun", 2, 3, 4, -2, 1)
    exact = mh.attack([(gun, 10)], unit)
    rolled = mh.simulate([(gun, 10)], unit, trials=40_000, rng=5)
    assert_matches("worsen AP", exact.killed, rolled.killed, 40_000)


def test_inputs() -> None:
    with pytest.raises(mh.ProfileError, match="Unit.worsen_ap must be an integer from 0 to 6"):
        mh.Unit("A", mh.ModelGroup(5, 4, 3, 1), worsen_ap=7)
    unit = mh.Unit("A", mh.ModelGroup(5, 4, 3, 1), leadership=7, worsen_ap=1)
    assert repr(unit).endswith("AP worsened by 1)")
    assert unit != mh.Unit.of("A", 5, 4, 3, 1, leadership=7)
    lasgun = mh.Weapon("Lasgun", attacks=1, bs=3, strength=3)
    with pytest.raises(mh.RulesError, match="worsens the AP of attacks"):
        mh.attack([(lasgun, 5)], unit, rules="classic")


def test_a_json_suite_reads_it(tmp_path: Path) -> None:
    path = tmp_path / "suite.json"
    entry = {"name": "Hardened", "worsen_ap": 1, "groups": [{"count": 5, "toughness": 4,
             "save": 3, "wounds": 2, "points": 100}]}  # fmt: skip
    path.write_text(json.dumps({"targets": [entry]}))
    (target,) = mh.targets.load(path)
    assert target.unit.worsen_ap == 1


def test_a_leader_or_bodyguard_brings_it_to_the_led_unit() -> None:
    guard = mh.Unit.of("Guard", 5, 4, 3, 2)
    boss = mh.Unit("Boss", [mh.ModelGroup(1, 4, 2, 5, character=True, name="Boss")], worsen_ap=1)
    assert mh.attach_leaders(guard, boss).worsen_ap == 1
    assert (
        mh.attach_leaders(mh.Unit("Guard", mh.ModelGroup(5, 4, 3, 2), worsen_ap=1), guard).worsen_ap
        == 1
    )
    assert mh.attach_leaders(guard, mh.Unit.of("Plain", 1, 4, 3, 4)).worsen_ap == 0
