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

import itertools
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass, field
from typing import Any

from .links import nodes, number, with_link

__all__ = [
    "INF",
    "MAX_NESTING",
    "MAX_SLOTS",
    "Sizes",
    "Slot",
    "TreeTooLarge",
    "build",
    "check_expansion",
    "model_ranges",
]

Node = dict[str, Any]
#: "No maximum": larger than any real count, and still an int for the arithmetic.
INF = 10**9
#: The most entries one datasheet's selection tree may expand to. A real datasheet has a few
#: hundred; links that each point at two entries of the next level, twenty levels deep,
#: expand to a million, and were expanded until the machine gave out.
MAX_SLOTS = 20_000
#: The most levels a selection tree may nest (an entry within an entry, through links or
#: not). The real catalogues nest at most a few levels; a chain of links each pointing at
#: the next nested until Python's recursion limit gave out.
MAX_NESTING = 50


class TreeTooLarge(Exception):
    """A selection tree that expands past :data:`MAX_SLOTS` entries or nests past
    :data:`MAX_NESTING` levels."""


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


#: What :func:`check_expansion` learnt of each sub-tree: id(node) -> (entries below, height).
Sizes = dict[int, tuple[int, int]]


def build(
    resolve: Resolver,
    owner: Any,
    node: Node,
    link: Node | None = None,
    sizes: Sizes | None = None,
) -> Slot:
    """The selection tree of an entry (a unit, or a single-model datasheet).

    Hidden entries and crusade content (an entry or group whose ``comment`` starts
    with "Crusade", or named "Crusade") are left out: neither is part of a unit in a
    matched-play list. ``sizes`` keeps the sub-trees sized for one datasheet for the
    next (:func:`check_expansion`): a catalogue's shared wargear is sized once.
    """
    check_expansion(resolve, owner, node, sizes)
    root = Slot(node, link, owner, str(node.get("type", "group")), 1, 1, 1)
    built = itertools.count(1)  # the entries expanded, counted as they are
    root.children = _children(resolve, owner, node, {str(node.get("id"))}, built)
    return root


def check_expansion(resolve: Resolver, owner: Any, node: Node, sizes: Sizes | None = None) -> None:
    """Refuse, before anything is built, a tree that would expand past :data:`MAX_SLOTS`
    entries or nest past :data:`MAX_NESTING` levels: :class:`TreeTooLarge`.

    The walk is iterative and sizes each shared sub-tree once (a link graph whose entries
    each point at two of the next level is walked in as many steps as it has entries, not
    paths). A sub-tree is sized where it is first reached (in this tree, or in an earlier
    one whose ``sizes`` are given); :func:`build` counts again as it expands, so a tree
    whose links loop back is bounded either way.

    Examples
    --------
    >>> chain = {"id": "e0", "name": "E0"}
    >>> last = chain
    >>> for level in range(1, 60):
    ...     last["selectionEntries"] = [{"id": f"e{level}", "name": f"E{level}"}]
    ...     last = last["selectionEntries"][0]
    >>> check_expansion(lambda owner, link: (owner, {}), None, chain)
    Traceback (most recent call last):
    ...
    mathhammer.io.bsdata.tree.TreeTooLarge: its selection tree nests past 50 levels
    """
    sizes = {} if sizes is None else sizes
    stack = [_Walk(owner, node, {str(node.get("id"))}, iter(_kept(resolve, owner, node)))]
    while stack:
        top = stack[-1]
        step = next(top.pending, None)
        if step is not None:
            _visit(resolve, step, stack, sizes)
            continue
        stack.pop()
        sizes[id(top.node)] = (top.size, top.height)
        if stack:
            stack[-1].add(top.size, top.height)


def _visit(resolve: Resolver, step: tuple[Any, Node], stack: list[_Walk], sizes: Sizes) -> None:
    """Count the entry ``step`` below the node on top of ``stack``: from ``sizes`` where it
    was sized before, else pushed to be walked (a link back to an ancestor is not followed,
    as :func:`build` does not follow it)."""
    top = stack[-1]
    owner, child = step
    ident = str(child.get("id"))
    if ident in top.path:
        return
    known = sizes.get(id(child))
    if known is not None:
        top.add(*known)
        return
    if top.depth >= MAX_NESTING:  # the child would stand deeper
        raise TreeTooLarge(f"its selection tree nests past {MAX_NESTING} levels")
    pending = iter(_kept(resolve, owner, child))
    stack.append(_Walk(owner, child, top.path | {ident}, pending, top.depth + 1))


@dataclass
class _Walk:
    """A node on :func:`check_expansion`'s stack: its entries not yet walked, its depth,
    and the entries and levels below it so far."""

    owner: Any
    node: Node
    path: set[str]
    pending: Iterator[tuple[Any, Node]]
    depth: int = 0
    size: int = 0
    height: int = 0

    def add(self, size: int, height: int) -> None:
        """Count a child whose sub-tree holds ``size`` entries ``height`` levels deep;
        :class:`TreeTooLarge` past either limit."""
        self.size += 1 + size
        self.height = max(self.height, 1 + height)
        if self.size > MAX_SLOTS:
            raise TreeTooLarge(f"its selection tree expands past {MAX_SLOTS} entries")
        if self.depth + self.height > MAX_NESTING:
            raise TreeTooLarge(f"its selection tree nests past {MAX_NESTING} levels")


def _kept(resolve: Resolver, owner: Any, node: Node) -> list[tuple[Any, Node]]:
    """(owner, node) of the entries a node's tree keeps: neither hidden nor crusade."""
    return [
        (child_owner, child)
        for child_owner, child, via, _ in _contents(resolve, owner, node)
        if not _left_out(child, via)
    ]


def _children(
    resolve: Resolver, owner: Any, node: Node, path: set[str], built: Iterator[int]
) -> list[Slot]:
    """The slots of what one selection of a node holds, each at its default; past
    :data:`MAX_SLOTS` entries expanded or :data:`MAX_NESTING` levels, :class:`TreeTooLarge`."""
    slots = []
    for child_owner, child, via, kind in _contents(resolve, owner, node):
        ident = str(child.get("id"))
        if ident in path or _left_out(child, via):
            continue  # a link back to an ancestor would never end
        if next(built) > MAX_SLOTS:
            raise TreeTooLarge(f"its selection tree expands past {MAX_SLOTS} entries")
        if len(path) > MAX_NESTING:
            raise TreeTooLarge(f"its selection tree nests past {MAX_NESTING} levels")
        slot = Slot(child, via, child_owner, kind)
        slot.low, slot.high = _limits(child, via)
        slot.children = _children(resolve, child_owner, child, path | {ident}, built)
        slots.append(slot)
    _set_defaults(slots)
    return slots


def _contents(
    resolve: Resolver, owner: Any, node: Node
) -> list[tuple[Any, Node, Node | None, str]]:
    """(owner, node, link, kind) of a node's entries, groups and links' targets, in order."""
    found: list[tuple[Any, Node, Node | None, str]] = []
    for entry in nodes(node, "selectionEntries"):
        found.append((owner, entry, None, str(entry.get("type", "upgrade"))))
    for group in nodes(node, "selectionEntryGroups"):
        found.append((owner, group, None, "group"))
    for link in nodes(node, "entryLinks"):
        target_owner, target = resolve(owner, link)
        kind = _LINKED_KINDS.get(str(link.get("type")), "upgrade")
        found.append((target_owner, target, link, str(target.get("type", kind))))
    return found


#: The kind of slot a link makes when its target does not say (an entry: an upgrade).
_LINKED_KINDS = {"selectionEntryGroup": "group"}


def _set_defaults(slots: list[Slot]) -> None:
    """Set each slot's default to its minimum; a group fills what its entries' leave."""
    for slot in slots:
        slot.default = slot.low
        if slot.kind == "group":
            _fill(slot, slot.low - _selected(slot))


def _left_out(node: Node, link: Node | None) -> bool:
    """Whether an entry (reached through ``link``) is hidden or crusade content."""
    for part in with_link(node, link):
        if part.get("hidden") is True:
            return True
        if str(part.get("comment", "")).lower().startswith("crusade"):
            return True
    return str((link or node).get("name", "")) == "Crusade"


def _limits(node: Node, link: Node | None) -> tuple[int, int]:
    """(min, max) selections within the parent; a negative max means none."""
    low, high = 0, INF
    for kind, value in _selection_limits(node, link):
        if kind == "min":
            low = max(low, value)
        elif kind == "max":
            high = min(high, value)
    return low, max(high, low)


def _selection_limits(node: Node, link: Node | None) -> list[tuple[Any, int]]:
    """(type, value) of each limit on selections within the parent: the node's, its link's."""
    return [
        (constraint.get("type"), value)
        for part in with_link(node, link)
        for constraint in nodes(part, "constraints")
        if (value := _limit(constraint)) is not None
    ]


def _limit(constraint: Node) -> int | None:
    """The value of a constraint on selections within the parent; None for another
    constraint, or a value that is not a count."""
    if (constraint.get("field"), constraint.get("scope")) != ("selections", "parent"):
        return None
    value = number(constraint.get("value"))
    return None if value is None or value < 0 else int(value)


def _selected(slot: Slot) -> int:
    """How many selections a slot makes at its default (a group: its entries')."""
    if slot.kind == "group":
        return sum(_selected(c) for c in slot.children)
    return slot.default


def _room(slot: Slot) -> int:
    """How many more selections a slot can make beyond those at its default."""
    return max(0, _capacity(slot) - _selected(slot))


def _capacity(slot: Slot) -> int:
    """The most selections a slot can make (a group: its entries', within its maximum)."""
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
    parts = [_per_selection(c, key) for c in slot.children]
    return {k: (min(_column(parts, k, 0)), max(_column(parts, k, 1)), 0) for k in _types(parts)}


def _group(group: Slot, key: Callable[[Slot], Hashable]) -> Ranges:
    """What a group adds to its parent: the sum of its entries' counts, with the selections
    its minimum forces beyond theirs, and at most its maximum of the most one brings."""
    scaled = [_scaled(c, key) for c in group.children]
    each = [_per_selection(c, key) for c in group.children]
    forced, open_ = _forced(group, each)
    out: Ranges = {}
    for k in _types(scaled):
        low = sum(_column(scaled, k, 0)) + _forced_least(forced, open_, k)
        high = min(sum(_column(scaled, k, 1)), group.high * max(_column(each, k, 1)))
        out[k] = (low, min(INF, max(high, low)), sum(_column(scaled, k, 2)))
    return out


def _forced(group: Slot, each: list[Ranges]) -> tuple[int, list[Ranges]]:
    """The selections a group's minimum forces beyond its entries' own, and what one
    selection brings of each entry with room to make them."""
    forced = max(0, group.low - sum(_least(c) for c in group.children))
    return forced, [e for c, e in zip(group.children, each, strict=True) if _room_total(c)]


def _forced_least(forced: int, open_: list[Ranges], k: Hashable) -> int:
    """The fewest of type ``k`` that ``forced`` selections bring, each made by an entry with
    room (the one that brings the fewest)."""
    if not (forced and open_):
        return 0
    return forced * min(_column(open_, k, 0))


def _types(parts: list[Ranges]) -> set[Hashable]:
    """The model types any of the parts holds."""
    return {k for part in parts for k in part}


def _column(parts: list[Ranges], k: Hashable, index: int) -> list[int]:
    """One number (0 smallest, 1 largest, 2 default) of type ``k`` in each part; 0 if none."""
    return [part.get(k, (0, 0, 0))[index] for part in parts]


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
