"""Damage re-rolls: every damage die of a weapon showing 1 (``reroll_damage="ones"``) or N
or less (``"below:N"``) rolled again, once; or each damage roll rolled again when a new one
takes more from the model it strikes, its wounds left in view (``"optimal"``, docs/rules.md
D31).

Checked against the brute-force oracle (every face of the first roll and of the re-roll,
the optimal decision made by the oracle's own reading), against hand-derived values, and
against the Monte Carlo.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from oracle import assert_pmf, oracle_attack
from statcheck import assert_matches

import mathhammer as mh
from mathhammer.core.dice import Dice
from mathhammer.rules import get_ruleset
from mathhammer.rules.damage_rerolls import damage_rerolls

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


@pytest.mark.parametrize("option", ["ones", "below:2", "below:3", "optimal"])
@pytest.mark.parametrize(
    ("weapon", "target"),
    [
        (mh.Weapon("Melta", 1, 3, 9, -4, "D6", "[MELTA 1]"), TANK),
        (mh.Weapon("Heavy", 2, 3, 6, -1, "D3+1"), PAIR),
        (mh.Weapon("Dev", 1, 3, 6, -1, "D3", "[DEVASTATING WOUNDS]"), PAIR),
        (mh.Weapon("Melta 2", 1, 3, 9, -4, "D3", "[MELTA 2]"), PAIR),
        (
            mh.Weapon("Halved", 2, 3, 8, -3, "D6+1"),
            mh.Unit("H", mh.ModelGroup(2, 8, 3, 5, halve_damage=True)),
        ),
        (mh.Weapon("2D3", 1, 3, 8, -3, "2D3"), mh.Unit.of("F", 2, 4, 3, 4, fnp=5)),
    ],
    ids=["melta vs tank", "D3+1 vs mixed", "devastating D3", "melta 2", "halved", "2D3 vs FNP"],
)
def test_rerolled_damage_equals_the_oracle(weapon: mh.Weapon, target: mh.Unit, option: str) -> None:
    modifiers = mh.Modifiers(reroll_damage=option)
    context = mh.Context(half_range=True)
    got = mh.attack([(weapon, 2)], target, modifiers=modifiers, context=context)
    want = oracle_attack([(weapon, 2)], target, modifiers=modifiers, context=context)
    assert_pmf(got.killed.probabilities, want.killed, option)
    assert_pmf(got.damage.probabilities, want.damage, option)


def test_the_optimal_re_roll_by_hand() -> None:
    # D6 against one W3 model, every save failed: a 1 or a 2 takes less than a new roll
    # (E[min(D6, 3)] = 15/6), so P(kill) = 4/6 + 2/6 x 4/6 = 8/9, times 5/6 to wound
    gun = mh.Weapon("Gun", 1, 2, 8, -4, "D6", "[TORRENT]")
    one = mh.Unit.of("One", 1, 4, 3, 3)
    result = mh.attack([(gun, 1)], one, modifiers=mh.Modifiers(reroll_damage="optimal"))
    assert result.killed.probabilities[1] == pytest.approx(5 / 6 * 8 / 9, abs=1e-15)
    # against W1 models no roll is worth re-rolling: the same as no re-roll
    grots = mh.Unit.of("Grots", 5, 2, 7, 1)
    plain = mh.attack([(gun, 3)], grots)
    optimal = mh.attack([(gun, 3)], grots, modifiers=mh.Modifiers(reroll_damage="optimal"))
    # the same distribution, by two computations (the layout's chain, the one-group line)
    np.testing.assert_allclose(
        optimal.killed.probabilities, plain.killed.probabilities, rtol=0, atol=1e-15
    )
    # against W3 the wounded model changes the decision: a 2 finishes a model with 2 left
    table = damage_rerolls(get_ruleset("11e"), Dice("D6"), None, 1, 0, one.groups[0])
    assert table[3, 1:, 0].tolist() == [True, True, False, False, False, False]
    assert table[2, 1:, 0].tolist() == [True, False, False, False, False, False]


def test_the_optimal_re_roll_takes_at_least_as_much_as_any_fixed_one() -> None:
    gun = mh.Weapon("Gun", 2, 3, 8, -2, "D6")
    target = mh.Unit.of("Squad", 5, 4, 3, 3)
    means = {
        option: mh.attack(
            [(gun, 5)], target, modifiers=mh.Modifiers(reroll_damage=option)
        ).damage.mean()
        for option in (None, "ones", "below:2", "below:3", "optimal")
    }
    assert means["optimal"] >= max(means.values()) - 1e-12


@pytest.mark.parametrize("option", ["below:2", "optimal"])
def test_the_monte_carlo_rerolls_the_same_dice(option: str) -> None:
    weapon = mh.Weapon("Melta", 1, 3, 9, -4, "2D6")
    modifiers = mh.Modifiers(reroll_damage=option)
    exact = mh.attack([(weapon, 4)], TANK, modifiers=modifiers)
    rolled = mh.simulate([(weapon, 4)], TANK, modifiers=modifiers, trials=40_000, rng=17)
    assert_matches(f"damage re-roll {option}", exact.damage, rolled.damage, 40_000)
    # a mixed unit, devastating wounds and Feel No Pain: the decision by each model's wounds
    weapons = [(mh.Weapon("Dev", 2, 3, 6, -1, "D3+1", "[DEVASTATING WOUNDS]"), 6)]
    exact = mh.attack(weapons, PAIR, modifiers=modifiers)
    rolled = mh.simulate(weapons, PAIR, modifiers=modifiers, trials=40_000, rng=18)
    assert_matches(f"mixed damage re-roll {option}", exact.killed, rolled.killed, 40_000)
    assert_matches(f"mixed damage re-roll {option}", exact.damage, rolled.damage, 40_000)


def test_options_combine_and_bad_ones_are_refused() -> None:
    both = mh.Modifiers(reroll_damage="ones").combined(mh.Modifiers(reroll_damage="below:2"))
    assert both.reroll_damage == "below:2"
    assert mh.Modifiers(reroll_damage="ones").changes() == ["reroll_damage ones"]
    assert (
        mh.Modifiers(reroll_damage="optimal")
        .combined(mh.Modifiers(reroll_damage="below:3"))
        .reroll_damage
        == "optimal"
    )
    for bad in ("best", "below:0", "below:x", "twos", 1):
        with pytest.raises(mh.ProfileError, match="Modifiers.reroll_damage"):
            mh.Modifiers(reroll_damage=bad)  # type: ignore[arg-type]
