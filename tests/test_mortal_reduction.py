"""Damage reduction against mortal wounds where a rule says so (``reduce_mortal``).

By default a devastating wound's mortal wounds (equal to D) ignore the defender's halving
and reduction (docs/rules.md D9); a group with ``reduce_mortal`` applies them to those too.
Checked against the brute-force oracle and the Monte Carlo.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from oracle import assert_pmf, oracle_attack
from statcheck import assert_matches

import mathhammer as mh

DEV = mh.Weapon("Dev", 1, 3, 5, -1, "D3+1", "[DEVASTATING WOUNDS]")


@pytest.mark.parametrize("reduce", [False, True])
@pytest.mark.parametrize(
    "group",
    [
        {"damage_reduction": 1},
        {"halve_damage": True},
        {"damage_reduction": 2, "halve_damage": True, "fnp_mortal": 5},
    ],
    ids=["-1", "halve", "halve -2 FNP5+ vs mortals"],
)
def test_reduced_mortal_wounds_equal_the_oracle(group: dict[str, object], reduce: bool) -> None:
    unit = mh.Unit(
        "Tough",
        [mh.ModelGroup(2, 5, 3, 4, reduce_mortal=reduce, **group), mh.ModelGroup(2, 5, 4, 2)],  # type: ignore[arg-type]
    )
    got = mh.attack([(DEV, 3)], unit)
    want = oracle_attack([(DEV, 3)], unit)
    assert_pmf(got.killed.probabilities, want.killed)
    assert_pmf(got.damage.probabilities, want.damage)
    for g, expected in enumerate(want.groups):
        assert_pmf(got.groups[g].killed.probabilities, expected)


def test_the_reduction_lowers_what_devastating_wounds_do() -> None:
    plain = mh.Unit("Plain", mh.ModelGroup(3, 5, 3, 4, damage_reduction=1))
    hardened = mh.Unit("Hard", [mh.ModelGroup(3, 5, 3, 4, damage_reduction=1, reduce_mortal=True)])
    assert (
        mh.attack([(DEV, 10)], hardened).damage.mean() < mh.attack([(DEV, 10)], plain).damage.mean()
    )
    # without devastating wounds the flag changes nothing
    gun = mh.Weapon("Gun", 1, 3, 5, -1, "D3+1")
    assert (
        mh.attack([(gun, 10)], hardened).damage
        == mh.attack(
            [(gun, 10)], mh.Unit("Hard", [mh.ModelGroup(3, 5, 3, 4, damage_reduction=1)])
        ).damage
    )


def test_the_monte_carlo_applies_it_too() -> None:
    unit = mh.Unit("Hard", [mh.ModelGroup(5, 5, 3, 3, damage_reduction=1, reduce_mortal=True)])
    exact = mh.attack([(DEV, 12)], unit)
    rolled = mh.simulate([(DEV, 12)], unit, trials=40_000, rng=9)
    assert_matches("reduce mortal", exact.damage, rolled.damage, 40_000)
    assert_matches("reduce mortal", exact.killed, rolled.killed, 40_000)


def test_inputs_and_display(tmp_path: Path) -> None:
    group = mh.ModelGroup(1, 5, 3, 4, damage_reduction=1, reduce_mortal=True)
    assert group.profile_text.endswith("(-1 damage) (also against mortal wounds)")
    with pytest.raises(mh.ProfileError, match="ModelGroup.reduce_mortal"):
        mh.ModelGroup(1, 5, 3, 4, reduce_mortal="yes")  # type: ignore[arg-type]
    path = tmp_path / "suite.json"
    entry = {"name": "Hard", "groups": [{"count": 1, "toughness": 5, "save": 3, "wounds": 4,
             "damage_reduction": 1, "reduce_mortal": True}]}  # fmt: skip
    path.write_text(json.dumps({"targets": [entry]}))
    (target,) = mh.targets.load(path)
    assert target.unit.groups[0].reduce_mortal
