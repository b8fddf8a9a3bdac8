"""Target units: allocation groups of models sharing a profile, in allocation order.

Thresholds are ints meaning "N+" (``save=3`` is Sv 3+); every invalid field raises
:class:`~mathhammer.errors.ProfileError`, which is also a ``ValueError``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property, partial
from typing import TypeVar

import numpy as np

from ..core.frozen import HASHED, HashedKey, hash_once, once
from ..errors import ProfileError, field_error
from .ability_base import Ability
from .allocation import check_allocation_order
from .fields import NO_SAVE, flag_field, int_field, normalise_keywords, text_field
from .values import RollInput, best_roll, parse_leadership, parse_optional_roll, parse_save

T = TypeVar("T")

__all__ = ["SAVE_REROLLS", "ModelGroup", "ToughnessWhile", "Unit", "group_named"]

#: What a unit may re-roll of its save rolls (``Unit.reroll_saves``), in words.
SAVE_REROLLS = {
    "ones": "save rolls of 1",
    "failures": "failed saves",
    "command": "one failed save of each pool",
}


@dataclass(frozen=True)
class ToughnessWhile:
    """A Toughness a rule gives a group's models while models of other groups stand.

    The Gretchin's Runtherd: "Each time an attack targets this unit, if it contains one or
    more Gretchin models, ... Runtherd models in this unit have a Toughness characteristic
    of 2." The Runtherds' group carries ``ToughnessWhile(2, ("Gretchin",))``; the unit's T
    is judged on the groups standing when the attacks are declared (docs/rules.md D21, D34,
    D40), so once the last Gretchin is gone the Runtherds are T5 again.

    Parameters
    ----------
    toughness : int
        The Toughness while the rule holds.
    present : tuple of str
        The labels of the groups (case aside) of which one model standing is enough.

    Examples
    --------
    >>> rule = ToughnessWhile(2, ("Gretchin",))
    >>> rule.holds({"gretchin", "runtherd"}), rule.holds({"runtherd"})
    (True, False)
    """

    toughness: int
    present: tuple[str, ...]

    def __post_init__(self) -> None:
        int_field("ToughnessWhile", "toughness", self.toughness, 1)
        object.__setattr__(self, "present", _labels(self.present))

    def holds(self, labels: Iterable[str]) -> bool:
        """True if one of the groups standing (their labels, case-folded) is named."""
        return any(label in self.present for label in labels)

    def __str__(self) -> str:
        return f"T{self.toughness} while {'/'.join(self.present)} stand"


def _labels(present: str | Iterable[str]) -> tuple[str, ...]:
    """``ToughnessWhile.present`` checked: group labels (one, or several), case-folded."""
    names = (present,) if isinstance(present, str) else present
    if not isinstance(names, Iterable) or not names:
        raise field_error(ProfileError, "ToughnessWhile.present", "group names", names)
    return tuple(_label(name) for name in names)


def _label(name: object) -> str:
    """One group label of ``ToughnessWhile.present``: a non-blank string, case-folded."""
    if not isinstance(name, str) or not name.strip():
        raise field_error(ProfileError, "ToughnessWhile.present", "group names", name)
    return " ".join(name.split()).casefold()


@hash_once
@dataclass(frozen=True, init=False)
class ModelGroup:
    """A set of models sharing Wounds, Save and Invulnerable Save: one allocation group.

    Parameters
    ----------
    count : int
        Models in the group (exactly 1 for a CHARACTER).
    toughness, wounds : int
        T and W.
    save : int or str
        Sv as "N+": ``3``, ``"3"`` or ``"3+"``; 7 or ``"-"`` means no armour save.
    invuln : int or str, optional
        Invulnerable save as "N+" (``4`` or ``"4+"``), unaffected by AP; None or ``"-"``
        for none.
    fnp : int or str, optional
        Feel No Pain as "N+", rolled for each wound that would be lost.
    fnp_mortal : int or str, optional
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
    reduce_mortal : bool
        The halving and ``damage_reduction`` apply to mortal wounds too, where a rule says
        so: to each devastating wound's mortal wounds (equal to D; at least 1). A mortal
        wound of another source is one wound, which no reduction changes.
    toughness_while : ToughnessWhile, optional
        A Toughness a rule gives these models while models of other groups stand (the
        Runtherd's T2 while Gretchin stand): the unit's T is judged on it (D40).

    Examples
    --------
    >>> boss = ModelGroup(1, toughness=4, save="2+", wounds=5, invuln="4+", character=True)
    >>> boss.label, boss.total_wounds
    ('1x W5 Sv2+ InSv4+', 5)
    >>> boss
    ModelGroup(1x T4 Sv2+ W5 InSv4+ CHARACTER)
    """

    count: int
    toughness: int
    save: int
    wounds: int
    invuln: int | None
    fnp: int | None
    character: bool
    name: str
    wounds_lost: int
    fnp_mortal: int | None
    damage_reduction: int
    halve_damage: bool
    reduce_mortal: bool
    toughness_while: ToughnessWhile | None

    def __init__(
        self,
        count: int,
        toughness: int,
        save: RollInput,
        wounds: int,
        invuln: RollInput | None = None,
        fnp: RollInput | None = None,
        character: bool = False,
        name: str = "",
        wounds_lost: int = 0,
        fnp_mortal: RollInput | None = None,
        damage_reduction: int = 0,
        halve_damage: bool = False,
        reduce_mortal: bool = False,
        toughness_while: ToughnessWhile | None = None,
    ) -> None:
        set_field = partial(object.__setattr__, self)
        set_field("count", int_field("ModelGroup", "count", count, 1))
        set_field("toughness", int_field("ModelGroup", "toughness", toughness, 1))
        set_field("save", parse_save(save, "ModelGroup.save"))
        set_field("wounds", int_field("ModelGroup", "wounds", wounds, 1))
        set_field("invuln", parse_optional_roll(invuln, "ModelGroup.invuln"))
        set_field("fnp", parse_optional_roll(fnp, "ModelGroup.fnp"))
        set_field("fnp_mortal", parse_optional_roll(fnp_mortal, "ModelGroup.fnp_mortal"))
        set_field("character", flag_field("ModelGroup", "character", character))
        set_field("name", text_field("ModelGroup", "name", name))
        _check_character_alone(self)
        lost = int_field("ModelGroup", "wounds_lost", wounds_lost, 0, self.wounds - 1)
        set_field("wounds_lost", lost)
        reduction = int_field("ModelGroup", "damage_reduction", damage_reduction, 0, 10)
        set_field("damage_reduction", reduction)
        set_field("halve_damage", flag_field("ModelGroup", "halve_damage", halve_damage))
        set_field("reduce_mortal", flag_field("ModelGroup", "reduce_mortal", reduce_mortal))
        set_field("toughness_while", _toughness_while(toughness_while))

    def __repr__(self) -> str:
        named = f"{self.name!r}, " if self.name else ""
        return f"ModelGroup({named}{self.profile_text})"

    @property
    def profile_text(self) -> str:
        """The group in one line: ``"4x T4 Sv3+ W2 InSv4+"``, then what sets it apart.

        Examples
        --------
        >>> ModelGroup(3, 10, 3, 12, fnp=6, wounds_lost=4, damage_reduction=1).profile_text
        '3x T10 Sv3+ W12 FNP6+ (4 wounds lost) (-1 damage)'
        """
        lost = self.wounds_lost
        parts = (  # what sets the group apart, each shown where it holds
            (True, f"{self.count}x T{self.toughness} {_save_text(self.save)} W{self.wounds}"),
            (self.invuln is not None, f"InSv{self.invuln}+"),
            (self.fnp is not None, f"FNP{self.fnp}+"),
            (self.fnp_mortal is not None, f"FNP{self.fnp_mortal}+ vs mortal wounds"),
            (self.character, "CHARACTER"),
            (lost > 0, f"({lost} wound{'s' if lost > 1 else ''} lost)"),
            (self.halve_damage, "(halve damage)"),
            (self.damage_reduction > 0, f"(-{self.damage_reduction} damage)"),
            (self.reduce_mortal, "(also against mortal wounds)"),
            (self.toughness_while is not None, f"({self.toughness_while})"),
        )
        return " ".join(text for shown, text in parts if shown)

    def toughness_among(self, labels: Iterable[str]) -> int:
        """The group's T while the groups of these labels (case-folded) stand.

        Examples
        --------
        >>> herd = ModelGroup(1, 5, 5, 2, name="Runtherd",
        ...                   toughness_while=ToughnessWhile(2, ("Gretchin",)))
        >>> herd.toughness_among({"gretchin"}), herd.toughness_among(())
        (2, 5)
        """
        rule = self.toughness_while
        return rule.toughness if rule is not None and rule.holds(labels) else self.toughness

    @property
    def label(self) -> str:
        """The name, or a description such as ``"10x W1 Sv3+"`` when unnamed."""
        if self.name:
            return self.name
        inv = f" InSv{self.invuln}+" if self.invuln else ""
        return f"{self.count}x W{self.wounds} {_save_text(self.save)}{inv}"

    def feel_no_pain(self, mortal: bool = False) -> int | None:
        """The Feel No Pain rolled for a wound: against mortal wounds, the better of
        ``fnp`` and ``fnp_mortal``; None if there is none.

        Examples
        --------
        >>> ModelGroup(1, 4, 3, 2, fnp=6, fnp_mortal=5).feel_no_pain(mortal=True)
        5
        """
        if not mortal:
            return self.fnp
        return best_roll(self.fnp, self.fnp_mortal)

    @cached_property
    def total_wounds(self) -> int:
        """Wounds the group has left: the sum over its models."""
        return self.count * self.wounds - self.wounds_lost


def _check_character_alone(group: ModelGroup) -> None:
    """Check that a CHARACTER group holds one model: each is its own allocation group."""
    if group.character and group.count != 1:
        raise field_error(
            ProfileError,
            "ModelGroup.count",
            "1 for a CHARACTER group",
            group.count,
            "each CHARACTER model is its own allocation group",
        )


def _toughness_while(toughness_while: object) -> ToughnessWhile | None:
    """``ModelGroup.toughness_while`` checked: a :class:`ToughnessWhile` or None."""
    if toughness_while is not None and not isinstance(toughness_while, ToughnessWhile):
        raise field_error(
            ProfileError, "ModelGroup.toughness_while", "a ToughnessWhile or None",
            toughness_while, "e.g. ToughnessWhile(2, ('Gretchin',))",
        )  # fmt: skip
    return toughness_while


def _save_text(save: int) -> str:
    """Sv as a profile prints it: ``"Sv3+"``, or ``"Sv-"`` for no save."""
    return "Sv-" if save >= NO_SAVE else f"Sv{save}+"


def group_named(models: str, group: ModelGroup) -> bool:
    """True if ``models`` (an :attr:`Effect.models`) names the models of ``group``: every
    group for ``""``, the CHARACTER groups for ``"character"``, else by its name."""
    if not models:
        return True
    if models == "character":
        return group.character
    return models in " ".join(group.label.split()).lower()


@hash_once
@dataclass(frozen=True, init=False)
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
    groups : ModelGroup or sequence of ModelGroup
        The allocation groups, in allocation order; stored as a tuple.
    keywords : str or sequence of str
        E.g. ``"INFANTRY, IMPERIUM"``; keyword-restricted abilities read them. Stored
        as an upper-case tuple (:func:`~mathhammer.model.fields.normalise_keywords`).
    stealth : bool
        The unit has Stealth: the benefit of cover against ranged attacks.
    leadership : int or str, optional
        Ld, stored as the classic characteristic (the Panic Test passes on 2D6 <= Ld):
        ``8`` or ``"8"`` as classic datasheets print it, or ``"6+"`` as 11th-edition
        ones do, read as the characteristic with the same chance of passing (``"6+"``
        -> 8; :func:`~mathhammer.model.values.parse_leadership`). Only the classic
        ruleset reads it.
    worsen_ap : int
        Worsen the AP of every attack against the unit by this much (an armour-of-contempt
        style defence: AP -2 becomes AP -1 with 1; AP 0 stays 0). 0 to 6; only the 11th
        edition reads it.
    reroll_saves : {"ones", "failures", "command"}, optional
        The unit re-rolls save rolls of 1, or failed saves (a failure judged against the
        model current when the dice are rolled; docs/rules.md §4.7, D29), or (a command
        re-roll) the first save of each pool that fails as it is resolved (D33). Only the
        11th edition reads it.
    rules : sequence of Ability
        The unit's own rules on the attacks that target it, as typed abilities
        (:class:`~mathhammer.model.effects.EffectRule` of the defence side: -1 to wound
        rolls, -1 D against ranged attacks, a 5+ invulnerable save while riled up...),
        each applied to a pool when its conditions hold. Only the 11th edition reads them.
        These are the unit's own abilities, not the ruleset (that is the ``rules=`` of
        :func:`mathhammer.attack`).

    Examples
    --------
    >>> guard = ModelGroup(4, toughness=4, save=3, wounds=2, name="Bodyguard")
    >>> boss = ModelGroup(1, toughness=4, save=2, wounds=5, character=True, name="Captain")
    >>> unit = Unit("Command squad", [guard, boss], keywords="INFANTRY")
    >>> unit.models, unit.total_wounds, unit.toughness
    (5, 13, 4)
    >>> unit
    Unit('Command squad', 5 models: Bodyguard 4x T4 Sv3+ W2 + Captain 1x T4 Sv2+ W5 CHARACTER)
    >>> Unit("Bad", [boss, guard])
    Traceback (most recent call last):
    ...
    mathhammer.errors.AllocationOrderError: Unit.groups must put every non-CHARACTER group
    before the CHARACTER groups; got CHARACTER group 'Captain' at position 1 before ...
    """

    hashed = HASHED  # the value as a part of a cache key (core.frozen.HASHED)

    name: str
    groups: tuple[ModelGroup, ...]
    keywords: tuple[str, ...]
    stealth: bool
    leadership: int | None
    worsen_ap: int
    reroll_saves: str | None
    rules: tuple[Ability, ...]

    def __init__(
        self,
        name: str,
        groups: ModelGroup | Iterable[ModelGroup],
        keywords: str | Iterable[str] = (),
        stealth: bool = False,
        leadership: RollInput | None = None,
        worsen_ap: int = 0,
        reroll_saves: str | None = None,
        rules: Iterable[Ability] = (),
    ) -> None:
        name = text_field("Unit", "name", name)
        checked = _groups(groups)
        if leadership is not None:
            leadership = parse_leadership(leadership, "Unit.leadership")
        check_allocation_order(checked)
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "groups", checked)
        object.__setattr__(self, "keywords", normalise_keywords(keywords))
        object.__setattr__(self, "stealth", flag_field("Unit", "stealth", stealth))
        object.__setattr__(self, "leadership", leadership)
        object.__setattr__(self, "worsen_ap", int_field("Unit", "worsen_ap", worsen_ap, 0, 6))
        object.__setattr__(self, "reroll_saves", _reroll_saves(reroll_saves))
        object.__setattr__(self, "rules", _rules(rules))

    @classmethod
    def of(
        cls,
        name: str,
        models: int,
        toughness: int,
        save: RollInput,
        wounds: int,
        invuln: RollInput | None = None,
        fnp: RollInput | None = None,
        keywords: str | Iterable[str] = (),
        *,
        stealth: bool = False,
        leadership: RollInput | None = None,
    ) -> Unit:
        """A unit of identical models: the common case in one call.

        The parameters are those of :class:`ModelGroup` and :class:`Unit` that most
        datasheets print. The rarer rules of the models (damage reduction, halved damage,
        Feel No Pain against mortal wounds) and of the unit (worsened AP, re-rolled saves,
        its own rules) are given to :class:`ModelGroup` and :class:`Unit` themselves; a
        single group needs no list: ``Unit(name, ModelGroup(...), worsen_ap=1)``.

        Examples
        --------
        >>> Unit.of("Intercessors", models=5, toughness=4, save="3+", wounds=2)
        Unit('Intercessors', 5 models: 5x T4 Sv3+ W2)
        >>> Unit("Terminators", ModelGroup(5, 5, "2+", 3, invuln="4+"), reroll_saves="ones")
        Unit('Terminators', 5 models: 5x T5 Sv2+ W3 InSv4+, re-rolls save rolls of 1)
        """
        group = ModelGroup(models, toughness, save, wounds, invuln=invuln, fnp=fnp)
        return cls(name, (group,), keywords, stealth=stealth, leadership=leadership)

    def __repr__(self) -> str:
        groups = " + ".join((f"{g.name} " if g.name else "") + g.profile_text for g in self.groups)
        models = self.models
        defence = self._defence_text()
        return f"Unit({self.name!r}, {models} model{'s' if models > 1 else ''}: {groups}{defence})"

    def _defence_text(self) -> str:
        """What the unit's defence adds to its repr: worsened AP, re-rolled saves, rules."""
        defence = f", AP worsened by {self.worsen_ap}" if self.worsen_ap else ""
        if self.reroll_saves is not None:
            defence += f", re-rolls {SAVE_REROLLS[self.reroll_saves]}"
        if self.rules:
            defence += f", rules: {'; '.join(str(r) for r in self.rules)}"
        return defence

    @once
    def groups_key(self) -> HashedKey:
        """The groups as a part of a cache key, hashed once: the caches of what the groups
        alone decide (a one-group unit's line, the damage and saves per group) look them
        up for every pool (BATCH-compare, as :data:`~mathhammer.core.frozen.HASHED`)."""
        return HashedKey(self.groups)

    @cached_property
    def models(self) -> int:
        """The number of models in the unit."""
        return sum(g.count for g in self.groups)

    @cached_property
    def total_wounds(self) -> int:
        """The wounds the unit has left."""
        total = 0
        for g in self.groups:
            total += g.count * g.wounds - g.wounds_lost
        return total

    @cached_property
    def toughness(self) -> int:
        """The unit's T: the highest T among its non-CHARACTER models (all models if none)."""
        return unit_toughness(self.groups)

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


def unit_toughness(groups: Sequence[ModelGroup]) -> int:
    """The T of a unit of these groups (docs/rules.md D21): the highest T among its
    non-CHARACTER models, or among its CHARACTERs when it has no other model; each group's
    T as its rule gives it while the other groups stand (``toughness_while``, D40).

    Examples
    --------
    >>> guard = ModelGroup(3, toughness=4, save=3, wounds=2)
    >>> boss = ModelGroup(1, toughness=6, save=2, wounds=5, character=True)
    >>> unit_toughness([guard, boss]), unit_toughness([boss])
    (4, 6)
    """
    labels = {g.label.casefold() for g in groups}
    bodies = [g.toughness_among(labels) for g in groups if not g.character]
    return max(bodies or [g.toughness_among(labels) for g in groups])


def _groups(groups: ModelGroup | Iterable[ModelGroup]) -> tuple[ModelGroup, ...]:
    """``Unit.groups`` checked: one ModelGroup or a non-empty sequence of them, as a tuple."""
    if isinstance(groups, ModelGroup):
        return (groups,)
    try:
        checked = tuple(groups)
    except TypeError:
        raise field_error(ProfileError, "Unit.groups", "a sequence of ModelGroup", groups) from None
    if not checked:
        raise field_error(ProfileError, "Unit.groups", "at least one ModelGroup", groups)
    return _all_of(checked, ModelGroup, "Unit.groups", "ModelGroup objects")


def _reroll_saves(reroll_saves: object) -> str | None:
    """``Unit.reroll_saves`` checked: None or a name of :data:`SAVE_REROLLS`."""
    if reroll_saves is not None and (
        not isinstance(reroll_saves, str) or reroll_saves not in SAVE_REROLLS
    ):  # a name, looked up only then (an unhashable value cannot be)
        raise field_error(
            ProfileError,
            "Unit.reroll_saves",
            "'ones', 'failures', 'command' or None",
            reroll_saves,
        )
    return reroll_saves


def _rules(rules: Iterable[Ability]) -> tuple[Ability, ...]:
    """``Unit.rules`` checked: a sequence of typed abilities, as a tuple."""
    if isinstance(rules, Ability) or not isinstance(rules, Iterable):
        raise field_error(ProfileError, "Unit.rules", "a sequence of abilities", rules)
    return _all_of(tuple(rules), Ability, "Unit.rules", "typed abilities")


def _all_of(items: tuple[T, ...], kind: type[T], field: str, what: str) -> tuple[T, ...]:
    """The items, checked to be all of ``kind``: else the first other one is refused as
    not being ``what`` the field holds."""
    for item in items:
        if not isinstance(item, kind):
            raise field_error(ProfileError, field, what, item)
    return items
