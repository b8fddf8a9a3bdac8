"""One pool, or one mortal-wound step, for every trial of a block.

A pool rolls its attacks, hits (with re-rolls, Sustained and Lethal Hits), wounds, then
sorts each trial's save dice and allocates them lowest first, one die per vectorised
step, against each trial's current model; devastating wounds follow, then the hazard
rolls. The outcome of each stage is returned per trial, to be tallied.
"""

from __future__ import annotations

import numpy as np

from ..model.pools import MortalWounds, Pool
from ..rules.base import PoolChecks, Ruleset
from .rolls import categorise, damage_roll, feel_no_pain, roll, roll_sum
from .state import TargetState

__all__ = ["devastating_wounds", "mortal_wounds", "pool_stages", "save_dice"]

#: A sorted save die of this value marks "no die here" (it sorts after every face).
_NO_DIE = 7


def save_dice(
    rng: np.random.Generator,
    ruleset: Ruleset,
    checks: PoolChecks,
    target: TargetState,
    count: np.ndarray,
) -> np.ndarray:
    """Allocate each trial's save dice, lowest first; return the failed saves per trial."""
    unit = target.unit
    faces, valid = roll(rng, count)
    faces = np.sort(np.where(valid, faces, _NO_DIE), axis=1)
    unsaved = np.zeros(count.size, dtype=np.int64)
    for column in range(faces.shape[1]):
        die = faces[:, column]
        group = target.current(checks.precision_group)
        live = (die != _NO_DIE) & (group >= 0)
        if not live.any():
            break
        failed = np.zeros(die.size, dtype=bool)
        for gi, g in enumerate(unit.groups):
            here = live & (group == gi)
            failed[here] = ~checks.saves(die[here], g)
        unsaved += failed
        trials = np.flatnonzero(failed)
        if trials.size == 0:
            continue
        rolled, add = damage_roll(rng, checks, trials.size)
        groups = group[trials]
        d = np.zeros(trials.size, dtype=np.int64)
        for gi, g in enumerate(unit.groups):
            here = groups == gi
            d[here] = ruleset.modified_damage(
                rolled[here], checks.damage_multiply, add[here], g.halve_damage, g.damage_reduction
            )
        target.lose(trials, groups, feel_no_pain(rng, ruleset, unit, groups, d))
    return unsaved


def devastating_wounds(
    rng: np.random.Generator,
    ruleset: Ruleset,
    checks: PoolChecks,
    target: TargetState,
    count: np.ndarray,
) -> None:
    """Each critical wound: mortal wounds equal to D, damaging at most one model."""
    for k in range(int(count.max()) if count.size else 0):
        group = target.current(checks.precision_group)
        trials = np.flatnonzero((k < count) & (group >= 0))
        if trials.size == 0:
            break
        rolled, add = damage_roll(rng, checks, trials.size)
        d = ruleset.modified_damage(rolled, checks.damage_multiply, add)
        groups = group[trials]
        left = feel_no_pain(rng, ruleset, target.unit, groups, d, mortal=True)
        target.lose(trials, groups, left)


def mortal_wounds(
    rng: np.random.Generator, ruleset: Ruleset, step: MortalWounds, target: TargetState
) -> np.ndarray:
    """Mortal wounds from another source: one wound at a time, spilling over; the count."""
    count = step.amount.roll(rng, len(target.dead))
    for k in range(int(count.max())):
        group = target.current(None)
        trials = np.flatnonzero((k < count) & (group >= 0))
        if trials.size == 0:
            break
        groups = group[trials]
        one = np.ones(trials.size, dtype=np.int64)
        left = feel_no_pain(rng, ruleset, target.unit, groups, one, mortal=True)
        target.lose(trials, groups, left)  # one wound at a time: it spills over
    return count


def pool_stages(
    rng: np.random.Generator,
    ruleset: Ruleset,
    pool: Pool,
    checks: PoolChecks,
    target: TargetState,
    hazard_wounds: int,
) -> dict[str, np.ndarray]:
    """Resolve one pool for every trial; each stage's outcome per trial, by stage name."""
    trials = len(target.dead)
    attacks = np.zeros(trials, dtype=np.int64)
    for weapon, count in pool.weapons:
        per_weapon = weapon.attacks.roll(rng, (trials, count))
        for bonus in checks.bonus_attacks:
            per_weapon = per_weapon + bonus.roll(rng, (trials, count))
        attacks += per_weapon.sum(axis=1)
    if checks.hit is None:  # every attack hits automatically, never critically
        hits, crits = attacks, np.zeros(trials, dtype=np.int64)
    else:
        hits, crits = categorise(rng, attacks, checks.hit)
    extra = roll_sum(rng, checks.sustained, crits) if checks.sustained is not None else 0 * crits
    automatic = crits if checks.lethal else 0 * crits
    to_wound = hits + extra + (0 * crits if checks.lethal else crits)
    wounds, critical_wounds = categorise(rng, to_wound, checks.wound)
    devastating = critical_wounds if checks.devastating else 0 * critical_wounds
    to_save = wounds + automatic + (critical_wounds - devastating)
    unsaved = save_dice(rng, ruleset, checks, target, to_save)
    devastating_wounds(rng, ruleset, checks, target, devastating)
    hazard = np.zeros(trials, dtype=np.int64)
    if checks.hazardous:
        rolls = sum(count for _, count in pool.weapons)
        faces = rng.integers(1, 7, size=(trials, rolls))
        hazard = ruleset.hazard_fails(faces).sum(axis=1) * hazard_wounds
    return {
        "attacks": attacks,
        "hits": hits + crits + extra,
        "wounds": wounds + critical_wounds + automatic,
        "unsaved": unsaved,
        "devastating": devastating,
        "killed": target.killed,
        "hazard": hazard,
    }
