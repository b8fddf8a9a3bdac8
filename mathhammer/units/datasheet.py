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

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from ..errors import OptionError, ProfileError, field_error
from ..model.effects import Effect, arm, guards
from ..model.fields import check_int, flag_field, items_field, text_field
from ..model.profiles import ModelGroup, Unit, Weapon, normalise_keywords
from .alternatives import fight_sets, model_options, shooting_sets
from .loadout import Loadout
from .options import AttackOptions
from .parts import AbilityText, Detachment, ModelProfile, Wargear
from .selection import Attacker, Models
from .targets import Target

__all__ = [
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


T = TypeVar("T")

#: How a caller states the models: a total unit size, or a count per model type.
ModelCounts = int | Mapping[str, int] | None


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
        wargear = items_field(f"{owner}.wargear", self.wargear, Wargear, "a list of Wargear")
        object.__setattr__(self, "wargear", wargear)
        for name in ("abilities", "not_understood"):
            texts = items_field(f"{owner}.{name}", getattr(self, name), AbilityText, "AbilityTexts")
            object.__setattr__(self, name, texts)
        effects = items_field(f"{owner}.effects", self.effects, Effect, "a list of Effects")
        object.__setattr__(self, "effects", effects)
        object.__setattr__(self, "keywords", normalise_keywords(self.keywords))
        object.__setattr__(self, "stealth", flag_field(owner, "stealth", self.stealth))
        object.__setattr__(self, "points", _points(f"{owner}.points", self.points))
        self._check_wargear()

    def _check_wargear(self) -> None:
        """Refuse wargear names given twice, and a model's option that is not wargear."""
        names = [g.name for g in self.wargear]
        if len(set(names)) != len(names):
            raise field_error(
                ProfileError, f"Datasheet {self.name!r}.wargear", "distinct names", names
            )
        for model in self.models:
            for weapon in model.options:
                self.gear(weapon)

    def gear(self, name: str) -> Wargear:
        """A piece of the datasheet's wargear by name."""
        for gear in self.wargear:
            if gear.name == name:
                return gear
        raise field_error(
            ProfileError,
            f"wargear of {self.name!r}",
            f"one of {[g.name for g in self.wargear]}",
            name,
        )

    @property
    def default_size(self) -> int:
        """The number of models at the default size."""
        return sum(m.default_count or 0 for m in self.models)

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
            if isinstance(n, bool) or not isinstance(n, int):
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
        if isinstance(size, bool) or not isinstance(size, int) or size not in self.sizes:
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
        for m in self.models:
            if m.name == name:
                return m
        raise field_error(
            ProfileError, f"model of {self.name!r}", f"one of {[m.name for m in self.models]}", name
        )

    def points_for(self, models: ModelCounts = None) -> int | None:
        """The unit's points at this size (None if the datasheet has no points)."""
        size = sum(self.counts(models).values())
        cost = None
        for at_least, points in self.points:
            if size >= at_least:
                cost = points
        if cost is None and self.points:
            cost = self.points[0][1]
        return cost

    @property
    def own_effects(self) -> tuple[Effect, ...]:
        """Its effects when it is not leading a unit: all but the "while leading" ones."""
        return tuple(e for e in self.effects if e.scope != "led")

    def unit(self, models: ModelCounts = None, effects: Sequence[Effect] | None = None) -> Unit:
        """The datasheet as a target unit: its groups in allocation order, guarded by the
        defence effects of its rules (``effects``: :attr:`own_effects` by default)."""
        counts = self.counts(models)
        present = [m for m in self.models if counts[m.name] > 0]
        if not present:
            raise field_error(
                ProfileError, f"models of {self.name!r}", "at least one model", models
            )
        unit = _merge_groups(self.name, present, counts, self.keywords, self.stealth)
        return guarded(unit, self.own_effects if effects is None else effects)

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
        effects = self.own_effects if effects is None else effects
        counts = self.counts(models)
        wargear = dict(wargear or {})
        for name in wargear:
            self._model(name)
        groups = self._attacking_groups(counts, wargear, effects)
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
        for m in self.models:
            if counts[m.name] == 0:
                continue
            weapons = self._armed_weapons(m, self._carried(m, wargear), effects)
            if weapons:
                keywords = self.keywords
                groups.append(Models(counts[m.name], weapons, name=m.name, keywords=keywords))
        return groups

    @staticmethod
    def _carried(model: ModelProfile, wargear: Mapping[str, Sequence[str]]) -> tuple[str, ...]:
        """The wargear a model type carries (stated, or its default), each one of its options."""
        names = tuple(wargear.get(model.name, model.weapons))
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
        if name is not None and not _is_name(name):
            raise field_error(OptionError, "name", "a non-empty string", name)
        points = self.points_for(models)
        phases = {phase: self.phase_sets(phase, models, wargear) for phase in PHASE_LABELS}
        return phase_loadouts(name or self.name, phases, points, self.source or None)

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
        effects = self.own_effects if effects is None else effects
        counts = self.counts(models)
        return [
            (counts[m.name], self._phase_weapon_sets(m, phase, wargear, effects))
            for m in self.models
            if counts[m.name]
        ]

    def _phase_weapon_sets(
        self,
        model: ModelProfile,
        phase: str,
        wargear: Mapping[str, Sequence[str]] | None,
        effects: Sequence[Effect],
    ) -> list[list[Weapon]]:
        """The sets of weapons one model of a type may use in ``phase``, armed."""
        names = tuple(dict(wargear or {}).get(model.name, model.weapons))
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
    for pair in pairs:
        if len(pair) != 2:
            raise field_error(ProfileError, field, "a list of (models, points) pairs", pair)
        for number in pair:
            check_int(field, number, 0)
    return tuple(sorted((int(models), int(points)) for models, points in pairs))


def _is_name(value: object) -> bool:
    """True for a string that is not blank."""
    return isinstance(value, str) and bool(value.strip())


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


def led_name(bodyguard: str, leaders: Sequence[str]) -> str:
    """The name of a bodyguard unit with the units attached to it.

    >>> led_name("Boyz", ["Warboss"]), led_name("Boyz", [])
    ('Boyz led by Warboss', 'Boyz')
    """
    return f"{bodyguard} led by {', '.join(leaders)}" if leaders else bodyguard


def attach_leaders(bodyguard: Unit, *leaders: Unit, name: str | None = None) -> Unit:
    """One target of a bodyguard unit and the CHARACTER units leading it.

    The leaders' models become CHARACTER groups after the bodyguard's groups; the unit has
    every keyword of every part (docs/rules.md D35), Stealth only if every part has, and
    the rules on attacks against it (``Unit.rules``) of every part.

    Examples
    --------
    >>> guard = Unit.of("Guard", 5, 4, 3, 2)
    >>> boss = Unit("Boss", [ModelGroup(1, 4, 2, 5, character=True, name="Boss")])
    >>> led = attach_leaders(guard, boss)
    >>> [g.label for g in led.groups], led.name
    (['5x W2 Sv3+', 'Boss'], 'Guard led by Boss')
    """
    parts = (bodyguard, *leaders)
    label = name or led_name(bodyguard.name, [u.name for u in leaders])
    # a defence that worsens AP or re-rolls saves covers the whole unit, from the
    # bodyguard or a leader
    return Unit(
        label,
        [*bodyguard.groups, *_leader_groups(leaders)],
        _union(u.keywords for u in parts),
        stealth=all(u.stealth for u in parts),
        worsen_ap=max(u.worsen_ap for u in parts),
        reroll_saves=_best_reroll(parts),
        rules=_union(u.rules for u in parts),
    )


def _leader_groups(leaders: Sequence[Unit]) -> list[ModelGroup]:
    """Every model of the leading units as a CHARACTER allocation group of its own."""
    return [
        replace(g, character=True, count=1)
        for u in leaders
        for g in u.groups
        for _ in range(g.count)
    ]


def _best_reroll(units: Sequence[Unit]) -> str | None:
    """The best save re-roll any of the units has (failed saves include the 1s)."""
    rerolls = {u.reroll_saves for u in units}
    return next((r for r in ("failures", "ones", "command") if r in rerolls), None)


def _union(items: Iterable[Iterable[T]]) -> tuple[T, ...]:
    """Every item of every part, once each, in order of first appearance."""
    return tuple(dict.fromkeys(item for part in items for item in part))


def guarded(unit: Unit, effects: Sequence[Effect]) -> Unit:
    """The unit with the defence effects of its rules: those on each attack as its rules
    (:func:`~mathhammer.model.effects.guards`), added to any it has; an unconditional
    Feel No Pain, damage reduction or halving from a leader "while leading" (the unit's
    own are its profiles' already) or an army rule (``Effect.units``) as every group's, the
    better of it and the group's.

    Examples
    --------
    >>> from mathhammer.model.effects import Effect
    >>> led = guarded(Unit.of("Boyz", 10, 5, 5, 1), [Effect("fnp", 5, scope="led"),
    ...               Effect("target_ap", 1, source="Krumpin'")])
    >>> led.groups[0].fnp, [str(r) for r in led.rules]
    (5, ["Krumpin' (-1 AP to attacks that target it)"])
    """
    rules = guards(effects)
    shared = [e for e in effects if _shared(e)]
    groups = _improved_groups(unit.groups, shared)
    stealth = unit.stealth or any(e.kind == "stealth" for e in shared)
    if not rules and groups == list(unit.groups) and stealth == unit.stealth:
        return unit
    return replace(unit, groups=tuple(groups), rules=(*unit.rules, *rules), stealth=stealth)


#: The better of a group's value and an effect's, by the kind of effect (and the field).
_BETTER: dict[str, Callable[[int, int], int]] = {
    "fnp": min,
    "fnp_mortal": min,
    "invuln": min,
    "damage_reduction": max,
}


def _shared(effect: Effect) -> bool:
    """True for a defence effect that improves the groups here: unconditional, on no one
    attack, and from a leader "while leading", an army rule or some models' rules (the
    unit's own are its profiles' fields already)."""
    own = effect.scope != "led" and not effect.units and not effect.models
    return not (own or effect.conditions or effect.attacks)


def _improved_groups(groups: Sequence[ModelGroup], effects: Sequence[Effect]) -> list[ModelGroup]:
    """The groups with each effect applied, in order, to those it covers."""
    out = list(groups)
    for effect in effects:
        out = [_improved(g, effect) if _covers(effect, g) else g for g in out]
    return out


def _covers(effect: Effect, group: ModelGroup) -> bool:
    """True if the effect is for the group's models (D41: named ones, or the CHARACTERs)."""
    return group.character if effect.models == "character" else effect.for_model(group.label)


def _improved(group: ModelGroup, effect: Effect) -> ModelGroup:
    """The group with the better of its value and the effect's (halved damage as it is)."""
    if effect.kind == "halve_damage":
        return replace(group, halve_damage=True)
    better = _BETTER.get(effect.kind)
    value = effect.value
    if better is None or not isinstance(value, int):
        return group
    current = getattr(group, effect.kind)
    best: dict[str, Any] = {effect.kind: value if current is None else better(current, value)}
    return replace(group, **best)
