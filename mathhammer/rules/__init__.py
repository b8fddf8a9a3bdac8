"""Rulesets: the literal tables and checks of each game system.

A ruleset module holds the rules as small, vectorised functions of die faces
(``hit_outcome``, ``wound_needed``, ``wound_outcome``, ``save_outcome``). The
exact engine evaluates them on every face to build per-die probabilities; the
Monte Carlo applies them to the dice it rolls. Nothing derived is shared.
"""

from __future__ import annotations

from types import ModuleType

from ..errors import RulesError, field_error
from . import classic, eleventh
from .base import CRITICAL, FAIL, SUCCESS, Outcome

__all__ = [
    "CRITICAL",
    "FAIL",
    "RULESETS",
    "SUCCESS",
    "Outcome",
    "classic",
    "eleventh",
    "get_ruleset",
]

#: Ruleset modules by name.
RULESETS: dict[str, ModuleType] = {eleventh.NAME: eleventh, classic.NAME: classic}


def get_ruleset(name: str) -> ModuleType:
    """The ruleset module called ``name``.

    Examples
    --------
    >>> get_ruleset("11e").NAME
    '11e'
    """
    if isinstance(name, str) and name.strip().lower() in RULESETS:
        return RULESETS[name.strip().lower()]
    raise field_error(RulesError, "rules", f"one of {sorted(RULESETS)}", name)
