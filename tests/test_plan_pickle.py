"""An attack plan pickles, so a worker process can run it: same plan, same numbers.

Every check of a plan is a function of a module bound with :func:`functools.partial`,
never a lambda or a local function, which pickle refuses. For every scenario of the
registry (both rulesets: re-rolls, [LINKED], the BS 6+ re-roll of a 1, [TORRENT],
[PRECISION], strict saves ...) and for a ruleset defined outside the package, the
unpickled plan gives exactly (``==``) the exact result of the original.
"""

from __future__ import annotations

import pickle
import warnings

import numpy as np
import pytest
from example_ruleset import NAME as SIX_SAVES
from scenarios import SCENARIOS, Scenario, scenario_ids

import mathhammer as mh
from mathhammer.rules import AttackPlan, PlannedPool, plan_attack


def plan_of(scenario: Scenario) -> AttackPlan:
    with warnings.catch_warnings():  # classic scenarios with 11e-only abilities warn
        warnings.simplefilter("ignore", UserWarning)
        return plan_attack(
            scenario.weapons,
            scenario.target,
            rules=scenario.rules,
            context=scenario.context,
            modifiers=scenario.modifiers,
        )


def round_trip(plan: AttackPlan) -> AttackPlan:
    copy = pickle.loads(pickle.dumps(plan))
    assert isinstance(copy, AttackPlan) and copy is not plan
    return copy


def assert_same_result(a: mh.AttackResult, b: mh.AttackResult) -> None:
    """Equal results, the per-pool ``unsaved`` (left out of ``==``) included."""
    assert a == b
    assert [p.unsaved for p in a.pools] == [p.unsaved for p in b.pools]
    assert a.distributions() == b.distributions()


def test_the_registry_covers_both_rulesets() -> None:
    assert {s.rules for s in SCENARIOS.values()} == {"11e", "classic"}


@pytest.mark.parametrize("name", scenario_ids())
def test_an_unpickled_plan_gives_the_same_attack(name: str) -> None:
    plan = plan_of(SCENARIOS[name])
    copy = round_trip(plan)
    assert copy.ruleset.name == plan.ruleset.name
    assert [s.label for s in copy.steps] == [s.label for s in plan.steps]
    assert_same_result(mh.attack(copy), mh.attack(plan))


@pytest.mark.parametrize("rules", ["11e", "classic"])
def test_the_checks_of_a_pool_act_the_same_after_pickling(rules: str) -> None:
    # checked function by function, so a difference names the check
    name = "classic_bs7_reroll" if rules == "classic" else "lance_charged_melee_rerolls"
    plan = plan_of(SCENARIOS[name])
    copy = round_trip(plan)
    faces = np.arange(1, 7)
    rerolls = 0
    for step, twin in zip(plan.steps, copy.steps, strict=True):
        assert isinstance(step, PlannedPool) and isinstance(twin, PlannedPool)
        pairs = [(step.checks.hit, twin.checks.hit), (step.checks.wound, twin.checks.wound)]
        for check, again in pairs:
            assert check is not None and again is not None
            categories = check.first(faces)
            assert again.first(faces).tolist() == categories.tolist()
            assert again.again(faces).tolist() == check.again(faces).tolist()
            if check.reroll is None:
                assert again.reroll is None
                continue
            assert again.reroll is not None
            mask = check.reroll(faces, categories)
            assert again.reroll(faces, categories).tolist() == mask.tolist()
            rerolls += 1
        for group in plan.target.groups:
            saved = step.checks.saves(faces, group)
            assert twin.checks.saves(faces, group).tolist() == saved.tolist()
    assert rerolls >= 1  # the scenarios re-roll, so the re-roll checks were compared


def test_the_classic_panic_test_pickles() -> None:
    plan = plan_of(SCENARIOS["classic_lasguns"])
    (test,) = plan.tests
    copy = pickle.loads(pickle.dumps(test))
    killed = np.arange(plan.target.models + 1)
    totals = np.arange(2, 13)
    assert copy.name == test.name and copy.dice == test.dice
    assert copy.taken(killed).tolist() == test.taken(killed).tolist()
    assert copy.fails(totals).tolist() == test.fails(totals).tolist()
    assert 0 < int(np.sum(test.taken(killed))) < len(killed)  # a real mix of both answers


def test_a_plan_under_a_ruleset_defined_outside_the_package_pickles() -> None:
    gun = mh.Weapon("Gun", attacks=3, skill=3, strength=4, ap=-1, damage=1, abilities="[HAZARDOUS]")
    plan = plan_attack([(gun, 2)], mh.Unit.of("Squad", 10, 4, 7, 1), rules=SIX_SAVES)
    copy = round_trip(plan)
    assert type(copy.ruleset) is type(plan.ruleset)
    assert_same_result(mh.attack(copy), mh.attack(plan))


def test_a_lambda_in_the_checks_would_not_pickle() -> None:
    # what the plans above avoid: the test would fail if a check were a lambda again
    with pytest.raises((AttributeError, pickle.PicklingError)):
        pickle.dumps(lambda faces: faces)
