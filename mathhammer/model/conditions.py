"""When a rule's effect holds: the conditions of :class:`~mathhammer.model.effects.Effect`.

A condition is read from the pool's :class:`~mathhammer.model.draft.Situation`: the table
situation (``Context``: charged, remained stationary, within half range, the named states
it assumes), the target's keywords, or the attack's own abilities ([PSYCHIC]).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..errors import ProfileError, field_error
from .ability_base import Ability
from .context import assumption_name

if TYPE_CHECKING:
    from .draft import Situation

__all__ = ["ASSUMED", "CONDITIONS", "Condition"]

#: Conditions read from the situation (``Context``) or the target, by kind.
CONDITIONS = {
    "charged": "the attacking unit charged this turn (Context.charged)",
    "stationary": "the attacking unit remained stationary (Context.remained_stationary)",
    "half_range": "the target is within half range (Context.half_range)",
    "target": "the target has one of these keywords (NON- excludes)",
    "weapon": "the attack's weapon has this ability as printed ('PSYCHIC')",
    "strength_over_toughness": "the attack's Strength is greater than the target's Toughness",
    "assumed": "a named state no profile records, true when the situation assumes it",
}
#: Named states every reader knows how to phrase; any other is named from the text.
ASSUMED = {
    "objective": "within range of an objective marker",
    "riled up": "the unit is riled up (Orks)",
    "waaagh": "the Waaagh! is active for the army (Orks)",
    "once per battle": "an ability used once per battle, named 'once per battle: <rule>'",
}


@dataclass(frozen=True)
class Condition:
    """When an effect holds: ``kind`` (one of :data:`CONDITIONS`) and its value.

    ``value`` is the keywords of a ``"target"`` condition (``"MONSTER/VEHICLE"``,
    ``"NON-MONSTER/VEHICLE"``), the weapon ability of a ``"weapon"`` one (``"PSYCHIC"``)
    or the name of an ``"assumed"`` state; empty otherwise.

    Examples
    --------
    >>> str(Condition("target", "MONSTER/VEHICLE")), str(Condition("assumed", "Riled up"))
    ('target MONSTER/VEHICLE', 'riled up')
    >>> str(Condition("weapon", "psychic"))
    'the attack is PSYCHIC'
    """

    kind: str
    value: str = ""

    def __post_init__(self) -> None:
        if self.kind not in CONDITIONS:
            raise field_error(
                ProfileError, "Condition.kind", f"one of {list(CONDITIONS)}", self.kind
            )
        if self.kind == "assumed":
            object.__setattr__(self, "value", assumption_name(self.value))
        elif self.kind == "target":
            if not isinstance(self.value, str) or not self.value.strip("/ "):
                raise field_error(
                    ProfileError,
                    "Condition.value",
                    "target keywords ('MONSTER/VEHICLE')",
                    self.value,
                )
            words = [" ".join(w.split()).upper() for w in self.value.split("/") if w.strip()]
            object.__setattr__(self, "value", "/".join(words))
        elif self.kind == "weapon":
            if not isinstance(self.value, str) or not self.value.strip():
                raise field_error(
                    ProfileError, "Condition.value", "a weapon ability ('PSYCHIC')", self.value
                )
            object.__setattr__(self, "value", " ".join(self.value.split()).upper())
        elif self.value:
            raise field_error(ProfileError, "Condition.value", "'' for this kind", self.value)

    def holds(self, situation: Situation) -> bool:
        """True if the condition holds for a pool in this situation (``strength_over_
        toughness`` is judged on the pool's draft, by :meth:`EffectRule.apply`)."""
        context = situation.context
        if self.kind == "charged":
            return context.charged
        if self.kind == "stationary":
            return context.remained_stationary
        if self.kind == "half_range":
            return context.half_range and not situation.melee
        if self.kind == "target":
            return _keywords_match(self.value.split("/"), situation.target.keywords)
        if self.kind == "assumed":
            return self.value in context.assume
        if self.kind == "weapon":
            return any(a.kind == self.value for a in situation.abilities)
        return True

    def __str__(self) -> str:
        if self.kind == "target":
            return f"target {self.value}"
        if self.kind == "assumed":
            return self.value
        if self.kind == "weapon":
            return f"the attack is {self.value}"
        return {"strength_over_toughness": "S > T", "half_range": "half range"}.get(
            self.kind, self.kind
        )


def _keywords_match(wanted: Iterable[str], have: Iterable[str]) -> bool:
    """The target keyword test of abilities (docs/rules.md D36): one of the keywords, none
    excluded; ``NON-`` before the first excludes them all."""
    probe = Ability(keywords=tuple(wanted))
    return probe.applies_to(have)
