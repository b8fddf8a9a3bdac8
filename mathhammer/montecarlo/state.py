"""Per-trial state of the target unit in the Monte Carlo: models destroyed and wounds lost."""

from __future__ import annotations

import numpy as np

from ..model.profiles import Unit
from ..rules.base import IntArray, Ruleset

__all__ = ["TargetState"]


class TargetState:
    """Models destroyed and the wounded model's loss, per group, for every trial at once.

    Examples
    --------
    >>> from mathhammer.rules import get_ruleset
    >>> state = TargetState(Unit.of("Pair", 2, 4, 3, 2), trials=3, ruleset=get_ruleset("11e"))
    >>> state.lose(np.array([0, 1]), np.array([0, 0]), np.array([1, 2]))
    >>> state.killed.tolist(), state.damage().tolist()
    ([0, 1, 0], [1, 2, 0])
    """

    def __init__(self, unit: Unit, trials: int, ruleset: Ruleset) -> None:
        self.unit = unit
        self.ruleset = ruleset
        self.count = np.array([g.count for g in unit.groups])
        self.wounds = np.array([g.wounds for g in unit.groups])
        self.character = np.array([g.character for g in unit.groups])
        self.dead = np.zeros((trials, len(unit.groups)), dtype=np.int64)
        self.start = np.array([g.wounds_lost for g in unit.groups], dtype=np.int64)
        self.hurt = np.tile(self.start, (trials, 1))

    @property
    def trials(self) -> int:
        """The number of trials."""
        return len(self.dead)

    def current(self, focus: int | None) -> IntArray:
        """Each trial's current group under the ruleset's allocation order (-1: destroyed)."""
        alive = self.dead < self.count
        return self.ruleset.current_group(alive, self.hurt > 0, self.character, focus)

    def lose(self, trials: IntArray, group: IntArray, wounds: IntArray) -> None:
        """The current models of ``trials`` lose ``wounds``; a model at 0 is destroyed and
        the excess is lost (no spill-over)."""
        hurt = self.hurt[trials, group] + wounds
        dies = hurt >= self.wounds[group]
        self.dead[trials[dies], group[dies]] += 1
        self.hurt[trials, group] = np.where(dies, 0, hurt)

    @property
    def killed(self) -> IntArray:
        """Models destroyed in each trial."""
        return self.dead.sum(axis=1)  # type: ignore[no-any-return]

    def damage(self) -> IntArray:
        """Wounds lost in each trial since the attack began."""
        start = self.count * self.wounds - self.start
        left = np.where(
            self.dead < self.count, (self.count - self.dead) * self.wounds - self.hurt, 0
        )
        return (start - left).sum(axis=1)  # type: ignore[no-any-return]
