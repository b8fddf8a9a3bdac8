"""Rulesets: each game system's tables and checks behind one typed interface.

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
    Ruleset,
)
from .classic import Classic
from .eleventh import EleventhEdition
from .plan import AttackPlan, PlannedPool, plan_attack
from .registry import get_ruleset, register_ruleset, ruleset_names

__all__ = [
    "CRITICAL",
    "FAIL",
    "SUCCESS",
    "AfterAttackTest",
    "AttackPlan",
    "Classic",
    "EleventhEdition",
    "Outcome",
    "PlannedPool",
    "PoolChecks",
    "RollCheck",
    "Ruleset",
    "get_ruleset",
    "plan_attack",
    "register_ruleset",
    "ruleset_names",
]

register_ruleset(EleventhEdition())
register_ruleset(Classic())
