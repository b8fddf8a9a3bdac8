"""Weapon abilities as types: what each one is, how it is printed, when and how it acts.

Every ability is a frozen dataclass that carries what it needs:

* its printed form: ``NAME`` and :meth:`Ability.parse`, which reads the token as
  datasheets print it (the text parser in :mod:`mathhammer.model.ability_text` asks every
  registered ability class in turn);
* when it is effective against a target in a situation: :meth:`Ability.effective`;
* which step of the attack it changes: :meth:`Ability.apply`, which edits the pool's
  :class:`~mathhammer.model.draft.PoolDraft` before a ruleset turns it into checks.

Defining a subclass with a ``NAME`` registers it, so an ability defined outside the package
is parsed from datasheet text and acts in both engines with no change here. Abilities that
only govern weapon selection (ASSAULT, PISTOL, ...) are :class:`NoEffect`; several instances
of one ability are not cumulative, and :func:`choose` keeps the best one that applies.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar, Self

from ..core.dice import Dice, parse_dice
from ..errors import DiceSyntaxError, ProfileError, field_error

if TYPE_CHECKING:
    from .draft import PoolDraft, Situation

__all__ = [
    "NO_EFFECT",
    "Ability",
    "Anti",
    "Blast",
    "Cleave",
    "DevastatingWounds",
    "DiceValuedAbility",
    "ExtraAttacks",
    "Hazardous",
    "Heavy",
    "IgnoresCover",
    "IndirectFire",
    "Lance",
    "LethalHits",
    "Linked",
    "Melta",
    "NoEffect",
    "NumberedAbility",
    "Precision",
    "RapidFire",
    "SustainedHits",
    "Torrent",
    "TwinLinked",
    "ability_classes",
    "choose",
]

#: Abilities with no effect on the attack maths (weapon-selection rules only).
NO_EFFECT = frozenset({"ASSAULT", "PISTOL", "CLOSE-QUARTERS", "PSYCHIC", "ONE SHOT"})

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
    if isinstance(keywords, str) or not isinstance(keywords, Iterable):
        raise field_error(
            ProfileError, f"{owner}.keywords", "a tuple of keywords", keywords, "e.g. ('VEHICLE',)"
        )
    out = []
    for word in keywords:
        if not isinstance(word, str) or not word.strip():
            raise field_error(ProfileError, f"{owner}.keywords", "non-empty strings", word)
        out.append(" ".join(word.split()).upper())
    return tuple(out)


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
        """True if the ability applies against a target with these keywords."""
        if not self.keywords:
            return True
        have = {k.upper() for k in target_keywords}
        return any(k in have for k in self.keywords)

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


def _value_text(cls: type[Ability], body: str) -> str | None:
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
        object.__setattr__(self, "value", parse_dice(self.value))

    @classmethod
    def of(cls, value: Dice | int | str = 1, *, keywords: Iterable[str] = ()) -> Self:
        """The ability with its value read from an int or a dice expression.

        Examples
        --------
        >>> SustainedHits.of("D3").value.max
        3
        >>> str(Melta.of(2, keywords=["VEHICLE"]))
        '[MELTA 2: VEHICLE]'
        """
        return cls(value=parse_dice(value), keywords=tuple(keywords))

    @classmethod
    def parse(cls, body: str, keywords: tuple[str, ...]) -> Ability | None:
        text = _value_text(cls, body)
        if text is None:
            return None
        try:
            dice = parse_dice(text)
        except DiceSyntaxError:
            return None
        return cls(value=dice, keywords=keywords) if dice.max >= 1 else None

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
        value = self.value
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise field_error(
                ProfileError, f"{type(self).__name__}.value", "an integer >= 1", value
            )

    @classmethod
    def parse(cls, body: str, keywords: tuple[str, ...]) -> Ability | None:
        text = _value_text(cls, body)
        if text is None or not text.isascii() or not text.isdigit() or int(text) < 1:
            return None
        return cls(value=int(text), keywords=keywords)

    def strength(self) -> tuple[float, ...]:
        return (self.value,)

    def __str__(self) -> str:
        return f"[{self.NAME} {self.value}{self._suffix()}]"


@dataclass(frozen=True)
class SustainedHits(DiceValuedAbility):
    """A Critical Hit scores X additional hits (X may be D3); the extra hits are not critical."""

    NAME = "SUSTAINED HITS"

    def effective(self, situation: Situation) -> bool:
        return not situation.has(Torrent)  # an automatic hit is never critical

    def apply(self, draft: PoolDraft, situation: Situation) -> None:
        draft.sustained = self.value


@dataclass(frozen=True)
class LethalHits(Ability):
    """A Critical Hit may wound automatically (the default choice; see ``Context``)."""

    NAME = "LETHAL HITS"

    def effective(self, situation: Situation) -> bool:
        return not situation.has(Torrent) and situation.context.lethal_hits == "auto"

    def apply(self, draft: PoolDraft, situation: Situation) -> None:
        draft.lethal = True


@dataclass(frozen=True)
class DevastatingWounds(Ability):
    """A Critical Wound skips saves; after the pool's damage it deals mortal wounds equal to D
    that can damage at most one model."""

    NAME = "DEVASTATING WOUNDS"

    def apply(self, draft: PoolDraft, situation: Situation) -> None:
        draft.devastating = True


_ANTI = re.compile(r"^ANTI-?\s*(.+?)\s+([2-6])\s*\+$")


@dataclass(frozen=True)
class Anti(Ability):
    """Against a target with the keyword, an unmodified wound roll >= X is a Critical Wound."""

    keyword: str = ""
    threshold: int = 6

    NAME = "ANTI"

    def __post_init__(self) -> None:
        super().__post_init__()
        if not isinstance(self.keyword, str):
            raise field_error(ProfileError, "Anti.keyword", "a keyword", self.keyword)
        object.__setattr__(self, "keyword", " ".join(self.keyword.split()).upper())
        if not self.keyword:
            raise field_error(ProfileError, "Anti.keyword", "a keyword", self.keyword)
        threshold = self.threshold
        if isinstance(threshold, bool) or not isinstance(threshold, int):
            raise field_error(ProfileError, "Anti.threshold", "an integer from 2 to 6", threshold)
        if not 2 <= threshold <= 6:
            raise field_error(ProfileError, "Anti.threshold", "from 2 to 6", threshold)

    @classmethod
    def parse(cls, body: str, keywords: tuple[str, ...]) -> Ability | None:
        m = _ANTI.match(body)
        if m is None:
            return None
        return cls(keyword=m.group(1), threshold=int(m.group(2)), keywords=keywords)

    def applies_to(self, target_keywords: Iterable[str]) -> bool:
        have = {k.upper() for k in target_keywords}
        return self.keyword in have and super().applies_to(have)

    def strength(self) -> tuple[float, ...]:
        return (-self.threshold,)

    def apply(self, draft: PoolDraft, situation: Situation) -> None:
        draft.critical_wound = min(draft.critical_wound, self.threshold)

    def __str__(self) -> str:
        return f"[ANTI-{self.keyword} {self.threshold}+{self._suffix()}]"


@dataclass(frozen=True)
class TwinLinked(Ability):
    """The wound roll may be re-rolled (what is re-rolled: ``Context.reroll_policy``)."""

    NAME = "TWIN-LINKED"

    def apply(self, draft: PoolDraft, situation: Situation) -> None:
        draft.reroll_wounds = _stronger_reroll(draft.reroll_wounds, situation.context.reroll_policy)


def _stronger_reroll(a: str | None, b: str | None) -> str | None:
    order = (None, "ones", "failures", "non_critical")
    return a if order.index(a) >= order.index(b) else b


@dataclass(frozen=True)
class Torrent(Ability):
    """Hits automatically; an automatic hit is not a Critical Hit."""

    NAME = "TORRENT"

    def apply(self, draft: PoolDraft, situation: Situation) -> None:
        draft.hits_automatically = True


@dataclass(frozen=True)
class Blast(NumberedAbility):
    """+X attack dice per full 5 models in the target unit (X = 1 when unnumbered)."""

    NAME = "BLAST"

    def apply(self, draft: PoolDraft, situation: Situation) -> None:
        draft.bonus_attacks.append(parse_dice(self.value * (situation.target.models // 5)))

    def __str__(self) -> str:
        return "[BLAST]" + self._suffix() if self.value == 1 else super().__str__()


@dataclass(frozen=True)
class Cleave(NumberedAbility):
    """Melee: +X attack dice per full 5 models if all the weapon's attacks target one unit."""

    NAME = "CLEAVE"

    def effective(self, situation: Situation) -> bool:
        return situation.melee and situation.context.single_target

    def apply(self, draft: PoolDraft, situation: Situation) -> None:
        draft.bonus_attacks.append(parse_dice(self.value * (situation.target.models // 5)))


@dataclass(frozen=True)
class RapidFire(DiceValuedAbility):
    """+X attack dice when the target is within half range."""

    NAME = "RAPID FIRE"

    def effective(self, situation: Situation) -> bool:
        return situation.context.half_range

    def apply(self, draft: PoolDraft, situation: Situation) -> None:
        draft.bonus_attacks.append(self.value)


@dataclass(frozen=True)
class Melta(DiceValuedAbility):
    """+X damage when the target is within half range."""

    NAME = "MELTA"

    def effective(self, situation: Situation) -> bool:
        return situation.context.half_range

    def apply(self, draft: PoolDraft, situation: Situation) -> None:
        draft.melta = self.value


@dataclass(frozen=True)
class Heavy(Ability):
    """+1 to hit if the unit is unengaged, was not set up this turn and moved no more than 3"."""

    NAME = "HEAVY"

    def effective(self, situation: Situation) -> bool:
        heavy = situation.context.heavy_eligible
        return not situation.melee and heavy and not situation.has(Torrent)

    def apply(self, draft: PoolDraft, situation: Situation) -> None:
        draft.hit_modifier += 1


@dataclass(frozen=True)
class Lance(Ability):
    """+1 to wound if the unit charged this turn."""

    NAME = "LANCE"

    def effective(self, situation: Situation) -> bool:
        return situation.context.charged

    def apply(self, draft: PoolDraft, situation: Situation) -> None:
        draft.wound_modifier += 1


@dataclass(frozen=True)
class IgnoresCover(Ability):
    """The target cannot have the benefit of cover."""

    NAME = "IGNORES COVER"

    def apply(self, draft: PoolDraft, situation: Situation) -> None:
        draft.ignores_cover = True


@dataclass(frozen=True)
class Precision(Ability):
    """The attacker may make a CHARACTER group the current allocation group."""

    NAME = "PRECISION"

    def effective(self, situation: Situation) -> bool:
        return any(g.character for g in situation.target.groups)

    def apply(self, draft: PoolDraft, situation: Situation) -> None:
        draft.precision = True


@dataclass(frozen=True)
class Hazardous(Ability):
    """After attacking, a failed hazard roll inflicts mortal wounds on the attacking unit."""

    NAME = "HAZARDOUS"

    def apply(self, draft: PoolDraft, situation: Situation) -> None:
        draft.hazardous = True


@dataclass(frozen=True)
class IndirectFire(Ability):
    """The target has cover, no hit re-rolls, and unmodified 1-5 fail (1-3 when spotted)."""

    NAME = "INDIRECT FIRE"

    def effective(self, situation: Situation) -> bool:
        return not situation.melee and not situation.has(Torrent)

    def apply(self, draft: PoolDraft, situation: Situation) -> None:
        context = situation.context
        draft.cover = True
        draft.reroll_hits = None
        draft.hit_fails_at_most = 3 if context.remained_stationary and context.spotted else 5


@dataclass(frozen=True)
class ExtraAttacks(Ability):
    """A melee weapon used in addition to the model's other one (a selection rule)."""

    NAME = "EXTRA ATTACKS"
    CHANGES_ATTACK = False


@dataclass(frozen=True)
class Linked(Ability):
    """Classic ruleset: re-roll every missed hit roll (hitting on the chart's first number).

    It has no effect under the 11th edition, where no core ability of that name exists.
    """

    NAME = "LINKED"
    CHANGES_ATTACK = False


@dataclass(frozen=True)
class NoEffect(Ability):
    """An ability with no effect on the attack maths: ASSAULT, PISTOL, CLOSE-QUARTERS, ..."""

    name: str = ""

    NAME = "NO EFFECT"
    CHANGES_ATTACK = False

    @classmethod
    def parse(cls, body: str, keywords: tuple[str, ...]) -> Ability | None:
        return cls(name=body, keywords=keywords) if body in NO_EFFECT else None

    @property
    def kind(self) -> str:
        return self.name

    def __str__(self) -> str:
        return f"[{self.name}{self._suffix()}]"


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
        current = best.get(ability.kind)
        if current is None or ability.strength() > current.strength():
            best[ability.kind] = ability
    return tuple(best.values())
