"""The attack plan: an attack's inputs checked and resolved once, for either engine.

:func:`plan_attack` validates the target, context and modifiers, asks the ruleset to
refuse what it cannot resolve, gathers the weapons into pools in the order declared,
and resolves each pool's checks. The exact engine (:func:`mathhammer.attack`) and the
Monte Carlo (:func:`mathhammer.simulate`) both run an :class:`AttackPlan`, so what is
attacked, and under which rules, is decided in one place.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import ProfileError, field_error
from ..model.context import Context, Modifiers, check_inputs
from ..model.pools import MortalWounds, Pool, gather_pools
from ..model.profiles import Unit
from .base import AfterAttackTest, PoolChecks, Ruleset
from .registry import get_ruleset

__all__ = ["AttackPlan", "PlannedPool", "as_plan", "plan_attack"]


@dataclass(frozen=True)
class PlannedPool:
    """A pool of identical attacks and its checks against the plan's target."""

    pool: Pool
    checks: PoolChecks

    @property
    def label(self) -> str:
        """The weapons gathered, e.g. ``"Bolt rifle x10"``."""
        return self.pool.label


@dataclass(frozen=True)
class AttackPlan:
    """What an attack resolves, in order: pools (with their checks) and mortal-wound steps.

    Examples
    --------
    >>> import mathhammer as mh
    >>> gun = mh.Weapon("Gun", attacks=2, skill=3, strength=4, ap=-1, damage=1)
    >>> plan = plan_attack([(gun, 10)], mh.Unit.of("Squad", 5, 4, 3, 2))
    >>> [step.label for step in plan.steps], plan.ruleset.name
    (['Gun x10'], '11e')
    """

    target: Unit
    ruleset: Ruleset
    context: Context
    modifiers: Modifiers
    steps: tuple[PlannedPool | MortalWounds, ...]

    @property
    def focus(self) -> tuple[int, ...]:
        """The CHARACTER groups some pool may make current ([PRECISION])."""
        groups = {
            s.checks.precision_group
            for s in self.steps
            if isinstance(s, PlannedPool) and s.checks.precision_group is not None
        }
        return tuple(sorted(groups))

    @property
    def tests(self) -> tuple[AfterAttackTest, ...]:
        """The tests the target takes after the attack, under this ruleset."""
        return self.ruleset.after_attack_tests(self.target)


def plan_attack(
    weapons: Any,
    target: Unit,
    *,
    rules: str | Ruleset = "11e",
    context: Context | None = None,
    modifiers: Modifiers | None = None,
) -> AttackPlan:
    """Check an attack's inputs and resolve every pool's checks under the ruleset.

    Parameters are those of :func:`mathhammer.attack`.
    """
    context, modifiers = check_inputs(target, context, modifiers)
    ruleset = get_ruleset(rules)
    ruleset.check_target(target)
    ruleset.check_situation(context, modifiers)
    steps: list[PlannedPool | MortalWounds] = []
    for step in gather_pools(weapons):
        if isinstance(step, MortalWounds):
            steps.append(step)
        else:
            steps.append(
                PlannedPool(step, ruleset.pool_checks(step.weapon, target, context, modifiers))
            )
    return AttackPlan(target, ruleset, context, modifiers, tuple(steps))


def as_plan(
    weapons: Any,
    target: Unit | None,
    rules: str | Ruleset | None,
    context: Context | None,
    modifiers: Modifiers | None,
) -> AttackPlan:
    """``weapons`` itself when it is a plan (nothing else may then be given), else a new plan.

    ``rules=None`` means the default ruleset, ``"11e"``.
    """
    if isinstance(weapons, AttackPlan):
        given = (target, rules, context, modifiers)
        if any(x is not None for x in given):
            raise ProfileError(
                "an AttackPlan already holds its target, ruleset, context and modifiers; "
                "give the plan alone"
            )
        return weapons
    if target is None:
        raise field_error(ProfileError, "target", "a Unit", target)
    return plan_attack(
        weapons,
        target,
        rules="11e" if rules is None else rules,
        context=context,
        modifiers=modifiers,
    )
