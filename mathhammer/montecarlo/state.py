"""Per-trial state of the target unit in the Monte Carlo: models destroyed and wounds lost."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np

from ..model.profiles import Unit
from ..rules.base import IntArray, Ruleset

__all__ = ["TargetState"]


class TargetState:
    """Models destroyed and the wounded model's loss, per group, for every trial at once.

    The current group of each trial (for each [PRECISION] focus asked for) is kept, and
    recomputed by the ruleset only for the trials whose state changes in a way the
    allocation order reads: a group destroyed, or a group's wounded model appearing or
    going.
    A unit of one group in the standard order needs no such record: its current group
    is the group while it stands; :attr:`lone` says so, and then the arrays may be
    written directly.

    Examples
    --------
    >>> from mathhammer.rules import get_ruleset
    >>> state = TargetState(Unit.of("Pair", 2, 4, 3, 2), trials=3, ruleset=get_ruleset("11e"))
    >>> state.lose(np.array([0, 1]), np.array([0, 0]), np.array([1, 2]))
    >>> state.killed.tolist(), state.damage().tolist()
    ([0, 1, 0], [1, 2, 0])
    """

    def __init__(
        self, unit: Unit, trials: int, ruleset: Ruleset, positions: IntArray | None = None
    ) -> None:
        self.unit = unit
        self.ruleset = ruleset
        self.count = np.array([g.count for g in unit.groups])
        self.wounds = np.array([g.wounds for g in unit.groups])
        self.character = np.array([g.character for g in unit.groups])
        self.start = np.array([g.wounds_lost for g in unit.groups], dtype=np.int64)
        self.dead, self.hurt = self._starting(trials, positions)
        #: One group in the standard order: the current model is the group's while it stands.
        self.lone = len(unit.groups) == 1 and (type(ruleset).current_group is Ruleset.current_group)
        self._current: dict[int | None, IntArray] = {}

    def _starting(self, trials: int, positions: IntArray | None) -> tuple[IntArray, IntArray]:
        """Each trial's models destroyed and wounds lost on the current model, per group,
        before the attack: the unit's own, or each trial's from ``positions`` (the wounds
        each group has lost since the start)."""
        if positions is None:
            dead = np.zeros((trials, len(self.count)), dtype=np.int64)
            return dead, np.tile(self.start, (trials, 1))
        lost = np.asarray(positions, dtype=np.int64) + self.start
        dead = np.minimum(lost // self.wounds, self.count)
        return dead, np.where(dead < self.count, lost % self.wounds, 0)

    @contextmanager
    def facing(self, unit: Unit) -> Iterator[None]:
        """Within the block, the models are ``unit``'s: the same models, as one pool's
        attacks meet them (:meth:`PoolChecks.facing
        <mathhammer.rules.base.PoolChecks.facing>`: a Feel No Pain against that pool)."""
        own = self.unit
        if unit.models != own.models or len(unit.groups) != len(own.groups):
            raise ValueError(f"{unit.name!r} is not the models of {own.name!r}")
        self.unit = unit
        try:
            yield
        finally:
            self.unit = own

    @property
    def trials(self) -> int:
        """The number of trials."""
        return len(self.dead)

    def current(self, focus: int | None) -> IntArray:
        """Each trial's current group under the ruleset's allocation order (-1: destroyed)."""
        return self.current_of(np.arange(self.trials), focus)

    def current_of(self, trials: IntArray, focus: int | None) -> IntArray:
        """:meth:`current` of the given trials only.

        Examples
        --------
        >>> from mathhammer.rules import get_ruleset
        >>> state = TargetState(Unit.of("Pair", 2, 4, 3, 1), trials=3, ruleset=get_ruleset("11e"))
        >>> for _ in range(2):  # trial 1 loses both of its models
        ...     state.lose(np.array([1]), np.array([0]), np.array([1]))
        >>> state.current_of(np.array([1, 2]), None).tolist()
        [-1, 0]
        """
        if self.lone:
            return np.where(self.dead[trials, 0] < self.count[0], 0, -1)
        if focus not in self._current:
            self._current[focus] = self._order(slice(None), focus)
        return self._current[focus][trials]

    def _order(self, rows: IntArray | slice, focus: int | None) -> IntArray:
        alive = self.dead[rows] < self.count
        return self.ruleset.current_group(alive, self.hurt[rows] > 0, self.character, focus)

    def lose(self, trials: IntArray, group: IntArray, wounds: IntArray) -> None:
        """The current models of ``trials`` (each at most once) lose ``wounds``; a model
        at 0 is destroyed and the excess is lost (no spill-over)."""
        # one flat index into the (trials, groups) arrays: cheaper than a pair of indices
        cell = trials * self.dead.shape[1] + group
        hurt = self.hurt.ravel()
        before = hurt[cell]
        lost = before + wounds
        dies = lost >= self.wounds[group]
        dead = self.dead.ravel()
        dead[cell[dies]] += 1
        after = np.where(dies, 0, lost)
        hurt[cell] = after
        if self._current:  # what the order reads: each group alive, each group wounded
            wiped = dies & (dead[cell] == self.count[group])
            changed = trials[wiped | ((before > 0) != (after > 0))]
            for focus, current in self._current.items():
                current[changed] = self._order(changed, focus)

    @property
    def killed(self) -> IntArray:
        """Models destroyed in each trial."""
        return self.dead.sum(axis=1)  # type: ignore[no-any-return]

    def positions(self) -> IntArray:
        """``[t, g]``: the wounds group ``g`` has lost in trial ``t`` since the start (the
        exact engine's positions, :class:`~mathhammer.results.state.UnitState`)."""
        standing = self.dead < self.count
        lost = np.where(standing, self.dead * self.wounds + self.hurt, self.count * self.wounds)
        return np.asarray(lost - self.start, dtype=np.int64)

    def damage(self) -> IntArray:
        """Wounds lost in each trial since the attack began."""
        start = self.count * self.wounds - self.start
        left = np.where(
            self.dead < self.count, (self.count - self.dead) * self.wounds - self.hurt, 0
        )
        return (start - left).sum(axis=1)  # type: ignore[no-any-return]
