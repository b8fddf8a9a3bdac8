"""A weapon ability defined outside the package, for the tests: ``[PIERCING X]``.

One class: defining it registers it with the ability text parser, so datasheet text
such as ``"[PIERCING 1], [LETHAL HITS]"`` reads it, and both engines apply it through
the pool's draft with no change to the package.

Examples
--------
>>> from mathhammer.abilities import parse_abilities
>>> found, unknown = parse_abilities("[PIERCING 2: VEHICLE], [LETHAL HITS]")
>>> [str(a) for a in found], unknown
(['[PIERCING 2: VEHICLE]', '[LETHAL HITS]'], ())
"""

from __future__ import annotations

from dataclasses import dataclass

from mathhammer.abilities import NumberedAbility, PoolDraft, Situation

__all__ = ["Piercing"]


@dataclass(frozen=True)
class Piercing(NumberedAbility):
    """Improve the attack's AP by X: [PIERCING 1] makes AP -1 into AP -2."""

    NAME = "PIERCING"

    def apply(self, draft: PoolDraft, situation: Situation) -> None:
        draft.ap -= self.value
