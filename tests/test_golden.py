"""Hand-derived golden values for the 11th-edition attack sequence.

Every expected value is derived in the test with Fractions from the rules
(docs/rules.md §1), then compared once with an absolute tolerance of 1e-12.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction as F

import numpy as np
import pytest

import mathhammer as mh

ATOL = 1e-12


def close(got: float, want: F | int) -> None:
    assert abs(float(got) - float(want)) <= ATOL, (got, want, float(want))


def pmf_close(got: mh.Dist, want: Sequence[F | int]) -> None:
    g = np.zeros(max(len(want), got.n + 1))
    g[: got.n + 1] = got.probabilities
    w = np.zeros_like(g)
    w[: len(want)] = [float(x) for x in want]
    np.testing.assert_allclose(g, w, rtol=0, atol=ATOL)


def one_shot(strength: int, toughness: int, skill: int = 2) -> mh.AttackResult:
    weapon = mh.Weapon("w", attacks=1, skill=skill, strength=strength, ap=0, damage=1)
    return mh.attack(weapon, mh.Unit.of("t", models=1, toughness=toughness, save=7, wounds=1))


# --- hit and wound rolls -----------------------------------------------------------


@pytest.mark.parametrize(
    ("skill", "p_hit"),
    [(2, F(5, 6)), (3, F(4, 6)), (4, F(3, 6)), (5, F(2, 6)), (6, F(1, 6))],
)
def test_hit_probability_by_skill(skill: int, p_hit: F) -> None:
    # an unmodified 1 fails, an unmodified 6 hits, otherwise roll >= skill
    res = one_shot(strength=4, toughness=4, skill=skill)
    pmf_close(res.pools[0].hits, [1 - p_hit, p_hit])


@pytest.mark.parametrize(
    ("strength", "toughness", "needed"),
    [
        (8, 4, 2),  # S >= 2T: the rules' worked example (docs/rules.md §1.3)
        (7, 4, 3),  # S > T but not double: 3+
        (4, 4, 4),
        (4, 7, 5),  # S < T but not half: 5+
        (4, 8, 6),  # 2S <= T: 6+, checked before the 5+ rung
        (3, 7, 6),
        (1, 2, 6),
        (10, 5, 2),
        (9, 5, 3),
    ],
)
def test_wound_ladder(strength: int, toughness: int, needed: int) -> None:
    p_wound = F(7 - needed, 6)
    res = one_shot(strength, toughness, skill=2)
    pmf_close(res.pools[0].wounds, [1 - F(5, 6) * p_wound, F(5, 6) * p_wound])


def save_failure(ap: int, save: int, invuln: int | None = None) -> float:
    """P(an attack that reaches the save step inflicts damage), read off the engine."""
    weapon = mh.Weapon("w", attacks=1, skill=2, strength=8, ap=ap, damage=1)
    unit = mh.Unit("t", [mh.ModelGroup(1, toughness=4, save=save, wounds=1, invuln=invuln)])
    res = mh.attack(weapon, unit)
    p_reach = F(5, 6) * F(5, 6)
    return float(res.killed.probabilities[1]) / float(p_reach)


@pytest.mark.parametrize(
    ("ap", "save", "invuln", "p_fail"),
    [
        (0, 3, None, F(2, 6)),  # 1, 2 fail
        (-1, 3, None, F(3, 6)),  # AP -1 makes a 3+ save need a natural 4
        (-2, 3, None, F(4, 6)),  # ... and a natural 5 at AP -2
        (-4, 3, None, F(6, 6)),  # 6 - 4 = 2 < 3: no save at all, no "6 always saves"
        (0, 2, None, F(1, 6)),  # a natural 1 never saves, even on a 2+ save
        (-3, 3, 4, F(3, 6)),  # the invulnerable save ignores AP
        (-1, 3, 4, F(3, 6)),  # 4+ either way
        (0, 3, 4, F(2, 6)),  # the better save is used: armour 3+
        (-3, 2, 2, F(1, 6)),  # a 2+ invulnerable save still fails on a natural 1
        (0, 7, None, F(6, 6)),  # no armour save
        (0, 7, 5, F(4, 6)),
    ],
)
def test_save_check(ap: int, save: int, invuln: int | None, p_fail: F) -> None:
    assert abs(save_failure(ap, save, invuln) - float(p_fail)) <= ATOL


# --- damage ------------------------------------------------------------------------


def test_d3_on_one_wound_models_wastes_the_excess() -> None:
    # 1 attack, hits 5/6, wounds 5/6 (S8 vs T4), no save: 25/36 to kill exactly one model.
    weapon = mh.Weapon("w", attacks=1, skill=2, strength=8, ap=0, damage="D3")
    res = mh.attack(weapon, mh.Unit.of("t", models=3, toughness=4, save=7, wounds=1))
    pmf_close(res.killed, [F(11, 36), F(25, 36)])
    pmf_close(res.damage, [F(11, 36), F(25, 36)])  # never 2 or 3: no spill-over


def test_no_spill_over_between_models() -> None:
    # Two unsaved D2 attacks against W3 models: the first model loses 2, then dies to the
    # second attack with 1 excess wound lost; the second model is untouched.
    weapon = mh.Weapon("w", attacks=2, skill=2, strength=8, ap=0, damage=2)
    res = mh.attack(weapon, mh.Unit.of("t", models=2, toughness=4, save=7, wounds=3))
    p = F(25, 36)
    pmf_close(res.damage, [(1 - p) ** 2, 0, 2 * p * (1 - p), p * p])
    pmf_close(res.killed, [1 - p * p, p * p])


def test_feel_no_pain_per_wound_with_damage_above_wounds() -> None:
    # One unsaved D3 attack on a W2 model with FNP 5+: each wound is ignored on 5+ (1/3),
    # the model loses min(2, failed rolls).
    weapon = mh.Weapon("w", attacks=1, skill=2, strength=8, ap=0, damage="D3")
    unit = mh.Unit.of("t", models=1, toughness=4, save=7, wounds=2, fnp=5)
    lost = F(2, 3)  # P(a wound is lost)
    p_kill_given_d = {
        1: F(0),
        2: lost**2,
        3: 1 - (1 - lost) ** 3 - 3 * lost * (1 - lost) ** 2,  # at least 2 of 3 lost
    }
    p_hit_wound = F(25, 36)
    p_kill = p_hit_wound * sum(p_kill_given_d.values()) / 3
    res = mh.attack(weapon, unit)
    close(res.p_destroyed, p_kill)
    p_one = p_hit_wound * (lost + 2 * lost * (1 - lost) + 3 * lost * (1 - lost) ** 2) / 3
    pmf_close(res.damage, [1 - p_one - p_kill, p_one, p_kill])


def test_random_attacks_are_rolled_per_weapon() -> None:
    weapon = mh.Weapon("w", attacks="D3", skill=2, strength=8, ap=0, damage=1)
    res = mh.attack([(weapon, 2)], mh.Unit.of("t", models=10, toughness=4, save=2, wounds=1))
    # the sum of two D3: 2..6 with weights 1, 2, 3, 2, 1
    pmf_close(res.pools[0].attacks, [0, 0, F(1, 9), F(2, 9), F(3, 9), F(2, 9), F(1, 9)])


# --- allocation order and pooling ---------------------------------------------------


def led_unit() -> mh.Unit:
    return mh.Unit(
        "led",
        [
            mh.ModelGroup(1, toughness=4, save=4, wounds=1, name="Guard"),
            mh.ModelGroup(1, toughness=4, save=2, wounds=1, character=True, name="Boss"),
        ],
    )


def test_lowest_to_highest_resolution() -> None:
    # Two attacks reach the save step with probability (25/36)^2. Their dice are resolved
    # lowest first: the Guard (Sv4+) takes the lower die. The Boss (Sv2+) is hit only if
    # the Guard died to the low die (x <= 3) and the high die is a 1, so both dice are 1:
    # P = 1/36. Resolving the dice in random order instead would give 1/2 * 1/6 = 1/12.
    weapon = mh.Weapon("w", attacks=2, skill=2, strength=8, ap=0, damage=1)
    res = mh.attack(weapon, led_unit())
    p_boss = F(25, 36) ** 2 * F(1, 36)
    close(res.killed_in("Boss").at_least(1), p_boss)
    close(res.group("Boss").p_destroyed, p_boss)
    assert abs(res.killed_in("Boss").at_least(1) - float(F(25, 36) ** 2 / 12)) > 1e-3


def test_pooling_changes_the_answer() -> None:
    # The same two attacks as two pools (ASSAULT makes the profiles non-identical without
    # changing the maths): the first die meets the Guard alone (fails 1/2), the second
    # meets the Boss (fails 1/6), so P(Boss dies) = (25/36)^2 / 12, not (25/36)^2 / 36.
    plain = mh.Weapon("w", attacks=1, skill=2, strength=8, ap=0, damage=1)
    assault = mh.Weapon("w", attacks=1, skill=2, strength=8, ap=0, damage=1, abilities="ASSAULT")
    separate = mh.attack([plain, assault], led_unit())
    assert len(separate.pools) == 2
    close(separate.killed_in("Boss").at_least(1), F(25, 36) ** 2 / 12)
    pooled = mh.attack([plain, plain], led_unit())
    assert len(pooled.pools) == 1
    close(pooled.killed_in("Boss").at_least(1), F(25, 36) ** 2 / 36)


def test_wounded_model_carries_over_between_pools() -> None:
    # Two pools of one D1 attack each against one W2 model with no save: the model dies
    # only if both wound it, which needs the first pool's wound to be remembered.
    first = mh.Weapon("first", attacks=1, skill=2, strength=8, ap=0, damage=1)
    second = mh.Weapon("second", attacks=1, skill=2, strength=8, ap=-1, damage=1)
    res = mh.attack([first, second], mh.Unit.of("t", models=1, toughness=4, save=7, wounds=2))
    p = F(25, 36)
    close(res.p_destroyed, p * p)
    pmf_close(res.pools[0].killed, [1])
    pmf_close(res.pools[1].killed, [1 - p * p, p * p])


def test_unit_that_starts_wounded() -> None:
    # A W3 model that has lost 2 wounds dies to a single D1 attack.
    weapon = mh.Weapon("w", attacks=1, skill=2, strength=8, ap=0, damage=1)
    unit = mh.Unit("t", [mh.ModelGroup(2, toughness=4, save=7, wounds=3, wounds_lost=2)])
    res = mh.attack(weapon, unit)
    pmf_close(res.killed, [F(11, 36), F(25, 36)])


def test_leftover_attacks_are_lost() -> None:
    # Six sure-to-reach attacks (S8 vs T1... all dice still roll) against a single W1 model:
    # P(destroyed) = 1 - P(no attack unsaved); damage never exceeds 1.
    weapon = mh.Weapon("w", attacks=6, skill=2, strength=8, ap=0, damage=3)
    res = mh.attack(weapon, mh.Unit.of("t", models=1, toughness=4, save=7, wounds=1))
    p_miss = 1 - F(25, 36)
    pmf_close(res.damage, [p_miss**6, 1 - p_miss**6])
    unsaved = res.pools[0].unsaved  # dice after the kill are lost, not counted
    pmf_close(unsaved, [p_miss**6, 1 - p_miss**6])


def test_unsaved_counts_failed_saves_on_a_mixed_unit() -> None:
    # One die against the Guard: unsaved iff it reaches the save (25/36) and shows 1-3.
    weapon = mh.Weapon("w", attacks=1, skill=2, strength=8, ap=0, damage=1)
    res = mh.attack(weapon, led_unit())
    p = F(25, 36) * F(1, 2)
    pmf_close(res.pools[0].unsaved, [1 - p, p])
