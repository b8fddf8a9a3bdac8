"""The target as it stands when a unit's attacks are declared (docs/rules.md D11, D34).

Targets are chosen before any die is rolled, so every rule that reads the target's size or
make-up reads it then, once for the whole attack: [BLAST] and [CLEAVE] count the models
standing, the unit's Toughness is that of the models standing, [PRECISION] picks among the
CHARACTERs standing, a command re-roll values the save of the group that takes the next
save. After earlier attacks the target may stand in many ways; an attack is then resolved
from each, and a :class:`Standing` is one of them.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import ClassVar

from ..core.frozen import hash_once
from .unit import ModelGroup, Unit, unit_toughness

__all__ = ["Standing"]


@hash_once
@dataclass(frozen=True)
class Standing:
    """The target unit as it stands when the attacks are declared.

    Attributes
    ----------
    unit : Unit
        The target as it was first given (its groups in allocation order).
    alive : tuple of int
        The models standing in each group.
    current : int
        The group whose model takes the next save under the ruleset's allocation order
        (-1: no model stands).

    Examples
    --------
    >>> guard = ModelGroup(2, toughness=3, save=4, wounds=1, name="Guard")
    >>> boss = ModelGroup(1, toughness=5, save=3, wounds=4, character=True, name="Boss")
    >>> unit = Unit("Led", [guard, boss])
    >>> whole = Standing.whole(unit)
    >>> whole.models, whole.toughness, whole.characters
    (3, 3, (1,))
    >>> alone = Standing(unit, alive=(0, 1), current=1)  # the guard destroyed
    >>> alone.models, alone.toughness, alone.killed, alone.saving.name
    (1, 5, 2, 'Boss')
    """

    unit: Unit
    alive: tuple[int, ...]
    current: int

    #: What a rule may read of a standing (each a property): a plan notes those its
    #: pools read (``PoolChecks.reads``), and states that agree on them declare it alike.
    FACTS: ClassVar[tuple[str, ...]] = ("models", "killed", "toughness", "characters", "current")

    @classmethod
    def whole(cls, unit: Unit) -> Standing:
        """The unit as given, before any attack: every model standing, the first group
        current (a valid allocation order starts with it)."""
        return cls(unit, tuple(g.count for g in unit.groups), 0)

    @cached_property
    def models(self) -> int:
        """The models standing."""
        return sum(self.alive)

    @property
    def killed(self) -> int:
        """The models destroyed since the unit was first given (by earlier attacks)."""
        return self.unit.models - self.models

    @cached_property
    def characters(self) -> tuple[int, ...]:
        """The CHARACTER groups standing, in allocation order."""
        groups = self.unit.groups
        return tuple(i for i, n in enumerate(self.alive) if n and groups[i].character)

    @cached_property
    def toughness(self) -> int:
        """The unit's T: the highest T among the non-CHARACTER models standing, or among
        the CHARACTERs standing when no other model does (docs/rules.md D21); the unit's
        own when none stands (nothing is left to wound)."""
        standing = [g for g, n in zip(self.unit.groups, self.alive, strict=True) if n]
        return unit_toughness(standing) if standing else self.unit.toughness

    @property
    def saving(self) -> ModelGroup:
        """The group that takes the next save (the first group when none stands)."""
        return self.unit.groups[self.current if self.current >= 0 else 0]
