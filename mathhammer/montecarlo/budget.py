"""The Monte Carlo's limits: trials, dice one trial rolls at once, and the block size.

The simulation keeps counts, not trials: its memory is that of one block of trials,
whatever the number of trials. A block rolls a rectangular array of dice, trials by the
most dice a trial rolls at once (:func:`trial_dice`), so a pool of many dice is simulated
in smaller blocks (:func:`block_size`): a block rolls at most
:data:`~mathhammer.core.limits.BLOCK_DICE` dice. What would exhaust memory even one trial
at a time, or never end, is refused up front (:func:`check_simulation`).

Examples
--------
>>> import mathhammer as mh
>>> from mathhammer.rules.plan import plan_attack
>>> gun = mh.Weapon("Gun", 2, 3, 4, 0, 1)
>>> plan = plan_attack([(gun, 1000)], mh.Unit.of("Horde", 100, 4, 5, 1))
>>> trial_dice(plan), block_size(plan, 50_000)
(2000, 5000)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.limits import (
    BLOCK_DICE,
    MAX_DIST_SIZE,
    MAX_TRIAL_DICE,
    MAX_TRIALS,
    check_limit,
    printable,
    shorten,
)
from ..errors import OptionError, field_error
from ..model.pools import MortalWounds
from ..model.profiles import Unit
from ..rules.plan import AttackPlan, PlannedPool

__all__ = ["block_size", "check_simulation", "check_trials", "trial_dice"]

_HINT = "the Monte Carlo rolls every die; split the attack into smaller ones"


def check_trials(trials: Any) -> int:
    """``trials`` as an int, refused unless it is an integer from 2 to :data:`MAX_TRIALS`
    (an :class:`~mathhammer.errors.OptionError`).

    Examples
    --------
    >>> check_trials(10_000)
    10000
    >>> check_trials(10**12)
    Traceback (most recent call last):
    ...
    mathhammer.errors.OptionError: trials must be at most 10000000; got 1000000000000
    (the standard error shrinks as 1/sqrt(trials): a million trials give about three
    decimals)
    """
    if isinstance(trials, bool) or not isinstance(trials, int | np.integer) or trials < 2:
        raise field_error(OptionError, "trials", "an integer >= 2", trials)
    if trials > MAX_TRIALS:
        hint = (
            "the standard error shrinks as 1/sqrt(trials): a million trials give about "
            "three decimals"
        )
        constraint = f"at most {MAX_TRIALS}"
        raise field_error(OptionError, "trials", constraint, printable(int(trials)), hint)
    return int(trials)


def _pool_dice(step: PlannedPool, fnp: bool) -> int:
    """The most dice one trial of a pool rolls in one array."""
    checks = step.checks
    weapons = sum(n for _, n in step.pool.weapons)
    widths = [step.attack_dice, step.hits, weapons]  # attack, hit and wound rolls, hazard
    widths += _attack_widths(step)
    if checks.sustained is not None:
        widths.append(step.attack_dice * max(checks.sustained.count, 1))
    if fnp:  # a Feel No Pain roll for every wound of an attack
        widths.append(step.damage)
    return max(widths)


def _attack_widths(step: PlannedPool) -> list[int]:
    """The dice each weapon of a pool rolls for its attacks at once: its A and each bonus
    to them, die by die (a constant as one)."""
    checks = step.checks
    widths = []
    for w, n in step.pool.weapons:
        widths.append(n * max(checks.attacks_of(w.attacks).count, 1))
        widths.extend(n * max(extra.count, 1) for extra in checks.bonus_attacks)
    return widths


def trial_dice(plan: AttackPlan) -> int:
    """The most dice one trial rolls in one array, over the plan's steps and the target's
    per-trial state (a few numbers per model group)."""
    fnp = _has_fnp(plan.target)
    widths = [4 * len(plan.target.groups)]
    widths.extend(test.dice for test in plan.tests)
    widths.extend(_step_dice(step, fnp) for step in plan.steps)
    return max(widths)


def _has_fnp(target: Unit) -> bool:
    """Whether a model group of ``target`` has a Feel No Pain (a roll for every wound)."""
    return any(g.feel_no_pain(True) is not None for g in target.groups)


def _step_dice(step: PlannedPool | MortalWounds, fnp: bool) -> int:
    """The most dice one trial of a step rolls in one array: the mortal wounds' amount,
    or a pool's (:func:`_pool_dice`)."""
    if isinstance(step, MortalWounds):
        return max(step.amount.count, 1)
    return _pool_dice(step, fnp)


def block_size(plan: AttackPlan, block: int) -> int:
    """Trials per block: ``block``, fewer when a block would roll more than
    :data:`BLOCK_DICE` dice at once (the engine's 50,000 trials: 200 dice a trial)."""
    return max(1, min(block, BLOCK_DICE // trial_dice(plan)))


def check_simulation(plan: AttackPlan) -> None:
    """Refuse what would exhaust memory even one trial at a time.

    Raises
    ------
    LimitError
        When one trial rolls more than :data:`MAX_TRIAL_DICE` dice at once, or the target
        has more than :data:`MAX_DIST_SIZE` wounds (the distributions of the result).
    """
    target = plan.target
    check_limit("target wounds in a simulation", target.total_wounds, MAX_DIST_SIZE, _HINT)
    fnp = _has_fnp(target)
    for step in plan.steps:
        if isinstance(step, PlannedPool):
            field = f"dice one trial rolls at once in pool {shorten(step.label)!r}"
            check_limit(field, _pool_dice(step, fnp), MAX_TRIAL_DICE, _HINT)
    check_limit("dice one trial rolls at once", trial_dice(plan), MAX_TRIAL_DICE, _HINT)
