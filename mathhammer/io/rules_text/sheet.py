"""A datasheet's rules as the effects its units carry, and the rules not applied in full."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ...model.effects import PROFILE_FIELDS, Effect
from ...units.parts import AbilityText
from .reader import RuleReading, read_rules
from .text import UnreadAbility

__all__ = ["SheetRules", "sheet_rules"]

#: The kinds of the effects the models' own fields hold when unconditional.
_OWN_FIELDS = PROFILE_FIELDS | {"invuln"}
#: The kinds of the fields not applied under a condition: all but a Feel No Pain, which is
#: judged per pool for the models it names.
_UNPOOLED_FIELDS = PROFILE_FIELDS - {"fnp"}


@dataclass(frozen=True)
class SheetRules:
    """The effects of a datasheet's rules, and the rules not (fully) applied, with reasons.

    ``effects`` leaves out what the profiles already hold (an unconditional Feel No Pain,
    invulnerable save, damage reduction, halving or Stealth of the unit itself, read into
    the models' fields by :func:`~mathhammer.io.defences.read_defences`). ``unapplied``
    lists every rule that could change an attack and is not applied in full.
    """

    effects: tuple[Effect, ...] = ()
    unapplied: tuple[UnreadAbility, ...] = ()
    applied: frozenset[str] = frozenset()

    def listed(self, unread: Iterable[AbilityText]) -> tuple[AbilityText, ...]:
        """``unread`` (the defence reader's list) without the rules applied here in full,
        followed by the rules not applied in full."""
        return (*(a for a in unread if a.name not in self.applied), *self.unapplied)


def sheet_rules(
    rules: Iterable[AbilityText],
    listed: Iterable[AbilityText] = (),
    *,
    army: bool = False,
    fields: Iterable[AbilityText] = (),
) -> SheetRules:
    """Read a datasheet's rules into the effects its units carry.

    ``listed`` are the rules already listed as not understood (by the defence reader):
    they are not listed twice (:meth:`SheetRules.listed` joins both lists). With ``army``,
    the rules are an army's or a detachment's: each effect is for the units it names
    (``Effect.units``), an unconditional Feel No Pain or save of theirs included.
    ``fields`` are the rules the defence reader turned into the models' fields in full (the
    Runtherd's Toughness, docs/rules.md D40): never listed as not applied.

    Examples
    --------
    >>> found = sheet_rules([AbilityText("Feel No Pain 5+"),
    ...     AbilityText("Krumpin' Time", "While the Waaagh! is active for your army, models in "
    ...                 "this unit have the Feel No Pain 5+ ability."),
    ...     AbilityText("Sumfin' to Prove", "This unit's melee attacks have +1 to hit rolls."),
    ...     AbilityText("Sneaky", "While this unit is within range of an objective marker, "
    ...                 "models in this unit have the Stealth ability.")])
    >>> [e.text for e in found.effects]
    ['Feel No Pain 5+ if waaagh', 'melee: +1 to hit']
    >>> [(u.name, u.reason) for u in found.unapplied]  # doctest: +NORMALIZE_WHITESPACE
    [('Sneaky', 'Stealth if objective: applied under a condition only to a Feel No Pain or
      an invulnerable save')]
    """
    seen = {r.name for r in (*listed, *fields)}
    effects: list[Effect] = []
    unapplied: dict[str, UnreadAbility] = {}
    applied: set[str] = set()
    for reading in read_rules(rules, army=army):
        carried, reasons = _carried(reading, army)
        effects.extend(carried)
        rule = reading.rule
        if reasons:
            if rule.name not in seen:
                unapplied[rule.name] = UnreadAbility(rule.name, rule.text, "; ".join(reasons))
        elif reading.effects:
            applied.add(rule.name)
    applied -= set(unapplied)
    return SheetRules(tuple(dict.fromkeys(effects)), tuple(unapplied.values()), frozenset(applied))


def _carried(reading: RuleReading, army: bool) -> tuple[list[Effect], list[str]]:
    """The effects of one rule the units carry, and the reasons the rule is not applied in
    full."""
    effects: list[Effect] = []
    reasons = [reading.reason] if reading.reason else []
    for effect in reading.effects:
        reason = _not_carried(effect, army)
        if reason is None:
            effects.append(effect)
        elif reason:
            reasons.append(reason)
    return effects, reasons


def _not_carried(effect: Effect, army: bool) -> str | None:
    """Why the units do not carry an effect ("" for one the models' fields hold); None if
    they do."""
    if army:
        if not effect.units:
            return f"{effect.text}: names no units of the army"
    elif _own_field(effect):
        return ""  # the models' own field
    if _conditional_field(effect):
        return (
            f"{effect.text}: applied under a condition only to a Feel No Pain or "
            "an invulnerable save"
        )
    return None


def _own_field(effect: Effect) -> bool:
    """True for an unconditional field of the unit's own models (a Feel No Pain, a save)."""
    restricted = any((effect.models, effect.conditions, effect.attacks))
    return effect.kind in _OWN_FIELDS and effect.scope != "led" and not restricted


def _conditional_field(effect: Effect) -> bool:
    """True for a field of the models (not a Feel No Pain, judged per pool for the models it
    names) under a condition or for some attacks only: not applied."""
    return effect.kind in _UNPOOLED_FIELDS and bool(effect.conditions or effect.attacks)
