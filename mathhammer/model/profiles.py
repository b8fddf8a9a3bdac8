"""Profiles: frozen, self-validating descriptions of weapons, model groups and units.

Thresholds are ints meaning "N+" (``skill=3`` is BS 3+); AP is stored as printed
(``ap=-1``); attacks and damage take an int or a dice expression (``"D6+1"``).
Every invalid field raises :class:`~mathhammer.errors.ProfileError`, which is also
a ``ValueError``, worded ``"<field> must be <constraint>; got <value>"``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..core.dice import Dice, parse_dice
from ..errors import AllocationOrderError, DiceSyntaxError, ProfileError, field_error
from .abilities import Ability
from .ability_text import parse_abilities, warn_unknown

__all__ = [
    "ModelGroup",
    "Unit",
    "Weapon",
    "normalise_keywords",
]

#: A save characteristic of 7 means "no armour save" (nothing reaches 7+ on a D6).
NO_SAVE = 7


def _int_field(
    owner: str, name: str, value: Any, low: int | None = None, high: int | None = None
) -> int:
    """Validate an integer field, with the range in the message."""
    if low is not None and high is not None:
        constraint = f"an integer from {low} to {high}"
    elif low is not None:
        constraint = f"an integer >= {low}"
    elif high is not None:
        constraint = f"an integer <= {high}"
    else:
        constraint = "an integer"
    hint = ""
    if isinstance(value, str) and value.strip().endswith("+"):
        hint = f"give {value.strip()[:-1]} for {value.strip()}; thresholds are ints meaning N+"
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise field_error(ProfileError, f"{owner}.{name}", constraint, value, hint)
    if (low is not None and value < low) or (high is not None and value > high):
        raise field_error(ProfileError, f"{owner}.{name}", constraint, value, hint)
    return int(value)


def _threshold_or_none(owner: str, name: str, value: Any) -> int | None:
    if value is None:
        return None
    return _int_field(owner, name, value, 2, 6)


def _dice_field(owner: str, name: str, value: Any, minimum: int) -> Dice:
    try:
        dice = parse_dice(value)
    except DiceSyntaxError as exc:
        raise ProfileError(f"{owner}.{name}: {exc}") from None
    except ProfileError:
        raise field_error(
            ProfileError, f"{owner}.{name}", "an integer or a dice expression like 'D6+1'", value
        ) from None
    if dice.min < minimum:
        raise field_error(
            ProfileError, f"{owner}.{name}", f"at least {minimum} on every roll", dice.text
        )
    return dice


def normalise_keywords(keywords: str | Iterable[str]) -> tuple[str, ...]:
    """Keywords as an upper-case tuple; a string is split on commas.

    Examples
    --------
    >>> normalise_keywords("Infantry, imperium")
    ('INFANTRY', 'IMPERIUM')
    """
    if isinstance(keywords, str):
        items: Iterable[str] = keywords.split(",")
    elif isinstance(keywords, Iterable):
        items = keywords
    else:
        raise field_error(ProfileError, "keywords", "a string or a list of strings", keywords)
    out = []
    for item in items:
        if not isinstance(item, str):
            raise field_error(ProfileError, "keywords", "strings", item)
        word = " ".join(item.split()).upper()
        if word and word not in out:
            out.append(word)
    return tuple(out)


@dataclass(frozen=True)
class Weapon:
    """One weapon profile.

    Parameters
    ----------
    name : str
        For display only; it never affects pooling.
    attacks : int or str
        The A characteristic: ``2`` or a dice expression such as ``"D6"`` (rolled per weapon).
    skill : int
        11th edition: BS or WS as "N+": ``3`` means 3+. From 2 to 6.
    strength : int
        S, at least 1.
    ap : int
        AP as printed: ``0``, ``-1``, ``-2`` ...
    damage : int or str
        The D characteristic: ``1`` or a dice expression such as ``"D3+1"`` (rolled per attack).
    abilities : str or sequence
        Ability text as printed, e.g. ``"[ASSAULT], [HEAVY]"``, or a list of tokens or
        typed abilities (``[mh.abilities.SustainedHits(1)]``). Stored as a tuple of
        typed abilities; tokens that are not core weapon abilities warn once and are
        kept in ``unknown_abilities``.
    bs : int
        The classic ruleset's Ballistic Skill *characteristic*, from 1 to 10 (BS 4 hits
        on 3+), given instead of ``skill``.
    melee : bool
        A melee weapon (used when fighting); ranged by default.

    Examples
    --------
    >>> w = Weapon("Bolt rifle", attacks=2, skill=3, strength=4, ap=-1, damage=1)
    >>> w.attacks.text, w.damage.mean
    ('2', 1)
    >>> Weapon("x", attacks=1, skill=7, strength=4, ap=0, damage=1)
    Traceback (most recent call last):
    ...
    mathhammer.errors.ProfileError: Weapon.skill must be an integer from 2 to 6; got 7
    >>> Weapon("Lasgun", attacks=1, bs=3, strength=3).bs  # a classic-ruleset weapon
    3
    """

    name: str
    attacks: Dice | int | str
    skill: int | None = None
    strength: int | None = None
    ap: int = 0
    damage: Dice | int | str = 1
    abilities: Any = ()
    bs: int | None = None
    melee: bool = False
    unknown_abilities: tuple[str, ...] = field(default=(), init=False, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.name, str):
            raise field_error(ProfileError, "Weapon.name", "a string", self.name)
        object.__setattr__(self, "attacks", _dice_field("Weapon", "attacks", self.attacks, 1))
        if self.skill is None and self.bs is None:
            raise ProfileError(
                "Weapon needs skill= (11th edition BS/WS as N+, 2 to 6) or bs= (the classic "
                "Ballistic Skill characteristic, 1 to 10); got neither"
            )
        if self.skill is not None and self.bs is not None:
            raise ProfileError(
                "Weapon takes skill= (11th edition) or bs= (classic), not both; "
                f"got skill={self.skill!r} and bs={self.bs!r}"
            )
        if self.skill is not None:
            object.__setattr__(self, "skill", _int_field("Weapon", "skill", self.skill, 2, 6))
        if self.bs is not None:
            object.__setattr__(self, "bs", _int_field("Weapon", "bs", self.bs, 1, 10))
        if not isinstance(self.melee, bool | np.bool_):
            raise field_error(ProfileError, "Weapon.melee", "True or False", self.melee)
        object.__setattr__(self, "melee", bool(self.melee))
        _int_field("Weapon", "strength", self.strength, 1)
        if isinstance(self.ap, int | np.integer) and not isinstance(self.ap, bool) and self.ap > 0:
            raise field_error(
                ProfileError,
                "Weapon.ap",
                "an integer <= 0",
                self.ap,
                f"AP is as printed: {-self.ap}",
            )
        _int_field("Weapon", "ap", self.ap, high=0)
        object.__setattr__(self, "damage", _dice_field("Weapon", "damage", self.damage, 1))
        if isinstance(self.abilities, Ability):
            object.__setattr__(self, "abilities", (self.abilities,))
        if not isinstance(self.abilities, str | Iterable):
            raise field_error(
                ProfileError, "Weapon.abilities", "a string or a list of abilities", self.abilities
            )
        found, unknown = parse_abilities(self.abilities)
        object.__setattr__(self, "abilities", found)
        object.__setattr__(self, "unknown_abilities", unknown)
        warn_unknown(self.name, unknown)
        for name in ("strength", "ap"):
            object.__setattr__(self, name, int(getattr(self, name)))

    @property
    def abilities_text(self) -> str:
        """The abilities as printed, e.g. ``"[ASSAULT], [HEAVY]"``."""
        return ", ".join(str(a) for a in self.abilities)

    @property
    def pool_key(self) -> tuple[Any, ...]:
        """What makes two attacks identical: BS/WS, S, AP, D and the abilities.

        The name and the attacks characteristic are not part of it (docs/rules.md §2.4,
        D10).
        """
        assert isinstance(self.damage, Dice)
        abilities = tuple(sorted(str(a) for a in self.abilities))
        return (self.skill, self.bs, self.melee, self.strength, self.ap, self.damage, abilities)


@dataclass(frozen=True)
class ModelGroup:
    """A set of models sharing Wounds, Save and Invulnerable Save: one allocation group.

    Parameters
    ----------
    count : int
        Models in the group (exactly 1 for a CHARACTER).
    toughness, save, wounds : int
        T; Sv as "N+" (7 means no armour save); W.
    invuln : int, optional
        Invulnerable save as "N+", unaffected by AP.
    fnp : int, optional
        Feel No Pain as "N+", rolled for each wound that would be lost.
    fnp_mortal : int, optional
        Feel No Pain as "N+" against mortal wounds only (devastating wounds and other
        mortal wounds); a mortal wound is rolled for once, against the better of the two.
    character : bool
        A CHARACTER model: its own group, allocated after every non-CHARACTER group.
    name : str
        Display name, e.g. ``"Captain"``; used to look the group up in results.
    wounds_lost : int
        Wounds already lost by one model of the group (at most one model of a group is
        ever wounded, because a wounded model must take the next attack).
    damage_reduction : int
        Subtracted from the Damage of each attack (after halving; minimum 1).
    halve_damage : bool
        Halve the Damage of each attack, rounding up (before subtracting).

    Examples
    --------
    >>> boss = ModelGroup(1, toughness=4, save=2, wounds=5, invuln=4, character=True)
    >>> boss.label, boss.total_wounds
    ('1x W5 Sv2+ InSv4+', 5)
    """

    count: int
    toughness: int
    save: int
    wounds: int
    invuln: int | None = None
    fnp: int | None = None
    character: bool = False
    name: str = ""
    wounds_lost: int = 0
    fnp_mortal: int | None = None
    damage_reduction: int = 0
    halve_damage: bool = False

    def __post_init__(self) -> None:
        _int_field("ModelGroup", "count", self.count, 1)
        _int_field("ModelGroup", "toughness", self.toughness, 1)
        _int_field("ModelGroup", "save", self.save, 2, NO_SAVE)
        _int_field("ModelGroup", "wounds", self.wounds, 1)
        for name in ("count", "toughness", "save", "wounds"):
            object.__setattr__(self, name, int(getattr(self, name)))
        object.__setattr__(self, "invuln", _threshold_or_none("ModelGroup", "invuln", self.invuln))
        object.__setattr__(self, "fnp", _threshold_or_none("ModelGroup", "fnp", self.fnp))
        mortal = _threshold_or_none("ModelGroup", "fnp_mortal", self.fnp_mortal)
        object.__setattr__(self, "fnp_mortal", mortal)
        if not isinstance(self.character, bool | np.bool_):
            raise field_error(ProfileError, "ModelGroup.character", "True or False", self.character)
        object.__setattr__(self, "character", bool(self.character))
        if not isinstance(self.name, str):
            raise field_error(ProfileError, "ModelGroup.name", "a string", self.name)
        if self.character and self.count != 1:
            raise field_error(
                ProfileError,
                "ModelGroup.count",
                "1 for a CHARACTER group",
                self.count,
                "each CHARACTER model is its own allocation group",
            )
        lost = _int_field("ModelGroup", "wounds_lost", self.wounds_lost, 0, self.wounds - 1)
        object.__setattr__(self, "wounds_lost", lost)
        reduction = _int_field("ModelGroup", "damage_reduction", self.damage_reduction, 0, 10)
        object.__setattr__(self, "damage_reduction", reduction)
        if not isinstance(self.halve_damage, bool | np.bool_):
            raise field_error(
                ProfileError, "ModelGroup.halve_damage", "True or False", self.halve_damage
            )
        object.__setattr__(self, "halve_damage", bool(self.halve_damage))

    @property
    def label(self) -> str:
        """The name, or a description such as ``"10x W1 Sv3+"`` when unnamed."""
        if self.name:
            return self.name
        inv = f" InSv{self.invuln}+" if self.invuln else ""
        sv = "Sv-" if self.save >= NO_SAVE else f"Sv{self.save}+"
        return f"{self.count}x W{self.wounds} {sv}{inv}"

    def feel_no_pain(self, mortal: bool = False) -> int | None:
        """The Feel No Pain rolled for a wound: against mortal wounds, the better of
        ``fnp`` and ``fnp_mortal``; None if there is none.

        Examples
        --------
        >>> ModelGroup(1, 4, 3, 2, fnp=6, fnp_mortal=5).feel_no_pain(mortal=True)
        5
        """
        options = [self.fnp, self.fnp_mortal] if mortal else [self.fnp]
        found = [x for x in options if x is not None]
        return min(found) if found else None

    @property
    def total_wounds(self) -> int:
        """Wounds the group has left: the sum over its models."""
        return self.count * self.wounds - self.wounds_lost


@dataclass(frozen=True)
class Unit:
    """A target unit: allocation groups in allocation order, plus keywords.

    The order must follow the allocation-order rules (docs/rules.md §1.6, D4):

    1. a non-CHARACTER group holding a wounded model goes first;
    2. no CHARACTER group precedes a non-CHARACTER group;
    3. CHARACTER groups with a wounded model precede those without.

    Models sharing W, Sv and InSv form one group, so two non-CHARACTER groups must
    differ in one of them.

    Parameters
    ----------
    name : str
        For display.
    groups : sequence of ModelGroup
        The allocation groups, in allocation order.
    keywords : str or sequence of str
        E.g. ``"INFANTRY, IMPERIUM"``; keyword-restricted abilities read them.
    stealth : bool
        The unit has Stealth: the benefit of cover against ranged attacks.
    leadership : int, optional
        The Ld characteristic (classic ruleset: the Panic Test passes on 2D6 <= Ld).

    Examples
    --------
    >>> guard = ModelGroup(4, toughness=4, save=3, wounds=2, name="Bodyguard")
    >>> boss = ModelGroup(1, toughness=4, save=2, wounds=5, character=True, name="Captain")
    >>> unit = Unit("Command squad", [guard, boss], keywords="INFANTRY")
    >>> unit.models, unit.total_wounds, unit.toughness
    (5, 13, 4)
    >>> Unit("Bad", [boss, guard])
    Traceback (most recent call last):
    ...
    mathhammer.errors.AllocationOrderError: Unit.groups must put every non-CHARACTER group
    before the CHARACTER groups; got CHARACTER group 'Captain' at position 1 before ...
    """

    name: str
    groups: Sequence[ModelGroup]
    keywords: tuple[str, ...] | str = ()
    stealth: bool = False
    leadership: int | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.name, str):
            raise field_error(ProfileError, "Unit.name", "a string", self.name)
        if isinstance(self.groups, ModelGroup):
            groups: tuple[ModelGroup, ...] = (self.groups,)
        else:
            try:
                groups = tuple(self.groups)
            except TypeError:
                raise field_error(
                    ProfileError, "Unit.groups", "a sequence of ModelGroup", self.groups
                ) from None
        if not groups:
            raise field_error(ProfileError, "Unit.groups", "at least one ModelGroup", self.groups)
        for g in groups:
            if not isinstance(g, ModelGroup):
                raise field_error(ProfileError, "Unit.groups", "ModelGroup objects", g)
        object.__setattr__(self, "groups", groups)
        object.__setattr__(self, "keywords", normalise_keywords(self.keywords))
        if not isinstance(self.stealth, bool | np.bool_):
            raise field_error(ProfileError, "Unit.stealth", "True or False", self.stealth)
        object.__setattr__(self, "stealth", bool(self.stealth))
        if self.leadership is not None:
            ld = _int_field("Unit", "leadership", self.leadership, 1, 12)
            object.__setattr__(self, "leadership", ld)
        _check_allocation_order(groups)

    @classmethod
    def of(
        cls,
        name: str,
        models: int,
        toughness: int,
        save: int,
        wounds: int,
        invuln: int | None = None,
        fnp: int | None = None,
        keywords: str | Iterable[str] = (),
        *,
        stealth: bool = False,
        damage_reduction: int = 0,
        halve_damage: bool = False,
        leadership: int | None = None,
    ) -> Unit:
        """A unit of identical models: the common case in one call.

        Examples
        --------
        >>> Unit.of("Intercessors", models=5, toughness=4, save=3, wounds=2).total_wounds
        10
        """
        group = ModelGroup(
            models,
            toughness,
            save,
            wounds,
            invuln=invuln,
            fnp=fnp,
            damage_reduction=damage_reduction,
            halve_damage=halve_damage,
        )
        return cls(
            name,
            (group,),
            tuple(normalise_keywords(keywords)),
            stealth=stealth,
            leadership=leadership,
        )

    @property
    def models(self) -> int:
        """The number of models in the unit."""
        return sum(g.count for g in self.groups)

    @property
    def total_wounds(self) -> int:
        """The wounds the unit has left."""
        return sum(g.total_wounds for g in self.groups)

    @property
    def toughness(self) -> int:
        """The unit's T: the highest T among its non-CHARACTER models (all models if none)."""
        bodies = [g.toughness for g in self.groups if not g.character]
        return max(bodies or [g.toughness for g in self.groups])

    def has_keyword(self, keyword: str) -> bool:
        """True if the unit has the keyword (case-insensitive)."""
        return keyword.strip().upper() in self.keywords

    def group_index(self, key: int | str) -> int:
        """The position of a group given its index or its label."""
        if isinstance(key, int | np.integer) and not isinstance(key, bool):
            if not 0 <= key < len(self.groups):
                raise field_error(
                    ProfileError, "group", f"an index from 0 to {len(self.groups) - 1}", key
                )
            return int(key)
        labels = [g.label for g in self.groups]
        if key in labels:
            return labels.index(key)
        raise field_error(ProfileError, "group", f"one of {labels}", key)


def _check_allocation_order(groups: Sequence[ModelGroup]) -> None:
    def where(i: int) -> str:
        kind = "CHARACTER" if groups[i].character else "non-CHARACTER"
        return f"{kind} group {groups[i].label!r} at position {i + 1}"

    wounded_bodies = [i for i, g in enumerate(groups) if not g.character and g.wounds_lost]
    if len(wounded_bodies) > 1:
        raise AllocationOrderError(
            "Unit.groups must hold at most one non-CHARACTER group with a wounded model, "
            f"because such a group must go first; got {len(wounded_bodies)}: "
            + ", ".join(where(i) for i in wounded_bodies)
        )
    if wounded_bodies and wounded_bodies[0] != 0:
        raise AllocationOrderError(
            "Unit.groups must put a non-CHARACTER group holding a wounded model first; "
            f"got {where(wounded_bodies[0])}"
        )
    for i in range(len(groups) - 1):
        if groups[i].character and not groups[i + 1].character:
            raise AllocationOrderError(
                "Unit.groups must put every non-CHARACTER group before the CHARACTER groups; "
                f"got {where(i)} before {where(i + 1)}"
            )
        if (
            groups[i].character
            and groups[i + 1].character
            and not groups[i].wounds_lost
            and groups[i + 1].wounds_lost
        ):
            raise AllocationOrderError(
                "Unit.groups must put wounded CHARACTER groups before unwounded ones; "
                f"got {where(i)} (unwounded) before {where(i + 1)} (wounded)"
            )
    seen: dict[tuple[int, int, int | None], int] = {}
    for i, g in enumerate(groups):
        if g.character:
            continue
        key = (g.wounds, g.save, g.invuln)
        if key in seen:
            raise AllocationOrderError(
                "Unit.groups must not split models sharing W, Sv and InSv into two groups; "
                f"got {where(seen[key])} and {where(i)} (merge them into one group)"
            )
        seen[key] = i
