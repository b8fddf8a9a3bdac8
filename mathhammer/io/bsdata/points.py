"""Points by unit size, as BSData encodes them.

A unit entry has a ``pts`` cost (its smallest size) and modifiers that change it with
the number of models: ``{"type": "set", "value": 190, "field": <pts typeId>,
"conditions": [{"type": "atLeast", "value": 11, "field": "selections", "scope": <the
unit's id or "self">, "childId": "model"}]}``. Model entries may carry their own cost
per model. :func:`points_by_size` evaluates both at each legal size.

Modifiers on anything else (how many of the unit the army already has, the detachment,
a crusade) do not change the cost of one unit at a size, so they are not applied.

Examples
--------
>>> entry = {"id": "u", "costs": [{"name": "pts", "typeId": "pts", "value": 80}],
...          "modifiers": [{"type": "set", "value": 190, "field": "pts", "conditions": [
...              {"type": "atLeast", "value": 11, "field": "selections", "scope": "u",
...               "childId": "model"}]}]}
>>> unit_cost(entry, {"pts"}) (10), unit_cost(entry, {"pts"})(20)
(80.0, 190.0)
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from typing import Any

from ...errors import ProfileError, field_error
from .links import nodes, number

__all__ = ["brackets", "cost", "unit_cost"]

Node = dict[str, Any]
#: A test of the unit's size (its number of models).
Test = Callable[[int], bool]

_COMPARE: dict[str, Callable[[int, float], bool]] = {
    "atLeast": lambda n, v: n >= v,
    "greaterThan": lambda n, v: n > v,
    "atMost": lambda n, v: n <= v,
    "lessThan": lambda n, v: n < v,
    "equalTo": lambda n, v: n == v,
    "notEqualTo": lambda n, v: n != v,
}


def _number(value: Any) -> float:
    """A points value as a float; an error if it is not a number."""
    found = number(value)
    if found is None:
        raise field_error(ProfileError, "points", "a number", value)
    return float(found)


def cost(node: Node, pts: Collection[str]) -> float:
    """The ``pts`` cost of an entry (0 if it has none)."""
    total = 0.0
    for item in nodes(node, "costs"):
        if item.get("typeId") in pts or item.get("name") == "pts":
            total += _number(item.get("value"))
    return total


def unit_cost(entry: Node, pts: Collection[str]) -> Callable[[int], float]:
    """The cost of a unit entry as a function of its number of models."""
    base = cost(entry, pts)
    changes = _size_changes(_modifiers(entry), pts, str(entry.get("id", "")))

    def at(models: int) -> float:
        value = base
        for modifier, tests in changes:
            if all(t is not None and t(models) for t in tests):
                value = _APPLY[str(modifier["type"])](value, modifier, models)
        return value

    for modifier, _ in changes:  # a value that is not a number fails now, not on use
        _number(modifier.get("value"))
    return at


def _modifiers(entry: Node) -> list[tuple[Node, list[Node]]]:
    """Each modifier of an entry, with what its conditions are on: itself, and its group."""
    steps: list[tuple[Node, list[Node]]] = []
    for modifier in nodes(entry, "modifiers"):
        steps.append((modifier, [modifier]))
    for group in nodes(entry, "modifierGroups"):
        for modifier in nodes(group, "modifiers"):
            steps.append((modifier, [group, modifier]))
    return steps


def _size_changes(
    steps: list[tuple[Node, list[Node]]], pts: Collection[str], own: str
) -> list[tuple[Node, list[Test | None]]]:
    """The modifiers of the points that depend on the unit's size alone, with their tests."""
    changes = []
    for modifier, conditional in steps:
        if modifier.get("field") not in pts or modifier.get("type") not in _APPLY:
            continue
        tests = _size_tests(modifier, conditional, own)
        if tests is not None:
            changes.append((modifier, tests))
    return changes


def _size_tests(modifier: Node, conditional: list[Node], own: str) -> list[Test | None] | None:
    """The tests of the size that a modifier's conditions make; None if they (or its
    repeats) depend on anything else."""
    tests = [_test(part, own) for part in conditional]
    if None not in tests and _size_repeats(modifier, own):
        return tests
    return None


def _size_condition(condition: Node, own: str) -> bool:
    """Whether a condition compares the number of models in the unit (``own``) with a value."""
    allowed = {
        "field": ("selections",),
        "childId": ("model",),
        "scope": ("self", "unit", own),
        "type": _COMPARE,
    }
    return all(condition.get(key) in values for key, values in allowed.items())


def _test(node: Node, own: str) -> Callable[[int], bool] | None:
    """The conditions of a modifier or group as a test of the size, or None if they
    depend on anything else."""
    if node.get("localConditionGroups"):
        return None
    conditions = nodes(node, "conditions")
    if not all(_size_condition(c, own) for c in conditions):
        return None
    groups = [_group_test(g, own) for g in nodes(node, "conditionGroups")]
    if None in groups:
        return None
    kind = node.get("type")

    def test(models: int) -> bool:
        results = [_COMPARE[str(c["type"])](models, _number(c.get("value"))) for c in conditions]
        results += [bool(t(models)) for t in groups if t is not None]
        if not results:
            return True
        return any(results) if kind == "or" else all(results)

    return test


def _group_test(group: Node, own: str) -> Test | None:
    """The test of the size a condition group makes; None if it is not an ``and`` or ``or``
    group, or depends on anything else."""
    if group.get("type") not in ("and", "or"):
        return None
    return _test(group, own)


def _size_repeats(modifier: Node, own: str) -> bool:
    return all(_size_condition({**r, "type": "atLeast"}, own) for r in nodes(modifier, "repeats"))


def _times(modifier: Node, models: int) -> int:
    repeats = nodes(modifier, "repeats")
    if not repeats:
        return 1
    times = 0
    for r in repeats:
        step = max(1, int(_number(r.get("value"))))
        times += (models // step) * int(_number(r.get("repeats", 1)))
    return times


_APPLY: dict[str, Callable[[float, Node, int], float]] = {
    "set": lambda value, m, n: _number(m.get("value")),
    "increment": lambda value, m, n: value + _number(m.get("value")) * _times(m, n),
    "decrement": lambda value, m, n: value - _number(m.get("value")) * _times(m, n),
}


def brackets(costs: Iterable[tuple[int, float]]) -> tuple[tuple[int, int], ...]:
    """``(size, points)`` at each size where the points change, from the smallest size.

    Examples
    --------
    >>> brackets([(10, 80.0), (11, 190.0), (12, 190.0), (20, 190.0)])
    ((10, 80), (11, 190))
    """
    out: list[tuple[int, int]] = []
    for size, value in costs:
        points = round(value)
        if not out or out[-1][1] != points:
            out.append((size, points))
    return tuple(out)
