"""Carrying on from a state: what ``attack`` and ``simulate`` accept as ``start``.

Shared by both engines (neither depends on the other): the start is a result's
:attr:`~mathhammer.results.attack.AttackResult.state` or a
:class:`~mathhammer.results.state.UnitState` itself, of the same target under the same
ruleset.
"""

from __future__ import annotations

from typing import Any

from ..errors import OptionError, field_error
from ..model.profiles import Unit
from .attack import AttackResult
from .state import UnitState

__all__ = ["start_state"]


def start_state(start: Any, target: Unit, rules: str) -> UnitState:
    """The state an attack on ``target`` under ``rules`` carries on from: ``start``'s,
    checked.

    Examples
    --------
    >>> import mathhammer as mh
    >>> squad = mh.Unit.of("Squad", 5, 4, 3, 2)
    >>> start_state(mh.UnitState.initial(squad, "11e"), squad, "11e").p_destroyed
    0.0
    >>> start_state(mh.UnitState.initial(squad, "11e"), squad, "classic")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mathhammer.errors.OptionError: start: a state reached under the '11e' ruleset; ...
    """
    state = _state_of(start)
    if state.unit != target:
        raise OptionError(
            f"start: a state of unit {state.unit.name!r} ({state.unit!r}), not of the target "
            f"{target.name!r} ({target!r}); carry a state on against its own unit"
        )
    if state.rules != rules:
        raise OptionError(
            f"start: a state reached under the {state.rules!r} ruleset; this attack uses {rules!r}"
        )
    return state


def _state_of(start: Any) -> UnitState:
    """The state ``start`` holds: a result's state, or ``start`` itself, a
    :class:`~mathhammer.results.state.UnitState`."""
    if isinstance(start, AttackResult):
        if start.state is None:
            raise OptionError("start: this result holds no state of its target to carry on from")
        return start.state
    if not isinstance(start, UnitState):
        raise field_error(OptionError, "start", "an AttackResult or a UnitState", start)
    return start
