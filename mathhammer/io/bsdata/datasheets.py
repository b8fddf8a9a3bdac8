"""Datasheets from a catalogue set: every unit entry a catalogue offers, as a Datasheet.

A catalogue offers a unit through a root ``entryLink`` (or root entry) to a shared entry
of type ``unit`` (several models) or ``model`` (a single-model unit). Its datasheet
takes: the name; the faction (the catalogue offering it); the keywords (the names of its
category links and its models'); each model type's profile, numbers and wargear
(:mod:`.composition`, :mod:`.tree`); the abilities with their text (its ``Abilities``
profiles and linked rules, and its models'), read for defences by
:func:`~mathhammer.io.defences.read_defences`; and the points by unit size
(:mod:`.points`).

What cannot be read is reported, never guessed: a datasheet whose model profile has
``-`` or ``*`` for T, Sv or W is skipped with the reason, as is a weapon profile that
cannot be read (its datasheet keeps its other weapons), and points that are not a
number leave the datasheet without points. A weapon ability the engine does not know
is listed by token in the report, or under ``strict`` is an error.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator
from dataclasses import dataclass, replace
from itertools import chain, count
from pathlib import Path
from typing import Any

from ...errors import InputFileError, ProfileError
from ...model.profiles import Weapon, normalise_keywords
from ...units.datasheet import AbilityText, Datasheet, ModelProfile, Wargear
from ..defences import Defences, read_defences
from ..import_report import ImportReport, Skipped
from ..rules_text import sheet_rules
from .composition import (
    WEAPONS,
    Carried,
    ModelEntry,
    carried,
    choose_profile,
    model_entries,
    profiles,
    renamed,
    type_keys,
)
from .links import Book, CatalogueSet, nodes
from .points import brackets, cost, unit_cost
from .profiles import Body, characteristics, clean_text, profile_name, read_body, read_weapon
from .tree import INF, Ranges, Slot, build, model_ranges

__all__ = ["DatasheetReader"]

Node = dict[str, Any]
ABILITIES = ("Abilities",)


class _Skip(Exception):
    """A datasheet that cannot be read, with the reason (caught and reported)."""


class DatasheetReader:
    """Reads the datasheets of a catalogue set into one import report.

    Parameters
    ----------
    books : CatalogueSet
        The files, links resolved.
    report : ImportReport
        Filled in as datasheets are read.
    strict : bool
        An unknown weapon ability is an error instead of a reported token.
    """

    def __init__(self, books: CatalogueSet, report: ImportReport, *, strict: bool = False) -> None:
        self.books = books
        self.report = report
        self.strict = strict
        self.pts = {
            str(t.get("id"))
            for book in books.catalogues()
            for t in nodes(book.body, "costTypes")
            if t.get("name") == "pts"
        }
        self._weapons: dict[tuple[str, str, str], Weapon | None] = {}
        self._unknown: set[tuple[str, str, str]] = set()

    def read_all(self) -> list[Datasheet]:
        """Every datasheet of every file, by file (game systems first)."""
        out = []
        for book in self.books.catalogues():
            for owner, entry, link in self._roots(book):
                sheet = self.read(owner, entry, link, book)
                if sheet is not None:
                    out.append(sheet)
        return out

    def _roots(self, book: Book) -> Iterator[tuple[Book, Node, Node | None]]:
        for entry in nodes(book.body, "selectionEntries"):
            if entry.get("type") in ("unit", "model") and entry.get("hidden") is not True:
                yield book, entry, None
        for link in nodes(book.body, "entryLinks"):
            owner, entry = self.books.resolve(book, link)
            hidden = link.get("hidden") is True or entry.get("hidden") is True
            if entry.get("type") in ("unit", "model") and not hidden:
                yield owner, entry, link

    def read(self, owner: Book, entry: Node, link: Node | None, offered: Book) -> Datasheet | None:
        """The datasheet of a unit entry, or None (reported) if it cannot be read."""
        name = str(entry.get("name", ""))
        source = f"{Path(offered.file).name}: {name}"
        try:
            sheet = self._datasheet(owner, entry, link, offered.name, source)
        except _Skip as skip:
            self.report.skipped.append(Skipped(name, str(skip), offered.file))
            return None
        self.report.datasheets += 1
        self.report.models += len(sheet.models)
        for ability in sheet.not_understood:
            self.report.not_understood.append((sheet.name, ability.name, ability.text))
        return sheet

    def _datasheet(
        self, owner: Book, entry: Node, link: Node | None, faction: str, source: str
    ) -> Datasheet:
        name = str(entry.get("name", ""))
        root = build(self.books.resolve, owner, entry, link)
        self._promote(root)
        entries = model_entries(root)
        if not entries:
            raise _Skip("it has no model entries")
        armoury = _Armoury(self, name)
        loadouts, options = armoury.loadouts(entries)
        bodies = self._bodies(entries)
        keys = type_keys(entries, bodies, loadouts)
        parts = _Parts(
            root,
            entries,
            bodies,
            keys,
            model_ranges(root, lambda slot: keys[id(slot)]),
            loadouts,
            options,
            _categories(self.books, [root] + [m.slot for m in entries]),
        )
        abilities = self._abilities([root] + [m.slot for m in entries])
        defences = read_defences(abilities)
        rules = sheet_rules(abilities, defences.not_understood, fields=defences.understood)
        try:
            models, leaders = _model_types(parts, defences)
            sheet = Datasheet(
                name,
                tuple(models),
                tuple(armoury.gear.values()),
                faction=faction,
                keywords=tuple(w for words in parts.categories.values() for w in words),
                abilities=tuple(abilities),
                not_understood=rules.listed(defences.not_understood),
                effects=rules.effects,
                stealth=defences.stealth,
                source=source,
            )
        except ProfileError as exc:
            raise _Skip(str(exc).splitlines()[0]) from None
        return self._with_points(sheet, entry, leaders)

    def _bodies(self, entries: list[ModelEntry]) -> dict[int, Body]:
        """The characteristics of each model entry's profile, by ``id(entry.slot)``."""
        bodies = {}
        for model in entries:
            profile = choose_profile(self.books, model, entries)
            if profile is None:
                raise _Skip(f"model {model.slot.name!r} has no Unit profile")
            body, reason = read_body(profile)
            if body is None:
                raise _Skip(f"model {model.slot.name!r}: {reason}")
            bodies[id(model.slot)] = body
        return bodies

    def _promote(self, slot: Slot) -> None:
        """An upgrade entry with a Unit profile of its own is a model entry."""
        for child in slot.children:
            if child.kind == "upgrade" and profiles(self.books, child.owner, child.node, ("Unit",)):
                child.kind = "model"
            self._promote(child)

    def _abilities(self, slots: list[Slot]) -> list[AbilityText]:
        found: dict[tuple[str, str], AbilityText] = {}
        for slot in slots:
            for profile in profiles(self.books, slot.owner, slot.node, ABILITIES):
                text = characteristics(profile).get("Description", "")
                ability = AbilityText(profile_name(profile), clean_text(text))
                found.setdefault((ability.name, ability.text), ability)
            rules = list(nodes(slot.node, "rules"))
            for link in nodes(slot.node, "infoLinks"):
                if link.get("type") == "rule" and link.get("hidden") is not True:
                    _, rule = self.books.resolve(slot.owner, link)
                    rules.append({**rule, "name": renamed(link, str(rule.get("name", "")))})
            for rule in rules:
                ability = AbilityText(
                    clean_text(rule.get("name")), clean_text(rule.get("description"))
                )
                found.setdefault((ability.name, ability.text), ability)
        return list(found.values())

    def weapon(self, owner: Book, profile: Node, sheet: str) -> Weapon | None:
        """A weapon profile as a Weapon (read once), its misses and tokens reported."""
        key = (owner.file, str(profile.get("id")), str(profile.get("name")))
        if key not in self._weapons:
            weapon, reason = read_weapon(profile)
            self._weapons[key] = weapon
            if weapon is None:
                entry = f"{sheet} / {profile_name(profile)}"
                self.report.skipped.append(Skipped(entry, reason, owner.file))
            else:
                self.report.weapons += 1
        weapon = self._weapons[key]
        for token in weapon.unknown_abilities if weapon is not None else ():
            if self.strict:
                raise InputFileError.at(
                    owner.file,
                    None,
                    None,
                    f"{sheet} / {profile_name(profile)}: weapon ability {token!r} is not one "
                    "the engine knows (strict; without it, it is listed in the import report)",
                )
            if (token, sheet, profile_name(profile)) not in self._unknown:
                self._unknown.add((token, sheet, profile_name(profile)))
                rows = self.report.unknown_abilities.setdefault(token, [])
                rows.append(f"{sheet} / {profile_name(profile)}")
        return weapon

    def _with_points(
        self, sheet: Datasheet, entry: Node, leaders: dict[str, Slot | None]
    ) -> Datasheet:
        """The datasheet with its points at every size: the unit's cost at that size plus
        each model's own cost (that of the entry its type is named after)."""
        try:
            each = {
                name: cost(slot.node, self.pts) if slot is not None else 0.0
                for name, slot in leaders.items()
            }
            priced = bool(nodes(entry, "costs")) or any(each.values())
            at = unit_cost(entry, self.pts)
            values = [
                (n, at(n) + sum(each[k] * c for k, c in sheet.counts(n).items()))
                for n in sheet.sizes
            ]
        except ProfileError as exc:
            self.report.skipped.append(Skipped(f"{sheet.name} / points", str(exc), sheet.source))
            return sheet
        return replace(sheet, points=brackets(values)) if priced else sheet


@dataclass(frozen=True)
class _Parts:
    """What a datasheet's model types are made from (maps keyed by ``id(entry.slot)``)."""

    root: Slot
    entries: list[ModelEntry]
    bodies: dict[int, Body]
    keys: dict[int, Hashable]
    ranges: Ranges
    loadouts: dict[int, tuple[str, ...]]
    options: dict[int, tuple[str, ...]]
    categories: dict[int, tuple[str, ...]]


def _model_types(
    parts: _Parts, defences: Defences
) -> tuple[list[ModelProfile], dict[str, Slot | None]]:
    """The model types (CHARACTER last) and, by name, the entry each is named after
    (None for a single-model datasheet, whose cost is the unit's)."""
    models: list[ModelProfile] = []
    leaders: dict[str, Slot | None] = {}
    for key in dict.fromkeys(parts.keys[id(m.slot)] for m in parts.entries):
        members = [m for m in parts.entries if parts.keys[id(m.slot)] == key]
        leader = max(members, key=lambda m: m.default)
        body = parts.bodies[id(leader.slot)]
        low, high, default = parts.ranges[key]
        name = _model_name(body.name, key, models)
        leaders[name] = leader.slot if leader.slot is not parts.root else None
        models.append(
            ModelProfile(
                name,
                body.toughness,
                body.save,
                body.wounds,
                invuln=body.invuln if body.invuln is not None else defences.invuln,
                fnp=defences.fnp,
                fnp_mortal=defences.fnp_mortal,
                damage_reduction=defences.damage_reduction,
                halve_damage=defences.halve_damage,
                toughness_while=defences.toughness_for(name),
                character=_character(parts.categories, members, parts.entries),
                min_count=low,
                max_count=high if high < INF else max(low, default, 1),
                default_count=default,
                weapons=parts.loadouts[id(leader.slot)],
                options=tuple(n for m in members for n in parts.options[id(m.slot)]),
                leadership=body.leadership,
                oc=body.oc,
                movement=body.movement,
            )
        )
    return sorted(models, key=lambda m: m.character), leaders


def _model_name(body: str, key: Any, made: list[ModelProfile]) -> str:
    """A model type's name: its profile's, or its entry's for an entry that is a type of
    its own (and for a second type with the same profile name)."""
    taken = {m.name for m in made}
    name = key[1] if key[2] or body in taken else body
    return name if name not in taken else f"{name} ({len(made) + 1})"


def _categories(books: CatalogueSet, slots: list[Slot]) -> dict[int, tuple[str, ...]]:
    """The keywords (category names) of each slot, by ``id(slot)``."""
    out = {}
    for slot in slots:
        names = []
        for link in nodes(slot.node, "categoryLinks"):
            name = link.get("name") or books.resolve(slot.owner, link)[1].get("name", "")
            names.append(str(name))
        out[id(slot)] = normalise_keywords(names)
    return out


def _character(
    categories: dict[int, tuple[str, ...]], members: list[ModelEntry], entries: list[ModelEntry]
) -> bool:
    """A CHARACTER model type: by its own keywords, else (when no model entry has the
    keyword of its own) by the unit's."""
    own = [m for m in entries if "CHARACTER" in categories[id(m.slot)]]
    if own:
        return any(m in own for m in members)
    return any("CHARACTER" in words for words in categories.values())


class _Armoury:
    """The wargear of one datasheet: each carried entry's weapons under a unique name."""

    def __init__(self, reader: DatasheetReader, sheet: str) -> None:
        self.reader = reader
        self.sheet = sheet
        self.gear: dict[str, Wargear] = {}
        self._names: dict[int, list[str]] = {}

    def loadouts(
        self, entries: list[ModelEntry]
    ) -> tuple[dict[int, tuple[str, ...]], dict[int, tuple[str, ...]]]:
        """Each model entry's default wargear names and every name it may take."""
        defaults, options = {}, {}
        for model in entries:
            items = carried(self.reader.books, model.slot)
            defaults[id(model.slot)] = tuple(n for i in items for n in self.copies(i, i.default))
            options[id(model.slot)] = tuple(n for i in items for n in self.copies(i, i.most))
        return defaults, options

    def copies(self, item: Carried, number: int) -> list[str]:
        """The names of ``number`` of an item: a second one is ``"Plasma rifle #2"``."""
        out = []
        for base in self.names(item):
            for k in range(number):
                name = base if k == 0 else f"{base} #{k + 1}"
                self.gear.setdefault(name, Wargear(name, self.gear[base].profiles))
                out.append(name)
        return out

    def names(self, item: Carried) -> list[str]:
        """The wargear an item gives: one for its ranged and one for its melee profiles."""
        key = id(item.slot.node)
        if key not in self._names:
            slot = item.slot
            weapons = [
                self.reader.weapon(slot.owner, p, self.sheet)
                for p in profiles(self.reader.books, slot.owner, slot.node, WEAPONS)
            ]
            ranged = tuple(w for w in weapons if w is not None and not w.melee)
            melee = tuple(w for w in weapons if w is not None and w.melee)
            names = []
            for part, suffix in ((ranged, ""), (melee, " (melee)" if ranged else "")):
                if part:
                    names.append(self._register(slot.name + suffix, part, item.holder))
            self._names[key] = names
        return self._names[key]

    def _register(self, name: str, profiles: tuple[Weapon, ...], holder: str) -> str:
        """A name for these profiles: the entry's, else with its holder's name (a drone's
        missile pod beside the suit's), else numbered."""
        name = profile_name({"name": name})
        candidates = chain([name, f"{name} ({holder})"], (f"{name} ({k})" for k in count(2)))
        candidate = next(candidates)
        while (known := self.gear.get(candidate)) is not None and known.profiles != profiles:
            candidate = next(candidates)
        self.gear[candidate] = Wargear(candidate, profiles)
        return candidate
