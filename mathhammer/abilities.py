"""Weapon abilities: the typed abilities and the text parser, ``mathhammer.abilities``.

Examples
--------
>>> from mathhammer import abilities
>>> found, unknown = abilities.parse_abilities("[SUSTAINED HITS 1], [SNAGGED]")
>>> found, unknown
((SustainedHits(keywords=(), value=Dice('1')),), ('SNAGGED',))
"""

from __future__ import annotations

from .model.abilities import (
    NO_EFFECT,
    Ability,
    Anti,
    Blast,
    Cleave,
    DevastatingWounds,
    DiceValuedAbility,
    ExtraAttacks,
    Hazardous,
    Heavy,
    IgnoresCover,
    IndirectFire,
    Lance,
    LethalHits,
    Linked,
    Melta,
    NoEffect,
    NumberedAbility,
    OnlyAgainst,
    Precision,
    RapidFire,
    SustainedHits,
    Torrent,
    TwinLinked,
    ability_classes,
    choose,
)
from .model.ability_text import (
    parse_abilities,
    parse_token,
    split_abilities,
)
from .model.draft import PoolDraft, Situation

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
    "OnlyAgainst",
    "NumberedAbility",
    "PoolDraft",
    "Precision",
    "RapidFire",
    "Situation",
    "SustainedHits",
    "Torrent",
    "TwinLinked",
    "ability_classes",
    "choose",
    "parse_abilities",
    "parse_token",
    "split_abilities",
]


def __dir__() -> list[str]:
    """The public names, ``__all__``: what ``dir()`` and completion offer."""
    return sorted(__all__)
