"""Rolling real dice for every trial at once: faces, re-rolls, sums, damage, Feel No Pain.

Each function takes the generator of one block of trials and per-trial counts, rolls a
rectangular array of faces and masks the dice a trial does not have, so that every trial
of the block is rolled in one numpy call. The ruleset's literal checks read the faces.
"""

from __future__ import annotations

import numpy as np

from ..core.dice import Dice
from ..model.profiles import Unit
from ..rules.base import CRITICAL, SUCCESS, PoolChecks, RollCheck, Ruleset

__all__ = ["categorise", "damage_roll", "feel_no_pain", "roll", "roll_sum"]


def roll(rng: np.random.Generator, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Roll ``counts[t]`` D6 for each trial; return the faces and a mask of real dice."""
    width = int(counts.max()) if counts.size else 0
    faces = rng.integers(1, 7, size=(counts.size, width), dtype=np.int8)
    return faces, np.arange(width) < counts[:, None]


def roll_sum(rng: np.random.Generator, dice: Dice, counts: np.ndarray) -> np.ndarray:
    """The sum of ``counts[t]`` independent rolls of a dice expression, per trial."""
    width = int(counts.max()) if counts.size else 0
    if width == 0:
        return np.zeros(counts.size, dtype=np.int64)
    rolls = dice.roll(rng, (counts.size, width))
    summed: np.ndarray = np.where(np.arange(width) < counts[:, None], rolls, 0).sum(axis=1)
    return summed


def categorise(
    rng: np.random.Generator, counts: np.ndarray, check: RollCheck
) -> tuple[np.ndarray, np.ndarray]:
    """Roll, re-roll what the check selects (once), and count successes and criticals."""
    faces, valid = roll(rng, counts)
    categories = check.first(faces)
    if check.reroll is not None:
        again = np.asarray(check.reroll(faces, categories), dtype=bool) & valid
        if again.any():
            rerolled = rng.integers(1, 7, size=faces.shape, dtype=np.int8)
            categories = np.where(again, check.again(rerolled), categories)
    success = ((categories == SUCCESS) & valid).sum(axis=1)
    critical = ((categories == CRITICAL) & valid).sum(axis=1)
    return success, critical


def damage_roll(
    rng: np.random.Generator, checks: PoolChecks, size: int
) -> tuple[np.ndarray, np.ndarray]:
    """Roll the attacker's D and [MELTA] X: the (d, add) to pass to ``modified_damage``."""
    d = checks.damage.roll(rng, size)
    add = np.full(size, checks.damage_add)
    if checks.melta is not None:
        add = add + checks.melta.roll(rng, size)
    return d, add


def feel_no_pain(
    rng: np.random.Generator,
    ruleset: Ruleset,
    unit: Unit,
    group: np.ndarray,
    wounds: np.ndarray,
    mortal: bool = False,
) -> np.ndarray:
    """Roll Feel No Pain for each wound (mortal wounds: the group's FNP against them);
    return the wounds not prevented."""
    out = wounds.copy()
    for gi, g in enumerate(unit.groups):
        here = np.flatnonzero(group == gi)
        fnp = g.feel_no_pain(mortal)
        if fnp is None or here.size == 0:
            continue
        faces, valid = roll(rng, wounds[here])
        out[here] -= (ruleset.fnp_saves(faces, fnp) & valid).sum(axis=1)
    return out
