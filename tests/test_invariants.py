"""Invariants of the exact engine over the scenario registry (STYLE.md, Testing 3).

Every distribution of every scenario (models destroyed, wounds lost, each allocation group,
each pool stage) is a proper distribution with consistent cdf/sf/at_least/mean; and the result
as a whole is consistent: killed never exceeds the models, damage never exceeds the wounds, the
groups add up to the unit, the last pool is the final result, and pools only ever add kills.
Tolerance: 1e-12 absolute for probabilities, 1e-12 relative for means.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

import numpy as np
import pytest
from scenarios import SCENARIOS, scenario_ids

import mathhammer as mh

TOL = 1e-12
STAGES = ("attacks", "hits", "wounds", "unsaved", "killed")


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


def _dist_params() -> list:
    params = []
    for name, s in SCENARIOS.items():
        labels = ["killed", "damage"] + [f"group{i}" for i in range(len(s.target.groups))]
        for j, _pool in enumerate(mh.gather_pools(s.weapons)):
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
        assert abs(float(np.sum(d.pmf)) - 1.0) <= TOL

    def test_pmf_is_non_negative_and_finite(self, name: str, label: str) -> None:
        pmf = _dist(name, label).pmf
        assert np.all(np.isfinite(pmf))
        assert np.all(pmf >= 0.0)

    def test_cdf_is_monotone_and_ends_at_one(self, name: str, label: str) -> None:
        d = _dist(name, label)
        cdf = d.cdf()
        assert len(cdf) == d.n + 1
        assert np.all(np.diff(cdf) >= 0.0)
        assert cdf[0] >= 0.0
        assert abs(cdf[-1] - 1.0) <= TOL
        assert d.cdf(-1) == 0.0
        assert d.cdf(d.n + 5) == 1.0

    def test_sf_is_one_minus_cdf(self, name: str, label: str) -> None:
        d = _dist(name, label)
        np.testing.assert_allclose(d.sf(), 1.0 - d.cdf(), rtol=0, atol=TOL)
        for k in range(-2, d.n + 3):
            assert abs(d.sf(k) - (1.0 - d.cdf(k))) <= TOL, k
            assert abs(d.at_most(k) - d.cdf(k)) <= TOL, k

    def test_at_least_is_sf_of_k_minus_one(self, name: str, label: str) -> None:
        d = _dist(name, label)
        for k in range(-1, d.n + 3):
            assert abs(d.at_least(k) - d.sf(k - 1)) <= TOL, k
            assert abs(d.at_least(k) - float(np.sum(d.pmf[max(k, 0) :]))) <= TOL, k
        assert d.at_least(0) == pytest.approx(1.0, abs=TOL)

    def test_moments_match_the_pmf(self, name: str, label: str) -> None:
        d = _dist(name, label)
        k = np.arange(d.n + 1)
        mean = float(np.dot(k, d.pmf))
        var = float(np.dot((k - mean) ** 2, d.pmf))
        assert _close(d.mean(), mean)
        assert abs(d.var() - var) <= 1e-10 * max(1.0, var)
        assert abs(d.std() - np.sqrt(d.var())) <= TOL * max(1.0, d.std())

    def test_quantiles_are_consistent(self, name: str, label: str) -> None:
        d = _dist(name, label)
        lo, hi = d.support()
        assert d.pmf[lo] > 0 and d.pmf[hi] > 0
        assert lo <= d.median() <= hi
        assert d.median() == d.ppf(0.5)
        assert d.mode() == int(np.argmax(d.pmf))
        cdf = d.cdf()
        for q in (0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99):
            k = d.ppf(q)
            assert cdf[k] >= q - 1e-12, q
            assert k == lo or cdf[k - 1] < q + 1e-12, q


# --------------------------------------------------------------------------- whole results
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
        # a model of a later group can only be destroyed once the earlier group is gone
        res = result(name)
        for before, after in zip(res.groups, res.groups[1:], strict=False):
            assert after.killed.at_least(1) <= before.p_destroyed + TOL

    def test_p_destroyed(self, name: str) -> None:
        res, unit = result(name), SCENARIOS[name].target
        assert abs(res.p_destroyed - res.killed.at_least(unit.models)) <= TOL
        assert abs(res.p_destroyed - res.groups[-1].p_destroyed) <= TOL
        assert abs(res.p_destroyed - res.damage.at_least(unit.total_wounds)) <= 1e-10

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
        # attacks >= hits >= wounds >= unsaved, pathwise, so the cdfs are ordered
        for p in result(name).pools:
            chain = [p.attacks, p.hits, p.wounds, p.unsaved]
            n = max(d.n for d in chain) + 1
            ks = np.arange(n)
            for more, fewer in zip(chain, chain[1:], strict=False):
                assert np.all(fewer.cdf(ks) >= more.cdf(ks) - TOL)

    def test_stage_means_follow_the_per_die_probabilities(self, name: str) -> None:
        # hand-derived: P(hit) = (7 - BS)/6 (1 fails, 6 hits); P(wound) from the S/T ladder
        s = SCENARIOS[name]
        res = result(name)
        toughness = _unit_toughness(s.target)
        for p, pool in zip(res.pools, mh.gather_pools(s.weapons), strict=True):
            w = pool.weapon
            n = sum(count * weapon.attacks.mean for weapon, count in pool.weapons)
            p_hit = (7 - w.skill) / 6
            p_wound = (7 - _wound_roll(w.strength, toughness)) / 6
            assert _close(p.attacks.mean(), n)
            assert _close(p.hits.mean(), n * p_hit)
            assert _close(p.wounds.mean(), n * p_hit * p_wound)


def _unit_toughness(unit: mh.Unit) -> int:
    """RULES.md section 3: the highest T among the non-CHARACTER models (all if none)."""
    bodies = [g.toughness for g in unit.groups if not g.character]
    return max(bodies or [g.toughness for g in unit.groups])


def _wound_roll(strength: int, toughness: int) -> int:
    """RULES.md section 1: S >= 2T 2+; S > T 3+; S == T 4+; 2S <= T 6+; else 5+."""
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
    and len(mh.gather_pools(s.weapons)) == 1
]


@pytest.mark.parametrize("name", W1_NO_FNP_SINGLE_POOL)
def test_w1_models_without_fnp_die_to_every_unsaved_attack(name: str) -> None:
    res = result(name)
    assert res.killed.allclose(res.pools[0].unsaved, atol=TOL)
    assert res.killed.allclose(res.damage, atol=TOL)


def test_registry_is_large_enough_and_covers_the_brief() -> None:
    assert len(SCENARIOS) >= 24
    units = [s.target for s in SCENARIOS.values()]
    weapons = [
        w for s in SCENARIOS.values() for p in mh.gather_pools(s.weapons) for w, _ in p.weapons
    ]
    assert any(len(u.groups) >= 3 and u.groups[-1].character for u in units)
    assert any(g.wounds_lost for u in units for g in u.groups)
    assert {5, 6} <= {g.fnp for u in units for g in u.groups}
    assert any(g.save == 7 for u in units for g in u.groups)
    assert {2, 6} <= {w.skill for w in weapons}
    assert {0, -1, -2, -3, -4} <= {w.ap for w in weapons}
    assert {"D6", "2D6", "D3+3"} <= {w.attacks.text for w in weapons}
    assert {"D3", "D6", "D6+1", "2D6"} <= {w.damage.text for w in weapons}
    rungs = {
        _wound_roll(p.weapon.strength, _unit_toughness(s.target))
        for s in SCENARIOS.values()
        for p in mh.gather_pools(s.weapons)
    }
    assert rungs == {2, 3, 4, 5, 6}
    assert max(len(mh.gather_pools(s.weapons)) for s in SCENARIOS.values()) >= 3
