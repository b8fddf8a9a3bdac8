"""The exact engine's limits, checked before an attack is computed.

:func:`check_plan` refuses a plan the exact engine cannot compute in seconds: first the
sizes a user gives (attack dice, hits, damage, mortal wounds, target wounds: the limits
of :mod:`mathhammer.core.limits`), then each step's estimated memory and work
(:mod:`mathhammer.exact.cost`) against the target's states. Each refusal is a
:class:`~mathhammer.errors.LimitError` naming the size and the Monte Carlo remedy.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, NamedTuple

import numpy as np

from ..core.caches import register
from ..core.limits import (
    MAX_DAMAGE,
    MAX_MORTAL_WOUNDS,
    MAX_POOL_DICE,
    MAX_POOL_HITS,
    MAX_UNIT_WOUNDS,
    SIMULATE_HINT,
    check_limit,
    shorten,
)
from ..core.lru import SizedCache
from ..core.tuning import DENSE_LIMIT, RUN_WORK
from ..model.pools import MortalWounds
from ..model.profiles import Unit
from ..rules.base import FACE_ARRAY, PoolChecks, Ruleset, save_face_weights
from ..rules.plan import AttackPlan, PlanLimits, PlannedPool, check_sizes
from .chain import save_blocks
from .cost import Cost, apply_cost, chain_cost, check_cost, hit_cost, series_cost, wound_cost
from .damage import group_damage, never_zero
from .layout import Layout
from .steps import hit_kernel, split_kernel, wound_kernel

__all__ = [
    "EXACT_LIMITS",
    "Checked",
    "check_plan",
    "kernel_kind",
    "mortal_cost",
    "plan_work",
    "pool_cost",
    "save_weights",
    "saved_faces",
    "stage_cost",
]

#: The exact engine's limits on a plan's sizes.
EXACT_LIMITS = PlanLimits(
    dice=MAX_POOL_DICE,
    hits=MAX_POOL_HITS,
    damage=MAX_DAMAGE,
    mortal_wounds=MAX_MORTAL_WOUNDS,
    hint=SIMULATE_HINT,
)


def saved_faces(checks: PoolChecks, target: Unit) -> np.ndarray:
    """``saved[g, f - 1]``: a model of group ``g`` saves a natural ``f`` against the pool.

    Kept by the pool's save check and the groups (a ruleset makes one check per AP, so a
    batch asks for the same few again and again); read-only."""
    key: tuple[Any, ...] | None = (checks.saves, target.groups_key)
    try:
        found = _SAVED.get(key)
    except TypeError:  # a check bound to an unhashable argument: not kept
        found, key = None, None
    if found is None:
        found = np.array([checks.saves(FACE_ARRAY, g) for g in target.groups], dtype=bool)
        found.setflags(write=False)
        if key is not None:
            _SAVED.put(key, found, found.size)
    return found


#: :func:`saved_faces` by the pool's save check and the target's groups.
_SAVED: SizedCache[Any, np.ndarray] = register(
    SizedCache(max_size=2**20, max_items=4096, name="saved faces")
)


def save_weights(checks: PoolChecks, saved: np.ndarray) -> np.ndarray | None:
    """The weights of one save die's faces by the group current as the pool's dice are
    rolled (:func:`~mathhammer.rules.base.save_face_weights`), or None when the defender
    re-rolls nothing (every face 1/6)."""
    if checks.save_reroll in (None, "command"):  # a command re-roll: as the dice resolve
        return None
    return save_face_weights(saved, checks.save_reroll)


def kernel_kind(k: np.ndarray) -> str:
    """How the engine convolves a per-die kernel: ``"bernoulli"``, ``"split"`` or ``"general"``.

    Examples
    --------
    >>> kernel_kind(np.array([[0.5], [0.5]])), kernel_kind(np.array([[0.5, 0.2], [0.3, 0.0]]))
    ('bernoulli', 'split')
    """
    if k.shape == (2, 1):
        return "bernoulli"
    return "split" if split_kernel(k) is not None else "general"


def _transition(layout: Layout, target: Unit, damage: int, stacked: bool = False) -> float:
    """Work of one state vector (or one row of a stack) through the pool's damage transition."""
    wounds = max(g.wounds for g in target.groups)
    nonzero = layout.size * (min(damage, wounds) + 2)
    return apply_cost(layout.size, nonzero, layout.size <= DENSE_LIMIT, stacked)


def pool_cost(
    step: PlannedPool,
    target: Unit,
    layout: Layout,
    kernels: tuple[np.ndarray, np.ndarray] | None = None,
    ruleset: Ruleset | None = None,
) -> tuple[Cost, str]:
    """The estimated cost of one pool against ``target``, and the sizes it comes from.

    ``kernels`` are the pool's hit and wound kernels, when they are known already. Given
    the ``ruleset``, devastating wounds that always cost a wound are counted up to the
    unit's wounds only, as the chain counts them (:func:`~mathhammer.exact.chain.cap_passengers`).
    """
    checks = step.checks
    hk, wk = (hit_kernel(checks), wound_kernel(checks)) if kernels is None else kernels
    stages, to_save, width = stage_cost(step, hk, wk)
    if ruleset is not None:
        width = _capped_width(checks, target, layout, ruleset, width)
    apply = _transition(layout, target, step.damage)
    # per face block, whether some group fails its dice (read in Python: six faces at most)
    acting = [not all(p.tolist()) for _, _, p in save_blocks(saved_faces(checks, target))]
    stacked = _transition(layout, target, step.damage, stacked=True)
    chain = chain_cost(to_save - 1, width, layout.size, apply, acting, stacked)
    devastating = series_cost(width, 1, layout.size, apply) if width > 1 else Cost()
    sizes = (
        f"{step.attack_dice} attack dice, {to_save - 1} dice to save, "
        f"{width - 1} devastating wounds, {layout.size} target states"
    )
    return stages + chain + devastating, sizes


def _capped_width(
    checks: PoolChecks, target: Unit, layout: Layout, ruleset: Ruleset, width: int
) -> int:
    """The counts of devastating wounds (``width``) the chain takes: up to the unit's
    wounds where each devastating wound costs one."""
    if width > 1 and never_zero(group_damage(checks, target, ruleset)[1]):
        return min(width, layout.most_damage + 1)
    return width


def stage_cost(step: PlannedPool, hk: np.ndarray, wk: np.ndarray) -> tuple[Cost, int, int]:
    """The estimated cost of a pool's hit and wound steps (kernels ``hk`` and ``wk``), and
    the shape ``(K + 1, M + 1)`` of its dice to save and devastating wounds. Kept by the
    attack dice and the kernels' values."""
    return _stage_cost(step.attack_dice, hk.shape, hk.tobytes(), wk.shape, wk.tobytes())


@register
@lru_cache(maxsize=4096)
def _stage_cost(
    dice: int,
    hit_shape: tuple[int, ...],
    hit_values: bytes,
    wound_shape: tuple[int, ...],
    wound_values: bytes,
) -> tuple[Cost, int, int]:
    hk = np.frombuffer(hit_values).reshape(hit_shape)
    wk = np.frombuffer(wound_values).reshape(wound_shape)
    shape = (hit_shape[0], hit_shape[1])
    hit, rows, columns = hit_cost(dice, shape, kernel_kind(hk), int(np.count_nonzero(hk)))
    tops = None
    split = split_kernel(hk)
    if split is not None:  # y critical hits leave at most dice - y hits and a * y extra
        tops = [min(rows - 1, dice + (split[3] - 1) * y) for y in range(columns)]
    kind, nonzero = kernel_kind(wk), int(np.count_nonzero(wk))
    wound, to_save, width = wound_cost(rows, columns, kind, nonzero, tops)
    return hit + wound, to_save, width


def mortal_cost(step: MortalWounds, target: Unit, layout: Layout) -> tuple[Cost, str]:
    """The estimated cost of a mortal-wound step, and the sizes it comes from.

    Without Feel No Pain every mortal wound costs a wound, so the state stops changing
    after the unit's wounds at most (:func:`~mathhammer.exact.chain.factored_series`
    stops there).
    """
    terms = step.amount.max + 1
    if all(g.feel_no_pain(True) is None for g in target.groups):
        terms = min(terms, target.total_wounds + 2)
    apply = apply_cost(layout.size, 2 * layout.size, layout.size <= DENSE_LIMIT)
    sizes = f"{step.amount.max} mortal wounds, {layout.size} target states"
    return series_cost(terms, 1, layout.size, apply), sizes


class Checked(NamedTuple):
    """What :func:`check_plan` found out on the way: the target's layout, and each step's
    hit and wound kernels (None for a mortal-wound step), for the engine to use."""

    layout: Layout
    kernels: list[tuple[np.ndarray, np.ndarray] | None]


#: Plans checked before, by what they compute and the layout's focus: checking one (the
#: layout, the kernels, every pool's cost estimated) is done once, e.g. for the many prefix
#: attacks of a ranking of pool orders.
CHECKED: SizedCache[Any, Checked] = register(
    SizedCache(max_size=2**21, max_items=4096, name="checked plans")  # in target states
)


def check_plan(plan: AttackPlan, focus: tuple[int, ...] | None = None) -> Checked:
    """Refuse a plan beyond the exact engine's limits (see :func:`_check_plan`); a plan
    checked before is found by value."""
    key = (plan.key, plan.focus if focus is None else focus)
    found = CHECKED.get(key)
    if found is None:
        found = _check_plan(plan, focus)
        CHECKED.put(key, found, found.layout.size)
    return found


def _check_plan(plan: AttackPlan, focus: tuple[int, ...] | None = None) -> Checked:
    """Refuse a plan beyond the exact engine's limits; its layout has the plan's focus,
    or ``focus`` where given (the groups a carried-on state made vary too).

    Examples
    --------
    >>> import mathhammer as mh
    >>> from mathhammer.rules.plan import plan_attack
    >>> squad = mh.Unit.of("Squad", 5, 4, 3, 2)
    >>> check_plan(plan_attack([(mh.Weapon("Gun", 1, 3, 4, 0, 1), 20)], squad)).layout.size
    11
    >>> gun = mh.Weapon("Gun", 1, 3, 4, 0, 1, abilities="[LETHAL HITS], [DEVASTATING WOUNDS]")
    >>> check_plan(plan_attack([(gun, 2000)], squad))
    Traceback (most recent call last):
    ...
    mathhammer.errors.LimitError: estimated work of pool 'Gun x2000' must be at most ...
    """
    target = plan.target
    check_limit("target wounds", target.total_wounds, MAX_UNIT_WOUNDS, SIMULATE_HINT)
    check_sizes(plan, EXACT_LIMITS)
    layout = Layout.of(target, plan.focus if focus is None else focus)
    kernels = [_checked_step(step, target, layout, plan.ruleset) for step in plan.steps]
    return Checked(layout, kernels)


def _checked_step(
    step: PlannedPool | MortalWounds, target: Unit, layout: Layout, ruleset: Ruleset
) -> tuple[np.ndarray, np.ndarray] | None:
    """Refuse a step whose estimated cost is beyond the limits; return its hit and wound
    kernels (None for a mortal-wound step)."""
    if isinstance(step, MortalWounds):
        cost, sizes = mortal_cost(step, target, layout)
        check_cost(f"{shorten(step.label)!r}", cost, sizes)
        return None
    pair = (hit_kernel(step.checks), wound_kernel(step.checks))
    cost, sizes = pool_cost(step, target, layout, pair, ruleset)
    if not cost.within_limits:  # refused: the message says which pool
        check_cost(f"pool {shorten(step.label)!r}", cost, sizes)
    return pair


def plan_work(plan: AttackPlan) -> float:
    """The estimated work of the whole plan, in operations: each step's arrays
    (:func:`pool_cost`, :func:`mortal_cost`) and its run
    (:data:`~mathhammer.core.tuning.RUN_WORK`). A plan beyond the exact engine's limits
    is refused as :func:`check_plan` refuses it.

    Examples
    --------
    >>> import mathhammer as mh
    >>> from mathhammer.rules.plan import plan_attack
    >>> squad = mh.Unit.of("Squad", 5, 4, 3, 2)
    >>> small = plan_work(plan_attack([(mh.Weapon("Gun", 1, 3, 4, 0, 1), 5)], squad))
    >>> large = plan_work(plan_attack([(mh.Weapon("Gun", 1, 3, 4, 0, 1), 500)], squad))
    >>> 0 < small < large
    True
    """
    checked = check_plan(plan)
    work = 0.0
    for step, kernels in zip(plan.steps, checked.kernels, strict=True):
        work += RUN_WORK + _step_cost(step, plan.target, checked.layout, kernels, plan.ruleset)
    return work


def _step_cost(
    step: PlannedPool | MortalWounds,
    target: Unit,
    layout: Layout,
    kernels: tuple[np.ndarray, np.ndarray] | None,
    ruleset: Ruleset,
) -> float:
    """The estimated work of one step's arrays."""
    if isinstance(step, MortalWounds):
        return mortal_cost(step, target, layout)[0].work
    return pool_cost(step, target, layout, kernels, ruleset)[0].work
