"""The target's state after an attack: a distribution over its model-wound states.

Both engines track the target as the wounds each allocation group has lost since the
first attack of a sequence (:mod:`mathhammer.exact.layout`): within a group, models are
destroyed one after another and only the current model is ever wounded, so that number
says how many of the group's models are destroyed and what the wounded one has left. A
:class:`UnitState` is the joint distribution of those numbers (not only their marginals);
``attack(..., start=state)`` and ``simulate(..., start=state)`` carry on from it, so
that a second unit's attacks resolve against every state the first left, weighted by its
probability.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from ..core.dist import Dist
from ..core.frozen import fast_init
from ..model.profiles import Unit

if TYPE_CHECKING:  # pandas is imported where a table is made: import time matters
    import pandas as pd

__all__ = ["UnitState"]


@fast_init
@dataclass(frozen=True, eq=False)
class UnitState:
    """A distribution over the target's model-wound states.

    Attributes
    ----------
    unit : Unit
        The target as it stood before the first attack of the sequence.
    rules : str
        The ruleset whose attacks led here.
    positions : ndarray of int, shape (states, groups)
        ``positions[s, g]``: the wounds group ``g`` has lost in state ``s`` since the
        first attack (its ``wounds_lost`` at the start not included).
    probabilities : ndarray of float, shape (states,)
        The probability of each state.
    focus : tuple of int
        The CHARACTER groups whose wounds vary beside their bodyguard's in ``positions``
        (a [PRECISION] attack made them so).

    Examples
    --------
    >>> import mathhammer as mh
    >>> gun = mh.Weapon("Gun", attacks=1, skill=2, strength=8, ap=-3, damage=3)
    >>> squad = mh.Unit.of("Squad", models=2, toughness=4, save=7, wounds=2)
    >>> state = mh.attack([(gun, 1)], squad).state
    >>> state.models_left.probabilities.round(4).tolist()  # a hit on 2+, a wound on 2+
    [0.0, 0.6944, 0.3056]
    >>> round(state.p_destroyed, 4)
    0.0
    """

    unit: Unit
    rules: str
    positions: np.ndarray
    probabilities: np.ndarray
    focus: tuple[int, ...] = ()
    _cache: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def initial(cls, unit: Unit, rules: str) -> UnitState:
        """The target before any attack: no wounds lost, with certainty, under the
        ruleset named ``rules``."""
        return cls(unit, rules, np.zeros((1, len(unit.groups)), dtype=np.int64), np.ones(1))

    @property
    def sizes(self) -> np.ndarray:
        """Each group's wounds at the start: the position at which it is destroyed."""
        return np.array([g.total_wounds for g in self.unit.groups], dtype=np.int64)

    def _per_state(self, name: str) -> np.ndarray:
        """``"killed"`` or ``"hurt"`` (:meth:`_split`), computed once for both."""
        if name not in self._cache:
            self._cache.update(self._split())
        return self._cache[name]  # type: ignore[no-any-return]

    def _split(self) -> dict[str, np.ndarray]:
        """Each state's wounds lost split, per group: ``"killed"``, its models destroyed
        since the start, and ``"hurt"``, the wounds lost by its wounded model (0: none)."""
        groups = self.unit.groups
        lost = self.positions + np.array([g.wounds_lost for g in groups])
        wounds = np.array([g.wounds for g in groups])
        killed = lost // wounds  # models destroyed in each group
        hurt = np.where(killed < np.array([g.count for g in groups]), lost % wounds, 0)
        return {"killed": killed, "hurt": hurt}

    def killed_in_group(self) -> np.ndarray:
        """``[s, g]``: models of group ``g`` destroyed in state ``s`` since the start."""
        return self._per_state("killed")

    def wounded(self) -> np.ndarray:
        """``[s, g]``: wounds lost by group ``g``'s wounded model in state ``s`` (0: none)."""
        return self._per_state("hurt")

    def _dist(self, values: np.ndarray) -> Dist:
        counts = np.bincount(values, weights=self.probabilities, minlength=int(values.max()) + 1)
        return Dist._trusted(counts.astype(np.float64))

    @property
    def destroyed(self) -> np.ndarray:
        """True for the states in which every model is destroyed."""
        return np.asarray((self.positions >= self.sizes).all(axis=1), dtype=bool)

    @property
    def p_destroyed(self) -> float:
        """The probability that the unit is destroyed."""
        return float(self.probabilities[self.destroyed].sum())

    @property
    def killed(self) -> Dist:
        """Models destroyed since the first attack."""
        return self._dist(self.killed_in_group().sum(axis=1))

    @property
    def models_left(self) -> Dist:
        """Models the unit has left."""
        return self._dist(self.unit.models - self.killed_in_group().sum(axis=1))

    @property
    def wounds_left(self) -> Dist:
        """Wounds the unit has left."""
        return self._dist(self.unit.total_wounds - self.positions.sum(axis=1))

    def group_models_left(self, group: int | str) -> Dist:
        """Models one group has left (by index or by the group's name)."""
        g = self._group_index(group)
        return self._dist(self.unit.groups[g].count - self.killed_in_group()[:, g])

    def _group_index(self, group: int | str) -> int:
        groups = self.unit.groups
        if isinstance(group, str):
            names = [g.name for g in groups]
            if group not in names:
                raise KeyError(f"no group named {group!r}; the groups are {names}")
            return names.index(group)
        if not 0 <= group < len(groups):
            raise IndexError(f"group {group} of a unit of {len(groups)} groups")
        return group

    def given_killed(self, killed: int) -> UnitState:
        """The states with ``killed`` models destroyed since the start, their
        probabilities scaled to sum to 1."""
        here = self.killed_in_group().sum(axis=1) == killed
        found, total = self.given(here)
        if total == 0.0:
            raise ValueError(f"no state with {killed} models destroyed has a probability")
        return found

    def given(self, where: np.ndarray) -> tuple[UnitState, float]:
        """The states where ``where`` holds (a bool per state) and has a probability, their
        probabilities scaled to sum to 1; and the probability they had together (0: none
        had, and the states are those where ``where`` holds, unscaled).

        Examples
        --------
        >>> import mathhammer as mh
        >>> gun = mh.Weapon("Gun", attacks=1, skill=2, strength=8, ap=-3, damage=3)
        >>> state = mh.attack([(gun, 1)], mh.Unit.of("Squad", 2, 4, 7, 2)).state
        >>> part, p = state.given(state.killed_in_group()[:, 0] == 1)
        >>> round(p, 4), part.probabilities.tolist()
        (0.6944, [1.0])
        """
        here = np.asarray(where, dtype=bool) & (self.probabilities > 0)
        total = float(self.probabilities[here].sum())
        probabilities = self.probabilities[here] / total if total > 0 else self.probabilities[here]
        found = UnitState(self.unit, self.rules, self.positions[here], probabilities, self.focus)
        return found, total

    def table(self) -> pd.DataFrame:
        """One row per state of positive probability, most likely first: the models each
        group has left, the wounds its wounded model has lost, and the probability.

        Examples
        --------
        >>> import mathhammer as mh
        >>> gun = mh.Weapon("Gun", attacks=1, skill=2, strength=8, ap=-3, damage=1)
        >>> squad = mh.Unit.of("Squad", models=1, toughness=4, save=7, wounds=2)
        >>> mh.attack([(gun, 1)], squad).state.table()
           Squad left  Squad wounded  probability
        0           1              1     0.694444
        1           1              0     0.305556
        """
        import pandas as pd

        here = np.flatnonzero(self.probabilities > 0)
        here = here[np.argsort(-self.probabilities[here], kind="stable")]
        columns: dict[str, Sequence[int] | np.ndarray] = {}
        killed, hurt = self.killed_in_group(), self.wounded()
        for g, group in enumerate(self.unit.groups):
            name = group.name or (self.unit.name if len(self.unit.groups) == 1 else f"group {g}")
            columns[f"{name} left"] = group.count - killed[here, g]
            columns[f"{name} wounded"] = hurt[here, g]
        columns["probability"] = self.probabilities[here]
        return pd.DataFrame(columns)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, UnitState):
            return NotImplemented
        return (
            self.unit == other.unit
            and self.rules == other.rules
            and self.focus == other.focus
            and np.array_equal(self.positions, other.positions)
            and np.array_equal(self.probabilities, other.probabilities)
        )

    def __hash__(self) -> int:
        return hash((self.unit, self.rules, self.focus, self.probabilities.tobytes()))

    def __repr__(self) -> str:
        states = int(np.count_nonzero(self.probabilities))
        return (
            f"<UnitState [{self.rules}] {self.unit.name}: {states} states, models left mean "
            f"{self.models_left.mean():.3g}, P(destroyed) {self.p_destroyed:.3f}>"
        )
