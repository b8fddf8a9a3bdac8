"""Hand-derived values for every ability, modifier and defensive rule, and their interactions.

Each expected value is derived in the test with Fractions from docs/rules.md §3-§4 and compared
once with an absolute tolerance of 1e-12.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction as F
from typing import Any

import numpy as np
import pytest

import mathhammer as mh

ATOL = 1e-12
C, M = mh.Context, mh.Modifiers


def pmf_close(got: mh.Dist, want: Sequence[F | int]) -> None:
    g = np.zeros(max(len(want), got.n + 1))
    g[: got.n + 1] = got.probabilities
    w = np.zeros_like(g)
    w[: len(want)] = [float(x) for x in want]
    np.testing.assert_allclose(g, w, rtol=0, atol=ATOL)


def close(got: float, want: F | int) -> None:
    assert abs(float(got) - float(want)) <= ATOL, (got, float(want))


def gun(
    abilities: str = "",
    attacks: mh.Dice | int | str = 1,
    skill: int = 3,
    strength: int = 4,
    ap: int = 0,
    damage: mh.Dice | int | str = 1,
    melee: bool = False,
) -> mh.Weapon:
    return mh.Weapon("gun", attacks, skill, strength, ap, damage, abilities, melee=melee)


INFANTRY = mh.Unit.of("infantry", 10, 4, 7, 1, keywords="INFANTRY")  # no save
VEHICLE = mh.Unit.of("vehicle", 1, 4, 7, 20, keywords="VEHICLE")


def hits(weapon: mh.Weapon, target: mh.Unit = INFANTRY, **kw: Any) -> mh.Dist:
    return mh.attack(weapon, target, **kw).pools[0].hits


def wounds(weapon: mh.Weapon, target: mh.Unit = INFANTRY, **kw: Any) -> mh.Dist:
    return mh.attack(weapon, target, **kw).pools[0].wounds


# --- the hit roll ----------------------------------------------------------------------


def test_sustained_hits() -> None:
    # BS3+: 1-2 miss, 3-5 hit, a 6 is a Critical Hit scoring 1 extra hit
    pmf_close(hits(gun("SUSTAINED HITS 1")), [F(2, 6), F(3, 6), F(1, 6)])
    # D3 extra hits: a 6 scores 2, 3 or 4 hits
    pmf_close(hits(gun("SUSTAINED HITS D3")), [F(2, 6), F(3, 6), F(1, 18), F(1, 18), F(1, 18)])


def test_lethal_hits_wound_automatically() -> None:
    # S4 vs T4 wounds on 4+; a Critical Hit (1/6) wounds without a roll
    pmf_close(wounds(gun("LETHAL HITS")), [1 - F(5, 12), F(1, 6) + F(3, 6) * F(1, 2)])
    # choosing to roll instead: an ordinary hit again
    pmf_close(wounds(gun("LETHAL HITS"), context=C(lethal_hits="roll")), [F(2, 3), F(1, 3)])


def test_sustained_extra_hits_are_not_critical_and_never_lethal() -> None:
    # the crit wounds automatically; its one extra hit rolls to wound (1/2)
    p2 = F(1, 6) * F(1, 2)
    p1 = F(1, 6) * F(1, 2) + F(3, 6) * F(1, 2)
    pmf_close(wounds(gun("SUSTAINED HITS 1, LETHAL HITS")), [1 - p1 - p2, p1, p2])
    pmf_close(hits(gun("SUSTAINED HITS 1, LETHAL HITS")), [F(2, 6), F(3, 6), F(1, 6)])


def test_torrent_hits_automatically_and_never_critically() -> None:
    pmf_close(hits(gun("TORRENT, SUSTAINED HITS 2", attacks=3)), [0, 0, 0, 1])
    pmf_close(wounds(gun("TORRENT, LETHAL HITS")), [F(1, 2), F(1, 2)])


def test_critical_hits_on_five_plus() -> None:
    pmf_close(
        hits(gun("SUSTAINED HITS 1"), modifiers=M(critical_hit=5)), [F(2, 6), F(2, 6), F(2, 6)]
    )


@pytest.mark.parametrize(
    ("reroll", "p_hit"),
    [
        ("ones", F(4, 6) + F(1, 6) * F(4, 6)),
        ("failures", F(4, 6) + F(2, 6) * F(4, 6)),
        ("non_critical", F(1, 6) + F(5, 6) * F(4, 6)),
    ],
)
def test_hit_rerolls(reroll: str, p_hit: F) -> None:
    pmf_close(hits(gun(), modifiers=M(reroll_hits=reroll)), [1 - p_hit, p_hit])


def test_fishing_for_critical_hits() -> None:
    # re-rolling every non-critical result: P(crit) = 1/6 + 5/6 * 1/6
    h = hits(gun("SUSTAINED HITS 1"), modifiers=M(reroll_hits="non_critical"))
    p_crit = F(1, 6) + F(5, 6) * F(1, 6)
    p_hit = F(5, 6) * F(3, 6)  # re-rolled into 3-5
    pmf_close(h, [1 - p_crit - p_hit, p_hit, p_crit])


def test_heavy_cover_and_the_roll_modifier_cap() -> None:
    heavy = gun("HEAVY", skill=4)
    still = C(remained_stationary=True)
    pmf_close(hits(heavy, context=still), [F(2, 6), F(4, 6)])  # 3+ with the +1
    pmf_close(hits(heavy), [F(3, 6), F(3, 6)])  # moved: no bonus
    # cover worsens BS to 5+ outside the cap; heavy +1 and -1 to hit cancel: 5+
    both = hits(
        heavy, context=C(remained_stationary=True, target_in_cover=True), modifiers=M(hit=-1)
    )
    pmf_close(both, [F(4, 6), F(2, 6)])
    # +1 and heavy +1 are capped at +1, cover still applies: BS5+ at +1 hits on 4+
    capped = hits(
        heavy, context=C(remained_stationary=True, target_in_cover=True), modifiers=M(hit=1)
    )
    pmf_close(capped, [F(3, 6), F(3, 6)])
    # cover and -1 to hit on BS3+: 4+ then -1 -> natural 5+
    pmf_close(hits(gun(), context=C(target_in_cover=True), modifiers=M(hit=-1)), [F(4, 6), F(2, 6)])


def test_cover_never_worse_than_six_plus_and_not_in_melee() -> None:
    pmf_close(hits(gun(skill=6), context=C(target_in_cover=True)), [F(5, 6), F(1, 6)])
    pmf_close(hits(gun(), context=C(target_in_cover=True, melee=True)), [F(2, 6), F(4, 6)])
    pmf_close(hits(gun("IGNORES COVER"), context=C(target_in_cover=True)), [F(2, 6), F(4, 6)])
    stealthy = mh.Unit.of("s", 5, 4, 7, 1, stealth=True)
    pmf_close(hits(gun(), stealthy), [F(3, 6), F(3, 6)])


def test_indirect_fire() -> None:
    # unmodified 1-5 fail; cover is given (BS5+ -> 6+)
    pmf_close(hits(gun("INDIRECT FIRE", skill=5)), [F(5, 6), F(1, 6)])
    spotted = C(remained_stationary=True, spotted=True)
    pmf_close(hits(gun("INDIRECT FIRE", skill=4), context=spotted), [F(4, 6), F(2, 6)])
    pmf_close(
        hits(gun("INDIRECT FIRE, IGNORES COVER", skill=4), context=spotted), [F(3, 6), F(3, 6)]
    )
    # no hit re-rolls
    pmf_close(
        hits(gun("INDIRECT FIRE", skill=4), context=spotted, modifiers=M(reroll_hits="failures")),
        [F(4, 6), F(2, 6)],
    )


# --- the wound roll ----------------------------------------------------------------------


def test_twin_linked() -> None:
    torrent = "TORRENT, TWIN-LINKED"
    pmf_close(wounds(gun(torrent)), [F(1, 4), F(3, 4)])  # 4+ re-rolling failures
    # fishing for crits re-rolls 4s and 5s too: fewer wounds, more criticals
    fish = mh.attack(
        gun(torrent + ", DEVASTATING WOUNDS"), INFANTRY, context=C(reroll_policy="non_critical")
    )
    p_crit = F(1, 6) + F(5, 6) * F(1, 6)
    pmf_close(fish.pools[0].wounds, [1 - p_crit - F(5, 6) * F(2, 6), p_crit + F(5, 6) * F(2, 6)])
    pmf_close(fish.pools[0].devastating, [1 - p_crit, p_crit])


def test_lethal_hits_with_twin_linked() -> None:
    # the automatic wound is not rolled; the ordinary hit's wound roll is re-rolled
    pmf_close(wounds(gun("LETHAL HITS, TWIN-LINKED")), [1 - F(13, 24), F(1, 6) + F(3, 6) * F(3, 4)])


def test_lance_on_the_charge() -> None:
    lance = gun("LANCE, TORRENT")
    pmf_close(wounds(lance, context=C(charged=True, melee=True)), [F(2, 6), F(4, 6)])
    pmf_close(wounds(lance, context=C(melee=True)), [F(3, 6), F(3, 6)])
    # +1 from Lance and +1 from a buff are capped at +1; a natural 1 still fails
    pmf_close(
        wounds(gun("LANCE, TORRENT", strength=8), context=C(charged=True), modifiers=M(wound=1)),
        [F(1, 6), F(5, 6)],
    )


def test_anti_feeds_devastating_wounds() -> None:
    weapon = gun("TORRENT, ANTI-INFANTRY 4+, DEVASTATING WOUNDS", damage=2)
    res = mh.attack(weapon, INFANTRY)
    pmf_close(res.pools[0].devastating, [F(1, 2), F(1, 2)])  # every wound (4+) is critical
    pmf_close(res.killed, [F(1, 2), F(1, 2)])
    pmf_close(res.damage, [F(1, 2), F(1, 2)])  # D2 on a W1 model: one model, the rest lost
    # against a target without the keyword only a 6 is critical
    pmf_close(mh.attack(weapon, VEHICLE).pools[0].devastating, [F(5, 6), F(1, 6)])


def test_devastating_wounds_come_after_the_pools_normal_damage() -> None:
    # Torrent, S4 vs T4, D2: per attack a 6 is devastating (1/6), 4-5 a normal wound (2/6).
    # Group 1: one W2 model with no save; group 2: one W2 model with a 2+ save.
    # Save dice go first: a normal wound always kills model 1 (no save). Then the
    # devastating wound kills model 2. Both die if (2 normal, the higher save die a 1:
    # 1/36), or (1 normal, 1 devastating), or (2 devastating).
    unit = mh.Unit("u", [mh.ModelGroup(1, 4, 7, 2), mh.ModelGroup(1, 4, 2, 2)])
    res = mh.attack(gun("TORRENT, DEVASTATING WOUNDS", attacks=2, damage=2), unit)
    want = F(1, 9) * F(1, 36) + 2 * F(2, 6) * F(1, 6) + F(1, 36)
    close(res.p_destroyed, want)
    assert want == F(23, 162)


def test_devastating_wounds_ignore_invulnerable_saves_and_meet_feel_no_pain() -> None:
    unit = mh.Unit.of("u", 1, 4, 2, 3, invuln=2, fnp=5, keywords="INFANTRY")
    res = mh.attack(gun("TORRENT, DEVASTATING WOUNDS, ANTI-INFANTRY 2+", damage=3), unit)
    # every wound roll of 2+ is critical (5/6); 3 mortal wounds, each ignored on a 5+
    close(res.p_destroyed, F(5, 6) * F(2, 3) ** 3)


# --- attack dice and damage --------------------------------------------------------------


@pytest.mark.parametrize(("models", "dice"), [(4, 1), (5, 2), (10, 3), (14, 3), (20, 5)])
def test_blast(models: int, dice: int) -> None:
    target = mh.Unit.of("t", models, 4, 7, 1)
    want = [F(0)] * dice + [F(1)]
    pmf_close(mh.attack(gun("BLAST"), target).pools[0].attacks, want)


def test_cleave_only_in_melee_at_one_target() -> None:
    target = mh.Unit.of("t", 10, 4, 7, 1)
    pmf_close(
        mh.attack(gun("CLEAVE 1"), target, context=C(melee=True)).pools[0].attacks, [0, 0, 0, 1]
    )
    pmf_close(mh.attack(gun("CLEAVE 1"), target).pools[0].attacks, [0, 1])
    split = C(melee=True, single_target=False)
    pmf_close(mh.attack(gun("CLEAVE 1"), target, context=split).pools[0].attacks, [0, 1])


def test_rapid_fire_at_half_range() -> None:
    res = mh.attack([(gun("RAPID FIRE D3"), 2)], INFANTRY, context=C(half_range=True))
    # each weapon: 1 + D3 attacks, so 2 + 2D3: 4..8 with weights 1, 2, 3, 2, 1
    pmf_close(res.pools[0].attacks, [0, 0, 0, 0, F(1, 9), F(2, 9), F(3, 9), F(2, 9), F(1, 9)])
    pmf_close(mh.attack([(gun("RAPID FIRE D3"), 2)], INFANTRY).pools[0].attacks, [0, 0, 1])


def one_damage(weapon: mh.Weapon, group: mh.ModelGroup, **kw: Any) -> mh.Dist:
    """Wounds lost by one big model to one sure attack."""
    return mh.attack(weapon, mh.Unit("t", [group]), **kw).damage


BIG = mh.ModelGroup(1, 4, 7, 30)


def test_melta_adds_damage_at_half_range() -> None:
    melta = gun("TORRENT, MELTA 2", strength=8, damage="D3")  # wounds on 2+: 5/6
    pmf_close(
        one_damage(melta, BIG, context=C(half_range=True)),
        [F(1, 6), 0, 0, F(5, 18), F(5, 18), F(5, 18)],
    )
    pmf_close(one_damage(melta, BIG), [F(1, 6), F(5, 18), F(5, 18), F(5, 18)])


def test_damage_modifier_order() -> None:
    sure = "TORRENT"
    # halve then subtract: D4 -> 2 -> 1 (subtracting first would give 2)
    halved = mh.ModelGroup(1, 4, 7, 30, halve_damage=True, damage_reduction=1)
    pmf_close(one_damage(gun(sure, strength=8, damage=4), halved), [F(1, 6), F(5, 6)])
    # melta adds before halving: (2 + 2) / 2 - 1 = 1
    pmf_close(
        one_damage(
            gun(sure + ", MELTA 2", strength=8, damage=2), halved, context=C(half_range=True)
        ),
        [F(1, 6), F(5, 6)],
    )
    # set, then multiply, then add: set 3, x2, +1 = 7, halved up to 4, minus 1 = 3
    pmf_close(
        one_damage(
            gun(sure, strength=8, damage="D6"),
            halved,
            modifiers=M(damage_set=3, damage_multiply=2, damage_add=1),
        ),
        [F(1, 6), 0, 0, F(5, 6)],
    )
    # D6 halved and reduced: 1,1,2,2,3,3 -> 1,1,1,1,2,2 (never below 1)
    pmf_close(
        one_damage(gun(sure, strength=8, damage="D6"), halved),
        [F(1, 6), F(5, 6) * F(4, 6), F(5, 6) * F(2, 6)],
    )
    # MELTA is part of the add step: D1 - 2 + 2 = 1 (raising D to 1 before adding X would give 3)
    pmf_close(
        one_damage(
            gun(sure + ", MELTA 2", strength=8),
            BIG,
            context=C(half_range=True),
            modifiers=M(damage_add=-2),
        ),
        [F(1, 6), F(5, 6)],
    )
    # a damage reduction of 1 cannot take D1 below 1
    reduced = mh.ModelGroup(1, 4, 7, 30, damage_reduction=1)
    pmf_close(one_damage(gun(sure, strength=8), reduced), [F(1, 6), F(5, 6)])


def test_characteristic_modifiers_and_bounds() -> None:
    # S4 +4 = S8 vs T4 wounds on 2+; AP 0 -2 beats a 3+ save on 1-4
    weapon = gun("TORRENT")
    unit = mh.Unit.of("t", 1, 4, 3, 1)
    res = mh.attack(weapon, unit, modifiers=M(strength=4, ap=-2))
    close(res.p_destroyed, F(5, 6) * F(4, 6))
    # BS can't be improved past 2+; AP can't go above 0
    res = mh.attack(gun(skill=2), mh.Unit.of("t", 1, 4, 2, 1), modifiers=M(skill=-3, ap=2))
    close(res.p_destroyed, F(5, 6) * F(1, 2) * F(1, 6))


# --- allocation, precision, hazards, mortal wounds ----------------------------------------


def led() -> mh.Unit:
    return mh.Unit(
        "led",
        [
            mh.ModelGroup(3, 4, 7, 1, name="Guard"),
            mh.ModelGroup(1, 4, 7, 2, character=True, name="Boss"),
        ],
    )


def test_precision_targets_the_character() -> None:
    weapon = gun("TORRENT, PRECISION", strength=8, damage=2)
    res = mh.attack(weapon, led())
    close(res.killed_in("Boss").at_least(1), F(5, 6))
    close(res.killed_in("Guard").mean(), 0)
    plain = mh.attack(gun("TORRENT", strength=8, damage=2), led())
    close(plain.killed_in("Boss").mean(), 0)


def test_a_character_wounded_by_precision_stays_wounded() -> None:
    # pool 1 (Precision, D1) wounds the Boss on 5/6; pool 2 (D1, 4 sure attacks on 2+) kills
    # the three Guards first, then a wounded Boss needs one more wound.
    first = gun("TORRENT, PRECISION", strength=8)
    second = gun("TORRENT", strength=8, attacks=4, ap=-1)
    res = mh.attack([first, second], led())
    p = F(5, 6)
    boss_dies = p * p**4 + (1 - p) * 0  # the wounded Boss dies iff all 4 wound
    close(res.killed_in("Boss").at_least(1), boss_dies)


def test_hazardous() -> None:
    weapon = gun("HAZARDOUS")
    res = mh.attack([(weapon, 3)], INFANTRY)
    pmf_close(res.hazardous, [F(8, 27), F(12, 27), F(6, 27), F(1, 27)])
    big = mh.attack([(weapon, 3)], INFANTRY, context=C(attacker_monster_or_vehicle=True))
    pmf_close(big.hazardous, [F(8, 27), 0, 0, F(12, 27), 0, 0, F(6, 27), 0, 0, F(1, 27)])
    assert mh.attack(gun(), INFANTRY).hazardous.mean() == 0


def test_mortal_wounds_spill_over_with_feel_no_pain() -> None:
    unit = mh.Unit.of("t", 3, 4, 3, 2)
    res = mh.attack([mh.MortalWounds(3)], unit)
    pmf_close(res.damage, [0, 0, 0, 1])
    pmf_close(res.killed, [0, 1])  # 2 wounds kill one model, the third spills over
    guarded = mh.attack([mh.MortalWounds(2)], mh.Unit.of("t", 3, 4, 3, 1, fnp=5))
    lost = F(2, 3)
    pmf_close(guarded.killed, [(1 - lost) ** 2, 2 * lost * (1 - lost), lost**2])


def test_mortal_wounds_then_a_weapon() -> None:
    # 1 mortal wound leaves a W2 model wounded; the next pool's sure wound finishes it
    unit = mh.Unit.of("t", 2, 4, 7, 2)
    res = mh.attack([mh.MortalWounds(1), gun("TORRENT", strength=8)], unit)
    pmf_close(res.killed, [F(1, 6), F(5, 6)])


def test_a_melee_weapon_is_melee_whatever_the_context() -> None:
    # no cover in melee, and CLEAVE counts, even without Context(melee=True)
    sword = gun(melee=True)
    stealthy = mh.Unit.of("s", 5, 4, 7, 1, stealth=True)
    pmf_close(hits(sword, stealthy), [F(2, 6), F(4, 6)])
    axe = mh.Weapon("Axe", 3, 3, 5, -1, 1, "[CLEAVE 1]", melee=True)
    ten = mh.Unit.of("t", 10, 3, 5, 1)
    pmf_close(mh.attack(axe, ten).pools[0].attacks, [0, 0, 0, 0, 0, 1])
