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

from ..errors import AllocationOrderError, OptionError, field_error
from ..model.profiles import Unit
from ..results.attack import AttackResult
from ..results.columns import metric_column
from .runs import Request, Run

__all__ = [
    "ALLOCATIONS",
    "DEFENDER_METRICS",
    "MAX_GROUPS",
    "defender_best",
    "defending",
    "defender_goal",
    "legal_orders",
    "reordered",
]

#: The most groups whose orders are all tried (7 groups: 5,040 permutations to check).
MAX_GROUPS = 7
#: What ``attack(..., allocation=...)`` takes, in words.
ALLOCATIONS = (
    "'given', 'defender-best', 'defender-best:<metric>' (mean_killed, mean_damage) "
    "or 'defender-best:protect:<group>'"
)


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


#: The metrics the defender can keep smallest, and their words (besides a group's fate).
DEFENDER_METRICS: dict[str, tuple[Callable[[AttackResult], float], str]] = {
    "mean_killed": ((lambda r: r.killed.mean()), "expected models destroyed"),
    "mean_damage": ((lambda r: r.damage.mean()), "expected wounds lost"),
}


def defender_goal(text: str, unit: Unit) -> tuple[Callable[[AttackResult], float], str]:
    """What the defender keeps smallest: ``"mean_killed"`` (expected models destroyed,
    the default; alias ``"models"``), ``"mean_damage"`` (expected wounds lost; alias
    ``"wounds"``), or ``"protect:<group name>"`` (the chance that group is destroyed);
    and its words."""
    if not text.startswith("protect:"):
        field = "allocation defender-best:<metric>"
        return DEFENDER_METRICS[metric_column(text, among=DEFENDER_METRICS, field=field)]
    return _protecting(text.removeprefix("protect:"), unit)


def _protecting(name: str, unit: Unit) -> tuple[Callable[[AttackResult], float], str]:
    """The chance the group ``name`` of ``unit`` is destroyed, and its words; the group
    must be one of the unit's."""
    names = [g.name for g in unit.groups]
    if name not in names:
        wanted = f"a group of {unit.name!r}: one of {[n for n in names if n]}"
        raise field_error(OptionError, "allocation protect", wanted, name)
    size = unit.groups[names.index(name)].count

    def lost(result: AttackResult) -> float:
        group = next(g for g in result.groups if g.group.name == name)
        return float(group.killed.probabilities[size:].sum())

    return lost, f"P({name} destroyed)"


def defender_best(request: Request, goal: str, run: Run) -> AttackResult:
    """The attack against the defender's best legal order of the unit's groups (the one
    with the smallest goal; the given order first among equals), each order attacked by
    ``run``, its ``choices`` saying which order and by how much."""
    unit = request.target
    assert isinstance(unit, Unit)
    key, words = defender_goal(goal, unit)
    tried = [(order, run(_reordered_request(request, unit, order))) for order in legal_orders(unit)]
    best_order, best = min(tried, key=lambda t: key(t[1]))  # the first of equals
    given = key(tried[0][1])
    names = " -> ".join(unit.groups[i].label for i in best_order)
    line = (
        f"allocation: {names} (the defender's best of {len(tried)} legal orders) by {words}: "
        f"{key(best):.4g} vs {given:.4g} as given"
    )
    return replace(best, choices=(*best.choices, line))


def _reordered_request(request: Request, unit: Unit, order: tuple[int, ...]) -> Request:
    """The request against the unit with its groups in ``order``: a [PRECISION] group
    named by its index follows its group to its new place."""
    context = request.context
    if context is not None and isinstance(context.precision_group, int):
        moved = replace(context, precision_group=order.index(context.precision_group))
        return replace(request, target=reordered(unit, order), context=moved)
    return replace(request, target=reordered(unit, order))


def defending(run: Run, allocation: str) -> Run:
    """``run`` against the defender's best order of the target's groups by the goal
    ``allocation`` states (``"defender-best"``, ``"defender-best:mean_damage"`` or
    ``"defender-best:protect:<group name>"``; :func:`defender_best`); ``"given"``: ``run``
    as it is.

    Examples
    --------
    >>> import mathhammer as mh
    >>> from mathhammer.decisions.runs import Request, engine_run
    >>> veterans = mh.ModelGroup(4, 4, 3, 2, name="Veterans")
    >>> squad = mh.Unit("Squad", [veterans, mh.ModelGroup(3, 4, 4, 1, name="Troopers")])
    >>> run = defending(engine_run, "defender-best:mean_damage")
    >>> print(run(Request([(mh.Weapon("Gun", 3, 3, 5, -1, 2), 4)], squad)).choices[0])
    allocation: ...
    """
    if allocation == "given":
        return run
    goal = _goal(allocation)

    def defended_run(request: Request) -> AttackResult:
        if request.start is not None:
            raise OptionError(
                "allocation: a defender's order is chosen before the first attack; give no start"
            )
        if not isinstance(request.target, Unit):
            return run(request)
        return defender_best(request, goal, run)

    return defended_run


def _goal(allocation: str) -> str:
    """The goal a ``defender-best`` ``allocation`` states (``"mean_killed"`` when it states
    none); any other allocation refused."""
    if not isinstance(allocation, str) or not allocation.startswith("defender-best"):
        raise field_error(OptionError, "allocation", ALLOCATIONS, allocation)
    return allocation.removeprefix("defender-best").removeprefix(":") or "mean_killed"
