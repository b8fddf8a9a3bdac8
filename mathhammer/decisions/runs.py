"""An attack as the decisions see it: a request, and a run that answers it.

Each decision (:mod:`~mathhammer.decisions.choices`, :mod:`~mathhammer.decisions.order`,
:mod:`~mathhammer.decisions.defender`) takes the run it scores and gives a run that makes
the decision first; :func:`~mathhammer.decisions.attack.attack` composes them over the
exact engine (:func:`engine_run`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..exact.engine import resolve
from ..model.context import Context, Modifiers
from ..model.profiles import Unit
from ..model.standing import Standing
from ..results.attack import AttackResult
from ..results.state import UnitState
from ..rules.plan import AttackPlan
from ..rules.registry import RulesetLike

__all__ = ["Request", "Run", "engine_run"]


@dataclass(frozen=True, slots=True)
class Request:
    """One attack to compute.

    Attributes
    ----------
    weapons : list of (Weapon, count), or AttackPlan
        The attacking weapons, as :func:`mathhammer.attack` takes them.
    target : Unit or None
        The target (None with a plan).
    standing : Standing or None
        The target as it stood when the attack was declared; None: as it stands in each
        state of ``start`` (docs/rules.md D34).
    start : AttackResult, UnitState or None
        The target's state after earlier attacks.
    rules, context, modifiers
        As :func:`mathhammer.attack` takes them.
    """

    weapons: Any
    target: Unit | None
    standing: Standing | None = None
    start: AttackResult | UnitState | None = None
    rules: RulesetLike | None = None
    context: Context | None = None
    modifiers: Modifiers | None = None

    @property
    def decidable(self) -> bool:
        """Whether the request is one a decision reads: weapons (not a plan, whose pools
        are fixed) against a target unit."""
        return isinstance(self.target, Unit) and not isinstance(self.weapons, AttackPlan)


#: A run: the result of a request.
Run = Callable[[Request], AttackResult]


def engine_run(request: Request) -> AttackResult:
    """The exact engine's result of the request, every decision as given."""
    return resolve(
        request.weapons,
        request.target,
        request.standing,
        request.start,
        rules=request.rules,
        context=request.context,
        modifiers=request.modifiers,
    )
