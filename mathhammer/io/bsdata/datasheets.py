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

from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass, replace
from itertools import chain, count
from pathlib import Path
from typing import Any

from ...core.limits import MAX_UNIT_WOUNDS
from ...errors import InputFileError, ProfileError
from ...model.profiles import Weapon, normalise_keywords
from ...units.datasheet import MAX_COPIES, AbilityText, Datasheet, ModelProfile, Wargear
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
    shown,
    type_keys,
)
from .links import Book, CatalogueSet, nodes, with_link
from .points import brackets, cost, unit_cost
from .profiles import Body, characteristics, clean_text, profile_name, read_body, read_weapon
from .tree import INF, Ranges, Sizes, Slot, TreeTooLarge, build, model_ranges

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
        self.pts = _points_ids(books)
        self._weapons: dict[tuple[str, str, str], Weapon | None] = {}
        self._sizes: Sizes = {}  # the sub-trees sized, each once for every datasheet
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
        """The unit entries a book offers: (owner, entry, link) of its root entries and of
        its root links' targets."""
        for entry in nodes(book.body, "selectionEntries"):
            if _offered(entry):
                yield book, entry, None
        for link in nodes(book.body, "entryLinks"):
            owner, entry = self.books.resolve(book, link)
            if _offered(entry, link):
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
        """The datasheet of a unit entry; :class:`_Skip` if it cannot be read."""
        name = str(entry.get("name", ""))
        armoury = _Armoury(self, name)
        parts = self._parts(owner, entry, link, armoury)
        abilities = self._abilities(parts.slots)
        defences = read_defences(abilities)
        rules = sheet_rules(abilities, defences.not_understood, fields=defences.understood)
        try:
            models, leaders = _model_types(parts, defences)
            sheet = Datasheet(
                name,
                tuple(models),
                tuple(armoury.gear.values()),
                faction=faction,
                keywords=tuple(chain.from_iterable(parts.categories.values())),
                abilities=tuple(abilities),
                not_understood=rules.listed(defences.not_understood),
                effects=rules.effects,
                stealth=defences.stealth,
                source=source,
            )
        except ProfileError as exc:
            raise _Skip(str(exc).splitlines()[0]) from None
        return self._with_points(sheet, entry, leaders)

    def _parts(self, owner: Book, entry: Node, link: Node | None, armoury: _Armoury) -> _Parts:
        """What a unit entry's model types are made from; :class:`_Skip` if it has no model
        entries."""
        try:
            root = build(self.books.resolve, owner, entry, link, self._sizes)
        except TreeTooLarge as exc:  # links that share entries, expanded once per path
            raise _Skip(str(exc)) from None
        self._promote(root)
        entries = model_entries(root)
        if not entries:
            raise _Skip("it has no model entries")
        loadouts, options = armoury.loadouts(entries)
        bodies = self._bodies(entries)
        keys = type_keys(entries, bodies, loadouts)
        slots = [root] + [m.slot for m in entries]
        return _Parts(
            root,
            entries,
            slots,
            bodies,
            keys,
            _counted(model_ranges(root, lambda slot: keys[id(slot)])),
            loadouts,
            options,
            _categories(self.books, slots),
        )

    def _bodies(self, entries: list[ModelEntry]) -> dict[int, Body]:
        """The characteristics of each model entry's profile, by ``id(entry.slot)``."""
        return {id(model.slot): self._body(model, entries) for model in entries}

    def _body(self, model: ModelEntry, entries: list[ModelEntry]) -> Body:
        """The characteristics of a model entry's profile; :class:`_Skip` if it has none
        or they cannot be read."""
        profile = choose_profile(self.books, model, entries)
        if profile is None:
            raise _Skip(f"model {model.slot.name!r} has no Unit profile")
        body, reason = read_body(profile)
        if body is None:
            raise _Skip(f"model {model.slot.name!r}: {reason}")
        return body

    def _promote(self, slot: Slot) -> None:
        """An upgrade entry with a Unit profile of its own is a model entry."""
        for child in slot.children:
            if child.kind == "upgrade" and profiles(self.books, child.owner, child.node, ("Unit",)):
                child.kind = "model"
            self._promote(child)

    def _abilities(self, slots: list[Slot]) -> list[AbilityText]:
        """The abilities of these slots, each name and text once, in order."""
        found: dict[tuple[str, str], AbilityText] = {}
        for slot in slots:
            for ability in self._slot_abilities(slot):
                found.setdefault((ability.name, ability.text), ability)
        return list(found.values())

    def _slot_abilities(self, slot: Slot) -> list[AbilityText]:
        """A slot's abilities: those of its Abilities profiles, then its rules."""
        out = [
            AbilityText(profile_name(p), clean_text(characteristics(p).get("Description", "")))
            for p in profiles(self.books, slot.owner, slot.node, ABILITIES)
        ]
        out += [
            AbilityText(clean_text(rule.get("name")), clean_text(rule.get("description")))
            for rule in self._rules(slot)
        ]
        return out

    def _rules(self, slot: Slot) -> list[Node]:
        """A slot's own rules and the rules its links show (under the link's name)."""
        return nodes(slot.node, "rules") + shown(self.books, slot.owner, slot.node, "rule")

    def weapon(self, owner: Book, profile: Node, sheet: str) -> Weapon | None:
        """A weapon profile as a Weapon (read once), its misses and tokens reported."""
        key = (owner.file, str(profile.get("id")), str(profile.get("name")))
        if key not in self._weapons:
            self._weapons[key] = self._read_weapon(owner, profile, sheet)
        weapon = self._weapons[key]
        if weapon is not None:
            self._note_unknown(owner, profile, sheet, weapon.unknown_abilities)
        return weapon

    def _read_weapon(self, owner: Book, profile: Node, sheet: str) -> Weapon | None:
        """A weapon profile as a Weapon, counted in the report; None, reported, if it
        cannot be read."""
        weapon, reason = read_weapon(profile)
        if weapon is None:
            entry = f"{sheet} / {profile_name(profile)}"
            self.report.skipped.append(Skipped(entry, reason, owner.file))
        else:
            self.report.weapons += 1
        return weapon

    def _note_unknown(
        self, owner: Book, profile: Node, sheet: str, tokens: tuple[str, ...]
    ) -> None:
        """List a weapon's unknown ability tokens in the report (each entry once); under
        ``strict``, refuse the first."""
        entry = f"{sheet} / {profile_name(profile)}"
        for token in tokens:
            if self.strict:
                raise InputFileError.at(
                    owner.file,
                    None,
                    None,
                    f"{entry}: weapon ability {token!r} is not one "
                    "the engine knows (strict; without it, it is listed in the import report)",
                )
            if (token, sheet, profile_name(profile)) not in self._unknown:
                self._unknown.add((token, sheet, profile_name(profile)))
                self.report.unknown_abilities.setdefault(token, []).append(entry)

    def _with_points(
        self, sheet: Datasheet, entry: Node, leaders: dict[str, Slot | None]
    ) -> Datasheet:
        """The datasheet with its points at every size: the unit's cost at that size plus
        each model's own cost (that of the entry its type is named after)."""
        try:
            each = _model_costs(leaders, self.pts)
            priced = bool(nodes(entry, "costs")) or any(each.values())
            values = _size_points(sheet, unit_cost(entry, self.pts), each)
        except ProfileError as exc:
            self.report.skipped.append(Skipped(f"{sheet.name} / points", str(exc), sheet.source))
            return sheet
        return replace(sheet, points=brackets(values)) if priced else sheet


def _points_ids(books: CatalogueSet) -> set[str]:
    """The ids of the ``pts`` cost type in every file of the set."""
    return {
        str(t.get("id"))
        for book in books.catalogues()
        for t in nodes(book.body, "costTypes")
        if t.get("name") == "pts"
    }


def _offered(entry: Node, link: Node | None = None) -> bool:
    """Whether a root entry (reached through ``link``) is a datasheet: a unit or model
    entry, and neither it nor its link hidden."""
    hidden = any(part.get("hidden") is True for part in with_link(entry, link))
    return entry.get("type") in ("unit", "model") and not hidden


def _model_costs(leaders: dict[str, Slot | None], pts: set[str]) -> dict[str, float]:
    """Each model type's own cost: that of the entry it is named after (0 if none)."""
    return {
        name: cost(slot.node, pts) if slot is not None else 0.0 for name, slot in leaders.items()
    }


def _size_points(
    sheet: Datasheet, at: Callable[[int], float], each: dict[str, float]
) -> list[tuple[int, float]]:
    """(size, points) at every size: the unit's cost at that size plus its models' own."""
    return [(n, at(n) + sum(each[k] * c for k, c in sheet.counts(n).items())) for n in sheet.sizes]


@dataclass(frozen=True)
class _Parts:
    """What a datasheet's model types are made from (maps keyed by ``id(entry.slot)``)."""

    root: Slot
    entries: list[ModelEntry]
    slots: list[Slot]  # the root's and the model entries'
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
    for key, members in _members(parts).items():
        leader = max(members, key=lambda m: m.default)
        name = _model_name(parts.bodies[id(leader.slot)].name, key, models)
        leaders[name] = leader.slot if leader.slot is not parts.root else None
        models.append(_model(parts, defences, name, key, members, leader))
    return sorted(models, key=lambda m: m.character), leaders


def _members(parts: _Parts) -> dict[Hashable, list[ModelEntry]]:
    """The model entries of each model type, the types in the order of their first entry."""
    members: dict[Hashable, list[ModelEntry]] = {}
    for model in parts.entries:
        members.setdefault(parts.keys[id(model.slot)], []).append(model)
    return members


def _model(
    parts: _Parts,
    defences: Defences,
    name: str,
    key: Hashable,
    members: list[ModelEntry],
    leader: ModelEntry,
) -> ModelProfile:
    """The profile of one model type: the body and wargear of ``leader`` (the entry with
    the most models at the default), the numbers of ``key``, the unit's defences."""
    body = parts.bodies[id(leader.slot)]
    low, high, default = parts.ranges[key]
    return ModelProfile(
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
        options=_options(parts, members),
        leadership=body.leadership,
        oc=body.oc,
        movement=body.movement,
    )


def _options(parts: _Parts, members: list[ModelEntry]) -> tuple[str, ...]:
    """Every wargear name the model entries of a type may take."""
    return tuple(name for m in members for name in parts.options[id(m.slot)])


def _model_name(body: str, key: Any, made: list[ModelProfile]) -> str:
    """A model type's name: its profile's, or its entry's for an entry that is a type of
    its own (and for a second type with the same profile name)."""
    taken = {m.name for m in made}
    name = key[1] if key[2] or body in taken else body
    return name if name not in taken else f"{name} ({len(made) + 1})"


def _categories(books: CatalogueSet, slots: list[Slot]) -> dict[int, tuple[str, ...]]:
    """The keywords (category names) of each slot, by ``id(slot)``."""
    return {
        id(slot): normalise_keywords(
            [_category(books, slot.owner, link) for link in nodes(slot.node, "categoryLinks")]
        )
        for slot in slots
    }


def _category(books: CatalogueSet, owner: Book, link: Node) -> str:
    """The name of a category link: its own, else its target's."""
    return str(link.get("name") or books.resolve(owner, link)[1].get("name", ""))


def _character(
    categories: dict[int, tuple[str, ...]], members: list[ModelEntry], entries: list[ModelEntry]
) -> bool:
    """A CHARACTER model type: by its own keywords, else (when no model entry has the
    keyword of its own) by the unit's."""
    own = {id(m.slot): "CHARACTER" in categories[id(m.slot)] for m in entries}
    if any(own.values()):
        return any(own[id(m.slot)] for m in members)
    return any("CHARACTER" in words for words in categories.values())


def _counted(ranges: Ranges) -> Ranges:
    """The model counts of a unit, :class:`_Skip` past the most models the exact engine
    takes (:data:`~mathhammer.core.limits.MAX_UNIT_WOUNDS`): a count of 10**9 would be
    priced and built size by size."""
    for key, (low, high, _) in ranges.items():  # a key is (profile, name, own)
        most = low if high >= INF else high
        if most > MAX_UNIT_WOUNDS:
            name = key[1] if isinstance(key, tuple) else key
            raise _Skip(f"up to {most:,} {name!r} models: at most {MAX_UNIT_WOUNDS:,}")
    return ranges


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
            defaults[id(model.slot)] = self._all_copies(items, lambda i: i.default)
            options[id(model.slot)] = self._all_copies(items, lambda i: i.most)
        return defaults, options

    def _all_copies(
        self, items: list[Carried], number: Callable[[Carried], int]
    ) -> tuple[str, ...]:
        """The names of every item's copies, ``number(item)`` of each."""
        return tuple(name for item in items for name in self.copies(item, number(item)))

    def copies(self, item: Carried, number: int) -> list[str]:
        """The names of ``number`` of an item: a second one is ``"Plasma rifle #2"``;
        :class:`_Skip` past :data:`~mathhammer.units.datasheet.MAX_COPIES`."""
        if number > MAX_COPIES:
            raise _Skip(f"{item.slot.name!r}: {number} copies a model; at most {MAX_COPIES}")
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
            self._names[key] = self._new_names(item)
        return self._names[key]

    def _new_names(self, item: Carried) -> list[str]:
        """Register an item's ranged and its melee profiles, each part it has under a name
        (the melee one marked when it has both)."""
        ranged, melee = self._weapons(item.slot)
        parts = ((ranged, ""), (melee, " (melee)" if ranged else ""))
        return [
            self._register(item.slot.name + end, part, item.holder) for part, end in parts if part
        ]

    def _weapons(self, slot: Slot) -> tuple[tuple[Weapon, ...], tuple[Weapon, ...]]:
        """The ranged and the melee weapons of an entry's profiles (those that read)."""
        ranged: list[Weapon] = []
        melee: list[Weapon] = []
        for profile in profiles(self.reader.books, slot.owner, slot.node, WEAPONS):
            weapon = self.reader.weapon(slot.owner, profile, self.sheet)
            if weapon is not None:
                (melee if weapon.melee else ranged).append(weapon)
        return tuple(ranged), tuple(melee)

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
