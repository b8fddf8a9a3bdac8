"""A rule's sentence as it is read: what is known of it so far (:class:`Sentence`), its
leading clauses (conditions, the attacks, the scope), and the patterns that tell which
sentences matter (:data:`RELEVANT`) and which are about other units (:data:`OTHERS`).

Examples
--------
>>> s = Sentence("while this unit is riled up, this unit's attacks have +1 to hit rolls", "X")
>>> _leading(s)
>>> s.text, [str(c) for c in s.conditions]
("this unit's attacks have +1 to hit rolls", ['riled up'])
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ...model.effects import Condition, Effect

__all__ = ["OTHERS", "RELEVANT", "SELECTED", "SELECTS", "Sentence", "Unread", "singular"]

_SELF = (
    r"(?:this unit|this model|that unit|the bearer|the bearer's unit|models in (?:this|that) unit|"
    r"each model in (?:this|that) unit|a model in (?:this|that) unit|this model's unit|"
    r"models in the bearer's unit|all models in (?:this|that|this model's) unit|this fortification|"
    r"models from your army with this ability)"
)
_ATTACKER = (
    r"(?:a model in (?:this|that) unit|models in (?:this|that) unit|this model|this unit|"
    r"that model|that unit|the bearer|it)"
)
_KIND = r"(?:(?P<kind>ranged|melee) )?"


def singular(name: str) -> str:
    """A weapon's name as a rule writes it in the plural, made singular: a weapon's name
    matches it in any number.

    >>> singular("arco-flails "), singular("missiles")
    ('arco-flail', 'missile')
    """
    return re.sub(r"(?<=[a-z]{3})s$", "", name.strip())


class Unread(Exception):
    """A sentence the grammar could not read (the message is the reason)."""


@dataclass
class Sentence:
    """One sentence as it is being read: what is left of it and what is known so far."""

    text: str
    source: str
    conditions: list[Condition] = field(default_factory=list)
    attacks: str | None = None
    scope: str = "unit"
    weapon: str = ""
    side: str = ""
    units: tuple[str, ...] = ()
    selected: bool = False
    models: str = ""

    def effect(self, kind: str, value: int | str = 1, attacks: str | None = None) -> Effect:
        return Effect(
            kind,
            value,
            attacks or self.attacks,
            tuple(dict.fromkeys(self.conditions)),
            self.source,
            self.scope,
            self.weapon,
            self.units,
            self.models,
        )

    def follow(self, text: str) -> Sentence:
        """The next sentence, read in this one's "each time" context ("If ..., you can
        re-roll the Hit roll instead.", "... add 1 to the Wound roll as well.")."""
        return Sentence(text, self.source, list(self.conditions), self.attacks, self.scope,
                         self.weapon, self.side, self.units, self.selected,
                         self.models)  # fmt: skip

    def restrict(self, kind: str | None) -> None:
        if kind is None:
            return
        if self.attacks is not None and self.attacks != kind:
            raise Unread(f"both {self.attacks} and {kind} attacks")
        self.attacks = kind


#: Leading clauses: each pattern, and what it means (a condition, the attacks, a scope).
_LEADING: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(p), meaning)
    for p, meaning in (
        (r"^while this (?:model|unit) is leading a unit,? ", "led"),
        (r"^while (?:this model|this unit) is (?:attached to|leading) (?:a|that) unit,? ", "led"),
        (
            r"^once per (?:battle|game)(?:, (?:at the (?:start|end) of|in|during|when|after|before"
            r"|each time) [^,]*)?,? ",
            "once",
        ),
        (r"^(?:in|during) the fight phase,? ", "melee"),
        (r"^(?:in|during) (?:your|the) shooting phase,? ", "ranged"),
        (
            r"^(?:while|if) (?:the )?waaagh!? is active for (?:your|its|their) army,? ",
            "assumed:waaagh",
        ),
        (r"^(?:while|if) (?:this|that|a) unit is riled up,? ", "assumed:riled up"),
        (
            r"^(?:while|if) (?:this|that) (?:unit|model) is within range of (?:an|one or more)"
            r" objective markers?(?: you control)?,? ",
            "assumed:objective",
        ),
        (
            r"^(?:if|while) (?:this|that) (?:unit|model) (?:made a charge move|charged) "
            r"this turn,? ",
            "charged",
        ),
        (
            r"^each time (?:this|that) (?:unit|model) (?:makes|made) a charge move,? "
            r"(?:until the end of the turn,? )?",
            "charged",
        ),
        (
            r"^(?:if|while) (?:this|that) (?:unit|model) remained stationary this turn,? ",
            "stationary",
        ),
        (
            r"^(?:if|while) (?:this|that) (?:unit|model) (?:made an advance move|advanced) "
            r"this turn,? ",
            "assumed:advanced",
        ),
        (
            r"^(?:if|while) (?:this|that) (?:unit|model) remains? stationary(?: this turn)?,? ",
            "stationary",
        ),
        (r"^in your movement phase,? ", ""),
        (r"^in addition,? ", ""),
        (r"^until the end of the (?:phase|turn|battle),? ", ""),
    )
)
_WHILE = re.compile(r"^(?:while|if) (?P<state>[^,]+), ")
OTHERS = re.compile(
    r"\bfriendly (?:[\w'-]+ )*?(?:units?|models?)\b(?! from your army with this ability)"
    r"|\b(?:an|each|that|one) enemy (?:[\w'-]+ )*?units? (?:\([^)]*\) )?(?:is |are )?within\b"
    r"|\bthat enemy unit\b|\bother friendly\b|\beach enemy unit\b"
    r"|\bselect one enemy (?:[\w'-]+ )*?unit\b|\benemy unit is unravelling\b"
    # mortal wounds back on the attacking unit: they change no attack against this one
    r"|\bthe attacking unit suffers\b"
    # a fortification's or a big model's cover for the models behind it
    r"|\bnot fully visible to every model in the attacking unit because of this\b"
    r"|\bas a result of this fortification\b|\bon the platform section of this fortification\b"
    # an observer unit's rule is for the units it guides
    r"|\beach time this unit is an observer unit\b"
)
#: A rule that selects another unit ("select one enemy unit hit by one or more of those
#: attacks", "select one friendly VEHICLE model within 3\""): its later sentences about
#: "that unit" are about the unit selected.
SELECTS = re.compile(
    r"\bselect (?:one|a|an) (?:friendly|enemy) |\bselect one (?:enemy )?unit (?:hit by|from your "
    r"opponent's army)|\bselect one unit from your opponent's army\b"
)
#: What a later sentence says about the unit selected.
SELECTED = re.compile(r"\bthat (?:(?!targets?\b)[\w'-]+ )?(?:unit|model)s?\b|\bsuppressed\b")
RELEVANT = re.compile(
    r"hit rolls?|wound rolls?|armour penetration|[+-]\d+ (?:ap|s|a|d)\b|"
    r"(?:strength|attacks|damage|toughness|save) characteristics?|critical (?:hit|wound)|"
    r"invulnerable save|\binsv\b|feel no pain|\bstealth\b|benefit of cover|\[[a-z]|"
    r"\battacks? (?:that )?targets?\b|\ballocated to\b|\bre-roll (?:the )?(?:hit|wound|damage)\b"
)


def _leading(sentence: Sentence) -> None:
    """Read the leading clauses of a sentence into its conditions, attacks and scope."""
    while (clause := _leading_clause(sentence.text)) is not None:
        found, meaning = clause
        sentence.text = sentence.text[found.end() :]
        _take_meaning(sentence, meaning)


def _leading_clause(text: str) -> tuple[re.Match[str], str] | None:
    """The first leading clause of ``text`` and what it means; None if it has none."""
    for pattern, meaning in _LEADING:
        found = pattern.match(text)
        if found is not None:
            return found, meaning
    return None


def _take_meaning(sentence: Sentence, meaning: str) -> None:
    """Give a sentence what one of its leading clauses means: a scope, a condition, the
    attacks."""
    if meaning == "led":
        sentence.scope = "led"
    elif meaning == "once":
        sentence.conditions.append(Condition("assumed", f"once per battle: {sentence.source}"))
    elif meaning in ("melee", "ranged"):
        sentence.restrict(meaning)
    elif meaning.startswith("assumed:"):
        sentence.conditions.append(Condition("assumed", meaning.split(":", 1)[1]))
    elif meaning:
        sentence.conditions.append(Condition(meaning))
