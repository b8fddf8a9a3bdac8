"""Which ruleset a command computes under: the one its lists are written for, or ``--rules``.

``--rules auto`` (the default of ``report`` and ``detachments``) takes the edition of the
attackers' file (a roster's game system, the Wahapedia export's 10th edition), else of the
targets' file, else the 11th edition. A ``--rules`` that differs from a list's edition, and
two lists of different editions, are warned of in one line each, naming both.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

from ..io.roster.system import article
from ..rules.registry import get_ruleset

__all__ = ["AUTO", "DEFAULT", "chosen_rules", "describe", "read_list", "reading_rules"]

#: The ``--rules`` value that follows the lists.
AUTO = "auto"
#: The ruleset of lists that do not say theirs (CSV files), and of ``auto`` without a list.
DEFAULT = "11e"


def read_list(args: Any, army: Any) -> Any:
    """``army``, noted on ``args`` among the lists a command read (``args.lists``), whose
    editions ``--rules auto`` follows."""
    vars(args).setdefault("lists", []).append(army)
    return army


def reading_rules(given: str) -> str:
    """The ruleset a profiles CSV is read under (its skill column): ``--rules``, or the
    default for ``auto``."""
    return DEFAULT if given == AUTO else given


def chosen_rules(given: str, armies: Sequence[Any]) -> str:
    """The ruleset to compute under, the lists' editions warned of where they differ.

    Examples
    --------
    >>> from types import SimpleNamespace as Army
    >>> chosen_rules("auto", [Army(source="list.rosz", edition="10e")])
    '10e'
    >>> chosen_rules("auto", [Army(source="units.csv", edition=None)])
    '11e'
    """
    editions = {army.source: army.edition for army in armies if army.edition}
    rules = next(iter(editions.values()), DEFAULT) if given == AUTO else given
    for line in _mismatches(given, rules, editions):
        _warn(line)
    return rules


def _mismatches(given: str, rules: str, editions: dict[str, str]) -> list[str]:
    """The warnings of lists of two editions, or of a ``--rules`` given against a list's."""
    if len(set(editions.values())) > 1:
        (a, first), (b, second) = list(editions.items())[:2]
        return [
            f"{a} is {article(first)} {first} list and {b} {article(second)} {second} list: "
            f"both computed under {rules}"
        ]
    if given == AUTO:
        return []
    return [
        f"{source} is {article(edition)} {edition} list; computed under --rules {rules} as asked"
        for source, edition in editions.items()
        if edition != rules
    ]


def describe(rules: str) -> str:
    """The line naming a report's ruleset."""
    return f"rules: {rules} ({get_ruleset(rules).description})"


def _warn(message: str) -> None:
    print(f"mathhammer: warning: {message}", file=sys.stderr)
