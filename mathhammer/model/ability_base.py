"""The base of the typed weapon abilities: the ability interface and its registry.

Every ability is a frozen dataclass; defining a subclass with a ``NAME`` registers it (see
:func:`ability_classes`), so the text parser in :mod:`mathhammer.model.ability_text` reads
it and both engines apply it. The core abilities are in :mod:`mathhammer.model.abilities`.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar, Self

from ..core.dice import Dice, parse_dice
from ..errors import DiceSyntaxError, ProfileError, field_error
from .fields import check_int, phrases_field, read_dice

if TYPE_CHECKING:
    from .draft import PoolDraft, Situation

__all__ = [
    "MAX_NUMBERED",
    "NO_EFFECT",
    "Ability",
    "DiceValuedAbility",
    "NumberedAbility",
    "ability_classes",
    "alternatives",
    "choose",
    "value_text",
]

#: Abilities with no effect on the attack maths (weapon-selection rules only).
NO_EFFECT = frozenset({"ASSAULT", "PISTOL", "CLOSE-QUARTERS", "PSYCHIC", "ONE SHOT"})

#: The largest number a numbered ability ([BLAST 2], [CLEAVE 1]) takes: far beyond any
#: datasheet, and beyond the attack dice the exact engine handles.
MAX_NUMBERED = 1_000_000

#: Every ability class with a printed name, in the order defined.
_REGISTRY: dict[str, type[Ability]] = {}


def ability_classes() -> tuple[type[Ability], ...]:
    """The registered ability classes, in the order they were defined.

    Examples
    --------
    >>> [cls.NAME for cls in ability_classes()][:3]
    ['SUSTAINED HITS', 'LETHAL HITS', 'DEVASTATING WOUNDS']
    """
    return tuple(_REGISTRY.values())


def _keywords(keywords: object, owner: str) -> tuple[str, ...]:
    """An ability's keyword restriction checked: upper case, single spaces."""
    return phrases_field(
        f"{owner}.keywords",
        keywords,
        "a tuple of keywords",
        "e.g. ('VEHICLE',)",
        "non-empty strings",
    )


@dataclass(frozen=True)
class Ability:
    """Base of the typed abilities. ``keywords`` restricts it to targets with one of them.

    A subclass sets ``NAME`` (the printed name, e.g. ``"SUSTAINED HITS"``) and overrides
    what it changes: :meth:`apply` (default: nothing), :meth:`effective` (default: always)
    and, for a printed form other than the bare name, :meth:`parse`.
    """

    keywords: tuple[str, ...] = field(default=(), kw_only=True)

    #: The printed name, e.g. "SUSTAINED HITS".
    NAME: ClassVar[str] = ""
    #: False for abilities that only govern weapon selection.
    CHANGES_ATTACK: ClassVar[bool] = True
    #: False for what is not printed among the weapon's abilities: a unit's rule acting
    #: on the weapon (:class:`~mathhammer.model.effects.EffectRule`).
    PRINTED: ClassVar[bool] = True

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        name = cls.__dict__.get("NAME")
        if not name:
            return
        known = _REGISTRY.get(name)
        if known is not None and known.__qualname__ != cls.__qualname__:
            raise ProfileError(f"ability {name!r} is already defined by {known.__qualname__}")
        _REGISTRY[name] = cls

    def __post_init__(self) -> None:
        object.__setattr__(self, "keywords", _keywords(self.keywords, type(self).__name__))

    @classmethod
    def parse(cls, body: str, keywords: tuple[str, ...]) -> Ability | None:
        """The ability printed as ``body`` (upper case, no brackets), or None if not this one.

        The default reads the bare name: ``"LETHAL HITS"``.
        """
        return cls(keywords=keywords) if body == cls.NAME else None

    @property
    def kind(self) -> str:
        """Instances of one kind are duplicates of each other (only one applies)."""
        return self.NAME

    def applies_to(self, target_keywords: Iterable[str]) -> bool:
        """True if the ability applies against a target with these keywords: one of them,
        and none of those it excludes. ``NON-`` before the first keyword excludes every
        keyword of the list (``[LETHAL HITS: NON-MONSTER/VEHICLE]``: against a target that
        is neither), before a later one that one only (docs/rules.md D36).

        Examples
        --------
        >>> from mathhammer.model.abilities import LethalHits
        >>> lethal = LethalHits(keywords=("NON-MONSTER", "VEHICLE"))
        >>> [lethal.applies_to(k) for k in (["INFANTRY"], ["VEHICLE"], ["MONSTER", "TITANIC"])]
        [True, False, False]
        """
        if not self.keywords:
            return True
        have = {k.upper() for k in target_keywords}
        wanted, excluded = self._wanted_and_excluded()
        if not have.isdisjoint(excluded):
            return False
        return not wanted or not have.isdisjoint(wanted)

    def _wanted_and_excluded(self) -> tuple[list[str], list[str]]:
        """The keywords split: those a target needs one of, and those (``NON-`` removed) it
        must have none of; ``NON-`` before the first keyword excludes them all."""
        every = self.keywords[0].startswith("NON-")
        wanted: list[str] = []
        excluded: list[str] = []
        for keyword in self.keywords:
            if every or keyword.startswith("NON-"):
                excluded.append(keyword.removeprefix("NON-"))
            else:
                wanted.append(keyword)
        return wanted, excluded

    def strength(self) -> tuple[float, ...]:
        """Larger is better, for choosing among duplicates."""
        return ()

    def effective(self, situation: Situation) -> bool:
        """True if the ability changes this attack in this situation (listed as used)."""
        return self.CHANGES_ATTACK

    def apply(self, draft: PoolDraft, situation: Situation) -> None:
        """Change the pool's numbers; called only when :meth:`effective`."""

    def _suffix(self) -> str:
        return f": {'/'.join(self.keywords)}" if self.keywords else ""

    def __str__(self) -> str:
        return f"[{self.NAME}{self._suffix()}]"


def value_text(cls: type[Ability], body: str) -> str | None:
    """The text after the ability's name, ``"1"`` when nothing follows it."""
    if not body.startswith(cls.NAME):
        return None
    return body[len(cls.NAME) :].strip() or "1"


@dataclass(frozen=True)
class DiceValuedAbility(Ability):
    """An ability with a number or dice after its name: ``[SUSTAINED HITS D3]``."""

    value: Dice = field(default_factory=lambda: parse_dice(1))

    def __post_init__(self) -> None:
        super().__post_init__()
        name = f"{type(self).__name__}.value"
        dice = read_dice(self.value, name)
        if dice.min < 1:  # [SUSTAINED HITS 0] would be printed as an ability doing nothing
            raise field_error(ProfileError, name, "at least 1 on every roll", dice.text)
        object.__setattr__(self, "value", dice)

    @classmethod
    def of(cls, value: Dice | int | str = 1, *, keywords: Iterable[str] = ()) -> Self:
        """The ability with its value read from an int or a dice expression.

        Examples
        --------
        >>> from mathhammer.model.abilities import Melta, SustainedHits
        >>> SustainedHits.of("D3").value.max
        3
        >>> str(Melta.of(2, keywords=["VEHICLE"]))
        '[MELTA 2: VEHICLE]'
        """
        name = cls.__name__
        return cls(value=read_dice(value, f"{name}.value"), keywords=_keywords(keywords, name))

    @classmethod
    def parse(cls, body: str, keywords: tuple[str, ...]) -> Ability | None:
        text = value_text(cls, body)
        if text is None or not text.isascii():  # "٣" and "３" are not digits here
            return None
        try:
            dice = read_dice(text, f"{cls.__name__}.value")
        except DiceSyntaxError:
            return None
        return cls(value=dice, keywords=keywords) if dice.min >= 1 else None

    def strength(self) -> tuple[float, ...]:
        return (self.value.mean, self.value.max)

    def __str__(self) -> str:
        return f"[{self.NAME} {self.value.text}{self._suffix()}]"


@dataclass(frozen=True)
class NumberedAbility(Ability):
    """An ability with a whole number after its name: ``[BLAST 2]``."""

    value: int = 1

    def __post_init__(self) -> None:
        super().__post_init__()
        name = f"{type(self).__name__}.value"
        value = check_int(name, self.value, 1)
        if value > MAX_NUMBERED:
            raise field_error(ProfileError, name, f"at most {MAX_NUMBERED:,}", self.value)
        object.__setattr__(self, "value", value)

    @classmethod
    def parse(cls, body: str, keywords: tuple[str, ...]) -> Ability | None:
        text = value_text(cls, body)
        if text is None or not text.isascii() or not text.isdigit():
            return None
        if len(text) > len(str(MAX_NUMBERED)):  # refused unread: it may be too long to read
            raise field_error(
                ProfileError, f"{cls.__name__}.value", f"at most {MAX_NUMBERED:,}", text
            )
        return cls(value=int(text), keywords=keywords) if int(text) >= 1 else None

    def strength(self) -> tuple[float, ...]:
        return (self.value,)

    def __str__(self) -> str:
        return f"[{self.NAME} {self.value}{self._suffix()}]"


def choose(abilities: Iterable[Ability], target_keywords: Iterable[str]) -> tuple[Ability, ...]:
    """The abilities that apply against the target: the best instance of each kind.

    Duplicates are not cumulative: of several instances of one kind that apply, the
    strongest is kept (for equal means, the one with the higher maximum). The order is
    the order in which each kind was first printed.

    Examples
    --------
    >>> from mathhammer.model.ability_text import parse_abilities
    >>> found, _ = parse_abilities("ANTI-VEHICLE 4+, ANTI-INFANTRY 2+, SUSTAINED HITS 1, "
    ...                            "SUSTAINED HITS 2: VEHICLE")
    >>> [str(a) for a in choose(found, ["INFANTRY"])]
    ['[ANTI-INFANTRY 2+]', '[SUSTAINED HITS 1]']
    """
    keywords = tuple(target_keywords)
    best: dict[str, Ability] = {}
    for ability in abilities:
        if not ability.applies_to(keywords):
            continue
        kind = ability.kind  # a property: read once
        current = best.get(kind)
        if current is None or ability.strength() > current.strength():
            best[kind] = ability
    return tuple(best.values())


def alternatives(
    abilities: Iterable[Ability], target_keywords: Iterable[str]
) -> list[tuple[Ability, ...]]:
    """Every choice of one instance per kind among the abilities that apply against the
    target: what the controlling player may select (docs/rules.md §3.2, D15). The first is
    :func:`choose`'s; within a kind, instances are tried strongest first.

    Examples
    --------
    >>> from mathhammer.model.ability_text import parse_abilities
    >>> found, _ = parse_abilities("SUSTAINED HITS D3, SUSTAINED HITS 2, LETHAL HITS")
    >>> [[str(a) for a in option] for option in alternatives(found, [])]
    [['[SUSTAINED HITS D3]', '[LETHAL HITS]'], ['[SUSTAINED HITS 2]', '[LETHAL HITS]']]
    """
    keywords = tuple(target_keywords)
    kinds: dict[str, list[Ability]] = {}
    for ability in abilities:
        if ability.applies_to(keywords):
            found = kinds.setdefault(ability.kind, [])
            if ability not in found:
                found.append(ability)
    ranked = [sorted(group, key=lambda a: a.strength(), reverse=True) for group in kinds.values()]
    return [tuple(option) for option in itertools.product(*ranked)]
