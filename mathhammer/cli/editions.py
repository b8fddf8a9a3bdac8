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

__all__ = ["AUTO", "DEFAULT", "chosen_rules", "describe", "reading_rules"]

#: The ``--rules`` value that follows the lists.
AUTO = "auto"
#: The ruleset of lists that do not say theirs (CSV files), and of ``auto`` without a list.
DEFAULT = "11e"


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
    editions = [(army.source, army.edition) for army in armies if army.edition]
    rules = (editions[0][1] if editions else DEFAULT) if given == AUTO else given
    if len({edition for _, edition in editions}) > 1:
        (a, first), (b, second) = editions[0], editions[1]
        _warn(
            f"{a} is {article(first)} {first} list and {b} {article(second)} {second} list: "
            f"both computed under {rules}"
        )
    elif given != AUTO:
        for source, edition in editions:
            if edition != rules:
                _warn(
                    f"{source} is {article(edition)} {edition} list; computed under --rules "
                    f"{rules} as asked"
                )
    return rules


def describe(rules: str) -> str:
    """The line naming a report's ruleset."""
    return f"rules: {rules} ({get_ruleset(rules).description})"


def _warn(message: str) -> None:
    print(f"mathhammer: warning: {message}", file=sys.stderr)
