"""When a rule's effect holds: the conditions of :class:`~mathhammer.model.effects.Effect`.

A condition is read from the pool's :class:`~mathhammer.model.draft.Situation`: the table
situation (``Context``: charged, remained stationary, within half range, the named states
it assumes), the target's keywords, or the attack's own abilities ([PSYCHIC]).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
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
        read = _VALUES.get(self.kind)
        if read is not None:
            object.__setattr__(self, "value", read(self.value))
        elif self.value:
            raise field_error(ProfileError, "Condition.value", "'' for this kind", self.value)

    def holds(self, situation: Situation) -> bool:
        """True if the condition holds for a pool in this situation (``strength_over_
        toughness`` is judged on the pool's draft, by :meth:`EffectRule.apply`)."""
        judge = _HOLDS.get(self.kind)
        return True if judge is None else judge(self.value, situation)

    def __str__(self) -> str:
        return _PHRASES.get(self.kind, self.kind).format(self.value)


def _target_keywords(value: object) -> str:
    """A ``"target"`` condition's value checked: keywords in upper case, ``/`` between."""
    if not isinstance(value, str) or not value.strip("/ "):
        raise field_error(
            ProfileError, "Condition.value", "target keywords ('MONSTER/VEHICLE')", value
        )
    return "/".join(" ".join(w.split()).upper() for w in value.split("/") if w.strip())


def _weapon_ability(value: object) -> str:
    """A ``"weapon"`` condition's value checked: a weapon ability as printed, upper case."""
    if not isinstance(value, str) or not value.strip():
        raise field_error(ProfileError, "Condition.value", "a weapon ability ('PSYCHIC')", value)
    return " ".join(value.split()).upper()


#: How the value of each kind that has one is read (the other kinds take ``""``).
_VALUES: dict[str, Callable[[object], str]] = {
    "assumed": assumption_name,
    "target": _target_keywords,
    "weapon": _weapon_ability,
}
#: Whether a condition of each kind holds, from its value and the pool's situation (a kind
#: not here always holds for the situation: ``strength_over_toughness``).
_HOLDS: dict[str, Callable[[str, Situation], bool]] = {
    "charged": lambda _, situation: situation.context.charged,
    "stationary": lambda _, situation: situation.context.remained_stationary,
    "half_range": lambda _, situation: situation.context.half_range and not situation.melee,
    "target": lambda value, situation: _keywords_match(value.split("/"), situation.target.keywords),
    "assumed": lambda value, situation: value in situation.context.assume,
    "weapon": lambda value, situation: any(a.kind == value for a in situation.abilities),
}
#: How a condition of each kind reads, its value in place of ``{}`` (a kind not here: its
#: name).
_PHRASES = {
    "target": "target {}",
    "assumed": "{}",
    "weapon": "the attack is {}",
    "strength_over_toughness": "S > T",
    "half_range": "half range",
}


def _keywords_match(wanted: Iterable[str], have: Iterable[str]) -> bool:
    """The target keyword test of abilities (docs/rules.md D36): one of the keywords, none
    excluded; ``NON-`` before the first excludes them all."""
    probe = Ability(keywords=tuple(wanted))
    return probe.applies_to(have)
