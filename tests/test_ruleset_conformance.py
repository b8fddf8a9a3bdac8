"""Invariants every registered ruleset must satisfy, over a small registry of attacks.

The suite is parametrised over :func:`mathhammer.rules.ruleset_names` (after importing
``tests/example_ruleset.py``, so the test-only third ruleset is included): a ruleset
added to the registry is checked with no change here. Every case is valid under every
ruleset: weapons are built with the ruleset's ``skill_field`` (``skill=N`` as "N+",
2 to 6, or ``bs=N``, the classic characteristic, 1 to 10), have Damage 1, and the
targets have Ld, no VEHICLE keyword and one save characteristic per unit.

For each ruleset and case:

* every distribution (models destroyed, wounds lost, each group, each pool stage,
  hazardous mortal wounds) is non-negative and sums to 1 (to 1e-12); after-attack test
  probabilities are probabilities, failed <= taken;
* models destroyed never exceed the models (nor a group's count), wounds lost never
  exceed the unit's wounds;
* a better skill never lowers the mean kills, nor does a higher Strength; a better save
  never raises them (each along its whole ladder, 1e-12 slack);
* the exact engine agrees with the Monte Carlo (fixed seeds, no retries): every mean
  within 5 sigma (sigma = exact sd / sqrt(trials)), every cdf within the DKW band at
  alpha = 1e-6, the after-attack test probabilities within 5 binomial sigma.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

import example_ruleset
import numpy as np
import pytest
from statcheck import Z_MAX, assert_matches, seed_for

import mathhammer as mh
from mathhammer.rules import get_ruleset, ruleset_names

TOL = 1e-12
TRIALS = 50_000
STAGES = ("attacks", "hits", "wounds", "unsaved", "devastating", "killed")

#: Every registered ruleset, the test-only one included.
RULESETS = ruleset_names()

#: The skill values of each skill characteristic, from worst to best.
SKILL_LADDERS = {"skill": (6, 5, 4, 3, 2), "bs": tuple(range(1, 11))}
STRENGTHS = tuple(range(1, 13))
SAVES = (7, 6, 5, 4, 3, 2)  # from no save to the best


@dataclass(frozen=True)
class Gun:
    """A weapon line in ruleset-neutral form: a skill for each skill characteristic."""

    name: str
    count: int
    attacks: int | str
    skill: int  # "N+", for rulesets reading skill=
    bs: int  # the characteristic, for rulesets reading bs=
    strength: int
    ap: int

    def build(
        self, field: str, *, skill: int | None = None, strength: int | None = None
    ) -> tuple[mh.Weapon, int]:
        # the ruleset's own characteristic: skill=N+ or the classic bs=N
        characteristic: dict[str, Any] = {field: getattr(self, field) if skill is None else skill}
        weapon = mh.Weapon(
            self.name,
            self.attacks,
            strength=self.strength if strength is None else strength,
            ap=self.ap,
            damage=1,
            **characteristic,
        )
        return weapon, self.count


@dataclass(frozen=True)
class Case:
    """An attack valid under every ruleset."""

    name: str
    guns: tuple[Gun, ...]
    target: mh.Unit

    def weapons(self, rules: str, **changes: int) -> list[tuple[mh.Weapon, int]]:
        field = get_ruleset(rules).skill_field
        return [gun.build(field, **changes) for gun in self.guns]

    def with_save(self, save: int) -> mh.Unit:
        return replace(self.target, groups=tuple(replace(g, save=save) for g in self.target.groups))


CASES = {
    c.name: c
    for c in (
        Case(
            "rifles against a horde",
            (Gun("Rifle", 5, 2, skill=4, bs=3, strength=3, ap=0),),
            mh.Unit.of("Horde", 10, 3, 6, 1, leadership=6),
        ),
        Case(
            "bolters against marines",
            (Gun("Bolter", 5, 2, skill=3, bs=4, strength=4, ap=-1),),
            mh.Unit.of("Marines", 5, 4, 3, 2, leadership=7),
        ),
        Case(
            "no save at AP -1",
            (Gun("Lasgun", 6, 1, skill=3, bs=4, strength=4, ap=-1),),
            mh.Unit.of("Cultists", 8, 3, 7, 1, leadership=5),
        ),
        Case(
            "random shots against invulnerable saves and Feel No Pain",
            (Gun("Storm", 2, "D6", skill=4, bs=3, strength=6, ap=-2),),
            mh.Unit.of("Wardens", 3, 5, 2, 3, invuln=4, fnp=5, leadership=8),
        ),
        Case(
            "a bodyguard and a CHARACTER",
            (Gun("Carbine", 3, 3, skill=3, bs=5, strength=5, ap=-1),),
            mh.Unit(
                "Retinue",
                [
                    mh.ModelGroup(4, 4, 3, 1, name="Guard"),
                    mh.ModelGroup(1, 4, 3, 3, character=True, name="Captain"),
                ],
                "INFANTRY",
                leadership=8,
            ),
        ),
        Case(
            "two pools in order",
            (
                Gun("Bolter", 4, 2, skill=3, bs=4, strength=4, ap=-1),
                Gun("Autocannon", 1, 2, skill=4, bs=3, strength=7, ap=-1),
            ),
            mh.Unit.of("Marines", 5, 4, 3, 2, leadership=7),
        ),
    )
}

PARAMS = [pytest.param(r, c, id=f"{r}-{c}") for r in RULESETS for c in CASES]


@cache
def exact(rules: str, case: str) -> mh.AttackResult:
    c = CASES[case]
    return mh.attack(c.weapons(rules), c.target, rules=rules)


def distributions(res: mh.AttackResult) -> dict[str, mh.Dist]:
    out = {"killed": res.killed, "damage": res.damage, "hazardous": res.hazardous}
    out |= {f"group {g.label}": g.killed for g in res.groups}
    for i, pool in enumerate(res.pools):
        out |= {f"pool {i} {stage}": getattr(pool, stage) for stage in STAGES}
    return out


def mean_kills(rules: str, weapons: list[tuple[mh.Weapon, int]], target: mh.Unit) -> float:
    return float(mh.attack(weapons, target, rules=rules).killed.mean())


def assert_never_decreasing(label: str, means: list[float]) -> None:
    steps = np.diff(means)
    assert np.all(steps >= -TOL), f"{label}: mean kills {np.round(means, 6).tolist()}"


def test_the_registry_includes_the_test_only_ruleset() -> None:
    assert {"11e", "10e", "classic", example_ruleset.NAME} <= set(RULESETS)
    for rules in RULESETS:
        assert get_ruleset(rules).skill_field in SKILL_LADDERS, rules


@pytest.mark.parametrize(("rules", "case"), PARAMS)
def test_total_probability_is_one(rules: str, case: str) -> None:
    res = exact(rules, case)
    assert res.rules == rules
    for label, dist in distributions(res).items():
        assert np.all(dist.probabilities >= 0), label
        assert abs(float(dist.probabilities.sum()) - 1.0) <= TOL, label
    for test in res.tests:
        assert 0 <= test.p_failed <= test.p_taken <= 1, test


@pytest.mark.parametrize(("rules", "case"), PARAMS)
def test_killed_never_exceeds_the_models(rules: str, case: str) -> None:
    res, target = exact(rules, case), CASES[case].target
    assert res.killed.sf(target.models) <= TOL
    assert res.damage.sf(target.total_wounds) <= TOL
    for group in res.groups:
        assert group.killed.sf(group.group.count) <= TOL, group.label
    for pool in res.pools:
        assert pool.killed.sf(target.models) <= TOL, pool.label
    assert res.killed.at_least(1) > 0  # the attack can do something, so the bound bites


@pytest.mark.parametrize(("rules", "case"), PARAMS)
def test_a_better_skill_never_lowers_kills(rules: str, case: str) -> None:
    c = CASES[case]
    ladder = SKILL_LADDERS[get_ruleset(rules).skill_field]
    means = [mean_kills(rules, c.weapons(rules, skill=s), c.target) for s in ladder]
    assert_never_decreasing(f"skill {ladder}", means)
    assert means[-1] > means[0]


@pytest.mark.parametrize(("rules", "case"), PARAMS)
def test_a_higher_strength_never_lowers_kills(rules: str, case: str) -> None:
    c = CASES[case]
    means = [mean_kills(rules, c.weapons(rules, strength=s), c.target) for s in STRENGTHS]
    assert_never_decreasing(f"strength {STRENGTHS}", means)
    assert means[-1] > means[0]


@pytest.mark.parametrize(("rules", "case"), PARAMS)
def test_a_better_save_never_raises_kills(rules: str, case: str) -> None:
    c = CASES[case]
    means = [mean_kills(rules, c.weapons(rules), c.with_save(s)) for s in SAVES]
    assert_never_decreasing(f"save {SAVES}", [-m for m in means])


@pytest.mark.parametrize(("rules", "case"), PARAMS)
def test_exact_equals_monte_carlo(rules: str, case: str) -> None:
    c = CASES[case]
    res = exact(rules, case)
    seed = seed_for(rules, case)
    sim = mh.simulate(c.weapons(rules), c.target, rules=rules, trials=TRIALS, rng=seed)
    assert sim.rules == rules and sim.trials == TRIALS
    simulated = distributions(sim)
    for label, dist in distributions(res).items():
        assert_matches(f"{rules} {case} {label}", dist, simulated[label], TRIALS)
    assert [t.name for t in sim.tests] == [t.name for t in res.tests]
    for test, mc in zip(res.tests, sim.tests, strict=True):
        for p, estimate in ((test.p_taken, mc.p_taken), (test.p_failed, mc.p_failed)):
            sigma = math.sqrt(p * (1 - p) / TRIALS)
            assert abs(estimate - p) <= max(Z_MAX * sigma, 1e-9), (test.name, p, estimate)
