"""An attack's start cut into the parts that declare it alike (docs/rules.md D34).

An attack carried on from a target that may stand in several ways is declared against it
as it stands in each state: the states whose declarations agree
(:func:`~mathhammer.rules.standing.declarations`) form a part, resolved on its own from
its states with its own plan; the attack's result mixes the parts' by their probability
(:func:`~mathhammer.results.mixture.mixed`). The exact engine runs whole attacks this way,
and the ranking of pool orders resolves each part's pools one at a time.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..model.profiles import Unit
from ..model.standing import Standing
from ..results.attack import AttackResult
from ..results.carry import start_state
from ..results.mixture import mixed
from ..results.state import UnitState
from ..rules.plan import AttackPlan, as_plan
from ..rules.standing import declarations

__all__ = ["DeclaredParts", "declared_parts", "split_start"]


def split_start(plan: AttackPlan, start: UnitState) -> list[tuple[float, AttackPlan, UnitState]]:
    """``start`` cut by the plan's declaration: per part, the probability of its states,
    the plan declared against them, and the states (scaled to sum to 1). One part, of the
    whole start, when every state declares the attack alike.

    Examples
    --------
    >>> import mathhammer as mh
    >>> from mathhammer.rules import plan_attack
    >>> ten = mh.Unit.of("Ten", 10, 3, 7, 1)
    >>> start = mh.attack([mh.MortalWounds("D6")], ten).state  # 4 to 9 models left
    >>> plan = plan_attack([(mh.Weapon("Frag", 1, 2, 6, 0, 1, "[BLAST]"), 1)], ten)
    >>> [(round(w, 4), p.standing.models // 5) for w, p, _ in split_start(plan, start)]
    [(0.1667, 0), (0.8333, 1)]
    """
    live = start.probabilities > 0
    rows, plans = declarations(plan, start.positions[live])
    if len(plans) == 1:
        return [(1.0, plans[0], start)]
    found = np.flatnonzero(live)
    parts = []
    for i, declared in enumerate(plans):
        where = np.zeros(len(live), dtype=bool)
        where[found[rows == i]] = True
        part, weight = start.given(where)
        parts.append((weight, declared, part))
    return parts


@dataclass(frozen=True)
class DeclaredParts:
    """An attack's parts: per part the standing it is declared against, the state it
    starts from (None: the target as given) and the probability of that state."""

    standings: tuple[Standing | None, ...]
    starts: tuple[UnitState | None, ...]
    weights: tuple[float, ...]

    def result(self, results: Sequence[AttackResult]) -> AttackResult:
        """The attack's result from the parts' results, in the parts' order."""
        return mixed(list(zip(self.weights, results, strict=True)))


def declared_parts(
    weapons: Any,
    target: Unit,
    standing: Standing | None,
    *,
    start: AttackResult | UnitState | None,
    rules: Any,
    context: Any,
    modifiers: Any,
) -> DeclaredParts:
    """The parts of an attack declared against the target as it stood at ``standing``, or
    (None) as it stands in each state of ``start``: each part's own standing, so that its
    pools, resolved one at a time, keep the declaration of the attack's start."""
    plan = as_plan(weapons, target, rules, context, modifiers)
    if standing is not None:
        plan = plan.declared(standing)
    if start is None:
        _, plans = declarations(plan, np.zeros((1, len(plan.target.groups)), dtype=np.int64))
        return DeclaredParts((plans[0].standing,), (None,), (1.0,))
    carried = start_state(start, plan.target, plan.ruleset.name)
    parts = split_start(plan, carried)
    return DeclaredParts(
        tuple(p.standing for _, p, _ in parts),
        tuple(s for _, _, s in parts),
        tuple(w for w, _, _ in parts),
    )
