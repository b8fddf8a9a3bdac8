"""Rulesets: each game system's tables and checks behind one typed interface.

What a user picks a ruleset with is at the top level (``mh.get_ruleset``,
``mh.ruleset_names``, ``mh.Ruleset``, ``mh.register_ruleset``, ``mh.plan_attack``); this
namespace holds the rest of the interface, for writing a ruleset of your own.
:class:`Ruleset` is the interface (:mod:`mathhammer.rules.base`); the 11th edition
(``"11e"``, the default) and the classic ruleset (``"classic"``) are registered here, and
:func:`register_ruleset` adds more. :func:`plan_attack` resolves an attack's inputs under
a ruleset into the plan both engines run.
"""

from __future__ import annotations

from .base import (
    CRITICAL,
    FAIL,
    SUCCESS,
    AfterAttackTest,
    Outcome,
    PoolChecks,
    RollCheck,
)
from .base import (
    Ruleset as Ruleset,
)
from .classic import Classic
from .eleventh import EleventhEdition
from .plan import AttackPlan as AttackPlan
from .plan import PlannedPool
from .plan import plan_attack as plan_attack
from .registry import RulesetLike
from .registry import get_ruleset as get_ruleset
from .registry import register_ruleset as register_ruleset
from .registry import ruleset_names as ruleset_names
from .tenth import TenthEdition

__all__ = [
    "CRITICAL",
    "FAIL",
    "SUCCESS",
    "AfterAttackTest",
    "Classic",
    "EleventhEdition",
    "Outcome",
    "PlannedPool",
    "PoolChecks",
    "RollCheck",
    "RulesetLike",
    "TenthEdition",
]

register_ruleset(EleventhEdition())
register_ruleset(Classic())
register_ruleset(TenthEdition())


def __dir__() -> list[str]:
    """The public names, ``__all__``: what ``dir()`` and completion offer."""
    return sorted(__all__)
