"""A unit's composition: its model entries, the profile of each and the wargear each carries.

The model entries of a unit are often loadouts rather than model types: "Warrior w/
gauss flayer" and "Warrior w/ gauss reaper" share the unit's one ``Unit`` profile and
the ten-to-twenty limit of their group. So model entries are grouped into model types
by their profile: a type's default wargear is that of its entry with the most models at
the unit's default, and the other entries' wargear are its options. An entry the unit
must have with a different default loadout (one "Ravener w/ Venom bolt" beside three
Raveners, the Spanner of Burna Boyz) stays a type of its own, so the default unit
carries what the data says.

Examples
--------
>>> sorted(words("Kroot Farstalkers & Kill-broker"))
['farstalker', 'kill-broker', 'kroot']
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .links import CatalogueSet, nodes
from .profiles import MELEE, RANGED, UNIT, profile_name
from .tree import INF, Slot

__all__ = [
    "Carried",
    "ModelEntry",
    "carried",
    "choose_profile",
    "model_entries",
    "profiles",
    "shown",
    "type_keys",
    "words",
]

Node = dict[str, Any]
WEAPONS = (RANGED, MELEE)


def profiles(books: CatalogueSet, owner: Any, node: Node, kinds: Sequence[str]) -> list[Node]:
    """An entry's profiles of the given typeNames: its own, then those it links.

    A linked profile takes the unconditional changes its link makes to its name (a
    sergeant's link renaming the squad's profile).
    """
    found = nodes(node, "profiles") + shown(books, owner, node, "profile")
    return [p for p in found if p.get("typeName") in kinds]


def shown(books: CatalogueSet, owner: Any, node: Node, kind: str) -> list[Node]:
    """The ``kind`` targets of an entry's shown links (:func:`shown_links`), each under the
    name its link gives it (:func:`renamed`)."""
    return [
        {**target, "name": renamed(link, str(target.get("name", "")))}
        for link, target in shown_links(books, owner, node, kind)
    ]


def shown_links(
    books: CatalogueSet, owner: Any, node: Node, kind: str
) -> Iterator[tuple[Node, Node]]:
    """Each ``infoLink`` of an entry to a ``kind`` (``"profile"``, ``"rule"``) that is not
    hidden, with its target."""
    for link in nodes(node, "infoLinks"):
        if link.get("type") == kind and link.get("hidden") is not True:
            yield link, books.resolve(owner, link)[1]


def renamed(link: Node, name: str) -> str:
    """A name after a link's unconditional ``set``/``append`` modifiers of ``name``."""
    for modifier in nodes(link, "modifiers"):
        rename = _RENAMES.get(str(modifier.get("type")))
        if rename is not None and _renames(modifier):
            name = rename(name, str(modifier.get("value", "")), modifier)
    return name


#: How a ``set`` or ``append`` modifier changes a name, given its value.
_RENAMES: dict[str, Callable[[str, str, Node], str]] = {
    "set": lambda name, value, modifier: value,
    "append": lambda name, value, modifier: f"{name}{modifier.get('join', ' ')}{value}",
}


def _renames(modifier: Node) -> bool:
    """Whether a modifier changes the name, unconditionally."""
    if modifier.get("field") != "name" or nodes(modifier, "conditions"):
        return False
    return not nodes(modifier, "conditionGroups")


@dataclass(frozen=True)
class ModelEntry:
    """A model entry of a unit: its slot, the slots above it and its default count."""

    slot: Slot
    ancestors: tuple[Slot, ...]
    default: int


def model_entries(root: Slot) -> list[ModelEntry]:
    """Every model entry of a unit (the root itself first for a single-model datasheet),
    models carried by models included (a rider on its beast)."""
    if root.kind == "model":
        return [ModelEntry(root, (), 1), *_models(root, (root,), 1)]
    return list(_models(root, (root,), 1))


def _models(slot: Slot, ancestors: tuple[Slot, ...], count: int) -> Iterator[ModelEntry]:
    for child in slot.children:
        times = count * (child.default if child.kind != "group" else 1)
        if child.kind == "model":
            yield ModelEntry(child, ancestors, times)
        yield from _models(child, (*ancestors, child), times)


def words(name: str) -> set[str]:
    """The words of a name, lower case, without a plural ``s``."""
    out = set()
    for word in name.lower().replace(",", " ").replace("&", " ").split():
        out.add(word[:-1] if word.endswith("s") and len(word) > 3 else word)
    return out


def choose_profile(
    books: CatalogueSet, entry: ModelEntry, siblings: Sequence[ModelEntry]
) -> Node | None:
    """The ``Unit`` profile of a model entry: its own, else its nearest ancestor's.

    Among several, the one named like the entry; else, leaving out those another entry
    is named exactly like, the one sharing most words with the entry's name.
    """
    slot = entry.slot
    for holder in (slot, *reversed(entry.ancestors)):
        found = profiles(books, holder.owner, holder.node, (UNIT,))
        if found:
            return _by_name(slot.name, found, [s.slot.name for s in siblings])
    return None


def _by_name(name: str, found: list[Node], others: Sequence[str]) -> Node:
    """The profile named like the entry; else, of those no other entry claims, the one
    sharing most words with its name."""
    exact = [p for p in found if profile_name(p).casefold() == name.casefold()]
    if exact:
        return exact[0]
    mine = words(name)
    return max(_unclaimed(name, found, others), key=lambda p: len(mine & words(profile_name(p))))


def _unclaimed(name: str, found: list[Node], others: Sequence[str]) -> list[Node]:
    """The profiles no other entry is named exactly like (all of them if each is)."""
    claimed = {o.casefold() for o in others if o != name}
    return [p for p in found if profile_name(p).casefold() not in claimed] or found


@dataclass(frozen=True)
class Carried:
    """A piece of wargear a model entry holds: per model, at the default and at most."""

    slot: Slot
    holder: str
    default: int
    most: int


def carried(books: CatalogueSet, model: Slot) -> list[Carried]:
    """The wargear (entries with weapon profiles) a model entry holds, in order."""
    return list(_carried(books, model, model.name, 1, 1))


def _carried(
    books: CatalogueSet, slot: Slot, holder: str, count: int, most: int, limit: int = INF
) -> Iterator[Carried]:
    """The wargear under a slot, ``count`` of each per model at the default and at most
    ``most`` (the models it holds carry their own)."""
    for child in slot.children:
        if child.kind == "group":  # its maximum bounds its entries together
            yield from _carried(books, child, holder, count, most, min(limit, child.high))
        elif child.kind != "model":
            yield from _entry_carried(books, child, holder, count, most, limit)


def _entry_carried(
    books: CatalogueSet, entry: Slot, holder: str, count: int, most: int, limit: int
) -> Iterator[Carried]:
    """An entry's wargear, if it has weapon profiles, then the wargear it holds."""
    high = min(entry.high, limit)
    each = most * (high if high < INF else 1)
    times = count * entry.default
    if profiles(books, entry.owner, entry.node, WEAPONS):
        yield Carried(entry, holder, times, max(each, 1))
    yield from _carried(books, entry, entry.name, times, each)


def type_keys(
    entries: Sequence[ModelEntry],
    profile_of: Mapping[int, Hashable],
    loadout_of: Mapping[int, tuple[str, ...]],
) -> dict[int, Hashable]:
    """The model type of each entry (keyed by ``id(entry.slot)``): ``(profile, name,
    own)``, ``own`` for an entry that is a type of its own rather than its profile's.

    Entries share a type when they share a profile. An entry that a unit must have
    (its minimum is above 0 somewhere in the tree) with another default loadout than the
    profile's main entry (the one with most models at the default) is a type of its own.
    """
    main = _main_entries(entries, profile_of)
    required = _required(entries)
    keys: dict[int, Hashable] = {}
    for entry in entries:
        profile = profile_of[id(entry.slot)]
        leader = main[profile]
        differs = loadout_of[id(entry.slot)] != loadout_of[id(leader.slot)]
        own = differs and id(entry.slot.node) in required
        keys[id(entry.slot)] = (profile, (entry if own else leader).slot.name, own)
    return keys


def _required(entries: Sequence[ModelEntry]) -> set[int]:
    """The entries a unit must have, as ``id(entry.slot.node)``: those whose minimum is
    above 0 somewhere in the tree."""
    return {id(entry.slot.node) for entry in entries if entry.slot.low > 0}


def _main_entries(
    entries: Sequence[ModelEntry], profile_of: Mapping[int, Hashable]
) -> dict[Hashable, ModelEntry]:
    """Each profile's main entry: the first of those with the most models at the default."""
    main: dict[Hashable, ModelEntry] = {}
    for entry in entries:
        known = main.get(profile_of[id(entry.slot)])
        if known is None or entry.default > known.default:
            main[profile_of[id(entry.slot)]] = entry
    return main
