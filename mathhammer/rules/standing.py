"""How the target stands in each of its states, and the plan declared against each.

After earlier attacks the target is a distribution over states (the wounds each group has
lost); an attack carried on from it is declared against the target as it stands in each
(docs/rules.md D11, D34). :class:`States` reads what a rule may read of many states at
once (the exact engine's states, or the Monte Carlo's trials); :func:`declarations`
declares the attack against each and gathers the states whose declarations agree, so
that an attack whose rules read nothing of what differs is run once.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import cached_property
from typing import Any

import numpy as np

from ..model.profiles import ModelGroup, Unit
from ..model.standing import Standing
from .base import BoolArray, IntArray, Ruleset
from .plan import AttackPlan

__all__ = ["States", "declarations"]


class States:
    """The target's states (a row of ``positions`` each: the wounds each group has lost
    since the unit was given) as they stand: each :attr:`Standing.FACTS
    <mathhammer.model.standing.Standing.FACTS>` of each state, computed for all at once
    when first asked for.

    Examples
    --------
    >>> from mathhammer.model.unit import ModelGroup
    >>> from mathhammer.rules import get_ruleset
    >>> guard = ModelGroup(2, toughness=4, save=3, wounds=2)
    >>> boss = ModelGroup(1, toughness=5, save=3, wounds=4, character=True)
    >>> states = States(Unit("Led", [guard, boss]), get_ruleset("11e"), [[0, 0], [3, 0], [4, 1]])
    >>> states.fact("models").tolist(), states.fact("toughness").tolist()
    ([3, 2, 1], [4, 4, 5])
    >>> [(s.alive, s.current) for s in states.standings(np.array([0, 2]))]
    [((2, 1), 0), ((0, 1), 1)]
    """

    def __init__(self, unit: Unit, ruleset: Ruleset, positions: Any) -> None:
        self.unit, self.ruleset = unit, ruleset
        self.positions = np.asarray(positions, dtype=np.int64)
        self.rows = len(self.positions)
        self.character = np.array([g.character for g in unit.groups], dtype=bool)
        self._facts: dict[str, IntArray] = {}

    @cached_property
    def _models(self) -> tuple[IntArray, BoolArray]:
        """``[s, g]``: the models of group ``g`` standing in state ``s``, and whether its
        wounded model has lost wounds (made when first needed)."""
        groups = self.unit.groups
        count = np.array([g.count for g in groups], dtype=np.int64)
        wounds = np.array([g.wounds for g in groups], dtype=np.int64)
        lost = self.positions + np.array([g.wounds_lost for g in groups])
        dead = np.minimum(lost // wounds, count)
        return count - dead, (dead < count) & (lost % wounds > 0)

    @property
    def alive(self) -> IntArray:
        """``[s, g]``: the models of group ``g`` standing in state ``s``."""
        return self._models[0]

    def fact(self, name: str) -> IntArray:
        """One fact of every state, as an integer array (CHARACTER groups as bits)."""
        found = self._facts.get(name)
        if found is None:
            found = self._facts[name] = self._compute(name)
        return found

    def _compute(self, name: str) -> IntArray:
        """One fact of every state, computed (see :data:`_FACTS`)."""
        compute = _FACTS.get(name)
        if compute is None:
            raise ValueError(f"no fact {name!r} of a standing; the facts are {Standing.FACTS}")
        return compute(self)

    def _toughness(self) -> IntArray:
        """The unit's T in each state (docs/rules.md D21, D34)."""
        groups = self.unit.groups
        t = np.array([g.toughness for g in groups], dtype=np.int64)
        if _one_toughness(groups):
            return np.full(self.rows, t[0], dtype=np.int64)
        standing = self.alive > 0
        t = self._toughness_while(np.broadcast_to(t, standing.shape).copy(), standing)
        bodies = np.where(standing & ~self.character, t, 0).max(axis=1)
        anyone = np.where(standing, t, 0).max(axis=1)
        found = np.where(bodies > 0, bodies, np.where(anyone > 0, anyone, self.unit.toughness))
        return np.asarray(found, dtype=np.int64)

    def _toughness_while(self, t: IntArray, standing: BoolArray) -> IntArray:
        """``t[s, g]``, each group's T in each state, with the T a rule gives a group while
        other groups stand (D40) where it holds."""
        groups = self.unit.groups
        labels = np.array([h.label.casefold() for h in groups])
        for j, g in enumerate(groups):
            rule = g.toughness_while
            if rule is None:
                continue
            holds = (standing & np.isin(labels, rule.present)).any(axis=1)  # a named group stands
            t[:, j] = np.where(holds, rule.toughness, g.toughness)
        return t

    def _characters(self) -> IntArray:
        """Which CHARACTER groups stand in each state, as a label: 0 for all of them (as
        in the unit as given), another number for each other set."""
        if not self.character.any():
            return np.zeros(self.rows, dtype=np.int64)
        standing = self.alive[:, self.character] > 0
        every = np.ones((1, standing.shape[1]), dtype=bool)
        _, label = np.unique(np.vstack([every, standing]), axis=0, return_inverse=True)
        label = np.asarray(label, dtype=np.int64).reshape(-1)
        return np.asarray(label[1:] != label[0], dtype=np.int64) * (label[1:] + 1)

    def current(self, rows: Any) -> IntArray:
        """The group taking the next save in the given states (the ruleset's order)."""
        alive, wounded = self._models
        standing, wounded = alive[rows] > 0, wounded[rows]
        return self.ruleset.current_group(standing, wounded, self.character, None)

    def standings(self, rows: IntArray) -> list[Standing]:
        """The standings of the given states."""
        current = self._facts.get("current")
        here = self.current(rows) if current is None else current[rows]
        alive = self.alive[rows].tolist()
        return [Standing(self.unit, tuple(a), c) for a, c in zip(alive, here.tolist(), strict=True)]

    def whole(self, name: str) -> int:
        """A fact of the unit as given (every model standing, the first group current)."""
        if name in ("current", "killed", "characters"):
            return 0  # the first group, none killed, every CHARACTER group (see _characters)
        return int(getattr(self.unit, name))  # its models, its toughness

    def keys(self, names: Sequence[str]) -> tuple[IntArray, IntArray, list[tuple[int, ...]]]:
        """The states told apart by the facts ``names``: for each distinct value its first
        state, each state's value (its index), and the values."""
        if not names:
            return self._alike(())
        columns = [self.fact(name) for name in names]
        if all(c.min() == c.max() for c in columns):  # every state alike (one T, say)
            return self._alike(_row(columns, 0))
        first, inverse = distinct(columns)
        return first, inverse, [_row(columns, i) for i in first]

    def _alike(self, value: tuple[int, ...]) -> tuple[IntArray, IntArray, list[tuple[int, ...]]]:
        """:meth:`keys` where every state has the same ``value``: one, the first state's."""
        return np.zeros(1, dtype=np.int64), np.zeros(self.rows, dtype=np.int64), [value]


def _row(columns: Sequence[IntArray], i: int) -> tuple[int, ...]:
    """The values of row ``i`` of the ``columns``, as ints."""
    return tuple(int(c[i]) for c in columns)


def _one_toughness(groups: Sequence[ModelGroup]) -> bool:
    """True if the unit's T is one, whatever stands: every group has the same T, and no
    rule changes it (``toughness_while``)."""
    first = groups[0].toughness
    return all(g.toughness == first and g.toughness_while is None for g in groups)


#: How each fact of :attr:`Standing.FACTS <mathhammer.model.standing.Standing.FACTS>` is
#: computed for all the states at once.
_FACTS: dict[str, Callable[[States], IntArray]] = {
    "models": lambda states: np.asarray(states.alive.sum(axis=1), dtype=np.int64),
    "killed": lambda states: states.unit.models - states.fact("models"),
    "characters": lambda states: states._characters(),
    "current": lambda states: states.current(slice(None)),
    "toughness": lambda states: states._toughness(),
}


def distinct(columns: Sequence[IntArray], most: int = 2**62) -> tuple[IntArray, IntArray]:
    """The distinct rows of integer ``columns`` (each at least -1): the first row of each,
    in the order of their values, and each row's index among them. The rows are read as
    one integer each (mixed radix) where their values allow fewer than ``most`` codes,
    and compared column by column otherwise.

    Examples
    --------
    >>> columns = [np.array([3, 1, 3, 1]), np.array([-1, 0, -1, 2])]
    >>> [a.tolist() for a in distinct(columns)]
    [[1, 3, 0], [2, 0, 2, 1]]
    >>> [a.tolist() for a in distinct(columns, most=4)]  # compared column by column
    [[1, 3, 0], [2, 0, 2, 1]]
    """
    radix = [int(c.max()) + 2 for c in columns]
    if math.prod(radix) < most:
        code = np.zeros(len(columns[0]), dtype=np.int64)
        for column, base in zip(columns, radix, strict=True):
            code = code * base + (column + 1)
        _, first, inverse = np.unique(code, return_index=True, return_inverse=True)
    else:
        stacked = np.column_stack(columns)
        _, first, inverse = np.unique(stacked, axis=0, return_index=True, return_inverse=True)
    return np.asarray(first, dtype=np.int64), np.asarray(inverse, dtype=np.int64).reshape(-1)


def declarations(plan: AttackPlan, positions: Any) -> tuple[IntArray, list[AttackPlan]]:
    """The plan declared against the target as it stands in each state of ``positions``
    (:meth:`AttackPlan.declared`), the states whose declarations agree gathered: the
    distinct plans, and for each row the index of its own. A plan declared against a
    standing already (:attr:`AttackPlan.standing`) is every row's.

    The states are told apart only by what the plan reads of them
    (:attr:`AttackPlan.reads`): a plan that reads only the unit's Toughness is declared
    once against a unit whose models all have one T. What the plans declared read in
    turn is read too, until nothing new is read.

    Examples
    --------
    >>> import mathhammer as mh
    >>> from mathhammer.rules import plan_attack
    >>> frag = mh.Weapon("Frag", 1, 2, 6, 0, 1, "[BLAST]")
    >>> plan = plan_attack([(frag, 1)], mh.Unit.of("Ten", 10, 3, 7, 1))
    >>> rows, plans = declarations(plan, np.array([[0], [3], [4], [6]]))  # 10, 7, 6, 4 left
    >>> rows.tolist(), [p.standing.models for p in plans]
    ([2, 1, 1, 0], [4, 6, 10])
    >>> bolt = plan_attack([(mh.Weapon("Bolt", 1, 3, 4), 1)], mh.Unit.of("Ten", 10, 3, 7, 1))
    >>> declarations(bolt, np.array([[0], [3], [4], [6]]))[0].tolist()  # reads T only
    [0, 0, 0, 0]
    """
    if plan.standing is not None:
        return np.zeros(len(positions), dtype=np.int64), [plan]
    states = States(plan.target, plan.ruleset, positions)
    keys, found = _declared(plan, states)
    index, plans = _distinct_plans(found)
    return index[keys], plans


def _declared(plan: AttackPlan, states: States) -> tuple[IntArray, list[AttackPlan]]:
    """The plan declared against each set of states that agree on what it reads, until the
    plans declared read nothing more: each state's set, and the plan of each set."""
    reads = plan.reads
    while True:
        keys, found = _declared_once(plan, states, sorted(reads))
        more = reads.union(*(p.reads for p in found))
        if more == reads:
            return keys, found
        reads = more


def _declared_once(
    plan: AttackPlan, states: States, names: list[str]
) -> tuple[IntArray, list[AttackPlan]]:
    """The plan declared against each set of states that agree on the facts ``names``:
    each state's set, and the plan of each set."""
    first, keys, values = states.keys(names)
    whole = tuple(states.whole(name) for name in names)
    found = [
        # states that read as the whole unit declare the plan as it is: the whole unit
        # stands for them (it agrees with them on everything the plan reads)
        replace(plan, standing=Standing.whole(plan.target))
        if value == whole
        else plan.declared(states.standings(np.array([row]))[0])
        for row, value in zip(first.tolist(), values, strict=True)
    ]
    return keys, found


def _distinct_plans(found: list[AttackPlan]) -> tuple[IntArray, list[AttackPlan]]:
    """The distinct declarations among the plans, and the index of each plan's among them."""
    plans: list[AttackPlan] = []
    seen: dict[object, int] = {}
    index = np.empty(len(found), dtype=np.int64)
    for i, declared in enumerate(found):
        key = declared.declaration()
        j = seen.get(key)
        if j is None:
            j = seen[key] = len(plans)
            plans.append(declared)
        index[i] = j
    return index, plans
