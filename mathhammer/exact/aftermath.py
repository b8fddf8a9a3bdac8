"""What an attack leaves beside the target's state: the attacker's hazard rolls and the
after-attack tests (a Panic Test), read off the models the attack destroyed."""

from __future__ import annotations

import numpy as np

from ..core.dist import Dist
from ..results.attack import TestResult
from ..rules.base import FACES, AfterAttackTest
from ..rules.plan import AttackPlan, PlannedPool

__all__ = ["NONE", "hazard", "tests_after"]

#: No devastating wounds, no hazard: shared, as every distribution is immutable.
NONE = Dist.constant(0)


def hazard(step: PlannedPool, plan: AttackPlan) -> Dist:
    """Mortal wounds to the attacker: one hazard roll per weapon."""
    rolls = sum(count for _, count in step.pool.weapons)
    p_fail = float(np.mean(plan.ruleset.hazard_fails(np.asarray(FACES))))
    per_fail = plan.ruleset.hazard_wounds(plan.context)
    return Dist.binomial(rolls, p_fail).map(lambda k: k * per_fail)


def tests_after(plan: AttackPlan, killed: Dist) -> tuple[TestResult, ...]:
    """The after-attack tests, on the models this attack destroyed (``killed`` counts from
    the start of the sequence: less those destroyed before the attacks were declared,
    which every state of a plan's start shares, :func:`~mathhammer.exact.engine.carried`)."""
    if not plan.tests:
        return ()
    now = killed if plan.before == 0 else Dist._trusted(killed.probabilities[plan.before :])
    return tuple(_test(test, now) for test in plan.tests)


def _test(test: AfterAttackTest, killed: Dist) -> TestResult:
    """P(the target takes the test) and P(it takes it and fails), after all the attacks."""
    taken = np.asarray(test.taken(np.arange(killed.n + 1)), dtype=bool)
    p_taken = float(killed.probabilities[taken].sum())
    totals = np.indices((len(FACES),) * test.dice).sum(axis=0).ravel() + test.dice
    p_fails = float(np.mean(test.fails(totals)))
    return TestResult(test.name, p_taken, p_taken * p_fails)
