"""The parts of a datasheet: its model types, their wargear and its abilities as printed.

Examples
--------
>>> from mathhammer import Weapon
>>> gun = Wargear("Gauss flayer", (Weapon("Gauss flayer", 1, 4, 4, 0, 1),))
>>> ModelProfile("Necron Warrior", 4, 4, 1, weapons=("Gauss flayer",)).group(10).label
'Necron Warrior'
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import ProfileError, field_error
from ..model.fields import items_field, names_field, optional_int_field, text_field
from ..model.profiles import ModelGroup, Weapon
from ..model.unit import ToughnessWhile

__all__ = ["AbilityText", "Detachment", "ModelProfile", "Wargear"]


@dataclass(frozen=True)
class AbilityText:
    """An ability as printed on a datasheet: its name and its rules text."""

    name: str
    text: str = ""


@dataclass(frozen=True)
class Detachment:
    """A detachment as printed: its name, its rules and the faction it belongs to.

    Its rules name the army's units they are for by keywords ("Melee weapons equipped by
    ORKS models from your army have [SUSTAINED HITS 1]"); an army list applies them to
    the units with those keywords (``Roster.with_detachment``). ``rules`` are the
    detachment's own abilities, not the ruleset (that is the ``rules=`` of
    :func:`mathhammer.attack`).

    Examples
    --------
    >>> Detachment("War Horde", (AbilityText("Get Stuck In", "..."),), "Orks").name
    'War Horde'
    """

    name: str
    rules: tuple[AbilityText, ...] = ()
    faction: str = ""

    def __post_init__(self) -> None:
        text_field("Detachment", "name", self.name)
        rules = items_field(f"Detachment {self.name!r}.rules", self.rules, AbilityText,
                            "a list of AbilityText")  # fmt: skip
        object.__setattr__(self, "rules", rules)


@dataclass(frozen=True)
class Wargear:
    """A piece of wargear with its weapon profiles.

    Most weapons have one profile; some offer a choice each time they are used (a
    grenade launcher's frag and krak): the model uses one of its ``profiles``.
    """

    name: str
    profiles: tuple[Weapon, ...]

    def __post_init__(self) -> None:
        text_field("Wargear", "name", self.name)
        field = f"Wargear {self.name!r}.profiles"
        profiles = items_field(field, self.profiles, Weapon, "one or more Weapons")
        if not profiles:
            raise field_error(ProfileError, field, "one or more Weapons", profiles)
        object.__setattr__(self, "profiles", profiles)

    @property
    def melee(self) -> bool:
        """True if every profile is a melee weapon."""
        return all(w.melee for w in self.profiles)


@dataclass(frozen=True)
class ModelProfile:
    """One model type of a datasheet: its characteristics, numbers and wargear.

    Parameters
    ----------
    name : str
        E.g. ``"Necron Warrior"``.
    toughness, save, wounds : int
        T, Sv as "N+" (7: none), W.
    invuln, fnp, fnp_mortal : int, optional
        Invulnerable save, Feel No Pain, Feel No Pain against mortal wounds only, as "N+".
    damage_reduction : int
        Subtracted from the Damage of each attack allocated to the model.
    halve_damage : bool
        Halve the Damage of each attack allocated to the model.
    character : bool
        A CHARACTER model (its own allocation group).
    min_count, max_count : int
        How many of this model the unit may have.
    default_count : int, optional
        How many a unit at its default size has (``min_count`` if not given).
    weapons : tuple of str
        The default wargear of one model: names of the datasheet's :class:`Wargear`.
    options : tuple of str
        Every wargear the model may take instead (the defaults are always allowed).
    leadership, oc : int, optional
        LD (as "N+") and OC, for display.
    movement : str
        M as printed (``'5"'``).
    toughness_while : ToughnessWhile, optional
        A Toughness a rule gives these models while models of other types stand (the
        Runtherd's T2 while Gretchin stand, docs/rules.md D40).
    """

    name: str
    toughness: int
    save: int
    wounds: int
    invuln: int | None = None
    fnp: int | None = None
    fnp_mortal: int | None = None
    damage_reduction: int = 0
    halve_damage: bool = False
    character: bool = False
    min_count: int = 1
    max_count: int = 1
    default_count: int | None = None
    weapons: tuple[str, ...] = ()
    options: tuple[str, ...] = ()
    leadership: int | None = None
    oc: int | None = None
    movement: str = ""
    toughness_while: ToughnessWhile | None = None

    def __post_init__(self) -> None:
        owner = f"ModelProfile {text_field('ModelProfile', 'name', self.name)!r}"
        text_field(owner, "movement", self.movement)
        for name in ("leadership", "oc"):
            optional_int_field(owner, name, getattr(self, name))
        self._check_counts(owner)
        object.__setattr__(self, "default_count", self._default_count(owner))
        object.__setattr__(self, "weapons", names_field(owner, "weapons", self.weapons))
        options = names_field(owner, "options", self.options)
        options = tuple(dict.fromkeys((*self.weapons, *options)))
        object.__setattr__(self, "options", options)
        self.group(1)  # validates the characteristics now

    def _check_counts(self, owner: str) -> None:
        """Refuse a minimum or maximum count that is not an integer >= 0, or a maximum
        below the minimum."""
        for name in ("min_count", "max_count"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise field_error(ProfileError, f"{owner}.{name}", "an integer >= 0", value)
        if self.max_count < self.min_count:
            raise field_error(
                ProfileError,
                f"{owner}.max_count",
                f">= min_count ({self.min_count})",
                self.max_count,
            )

    def _default_count(self, owner: str) -> int:
        """The count at the default size (``min_count`` if not given), checked against
        the range."""
        default = self.min_count if self.default_count is None else self.default_count
        if isinstance(default, bool) or not isinstance(default, int):
            raise field_error(ProfileError, f"{owner}.default_count", "an integer", default)
        if not self.min_count <= default <= self.max_count:
            raise field_error(
                ProfileError,
                f"{owner}.default_count",
                f"from {self.min_count} to {self.max_count}",
                default,
            )
        return default

    def group(self, count: int) -> ModelGroup:
        """The allocation group of ``count`` such models."""
        return ModelGroup(
            count,
            self.toughness,
            self.save,
            self.wounds,
            invuln=self.invuln,
            fnp=self.fnp,
            fnp_mortal=self.fnp_mortal,
            character=self.character,
            name=self.name,
            damage_reduction=self.damage_reduction,
            halve_damage=self.halve_damage,
            toughness_while=self.toughness_while,
        )
