"""How the target stands in each of its states, and the plan declared against each.

After earlier attacks the target is a distribution over states (the wounds each group has
lost); an attack carried on from it is declared against the target as it stands in each
(docs/rules.md D11, D34). :func:`standings` reads the standings of many states at once
(the exact engine's states, or the Monte Carlo's trials); :func:`declarations` declares
the attack against each and gathers the states whose declarations agree, so that an
attack whose rules read nothing of what differs is run once.
"""

from __future__ import annotations

import numpy as np

from ..model.profiles import Unit
from ..model.standing import Standing
from .base import IntArray, Ruleset
from .plan import AttackPlan

__all__ = ["declarations", "standings"]


def standings(
    unit: Unit, ruleset: Ruleset, positions: np.ndarray
) -> tuple[IntArray, list[Standing]]:
    """The distinct standings of the states ``positions`` (a row per state: the wounds each
    group has lost since the unit was given), and for each row the index of its own.

    A group's models standing are those its wounds lost have not destroyed; the group
    taking the next save is the ruleset's current group of the state (no [PRECISION]).

    Examples
    --------
    >>> from mathhammer.model.unit import ModelGroup
    >>> from mathhammer.rules import get_ruleset
    >>> guard = ModelGroup(2, toughness=4, save=3, wounds=2)
    >>> boss = ModelGroup(1, toughness=4, save=3, wounds=4, character=True)
    >>> unit = Unit("Led", [guard, boss])
    >>> rows, found = standings(unit, get_ruleset("11e"), np.array([[0, 0], [3, 0], [4, 1]]))
    >>> rows.tolist(), [(s.alive, s.current) for s in found]
    ([2, 1, 0], [((0, 1), 1), ((1, 1), 0), ((2, 1), 0)])
    """
    groups = unit.groups
    count = np.array([g.count for g in groups], dtype=np.int64)
    wounds = np.array([g.wounds for g in groups], dtype=np.int64)
    lost = np.asarray(positions, dtype=np.int64) + np.array([g.wounds_lost for g in groups])
    dead = np.minimum(lost // wounds, count)
    alive = count - dead
    wounded = (dead < count) & (lost % wounds > 0)
    character = np.array([g.character for g in groups], dtype=bool)
    current = ruleset.current_group(alive > 0, wounded, character, None)
    found, rows = np.unique(np.column_stack([alive, current]), axis=0, return_inverse=True)
    made = [Standing(unit, tuple(int(n) for n in row[:-1]), int(row[-1])) for row in found]
    return np.asarray(rows, dtype=np.int64).reshape(-1), made


def declarations(plan: AttackPlan, positions: np.ndarray) -> tuple[IntArray, list[AttackPlan]]:
    """The plan declared against the target as it stands in each state of ``positions``
    (:meth:`AttackPlan.declared`), the states whose declarations agree gathered: the
    distinct plans, and for each row the index of its own. A plan declared against a
    standing already (:attr:`AttackPlan.standing`) is every row's.

    Examples
    --------
    >>> import mathhammer as mh
    >>> from mathhammer.rules import plan_attack
    >>> frag = mh.Weapon("Frag", 1, 2, 6, 0, 1, "[BLAST]")
    >>> plan = plan_attack([(frag, 1)], mh.Unit.of("Ten", 10, 3, 7, 1))
    >>> rows, plans = declarations(plan, np.array([[0], [3], [4], [6]]))  # 10, 7, 6, 4 left
    >>> rows.tolist(), [p.standing.models for p in plans]
    ([2, 1, 1, 0], [4, 6, 10])
    """
    if plan.standing is not None:
        return np.zeros(len(positions), dtype=np.int64), [plan]
    rows, found = standings(plan.target, plan.ruleset, positions)
    plans: list[AttackPlan] = []
    seen: dict[object, int] = {}
    index = np.empty(len(found), dtype=np.int64)
    for i, standing in enumerate(found):
        declared = plan.declared(standing)
        key = declared.declaration()
        j = seen.get(key)
        if j is None:
            j = seen[key] = len(plans)
            plans.append(declared)
        index[i] = j
    return index[rows], plans
