"""The defender's allocation order: the legal orders of the target's groups, and the best.

The defender sets the order of the allocation groups within the rules (docs/rules.md §1.6):
a non-CHARACTER group holding a wounded model first, no CHARACTER group ahead of a
non-CHARACTER one, wounded CHARACTER groups before unwounded ones. :func:`legal_orders`
lists the orders a :class:`~mathhammer.model.unit.Unit` accepts; :func:`defender_best`
attacks the target in each, exactly, and keeps the one the defender prefers, so that the
attacker sees the result against a defender who plays well.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from ..errors import AllocationOrderError, OptionError, field_error
from ..model.profiles import Unit
from ..results.attack import AttackResult

__all__ = [
    "ALLOCATIONS",
    "MAX_GROUPS",
    "defender_best",
    "defender_goal",
    "legal_orders",
    "reordered",
]

#: The most groups whose orders are all tried (7 groups: 5,040 permutations to check).
MAX_GROUPS = 7
#: What ``attack(..., allocation=...)`` takes, in words.
ALLOCATIONS = "'given', 'defender-best', 'defender-best:wounds' or 'defender-best:protect:<group>'"


def reordered(unit: Unit, order: tuple[int, ...]) -> Unit:
    """The unit with its groups in ``order`` (indices into ``unit.groups``)."""
    return replace(unit, groups=tuple(unit.groups[i] for i in order))


def legal_orders(unit: Unit) -> list[tuple[int, ...]]:
    """Every order of the unit's groups the allocation rules allow, the given one first.

    Examples
    --------
    >>> from mathhammer.model.unit import ModelGroup
    >>> unit = Unit("u", [ModelGroup(5, 4, 3, 2), ModelGroup(5, 4, 4, 1),
    ...                   ModelGroup(1, 4, 2, 5, character=True)])
    >>> legal_orders(unit)  # the CHARACTER stays last
    [(0, 1, 2), (1, 0, 2)]
    """
    count = len(unit.groups)
    if count > MAX_GROUPS:
        raise OptionError(
            f"allocation: {unit.name!r} has {count} groups; the defender's orders are tried "
            f"for at most {MAX_GROUPS}"
        )
    out = []
    for order in itertools.permutations(range(count)):
        try:
            reordered(unit, order)
        except AllocationOrderError:
            continue
        out.append(order)
    return out


def defender_goal(text: str, unit: Unit) -> tuple[Callable[[AttackResult], float], str]:
    """What the defender keeps smallest: ``"models"`` (expected models destroyed, the
    default), ``"wounds"`` (expected wounds lost), or ``"protect:<group name>"`` (the
    chance that group is destroyed); and its words."""
    if text == "models":
        return (lambda r: r.killed.mean()), "expected models destroyed"
    if text == "wounds":
        return (lambda r: r.damage.mean()), "expected wounds lost"
    if text.startswith("protect:"):
        name = text.removeprefix("protect:")
        names = [g.name for g in unit.groups]
        if name not in names:
            wanted = f"a group of {unit.name!r}: one of {[n for n in names if n]}"
            raise field_error(OptionError, "allocation protect", wanted, name)
        size = unit.groups[names.index(name)].count

        def lost(result: AttackResult) -> float:
            group = next(g for g in result.groups if g.group.name == name)
            return float(group.killed.probabilities[size:].sum())

        return lost, f"P({name} destroyed)"
    raise field_error(OptionError, "allocation", ALLOCATIONS, f"defender-best:{text}")


def defender_best(
    weapons: Any, unit: Unit, goal: str, attack: Callable[..., AttackResult], **options: Any
) -> AttackResult:
    """The attack against the defender's best legal order of the unit's groups (the one
    with the smallest goal; the given order first among equals), its ``choices`` saying
    which order and by how much."""
    key, words = defender_goal(goal, unit)
    context = options.get("context")
    tried = []
    for order in legal_orders(unit):
        here = options
        if context is not None and isinstance(context.precision_group, int):
            # a [PRECISION] group named by its index follows its group to its new place
            moved = replace(context, precision_group=order.index(context.precision_group))
            here = {**options, "context": moved}
        tried.append((order, attack(weapons, reordered(unit, order), **here)))
    best_order, best = min(tried, key=lambda t: key(t[1]))  # the first of equals
    given = key(tried[0][1])
    names = " -> ".join(unit.groups[i].label for i in best_order)
    line = (
        f"allocation: {names} (the defender's best of {len(tried)} legal orders) by {words}: "
        f"{key(best):.4g} vs {given:.4g} as given"
    )
    return replace(best, choices=(*best.choices, line))
