"""Defensive abilities from datasheet text: the common phrasings as profile fields.

Importers pass every ability of a datasheet here; what is understood becomes fields of
the model profiles (invulnerable save, Feel No Pain, Feel No Pain against mortal
wounds, damage reduction, halved damage, Stealth), and every ability whose text could
change an attack against the unit but is not understood is returned to be listed.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..units.datasheet import AbilityText

__all__ = ["Defences", "read_defences"]


@dataclass(frozen=True)
class Defences:
    """The profile fields read from a datasheet's abilities, and what was not understood."""

    invuln: int | None = None
    fnp: int | None = None
    fnp_mortal: int | None = None
    damage_reduction: int = 0
    halve_damage: bool = False
    stealth: bool = False
    understood: tuple[AbilityText, ...] = ()
    not_understood: tuple[AbilityText, ...] = ()


def read_defences(abilities: Iterable[AbilityText]) -> Defences:
    """Read the defensive abilities of one datasheet (placeholder: nothing understood)."""
    return Defences(not_understood=tuple(abilities))
