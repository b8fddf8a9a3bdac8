"""A plan's pools applied one at a time, in any order, to state distributions on one layout.

Ranking the orders of a unit's pools (:mod:`~mathhammer.exact.order`) resolves every prefix
of every order once and carries its state on. Through :func:`~mathhammer.exact.engine.attack`
each prefix would be planned again, its start mapped onto a layout and a full result made;
here the plan and the layout are made once, a prefix is one pass of the allocation chain,
and a result is made for complete orders only. The numbers are those of ``attack(...,
start=...)`` prefix by prefix: the same chain on the same layout.
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
from ..results.attack import AttackResult
from ..results.carry import start_state
from ..results.state import UnitState
from ..rules.base import Ruleset
from ..rules.plan import AttackPlan, PlannedPool, as_plan, check_sizes
from .budget import EXACT_LIMITS
from .choices import may_choose
from .engine import layout_result, layout_start, pool_state
from .layout import Layout

__all__ = ["PoolWalk", "pool_walk"]


@dataclass(frozen=True)
class PoolWalk:
    """The pools of one plan, to be applied in any order from its start.

    Attributes
    ----------
    plan : AttackPlan
        The pools in their declared order.
    layout : Layout
        The target's states (and the [PRECISION] groups of every pool and of the start).
    initial : ndarray
        The state distribution before any pool.
    """

    plan: AttackPlan
    layout: Layout
    kernels: Any
    initial: np.ndarray
    start: UnitState | None

    def apply(self, i: int, state: np.ndarray) -> np.ndarray:
        """The state distribution after pool ``i`` (in declared order) from ``state``."""
        step = self.plan.steps[i]
        assert isinstance(step, PlannedPool)  # pool_walk takes plans of pools only
        with one_thread():  # as every chain on a layout (mathhammer.core.blas)
            return pool_state(step, self.layout, state, self.plan, self.kernels[i])

    def result(self, state: np.ndarray) -> AttackResult:
        """The result of the pools that left ``state`` (its distributions; no per-pool
        results)."""
        return layout_result(self.plan, self.layout, state, (), Dist.constant(0), (), self.start)


def pool_walk(
    pools: Sequence[Pool],
    target: Unit,
    rules: str | Ruleset | None,
    context: Context | None,
    modifiers: Modifiers | None,
    start: AttackResult | UnitState | None,
) -> PoolWalk | None:
    """The walk of ``pools`` against ``target``, or None where the orders are better
    attacked one by one: a weapon with duplicated abilities to choose between, a target of
    one group (whose closed form costs less than a layout) or an after-attack test."""
    weapons = [entry for pool in pools for entry in pool.weapons]
    if may_choose(weapons) or len(target.groups) == 1:
        return None
    plan = as_plan(weapons, target, rules, context, modifiers)
    if plan.tests or len(plan.steps) != len(pools):
        return None
    check_sizes(plan, EXACT_LIMITS)
    carried = None if start is None else start_state(start, plan.target, plan.ruleset.name)
    layout, kernels, initial = layout_start(plan, carried)
    return PoolWalk(plan, layout, kernels, initial, carried)
