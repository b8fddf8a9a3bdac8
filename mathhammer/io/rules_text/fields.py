"""Rules that are read into the models' fields, not into effects on attacks.

The Runtherd's "Runtherd models in this unit have a Toughness characteristic of 2" while
Gretchin stand is a field of the Runtherds' group (``ModelGroup.toughness_while``,
docs/rules.md D40): the defence reader gives it to the models, and the rules reader counts
the rule as understood.
"""

from __future__ import annotations

import re

from ...model.unit import ToughnessWhile
from ...units.parts import AbilityText
from .text import clean_rule_text, rule_sentences

__all__ = ["read_toughness_while"]

_TOUGHNESS_WHILE = re.compile(
    r"^each time an attack targets this unit, if (?:it|this unit) contains one or more "
    r"(?P<present>[a-z][\w' -]*?) models?, (?:until that attack is resolved, )?"
    r"(?P<who>[a-z][\w' -]*?) models in this unit have a toughness characteristic of "
    r"(?P<t>\d+)$"
)


def read_toughness_while(ability: AbilityText) -> tuple[str, ToughnessWhile] | None:
    """A Toughness a rule gives some models while others stand (docs/rules.md D40): the
    models it is for (their name, case-folded) and the rule; None for any other text.

    Examples
    --------
    >>> who, rule = read_toughness_while(AbilityText("Runtherd", "Each time an attack "
    ...     "targets this unit, if it contains one or more Gretchin models, until that attack "
    ...     "is resolved, Runtherd models in this unit have a Toughness characteristic of 2."))
    >>> who, rule
    ('runtherd', ToughnessWhile(toughness=2, present=('gretchin',)))
    """
    sentences = rule_sentences(clean_rule_text(ability.text))
    found = _TOUGHNESS_WHILE.match(sentences[0]) if len(sentences) == 1 else None
    if found is None:
        return None
    return found["who"].casefold(), ToughnessWhile(int(found["t"]), (found["present"],))
