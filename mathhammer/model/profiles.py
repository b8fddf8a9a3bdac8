"""Weapon profiles, and the target profiles re-exported from :mod:`mathhammer.model.unit`.

Thresholds are ints meaning "N+" (``skill=3`` is BS 3+; ``skill="3+"`` and
``skill="3"`` are read as 3 by :mod:`mathhammer.model.values`); AP is stored as printed
(``ap=-1``); attacks and damage take an int or a dice expression (``"D6+1"``) and are
stored as :class:`~mathhammer.core.dice.Dice`. Every invalid field raises
:class:`~mathhammer.errors.ProfileError`, which is also a ``ValueError``, worded
``"<field> must be <constraint>; got <value>"``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property, partial
from typing import Any

import numpy as np

from ..core.dice import Dice
from ..core.frozen import hash_once
from ..errors import ProfileError, field_error
from .abilities import Ability, Torrent
from .ability_text import parse_abilities, warn_unknown
from .context import Context, Modifiers, default_context, default_modifiers
from .fields import dice_field, flag_field, int_field, normalise_keywords, text_field
from .unit import ModelGroup, Unit
from .values import RollInput, parse_bs, parse_skill

__all__ = [
    "MIN_AP",
    "AbilityInput",
    "ModelGroup",
    "Unit",
    "Weapon",
    "normalise_keywords",
]

#: The lowest AP a weapon takes (as :class:`~mathhammer.model.context.Modifiers` ``ap``).
MIN_AP = -20

#: What ``Weapon(abilities=...)`` accepts: printed text, one typed ability, or a sequence
#: of tokens and typed abilities.
AbilityInput = str | Ability | Iterable[str | Ability]


@hash_once
@dataclass(frozen=True, init=False)
class Weapon:
    """One weapon profile.

    Parameters
    ----------
    name : str
        For display only; it never affects pooling.
    attacks : int, str or Dice
        The A characteristic: ``2`` or a dice expression such as ``"D6"`` (rolled per
        weapon); stored as :class:`~mathhammer.core.dice.Dice`.
    skill : int or str
        11th edition: BS or WS as "N+": ``3``, ``"3"`` or ``"3+"`` mean 3+, from 2 to 6;
        ``"N/A"`` (or ``"-"``) for a [TORRENT] weapon, which hits without a roll (stored
        as 2, never rolled). See :mod:`mathhammer.model.values`.
    strength : int, str or Dice
        S, at least 1; a random Strength such as the Zzap gun's ``"2D6"`` is a
        :class:`~mathhammer.core.dice.Dice`, rolled for each attack (docs/rules.md D42).
    ap : int
        AP as printed: ``0``, ``-1``, ``-2`` ..., down to ``-20`` (:data:`MIN_AP`).
    damage : int, str or Dice
        The D characteristic: ``1`` or a dice expression such as ``"D3+1"`` (rolled per
        attack); stored as :class:`~mathhammer.core.dice.Dice`.
    abilities : str, Ability or sequence
        Ability text as printed, e.g. ``"[ASSAULT], [HEAVY]"``, or a list of tokens or
        typed abilities (``[mh.abilities.SustainedHits.of(1)]``). Stored as a tuple of
        typed abilities; tokens that are not core weapon abilities warn once and are
        kept in ``unknown_abilities``.
    bs : int or str
        The classic ruleset's Ballistic Skill *characteristic*, from 1 to 10 (BS 4 hits
        on 3+), given instead of ``skill``.
    melee : bool
        A melee weapon (used when fighting); ranged by default.
    modifiers, context : Modifiers, Context, optional
        A buff on these attacks only, such as a leader's on the models of the unit it
        joined (docs/rules.md §2.4): combined with the attack's own (:meth:`Modifiers.combined
        <mathhammer.model.context.Modifiers.combined>`, :meth:`Context.combined
        <mathhammer.model.context.Context.combined>`). Attacks that differ only by a buff
        are separate pools. :meth:`buffed` makes the buffed copy of a weapon.

    Examples
    --------
    >>> w = Weapon("Bolt rifle", attacks=2, skill="3+", strength=4, ap=-1, damage=1)
    >>> w
    Weapon('Bolt rifle', A2 BS3+ S4 AP-1 D=1)
    >>> w.skill, w.attacks.text, w.damage.mean
    (3, '2', 1)
    >>> Weapon("x", attacks=1, skill=7, strength=4, ap=0, damage=1)
    Traceback (most recent call last):
    ...
    mathhammer.errors.ProfileError: Weapon.skill must be an integer from 2 to 6; got 7
    >>> Weapon("Lasgun", attacks=1, bs=3, strength=3).bs  # a classic-ruleset weapon
    3
    """

    name: str
    attacks: Dice
    skill: int | None
    strength: int | Dice
    ap: int
    damage: Dice
    abilities: tuple[Ability, ...]
    bs: int | None
    melee: bool
    unknown_abilities: tuple[str, ...] = field(init=False, compare=False)
    modifiers: Modifiers | None = None
    context: Context | None = None

    def __init__(
        self,
        name: str,
        attacks: Dice | int | str,
        skill: RollInput | None = None,
        strength: int | str | Dice | None = None,
        ap: int = 0,
        damage: Dice | int | str = 1,
        abilities: AbilityInput = (),
        bs: RollInput | None = None,
        melee: bool = False,
        modifiers: Modifiers | None = None,
        context: Context | None = None,
    ) -> None:
        set_field = partial(object.__setattr__, self)
        set_field("name", text_field("Weapon", "name", name))
        set_field("attacks", dice_field("Weapon", "attacks", attacks, 1))
        found, unknown = _abilities(abilities)
        skill, bs = _skills(skill, bs, found)
        set_field("skill", skill)
        set_field("bs", bs)
        set_field("melee", flag_field("Weapon", "melee", melee))
        set_field("strength", _strength(strength))
        set_field("ap", _ap(ap))
        set_field("damage", dice_field("Weapon", "damage", damage, 1))
        set_field("abilities", found)
        set_field("unknown_abilities", unknown)
        modifiers, context = _buff(modifiers, context)
        set_field("modifiers", modifiers)
        set_field("context", context)
        warn_unknown(name, unknown)

    def __repr__(self) -> str:
        return f"Weapon({self.name!r}, {self.profile_text})"

    @property
    def profile_text(self) -> str:
        """The profile in one line, as a datasheet abbreviates it; a value that is not a
        number is set off by ``=`` (``A=D6``), so no letters run together, and so is the
        Damage always (``D=6``, ``D=D6+1``): "D6" would read as a roll.

        Examples
        --------
        >>> Weapon("Power fist", 3, skill="3+", strength=8, ap=-2, damage=2, melee=True)
        Weapon('Power fist', A3 WS3+ S8 AP-2 D=2, melee)
        >>> Weapon("Flamer", "D6", skill="N/A", strength=4, abilities="[TORRENT]").profile_text
        'A=D6 BS=N/A S4 AP0 D=1 [TORRENT]'
        """
        stats = (
            ("A", self.attacks.text),
            ("WS" if self.melee else "BS", self._skill_text()),
            ("S", str(self.strength)),
            ("AP", str(self.ap)),
            ("D", self.damage.text),
        )
        return " ".join(_stat(label, value) for label, value in stats) + self._notes()

    def _skill_text(self) -> str:
        """The BS/WS as printed: the classic characteristic, N/A for a [TORRENT] weapon, or
        the roll ``N+``."""
        if self.bs is not None:
            return str(self.bs)
        if _has_torrent(self.abilities):
            return "N/A"
        return f"{self.skill}+"

    def _notes(self) -> str:
        """What :attr:`profile_text` adds after the characteristics: the abilities, the
        rules, the unknown tokens, the buff, and melee."""
        notes = (  # each shown where it holds
            (self.abilities_text, f" {self.abilities_text}"),
            (self.rules_text, f", rules: {self.rules_text}"),
            (self.unknown_abilities, f", unknown {list(self.unknown_abilities)!r}"),
            (self._buffed, f", buffed: {self.buff_text}"),
            (self.melee, ", melee"),
        )
        return "".join(text for shown, text in notes if shown)

    @property
    def _buffed(self) -> bool:
        """True if the weapon carries a buff of its own (:meth:`buffed`)."""
        return self.modifiers is not None or self.context is not None

    @property
    def buff_text(self) -> str:
        """What the weapon's buff changes, e.g. ``"hit +1, reroll_wounds ones"`` ("" for
        none).

        Examples
        --------
        >>> from mathhammer.model.context import Context, Modifiers
        >>> gun = Weapon("Gun", 2, 3, 4).buffed(Modifiers(hit=1), Context(half_range=True))
        >>> gun.buff_text
        'hit +1, half_range'
        """
        parts = [] if self.modifiers is None else self.modifiers.changes()
        parts += [] if self.context is None else self.context.changes()
        return ", ".join(parts)

    def buffed(self, modifiers: Modifiers | None = None, context: Context | None = None) -> Weapon:
        """This weapon with a buff on its attacks alone, added to any it has.

        Examples
        --------
        >>> from mathhammer.model.context import Modifiers
        >>> gun = Weapon("Gun", 2, 3, 4)
        >>> gun.buffed(Modifiers(hit=1)).pool_key == gun.pool_key  # separate pools
        False
        """
        _check_buff(modifiers, context, "")
        mods = self.modifiers if modifiers is None else modifiers.combined(self.modifiers)
        ctx = self.context if context is None else context.combined(self.context)
        return self.replace(modifiers=mods, context=ctx)

    def replace(self, **changes: Any) -> Weapon:
        """A copy with some fields changed, read as the constructor reads them.

        Examples
        --------
        >>> w = Weapon("Bolt rifle", attacks=2, skill=3, strength=4, ap=-1, damage=1)
        >>> w.replace(attacks="D3", abilities="[HEAVY]").abilities_text
        '[HEAVY]'
        """
        return dataclasses.replace(self, **changes)

    @property
    def abilities_text(self) -> str:
        """The abilities as printed, e.g. ``"[ASSAULT], [HEAVY]"`` (not the unit's rules
        that act on the weapon: :attr:`rules_text`)."""
        return ", ".join(str(a) for a in self.abilities if a.PRINTED)

    @property
    def rules_text(self) -> str:
        """The unit's rules that act on the weapon's attacks (docs/rules.md D37), e.g.
        ``"Sumfin' to Prove (melee: +1 to hit)"``; "" for none."""
        return "; ".join(str(a) for a in self.abilities if not a.PRINTED)

    @cached_property
    def has_duplicated_abilities(self) -> bool:
        """Whether the weapon carries two instances of one kind of ability, of which one
        applies against a target (docs/rules.md, section 3.2 and D15).

        Examples
        --------
        >>> gun = Weapon("Gun", 1, 3, 4, abilities="[SUSTAINED HITS 1], [SUSTAINED HITS 2]")
        >>> gun.has_duplicated_abilities, Weapon("Gun", 1, 3, 4).has_duplicated_abilities
        (True, False)
        """
        kinds = [a.kind for a in self.abilities]
        return len(kinds) != len(set(kinds))

    @cached_property
    def pool_key(self) -> tuple[Any, ...]:
        """What makes two attacks identical: BS/WS, S, AP, D and the abilities.

        The name and the attacks characteristic are not part of it (docs/rules.md §2.4,
        D10); a buff on the attacks (:meth:`buffed`) is. Made once per weapon.
        """
        abilities = tuple(sorted(str(a) for a in self.abilities))
        # dice as their own hashed keys (core.frozen.HASHED): a key made of this one
        # hashes them from C (the pools' keys, the attack's value key)
        strength = getattr(self.strength, "hashed", self.strength)  # an int stands as it is
        profile = (self.skill, self.bs, self.melee, strength, self.ap, self.damage.hashed)
        if not self._buffed:
            return (*profile, abilities)
        return (*profile, abilities, self.modifiers, self.context)


#: The most values a random Strength may take (2D6 takes 11; 3D6+3, 16).
MAX_STRENGTH_VALUES = 64


def _strength(value: Any) -> int | Dice:
    """``Weapon.strength``: an int, or a :class:`Dice` when it is random (D42).

    >>> _strength(4), _strength("2D6")
    (4, Dice('2D6'))
    """
    if isinstance(value, str | Dice):
        dice = dice_field("Weapon", "strength", value, 1)
        if dice.is_constant:
            return dice.min
        if dice.max - dice.min + 1 > MAX_STRENGTH_VALUES:
            raise field_error(
                ProfileError, "Weapon.strength",
                f"a random Strength of at most {MAX_STRENGTH_VALUES} values", dice.text,
            )  # fmt: skip
        return dice
    return int_field("Weapon", "strength", value, 1)


def _abilities(abilities: AbilityInput) -> tuple[tuple[Ability, ...], tuple[str, ...]]:
    """``Weapon.abilities`` read: the typed abilities, and the tokens that are none."""
    if isinstance(abilities, Ability):
        abilities = (abilities,)
    if not isinstance(abilities, str | Iterable):
        raise field_error(
            ProfileError, "Weapon.abilities", "a string or a list of abilities", abilities
        )
    return parse_abilities(abilities)


def _has_torrent(abilities: Iterable[Ability]) -> bool:
    """True if the abilities include [TORRENT]: the weapon hits without a roll."""
    return any(isinstance(a, Torrent) for a in abilities)


def _skills(
    skill: RollInput | None, bs: RollInput | None, abilities: tuple[Ability, ...]
) -> tuple[int | None, int | None]:
    """``Weapon.skill`` and ``Weapon.bs`` read: a weapon has one skill, ``skill=`` (11th
    edition; ``"N/A"`` for a [TORRENT] weapon) or ``bs=`` (classic), and the other is None."""
    if skill is not None and bs is not None:
        raise ProfileError(
            "Weapon takes skill= (11th edition) or bs= (classic), not both; "
            f"got skill={skill!r} and bs={bs!r}"
        )
    if skill is not None:
        return parse_skill(skill, _has_torrent(abilities), "Weapon.skill"), None
    if bs is not None:
        return None, parse_bs(bs, "Weapon.bs")
    raise ProfileError(
        "Weapon needs skill= (11th edition BS/WS as N+, 2 to 6) or bs= (the classic "
        "Ballistic Skill characteristic, 1 to 10); got neither"
    )


def _ap(value: Any) -> int:
    """``Weapon.ap``: as printed, from :data:`MIN_AP` to 0."""
    if _positive_int(value):
        raise field_error(
            ProfileError, "Weapon.ap", "an integer <= 0", value, f"AP is as printed: {-value}"
        )
    ap = int_field("Weapon", "ap", value, high=0)
    if ap < MIN_AP:  # no save survives AP-6; far beyond, the numbers overflow
        raise field_error(ProfileError, "Weapon.ap", f"an integer from {MIN_AP} to 0", value)
    return ap


def _positive_int(value: Any) -> bool:
    """True for an integer above 0: an AP written without its minus sign."""
    return bool(isinstance(value, int | np.integer) and not isinstance(value, bool) and value > 0)


def _check_buff(modifiers: object, context: object, owner: str) -> None:
    """Check a buff: a Modifiers or None, and a Context or None (fields named ``owner``
    then the field)."""
    _check_optional(modifiers, Modifiers, f"{owner}modifiers", "a Modifiers or None")
    _check_optional(context, Context, f"{owner}context", "a Context or None")


def _check_optional(value: Any, kind: type, field: str, what: str) -> None:
    """Check that ``value`` is None or a ``kind``, else refuse it as not ``what``."""
    if value is not None and not isinstance(value, kind):
        raise field_error(ProfileError, field, what, value)


def _buff(
    modifiers: Modifiers | None, context: Context | None
) -> tuple[Modifiers | None, Context | None]:
    """``Weapon.modifiers`` and ``Weapon.context`` checked; a buff that changes nothing is
    no buff (None), so the weapon pools with the plain one."""
    _check_buff(modifiers, context, "Weapon.")
    modifiers = None if modifiers == default_modifiers() else modifiers
    context = None if context == default_context() else context
    return modifiers, context


def _stat(label: str, value: str) -> str:
    """``"S4"``, ``"AP-1"``, ``"BS3+"``; ``"A=D6"`` where letters would run together, and
    the Damage always as ``"D=6"``: to a player "D6" is a roll, not a 6."""
    if label == "D" or not (value[:1].isdigit() or value[:1] == "-"):
        return f"{label}={value}"
    return f"{label}{value}"
