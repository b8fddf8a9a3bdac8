"""Damage re-rolls: every damage die of a weapon showing 1 (``reroll_damage="ones"``) or N
or less (``"below:N"``) rolled again, once.

Checked against the brute-force oracle (every face of the first roll and of the re-roll),
against the hand-derived mean of a re-rolled D6, and against the Monte Carlo.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from oracle import assert_pmf, oracle_attack
from statcheck import assert_matches

import mathhammer as mh
from mathhammer.core.dice import Dice

TANK = mh.Unit.of("Tank", 1, 10, 3, 12)
PAIR = mh.Unit("Pair", [mh.ModelGroup(2, 4, 4, 3, fnp=6), mh.ModelGroup(1, 4, 3, 5)])


def test_a_rerolled_d6_by_hand() -> None:
    # a 1 is rolled again: P(1) = 1/36, every other face 1/6 + 1/36 = 7/36; mean 3.5 + 2.5/6
    d = Dice("D6").rerolled(1)
    assert d.dist.probabilities[1] == pytest.approx(1 / 36, abs=1e-15)
    assert d.dist.probabilities[2:].tolist() == pytest.approx([7 / 36] * 5, abs=1e-15)
    assert d.mean == pytest.approx(3.5 + 2.5 / 6, abs=1e-12)
    two = Dice("2D3+1").rerolled(2)  # each D3: 1 and 2 rolled again; 3 kept
    per_die = {1: Fraction(2, 9), 2: Fraction(2, 9), 3: Fraction(1, 3) + Fraction(2, 9)}
    want = {a + b + 1: Fraction(0) for a in per_die for b in per_die}
    for a, p in per_die.items():
        for b, q in per_die.items():
            want[a + b + 1] += p * q
    for value, p in want.items():
        assert two.dist.probabilities[value] == pytest.approx(float(p), abs=1e-15)
    assert Dice(3).rerolled(1) == Dice(3)  # a constant has no die
    assert Dice("D6").rerolled(1) != Dice("D6") and str(two) == "2D3+1 (re-roll 1-2)"


@pytest.mark.parametrize("option", ["ones", "below:2", "below:3"])
@pytest.mark.parametrize(
    ("weapon", "target"),
    [
        (mh.Weapon("Melta", 1, 3, 9, -4, "D6", "[MELTA 1]"), TANK),
        (mh.Weapon("Heavy", 2, 3, 6, -1, "D3+1"), PAIR),
        (mh.Weapon("Dev", 1, 3, 6, -1, "D3", "[DEVASTATING WOUNDS]"), PAIR),
    ],
    ids=["melta vs tank", "D3+1 vs mixed", "devastating D3"],
)
def test_rerolled_damage_equals_the_oracle(weapon: mh.Weapon, target: mh.Unit, option: str) -> None:
    modifiers = mh.Modifiers(reroll_damage=option)
    context = mh.Context(half_range=True)
    got = mh.attack([(weapon, 2)], target, modifiers=modifiers, context=context)
    want = oracle_attack([(weapon, 2)], target, modifiers=modifiers, context=context)
    assert_pmf(got.killed.probabilities, want.killed, option)
    assert_pmf(got.damage.probabilities, want.damage, option)


def test_the_monte_carlo_rerolls_the_same_dice() -> None:
    weapon = mh.Weapon("Melta", 1, 3, 9, -4, "2D6")
    modifiers = mh.Modifiers(reroll_damage="below:2")
    exact = mh.attack([(weapon, 4)], TANK, modifiers=modifiers)
    rolled = mh.simulate([(weapon, 4)], TANK, modifiers=modifiers, trials=40_000, rng=17)
    assert_matches("damage re-roll", exact.damage, rolled.damage, 40_000)


def test_options_combine_and_bad_ones_are_refused() -> None:
    both = mh.Modifiers(reroll_damage="ones").combined(mh.Modifiers(reroll_damage="below:2"))
    assert both.reroll_damage == "below:2"
    assert mh.Modifiers(reroll_damage="ones").changes() == ["reroll_damage ones"]
    for bad in ("optimal", "below:0", "below:x", "twos", 1):
        with pytest.raises(mh.ProfileError, match="Modifiers.reroll_damage"):
            mh.Modifiers(reroll_damage=bad)  # type: ignore[arg-type]
