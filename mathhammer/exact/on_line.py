"""The attack of a plan on a one-group target by the closed form of its line of states
(:class:`~mathhammer.exact.single.Line`): the wounds lost, 0 to the group's total, with
each pool's failed saves resolved as a matrix power of a small line."""

from __future__ import annotations

from functools import partial
from typing import Any, NamedTuple

import numpy as np

from ..core.binomial import binomial_thin
from ..core.dist import Dist
from ..core.limits import MAX_TABLE, MAX_WORK
from ..core.tuning import LINE_WORK
from ..model.pools import MortalWounds, Pool
from ..model.profiles import Unit
from ..results.attack import AttackResult, GroupResult, PoolResult
from ..results.state import UnitState
from ..rules.base import FACE_ARRAY, FACES, PoolChecks, Ruleset, failed_faces
from ..rules.plan import AttackPlan, PlannedPool
from .aftermath import NONE, hazard, tests_after
from .budget import save_weights, saved_faces, stage_cost
from .counts import cap_passengers, trim_counts
from .damage import command_damage, group_damage
from .single import Line, failed_saves
from .steps import (
    PlainSteps,
    PoolSteps,
    fixed_dice,
    hit_and_wound,
    hit_kernel,
    plain_stages,
    thinned_dice,
    wound_kernel,
)

__all__ = ["run_line"]


class _LinePool(NamedTuple):
    """A pool the closed form resolves: its planned step, its stages (the plain ones, or
    the hit and wound kernels), the damage per failed save, and per devastating wound
    (None: the pool has none)."""

    step: PlannedPool
    given: PlainSteps | tuple[Any, Any]
    damage: Dist
    mortal: Dist | None


def run_line(plan: AttackPlan, start: UnitState | None = None) -> AttackResult | None:
    """The attack of a plan on a one-group target by the closed form, or None where it
    does not apply: a mortal-wound step, a ruleset with its own allocation order, damage
    that depends on the wounds left, a command re-roll of a damage roll or of a save, or
    a chain past :data:`~mathhammer.exact.single.LINE_WORK` (the layout's engine then
    estimates the cost, and refuses what is too large)."""
    target = plan.target
    if len(target.groups) != 1 or type(plan.ruleset).current_group is not Ruleset.current_group:
        return None
    line = Line.of(target.groups_key)
    pools = _line_pools(plan, line)
    if pools is None:
        return None
    state = _line_start(line, start)
    results = []
    hazardous = NONE
    trimmed: list[float] = []
    for pool in pools:
        state, result = _pool_on_line(pool, line, state, target, trimmed)
        results.append(result)
        if pool.step.checks.hazardous:
            hazardous = hazardous + hazard(pool.step, plan)
    return _line_result(plan, line, state, results, hazardous, trimmed)


def _line_pools(plan: AttackPlan, line: Line) -> list[_LinePool] | None:
    """The plan's pools as the closed form resolves them, or None where it does not apply
    to one of them."""
    pools = []
    for step in plan.steps:
        found = _line_pool(step, plan, line)
        if found is None:
            return None
        pools.append(found)
    return pools


def _line_pool(step: PlannedPool | MortalWounds, plan: AttackPlan, line: Line) -> _LinePool | None:
    """The pool as the closed form resolves it, or None where the closed form does not
    apply to it (:func:`run_line`)."""
    if isinstance(step, MortalWounds):
        return None
    stages = _line_stages(step)
    if stages is None:
        return None
    damage = _line_damage(step, plan)
    if damage is None:
        return None
    (given, with_devastating), (lost, mortal) = stages, damage
    work = line.work(lost._pmf, step.hits)  # the pmf's slot: a property is a call (S3)
    if with_devastating:
        work += line.work(mortal.probabilities, step.hits)
    if work > LINE_WORK:
        return None
    return _LinePool(step, given, lost, mortal if with_devastating else None)


def _line_damage(step: PlannedPool, plan: AttackPlan) -> tuple[Dist, Dist] | None:
    """What a failed save and a devastating wound take from a model of the one group, or
    None where that depends on the wounds left or on a flag beside the states (a command
    re-roll of a damage roll or of a save)."""
    checks, target, ruleset = step.checks, plan.target, plan.ruleset
    per_attack, per_mortal = group_damage(checks, target, ruleset)
    lost, mortal = per_attack[0], per_mortal[0]
    if not isinstance(lost, Dist) or not isinstance(mortal, Dist):
        return None  # damage that depends on the wounds left
    if command_damage(checks, target, ruleset) or checks.save_reroll == "command":
        return None  # a flag beside the states: the layout's
    return lost, mortal


def _line_stages(step: PlannedPool) -> tuple[PlainSteps | tuple[Any, Any], bool] | None:
    """A pool's plain stages, or its hit and wound kernels (None where their tables are
    too large to make), and whether it has devastating wounds."""
    plain = plain_stages(step.pool, step.checks)
    if plain is not None:
        return plain, False
    hk, wk = hit_kernel(step.checks), wound_kernel(step.checks)
    if _too_large(step, hk, wk):
        return None
    return (hk, wk), wk.shape[1] != 1


def _too_large(step: PlannedPool, hk: np.ndarray, wk: np.ndarray) -> bool:
    """Whether the tables of a pool's hit and wound steps (kernels ``hk`` and ``wk``) are
    too large to make (never those of a hit die and a wound die that succeed or not)."""
    if hk.shape == (2, 1) and wk.shape == (2, 1):
        return False
    cost = stage_cost(step, hk, wk)[0]
    return cost.entries > MAX_TABLE or cost.work > MAX_WORK


def _line_start(line: Line, start: UnitState | None) -> np.ndarray:
    """The state distribution on the line before the first pool."""
    state = np.zeros(line.size + 1)
    if start is None:
        state[0] = 1.0
    else:
        np.add.at(state, start.positions[:, 0], start.probabilities)
    return state


def _pool_on_line(
    pool: _LinePool, line: Line, state: np.ndarray, target: Unit, trimmed: list[float]
) -> tuple[np.ndarray, PoolResult]:
    """The state distribution after one pool, and the pool's result."""
    step, checks = pool.step, pool.step.checks
    taken = pool.damage._pmf  # the pmf's slot: a property is a call (S3)
    given = pool.given
    stages = given if isinstance(given, PlainSteps) else hit_and_wound(step.pool, checks, given)
    fail = _fail(checks, target)
    devastating = NONE
    if isinstance(stages, PlainSteps):  # a plain pool: its dice thinned once more
        after, unsaved = _plain_on_line(step, line, state, stages.wound * fail, taken, trimmed)
    else:
        if pool.mortal is not None:  # the failed saves jointly with devastating wounds
            devastating = Dist._trusted(stages.to_save.sum(axis=0))
            mortal = pool.mortal.probabilities
            after, failed = _devastating_line(
                line, state, stages.to_save, fail, taken, mortal, trimmed
            )
        else:
            failed = _failed_saves(stages, fail)
            after = line.apply(state, failed, taken, trimmed)
        unsaved = partial(_line_unsaved, line, state, failed, taken)
    result = PoolResult(
        label=step.pool.label,  # the pool's field, not the plan's property (S3)
        weapons=step.pool.weapons,
        attacks=stages.attacks,
        hits=stages.hits,
        wounds=stages.wounds,
        killed=_distribution(after, line.killed),
        unsaved_source=unsaved,
        devastating=devastating,
        abilities=checks.used,
    )
    return after, result


def _failed_saves(stages: PoolSteps, fail: float) -> np.ndarray:
    """The pmf of a pool's failed saves, each wound's save failing with probability
    ``fail`` (no devastating wounds)."""
    if stages.die is None:
        return binomial_thin(stages.to_save[:, 0], fail)
    return failed_saves(stages.attacks.probabilities, stages.die[:, 0], fail)


def _plain_on_line(
    step: PlannedPool,
    line: Line,
    state: np.ndarray,
    q: float,
    taken: np.ndarray,
    trimmed: list[float],
) -> tuple[np.ndarray, Any]:
    """The state after a plain pool whose dice each fail a save with probability ``q``,
    and the source of its unsaved wounds: from its number of dice where that costs less
    (the failed saves then made when first asked for), else from its failed saves."""
    dice = fixed_dice(step.pool, step.checks)
    after = None if dice is None else line.apply_dice(state, dice, q, taken)
    if after is not None:
        return after, partial(_dice_unsaved, line, state, step.pool, step.checks, q, taken)
    failed = thinned_dice(step.pool, step.checks, q)
    after = line.apply(state, failed, taken, trimmed)
    return after, partial(_line_unsaved, line, state, failed, taken)


def _line_result(
    plan: AttackPlan,
    line: Line,
    state: np.ndarray,
    results: list[PoolResult],
    hazardous: Dist,
    trimmed: list[float],
) -> AttackResult:
    """The result of a plan that left ``state`` on the line."""
    target = plan.target
    killed = results[-1].killed if results else _distribution(state, line.killed)
    damage = Dist._trusted(state)
    return AttackResult(
        target=target,
        rules=plan.ruleset.name,
        killed=killed,
        damage=damage,
        groups=(GroupResult(target.groups[0], killed, damage=damage),),
        pools=tuple(results),
        hazardous=hazardous,
        tests=tests_after(plan, killed),
        trimmed=float(sum(trimmed)),
        state=UnitState(target, plan.ruleset.name, line.positions, state),
    )


def _devastating_line(
    line: Line,
    state: np.ndarray,
    to_save: np.ndarray,
    fail: float,
    damage: np.ndarray,
    mortal: np.ndarray,
    trimmed: list[float],
) -> tuple[np.ndarray, np.ndarray]:
    """The state after a pool with devastating wounds on a one-group target, and the pmf of
    its failed saves: as :func:`~mathhammer.exact.chain.apply_pool` on the group's layout,
    the count of devastating wounds trimmed and capped at the wounds the group has (when
    each costs one), the dice to save thinned by ``fail`` jointly with it, the failed
    saves resolved, then the devastating wounds (:meth:`Line.apply_devastating`)."""
    kept, cut = trim_counts(to_save.T)
    to_save = kept.T
    trimmed.append(cut)
    if mortal[0] == 0.0:  # every devastating wound costs a wound
        to_save = cap_passengers(to_save, line.size)
    failed = binomial_thin(to_save, fail)
    after = line.apply_devastating(state, failed, damage, mortal, trimmed)
    return after, failed.sum(axis=1)


def _fail(checks: PoolChecks, target: Unit) -> float:
    """P(a save fails) against the target's one group, the defender's re-rolls included."""
    if checks.save_reroll is None:
        return failed_faces(checks.saves(FACE_ARRAY, target.groups[0])) / len(FACES)
    saved_by_face = saved_faces(checks, target)
    faces = save_weights(checks, saved_by_face)
    assert faces is not None  # a command re-roll is the layout's
    return float(faces[0][~saved_by_face[0]].sum())


def _distribution(state: np.ndarray, values: np.ndarray) -> Dist:
    """The distribution of a per-state integer quantity (as :meth:`Layout.distribution`)."""
    counts: Any = np.bincount(values, weights=state, minlength=int(values[-1]) + 1)
    return Dist._trusted(counts)  # weighted counts are float64 already


def _line_unsaved(line: Line, state: np.ndarray, failed: np.ndarray, damage: np.ndarray) -> Dist:
    """A pool's failed saves that inflicted damage on a one-group target (computed on
    first access)."""
    return Dist._trusted(line.unsaved(state, failed, damage))


def _dice_unsaved(
    line: Line, state: np.ndarray, pool: Pool, checks: PoolChecks, fail: float, damage: np.ndarray
) -> Dist:
    """:func:`_line_unsaved` of a pool whose dice failed their saves with probability
    ``fail`` each (its failed saves computed too, on first access)."""
    return _line_unsaved(line, state, thinned_dice(pool, checks, fail), damage)
