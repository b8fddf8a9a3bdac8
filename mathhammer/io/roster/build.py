"""A roster unit as a :class:`~mathhammer.units.datasheet.Datasheet` of what was taken.

Each model type of the unit becomes a :class:`~mathhammer.units.datasheet.ModelProfile`
whose minimum, maximum and default counts are the count taken and whose default wargear
is the wargear taken; models of one name that took different wargear become separate
model profiles (named after their wargear). Each selection carrying weapon profiles
becomes a :class:`~mathhammer.units.datasheet.Wargear` (split in two when it holds both
ranged and melee profiles). The unit's abilities go through
:func:`~mathhammer.io.defences.read_defences`, whose fields the model profiles take.

A weapon or model the engine cannot take is listed in the import report as skipped, with
the reason; a unit left with no model is skipped as a whole.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any

from ...errors import InputFileError, MathhammerError
from ...model.profiles import Weapon
from ...units.datasheet import AbilityText, Datasheet, ModelProfile, Wargear
from ..defences import Defences, read_defences
from ..import_report import ImportReport, Skipped
from ..rules_text import sheet_rules
from .profiles import Unreadable, read_model, read_weapon
from .tree import GearEntry, ModelEntry, UnitEntry

__all__ = ["RosterModel", "Reading", "build_unit"]


@dataclass(frozen=True)
class RosterModel:
    """Models of one type in a roster unit and the wargear each of them took.

    Parameters
    ----------
    name : str
        The model type, as the unit's datasheet names it.
    count : int
        How many were taken.
    weapons : tuple of str
        The wargear one such model carries (a name appears twice if carried twice).
    """

    name: str
    count: int
    weapons: tuple[str, ...] = ()


@dataclass
class Reading:
    """What one import reads into: the file, its report, and whether to skip or refuse."""

    file: str
    report: ImportReport
    strict: bool = False

    def skip(self, entry: str, reason: str) -> None:
        """List an entry as skipped (under ``strict``, refuse the file instead)."""
        self._refuse_if_strict(f"{entry}: {reason} (strict: nothing may be skipped)")
        self.report.skipped.append(Skipped(entry, reason, self.file))

    def unknown(self, token: str, entry: str) -> None:
        """Report a weapon ability the engine does not know (under ``strict``, refuse)."""
        self._refuse_if_strict(f"{entry}: unknown weapon ability {token!r} (strict)")
        entries = self.report.unknown_abilities.setdefault(token, [])
        if entry not in entries:
            entries.append(entry)

    def _refuse_if_strict(self, problem: str) -> None:
        """Under ``strict``, refuse the file for this problem."""
        if self.strict:
            raise InputFileError.at(self.file, None, None, problem)


class _Armoury:
    """The wargear of one unit, each name once, read from the roster's weapon profiles."""

    def __init__(self, unit: str, reading: Reading) -> None:
        self.unit = unit
        self.reading = reading
        self.items: dict[str, Wargear] = {}

    def names(self, gear: GearEntry, model: str) -> list[str]:
        """The wargear names one copy of ``gear`` stands for (none if nothing was read)."""
        phases = _by_phase(self._weapons(gear))
        both = all(phases)
        out = []
        for suffix, profiles in zip((" (ranged)", " (melee)"), phases, strict=True):
            if profiles:
                out.append(self._register(gear.name + (suffix if both else ""), profiles, model))
        return out

    def _weapons(self, gear: GearEntry) -> list[Weapon]:
        """The weapons of a piece of wargear's profiles that could be read."""
        weapons: list[Weapon] = []
        for profile in gear.profiles:
            weapon = self._weapon(gear, profile)
            if weapon is not None:
                weapons.append(weapon)
        return weapons

    def _weapon(self, gear: GearEntry, profile: Mapping[str, Any]) -> Weapon | None:
        """One weapon profile as a Weapon, its unknown abilities reported; None (skipped)
        if it cannot be read."""
        try:
            weapon = read_weapon(profile)
        except Unreadable as exc:
            name = " ".join(str(profile.get("name", "")).split())
            entry = f"{self.unit} / {gear.name}" + (f" / {name}" if name != gear.name else "")
            self.reading.skip(entry, str(exc))
            return None
        for token in weapon.unknown_abilities:
            self.reading.unknown(token, f"{self.unit} / {weapon.name}")
        return weapon

    def _register(self, name: str, profiles: list[Weapon], model: str) -> str:
        """The name of this wargear in the unit: its own, unless another piece of that name
        has other profiles (two close combat weapons of different models)."""
        item = Wargear(name, tuple(profiles))
        chosen = next(
            candidate
            for candidate in _names(name, model)
            if self.items.get(candidate, item).profiles == item.profiles
        )
        self.items.setdefault(chosen, replace(item, name=chosen))
        return chosen


def _by_phase(weapons: list[Weapon]) -> list[list[Weapon]]:
    """The ranged weapons, then the melee ones."""
    return [[w for w in weapons if w.melee == melee] for melee in (False, True)]


def _names(name: str, model: str) -> Iterator[str]:
    yield name
    yield f"{name} ({model})"
    yield from _numbered(name)


def _numbered(name: str) -> Iterator[str]:
    """The name numbered from 2: ``"Choppa #2"``, ``"Choppa #3"``..."""
    return (f"{name} #{k}" for k in itertools.count(2))


def _split(count: int, gear: list[tuple[list[str], int]]) -> list[tuple[int, tuple[str, ...]]]:
    """Models of one selection grouped by what each carries.

    A wargear selection taken ``number`` times over ``count`` models gives each model
    ``number // count`` copies and the first ``number % count`` models one more.
    """
    groups = Counter(_carried(count, gear))
    return [(n, weapons) for weapons, n in groups.items()]


def _carried(count: int, gear: list[tuple[list[str], int]]) -> list[tuple[str, ...]]:
    """What each of ``count`` models carries, wargear shared out as :func:`_split` says."""
    carried: list[list[str]] = [[] for _ in range(count)]
    for names, number in gear:
        each, extra = divmod(number, count)
        for i, model in enumerate(carried):
            model.extend(names * (each + (i < extra)))
    return [tuple(model) for model in carried]


def _assign_loose(entry: UnitEntry, label: str, reading: Reading) -> list[ModelEntry]:
    """The unit's models, with the wargear taken by the unit rather than by a model."""
    models = [m for m in entry.models if m.count > 0]
    total = sum(m.count for m in models)
    for gear in entry.loose:
        _give_loose(gear, models, total, label, reading)
    return models


def _give_loose(
    gear: GearEntry, models: list[ModelEntry], total: int, label: str, reading: Reading
) -> None:
    """Give wargear the unit took to its one model type, or to each model when it took one
    per model; else skip it (which models carry it cannot be told)."""
    if len(models) == 1:
        models[0].gear.append(gear)
    elif gear.number == total:  # without models total is 0; wargear is taken at least once
        for model in models:
            model.gear.append(replace(gear, number=model.count))
    else:
        reading.skip(
            f"{label} / {gear.name}",
            f"taken {gear.number} times by the unit of {total} models, not by one "
            "model type: which models carry it cannot be told",
        )


def build_unit(
    entry: UnitEntry, label: str, reading: Reading
) -> tuple[Datasheet, tuple[RosterModel, ...]] | None:
    """The datasheet of a roster unit as taken, and its models; None if none could be read."""
    armoury = _Armoury(label, reading)
    defences = read_defences(entry.abilities)
    profiles, notes = _read_profiles(entry, label, reading, armoury, defences)
    if not profiles:
        reading.skip(label, "no model of the unit could be read")
        return None
    rules = sheet_rules(entry.abilities, defences.not_understood, fields=defences.understood)
    unread = (*rules.listed(defences.not_understood), *notes)
    sheet = _sheet(entry, label, profiles, armoury, unread, reading)
    sheet = replace(sheet, stealth=defences.stealth, effects=rules.effects)
    _account(sheet, reading.report)
    return sheet, tuple(RosterModel(p.name, p.min_count, p.weapons) for p in profiles)


def _read_profiles(
    entry: UnitEntry, label: str, reading: Reading, armoury: _Armoury, defences: Defences
) -> tuple[list[ModelProfile], list[AbilityText]]:
    """The model profiles of the unit that could be read (the others skipped), and what
    their profiles say that is not applied."""
    shared = _shared_fields(entry, defences)
    profiles: list[ModelProfile] = []
    notes: dict[AbilityText, None] = {}  # each once, in the order found
    for model in _assign_loose(entry, label, reading):
        place = f"{label} / {model.name}"
        read = _model_fields(model, place, reading, shared, defences)
        if read is None:
            continue
        fields, problems = read
        if _add_profiles(model, fields, armoury, profiles, place, reading):
            notes.update(dict.fromkeys(problems))
    return profiles, list(notes)


def _shared_fields(entry: UnitEntry, defences: Defences) -> dict[str, Any]:
    """The fields every model profile of the unit takes: its defences, CHARACTER."""
    return {
        "fnp": defences.fnp,
        "fnp_mortal": defences.fnp_mortal,
        "damage_reduction": defences.damage_reduction,
        "halve_damage": defences.halve_damage,
        "character": "CHARACTER" in (k.upper() for k in entry.keywords),
    }


def _model_fields(
    model: ModelEntry, place: str, reading: Reading, shared: dict[str, Any], defences: Defences
) -> tuple[dict[str, Any], list[AbilityText]] | None:
    """The fields of a model's profile with the unit's, and what it says that is not
    applied; None (skipped) if it cannot be read."""
    try:
        fields, problems = _read_model(model)
    except Unreadable as exc:
        reading.skip(place, str(exc))
        return None
    fields |= shared
    fields["toughness_while"] = defences.toughness_for(model.name)
    fields["invuln"] = min(
        (v for v in (fields.get("invuln"), defences.invuln) if v is not None), default=None
    )
    return fields, problems


def _read_model(model: ModelEntry) -> tuple[dict[str, Any], list[AbilityText]]:
    """The fields of a model's Unit profile (:func:`read_model`); Unreadable without one."""
    if model.profile is None:
        raise Unreadable(model.problem)
    return read_model(model.profile)


def _add_profiles(
    model: ModelEntry,
    fields: dict[str, Any],
    armoury: _Armoury,
    profiles: list[ModelProfile],
    place: str,
    reading: Reading,
) -> bool:
    """Add to ``profiles`` a model's profiles, one per set of wargear its models took (one
    that cannot be made skipped); whether any was added."""
    gear = [(armoury.names(g, model.name), g.number) for g in model.gear]
    added = False
    for count, weapons in _split(model.count, gear):
        name = _free_name(model.name, weapons, profiles)
        try:
            profile = ModelProfile(
                name, **fields, min_count=count, max_count=count, weapons=weapons
            )
        except MathhammerError as exc:
            reading.skip(place, str(exc).splitlines()[0])
            continue
        profiles.append(profile)
        added = True
    return added


def _sheet(
    entry: UnitEntry,
    label: str,
    profiles: list[ModelProfile],
    armoury: _Armoury,
    not_understood: tuple[AbilityText, ...],
    reading: Reading,
) -> Datasheet:
    size = sum(p.min_count for p in profiles)
    return Datasheet(
        label,
        models=tuple(profiles),
        wargear=_used_wargear(profiles, armoury),
        faction=entry.faction,
        keywords=tuple(entry.keywords),
        abilities=tuple(entry.abilities),
        not_understood=not_understood,
        points=() if entry.points is None else ((size, entry.points),),
        source=f"{reading.file}: {label}" + (f" ({entry.name})" if entry.name != label else ""),
    )


def _used_wargear(profiles: list[ModelProfile], armoury: _Armoury) -> tuple[Wargear, ...]:
    """The unit's wargear that its model profiles carry, in the order read."""
    used = {w for p in profiles for w in p.weapons}
    return tuple(g for name, g in armoury.items.items() if name in used)


def _free_name(name: str, weapons: tuple[str, ...], taken: list[ModelProfile]) -> str:
    """The first name no profile has: the model's, then with its weapons, then numbered."""
    names = {p.name for p in taken}
    described = f"{name} ({', '.join(dict.fromkeys(weapons)) or 'no weapons'})"
    candidates = itertools.chain((name, described), _numbered(described))
    return next(c for c in candidates if c not in names)


def _account(sheet: Datasheet, report: ImportReport) -> None:
    report.datasheets += 1
    report.models += sheet.default_size
    report.weapons += sum(len(g.profiles) for g in sheet.wargear)
    for ability in sheet.not_understood:
        report.not_understood.append((sheet.name, ability.name, ability.text))
