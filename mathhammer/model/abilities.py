"""Weapon abilities: datasheet text -> typed abilities, and which of them apply.

Text is read as datasheets print it: bracketed or not, any case, HTML stripped,
separated by commas (and by the stray full stops of real exports), with numbers
and dice in the token (``"SUSTAINED HITS D3"``, ``"RAPID FIRE D6+1"``) and
keyword restrictions (``"LETHAL HITS: VEHICLE"``, ``"SUSTAINED HITS 1:
INFANTRY/BEASTS"``, ``"ANTI-FLY 2+"``).

Abilities that only govern weapon selection (ASSAULT, PISTOL, ...) are kept as
:class:`NoEffect`. Unknown tokens (datasheet-specific rules) warn once, naming the
token, and are otherwise ignored.

Several instances of one ability are not cumulative (seed 004): of the instances
that apply against the target, the best one is used, and :func:`resolve` says which.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core.dice import Dice, parse_dice
from ..errors import DiceSyntaxError, ProfileError, field_error

__all__ = [
    "NO_EFFECT",
    "Ability",
    "Anti",
    "Blast",
    "Cleave",
    "DevastatingWounds",
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
    "Precision",
    "RapidFire",
    "SustainedHits",
    "Torrent",
    "TwinLinked",
    "UnknownAbilityWarning",
    "parse_abilities",
    "resolve",
    "split_abilities",
]

#: Abilities with no effect on the attack maths (weapon-selection rules only).
NO_EFFECT = frozenset({"ASSAULT", "PISTOL", "CLOSE-QUARTERS", "PSYCHIC", "ONE SHOT"})

_TAG = re.compile(r"<[^>]*>")
_SEPARATORS = re.compile(r"[,.;\n]")


class UnknownAbilityWarning(UserWarning):
    """An ability token that is not a core weapon ability; it is ignored."""


@dataclass(frozen=True)
class Ability:
    """Base of the typed abilities. ``keywords`` restricts it to targets with one of them."""

    keywords: tuple[str, ...] = field(default=(), kw_only=True)

    #: The printed name, e.g. "SUSTAINED HITS".
    NAME = ""

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

    def _suffix(self) -> str:
        return f": {'/'.join(self.keywords)}" if self.keywords else ""

    def __str__(self) -> str:
        return f"[{self.NAME}{self._suffix()}]"


@dataclass(frozen=True)
class _WithDice(Ability):
    value: Dice = field(default_factory=lambda: parse_dice(1))

    def __post_init__(self) -> None:
        object.__setattr__(self, "value", parse_dice(self.value))

    def strength(self) -> tuple[float, ...]:
        return (self.value.mean, self.value.max)

    def __str__(self) -> str:
        return f"[{self.NAME} {self.value.text}{self._suffix()}]"


@dataclass(frozen=True)
class _WithNumber(Ability):
    value: int = 1

    def __post_init__(self) -> None:
        value = self.value
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise field_error(
                ProfileError, f"{type(self).__name__}.value", "an integer >= 1", value
            )

    def strength(self) -> tuple[float, ...]:
        return (self.value,)

    def __str__(self) -> str:
        return f"[{self.NAME} {self.value}{self._suffix()}]"


@dataclass(frozen=True)
class SustainedHits(_WithDice):
    """A Critical Hit scores X additional hits (X may be D3); the extra hits are not critical."""

    NAME = "SUSTAINED HITS"


@dataclass(frozen=True)
class LethalHits(Ability):
    """A Critical Hit may wound automatically (the default choice; see ``Context``)."""

    NAME = "LETHAL HITS"


@dataclass(frozen=True)
class DevastatingWounds(Ability):
    """A Critical Wound skips saves; after the pool's damage it deals mortal wounds equal to D
    that can damage at most one model."""

    NAME = "DEVASTATING WOUNDS"


@dataclass(frozen=True)
class Anti(Ability):
    """Against a target with the keyword, an unmodified wound roll >= X is a Critical Wound."""

    keyword: str = ""
    threshold: int = 6

    NAME = "ANTI"

    def __post_init__(self) -> None:
        object.__setattr__(self, "keyword", self.keyword.strip().upper())
        if not self.keyword:
            raise field_error(ProfileError, "Anti.keyword", "a keyword", self.keyword)
        if not 2 <= self.threshold <= 6:
            raise field_error(ProfileError, "Anti.threshold", "from 2 to 6", self.threshold)

    def applies_to(self, target_keywords: Iterable[str]) -> bool:
        have = {k.upper() for k in target_keywords}
        return self.keyword in have and super().applies_to(have)

    def strength(self) -> tuple[float, ...]:
        return (-self.threshold,)

    def __str__(self) -> str:
        return f"[ANTI-{self.keyword} {self.threshold}+{self._suffix()}]"


@dataclass(frozen=True)
class TwinLinked(Ability):
    """The wound roll may be re-rolled."""

    NAME = "TWIN-LINKED"


@dataclass(frozen=True)
class Torrent(Ability):
    """Hits automatically; an automatic hit is not a Critical Hit."""

    NAME = "TORRENT"


@dataclass(frozen=True)
class Blast(_WithNumber):
    """+X attack dice per full 5 models in the target unit (X = 1 when unnumbered)."""

    NAME = "BLAST"

    def __str__(self) -> str:
        return "[BLAST]" + self._suffix() if self.value == 1 else super().__str__()


@dataclass(frozen=True)
class Cleave(_WithNumber):
    """Melee: +X attack dice per full 5 models if all the weapon's attacks target one unit."""

    NAME = "CLEAVE"


@dataclass(frozen=True)
class RapidFire(_WithDice):
    """+X attack dice when the target is within half range."""

    NAME = "RAPID FIRE"


@dataclass(frozen=True)
class Melta(_WithDice):
    """+X damage when the target is within half range."""

    NAME = "MELTA"


@dataclass(frozen=True)
class Heavy(Ability):
    """+1 to hit if the unit is unengaged, was not set up this turn and moved no more than 3"."""

    NAME = "HEAVY"


@dataclass(frozen=True)
class Lance(Ability):
    """+1 to wound if the unit charged this turn."""

    NAME = "LANCE"


@dataclass(frozen=True)
class IgnoresCover(Ability):
    """The target cannot have the benefit of cover."""

    NAME = "IGNORES COVER"


@dataclass(frozen=True)
class Precision(Ability):
    """The attacker may make a CHARACTER group the current allocation group."""

    NAME = "PRECISION"


@dataclass(frozen=True)
class Hazardous(Ability):
    """After attacking, a hazard roll of 1-2 inflicts mortal wounds on the attacking unit."""

    NAME = "HAZARDOUS"


@dataclass(frozen=True)
class IndirectFire(Ability):
    """The target has cover, no hit re-rolls, and unmodified 1-5 fail (1-3 when spotted)."""

    NAME = "INDIRECT FIRE"


@dataclass(frozen=True)
class ExtraAttacks(Ability):
    """A melee weapon used in addition to the model's other one (a selection rule)."""

    NAME = "EXTRA ATTACKS"


@dataclass(frozen=True)
class Linked(Ability):
    """Classic ruleset: re-roll every missed hit roll (hitting on the chart's first number).

    It has no effect under the 11th edition, where no core ability of that name exists.
    """

    NAME = "LINKED"


@dataclass(frozen=True)
class NoEffect(Ability):
    """An ability with no effect on the attack maths: ASSAULT, PISTOL, CLOSE-QUARTERS, ..."""

    name: str = ""

    @property
    def kind(self) -> str:
        return self.name

    def __str__(self) -> str:
        return f"[{self.name}{self._suffix()}]"


_FLAGS: dict[str, type[Ability]] = {
    cls.NAME: cls
    for cls in (
        LethalHits,
        DevastatingWounds,
        TwinLinked,
        Torrent,
        Heavy,
        Lance,
        IgnoresCover,
        Precision,
        Hazardous,
        IndirectFire,
        ExtraAttacks,
        Linked,
    )
}
_DICE_VALUED: dict[str, type[_WithDice]] = {
    cls.NAME: cls for cls in (SustainedHits, RapidFire, Melta)
}
_NUMBERED: dict[str, type[_WithNumber]] = {cls.NAME: cls for cls in (Blast, Cleave)}
_ANTI = re.compile(r"^ANTI-?\s*(.+?)\s+([2-6])\s*\+$")
_VALUED = re.compile(r"^(SUSTAINED HITS|RAPID FIRE|MELTA|BLAST|CLEAVE)\s*(.*)$")


def split_abilities(text: str | Iterable[Any]) -> tuple[str, ...]:
    """Split ability text into normalised tokens (upper case, no brackets, no HTML).

    Examples
    --------
    >>> split_abilities("[ASSAULT], [heavy]")
    ('ASSAULT', 'HEAVY')
    >>> split_abilities("<a href='x'>Pistol</a>. Assault")
    ('PISTOL', 'ASSAULT')
    >>> split_abilities("")
    ()
    """
    if isinstance(text, str):
        parts: Iterable[str] = _SEPARATORS.split(_TAG.sub("", text))
    else:
        parts = (_TAG.sub("", str(t)) for t in text)
    tokens = []
    for part in parts:
        token = " ".join(part.replace("[", " ").replace("]", " ").split()).upper()
        token = token.replace("\u2011", "-").replace("\u2013", "-")
        if token:
            tokens.append(token)
    return tuple(tokens)


def _keywords(text: str) -> tuple[str, ...]:
    return tuple(k.strip() for k in text.split("/") if k.strip())


def parse_token(token: str) -> Ability | None:
    """One normalised token -> an ability, or None if it is not a core weapon ability.

    Examples
    --------
    >>> parse_token("SUSTAINED HITS D3")
    SustainedHits(keywords=(), value=Dice(count=1, sides=3, bonus=0, text='D3'))
    >>> str(parse_token("LETHAL HITS: VEHICLE"))
    '[LETHAL HITS: VEHICLE]'
    >>> str(parse_token("ANTI-FLY 2+"))
    '[ANTI-FLY 2+]'
    """
    body, _, restriction = token.partition(":")
    body = body.strip()
    keywords = _keywords(restriction)
    if body in NO_EFFECT:
        return NoEffect(name=body, keywords=keywords)
    if body in _FLAGS:
        return _FLAGS[body](keywords=keywords)
    m = _ANTI.match(body)
    if m:
        return Anti(keyword=m.group(1), threshold=int(m.group(2)), keywords=keywords)
    m = _VALUED.match(body)
    if m:
        name, value = m.group(1), m.group(2).strip() or "1"
        try:
            if name in _NUMBERED:
                if not value.isdigit() or int(value) < 1:
                    return None
                return _NUMBERED[name](value=int(value), keywords=keywords)
            dice = parse_dice(value)
        except DiceSyntaxError:
            return None
        if dice.max < 1:
            return None
        return _DICE_VALUED[name](value=dice, keywords=keywords)
    return None


def parse_abilities(abilities: str | Iterable[Any]) -> tuple[tuple[Ability, ...], tuple[str, ...]]:
    """Read ability text (or a list of tokens or typed abilities).

    Returns
    -------
    abilities : tuple of Ability
        The recognised abilities, in the order printed.
    unknown : tuple of str
        Tokens that are not core weapon abilities (datasheet-specific rules).

    Examples
    --------
    >>> found, unknown = parse_abilities("[SUSTAINED HITS 1], [LETHAL HITS], [SNAGGED]")
    >>> [str(a) for a in found], unknown
    (['[SUSTAINED HITS 1]', '[LETHAL HITS]'], ('SNAGGED',))
    """
    if not isinstance(abilities, str):
        items = list(abilities)
        for item in items:
            if not isinstance(item, str | Ability):
                raise field_error(ProfileError, "abilities", "text or typed abilities", item)
        typed = [a for a in items if isinstance(a, Ability)]
        texts = [a for a in items if not isinstance(a, Ability)]
        found, unknown = parse_abilities(", ".join(str(t) for t in texts)) if texts else ((), ())
        return tuple(typed) + found, unknown
    found_list: list[Ability] = []
    unknown_list: list[str] = []
    for token in split_abilities(abilities):
        ability = parse_token(token)
        if ability is None:
            unknown_list.append(token)
        else:
            found_list.append(ability)
    return tuple(found_list), tuple(unknown_list)


def warn_unknown(weapon_name: str, unknown: Sequence[str]) -> None:
    """One warning naming the tokens that are not core weapon abilities."""
    if unknown:
        warnings.warn(
            f"weapon {weapon_name!r}: ignoring {', '.join(repr(t) for t in unknown)}, "
            "not core weapon abilities",
            UnknownAbilityWarning,
            stacklevel=4,
        )


def resolve(abilities: Iterable[Ability], target_keywords: Iterable[str]) -> dict[str, Ability]:
    """The abilities that apply against the target: the best instance of each kind.

    Examples
    --------
    >>> found, _ = parse_abilities("ANTI-VEHICLE 4+, ANTI-INFANTRY 2+, SUSTAINED HITS 1, "
    ...                            "SUSTAINED HITS 2: VEHICLE")
    >>> {k: str(a) for k, a in resolve(found, ["INFANTRY"]).items()}
    {'ANTI': '[ANTI-INFANTRY 2+]', 'SUSTAINED HITS': '[SUSTAINED HITS 1]'}
    """
    keywords = tuple(target_keywords)
    best: dict[str, Ability] = {}
    for ability in abilities:
        if not ability.applies_to(keywords):
            continue
        current = best.get(ability.kind)
        if current is None or ability.strength() > current.strength():
            best[ability.kind] = ability
    return best
