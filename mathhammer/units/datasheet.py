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

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

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
        names = [g.name for g in self.wargear]
        if len(set(names)) != len(names):
            raise field_error(
                ProfileError, f"Datasheet {self.name!r}.wargear", "distinct names", names
            )
        for model in models:
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
                counts[name] = n
            return counts
        if isinstance(models, bool) or not isinstance(models, int) or models not in self.sizes:
            raise field_error(
                ProfileError,
                f"models of {self.name!r}",
                f"a unit size from {self.sizes.start} to {self.sizes.stop - 1}",
                models,
            )
        change = models - sum(counts.values())
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
        groups = []
        for m in self.models:
            if counts[m.name] == 0:
                continue
            names = tuple(wargear.get(m.name, m.weapons))
            for name in names:
                if name not in m.options:
                    raise field_error(
                        ProfileError, f"wargear of {m.name!r}", f"one of {list(m.options)}", name
                    )
            weapons = _numbered([w for name in names for w in _named_profiles(self.gear(name))])
            mine = [e for e in effects if e.for_model(m.name)]  # D41: some models' rules
            weapons = [arm(w, mine) for w in weapons]
            if weapons:
                keywords = self.keywords
                groups.append(Models(counts[m.name], weapons, name=m.name, keywords=keywords))
        if not groups:
            raise ProfileError(f"Datasheet {self.name!r} has no weapons for these models")
        return Attacker(self.name, groups)

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
        if name is not None and (not isinstance(name, str) or not name.strip()):
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
        types = []
        for m in self.models:
            if not counts[m.name]:
                continue
            names = tuple(dict(wargear or {}).get(m.name, m.weapons))
            mine = [e for e in effects if e.for_model(m.name)]  # D41: some models' rules
            items = [
                [
                    arm(w, mine)
                    for w in _named_profiles(self.gear(n))
                    if w.melee == (phase == "fight")
                ]
                for n in names
            ]
            items = [i for i in items if i]
            if phase == "fight":
                types.append((counts[m.name], fight_sets(items)))
            else:
                types.append((counts[m.name], shooting_sets(items, self.keywords)))
        return types


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


def _named_profiles(gear: Wargear) -> list[Weapon]:
    if len(gear.profiles) == 1:
        return [replace(gear.profiles[0], name=gear.name)]
    return [replace(w, name=f"{gear.name}: {w.name}") for w in gear.profiles]


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
    groups = list(bodyguard.groups)
    for leader in leaders:
        for g in leader.groups:
            # every model of a leading unit is its own CHARACTER allocation group
            groups.extend(replace(g, character=True, count=1) for _ in range(g.count))
    label = name or led_name(bodyguard.name, [u.name for u in leaders])
    stealth = bodyguard.stealth and all(u.stealth for u in leaders)
    # a defence that worsens AP or re-rolls saves covers the whole unit, from the
    # bodyguard or a leader (the better re-roll: failed saves include the 1s)
    worsen = max([bodyguard.worsen_ap, *(u.worsen_ap for u in leaders)])
    rerolls = {bodyguard.reroll_saves, *(u.reroll_saves for u in leaders)}
    reroll = next((r for r in ("failures", "ones", "command") if r in rerolls), None)
    keywords = dict.fromkeys([*bodyguard.keywords, *(k for u in leaders for k in u.keywords)])
    return Unit(
        label,
        groups,
        tuple(keywords),
        stealth=stealth,
        worsen_ap=worsen,
        reroll_saves=reroll,
        rules=tuple(dict.fromkeys([*bodyguard.rules, *(r for u in leaders for r in u.rules)])),
    )


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
    groups = list(unit.groups)
    stealth = unit.stealth
    for effect in effects:
        own = effect.scope != "led" and not effect.units and not effect.models
        if own or effect.conditions or effect.attacks:
            continue  # the unit's own: its profiles' fields already
        value = effect.value
        for i, g in enumerate(groups):
            if not (g.character if effect.models == "character" else effect.for_model(g.label)):
                continue  # a rule for some models only (D41): named, or the CHARACTERs
            if effect.kind == "fnp" and isinstance(value, int):
                groups[i] = replace(g, fnp=value if g.fnp is None else min(g.fnp, value))
            elif effect.kind == "fnp_mortal" and isinstance(value, int):
                best = value if g.fnp_mortal is None else min(g.fnp_mortal, value)
                groups[i] = replace(g, fnp_mortal=best)
            elif effect.kind == "invuln" and isinstance(value, int):
                groups[i] = replace(g, invuln=value if g.invuln is None else min(g.invuln, value))
            elif effect.kind == "damage_reduction" and isinstance(value, int):
                groups[i] = replace(g, damage_reduction=max(g.damage_reduction, value))
            elif effect.kind == "halve_damage":
                groups[i] = replace(g, halve_damage=True)
        stealth = stealth or effect.kind == "stealth"
    if not rules and groups == list(unit.groups) and stealth == unit.stealth:
        return unit
    return replace(unit, groups=tuple(groups), rules=(*unit.rules, *rules), stealth=stealth)
