"""A datasheet's selection tree: what a unit may hold, how many of each, and its default.

A unit entry holds selection entries (models and upgrades) and groups of them, directly
or through links. :func:`build` resolves the links and reads each entry's numbers from
its constraints (``min``/``max`` on ``selections`` within its ``parent``): a
:class:`Slot` per entry or group with its range and the count a unit at its default has,
where a group whose minimum its entries' own minimums do not reach fills the rest with
its ``defaultSelectionEntryId`` entry (else the first with room).

:func:`model_ranges` then gives each model type's smallest, largest and default count
across the whole tree: a group's limits bound the sum of what its entries hold (the
ten to twenty Necron Warriors of any mix of guns), and a choice of bundles ("1 Spanner
and 4 Burna Boyz" or "2 Spanners and 8 Burna Boyz") ranges from the smallest to the
largest bundle.

Examples
--------
>>> warrior = {"id": "m", "name": "Warrior", "type": "model",
...            "constraints": [{"type": "max", "value": 20, "field": "selections",
...                             "scope": "parent"}]}
>>> group = {"id": "g", "name": "10-20 Warriors", "defaultSelectionEntryId": "m",
...          "selectionEntries": [warrior],
...          "constraints": [{"type": "min", "value": 10, "field": "selections",
...                           "scope": "parent"},
...                          {"type": "max", "value": 20, "field": "selections",
...                           "scope": "parent"}]}
>>> root = build(lambda owner, link: (owner, {}), None,
...              {"id": "u", "name": "Warriors", "type": "unit", "selectionEntryGroups": [group]})
>>> model_ranges(root, lambda slot: slot.node["name"])
{'Warrior': (10, 20, 10)}
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any

from .links import nodes

__all__ = ["INF", "Slot", "build", "model_ranges"]

Node = dict[str, Any]
#: "No maximum": larger than any real count, and still an int for the arithmetic.
INF = 10**9
#: (catalogue that owns the link, link) -> (catalogue that owns the target, target).
Resolver = Callable[[Any, Node], tuple[Any, Node]]
Ranges = dict[Hashable, tuple[int, int, int]]


@dataclass
class Slot:
    """An entry or group of a selection tree, with its numbers.

    Attributes
    ----------
    node : dict
        The entry or group (a link's target, for a link).
    link : dict or None
        The entryLink it was reached through.
    owner : object
        The catalogue the node belongs to (its links resolve there).
    kind : str
        ``"model"``, ``"upgrade"``, ``"unit"`` or ``"group"``.
    low, high : int
        How many times it may be selected in its parent (``INF``: no maximum).
    default : int
        How many times a unit at its default has it selected, per parent selection.
    children : list of Slot
        What one selection of it holds (for a group: its entries and groups).
    """

    node: Node
    link: Node | None
    owner: Any
    kind: str
    low: int = 0
    high: int = INF
    default: int = 0
    children: list[Slot] = field(default_factory=list)

    @property
    def name(self) -> str:
        """The entry's name."""
        return str(self.node.get("name", ""))

    @property
    def ids(self) -> tuple[str, str]:
        """The ids a ``defaultSelectionEntryId`` may name: the entry's and its link's."""
        link = self.link or {}
        return str(self.node.get("id", "")), str(link.get("id", ""))


def build(resolve: Resolver, owner: Any, node: Node, link: Node | None = None) -> Slot:
    """The selection tree of an entry (a unit, or a single-model datasheet).

    Hidden entries and crusade content (an entry or group whose ``comment`` starts
    with "Crusade", or named "Crusade") are left out: neither is part of a unit in a
    matched-play list.
    """
    root = Slot(node, link, owner, str(node.get("type", "group")), 1, 1, 1)
    root.children = _children(resolve, owner, node, {str(node.get("id"))})
    return root


def _children(resolve: Resolver, owner: Any, node: Node, path: set[str]) -> list[Slot]:
    found: list[tuple[Any, Node, Node | None, str]] = []
    for entry in nodes(node, "selectionEntries"):
        found.append((owner, entry, None, str(entry.get("type", "upgrade"))))
    for group in nodes(node, "selectionEntryGroups"):
        found.append((owner, group, None, "group"))
    for link in nodes(node, "entryLinks"):
        target_owner, target = resolve(owner, link)
        kind = "group" if link.get("type") == "selectionEntryGroup" else "upgrade"
        found.append((target_owner, target, link, str(target.get("type", kind))))
    slots = []
    for child_owner, child, via, kind in found:
        ident = str(child.get("id"))
        if ident in path or _left_out(child, via):
            continue  # a link back to an ancestor would never end
        slot = Slot(child, via, child_owner, "group" if kind == "group" else kind)
        slot.low, slot.high = _limits(child, via)
        slot.children = _children(resolve, child_owner, child, path | {ident})
        slots.append(slot)
    for slot in slots:
        slot.default = slot.low
        if slot.kind == "group":
            _fill(slot, slot.low - sum(_selected(c) for c in slot.children))
    return slots


def _left_out(node: Node, link: Node | None) -> bool:
    for part in (node, link or {}):
        if part.get("hidden") is True:
            return True
        if str(part.get("comment", "")).lower().startswith("crusade"):
            return True
    return str((link or node).get("name", "")) == "Crusade"


def _limits(node: Node, link: Node | None) -> tuple[int, int]:
    """(min, max) selections within the parent; a negative max means none."""
    low, high = 0, INF
    for part in (node, link or {}):
        for constraint in nodes(part, "constraints"):
            if constraint.get("field") != "selections" or constraint.get("scope") != "parent":
                continue
            value = constraint.get("value")
            if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
                continue
            if constraint.get("type") == "min":
                low = max(low, int(value))
            elif constraint.get("type") == "max":
                high = min(high, int(value))
    return low, max(high, low)


def _selected(slot: Slot) -> int:
    """How many selections a slot makes at its default (a group: its entries')."""
    if slot.kind == "group":
        return sum(_selected(c) for c in slot.children)
    return slot.default


def _room(slot: Slot) -> int:
    if slot.kind == "group":
        return max(0, min(slot.high, sum(_capacity(c) for c in slot.children)) - _selected(slot))
    return max(0, slot.high - slot.default)


def _capacity(slot: Slot) -> int:
    if slot.kind == "group":
        return min(slot.high, sum(_capacity(c) for c in slot.children))
    return slot.high


def _fill(group: Slot, missing: int) -> None:
    """Select ``missing`` more entries of a group: its default entry first, then in order."""
    wanted = str(group.node.get("defaultSelectionEntryId", ""))
    order = sorted(group.children, key=lambda c: wanted not in c.ids)
    for child in order:
        if missing <= 0:
            return
        take = min(missing, _room(child))
        if child.kind == "group":
            _fill(child, take)
        else:
            child.default += take
        missing -= take


def model_ranges(root: Slot, key: Callable[[Slot], Hashable]) -> Ranges:
    """Each model type's (smallest, largest, default) count in a unit of this tree.

    ``key`` names the type of a model slot; slots of one type add up.
    """
    return _holds(root, key)


def _holds(slot: Slot, key: Callable[[Slot], Hashable]) -> Ranges:
    """What one selection of an entry holds."""
    out: Ranges = {key(slot): (1, 1, 1)} if slot.kind == "model" else {}
    for child in slot.children:
        _add(out, _scaled(child, key))
    return out


def _scaled(slot: Slot, key: Callable[[Slot], Hashable]) -> Ranges:
    """What a slot adds to its parent: what one selection holds, times its count."""
    if slot.kind == "group":
        return _group(slot, key)
    return {
        k: (slot.low * a, min(INF, slot.high * b), slot.default * d)
        for k, (a, b, d) in _holds(slot, key).items()
    }


def _per_selection(slot: Slot, key: Callable[[Slot], Hashable]) -> Ranges:
    """The least and most of each type one selection made in a slot brings."""
    if slot.kind != "group":
        return _holds(slot, key)
    out: Ranges = {}
    parts = [_per_selection(c, key) for c in slot.children]
    for k in {k for part in parts for k in part}:
        out[k] = (
            min(part.get(k, (0, 0, 0))[0] for part in parts),
            max(part.get(k, (0, 0, 0))[1] for part in parts),
            0,
        )
    return out


def _group(group: Slot, key: Callable[[Slot], Hashable]) -> Ranges:
    scaled = [_scaled(c, key) for c in group.children]
    each = [_per_selection(c, key) for c in group.children]
    forced = max(0, group.low - sum(_least(c) for c in group.children))
    open_ = [e for c, e in zip(group.children, each, strict=True) if _room_total(c)]
    out: Ranges = {}
    for k in {k for part in scaled for k in part}:
        low = sum(s.get(k, (0, 0, 0))[0] for s in scaled)
        if forced and open_:
            low += forced * min(e.get(k, (0, 0, 0))[0] for e in open_)
        high = sum(s.get(k, (0, 0, 0))[1] for s in scaled)
        high = min(high, group.high * max(e.get(k, (0, 0, 0))[1] for e in each))
        default = sum(s.get(k, (0, 0, 0))[2] for s in scaled)
        out[k] = (low, min(INF, max(high, low)), default)
    return out


def _least(slot: Slot) -> int:
    """The fewest selections a slot makes."""
    if slot.kind == "group":
        return max(slot.low, sum(_least(c) for c in slot.children))
    return slot.low


def _room_total(slot: Slot) -> bool:
    return _capacity(slot) > _least(slot)


def _add(into: Ranges, more: Ranges) -> None:
    for k, (a, b, d) in more.items():
        x, y, z = into.get(k, (0, 0, 0))
        into[k] = (x + a, min(INF, y + b), z + d)
