"""One pool, or one mortal-wound step, for every trial of a block.

A pool rolls its attacks, hits (with re-rolls, Sustained and Lethal Hits), wounds, then
allocates each trial's save dice lowest first (:mod:`~mathhammer.montecarlo.saves`);
devastating wounds follow, one per vectorised step, then the hazard rolls. The outcome
of each stage is returned per trial, to be tallied.
"""

from __future__ import annotations

import numpy as np

from ..model.pools import MortalWounds, Pool
from ..rules.base import CommandReroll, PoolChecks, Ruleset
from .rolls import (
    categorise,
    damage_roll,
    defended_damage,
    feel_no_pain,
    rerolled_damage,
    roll_sum,
)
from .saves import save_dice
from .state import TargetState
from .tables import most_dice

__all__ = ["devastating_wounds", "mortal_wounds", "pool_stages", "save_dice"]


def devastating_wounds(
    rng: np.random.Generator,
    ruleset: Ruleset,
    checks: PoolChecks,
    target: TargetState,
    count: np.ndarray,
    used: np.ndarray | None = None,
) -> None:
    """Each critical wound: mortal wounds equal to D, damaging at most one model (``used``:
    each trial's command re-roll of a damage roll, as :func:`save_dice` left it)."""
    trials = np.flatnonzero(count)
    for k in range(most_dice(count)):
        trials = trials[count[trials] > k]
        group = target.current_of(trials, checks.precision_group)
        live = group >= 0
        if not live.any():
            break
        rolled_damage, add = damage_roll(rng, checks, int(live.sum()))
        unit, here, struck = target.unit, trials[live], group[live]
        left = target.wounds[struck] - target.hurt[here, struck]
        command = None if used is None else (here, used)
        rolled_damage = rerolled_damage(
            rng, ruleset, checks, unit, struck, left, rolled_damage, add, True, command
        )
        d = defended_damage(ruleset, checks, unit, group[live], rolled_damage, add, mortal=True)
        left = feel_no_pain(rng, ruleset, target.unit, group[live], d, mortal=True)
        target.lose(trials[live], group[live], left)


def mortal_wounds(
    rng: np.random.Generator, ruleset: Ruleset, step: MortalWounds, target: TargetState
) -> np.ndarray:
    """Mortal wounds from another source: one wound at a time, spilling over; the count."""
    count = step.amount.roll(rng, len(target.dead))
    trials = np.flatnonzero(count)
    for k in range(int(count.max())):
        trials = trials[count[trials] > k]
        group = target.current_of(trials, None)
        live = group >= 0
        if not live.any():
            break
        one = np.ones(int(live.sum()), dtype=np.int64)
        left = feel_no_pain(rng, ruleset, target.unit, group[live], one, mortal=True)
        target.lose(trials[live], group[live], left)  # one wound at a time: it spills over
    return count


def _attacks(rng: np.random.Generator, pool: Pool, checks: PoolChecks, trials: int) -> np.ndarray:
    """The attacks of each trial: every weapon's A and bonus attacks, rolled die by die
    (a constant is rolled by no die)."""
    attacks = np.zeros(trials, dtype=np.int64)
    for weapon, count in pool.weapons:
        for dice in (checks.attacks_of(weapon.attacks), *checks.bonus_attacks):
            if dice.is_constant:
                attacks += count * dice.bonus
            else:
                attacks += dice.roll(rng, (trials, count)).sum(axis=1)
    return attacks


def _command(checks: PoolChecks, step: str) -> CommandReroll | None:
    """The pool's command re-roll, if it re-rolls a die of this step."""
    command = checks.reroll_one
    return command if command is not None and command.step == step else None


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
    attacks = _attacks(rng, pool, checks, trials)
    hits, crits = _hits(rng, checks, attacks)
    extra, automatic, to_wound = _critical_hits(rng, checks, hits, crits)
    wounds, critical_wounds = categorise(rng, to_wound, checks.wound, _command(checks, "wound"))
    devastating = critical_wounds if checks.devastating else 0 * critical_wounds
    to_save = wounds + automatic + (critical_wounds - devastating)
    command = _command(checks, "damage")
    used = None if command is None else np.zeros(trials, dtype=bool)
    with target.facing(checks.facing(target.unit)):  # a Feel No Pain against this pool
        unsaved = save_dice(rng, ruleset, checks, target, to_save, used)
        devastating_wounds(rng, ruleset, checks, target, devastating, used)
    hazard = _hazard(rng, ruleset, pool, checks, trials, hazard_wounds)
    return {
        "attacks": attacks,
        "hits": hits + crits + extra,
        "wounds": wounds + critical_wounds + automatic,
        "unsaved": unsaved,
        "devastating": devastating,
        "killed": target.killed,
        "hazard": hazard,
    }


def _hits(
    rng: np.random.Generator, checks: PoolChecks, attacks: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Each trial's hits that are not critical, and its critical hits; without a hit roll
    every attack hits automatically, never critically."""
    if checks.hit is None:
        return attacks, np.zeros(attacks.size, dtype=np.int64)
    return categorise(rng, attacks, checks.hit, _command(checks, "hit"))


def _critical_hits(
    rng: np.random.Generator, checks: PoolChecks, hits: np.ndarray, crits: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """What the critical hits add, per trial: the extra hits of [SUSTAINED HITS], the
    automatic wounds of [LETHAL HITS], and the hits that roll to wound."""
    extra = roll_sum(rng, checks.sustained, crits) if checks.sustained is not None else 0 * crits
    automatic = crits if checks.lethal else 0 * crits
    to_wound = hits + extra + (0 * crits if checks.lethal else crits)
    return extra, automatic, to_wound


def _hazard(
    rng: np.random.Generator,
    ruleset: Ruleset,
    pool: Pool,
    checks: PoolChecks,
    trials: int,
    hazard_wounds: int,
) -> np.ndarray:
    """The mortal wounds each trial's attackers suffer from [HAZARDOUS]: a roll per weapon
    fired, ``hazard_wounds`` for each one failed."""
    if not checks.hazardous:
        return np.zeros(trials, dtype=np.int64)
    rolls = sum(count for _, count in pool.weapons)
    faces = rng.integers(1, 7, size=(trials, rolls))
    hazard: np.ndarray = ruleset.hazard_fails(faces).sum(axis=1) * hazard_wounds
    return hazard
