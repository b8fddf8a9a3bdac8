"""The save dice of one pool, allocated lowest first, for every trial of a block.

Each trial's save dice are taken in sorted order, lowest first (or, for a ruleset that
resolves saves one attack at a time, in the order they are rolled), one die per vectorised
step against each trial's current model; a failed save rolls its damage (then Feel No
Pain) and the model loses it, with no spill-over. The dice are never sorted: a trial's
sorted dice are read from its counts of each face, and against one group whose failed
saves are its lowest faces (every threshold save) only the failed saves, which come
first, are walked through. Either way the damage dice are rolled for the same trials in
the same order as a walk through sorted dice would roll them, so the samples for a seed
do not depend on the path.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

import numpy as np

from ..rules.base import PoolChecks, Ruleset
from .rolls import (
    count_rolled,
    d6,
    damage_roll,
    defended_damage,
    feel_no_pain,
    rerolled_damage,
    rolled,
)
from .state import TargetState
from .tables import count_where, faces_table, is_prefix, most_dice, sorted_dice

if TYPE_CHECKING:
    from ..model.profiles import ModelGroup

__all__ = ["save_dice"]


def save_dice(
    rng: np.random.Generator,
    ruleset: Ruleset,
    checks: PoolChecks,
    target: TargetState,
    count: np.ndarray,
    used: np.ndarray | None = None,
) -> np.ndarray:
    """Allocate each trial's save dice, lowest first; return the failed saves per trial.

    ``used``: each trial's flag of its command re-roll of a damage roll used (set here),
    when the pool has one.

    Against one group (in the standard allocation order) whose failed saves are its
    lowest faces (every threshold save), a trial's failed saves are its first dice once
    sorted: only they are walked through. Otherwise each trial's dice are walked in
    sorted order, read from its counts of each face (no sort), and each is checked
    against the group current at its turn. Either way the damage dice are rolled for
    the same trials in the same order.
    """
    groups = target.unit.groups
    fails = np.array([faces_table(partial(_fails, checks.saves, g), bool) for g in groups])
    if target.lone and is_prefix(fails[0]):
        failures = _lone_failures(rng, checks, target, count, fails)
        return _lone_group(rng, ruleset, checks, target, failures, used)
    command = checks.save_reroll == "command"
    saved_again = np.zeros(count.size, dtype=bool) if command else None
    if ruleset.sorted_saves:
        dice, reroll = sorted_dice(_rolled_faces(rng, checks, target, count, fails)), None
    else:  # one attack at a time, each re-rolled as it is resolved (docs/rules.md §8.2)
        dice, reroll = rolled(rng, count), checks.save_reroll
    return _in_order(rng, ruleset, checks, target, dice, count, fails, used, saved_again, reroll)


#: The defender's re-rolls made as the save dice are rolled (the command re-roll is not).
_REROLLS = ("ones", "failures")


def _rolled_faces(
    rng: np.random.Generator,
    checks: PoolChecks,
    target: TargetState,
    count: np.ndarray,
    fails: np.ndarray,
) -> np.ndarray:
    """Each trial's ``count`` save dice as rolled, the defender's re-rolls made."""
    faces = rolled(rng, count)
    if checks.save_reroll in _REROLLS:
        faces = _save_rerolls(rng, checks, target, faces, fails)
    return faces


def _lone_failures(
    rng: np.random.Generator,
    checks: PoolChecks,
    target: TargetState,
    count: np.ndarray,
    fails: np.ndarray,
) -> np.ndarray:
    """Each trial's failed saves against one group whose failed saves are its lowest
    faces, the defender's re-rolls (and command re-roll) made."""
    if checks.save_reroll in _REROLLS:
        failures = count_where(_rolled_faces(rng, checks, target, count, fails), fails[0])
    else:  # the faces are not read again: counted as they are rolled
        failures = count_rolled(rng, count, fails[0])
    if checks.save_reroll == "command":
        failures = _first_failure_again(rng, target, failures, fails[0])
    return failures


def _first_failure_again(
    rng: np.random.Generator, target: TargetState, failures: np.ndarray, fails: np.ndarray
) -> np.ndarray:
    """The defender's command re-roll against one group: each trial's first failed save,
    if it has one and a model to take it, rolled again; saved, it is one failure less
    (docs/rules.md D33)."""
    trials = np.flatnonzero((failures > 0) & (target.dead[:, 0] < target.count[0]))
    saves = ~fails[d6(rng, trials.shape)]
    out = failures.copy()
    out[trials[saves]] -= 1
    return out


def _save_rerolls(
    rng: np.random.Generator,
    checks: PoolChecks,
    target: TargetState,
    faces: np.ndarray,
    fails: np.ndarray,
) -> np.ndarray:
    """The defender's re-rolls, made as the dice are rolled, before they are sorted: each
    1, or each die that fails against the model current in its trial at that moment, is
    rolled once more (docs/rules.md §4.7, D29)."""
    if checks.save_reroll == "ones":
        again = faces == 1
    else:
        group = target.current_of(np.arange(faces.shape[0]), checks.precision_group)
        again = fails[np.maximum(group, 0)[:, None], faces] & (group >= 0)[:, None]
    return np.where(again, d6(rng, faces.shape), faces)


def _fails(saves: Callable[[Any, ModelGroup], Any], group: ModelGroup, faces: Any) -> Any:
    return ~np.asarray(saves(faces, group), dtype=bool)


def _lone_group(
    rng: np.random.Generator,
    ruleset: Ruleset,
    checks: PoolChecks,
    target: TargetState,
    failures: np.ndarray,
    used: np.ndarray | None,
) -> np.ndarray:
    """Against a unit of one group: each trial's ``failures`` failed saves, one per
    vectorised step while its unit stands; the failed saves allocated.

    The trials still taking failed saves are carried as short arrays of their own state,
    dropped as they finish, and written back once.
    """
    group = target.unit.groups[0]
    dead, hurt = target.dead[:, 0], target.hurt[:, 0]
    unsaved = np.zeros(failures.size, dtype=np.int64)
    trials = np.flatnonzero((failures > 0) & (dead < group.count))
    left, now_dead, now_hurt = failures[trials], dead[trials], hurt[trials]
    certain = None if used is not None else _certain_damage(ruleset, checks, group)
    if certain is not None:
        taken = _certain_walk(group, certain, left, now_dead, now_hurt)
        dead[trials], hurt[trials], unsaved[trials] = taken
        return unsaved
    column = 0
    while trials.size:
        column += 1
        wounds_left = group.wounds - now_hurt
        lost = now_hurt + _damage(rng, ruleset, checks, target, wounds_left, trials, used)
        dies = lost >= group.wounds
        now_dead += dies
        now_hurt = np.where(dies, 0, lost)
        going = (left <= column) | (now_dead >= group.count)
        done = trials[going]
        dead[done], hurt[done], unsaved[done] = now_dead[going], now_hurt[going], column
        staying = ~going
        trials, left = trials[staying], left[staying]
        now_dead, now_hurt = now_dead[staying], now_hurt[staying]
    return unsaved


def _certain_damage(ruleset: Ruleset, checks: PoolChecks, group: ModelGroup) -> int | None:
    """The damage every failed save inflicts on a model of ``group`` when no die decides
    it (a fixed Damage and [MELTA] X, no damage re-roll, no Feel No Pain) and it is at
    least 1; else None. No random number is drawn for such damage (:func:`_damage`
    would draw none either)."""
    if _dice_decide_damage(checks, group):
        return None
    melta = checks.melta
    add = checks.damage_add + (0 if melta is None else melta.bonus)
    value = ruleset.modified_damage(
        np.array([checks.damage.bonus]),
        checks.damage_multiply,
        add,
        group.halve_damage,
        group.damage_reduction,
    )
    amount = int(np.asarray(value)[0])
    return amount if amount >= 1 else None


def _dice_decide_damage(checks: PoolChecks, group: ModelGroup) -> bool:
    """True when a die may decide a failed save's damage on ``group``: a random Damage or
    [MELTA] X, a damage re-roll, or Feel No Pain."""
    melta = checks.melta
    if not checks.damage.is_constant or (melta is not None and not melta.is_constant):
        return True
    return checks.reroll_damage == "optimal" or group.feel_no_pain(False) is not None


def _certain_walk(
    group: ModelGroup, amount: int, failures: np.ndarray, dead: np.ndarray, hurt: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Models destroyed, wounds lost on the current model and failed saves resolved, after
    each trial's ``failures`` failed saves of ``amount`` damage each against one group
    (its ``dead`` models and ``hurt`` wounds lost on the current one before): what
    :func:`_lone_group`'s walk gives, in closed form. The current model falls to
    ``ceil((W - hurt) / amount)`` of them, each fresh one to ``ceil(W / amount)``, and
    those past the last model are not resolved."""
    wounds = group.wounds
    first = -(-(wounds - hurt) // amount)  # to destroy the current model
    each = -(-wounds // amount)  # to destroy a fresh one
    resolved = np.minimum(failures, first + (group.count - dead - 1) * each)
    past = resolved - first  # failed saves after the current model fell (if it did)
    fell = past >= 0
    killed = np.where(fell, 1 + past // each, 0)
    now_hurt = np.where(fell, past % each * amount, hurt + resolved * amount)
    return dead + killed, now_hurt, resolved


def _damage(
    rng: np.random.Generator,
    ruleset: Ruleset,
    checks: PoolChecks,
    target: TargetState,
    left: np.ndarray,
    trials: np.ndarray,
    used: np.ndarray | None,
) -> np.ndarray:
    """The damage of failed saves of ``trials`` against the one group of the target, its
    current models with ``left`` wounds left, after its modifiers and Feel No Pain."""
    unit = target.unit
    group = unit.groups[0]
    size = left.size
    rolled_damage, add = damage_roll(rng, checks, size)
    zeros = np.zeros(size, dtype=np.int64)
    command = None if used is None else (trials, used)
    rolled_damage = rerolled_damage(
        rng, ruleset, checks, unit, zeros, left, rolled_damage, add, command=command
    )
    d = np.asarray(
        ruleset.modified_damage(
            rolled_damage, checks.damage_multiply, add, group.halve_damage, group.damage_reduction
        ),
        dtype=np.int64,
    )
    if group.feel_no_pain(False) is None:  # no roll to make
        return d
    return feel_no_pain(rng, ruleset, unit, zeros, d)


def _in_order(
    rng: np.random.Generator,
    ruleset: Ruleset,
    checks: PoolChecks,
    target: TargetState,
    dice: np.ndarray,
    count: np.ndarray,
    fails: np.ndarray,
    used: np.ndarray | None,
    rerolled: np.ndarray | None = None,
    reroll: str | None = None,
) -> np.ndarray:
    """Each trial's save dice in the order of ``dice`` (sorted, or as rolled for a ruleset
    that resolves saves one attack at a time), checked against the group current at each
    die (``fails[group, face]``); the failed saves allocated. With the defender's command
    re-roll (``rerolled``: each trial's flag of it used), a trial's first failed save is
    rolled again and checked against the same model (D33); with a ``reroll`` of ``"ones"``
    or ``"failures"``, each die is re-rolled as it is resolved, against its model."""
    unsaved = np.zeros(count.size, dtype=np.int64)
    trials = np.flatnonzero(count)
    for column in range(most_dice(count)):
        trials = trials[count[trials] > column]
        group = target.current_of(trials, checks.precision_group)
        live = group >= 0
        if not live.any():
            break
        here, group = trials[live], group[live]
        die = dice[here, column]
        if reroll in _REROLLS:
            die = _rerolled_die(rng, die, group, fails, reroll)
        failed = fails[group, die]
        if rerolled is not None:
            _first_failure_rerolled(rng, fails, here, group, failed, rerolled)
        unsaved[here[failed]] += 1
        if failed.any():
            _inflict(rng, ruleset, checks, target, here[failed], group[failed], used)
    return unsaved


def _rerolled_die(
    rng: np.random.Generator, die: np.ndarray, group: np.ndarray, fails: np.ndarray, reroll: str
) -> np.ndarray:
    """Dice resolved one attack at a time, each 1 (``"ones"``) or each failed save against
    its own model (``"failures"``) rolled once more."""
    again = die == 1 if reroll == "ones" else fails[group, die]
    return np.where(again, d6(rng, die.shape), die)


def _first_failure_rerolled(
    rng: np.random.Generator,
    fails: np.ndarray,
    here: np.ndarray,
    group: np.ndarray,
    failed: np.ndarray,
    rerolled: np.ndarray,
) -> None:
    """The defender's command re-roll, at one die of the trials ``here``: a trial's failed
    save, if its re-roll is unused (``rerolled``, set here), rolled again against the
    same model (``group``) and ``failed`` updated (D33)."""
    first = np.flatnonzero(failed & ~rerolled[here])
    rerolled[here[first]] = True
    failed[first] = fails[group[first], d6(rng, first.shape)]


def _inflict(
    rng: np.random.Generator,
    ruleset: Ruleset,
    checks: PoolChecks,
    target: TargetState,
    trials: np.ndarray,
    groups: np.ndarray,
    used: np.ndarray | None,
) -> None:
    """One failed save for each of ``trials``: roll its damage, modified by the group
    it strikes (``groups``), then Feel No Pain; the models lose what is left."""
    unit = target.unit
    rolled_damage, add = damage_roll(rng, checks, trials.size)
    left = target.wounds[groups] - target.hurt[trials, groups]
    command = None if used is None else (trials, used)
    rolled_damage = rerolled_damage(
        rng, ruleset, checks, unit, groups, left, rolled_damage, add, command=command
    )
    d = defended_damage(ruleset, checks, unit, groups, rolled_damage, add)
    target.lose(trials, groups, feel_no_pain(rng, ruleset, unit, groups, d))
