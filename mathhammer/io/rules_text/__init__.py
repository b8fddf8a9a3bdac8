"""Rules text -> typed effects: one grammar over the 11th edition's templated phrasing.

* :mod:`.text` cleans a rule's text and cuts it into sentences;
* :mod:`.fields` reads the rules that are fields of the models (the Runtherd's Toughness);
* :mod:`.sentence` holds a sentence as it is read, and its leading clauses;
* :mod:`.clauses` reads the effect clauses of either phrasing;
* :mod:`.characteristics` reads the sentences that set or scale an attacks characteristic;
* :mod:`.army` reads an army or detachment rule's subject as the unit's own phrasing;
* :mod:`.grammar` reads one sentence (its subject, then its clauses) into
  :class:`~mathhammer.model.effects.Effect` values;
* :mod:`.reader` reads a whole rule and says how much of it was read (:data:`STATUSES`);
* :mod:`.sheet` turns a datasheet's rules into the effects its units carry.

Imports flow text -> fields, sentence -> clauses -> characteristics, army -> grammar ->
reader -> sheet.
"""

from __future__ import annotations

from .reader import STATUSES, RuleReading, read_rule, read_rules
from .sheet import SheetRules, sheet_rules
from .text import UnreadAbility, clean_rule_text, rule_sentences, rule_source

__all__ = [
    "STATUSES",
    "RuleReading",
    "SheetRules",
    "UnreadAbility",
    "clean_rule_text",
    "read_rule",
    "read_rules",
    "rule_sentences",
    "rule_source",
    "sheet_rules",
]


def __dir__() -> list[str]:
    """The public names, ``__all__``: what ``dir()`` and completion offer."""
    return sorted(__all__)
