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
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..core.dice import parse_dice
from ..errors import ProfileError, field_error
from .ability_base import (
    NO_EFFECT,
    Ability,
    DiceValuedAbility,
    NumberedAbility,
    ability_classes,
    choose,
)

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
    "OnlyAgainst",
    "Precision",
    "RapidFire",
    "SustainedHits",
    "Torrent",
    "TwinLinked",
    "ability_classes",
    "choose",
    "usable_against",
]


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


def _anti_keyword(keyword: object) -> str:
    """``Anti.keyword`` checked: a keyword, upper case, single spaces."""
    if not isinstance(keyword, str):
        raise field_error(ProfileError, "Anti.keyword", "a keyword", keyword)
    word = " ".join(keyword.split()).upper()
    if not word:
        raise field_error(ProfileError, "Anti.keyword", "a keyword", word)
    return word


@dataclass(frozen=True)
class Anti(Ability):
    """Against a target with the keyword, an unmodified wound roll >= X is a Critical Wound."""

    keyword: str = ""
    threshold: int = 6

    NAME = "ANTI"

    def __post_init__(self) -> None:
        super().__post_init__()
        object.__setattr__(self, "keyword", _anti_keyword(self.keyword))
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
    """+X attack dice per full 5 models in the target unit (X = 1 when unnumbered), counted
    as the unit stands when the attacks are declared (docs/rules.md D11)."""

    NAME = "BLAST"

    def apply(self, draft: PoolDraft, situation: Situation) -> None:
        draft.bonus_attacks.append(parse_dice(self.value * (situation.models // 5)))

    def __str__(self) -> str:
        return "[BLAST]" + self._suffix() if self.value == 1 else super().__str__()


@dataclass(frozen=True)
class Cleave(NumberedAbility):
    """Melee: +X attack dice per full 5 models if all the weapon's attacks target one unit."""

    NAME = "CLEAVE"

    def effective(self, situation: Situation) -> bool:
        return situation.melee and situation.context.single_target

    def apply(self, draft: PoolDraft, situation: Situation) -> None:
        draft.bonus_attacks.append(parse_dice(self.value * (situation.models // 5)))


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
        return bool(situation.characters)  # a CHARACTER standing (docs/rules.md D34)

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

    def __post_init__(self) -> None:
        super().__post_init__()
        name = " ".join(self.name.split()).upper() if isinstance(self.name, str) else ""
        if not name:
            raise field_error(ProfileError, "NoEffect.name", "the ability's name", self.name)
        object.__setattr__(self, "name", name)

    @classmethod
    def parse(cls, body: str, keywords: tuple[str, ...]) -> Ability | None:
        return cls(name=body, keywords=keywords) if body in NO_EFFECT else None

    @property
    def kind(self) -> str:
        return self.name

    def __str__(self) -> str:
        return f"[{self.name}{self._suffix()}]"


@dataclass(frozen=True)
class OnlyAgainst(Ability):
    """The profile may only target a unit with one of its keywords (a selection rule).

    Newer datasheets restrict a profile by its name: ``Smash Hammer - Hunter (Hunter:
    MONSTER/VEHICLE)`` may only be used against MONSTER or VEHICLE units, and the readers
    give such a profile ``[ONLY AGAINST: MONSTER/VEHICLE]``. A pool of it against any
    other target is not declared: it makes no attack in either engine (docs/rules.md D38).

    Examples
    --------
    >>> hunter = OnlyAgainst(keywords=("MONSTER", "VEHICLE"))
    >>> str(hunter), hunter.applies_to(["INFANTRY"]), hunter.applies_to(["VEHICLE"])
    ('[ONLY AGAINST: MONSTER/VEHICLE]', False, True)
    """

    NAME = "ONLY AGAINST"
    CHANGES_ATTACK = False

    def __post_init__(self) -> None:
        super().__post_init__()
        if not self.keywords:
            raise field_error(
                ProfileError, "OnlyAgainst.keywords", "the keywords it may target", self.keywords,
                "e.g. [ONLY AGAINST: MONSTER/VEHICLE]",
            )  # fmt: skip


def usable_against(abilities: Iterable[Ability], target_keywords: Iterable[str]) -> bool:
    """True unless an :class:`OnlyAgainst` among ``abilities`` rules the target out.

    Examples
    --------
    >>> usable_against([LethalHits(), OnlyAgainst(keywords=("VEHICLE",))], ["INFANTRY"])
    False
    >>> usable_against([LethalHits()], ["INFANTRY"])
    True
    """
    have = tuple(target_keywords)
    for a in abilities:  # noqa: SIM110 (not all() over a generator: every attack asks, S3)
        if isinstance(a, OnlyAgainst) and not a.applies_to(have):
            return False
    return True
