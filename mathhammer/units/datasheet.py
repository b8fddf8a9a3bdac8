"""Datasheets: a unit as a faction's rules describe it, before a list picks its size and wargear.

Importers (BSData catalogues, rosters, the Wahapedia export) read a datasheet into these
objects; a datasheet then gives a target :class:`~mathhammer.model.profiles.Unit` of any
legal size (:meth:`Datasheet.unit`), an :class:`~mathhammer.units.selection.Attacker`
with its default or a stated wargear (:meth:`Datasheet.attacker`), the loadouts a report
compares (:meth:`Datasheet.loadouts`) and its points at that size.

Examples
--------
>>> from mathhammer import Weapon
>>> gun = Wargear("Gauss flayer", (Weapon("Gauss flayer", 1, 4, 4, 0, 1, "[LETHAL HITS]"),))
>>> warrior = ModelProfile("Necron Warrior", toughness=4, save=4, wounds=1,
...                        min_count=10, max_count=20, weapons=("Gauss flayer",))
>>> sheet = Datasheet("Necron Warriors", models=(warrior,), wargear=(gun,),
...                   keywords=("INFANTRY",), points=((10, 90), (20, 200)))
>>> sheet.unit().models, sheet.unit(models=20).models, sheet.points_for(20)
(10, 20, 200)
>>> [(w.name, n) for w, n in sheet.loadouts()[0].weapons]
[('Gauss flayer', 10)]
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol, TypeVar

from ..errors import OptionError, ProfileError, field_error
from ..model.effects import Effect, arm
from ..model.fields import check_int, flag_field, items_field, text_field
from ..model.profiles import ModelGroup, Unit, Weapon, normalise_keywords
from .alternatives import fight_sets, model_options, shooting_sets
from .leading import attach_leaders, guarded, led_name
from .loadout import Loadout, _is_int
from .options import AttackOptions
from .parts import AbilityText, Detachment, ModelProfile, Wargear
from .selection import Attacker, Models, _check_distinct
from .targets import Target

__all__ = [
    "MAX_COPIES",
    "AbilityText",
    "Detachment",
    "Datasheet",
    "ModelCounts",
    "ModelProfile",
    "PHASE_LABELS",
    "Wargear",
    "attach_leaders",
    "guarded",
    "led_name",
    "phase_loadouts",
]

#: The most copies of one piece of wargear one model carries, as an importer reads its
#: loadout: real datasheets name two or three ("2 rokkit pistols"), a Manta's seeker
#: missiles are the most (10); a loadout past it skips its datasheet, since 999,999,999 or
#: 10,000,000 copies were once built one by one.
MAX_COPIES = 20


#: How a caller states the models: a total unit size, or a count per model type.
ModelCounts = int | Mapping[str, int] | None


class _Named(Protocol):
    """Anything with a name: a model type or a piece of wargear."""

    @property
    def name(self) -> str: ...


N = TypeVar("N", bound=_Named)

#: The collections of a datasheet checked item by item: the field, the type of its items
#: and what the field must be.
_ITEM_FIELDS = (
    ("wargear", Wargear, "a list of Wargear"),
    ("abilities", AbilityText, "AbilityTexts"),
    ("not_understood", AbilityText, "AbilityTexts"),
    ("effects", Effect, "a list of Effects"),
)


@dataclass(frozen=True)
class Datasheet:
    """A datasheet: model types, wargear, keywords, abilities and points by unit size.

    Parameters
    ----------
    name : str
        The datasheet's name.
    models : tuple of ModelProfile
        The model types, non-CHARACTER first.
    wargear : tuple of Wargear
        Every weapon the models may carry, each name once.
    faction : str
        The faction it belongs to.
    keywords : tuple of str
        Its keywords (upper case).
    abilities : tuple of AbilityText
        Every ability printed on it.
    not_understood : tuple of AbilityText
        The abilities whose text could change an attack against the unit but that the
        importer could not turn into profile fields: listed, never silently dropped.
    effects : tuple of Effect
        The typed effects of its rules (:func:`mathhammer.io.rules_text.read_rules`): the
        offence effects arm its weapons (:func:`~mathhammer.model.effects.arm`), the
        defence effects on each attack guard the unit (``Unit.rules``), and those of a
        leader "while leading a unit" act only when it leads (docs/rules.md D37).
    stealth : bool
        The unit has Stealth.
    points : tuple of (int, int)
        ``(models, points)`` brackets: a unit of at least ``models`` models costs
        ``points`` (the largest bracket that applies).
    source : str
        Where it was read from (file and entry), for error messages and reports.
    """

    name: str
    models: tuple[ModelProfile, ...]
    wargear: tuple[Wargear, ...] = ()
    faction: str = ""
    keywords: tuple[str, ...] = ()
    abilities: tuple[AbilityText, ...] = ()
    not_understood: tuple[AbilityText, ...] = ()
    effects: tuple[Effect, ...] = ()
    stealth: bool = False
    points: tuple[tuple[int, int], ...] = ()
    source: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        text_field("Datasheet", "name", self.name)
        field = f"Datasheet {self.name!r}.models"
        models = items_field(field, self.models, ModelProfile, "one or more ModelProfiles")
        if not models:
            raise field_error(ProfileError, field, "one or more ModelProfiles", models)
        object.__setattr__(self, "models", models)
        owner = f"Datasheet {self.name!r}"
        for name in ("faction", "source"):
            text_field(owner, name, getattr(self, name))
        for name, kind, what in _ITEM_FIELDS:
            items = items_field(f"{owner}.{name}", getattr(self, name), kind, what)
            object.__setattr__(self, name, items)
        object.__setattr__(self, "keywords", normalise_keywords(self.keywords))
        object.__setattr__(self, "stealth", flag_field(owner, "stealth", self.stealth))
        object.__setattr__(self, "points", _points(f"{owner}.points", self.points))
        self._check_wargear()

    def _check_wargear(self) -> None:
        """Refuse wargear names given twice, and a model's option that is not wargear."""
        names = [g.name for g in self.wargear]
        _check_distinct(names, f"Datasheet {self.name!r}.wargear", "distinct names")
        for model in self.models:
            for weapon in model.options:
                self.gear(weapon)

    def gear(self, name: str) -> Wargear:
        """A piece of the datasheet's wargear by name."""
        return _by_name(self.wargear, name, f"wargear of {self.name!r}")

    @property
    def default_size(self) -> int:
        """The number of models at the default size."""
        return sum(self.counts().values())

    @property
    def sizes(self) -> range:
        """The legal unit sizes (total models), from smallest to largest."""
        return range(
            sum(m.min_count for m in self.models), sum(m.max_count for m in self.models) + 1
        )

    def counts(self, models: ModelCounts = None) -> dict[str, int]:
        """How many of each model type a unit of this size has.

        ``None`` is the default size; an int is a total, filled by giving every model type
        its default count and then growing (or shrinking) the types whose count may vary,
        in order; a mapping names the count of each type (missing types keep their default).
        """
        counts = {m.name: m.default_count or 0 for m in self.models}
        if models is None:
            return counts
        if isinstance(models, Mapping):
            counts.update(self._stated_counts(models))
            return counts
        return self._sized_counts(counts, models)

    def _stated_counts(self, models: Mapping[str, int]) -> dict[str, int]:
        """The count of each model type named, each checked against its type's range."""
        for name, n in models.items():
            profile = self._model(name)
            if not _is_int(n):
                raise field_error(ProfileError, f"models[{name!r}]", "an integer", n)
            if not profile.min_count <= n <= profile.max_count:
                raise field_error(
                    ProfileError,
                    f"models[{name!r}]",
                    f"from {profile.min_count} to {profile.max_count}",
                    n,
                )
        return dict(models)

    def _sized_counts(self, counts: dict[str, int], size: object) -> dict[str, int]:
        """The default ``counts`` grown (or shrunk) to a legal total ``size``, type by type
        in order, each within its own range."""
        if not _is_int(size) or size not in self.sizes:
            raise field_error(
                ProfileError,
                f"models of {self.name!r}",
                f"a unit size from {self.sizes.start} to {self.sizes.stop - 1}",
                size,
            )
        change = size - sum(counts.values())
        for m in self.models:
            step = max(min(change, m.max_count - counts[m.name]), m.min_count - counts[m.name])
            counts[m.name] += step
            change -= step
        return counts

    def _model(self, name: str) -> ModelProfile:
        """A model type by name."""
        return _by_name(self.models, name, f"model of {self.name!r}")

    def _effects(self, effects: Sequence[Effect] | None) -> Sequence[Effect]:
        """The effects given, or :attr:`own_effects` when none are."""
        return self.own_effects if effects is None else effects

    def _present(self, counts: Mapping[str, int]) -> list[ModelProfile]:
        """The model types of which a unit of these ``counts`` has at least one, in order."""
        return [m for m in self.models if counts[m.name] > 0]

    def points_for(self, models: ModelCounts = None) -> int | None:
        """The unit's points at this size (None if the datasheet has no points)."""
        size = sum(self.counts(models).values())
        if not self.points:
            return None
        # the largest bracket the size reaches; the smallest when it reaches none
        reached = bisect_right([at_least for at_least, _ in self.points], size)
        return self.points[max(reached - 1, 0)][1]

    @property
    def own_effects(self) -> tuple[Effect, ...]:
        """Its effects when it is not leading a unit: all but the "while leading" ones."""
        return tuple(e for e in self.effects if e.scope != "led")

    def unit(self, models: ModelCounts = None, effects: Sequence[Effect] | None = None) -> Unit:
        """The datasheet as a target unit: its groups in allocation order, guarded by the
        defence effects of its rules (``effects``: :attr:`own_effects` by default)."""
        counts = self.counts(models)
        present = self._present(counts)
        if not present:
            raise field_error(
                ProfileError, f"models of {self.name!r}", "at least one model", models
            )
        unit = _merge_groups(self.name, present, counts, self.keywords, self.stealth)
        return guarded(unit, self._effects(effects))

    def target(self, models: ModelCounts = None) -> Target:
        """The unit with its points, for comparisons and reports."""
        return Target(self.unit(models), points=self.points_for(models), source=self.source or None)

    def attacker(
        self,
        models: ModelCounts = None,
        wargear: Mapping[str, Sequence[str]] | None = None,
        effects: Sequence[Effect] | None = None,
    ) -> Attacker:
        """The datasheet as an attacking unit.

        Parameters
        ----------
        models : int or mapping, optional
            The unit size, as for :meth:`counts`.
        wargear : mapping of model name to wargear names, optional
            What each model of a type carries instead of its default wargear.

        effects : sequence of Effect, optional
            The effects that arm its weapons: :attr:`own_effects` by default.

        Every profile of a piece of wargear becomes one weapon of the model (named
        ``"gear: profile"`` when the gear has several profiles).
        """
        counts = self.counts(models)
        wargear = dict(wargear or {})
        for name in wargear:
            self._model(name)
        groups = self._attacking_groups(counts, wargear, self._effects(effects))
        if not groups:
            raise ProfileError(f"Datasheet {self.name!r} has no weapons for these models")
        return Attacker(self.name, groups)

    def _attacking_groups(
        self,
        counts: Mapping[str, int],
        wargear: Mapping[str, Sequence[str]],
        effects: Sequence[Effect],
    ) -> list[Models]:
        """One group of each model type present that has weapons, armed with ``effects``."""
        groups = []
        for m in self._present(counts):
            weapons = self._armed_weapons(m, self._carried(m, wargear), effects)
            if weapons:
                keywords = self.keywords
                groups.append(Models(counts[m.name], weapons, name=m.name, keywords=keywords))
        return groups

    @staticmethod
    def _carried(model: ModelProfile, wargear: Mapping[str, Sequence[str]]) -> tuple[str, ...]:
        """The wargear a model type carries (stated, or its default), each one of its options."""
        names = _stated(model, wargear)
        for name in names:
            if name not in model.options:
                raise field_error(
                    ProfileError,
                    f"wargear of {model.name!r}",
                    f"one of {list(model.options)}",
                    name,
                )
        return names

    def _armed_weapons(
        self, model: ModelProfile, names: Sequence[str], effects: Sequence[Effect]
    ) -> list[Weapon]:
        """Every profile of the wargear ``names`` as one weapon (distinctly named), armed with
        the effects for that model type."""
        weapons = _numbered([w for name in names for w in _named_profiles(self.gear(name))])
        mine = _model_effects(model, effects)
        return [arm(w, mine) for w in weapons]

    def loadouts(
        self,
        models: ModelCounts = None,
        wargear: Mapping[str, Sequence[str]] | None = None,
        name: str | None = None,
    ) -> list[Loadout]:
        """The unit's shooting and fight attacks, as the options a report chooses among.

        One :class:`~mathhammer.units.options.AttackOptions` per phase that has weapons,
        named ``"<name> (ranged)"`` and ``"<name> (melee)"``, ``name`` being the
        datasheet's unless given (two wargear choices of one datasheet, side by side in
        one comparison, each under its own name). Each model type fires its
        [PISTOL]/[CLOSE-QUARTERS] sidearms or its other guns (a MONSTER or VEHICLE fires
        both), and fights with one of its melee weapons plus its [EXTRA ATTACKS] weapons;
        wargear with several profiles uses one of them. The options are the combinations
        of these choices (:func:`~mathhammer.units.alternatives.model_options`), the
        default first: other guns, and the first melee weapon and profile.
        """
        label = _loadouts_name(name, self.name)
        points = self.points_for(models)
        phases = {phase: self.phase_sets(phase, models, wargear) for phase in PHASE_LABELS}
        return phase_loadouts(label, phases, points, self.source or None)

    def phase_sets(
        self,
        phase: str,
        models: ModelCounts = None,
        wargear: Mapping[str, Sequence[str]] | None = None,
        effects: Sequence[Effect] | None = None,
    ) -> list[tuple[int, list[list[Weapon]]]]:
        """Each model type's count and the sets of weapons one such model may use in
        ``phase`` (``"shooting"`` or ``"fight"``): what :meth:`loadouts` combines. The
        weapons are armed with ``effects`` (:attr:`own_effects` by default)."""
        effects = self._effects(effects)
        counts = self.counts(models)
        return [
            (counts[m.name], self._phase_weapon_sets(m, phase, wargear, effects))
            for m in self._present(counts)
        ]

    def _phase_weapon_sets(
        self,
        model: ModelProfile,
        phase: str,
        wargear: Mapping[str, Sequence[str]] | None,
        effects: Sequence[Effect],
    ) -> list[list[Weapon]]:
        """The sets of weapons one model of a type may use in ``phase``, armed."""
        names = _stated(model, wargear)
        mine = _model_effects(model, effects)
        melee = phase == "fight"
        items = [_armed_profiles(self.gear(n), melee, mine) for n in names]
        items = [i for i in items if i]
        if melee:
            return fight_sets(items)
        return shooting_sets(items, self.keywords)


#: The phases a unit attacks in, and the word its loadouts are named with.
PHASE_LABELS = {"shooting": "ranged", "fight": "melee"}


def phase_loadouts(
    name: str,
    phases: Mapping[str, Sequence[tuple[int, list[list[Weapon]]]]],
    points: int | None,
    source: str | None,
) -> list[Loadout]:
    """A unit's loadouts from each phase's model types (:meth:`Datasheet.phase_sets`; an
    attached unit's are its parts' together): one :class:`AttackOptions` per phase that
    has weapons, named ``"<name> (ranged)"`` and ``"<name> (melee)"``."""
    out: list[Loadout] = []
    for phase, label in PHASE_LABELS.items():
        options = model_options(list(phases.get(phase, ())))
        if options:
            out.append(AttackOptions(f"{name} ({label})", options, phase, points, source=source))
    return out


def _points(field: str, value: object) -> tuple[tuple[int, int], ...]:
    """The ``(models, points)`` brackets, sorted: each a pair of integers >= 0."""
    pairs = items_field(field, value, (tuple, list), "a list of (models, points) pairs")
    return tuple(sorted(_bracket(field, pair) for pair in pairs))


def _bracket(field: str, pair: Sequence[object]) -> tuple[int, int]:
    """One ``(models, points)`` bracket: a pair of integers >= 0."""
    if len(pair) != 2:
        raise field_error(ProfileError, field, "a list of (models, points) pairs", pair)
    models, points = (check_int(field, number, 0) for number in pair)
    return models, points


def _by_name(items: Sequence[N], name: str, field: str) -> N:
    """The item of that name; else a ProfileError on ``field`` listing the names."""
    for item in items:
        if item.name == name:
            return item
    raise field_error(ProfileError, field, f"one of {[i.name for i in items]}", name)


def _stated(model: ModelProfile, wargear: Mapping[str, Sequence[str]] | None) -> tuple[str, ...]:
    """The wargear names a model type carries: those stated for it, else its default."""
    return tuple((wargear or {}).get(model.name, model.weapons))


def _loadouts_name(name: object, default: str) -> str:
    """The name loadouts are named after: ``name`` when given (a string that is not
    blank), else ``default``."""
    if name is None:
        return default
    if not isinstance(name, str) or not name.strip():
        raise field_error(OptionError, "name", "a non-empty string", name)
    return name


def _model_effects(model: ModelProfile, effects: Sequence[Effect]) -> list[Effect]:
    """The effects for that model type (D41: some rules are some models' only)."""
    return [e for e in effects if e.for_model(model.name)]


def _named_profiles(gear: Wargear) -> list[Weapon]:
    """Each profile of the wargear as a weapon named after it (``"gear: profile"`` when it
    has several)."""
    if len(gear.profiles) == 1:
        return [replace(gear.profiles[0], name=gear.name)]
    return [replace(w, name=f"{gear.name}: {w.name}") for w in gear.profiles]


def _armed_profiles(gear: Wargear, melee: bool, effects: Sequence[Effect]) -> list[Weapon]:
    """The profiles of the wargear used in the phase (melee or ranged), armed."""
    return [arm(w, effects) for w in _named_profiles(gear) if w.melee == melee]


def _numbered(weapons: list[Weapon]) -> list[Weapon]:
    """A model's weapons with distinct names: a second copy of a gun is ``"name #2"``."""
    seen: dict[str, int] = {}
    out = []
    for weapon in weapons:
        seen[weapon.name] = seen.get(weapon.name, 0) + 1
        copy = seen[weapon.name]
        out.append(weapon if copy == 1 else weapon.replace(name=f"{weapon.name} #{copy}"))
    return out


def _merge_groups(
    name: str,
    present: Sequence[ModelProfile],
    counts: Mapping[str, int],
    keywords: tuple[str, ...],
    stealth: bool,
) -> Unit:
    """Models sharing W, Sv and InSv form one allocation group (T, FNP and damage
    reduction of the first such type apply to the group); CHARACTER models go last."""
    bodies: dict[tuple[int, int, int | None], ModelGroup] = {}
    characters: list[ModelGroup] = []
    for m in present:
        if m.character:
            characters.extend(m.group(1) for _ in range(counts[m.name]))
            continue
        key = (m.wounds, m.save, m.invuln)
        if key in bodies:
            known = bodies[key]
            bodies[key] = replace(known, count=known.count + counts[m.name])
        else:
            bodies[key] = m.group(counts[m.name])
    return Unit(name, (*bodies.values(), *characters), keywords, stealth=stealth)
