"""A command re-roll: one hit or wound roll of each pool rolled again (``Modifiers.reroll_one``).

Checked against the brute-force oracle (every face of every die, the command re-roll
applied to each combination by its own reading of docs/rules.md D30), against hand-derived
values, against the Monte Carlo playing the same policy, for the policy's choice, and for
the inputs that contradict it.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from oracle import assert_pmf, oracle_attack
from statcheck import assert_matches

import mathhammer as mh
from mathhammer.model.context import parse_buff
from mathhammer.rules import get_ruleset
from mathhammer.rules.base import CommandReroll

UNIT = mh.Unit("Squad", [mh.ModelGroup(2, 4, 2, 1), mh.ModelGroup(1, 4, 5, 2)])
WEAPONS = [
    mh.Weapon("Plain", 2, 3, 4, 0, 1),
    mh.Weapon("Sustained", 2, 2, 4, 0, 1, "[SUSTAINED HITS 2]"),
    mh.Weapon("Lethal", 1, 3, 4, -1, 2, "[LETHAL HITS]"),
    mh.Weapon("Devastating", 2, 3, 4, 0, 1, "[DEVASTATING WOUNDS]"),
    mh.Weapon("Torrent", "D3", 2, 4, 0, 1, "[TORRENT], [TWIN-LINKED]"),
]


@pytest.mark.parametrize("rerolls", [None, "ones"])
@pytest.mark.parametrize("command", ["hit", "wound", "hit:at_least", "wound:at_least"])
@pytest.mark.parametrize("weapon", WEAPONS, ids=lambda w: w.name)
def test_the_command_re_roll_equals_the_oracle(
    weapon: mh.Weapon, command: str, rerolls: str | None
) -> None:
    modifiers = mh.Modifiers(reroll_one=command, reroll_hits=rerolls, reroll_wounds=rerolls)
    got = mh.attack([(weapon, 2)], UNIT, modifiers=modifiers)
    want = oracle_attack([(weapon, 2)], UNIT, modifiers=modifiers)
    what = f"{weapon.name}, {command}, re-roll {rerolls}"
    pool, oracle_pool = got.pools[0], want.pools[0]
    assert_pmf(pool.hits.probabilities, oracle_pool.hits, what)
    assert_pmf(pool.wounds.probabilities, oracle_pool.wounds, what)
    assert_pmf(pool.devastating.probabilities, oracle_pool.devastating, what)
    assert_pmf(got.killed.probabilities, want.killed, what)
    assert_pmf(got.damage.probabilities, want.damage, what)


def test_two_pools_each_have_their_own_and_a_buff_brings_one() -> None:
    rifle, heavy = mh.Weapon("Rifle", 2, 3, 4, 0, 1), mh.Weapon("Heavy", 1, 4, 8, -2, 2)
    weapons = [(rifle, 2), (heavy, 2)]
    modifiers = mh.Modifiers(reroll_one="wound")
    got = mh.attack(weapons, UNIT, modifiers=modifiers)
    want = oracle_attack(weapons, UNIT, modifiers=modifiers)
    assert_pmf(got.killed.probabilities, want.killed)
    assert_pmf(got.pools[1].wounds.probabilities, want.pools[1].wounds)
    # the same re-roll as a buff on the heavy weapon only
    buffed = [(rifle, 2), (heavy.buffed(mh.Modifiers(reroll_one="hit")), 2)]
    got = mh.attack(buffed, UNIT)
    plain = mh.attack(weapons, UNIT)
    assert got.pools[0].hits == plain.pools[0].hits
    assert got.pools[1].hits.mean() > plain.pools[1].hits.mean()


def test_hand_derived_values() -> None:
    # 6 dice at BS 3+: a failed die is re-rolled unless all six hit, (2/3)**6, and hits
    # on 3+ again: 6 x 2/3 + (1 - (2/3)**6) x 2/3 expected hits
    gun = mh.Weapon("Gun", 3, 3, 4, 0, 1)
    result = mh.attack([(gun, 2)], UNIT, modifiers=mh.Modifiers(reroll_one="hit"))
    want = 4 + (1 - Fraction(2, 3) ** 6) * Fraction(2, 3)
    assert result.pools[0].hits.mean() == pytest.approx(float(want), abs=1e-12)
    # one die: a command re-roll of a die is a re-roll of its failure
    one = mh.attack([(mh.Weapon("One", 1, 4, 4, 0, 1), 1)], UNIT,
                    modifiers=mh.Modifiers(reroll_one="hit"))  # fmt: skip
    assert one.pools[0].hits.probabilities[1] == pytest.approx(1 - 0.5 * 0.5, abs=1e-15)
    # wounds: X hits ~ Binomial(6, 2/3) roll 4+; P(some fail | X) = 1 - 2**-X, and
    # E[2**-X] = (1/3 + 2/3 x 1/2)**6 = (2/3)**6
    result = mh.attack([(gun, 2)], UNIT, modifiers=mh.Modifiers(reroll_one="wound"))
    want = 2 + (1 - Fraction(2, 3) ** 6) / 2
    assert result.pools[0].wounds.mean() == pytest.approx(float(want), abs=1e-12)


def policy(weapon: mh.Weapon, target: mh.Unit, command: str) -> CommandReroll:
    checks = get_ruleset("11e").pool_checks(
        weapon, target, mh.Context(), mh.Modifiers(reroll_one=command)
    )
    assert checks.reroll_one is not None
    return checks.reroll_one


def test_the_policy_fishes_only_when_a_critical_is_worth_the_risk() -> None:
    marines = mh.Unit.of("Marines", 5, 4, 3, 2)
    # BS 2+ [SUSTAINED HITS 2]: a re-roll is worth 4/6 + 1/6 x 3 = 7/6 hits: fish
    assert policy(mh.Weapon("A", 1, 2, 4, 0, 1, "[SUSTAINED HITS 2]"), marines, "hit").fish
    # BS 3+: 3/6 + 1/6 x 3 = 1 hit: no better than the success kept, no fishing
    assert not policy(mh.Weapon("B", 1, 3, 4, 0, 1, "[SUSTAINED HITS 2]"), marines, "hit").fish
    # no critical effect: a re-roll is worth less than a success
    assert not policy(mh.Weapon("C", 1, 2, 4, 0, 1), marines, "hit").fish
    # [DEVASTATING WOUNDS] wounding on 4+ vs Sv 2+ (u = 1/6): 1/3 u + 1/6 > u: fish
    terminators = mh.Unit.of("Terminators", 5, 4, 2, 3)
    dev = mh.Weapon("D", 1, 3, 4, 0, 1, "[DEVASTATING WOUNDS]")
    assert policy(dev, terminators, "wound").fish
    # ... but not against Sv 6+ (u = 5/6): 1/3 x 5/6 + 1/6 < 5/6
    assert not policy(dev, mh.Unit.of("Grots", 10, 2, 6, 1), "wound").fish
    # [LETHAL HITS] against T10 (6+ to wound): a lethal hit is 6 times a hit at BS 2+
    assert policy(
        mh.Weapon("L", 1, 2, 4, 0, 1, "[LETHAL HITS]"), mh.Unit.of("Tank", 1, 10, 3, 12), "hit"
    ).fish
    # ":at_least" never fishes
    assert not policy(
        mh.Weapon("A", 1, 2, 4, 0, 1, "[SUSTAINED HITS 2]"), marines, "hit:at_least"
    ).fish


def test_at_least_is_the_most_likely_to_reach_every_count_and_fishing_raises_the_mean() -> None:
    gun = mh.Weapon("Gun", 1, 2, 4, 0, 1, "[SUSTAINED HITS 2]")
    target = mh.Unit.of("Marines", 20, 4, 3, 1)
    plain = mh.attack([(gun, 6)], target)
    at_least = mh.attack([(gun, 6)], target, modifiers=mh.Modifiers(reroll_one="hit:at_least"))
    fishing = mh.attack([(gun, 6)], target, modifiers=mh.Modifiers(reroll_one="hit"))
    hits = [r.pools[0].hits for r in (plain, at_least, fishing)]
    # a re-roll of a failed die dominates no re-roll, count by count
    tails = [np.cumsum(h.probabilities[::-1])[::-1] for h in hits]
    assert np.all(tails[1][: len(tails[0])] >= tails[0] - 1e-15)
    assert hits[2].mean() > hits[1].mean() > hits[0].mean()
    # fishing may lose a hit: P(at least 6 hits) is lower than re-rolling failures only
    assert hits[2].at_least(6) < hits[1].at_least(6)


@pytest.mark.parametrize("command", ["hit", "wound", "hit:at_least"])
def test_the_monte_carlo_plays_the_same_policy(command: str) -> None:
    weapons = [
        (mh.Weapon("Sustained", 2, 2, 4, 0, 1, "[SUSTAINED HITS 2]"), 5),
        (mh.Weapon("Devastating", 2, 3, 4, 0, "D2", "[DEVASTATING WOUNDS]"), 4),
    ]
    target = mh.Unit("Mixed", [mh.ModelGroup(6, 4, 2, 1), mh.ModelGroup(2, 4, 5, 3)])
    modifiers = mh.Modifiers(reroll_one=command, reroll_wounds="ones")
    exact = mh.attack(weapons, target, modifiers=modifiers)
    trials = 60_000
    rolled = mh.simulate(weapons, target, modifiers=modifiers, trials=trials, rng=29)
    for i in range(2):
        for stage in ("hits", "wounds", "devastating"):
            got, want = getattr(rolled.pools[i], stage), getattr(exact.pools[i], stage)
            assert_matches(f"command {command} pool {i} {stage}", want, got, trials)
    assert_matches(f"command {command}", exact.killed, rolled.killed, trials)


def test_contradictions_and_bad_values() -> None:
    with pytest.raises(
        mh.ProfileError, match="reroll_one='hit' contradicts reroll_hits='failures'"
    ):
        mh.Modifiers(reroll_one="hit", reroll_hits="failures")
    with pytest.raises(mh.ProfileError, match="contradicts reroll_wounds='non_critical'"):
        mh.Modifiers(reroll_one="wound:at_least", reroll_wounds="non_critical")
    with pytest.raises(mh.ProfileError, match="Modifiers.reroll_one must be None or one of"):
        mh.Modifiers(reroll_one="save")
    # a buff that brings the contradiction is refused when the two combine
    with pytest.raises(mh.ProfileError, match="contradicts"):
        mh.Modifiers(reroll_one="hit").combined(mh.Modifiers(reroll_hits="failures"))
    # a re-roll of 1s leaves failed dice to re-roll: no contradiction
    assert mh.Modifiers(reroll_one="hit", reroll_hits="ones").changes() == [
        "reroll_hits ones", "reroll_one hit",
    ]  # fmt: skip
    mods, _ = parse_buff("reroll_one=wound")
    assert mods is not None and mods.reroll_one == "wound"


# --------------------------------------------------------------------------- damage
DAMAGE_WEAPONS = [
    mh.Weapon("D6", 1, 3, 8, -2, "D6"),
    mh.Weapon("Devastating", 2, 3, 6, -1, "D3", "[DEVASTATING WOUNDS]"),
    mh.Weapon("Melta", 1, 3, 8, -4, "D3", "[MELTA 2]"),
    mh.Weapon("Precise", 1, 3, 8, -2, "D3+1", "[PRECISION]"),
    mh.Weapon("2D3", 1, 3, 8, -2, "2D3"),
]
DAMAGE_TARGETS = [
    mh.Unit.of("W3", 2, 4, 3, 3),
    mh.Unit(
        "Led",
        [
            mh.ModelGroup(1, 4, 3, 2),
            mh.ModelGroup(1, 5, 3, 4, fnp=5, damage_reduction=1, character=True),
        ],
    ),  # fmt: skip
    mh.Unit("Halved", mh.ModelGroup(1, 4, 3, 5, fnp=6, halve_damage=True)),
]


@pytest.mark.parametrize("target", DAMAGE_TARGETS, ids=lambda u: u.name)
@pytest.mark.parametrize("weapon", DAMAGE_WEAPONS, ids=lambda w: w.name)
def test_a_command_re_roll_of_damage_equals_the_oracle(weapon: mh.Weapon, target: mh.Unit) -> None:
    # the oracle carries a flag of the re-roll used beside every state, die by die
    modifiers, context = mh.Modifiers(reroll_one="damage"), mh.Context(half_range=True)
    got = mh.attack([(weapon, 2)], target, modifiers=modifiers, context=context)
    want = oracle_attack([(weapon, 2)], target, modifiers=modifiers, context=context)
    what = f"{weapon.name} vs {target.name}"
    assert_pmf(got.killed.probabilities, want.killed, what)
    assert_pmf(got.damage.probabilities, want.damage, what)
    assert_pmf(got.pools[0].unsaved.probabilities, want.pools[0].unsaved, what)
    for g, group in enumerate(got.groups):
        assert_pmf(group.killed.probabilities, want.groups[g], what)


def test_each_pool_has_its_own_and_a_state_carries_on() -> None:
    weapons = [(mh.Weapon("D6", 1, 3, 8, -2, "D6"), 2), (mh.Weapon("D3", 1, 3, 8, -2, "D3"), 2)]
    modifiers = mh.Modifiers(reroll_one="damage")
    for target in DAMAGE_TARGETS[:2]:
        got = mh.attack(weapons, target, modifiers=modifiers)
        want = oracle_attack(weapons, target, modifiers=modifiers)
        assert_pmf(got.killed.probabilities, want.killed)
        assert_pmf(got.pools[1].unsaved.probabilities, want.pools[1].unsaved)
        # the second pool as an attack of its own, declared after the first (D34): the
        # "Led" target's boss (T5) is wounded on 3+ once the guard (T4) is gone
        first = [weapons[0]]
        carried = mh.attack(weapons[1:], target, modifiers=modifiers,
                            start=mh.attack(first, target, modifiers=modifiers))  # fmt: skip
        states = oracle_attack(first, target, modifiers=modifiers).states
        second = oracle_attack(weapons[1:], target, modifiers=modifiers, start=states)
        assert_pmf(carried.damage.probabilities, second.damage)
    # beside a defender's save re-roll
    stubborn = mh.Unit("Stubborn", list(DAMAGE_TARGETS[1].groups), reroll_saves="failures")
    got = mh.attack(weapons, stubborn, modifiers=modifiers)
    want = oracle_attack(weapons, stubborn, modifiers=modifiers)
    assert_pmf(got.damage.probabilities, want.damage)


def test_one_attack_re_rolls_as_the_optimal_re_roll_does() -> None:
    # with one damage roll, the command re-roll is that roll's optimal re-roll:
    # D6 against W3, every save failed: P(kill) = 5/6 x (4/6 + 2/6 x 4/6) = 5/6 x 8/9
    gun = mh.Weapon("Gun", 1, 2, 8, -4, "D6", "[TORRENT]")
    one = mh.Unit.of("One", 1, 4, 3, 3)
    command = mh.attack([(gun, 1)], one, modifiers=mh.Modifiers(reroll_one="damage"))
    optimal = mh.attack([(gun, 1)], one, modifiers=mh.Modifiers(reroll_damage="optimal"))
    assert command.killed.probabilities[1] == pytest.approx(5 / 6 * 8 / 9, abs=1e-15)
    np.testing.assert_allclose(command.damage.probabilities, optimal.damage.probabilities,
                               atol=1e-15)  # fmt: skip
    # more attacks: one re-roll is less than one for every roll, more than none
    means = [
        mh.attack([(gun, 4)], mh.Unit.of("Three", 3, 4, 3, 3), modifiers=m).damage.mean()
        for m in (None, mh.Modifiers(reroll_one="damage"), mh.Modifiers(reroll_damage="optimal"))
    ]
    assert means[0] < means[1] < means[2]


@pytest.mark.parametrize(
    "target",
    [mh.Unit.of("Lone", 6, 4, 3, 3), DAMAGE_TARGETS[1]],
    ids=["lone", "led"],
)
def test_the_monte_carlo_re_rolls_the_same_damage_roll(target: mh.Unit) -> None:
    weapons = [(mh.Weapon("Gun", 2, 3, 8, -2, "D6", "[DEVASTATING WOUNDS]"), 4)]
    modifiers = mh.Modifiers(reroll_one="damage")
    exact = mh.attack(weapons, target, modifiers=modifiers)
    trials = 60_000
    rolled = mh.simulate(weapons, target, modifiers=modifiers, trials=trials, rng=41)
    assert_matches(f"damage command re-roll vs {target.name}", exact.killed, rolled.killed, trials)
    assert_matches(f"damage command re-roll vs {target.name}", exact.damage, rolled.damage, trials)


def test_a_damage_command_re_roll_contradicts_a_damage_re_roll() -> None:
    with pytest.raises(mh.ProfileError, match="reroll_one='damage' contradicts reroll_damage"):
        mh.Modifiers(reroll_one="damage", reroll_damage="ones")
