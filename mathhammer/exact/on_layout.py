"""The attack of a plan on the target's layout: every pool (and mortal-wound step) one
pass of the allocation chain over the state distribution (:mod:`~mathhammer.exact.chain`),
in the order declared."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any

import numpy as np

from ..core.blas import one_thread
from ..core.dist import Dist
from ..model.pools import MortalWounds
from ..results.attack import AttackResult, GroupResult, PoolResult
from ..results.state import UnitState
from ..rules.plan import AttackPlan, PlannedPool
from .aftermath import hazard, tests_after
from .budget import check_plan
from .chain import spill_mortal_wounds
from .damage import wound_lost
from .layout import Layout
from .pool_chain import apply_pool
from .pool_saves import pool_saves
from .steps import hit_and_wound
from .unsaved import unsaved_distribution

__all__ = ["layout_result", "layout_start", "pool_state", "pool_step", "run_layout"]


def _mortal_step(step: MortalWounds, layout: Layout, state: Any, plan: AttackPlan) -> Any:
    lost = [wound_lost(g, plan.ruleset, mortal=True) for g in plan.target.groups]
    order = plan.ruleset.current_group
    return spill_mortal_wounds(layout, state, step.amount.dist, lost, order)


def pool_state(
    step: PlannedPool,
    layout: Layout,
    before: np.ndarray,
    plan: AttackPlan,
    kernels: Any,
    trimmed: list[float] | None = None,
) -> np.ndarray:
    """The state distribution after one pool (:func:`pool_step` without its result)."""
    stages = hit_and_wound(step.pool, step.checks, kernels)
    return apply_pool(layout, before, stages.to_save, pool_saves(step, plan), trimmed)


def pool_step(
    step: PlannedPool,
    layout: Layout,
    before: Any,
    plan: AttackPlan,
    kernels: Any,
    trimmed: list[float] | None = None,
) -> tuple[Any, PoolResult]:
    """The state distribution after one pool, and the pool's result."""
    stages = hit_and_wound(step.pool, step.checks, kernels)
    saves = pool_saves(step, plan)
    state = apply_pool(layout, before, stages.to_save, saves, trimmed)
    result = PoolResult(
        label=step.label,
        weapons=step.pool.weapons,
        attacks=stages.attacks,
        hits=stages.hits,
        wounds=stages.wounds,
        killed=layout.distribution(state, layout.killed, layout.most_killed),
        unsaved_source=partial(unsaved_distribution, layout, before, stages.to_save, saves),
        devastating=Dist._trusted(stages.to_save.sum(axis=0)),
        abilities=step.checks.used,
    )
    return state, result


def run_layout(plan: AttackPlan, start: UnitState | None = None) -> AttackResult:
    """The attack of a plan on the target's layout (from ``start``, where given: on a
    layout that holds its states too), with BLAS on one thread (:mod:`~mathhammer.core.blas`:
    a second thread made the chain many times slower on a busy machine)."""
    layout, kernels, state = layout_start(plan, start)
    results = []
    hazardous = Dist.constant(0)
    trimmed: list[float] = []
    with one_thread():
        for step, pair in zip(plan.steps, kernels, strict=True):
            if isinstance(step, MortalWounds):
                state = _mortal_step(step, layout, state, plan)
                count = step.amount.dist
                killed = layout.distribution(state, layout.killed, layout.most_killed)
                results.append(PoolResult.mortal(step.label, count, killed))
                continue
            state, result = pool_step(step, layout, state, plan, pair, trimmed)
            if step.checks.hazardous:
                hazardous = hazardous + hazard(step, plan)
            results.append(result)
    return layout_result(plan, layout, state, results, hazardous, trimmed)


def layout_start(plan: AttackPlan, start: UnitState | None) -> tuple[Layout, Any, np.ndarray]:
    """The layout a plan runs on (its cost checked), the pools' kernels and the state
    distribution it starts from."""
    focus = None if start is None else tuple(sorted({*plan.focus, *start.focus}))
    layout, kernels = check_plan(plan, focus)
    state = layout.initial_state() if start is None else layout.state_of(start)
    return layout, kernels, state


def layout_result(
    plan: AttackPlan,
    layout: Layout,
    state: np.ndarray,
    results: Sequence[PoolResult],
    hazardous: Dist,
    trimmed: Sequence[float],
) -> AttackResult:
    """The result of a plan that left ``state`` on its layout."""
    groups = tuple(
        GroupResult(
            g,
            layout.distribution(state, killed, most_killed),
            damage=layout.distribution(state, lost, most_lost),
        )
        for g, (killed, most_killed, lost, most_lost) in zip(
            plan.target.groups, layout.by_group, strict=True
        )
    )
    killed = layout.distribution(state, layout.killed, layout.most_killed)
    return AttackResult(
        target=plan.target,
        rules=plan.ruleset.name,
        killed=killed,
        damage=layout.distribution(state, layout.damage, layout.most_damage),
        groups=groups,
        pools=tuple(results),
        hazardous=hazardous,
        tests=tests_after(plan, killed),
        trimmed=float(sum(trimmed)),
        state=UnitState(plan.target, plan.ruleset.name, layout.positions, state, layout.focus),
    )
