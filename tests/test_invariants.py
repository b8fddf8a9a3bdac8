"""Invariants of the exact engine over the scenario registry (docs/architecture.md §4.3).

Every distribution of every scenario (models destroyed, wounds lost, each allocation group,
each pool stage, devastating wounds, hazardous mortal wounds) is a proper distribution with
consistent cdf/sf/at_least/mean; and the result as a whole is consistent: killed never exceeds
the models, damage never exceeds the wounds, the groups add up to the unit, the last pool is
the final result, and pools only ever add kills.

Abilities break some of the core-sequence invariants, so those are adapted, not dropped:

* [SUSTAINED HITS] scores extra hits, so hits <= attacks only holds for pools without it
  (hits can exceed attacks with it, which is checked). hits >= wounds >= unsaved still holds
  pathwise with every ability: each hit (extra hits included) leads to at most one wound
  (rolled, or automatic with [LETHAL HITS]); a wound goes to the save step or, when it is a
  devastating Critical Wound, skips it, so unsaved + devastating <= wounds.
* [PRECISION] can destroy a CHARACTER before its bodyguard, so "groups are destroyed in
  allocation order" and "the unit is destroyed when its last group is" only hold without it.
* The hand-derived stage means (P(hit) = (7 - BS)/6 and the S/T ladder) only hold for plain
  scenarios; each ability scenario has its own hand-derived means in ``HAND_MEANS`` and, for
  homogeneous units with a fixed number of attack dice, hand-derived killed/damage pmfs.

Tolerance: 1e-12 absolute for probabilities, 1e-12 relative for means.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction as F
from functools import cache
from typing import TYPE_CHECKING

import numpy as np
import pytest
from scenarios import SCENARIOS, Scenario, scenario_ids

import mathhammer as mh

if TYPE_CHECKING:
    from _pytest.mark.structures import ParameterSet

TOL = 1e-12
STAGES = ("attacks", "hits", "wounds", "unsaved", "devastating", "killed")


@cache
def result(name: str) -> mh.AttackResult:
    return SCENARIOS[name].attack()


def dists_of(res: mh.AttackResult) -> Iterator[tuple[str, mh.Dist]]:
    """Every distribution an AttackResult exposes, with a label."""
    yield "killed", res.killed
    yield "damage", res.damage
    for i, g in enumerate(res.groups):
        yield f"group{i}", g.killed
    for j, p in enumerate(res.pools):
        for stage in STAGES:
            yield f"pool{j}-{stage}", getattr(p, stage)
    yield "hazardous", res.hazardous


def _dist_params() -> list[ParameterSet]:
    params: list[ParameterSet] = []
    for name, s in SCENARIOS.items():
        labels = ["killed", "damage", "hazardous"]
        labels += [f"group{i}" for i in range(len(s.target.groups))]
        for j, _step in enumerate(s.steps):
            labels += [f"pool{j}-{stage}" for stage in STAGES]
        params += [pytest.param(name, label, id=f"{name}-{label}") for label in labels]
    return params


def _dist(name: str, label: str) -> mh.Dist:
    return dict(dists_of(result(name)))[label]


def _close(a: float, b: float, rel: float = TOL) -> bool:
    return abs(a - b) <= rel * max(1.0, abs(a), abs(b))


# --------------------------------------------------------------------------- every Dist
@pytest.mark.parametrize(("name", "label"), _dist_params())
class TestEveryDistribution:
    def test_total_probability_is_one(self, name: str, label: str) -> None:
        d = _dist(name, label)
        assert abs(float(np.sum(d.probabilities)) - 1.0) <= TOL

    def test_pmf_is_non_negative_and_finite(self, name: str, label: str) -> None:
        pmf = _dist(name, label).probabilities
        assert np.all(np.isfinite(pmf))
        assert np.all(pmf >= 0.0)

    def test_cdf_is_monotone_and_ends_at_one(self, name: str, label: str) -> None:
        d = _dist(name, label)
        cdf = d.cdf(np.arange(d.n + 1))
        assert len(cdf) == d.n + 1
        assert np.all(np.diff(cdf) >= 0.0)
        assert cdf[0] >= 0.0
        assert abs(cdf[-1] - 1.0) <= TOL
        assert d.cdf(-1) == 0.0
        assert d.cdf(d.n + 5) == 1.0

    def test_sf_is_one_minus_cdf(self, name: str, label: str) -> None:
        d = _dist(name, label)
        ks = np.arange(d.n + 1)
        np.testing.assert_allclose(d.sf(ks), 1.0 - d.cdf(ks), rtol=0, atol=TOL)
        for k in range(-2, d.n + 3):
            assert abs(d.sf(k) - (1.0 - d.cdf(k))) <= TOL, k
            assert abs(d.at_most(k) - d.cdf(k)) <= TOL, k

    def test_at_least_is_sf_of_k_minus_one(self, name: str, label: str) -> None:
        d = _dist(name, label)
        for k in range(-1, d.n + 3):
            assert abs(d.at_least(k) - d.sf(k - 1)) <= TOL, k
            assert abs(d.at_least(k) - float(np.sum(d.probabilities[max(k, 0) :]))) <= TOL, k
        assert d.at_least(0) == pytest.approx(1.0, abs=TOL)

    def test_moments_match_the_pmf(self, name: str, label: str) -> None:
        d = _dist(name, label)
        k = np.arange(d.n + 1)
        mean = float(np.dot(k, d.probabilities))
        var = float(np.dot((k - mean) ** 2, d.probabilities))
        assert _close(d.mean(), mean)
        assert abs(d.var() - var) <= 1e-10 * max(1.0, var)
        assert abs(d.std() - np.sqrt(d.var())) <= TOL * max(1.0, d.std())

    def test_quantiles_are_consistent(self, name: str, label: str) -> None:
        d = _dist(name, label)
        lo, hi = d.support()
        assert d.probabilities[lo] > 0 and d.probabilities[hi] > 0
        assert lo <= d.median() <= hi
        assert d.median() == d.ppf(0.5)
        assert d.mode() == int(np.argmax(d.probabilities))
        cdf = d.cdf(np.arange(d.n + 1))
        for q in (0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99):
            k = d.ppf(q)
            assert cdf[k] >= q - 1e-12, q
            assert k == lo or cdf[k - 1] < q + 1e-12, q


# --------------------------------------------------------------------------- whole results
def _precision_groups(name: str) -> set[int]:
    """The CHARACTER groups a [PRECISION] pool of the scenario makes current (docs/rules.md D18)."""
    s = SCENARIOS[name]
    if not s.uses("PRECISION"):
        return set()
    chosen = s.context.precision_group if s.context is not None else None
    if chosen is not None:
        return {s.target.group_index(chosen)}
    characters = [i for i, g in enumerate(s.target.groups) if g.character]
    return set(characters[:1])  # the first CHARACTER group; none without a CHARACTER


def _sustained(name: str, step: int) -> bool:
    """The step's pool scores extra hits: [SUSTAINED HITS] applies and [TORRENT] does not
    (automatic hits are never critical)."""
    kinds = SCENARIOS[name].kinds(step)
    return "SUSTAINED HITS" in kinds and "TORRENT" not in kinds


@pytest.mark.parametrize("name", scenario_ids())
class TestResult:
    def test_killed_never_exceeds_models(self, name: str) -> None:
        res, unit = result(name), SCENARIOS[name].target
        assert res.killed.n <= unit.models
        assert res.killed.support()[1] <= unit.models
        for g in res.groups:
            assert g.killed.support()[1] <= g.group.count

    def test_damage_never_exceeds_wounds_left(self, name: str) -> None:
        res, unit = result(name), SCENARIOS[name].target
        assert res.damage.support()[1] <= unit.total_wounds

    def test_damage_dominates_killed(self, name: str) -> None:
        # every destroyed model lost at least one wound in this attack
        res = result(name)
        n = max(res.damage.n, res.killed.n) + 1
        assert np.all(res.damage.cdf(np.arange(n)) <= res.killed.cdf(np.arange(n)) + TOL)

    def test_group_means_add_up(self, name: str) -> None:
        res = result(name)
        assert _close(sum(g.killed.mean() for g in res.groups), res.killed.mean())

    def test_groups_are_destroyed_in_order(self, name: str) -> None:
        # a model of a later group can only be destroyed once the earlier group is gone,
        # except for a CHARACTER that [PRECISION] makes the current group
        res, focus = result(name), _precision_groups(name)
        for i, (before, after) in enumerate(zip(res.groups, res.groups[1:], strict=False)):
            if i + 1 not in focus:
                assert after.killed.at_least(1) <= before.p_destroyed + TOL

    def test_p_destroyed(self, name: str) -> None:
        res, unit = result(name), SCENARIOS[name].target
        assert abs(res.p_destroyed - res.killed.at_least(unit.models)) <= TOL
        assert abs(res.p_destroyed - res.damage.at_least(unit.total_wounds)) <= 1e-10
        for g in res.groups:
            assert res.p_destroyed <= g.p_destroyed + TOL
        if not _precision_groups(name):  # else the CHARACTER may die first
            assert abs(res.p_destroyed - res.groups[-1].p_destroyed) <= TOL

    def test_killed_in_by_label(self, name: str) -> None:
        res = result(name)
        for i, g in enumerate(res.groups):
            assert res.killed_in(i) is g.killed
            if g.group.name:
                assert res.killed_in(g.group.name).allclose(g.killed, atol=0.0)

    def test_last_pool_killed_is_the_result(self, name: str) -> None:
        res = result(name)
        assert res.pools[-1].killed.allclose(res.killed, atol=TOL)

    def test_pool_killed_is_stochastically_non_decreasing(self, name: str) -> None:
        res = result(name)
        n = SCENARIOS[name].target.models + 1
        ks = np.arange(n)
        for earlier, later in zip(res.pools, res.pools[1:], strict=False):
            assert np.all(later.killed.cdf(ks) <= earlier.killed.cdf(ks) + TOL)

    def test_stages_only_lose_dice(self, name: str) -> None:
        # pathwise, so the cdfs are ordered: attacks >= hits (not with [SUSTAINED HITS]),
        # hits >= wounds >= unsaved, wounds >= devastating; and in the mean,
        # unsaved + devastating <= wounds (a devastating wound skips the save step)
        for j, p in enumerate(result(name).pools):
            chains = [[p.hits, p.wounds, p.unsaved], [p.wounds, p.devastating]]
            if not _sustained(name, j):
                chains[0].insert(0, p.attacks)
            for chain in chains:
                ks = np.arange(max(d.n for d in chain) + 1)
                for more, fewer in zip(chain, chain[1:], strict=False):
                    assert np.all(fewer.cdf(ks) >= more.cdf(ks) - TOL)
            assert p.unsaved.mean() + p.devastating.mean() <= p.wounds.mean() + TOL

    def test_hazardous_only_with_hazardous_weapons(self, name: str) -> None:
        res = result(name)
        if not SCENARIOS[name].uses("HAZARDOUS"):
            assert res.hazardous.n == 0 and abs(res.hazardous.probabilities[0] - 1.0) <= TOL
        for j, p in enumerate(res.pools):
            if "DEVASTATING WOUNDS" not in SCENARIOS[name].kinds(j):
                assert p.devastating.n == 0 and abs(p.devastating.probabilities[0] - 1.0) <= TOL


SUSTAINED_POOLS = [
    pytest.param(n, j, id=f"{n}-pool{j}")
    for n, s in SCENARIOS.items()
    for j in range(len(s.steps))
    if _sustained(n, j)
]


@pytest.mark.parametrize(("name", "pool"), SUSTAINED_POOLS)
def test_sustained_hits_can_exceed_attacks(name: str, pool: int) -> None:
    # why attacks >= hits is not asserted for these pools: a 6 on every die scores more hits
    p = result(name).pools[pool]
    assert p.hits.support()[1] > p.attacks.support()[1]


PRECISION_SCENARIOS = [n for n in SCENARIOS if _precision_groups(n)]


@pytest.mark.parametrize("name", PRECISION_SCENARIOS)
def test_precision_can_destroy_the_character_first(name: str) -> None:
    # why the allocation-order checks skip the [PRECISION] group: it is not used in order
    res = result(name)
    for g in _precision_groups(name):
        assert res.groups[g].killed.at_least(1) > res.groups[g - 1].p_destroyed + 1e-3


PLAIN = [n for n, s in SCENARIOS.items() if s.plain]


@pytest.mark.parametrize("name", PLAIN)
def test_stage_means_follow_the_per_die_probabilities(name: str) -> None:
    # hand-derived: P(hit) = (7 - BS)/6 (1 fails, 6 hits); P(wound) from the S/T ladder.
    # Only for plain scenarios: abilities, context and modifiers change both.
    s = SCENARIOS[name]
    res = result(name)
    toughness = _unit_toughness(s.target)
    for p, pool in zip(res.pools, s.steps, strict=True):
        assert isinstance(pool, mh.Pool)
        w = pool.weapon
        n = sum(count * mh.parse_dice(weapon.attacks).mean for weapon, count in pool.weapons)
        skill, strength = _skill_and_strength(w)
        p_hit = (7 - skill) / 6
        p_wound = (7 - _wound_roll(strength, toughness)) / 6
        assert _close(p.attacks.mean(), n)
        assert _close(p.hits.mean(), n * p_hit)
        assert _close(p.wounds.mean(), n * p_hit * p_wound)


def _skill_and_strength(weapon: mh.Weapon) -> tuple[int, int]:
    """An 11th-edition weapon's skill and strength (a plain scenario is not classic)."""
    assert weapon.skill is not None and isinstance(weapon.strength, int)
    return weapon.skill, weapon.strength


def _plain_pools(scenario: Scenario) -> list[mh.Pool]:
    """A plain scenario's steps, which are all weapon pools (no mortal-wound step)."""
    pools = [p for p in scenario.steps if isinstance(p, mh.Pool)]
    assert len(pools) == len(scenario.steps)
    return pools


def _unit_toughness(unit: mh.Unit) -> int:
    """docs/rules.md §4.6, D21: the highest T among the non-CHARACTER models (all if none)."""
    bodies = [g.toughness for g in unit.groups if not g.character]
    return max(bodies or [g.toughness for g in unit.groups])


def _wound_roll(strength: int, toughness: int) -> int:
    """docs/rules.md §1.3, D1: S >= 2T 2+; S > T 3+; S == T 4+; 2S <= T 6+; else 5+."""
    if strength >= 2 * toughness:
        return 2
    if strength > toughness:
        return 3
    if strength == toughness:
        return 4
    if 2 * strength <= toughness:
        return 6
    return 5


W1_NO_FNP_SINGLE_POOL = [
    n
    for n, s in SCENARIOS.items()
    if all(g.wounds == 1 and g.fnp is None for g in s.target.groups)
    and len(s.steps) == 1
    and isinstance(s.steps[0], mh.Pool)
    and not s.uses("DEVASTATING WOUNDS")  # a devastating wound kills without a save die
]


@pytest.mark.parametrize("name", W1_NO_FNP_SINGLE_POOL)
def test_w1_models_without_fnp_die_to_every_unsaved_attack(name: str) -> None:
    res = result(name)
    assert res.killed.allclose(res.pools[0].unsaved, atol=TOL)
    assert res.killed.allclose(res.damage, atol=TOL)


# --------------------------------------------------------------------------- ability scenarios
@dataclass(frozen=True)
class Means:
    """Hand-derived means of one step's stages."""

    attacks: F | int
    hits: F | int
    wounds: F | int
    devastating: F | int = 0


#: Hand-derived stage means of every scenario with abilities, context or modifiers
#: (docs/rules.md §3.3). p(BS n+) = (7 - n)/6; "crit" is an unmodified 6 unless stated.
HAND_MEANS: dict[str, list[Means]] = {
    # 20 dice; 3-5 hit (1/2), a 6 scores 2 hits: 5/6 hits a die; S4 vs T3 wounds 3+ (2/3)
    "sustained_1_geq": [Means(20, F(50, 3), F(100, 9))],
    # 12 dice; BS4: 4-5 (1/3) one hit, 6 three hits: 5/6 a die; S5 vs T4 3+
    "sustained_2_meq": [Means(12, 10, F(20, 3))],
    # 10 dice; 3-5 one hit, 6: 1 + D3 (mean 3): 1/2 + 1/2 = 1 a die; S4 vs T4 4+
    "sustained_d3_meq": [Means(10, 10, 5)],
    # SUSTAINED HITS 2 (VEHICLE): 3-5 one hit, 6 three: 1 a die; S6 vs T10 5+
    "sustained_keyword_vehicle": [Means(12, 12, 4)],
    # SUSTAINED HITS 1 only: 5/6 a die; S6 vs T3 2+
    "sustained_keyword_infantry": [Means(12, 10, F(25, 3))],
    # 10 dice; BS4: 4-5 roll to wound on 5+ (S9 vs T10), a 6 wounds: 2/6 * 2/6 + 1/6 = 5/18
    "lethal_hits_vehicle": [Means(10, 5, F(25, 9))],
    # 15 dice; 3-5: one hit rolling 3+; 6: an automatic wound and one extra hit rolling 3+:
    # hits 5/6 a die; wounds 1/2 * 2/3 + 1/6 * (1 + 2/3) = 11/18
    "sustained_lethal_meq": [Means(15, F(25, 2), F(55, 6))],
    # 10 dice, hits 2/3; ANTI-INFANTRY 4+ on a 4+ wound roll: every wound is critical
    "devastating_anti_infantry_meq": [Means(10, F(20, 3), F(10, 3), F(10, 3))],
    # 6 dice, BS2 (5/6); S5 vs T4 3+ (2/3); a 6 (1/6) is devastating
    "devastating_d3_vs_w2": [Means(6, 5, F(10, 3), F(5, 6))],
    # 8 dice, BS3; S6 vs T5 3+; 6s devastating
    "devastating_vs_fnp": [Means(8, F(16, 3), F(32, 9), F(8, 9))],
    # 12 dice, BS3; ANTI-VEHICLE 2+: every wound roll but a 1 is critical (5/6)
    "anti_vehicle_applies": [Means(12, 8, F(20, 3))],
    # not a VEHICLE: S5 vs T9 wounds 5+ (10 > 9)
    "anti_vehicle_does_not_apply": [Means(12, 8, F(8, 3))],
    # 9 dice, BS3; S5 vs T4 3+, failures re-rolled: 2/3 + 1/3 * 2/3 = 8/9
    "twin_linked_failures": [Means(9, 6, F(16, 3))],
    # 6 dice, BS3; S8 vs T5 3+, every non-6 re-rolled: wound 1/6 + 5/6 * 4/6 = 13/18,
    # critical 1/6 + 5/6 * 1/6 = 11/36
    "twin_linked_non_critical_devastating": [Means(6, 4, F(26, 9), F(11, 9))],
    # 10 dice; crit 5+, non-crits re-rolled: crit 2/6 + 4/6 * 2/6 = 5/9, plain hit (3-4)
    # 4/6 * 2/6 = 2/9; hits 2/9 + 2 * 5/9 = 4/3 a die; S4 vs T3 3+
    "crit_5_non_critical_rerolls": [Means(10, F(40, 3), F(80, 9))],
    # 9 dice; WS3 re-rolling 1s: 4/6 + 1/6 * 4/6 = 7/9; S6 vs T5 3+ with +1: a natural 2+,
    # re-rolling 1s: 5/6 + 1/6 * 5/6 = 35/36
    "lance_charged_melee_rerolls": [Means(9, 7, F(245, 36))],
    # 3D6 dice, all hit (no crits, so no sustained hits); S4 vs T3 3+
    "torrent_flamers_in_cover": [Means(F(21, 2), F(21, 2), 7)],
    # 2 x (D6 + 2) dice; BS4; S4 vs T3 3+
    "blast_vs_10": [Means(11, F(11, 2), F(11, 3))],
    # 2 x (D6 + 4) dice
    "blast_vs_20": [Means(15, F(15, 2), 5)],
    # 5 x (1 + D3) dice; BS3; S4 vs T3 3+
    "rapid_fire_half_range": [Means(15, 10, F(20, 3))],
    "rapid_fire_long_range": [Means(5, F(10, 3), F(20, 9))],
    # 2 x (3 + 2) dice; WS3; S5 vs T3 3+
    "cleave_melee_geq": [Means(10, F(20, 3), F(40, 9))],
    # 3 dice; BS3; S9 vs T10 5+
    "melta_half_range_vehicle": [Means(3, 2, F(2, 3))],
    "melta_minus_1_damage": [Means(3, 2, F(2, 3))],
    # 4 dice; BS4 -> 5+ in cover, +1 to hit: a natural 4+ (1/2); S12 vs T10 3+
    "heavy_stationary_in_cover": [Means(4, 2, F(4, 3))],
    # 12 dice; BS4 (no cover); S5 vs T4 3+
    "ignores_cover_vs_cover": [Means(12, 6, 4)],
    "ignores_cover_vs_stealth": [Means(12, 6, 4)],
    # Stealth: BS 5+
    "stealth_without_ignores_cover": [Means(12, 4, F(8, 3))],
    # 3 x (D6 + 2) dice (Blast); only a natural 6 hits; S5 vs T3 3+
    "indirect_fire_unspotted": [Means(F(33, 2), F(11, 4), F(11, 6))],
    # spotted: 1-3 fail, BS 5+ from cover: 5-6 hit; no hit re-rolls with Indirect Fire
    "indirect_fire_spotted": [Means(F(33, 2), F(11, 2), F(11, 3))],
    # 5 dice; BS2; S5 vs T4 3+
    "precision_vs_command_squad": [Means(5, F(25, 6), F(25, 9))],
    "precision_then_normal_pool": [Means(3, F(5, 2), F(5, 3)), Means(20, F(40, 3), F(20, 3))],
    # 6 dice; BS2; S4 vs T5 5+; 6s devastating
    "precision_devastating_wounded_lord": [Means(6, 5, F(5, 3), F(5, 6))],
    # 3 dice; BS3; S8 vs T4 2+
    "hazardous_monster_attacker": [Means(3, 2, F(5, 3))],
    # 20 dice; BS 4+ in cover, -1 to hit: a natural 5+; S4 vs T4 4+
    "hit_minus_1_in_cover": [Means(20, F(20, 3), F(10, 3))],
    # 12 dice; BS4 with +1 (+2 capped at +1): a natural 3+; S5 vs T6 5+ with +1: 4+
    "modifier_caps_heavy_wound_plus_1": [Means(12, 8, 4)],
    # 16 dice; BS 2+; S6 vs T4 3+
    "strength_ap_skill_changes": [Means(16, F(40, 3), F(80, 9))],
    # 10 dice; BS4; S9 vs T10 5+
    "halve_damage_vehicle": [Means(10, 5, F(5, 3))],
    # 8 dice; BS3; S9 vs T6 3+
    "damage_reduction_gravis": [Means(8, F(16, 3), F(32, 9))],
    # 12 dice; BS4; S5 vs T5 4+
    "damage_set_and_add": [Means(12, 6, 3)],
    "damage_multiply_halve_reduce": [Means(8, F(16, 3), F(32, 9))],
    # D3 mortal wounds (mean 2); 10 dice, BS3, S4 vs T5 5+; 2 mortal wounds
    "mortal_wounds_around_a_pool_fnp": [
        Means(2, 2, 2),
        Means(10, F(20, 3), F(20, 9)),
        Means(2, 2, 2),
    ],
    # D3 mortal wounds; 10 dice, BS3; S4 vs T4 4+, every wound devastating (ANTI 4+)
    "fnp_against_mortal_wounds_only": [Means(2, 2, 2), Means(10, F(20, 3), F(10, 3), F(10, 3))],
    # 6 dice, BS3; S6 vs T5 3+; 6s devastating
    "fnp_mortal_worse_than_fnp": [Means(6, 4, F(8, 3), F(2, 3)), Means(2, 2, 2)],
    # 8 dice, BS3; every hit rolls 3+ to wound (S5 vs T4), 6s devastating
    "lethal_roll_devastating": [Means(8, F(16, 3), F(32, 9), F(8, 9))],
    # a 6 to hit wounds automatically (not critical): wounds 3/6 * 4/6 + 1/6 = 1/2 a die;
    # devastating only from the 3-5 hits: 3/6 * 1/6 = 1/12 a die
    "lethal_auto_devastating": [Means(8, F(16, 3), 4, F(2, 3))],
}


def test_every_ability_scenario_has_hand_means() -> None:
    assert set(HAND_MEANS) == {n for n, s in SCENARIOS.items() if not s.plain and not s.classic}
    for name, means in HAND_MEANS.items():
        assert len(means) == len(SCENARIOS[name].steps), name


@pytest.mark.parametrize("name", sorted(HAND_MEANS))
def test_ability_stage_means_are_hand_derived(name: str) -> None:
    res = result(name)
    for j, (p, want) in enumerate(zip(res.pools, HAND_MEANS[name], strict=True)):
        for stage in ("attacks", "hits", "wounds", "devastating"):
            got = getattr(p, stage).mean()
            assert _close(got, float(getattr(want, stage))), (j, stage, got)


# hand-derived pmfs for homogeneous units: a small Fraction calculator, independent of the
# engine. For one homogeneous group, which die meets which model does not matter, so a pool
# is "N damaging events", each taking D wounds from the current model (no spill-over); a
# devastating wound does the same (no halving or reduction in these scenarios) after the
# saves. Mortal wounds are events of one wound each. Feel No Pain thins each wound.
PMF = dict[int, F]


def const(k: int) -> PMF:
    return {k: F(1)}


def die(sides: int, plus: int = 0) -> PMF:
    return {face + plus: F(1, sides) for face in range(1, sides + 1)}


def bern(p: F) -> PMF:
    return {0: 1 - p, 1: p}


def add(a: PMF, b: PMF) -> PMF:
    out: PMF = {}
    for i, p in a.items():
        for j, q in b.items():
            out[i + j] = out.get(i + j, F(0)) + p * q
    return out


def times(a: PMF, n: int) -> PMF:
    out = const(0)
    for _ in range(n):
        out = add(out, a)
    return out


def mix(*parts: tuple[F, PMF]) -> PMF:
    out: PMF = {}
    for w, pmf in parts:
        for k, p in pmf.items():
            out[k] = out.get(k, F(0)) + w * p
    return out


def compound(count: PMF, each: PMF) -> PMF:
    return mix(*((p, times(each, n)) for n, p in count.items()))


def fnp(damage: PMF, p_lost: F) -> PMF:
    """Wounds lost when each of D wounds is lost with probability ``p_lost``."""
    return compound(damage, bern(p_lost))


@dataclass(frozen=True)
class Events:
    """``count`` attack dice, each giving ``per_die`` damaging events of ``damage`` wounds."""

    count: PMF
    per_die: PMF
    damage: PMF


def hand_pmfs(models: int, wounds: int, steps: list[Events]) -> tuple[PMF, PMF]:
    """Killed and wounds-lost pmfs of a homogeneous unit of ``models`` W``wounds`` models."""
    state: dict[tuple[int, int], F] = {(0, 0): F(1)}  # (models destroyed, wounds on current)
    for step in steps:
        events = compound(step.count, step.per_die)
        after: dict[tuple[int, int], F] = {}
        current = state
        for n in range(max(events) + 1):
            for key, p in current.items():
                after[key] = after.get(key, F(0)) + events.get(n, F(0)) * p
            nxt: dict[tuple[int, int], F] = {}
            for (dead, lost), p in current.items():
                for d, q in step.damage.items():
                    key = (dead, lost) if dead == models else (dead, lost + d)
                    if key[1] >= wounds:
                        key = (dead + 1, 0)  # destroyed; the excess is lost
                    nxt[key] = nxt.get(key, F(0)) + p * q
            current = nxt
        state = after
    killed: PMF = {}
    damage: PMF = {}
    for (dead, lost), p in state.items():
        killed[dead] = killed.get(dead, F(0)) + p
        damage[dead * wounds + lost] = damage.get(dead * wounds + lost, F(0)) + p
    return killed, damage


def sustained(fail: F, hit: F, crit: F, extra: PMF, r: F) -> PMF:
    """Damaging events of one die: a hit is one event with probability r, a Critical Hit
    scores 1 + ``extra`` hits."""
    return mix((fail, const(0)), (hit, bern(r)), (crit, compound(add(const(1), extra), bern(r))))


HALF = F(1, 2)
#: name -> (models, wounds, steps); q = P(a die inflicts damage) derived per scenario
HAND_PMFS: dict[str, tuple[int, int, list[Events]]] = {
    # hit 1/2 (3-5) or crit 1/6 (2 hits); each hit: wound 3+ (2/3), Sv5 AP-1 fails 5/6
    "sustained_1_geq": (
        10,
        1,
        [Events(const(20), sustained(F(1, 3), HALF, F(1, 6), const(1), F(5, 9)), const(1))],
    ),
    # BS4: 4-5 (1/3), 6 scores 3 hits; wound 3+, Sv3 AP-1 fails 1/2: r = 1/3
    "sustained_2_meq": (
        5,
        2,
        [Events(const(12), sustained(HALF, F(1, 3), F(1, 6), const(2), F(1, 3)), const(2))],
    ),
    # 6: 1 + D3 hits; wound 4+, Sv3 AP0 fails 1/3: r = 1/6
    "sustained_d3_meq": (
        5,
        2,
        [Events(const(10), sustained(F(1, 3), HALF, F(1, 6), die(3), F(1, 6)), const(1))],
    ),
    # 6: 3 hits; wound 5+, Sv3 AP-1 fails 1/2: r = 1/6; D2 on W6
    "sustained_keyword_vehicle": (
        2,
        6,
        [Events(const(12), sustained(F(1, 3), HALF, F(1, 6), const(2), F(1, 6)), const(2))],
    ),
    # wound 2+, Sv5 AP-1 fails 5/6: r = 25/36; D2 on W1
    "sustained_keyword_infantry": (
        10,
        1,
        [Events(const(12), sustained(F(1, 3), HALF, F(1, 6), const(1), F(25, 36)), const(2))],
    ),
    # 4-5 (1/3): wound 5+ then Sv3 AP-1 fails 1/2; 6 (1/6): an automatic wound to save
    "lethal_hits_vehicle": (
        2,
        6,
        [Events(const(10), bern(F(1, 3) * F(1, 3) * HALF + F(1, 6) * HALF), const(3))],
    ),
    # 3-5: one hit (r = 2/3 * 1/2); 6: a save die (1/2) and an extra hit (r)
    "sustained_lethal_meq": (
        5,
        2,
        [
            Events(
                const(15),
                mix(
                    (F(1, 3), const(0)),
                    (HALF, bern(F(1, 3))),
                    (F(1, 6), add(bern(HALF), bern(F(1, 3)))),
                ),
                const(1),
            )
        ],
    ),
    # every wound is devastating: 2/3 * 1/2; D2 kills a W2 model
    "devastating_anti_infantry_meq": (5, 2, [Events(const(10), bern(F(1, 3)), const(2))]),
    # 5/6 * (3-5: 1/2 * Sv3 AP-2 fails 2/3 + 6: 1/6) = 5/12; D3 on W2, at most one model
    "devastating_d3_vs_w2": (5, 2, [Events(const(6), bern(F(5, 12)), die(3))]),
    # 2/3 * (3-5: 1/2 * Sv4 AP-1 fails 2/3 + 1/6) = 1/3; D3, FNP 5+ on each wound
    "devastating_vs_fnp": (6, 2, [Events(const(8), bern(F(1, 3)), fnp(die(3), F(2, 3)))]),
    # 2/3 * 5/6 * Sv3 AP0 fails 1/3
    "anti_vehicle_applies": (2, 6, [Events(const(12), bern(F(5, 27)), const(2))]),
    "anti_vehicle_does_not_apply": (2, 6, [Events(const(12), bern(F(2, 27)), const(2))]),
    # 2/3 * 8/9 * Sv3 AP-1 fails 1/2
    "twin_linked_failures": (5, 2, [Events(const(9), bern(F(8, 27)), const(2))]),
    # 2/3 * (critical 11/36 + plain wound 15/36 * Sv2/InSv4 AP-2 fails 1/2) = 37/108
    "twin_linked_non_critical_devastating": (5, 3, [Events(const(6), bern(F(37, 108)), const(2))]),
    # plain hit 2/9 (one event), crit 5/9 (two); each: wound 3+, Sv5 AP-1 fails 5/6
    "crit_5_non_critical_rerolls": (
        10,
        1,
        [Events(const(10), sustained(F(2, 9), F(2, 9), F(5, 9), const(1), F(5, 9)), const(1))],
    ),
    # 7/9 * 35/36 * Sv2/InSv4 AP-2 fails 1/2
    "lance_charged_melee_rerolls": (5, 3, [Events(const(9), bern(F(245, 648)), const(2))]),
    # every die hits; wound 3+; Sv5 AP0 fails 2/3
    "torrent_flamers_in_cover": (10, 1, [Events(times(die(6), 3), bern(F(4, 9)), const(1))]),
    # 1/2 * 2/3 * 2/3
    "blast_vs_10": (10, 1, [Events(times(die(6, 2), 2), bern(F(2, 9)), const(1))]),
    "blast_vs_20": (20, 1, [Events(times(die(6, 4), 2), bern(F(2, 9)), const(1))]),
    # 2/3 * 2/3 * 2/3
    "rapid_fire_half_range": (10, 1, [Events(times(die(3, 1), 5), bern(F(8, 27)), const(1))]),
    "rapid_fire_long_range": (10, 1, [Events(const(5), bern(F(8, 27)), const(1))]),
    # 2/3 * 2/3 * Sv5 AP-1 fails 5/6
    "cleave_melee_geq": (10, 1, [Events(const(10), bern(F(10, 27)), const(1))]),
    # 2/3 * 1/3, AP-4 vs Sv3 always fails; D6 + 2
    "melta_half_range_vehicle": (1, 12, [Events(const(3), bern(F(2, 9)), die(6, 2))]),
    # D6 - 1 + 2 (MELTA adds in the add step; D >= 1 only after every modifier): D6 + 1
    "melta_minus_1_damage": (1, 12, [Events(const(3), bern(F(2, 9)), die(6, 1))]),
    # 1/2 * 2/3 * Sv3 AP-3 fails 5/6; D6 + 1
    "heavy_stationary_in_cover": (1, 12, [Events(const(4), bern(F(5, 18)), die(6, 1))]),
    # 1/2 * 2/3 * Sv3 AP0 fails 1/3
    "ignores_cover_vs_cover": (5, 2, [Events(const(12), bern(F(1, 9)), const(1))]),
    "ignores_cover_vs_stealth": (5, 2, [Events(const(12), bern(F(1, 9)), const(1))]),
    "stealth_without_ignores_cover": (5, 2, [Events(const(12), bern(F(2, 27)), const(1))]),
    # 1/6 (or 1/3 spotted) * 2/3 * Sv5 AP0 fails 2/3
    "indirect_fire_unspotted": (10, 1, [Events(times(die(6, 2), 3), bern(F(2, 27)), const(1))]),
    "indirect_fire_spotted": (10, 1, [Events(times(die(6, 2), 3), bern(F(4, 27)), const(1))]),
    # 2/3 * 5/6 * Sv3 AP-3 fails 5/6 (a 6 saves)
    "hazardous_monster_attacker": (5, 2, [Events(const(3), bern(F(25, 54)), const(2))]),
    # 1/3 * 1/2 * Sv3 AP-1 fails 1/2
    "hit_minus_1_in_cover": (5, 2, [Events(const(20), bern(F(1, 12)), const(1))]),
    # 2/3 * 1/2 * Sv4 AP-1 fails 2/3
    "modifier_caps_heavy_wound_plus_1": (4, 3, [Events(const(12), bern(F(2, 9)), const(2))]),
    # 5/6 * 2/3 * Sv3 AP-2 fails 2/3
    "strength_ap_skill_changes": (5, 2, [Events(const(16), bern(F(10, 27)), const(1))]),
    # 1/2 * 1/3, AP-4 always fails; D6 halved (rounded up): 1, 1, 2, 2, 3, 3
    "halve_damage_vehicle": (1, 6, [Events(const(10), bern(F(1, 6)), die(3))]),
    # 2/3 * 2/3 * Sv3 AP-1 fails 1/2; D3 - 1 (minimum 1): 1, 1, 2
    "damage_reduction_gravis": (3, 3, [Events(const(8), bern(F(2, 9)), {1: F(2, 3), 2: F(1, 3)})]),
    # 1/2 * 1/2 * Sv2 AP-1 fails 1/3; D3 + 1
    "damage_set_and_add": (5, 3, [Events(const(12), bern(F(1, 12)), die(3, 1))]),
    # 2/3 * 2/3 * Sv2 AP-1 fails 1/3; 2 x D3 = 2, 4, 6, halved 1, 2, 3, minus 1: 1, 1, 2
    "damage_multiply_halve_reduce": (
        3,
        3,
        [Events(const(8), bern(F(4, 27)), {1: F(2, 3), 2: F(1, 3)})],
    ),
    # D3 mortal wounds, FNP 5+ each; 2/3 * 1/3 * Sv4 AP-1 fails 2/3, D1 through FNP;
    # then 2 mortal wounds
    "mortal_wounds_around_a_pool_fnp": (
        6,
        2,
        [
            Events(die(3), const(1), bern(F(2, 3))),
            Events(const(10), bern(F(4, 27)), bern(F(2, 3))),
            Events(const(2), const(1), bern(F(2, 3))),
        ],
    ),
    # D3 mortal wounds through FNP 4+ (against mortal wounds); then every wound is
    # devastating (2/3 * 1/2): D2 mortal wounds, each through FNP 4+
    "fnp_against_mortal_wounds_only": (
        4,
        2,
        [
            Events(die(3), const(1), bern(F(1, 2))),
            Events(const(10), bern(F(1, 3)), fnp(const(2), F(1, 2))),
        ],
    ),
    # FNP 4+ everywhere: 2/3 * (1/2 * Sv4 AP-1 fails 2/3 + 1/6) = 1/3; then 2 mortal wounds
    "fnp_mortal_worse_than_fnp": (
        3,
        2,
        [
            Events(const(6), bern(F(1, 3)), fnp(die(3), F(1, 2))),
            Events(const(2), const(1), bern(F(1, 2))),
        ],
    ),
    # every hit rolls: 2/3 * (critical 1/6 + 3-5 (1/2) * Sv3 AP-1 fails 1/2) = 5/18
    "lethal_roll_devastating": (5, 2, [Events(const(8), bern(F(5, 18)), const(2))]),
    # 6 to hit: a save die (1/6 * 1/2); 3-5: 1/2 * (1/6 + 1/2 * 1/2): 7/24
    "lethal_auto_devastating": (5, 2, [Events(const(8), bern(F(7, 24)), const(2))]),
}


def test_every_homogeneous_ability_scenario_has_hand_pmfs() -> None:
    want = {n for n, s in SCENARIOS.items() if not s.plain and not s.mixed and not s.classic}
    assert set(HAND_PMFS) == want
    for name, (models, wounds, _) in HAND_PMFS.items():
        group = SCENARIOS[name].target.groups[0]
        assert (group.count, group.wounds, group.wounds_lost) == (models, wounds, 0)


def _pmf_close(got: mh.Dist, want: PMF) -> None:
    size = max(got.n, max(want)) + 1
    g = np.zeros(size)
    g[: got.n + 1] = got.probabilities
    w = np.zeros(size)
    for k, p in want.items():
        w[k] = float(p)
    np.testing.assert_allclose(g, w, rtol=0, atol=TOL)


@pytest.mark.parametrize("name", sorted(HAND_PMFS))
def test_ability_killed_and_damage_are_hand_derived(name: str) -> None:
    models, wounds, steps = HAND_PMFS[name]
    killed, damage = hand_pmfs(models, wounds, steps)
    res = result(name)
    _pmf_close(res.killed, killed)
    _pmf_close(res.damage, damage)


def test_hazardous_mortal_wounds_are_hand_derived() -> None:
    # three hazard rolls, each failing on 1-2 (1/3) for 3 mortal wounds (a MONSTER)
    res = result("hazardous_monster_attacker")
    _pmf_close(res.hazardous, {3 * k: p for k, p in times(bern(F(1, 3)), 3).items()})


def test_precision_snipers_hand_derived() -> None:
    # Every save die meets the Captain (Sv2+ InSv4+ vs AP-2: 1-3 fail) while he lives; the
    # bodyguard (Sv3+ vs AP-2) fails 1-4, so sorting never sends him a die the Captain
    # would have taken. D3 on W5: he dies to 2 failed saves. A die reaches the save step
    # with 5/6 * 2/3 and fails it with 1/2: 5/18.
    res = result("precision_vs_command_squad")
    q = F(5, 18)
    p_dies = 1 - (1 - q) ** 5 - 5 * q * (1 - q) ** 4
    assert abs(res.killed_in("Captain").at_least(1) - float(p_dies)) <= TOL


def test_precision_devastating_hand_derived() -> None:
    # The Lord has 2 wounds left and D2: any failed save (Sv2+ InSv4+ vs AP-1: 1-2 fail) or
    # devastating wound while he lives kills him, and every save die and devastating wound
    # goes to him first. A die: hit 5/6, then a 6 (devastating) or a 5 (wound, S4 vs T5)
    # failing its save (1/3): 5/6 * (1/6 + 1/6 * 1/3) = 5/27.
    res = result("precision_devastating_wounded_lord")
    p_dies = 1 - (1 - F(5, 27)) ** 6
    assert abs(res.killed_in("Lord").at_least(1) - float(p_dies)) <= TOL


# --------------------------------------------------------------------------- coverage
def test_registry_is_large_enough_and_covers_the_brief() -> None:
    assert len(SCENARIOS) >= 24
    units = [s.target for s in SCENARIOS.values()]
    plain = [s for s in SCENARIOS.values() if s.plain]
    weapons = [w for s in plain for p in _plain_pools(s) for w, _ in p.weapons]
    assert any(len(u.groups) >= 3 and u.groups[-1].character for u in units)
    assert any(g.wounds_lost for u in units for g in u.groups)
    assert {5, 6} <= {g.fnp for u in units for g in u.groups}
    assert any(g.save == 7 for u in units for g in u.groups)
    assert {2, 6} <= {w.skill for w in weapons}
    assert {0, -1, -2, -3, -4} <= {w.ap for w in weapons}
    assert {"D6", "2D6", "D3+3"} <= {mh.parse_dice(w.attacks).text for w in weapons}
    assert {"D3", "D6", "D6+1", "2D6"} <= {mh.parse_dice(w.damage).text for w in weapons}
    rungs = {
        _wound_roll(_skill_and_strength(p.weapon)[1], _unit_toughness(s.target))
        for s in plain
        for p in _plain_pools(s)
    }
    assert rungs == {2, 3, 4, 5, 6}
    assert max(len(s.steps) for s in SCENARIOS.values()) >= 3


def test_ability_scenarios_cover_the_brief() -> None:
    ability = [s for s in SCENARIOS.values() if not s.plain]
    assert len(ability) >= 24
    kinds = set().union(*(s.kinds(j) for s in ability for j in range(len(s.steps))))
    assert kinds >= {
        "SUSTAINED HITS", "LETHAL HITS", "DEVASTATING WOUNDS", "ANTI", "TWIN-LINKED", "TORRENT",
        "BLAST", "CLEAVE", "RAPID FIRE", "MELTA", "HEAVY", "LANCE", "IGNORES COVER",
        "PRECISION", "HAZARDOUS", "INDIRECT FIRE", "MORTAL WOUNDS",
    }  # fmt: skip
    contexts = [s.context for s in ability if s.context is not None]
    mods = [s.modifiers for s in ability if s.modifiers is not None]
    for flag in ("half_range", "remained_stationary", "charged", "melee", "target_in_cover"):
        assert any(getattr(c, flag) for c in contexts), flag
    assert any(c.spotted for c in contexts)
    assert any(c.attacker_monster_or_vehicle for c in contexts)
    assert {c.lethal_hits for c in contexts} >= {"roll"}
    assert {c.reroll_policy for c in contexts} >= {"non_critical"}
    assert any(m.critical_hit == 5 for m in mods)
    assert {m.reroll_hits for m in mods} >= {"ones", "non_critical", "failures"}
    assert {m.hit for m in mods} >= {-1, 1} and any(m.wound == 1 for m in mods)
    assert any(m.strength and m.ap and m.skill for m in mods)
    assert any(m.damage_set is not None for m in mods)
    assert any(m.damage_multiply > 1 for m in mods) and any(m.damage_add for m in mods)
    groups = [g for s in ability for g in s.target.groups]
    assert any(g.halve_damage for g in groups) and any(g.damage_reduction for g in groups)
    assert any(s.target.stealth for s in ability)
    assert {s.target.models for s in ability if "BLAST" in s.kinds(0)} >= {10, 20}
    mortal_positions = {
        j for s in ability for j, p in enumerate(s.steps) if isinstance(p, mh.MortalWounds)
    }
    assert 0 in mortal_positions and len(mortal_positions) >= 2  # before and after a pool
