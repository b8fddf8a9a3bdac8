"""A plan's pools applied one at a time, in any order, to state distributions on one layout.

Ranking the orders of a unit's pools (:mod:`~mathhammer.decisions.order`) resolves every
prefix of every order once and carries its state on. Through
:func:`~mathhammer.exact.engine.resolve` each prefix would be planned again, its start
mapped onto a layout and a full result made; here the plan and the layout are made once, a
prefix is one pass of the allocation chain, and a result is made for complete orders only.
The numbers are those of :func:`~mathhammer.exact.engine.resolve` prefix by prefix: the
same chain on the same layout. From a start whose states declare the attack differently
(docs/rules.md D34), each declaration is a part of the walk, with its own plan and layout.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core.blas import one_thread
from ..core.dist import Dist
from ..model.context import Context, Modifiers
from ..model.pools import Pool
from ..model.profiles import Unit
from ..model.standing import Standing
from ..results.attack import AttackResult
from ..results.carry import start_state
from ..results.mixture import mixed
from ..results.state import UnitState
from ..rules.base import Ruleset
from ..rules.plan import AttackPlan, PlannedPool, as_plan, check_sizes
from .budget import EXACT_LIMITS
from .declared import split_start
from .layout import Layout
from .on_layout import layout_result, layout_start, pool_state

__all__ = ["PoolWalk", "WalkPart", "pool_walk"]


@dataclass(frozen=True)
class WalkPart:
    """One part of a walk: a plan, declared against the target as its states stand
    (docs/rules.md D34), on its layout.

    Attributes
    ----------
    weight : float
        The probability of the part's states.
    plan : AttackPlan
        The pools in their declared order.
    layout : Layout
        The target's states (and the [PRECISION] groups of every pool and of the start).
    initial : ndarray
        The state distribution before any pool.
    """

    weight: float
    plan: AttackPlan
    layout: Layout
    kernels: Any
    initial: np.ndarray

    def apply(self, i: int, state: np.ndarray) -> np.ndarray:
        """The state distribution after pool ``i`` (in declared order) from ``state``."""
        step = self.plan.steps[i]
        assert isinstance(step, PlannedPool)  # pool_walk takes plans of pools only
        return pool_state(step, self.layout, state, self.plan, self.kernels[i])

    def result(self, state: np.ndarray) -> AttackResult:
        """The result of the pools that left ``state``."""
        return layout_result(self.plan, self.layout, state, (), Dist.constant(0), ())


@dataclass(frozen=True)
class PoolWalk:
    """The pools of one attack, to be applied in any order from its start: one part for
    each declaration its start's states make (one, from a target no attack has touched).

    A walk's state is a tuple of state distributions, one per part.
    """

    parts: tuple[WalkPart, ...]

    @property
    def initial(self) -> tuple[np.ndarray, ...]:
        """The state distributions before any pool."""
        return tuple(part.initial for part in self.parts)

    def apply(self, i: int, state: tuple[np.ndarray, ...]) -> tuple[np.ndarray, ...]:
        """The state distributions after pool ``i`` (in declared order) from ``state``."""
        with one_thread():  # as every chain on a layout (mathhammer.core.blas)
            return tuple(part.apply(i, s) for part, s in zip(self.parts, state, strict=True))

    def result(self, state: tuple[np.ndarray, ...]) -> AttackResult:
        """The result of the pools that left ``state`` (its distributions; no per-pool
        results)."""
        results = [(p.weight, p.result(s)) for p, s in zip(self.parts, state, strict=True)]
        return mixed(results)


def pool_walk(
    pools: Sequence[Pool],
    target: Unit,
    rules: str | Ruleset | None,
    context: Context | None,
    modifiers: Modifiers | None,
    start: AttackResult | UnitState | None,
    standing: Standing | None = None,
) -> PoolWalk | None:
    """The walk of ``pools`` against ``target`` (declared against it as it stood at
    ``standing``, or as it stands in each state of ``start``), or None where the orders
    are better attacked one by one: a target of one group (whose closed form costs less
    than a layout) or an after-attack test. The weapons' abilities are as given (a choice
    between duplicated abilities is made above, :mod:`mathhammer.decisions.choices`)."""
    weapons = [entry for pool in pools for entry in pool.weapons]
    if len(target.groups) == 1:
        return None
    plan = as_plan(weapons, target, rules, context, modifiers)
    if standing is not None:
        plan = plan.declared(standing)
    if plan.tests or len(plan.steps) != len(pools):
        return None
    return PoolWalk(tuple(_walk_part(*part) for part in _start_parts(plan, start)))


def _start_parts(
    plan: AttackPlan, start: AttackResult | UnitState | None
) -> list[tuple[float, AttackPlan, UnitState | None]]:
    """The parts of a walk's start: the plan from the untouched target, or as declared
    against each part of ``start``'s states (:func:`~mathhammer.exact.declared.split_start`)."""
    if start is None:
        return [(1.0, plan, None)]
    return list(split_start(plan, start_state(start, plan.target, plan.ruleset.name)))


def _walk_part(weight: float, declared: AttackPlan, carried: UnitState | None) -> WalkPart:
    """One part of a walk, its plan checked against the engine's limits and laid out."""
    check_sizes(declared, EXACT_LIMITS)
    layout, kernels, initial = layout_start(declared, carried)
    return WalkPart(weight, declared, layout, kernels, initial)
