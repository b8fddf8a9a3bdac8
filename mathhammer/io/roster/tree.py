"""The selection tree of a roster: its units, their models, the wargear each model took.

A roster (BattleScribe's roster schema, New Recruit's JSON of it) is ``roster > forces >
force > selections > selection``; a force may hold forces of its own. Each selection has a
``type`` (``unit``, ``model`` or ``upgrade``), a ``number`` (how many were taken) and
copies of the catalogue's ``profiles``, ``rules``, ``categories`` and ``costs``, with its
own ``selections`` below it.

Read here:

- a *unit* is a selection of type ``unit`` or ``model`` directly in a force (a single-model
  unit, a character or a vehicle, is one ``model`` selection); other selections there
  (detachment, battle size) configure the army and are not units;
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

import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...errors import InputFileError
from ...units.datasheet import AbilityText
from .profiles import characteristics, is_weapon, profile_type

__all__ = ["GearEntry", "ModelEntry", "RosterEntry", "UnitEntry", "read_tree"]

Node = Mapping[str, Any]


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
    units: list[UnitEntry] = []
    factions: list[str] = []
    entry = RosterEntry(str(roster.get("name", "")), _points(roster, file, "roster"), [], [])
    forces = [(force, f"forces[{i}]") for i, force in enumerate(_items(roster, "forces", file, ""))]
    while forces:
        force, where = forces.pop(0)
        faction = str(force.get("catalogueName", ""))
        if faction and faction not in factions:
            factions.append(faction)
        entry.rules.extend(_rules(force, file, where))
        _read_selections(force, faction, file, where, entry, units)
        nested = _items(force, "forces", file, where)
        forces[:0] = [(f, f"{where} > forces[{i}]") for i, f in enumerate(nested)]
    entry.factions, entry.units = factions, units
    return entry


def _read_selections(
    force: Node, faction: str, file: str, where: str, entry: RosterEntry, units: list[UnitEntry]
) -> None:
    """Read a force's selections: its units into ``units``, its detachment into ``entry``."""
    for selection in _items(force, "selections", file, where):
        if _is_unit(selection, file, where):
            units.append(_unit(selection, faction, file))
        elif _name(selection) == "Detachment":
            place = f"{where} > Detachment"
            for chosen in _items(selection, "selections", file, place):
                entry.detachments.append((_name(chosen), _rules(chosen, file, place)))


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
    if not isinstance(value, list) or not all(isinstance(v, Mapping) for v in value):
        place = f"{where}: " if where else ""
        raise InputFileError.at(
            file, None, None, f"{place}{key!r} must be a list of entries; got {value!r:.60}"
        )
    return value


def _name(node: Node) -> str:
    return " ".join(str(node.get("name", "")).split())


def _number(selection: Node, file: str, where: str) -> int:
    value = selection.get("number", 1)
    try:
        number = float(value)
    except (TypeError, ValueError):
        number = math.nan
    if isinstance(value, bool) or not number.is_integer() or number < 0:
        raise InputFileError.at(
            file, None, None, f"{where}: 'number' must be a whole number >= 0; got {value!r}"
        )
    return int(number)


def _points(node: Node, file: str, where: str) -> int | None:
    """The ``pts`` costs of one selection (or the roster's total), None without any."""
    total: int | None = None
    for cost in _items(node, "costs", file, where):
        if str(cost.get("name", "")).strip().lower() != "pts" and cost.get("typeId") != "points":
            continue
        total = (total or 0) + _whole_points(cost, file, where)
    return total


def _whole_points(cost: Node, file: str, where: str) -> int:
    """The value of a ``pts`` cost; an error unless it is a whole number."""
    value = cost.get("value")
    try:
        number = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        number = math.nan
    if isinstance(value, bool) or not number.is_integer():
        raise InputFileError.at(
            file, None, None, f"{where}: cost 'pts' must be a whole number; got {value!r}"
        )
    return int(number)


def _unit_profiles(selection: Node, file: str, where: str) -> list[Node]:
    profiles = _items(selection, "profiles", file, where)
    return [p for p in profiles if profile_type(p) == "unit"]


def _is_model(selection: Node, file: str, where: str) -> bool:
    return selection.get("type") == "model" or bool(_unit_profiles(selection, file, where))


def _is_unit(selection: Node, file: str, where: str) -> bool:
    return selection.get("type") in ("unit", "model") or _holds_model(selection, file, where)


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
    if selection.get("type") == "model":
        model = _model(selection, [], file, name)
        unit.models.append(model)
        _walk(selection, [selection], unit, model, file, name)
    else:
        _walk(selection, [selection], unit, None, file, name)
    if not unit.models and _unit_profiles(selection, file, name):
        # a unit entry that holds its profile but no model entries: the unit is its models
        model = _model(selection, [], file, name)
        model.gear, unit.loose = unit.loose, []
        unit.models.append(model)
    _describe(selection, unit, file, name)
    return unit


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
    found = []
    for entry in _items(selection, "associations", file, where):
        if str(entry.get("type", "outgoing")) != "outgoing":
            continue
        name, to = entry.get("name"), entry.get("to")
        if not isinstance(name, str) or not isinstance(to, str) or not to:
            raise InputFileError.at(
                file, None, None,
                f"{where}: an association must have a 'name' and the id it goes 'to'; "
                f"got {dict(entry)!r:.80}",
            )  # fmt: skip
        found.append((" ".join(name.split()), to))
    return found


def _subtree_points(selection: Node, file: str, where: str) -> int | None:
    total = _points(selection, file, where)
    for child in _items(selection, "selections", file, where):
        part = _subtree_points(child, file, f"{where} > {_name(child)}")
        if part is not None:
            total = (total or 0) + part
    return total


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
        if len(profiles) == 1:
            return profiles[0], ""
        named = [p for p in profiles if _name(p).lower() == name.lower()]
        if named:
            return named[0], ""
        if profiles:
            names = [_name(p) for p in profiles]
            return None, f"{len(profiles)} Unit profiles ({names}) and none named {name!r}"
    return None, "no Unit profile (M, T, Sv, W...) for this model"


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
    abilities: dict[tuple[str, str], None] = {}
    for node, place in _breadth_first(selection, file, where):
        profiles = _items(node, "profiles", file, place)
        if node is selection or _is_model(node, file, place):
            for category in _items(node, "categories", file, place):
                keywords[_name(category).removeprefix("Faction: ")] = None
        _add_abilities(node, profiles, abilities, file, place)
    unit.keywords = [k for k in keywords if k]
    unit.abilities = [AbilityText(name, text) for name, text in abilities]


def _breadth_first(selection: Node, file: str, where: str) -> Iterator[tuple[Node, str]]:
    """Each node of a selection's tree with its place, breadth first (a node's children
    are read once it has been looked at)."""
    pending = [(selection, where)]
    while pending:
        node, place = pending.pop(0)
        yield node, place
        children = _items(node, "selections", file, place)
        pending.extend((child, f"{place} > {_name(child)}") for child in children)


def _add_abilities(
    node: Node,
    profiles: list[Node],
    abilities: dict[tuple[str, str], None],
    file: str,
    where: str,
) -> None:
    """Add a node's ability profiles, and its rules unless it is a weapon, to ``abilities``."""
    for profile in profiles:
        if profile_type(profile) == "abilities":
            text = " ".join(characteristics(profile).values())
            abilities[(_name(profile), text)] = None
    if not any(is_weapon(p) for p in profiles):  # a weapon's rules explain its keywords
        for rule in _items(node, "rules", file, where):
            abilities[(_name(rule), " ".join(str(rule.get("description", "")).split()))] = None
