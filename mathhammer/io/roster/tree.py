"""The selection tree of a roster: its units, their models, the wargear each model took.

A roster (BattleScribe's roster schema, New Recruit's JSON of it) is ``roster > forces >
force > selections > selection``; a force may hold forces of its own. Each selection has a
``type`` (``unit``, ``model`` or ``upgrade``), a ``number`` (how many were taken) and
copies of the catalogue's ``profiles``, ``rules``, ``categories`` and ``costs``, with its
own ``selections`` below it.

Read here:

- a *unit* is a selection of type ``unit`` or ``model`` directly in a force (a single-model
  unit, a character or a vehicle, is one ``model`` selection), or one of another type that
  carries a ``Unit`` profile or holds a model (some lists type a unit ``upgrade``); other
  selections there (detachment, battle size) configure the army and are not units;
- a *model* is a selection of type ``model``, or one that carries a ``Unit`` profile, below
  the unit (or the unit selection itself when it is a model); its characteristics are its
  own ``Unit`` profile or the nearest one above it (one unit-wide profile often serves
  every model);
- a *piece of wargear* is any other selection carrying ``Ranged Weapons`` or ``Melee
  Weapons`` profiles; its ``number`` counts it over all the models of the model
  selection it is under (10 warriors with one gauss flayer each: ``number="10"`` twice);
- a unit's points are the ``pts`` costs of its whole subtree (each selection holds only
  its own cost).

Examples
--------
>>> tree = {"name": "Demo", "forces": [{"catalogueName": "Necrons", "selections": [
...     {"name": "Overlord", "type": "model", "number": 1,
...      "costs": [{"name": "pts", "value": 90}],
...      "profiles": [{"name": "Overlord", "typeName": "Unit", "characteristics": []}],
...      "selections": [{"name": "Voidscythe", "type": "upgrade", "number": 1,
...                      "profiles": [{"name": "Voidscythe", "typeName": "Melee Weapons"}]}]}]}]}
>>> army = read_tree(tree, "demo.json")
>>> [(u.name, u.points, [(m.name, m.count, [g.name for g in m.gear]) for m in u.models])
...  for u in army.units]
[('Overlord', 90, [('Overlord', 1, ['Voidscythe'])])]
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeGuard

from ...core.limits import MAX_UNIT_WOUNDS
from ...errors import InputFileError
from ...units.datasheet import AbilityText
from .profiles import characteristics, is_weapon, profile_type

__all__ = ["GearEntry", "ModelEntry", "RosterEntry", "UnitEntry", "read_tree"]

Node = Mapping[str, Any]
#: The most a selection's ``number`` may be: no unit has more models than the exact engine
#: takes wounds (:data:`~mathhammer.core.limits.MAX_UNIT_WOUNDS`); a count of 10**9 would
#: be built model by model before any limit saw it.
MAX_NUMBER = MAX_UNIT_WOUNDS


@dataclass
class GearEntry:
    """A selection carrying weapon profiles, and how many were taken."""

    name: str
    profiles: list[Node]
    number: int
    where: str


@dataclass
class ModelEntry:
    """A model selection: its count, its Unit profile (or why there is none), its wargear."""

    name: str
    count: int
    profile: Node | None
    problem: str
    where: str
    gear: list[GearEntry] = field(default_factory=list)


@dataclass
class UnitEntry:
    """A unit selection: what it is called, costs, and holds."""

    name: str
    label: str
    faction: str
    points: int | None
    keywords: list[str]
    abilities: list[AbilityText]
    where: str
    models: list[ModelEntry] = field(default_factory=list)
    loose: list[GearEntry] = field(default_factory=list)
    #: The selection's id, which another unit's association points to.
    id: str = ""
    #: The units this one is attached to: (``"Leading"`` or ``"Supporting"``, the id of
    #: the bodyguard's selection), as New Recruit records them since the 11th edition's
    #: data gave leaders (``associations`` of type ``"outgoing"``).
    attached_to: list[tuple[str, str]] = field(default_factory=list)


@dataclass
class RosterEntry:
    """The roster: its name, total points, factions and units."""

    name: str
    points: int | None
    factions: list[str]
    units: list[UnitEntry]
    #: The forces' own rules (the army rules: "Waaagh!").
    rules: list[AbilityText] = field(default_factory=list)
    #: The detachments chosen (the ``Detachment`` selection of a force): name and rules.
    detachments: list[tuple[str, list[AbilityText]]] = field(default_factory=list)


def read_tree(roster: Node, file: str) -> RosterEntry:
    """Every unit of the roster, in the order of its forces and selections.

    Raises
    ------
    InputFileError
        A list that is not a list, a ``number`` that is not a whole number, or a ``pts``
        cost that is not a number.
    """
    entry = RosterEntry(str(roster.get("name", "")), _points(roster, file, "roster"), [], [])
    for force, where in _forces(roster, file):
        faction = str(force.get("catalogueName", ""))
        if faction and faction not in entry.factions:
            entry.factions.append(faction)
        entry.rules.extend(_rules(force, file, where))
        _read_selections(force, faction, file, where, entry)
    return entry


def _forces(roster: Node, file: str) -> Iterator[tuple[Node, str]]:
    """Each force of the roster with its place, the forces a force holds right after it."""
    pending = [
        (force, f"forces[{i}]") for i, force in enumerate(_items(roster, "forces", file, ""))
    ]
    while pending:
        force, where = pending.pop(0)
        yield force, where
        nested = _items(force, "forces", file, where)
        pending[:0] = [(f, f"{where} > forces[{i}]") for i, f in enumerate(nested)]


def _read_selections(force: Node, faction: str, file: str, where: str, entry: RosterEntry) -> None:
    """Read a force's selections: its units and its detachment into ``entry``."""
    for selection in _items(force, "selections", file, where):
        if _is_unit(selection, file, where):
            entry.units.append(_unit(selection, faction, file))
        elif _name(selection) == "Detachment":
            entry.detachments.extend(_detachments(selection, file, f"{where} > Detachment"))


def _detachments(selection: Node, file: str, where: str) -> list[tuple[str, list[AbilityText]]]:
    """The detachments chosen in a force's ``Detachment`` selection, with their rules."""
    return [
        (_name(c), _rules(c, file, where)) for c in _items(selection, "selections", file, where)
    ]


def _rules(node: Node, file: str, where: str) -> list[AbilityText]:
    """The rules of a node (a force, a detachment), as printed."""
    return [
        AbilityText(_name(rule), " ".join(str(rule.get("description", "")).split()))
        for rule in _items(node, "rules", file, where)
    ]


def _items(node: Node, key: str, file: str, where: str) -> list[Node]:
    value = node.get(key)
    if value is None:
        return []
    if not _is_entries(value):
        place = f"{where}: " if where else ""
        raise InputFileError.at(
            file, None, None, f"{place}{key!r} must be a list of entries; got {value!r:.60}"
        )
    return value


def _is_entries(value: object) -> TypeGuard[list[Node]]:
    """Whether a value is a list of entries (mappings)."""
    return isinstance(value, list) and all(isinstance(v, Mapping) for v in value)


def _name(node: Node) -> str:
    return " ".join(str(node.get("name", "")).split())


def _whole(value: object) -> int | None:
    """A number (or its text) that is whole, as an int; None for anything else."""
    try:
        number = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None
    return None if isinstance(value, bool) or not number.is_integer() else int(number)


def _number(selection: Node, file: str, where: str) -> int:
    """A selection's ``number``: a whole number from 0 to :data:`MAX_NUMBER`, checked
    before anything is built for it."""
    value = selection.get("number", 1)
    number = _whole(value)
    if number is None or not 0 <= number <= MAX_NUMBER:
        raise InputFileError.at(
            file, None, None, f"{where}: 'number' must be a whole number from 0 to "
            f"{MAX_NUMBER}; got {value!r:.40}",
        )  # fmt: skip
    return number


def _points(node: Node, file: str, where: str) -> int | None:
    """The ``pts`` costs of one selection (or the roster's total), None without any."""
    costs = _items(node, "costs", file, where)
    return _total(_whole_points(cost, file, where) for cost in costs if _is_points(cost))


def _is_points(cost: Node) -> bool:
    """Whether a cost is in points (rather than power level, command points...)."""
    return str(cost.get("name", "")).strip().lower() == "pts" or cost.get("typeId") == "points"


def _whole_points(cost: Node, file: str, where: str) -> int:
    """The value of a ``pts`` cost; an error unless it is a whole number."""
    value = cost.get("value")
    number = _whole(value)
    if number is None:
        raise InputFileError.at(
            file, None, None, f"{where}: cost 'pts' must be a whole number; got {value!r}"
        )
    return number


def _total(parts: Iterable[int | None]) -> int | None:
    """The sum of the parts that have points; None if none has."""
    found = [part for part in parts if part is not None]
    return sum(found) if found else None


def _unit_profiles(selection: Node, file: str, where: str) -> list[Node]:
    profiles = _items(selection, "profiles", file, where)
    return [p for p in profiles if profile_type(p) == "unit"]


def _is_model(selection: Node, file: str, where: str) -> bool:
    return selection.get("type") == "model" or bool(_unit_profiles(selection, file, where))


def _is_unit(selection: Node, file: str, where: str) -> bool:
    """A unit: a selection typed ``unit`` or ``model``, or one of any type (an ``upgrade``
    in some lists) that carries a ``Unit`` profile or holds a model."""
    return (
        _is_model(selection, file, where)
        or selection.get("type") == "unit"
        or (_holds_model(selection, file, where))
    )


def _holds_model(selection: Node, file: str, where: str) -> bool:
    return any(
        _is_model(child, file, where) or _holds_model(child, file, where)
        for child in _items(selection, "selections", file, where)
    )


def _unit(selection: Node, faction: str, file: str) -> UnitEntry:
    name = _name(selection)
    label = " ".join(str(selection.get("customName") or name).split())
    unit = UnitEntry(name, label, faction, None, [], [], name)
    unit.points = _subtree_points(selection, file, name)
    unit.id = str(selection.get("id", ""))
    unit.attached_to = _attachments(selection, file, name)
    _read_models(selection, unit, file, name)
    _describe(selection, unit, file, name)
    return unit


def _read_models(selection: Node, unit: UnitEntry, file: str, where: str) -> None:
    """Add a unit's models, with their wargear, and the wargear no model took."""
    owner = None
    if selection.get("type") == "model":
        owner = _model(selection, [], file, where)
        unit.models.append(owner)
    _walk(selection, [selection], unit, owner, file, where)
    if not unit.models and _unit_profiles(selection, file, where):
        # a unit entry that holds its profile but no model entries: the unit is its models
        model = _model(selection, [], file, where)
        model.gear, unit.loose = unit.loose, []
        unit.models.append(model)


def _attachments(selection: Node, file: str, where: str) -> list[tuple[str, str]]:
    """The outgoing associations of a unit's selection: (their name, the selection they
    point to). An entry without a name or a target is an error of the file.

    Examples
    --------
    >>> leader = {"name": "Bigboss", "associations": [
    ...     {"type": "outgoing", "to": "b1", "name": "Supporting"},
    ...     {"type": "incoming", "from": "x9", "name": "Leading"}]}
    >>> _attachments(leader, "army.json", "Bigboss")
    [('Supporting', 'b1')]
    """
    return [
        _association(entry, file, where)
        for entry in _items(selection, "associations", file, where)
        if str(entry.get("type", "outgoing")) == "outgoing"
    ]


def _association(entry: Node, file: str, where: str) -> tuple[str, str]:
    """One outgoing association: its name and the id it goes to; an error without them."""
    name, to = entry.get("name"), entry.get("to")
    if not isinstance(name, str) or not isinstance(to, str) or not to:
        raise InputFileError.at(
            file, None, None,
            f"{where}: an association must have a 'name' and the id it goes 'to'; "
            f"got {dict(entry)!r:.80}",
        )  # fmt: skip
    return " ".join(name.split()), to


def _subtree_points(selection: Node, file: str, where: str) -> int | None:
    """The points of a selection and of everything below it; None without any."""
    own = _points(selection, file, where)
    children = _items(selection, "selections", file, where)
    below = (_subtree_points(child, file, f"{where} > {_name(child)}") for child in children)
    return _total([own, *below])


def _model(selection: Node, ancestors: Sequence[Node], file: str, where: str) -> ModelEntry:
    name = _name(selection)
    count = _number(selection, file, where)
    profile, problem = _profile_for(name, [selection, *reversed(ancestors)], file, where)
    return ModelEntry(name, count, profile, problem, where)


def _profile_for(
    name: str, chain: Sequence[Node], file: str, where: str
) -> tuple[Node | None, str]:
    """The Unit profile of a model: its own, else the nearest one above it."""
    for node in chain:
        profiles = _unit_profiles(node, file, where)
        if profiles:
            return _pick_profile(name, profiles)
    return None, "no Unit profile (M, T, Sv, W...) for this model"


def _pick_profile(name: str, profiles: list[Node]) -> tuple[Node | None, str]:
    """The one of a node's Unit profiles that is a model's: the only one, else the one
    named after the model; None, and why, if it has several and none has its name."""
    if len(profiles) == 1:
        return profiles[0], ""
    named = [p for p in profiles if _name(p).lower() == name.lower()]
    if named:
        return named[0], ""
    names = [_name(p) for p in profiles]
    return None, f"{len(profiles)} Unit profiles ({names}) and none named {name!r}"


def _walk(
    node: Node,
    ancestors: list[Node],
    unit: UnitEntry,
    model: ModelEntry | None,
    file: str,
    where: str,
) -> None:
    for child in _items(node, "selections", file, where):
        place = f"{where} > {_name(child)}"
        if _number(child, file, place) == 0:
            continue
        owner = model
        if _is_model(child, file, place):
            owner = _model(child, ancestors, file, place)
            unit.models.append(owner)
        else:
            _add_gear(child, unit, owner, file, place)
        _walk(child, [*ancestors, child], unit, owner, file, place)


def _add_gear(
    selection: Node, unit: UnitEntry, owner: ModelEntry | None, file: str, where: str
) -> None:
    """Add a selection with weapon profiles to its model's wargear (the unit's, taken by
    no model)."""
    weapons = [p for p in _items(selection, "profiles", file, where) if is_weapon(p)]
    if weapons:
        gear = GearEntry(_name(selection), weapons, _number(selection, file, where), where)
        (owner.gear if owner is not None else unit.loose).append(gear)


def _describe(selection: Node, unit: UnitEntry, file: str, where: str) -> None:
    """The unit's keywords (categories) and abilities (ability profiles and rules)."""
    keywords: dict[str, None] = {}
    abilities: dict[AbilityText, None] = {}
    for node, place in _breadth_first(selection, file, where):
        profiles = _items(node, "profiles", file, place)
        if node is selection or _is_model(node, file, place):
            keywords.update(dict.fromkeys(_keywords(node, file, place)))
        abilities.update(dict.fromkeys(_abilities(node, profiles, file, place)))
    unit.keywords = list(keywords)
    unit.abilities = list(abilities)


def _keywords(node: Node, file: str, where: str) -> list[str]:
    """The keywords of a node: its named categories, a faction's without ``"Faction: "``."""
    categories = _items(node, "categories", file, where)
    return [k for c in categories if (k := _name(c).removeprefix("Faction: "))]


def _breadth_first(selection: Node, file: str, where: str) -> Iterator[tuple[Node, str]]:
    """Each node of a selection's tree with its place, breadth first (a node's children
    are read once it has been looked at)."""
    pending = [(selection, where)]
    while pending:
        node, place = pending.pop(0)
        yield node, place
        children = _items(node, "selections", file, place)
        pending.extend((child, f"{place} > {_name(child)}") for child in children)


def _abilities(node: Node, profiles: list[Node], file: str, where: str) -> list[AbilityText]:
    """A node's ability profiles, and its rules unless it is a weapon."""
    found = [
        AbilityText(_name(p), " ".join(characteristics(p).values()))
        for p in profiles
        if profile_type(p) == "abilities"
    ]
    if any(is_weapon(p) for p in profiles):  # a weapon's rules explain its keywords
        return found
    return [*found, *_rules(node, file, where)]
