"""Monte Carlo vs the exact engine, over every scenario of the registry.

The Monte Carlo (``mh.simulate``) rolls real dice and shares no derived probability with
the exact engine (docs/architecture.md §2), so agreement is evidence that the exact
distributions are right.

Tolerances (fixed; no retries, no re-seeding)
---------------------------------------------
* Seed: ``zlib.crc32(scenario name)`` (``zlib.crc32(name + ":slow")`` for the slow run),
  stable across runs and Python versions. ``TRIALS = 100_000`` trials by default,
  ``SLOW_TRIALS = 1_000_000`` for the ``slow`` run. The seeds, the DKW bound and the
  z-scores are those of ``tests/statcheck.py``, shared with the other Monte Carlo checks.
* Means: ``|mean_MC - mean_exact| <= 5 sigma`` with ``sigma = std_exact / sqrt(trials)``, the
  standard deviation taken from the *exact* distribution. A quantity that is constant under the
  exact distribution must be reproduced to 1e-9. Checked for models destroyed and wounds lost,
  for the models destroyed in each allocation group (mixed units), for every per-pool stage
  (attacks, hits, wounds, unsaved, devastating wounds, killed; mortal-wound steps included) and
  for the mortal wounds the attacker suffers from [HAZARDOUS] weapons.
* Distributions: the Dvoretzky-Kiefer-Wolfowitz band at ``alpha = 1e-6``:
  ``sup_k |F_n(k) - F(k)| <= sqrt(ln(2 / alpha) / (2 n))`` (0.0085 at n = 100_000). Checked for
  models destroyed and wounds lost, and (an extra check) for each group, each pool stage and the
  hazardous mortal wounds. DKW is conservative for integer-valued distributions, so the band
  holds with probability at least 1 - alpha per check.

Every scenario of the registry, ability scenarios included, runs ``TRIALS`` trials (the ability
scenarios simulate as fast as the others, so no scenario needs fewer).

With 835 mean checks and 835 DKW checks per run (84 scenarios: killed and damage, each group
of a mixed unit, six stages per pool, hazardous), the chance that a correct engine fails one of
them by bad luck is about 1.3e-3, below 2e-3 (5 sigma is 5.7e-7 two-sided per check, normal
approximation; DKW at most 1e-6 per check).
"""

from __future__ import annotations

import math
import zlib
from functools import cache
from typing import TYPE_CHECKING

import pytest
from scenarios import SCENARIOS, scenario_ids
from statcheck import Z_MAX, dkw_bound, ks_distance, seed_for, z_score

import mathhammer as mh

if TYPE_CHECKING:
    from _pytest.mark.structures import ParameterSet

TRIALS = 100_000
SLOW_TRIALS = 1_000_000
STAGES = ("attacks", "hits", "wounds", "unsaved", "devastating", "killed")


@cache
def exact_result(name: str) -> mh.AttackResult:
    return SCENARIOS[name].attack()


@cache
def sim_result(name: str) -> mh.SimulationResult:
    return SCENARIOS[name].simulate(TRIALS, seed_for(name))


def mean_checks(res: mh.AttackResult, sim: mh.SimulationResult) -> list[tuple[str, mh.Dist, float]]:
    """Every (label, exact distribution, MC mean) pair the mean test covers."""
    out = [
        ("killed", res.killed, sim.killed.mean()),
        ("damage", res.damage, sim.damage.mean()),
    ]
    if len(res.groups) > 1:
        for g, gs in zip(res.groups, sim.groups, strict=True):
            out.append((f"group {g.label} killed", g.killed, gs.killed.mean()))
    for j, (p, ps) in enumerate(zip(res.pools, sim.pools, strict=True)):
        for stage in STAGES:
            out.append((f"pool {j} {stage}", getattr(p, stage), getattr(ps, stage).mean()))
    out.append(("hazardous", res.hazardous, sim.hazardous.mean()))
    return out


def dkw_checks(
    res: mh.AttackResult, sim: mh.SimulationResult
) -> list[tuple[str, mh.Dist, mh.Dist]]:
    """Every (label, exact distribution, simulated distribution) pair the DKW test covers."""
    out = [("killed", res.killed, sim.killed), ("damage", res.damage, sim.damage)]
    for g, gs in zip(res.groups, sim.groups, strict=True):
        out.append((f"group {g.label} killed", g.killed, gs.killed))
    for j, (p, ps) in enumerate(zip(res.pools, sim.pools, strict=True)):
        for stage in STAGES:
            out.append((f"pool {j} {stage}", getattr(p, stage), getattr(ps, stage)))
    out.append(("hazardous", res.hazardous, sim.hazardous))
    return out


def _groups_params() -> list[ParameterSet]:
    params: list[ParameterSet] = []
    for name, s in SCENARIOS.items():
        if s.mixed:
            for i, g in enumerate(s.target.groups):
                params.append(pytest.param(name, i, id=f"{name}-{g.label}"))
    return params


def _stage_params() -> list[ParameterSet]:
    params: list[ParameterSet] = []
    for name, s in SCENARIOS.items():
        for j, _step in enumerate(s.steps):
            for stage in STAGES:
                params.append(pytest.param(name, j, stage, id=f"{name}-pool{j}-{stage}"))
    return params


# ------------------------------------------------------------------------ (a) means
@pytest.mark.parametrize("quantity", ["killed", "damage"])
@pytest.mark.parametrize("name", scenario_ids())
def test_mean_within_5_sigma(name: str, quantity: str) -> None:
    res, sim = exact_result(name), sim_result(name)
    assert sim.trials == TRIALS
    mc = getattr(sim, quantity)
    exact = getattr(res, quantity)
    z = z_score(exact, mc.mean(), TRIALS)
    assert abs(z) <= Z_MAX, (
        f"{name}: MC mean {quantity} {mc.mean():.5f} vs exact {exact.mean():.5f} (z = {z:.2f})"
    )


@pytest.mark.parametrize("name", scenario_ids())
def test_standard_errors_match_exact_sigma(name: str) -> None:
    # the reported standard errors estimate std_exact / sqrt(trials): within 5 % at 1e5 trials
    res, sim = exact_result(name), sim_result(name)
    for se, dist in ((sim.killed_se, res.killed), (sim.damage_se, res.damage)):
        expected = dist.std() / math.sqrt(TRIALS)
        assert se == pytest.approx(expected, rel=0.05, abs=1e-12)


# ------------------------------------------------------------------------ (b) DKW band
@pytest.mark.parametrize("quantity", ["killed", "damage"])
@pytest.mark.parametrize("name", scenario_ids())
def test_cdf_within_dkw_band(name: str, quantity: str) -> None:
    res, sim = exact_result(name), sim_result(name)
    d = ks_distance(getattr(res, quantity), getattr(sim, quantity))
    assert d <= dkw_bound(TRIALS), f"{name}: sup|F_n - F| of {quantity} = {d:.5f}"


# ------------------------------------------------------------------------ (c) groups
@pytest.mark.parametrize(("name", "group"), _groups_params())
def test_group_killed_mean_within_5_sigma(name: str, group: int) -> None:
    res, sim = exact_result(name), sim_result(name)
    exact = res.groups[group].killed
    mc = sim.groups[group].killed
    z = z_score(exact, mc.mean(), TRIALS)
    assert abs(z) <= Z_MAX, (
        f"{name} {res.groups[group].label}: {mc.mean():.5f} vs {exact.mean():.5f}"
    )
    assert ks_distance(exact, mc) <= dkw_bound(TRIALS)


# ------------------------------------------------------------------------ (d) pool stages
@pytest.mark.parametrize(("name", "pool", "stage"), _stage_params())
def test_pool_stage_mean_within_5_sigma(name: str, pool: int, stage: str) -> None:
    res, sim = exact_result(name), sim_result(name)
    exact = getattr(res.pools[pool], stage)
    mc = getattr(sim.pools[pool], stage)
    z = z_score(exact, mc.mean(), TRIALS)
    assert abs(z) <= Z_MAX, f"{name} pool {pool} {stage}: {mc.mean():.5f} vs {exact.mean():.5f}"
    d = ks_distance(exact, mc)
    assert d <= dkw_bound(TRIALS), f"{name} pool {pool} {stage}: sup|F_n - F| = {d:.5f}"


# ------------------------------------------------------------------------ (e) hazardous
@pytest.mark.parametrize("name", scenario_ids())
def test_hazardous_mortal_wounds_within_5_sigma(name: str) -> None:
    res, sim = exact_result(name), sim_result(name)
    exact, mc = res.hazardous, sim.hazardous
    z = z_score(exact, mc.mean(), TRIALS)
    assert abs(z) <= Z_MAX, f"{name} hazardous: {mc.mean():.5f} vs {exact.mean():.5f}"
    d = ks_distance(exact, mc)
    assert d <= dkw_bound(TRIALS), f"{name} hazardous: sup|F_n - F| = {d:.5f}"


def test_simulation_is_reproducible_with_a_fixed_seed() -> None:
    s = SCENARIOS["retinue_three_pools"]
    a = s.simulate(2_000, 123)
    b = s.simulate(2_000, 123)
    assert a.killed == b.killed and a.damage == b.damage
    for pa, pb in zip(a.pools, b.pools, strict=True):
        assert pa.stages() == pb.stages()


def test_seeds_are_stable() -> None:
    # crc32 of the name does not depend on PYTHONHASHSEED or the Python version
    assert seed_for("geq_lasguns") == zlib.crc32(b"geq_lasguns")
    assert seed_for("geq_lasguns", "slow") == zlib.crc32(b"geq_lasguns:slow")
    assert len({seed_for(n) for n in SCENARIOS}) == len(SCENARIOS)


# ------------------------------------------------------------------------ slow: 1e6 trials
@pytest.mark.slow
@pytest.mark.parametrize("name", scenario_ids())
def test_large_sample_agreement(name: str) -> None:
    res = exact_result(name)
    sim = SCENARIOS[name].simulate(SLOW_TRIALS, seed_for(name, "slow"))
    bound = dkw_bound(SLOW_TRIALS)
    failures = []
    for label, exact, mc_mean in mean_checks(res, sim):
        z = z_score(exact, mc_mean, SLOW_TRIALS)
        if abs(z) > Z_MAX:
            failures.append(
                f"mean {label}: MC {mc_mean:.5f} vs exact {exact.mean():.5f}, z={z:.2f}"
            )
    for label, exact, mc in dkw_checks(res, sim):
        d = ks_distance(exact, mc)
        if d > bound:
            failures.append(f"cdf {label}: sup|F_n - F| = {d:.5f} > {bound:.5f}")
    assert not failures, f"{name}: " + "; ".join(failures)
