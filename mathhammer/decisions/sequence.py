"""Attacks in sequence: several attacking units (or turns) against one target, exactly.

Each step is an attack with its own weapons, context and modifiers; it carries on from
the target's state distribution the previous step left (``attack(..., start=...)``), so
the chance the target is destroyed after each step is exact, not a sum of averages.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ..errors import OptionError, field_error
from ..model.context import Context, Modifiers
from ..model.profiles import Unit
from ..results.attack import AttackResult
from ..results.sequence import SequenceResult
from ..results.state import UnitState
from ..rules.registry import RulesetLike
from .attack import attack

__all__ = ["sequence"]


def _step(item: Any, index: int) -> tuple[Any, Context | None, Modifiers | None, str]:
    """A step's (weapons, context, modifiers, label) from one of the forms it may take."""
    weapons, context, modifiers, label = _step_parts(item, index)
    if not isinstance(label, str | None):
        raise OptionError(f"step {index}: label must be a string; got {label!r}")
    return weapons, context, modifiers, label or f"step {index}"


def _step_parts(item: Any, index: int) -> tuple[Any, Any, Any, Any]:
    """A step's weapons, context, modifiers and label as its form gives them (None for
    those it does not give)."""
    if isinstance(item, Mapping):
        return _mapping_step(item, index)
    if _tuple_step(item):
        return item[0], item[1], (item[2] if len(item) == 3 else None), None
    return item, None, None, None


def _mapping_step(item: Mapping[str, Any], index: int) -> tuple[Any, Any, Any, Any]:
    """A step given as a mapping: its weapons, context, modifiers and label."""
    unknown = set(item) - {"weapons", "context", "modifiers", "label"}
    if unknown or "weapons" not in item:
        raise OptionError(
            f"step {index}: a mapping takes 'weapons' and optionally 'context', "
            f"'modifiers' and 'label'; got keys {sorted(item)}"
        )
    return item["weapons"], item.get("context"), item.get("modifiers"), item.get("label")


def _tuple_step(item: Any) -> bool:
    """Whether a step is a tuple ``(weapons, context)`` or ``(weapons, context, modifiers)``."""
    if not isinstance(item, tuple) or len(item) not in (2, 3):
        return False
    given = zip(item[1:], (Context, Modifiers), strict=False)  # the context, the modifiers
    return all(part is None or isinstance(part, kind) for part, kind in given)


def sequence(
    steps: Iterable[Any],
    target: Unit,
    *,
    rules: RulesetLike | None = None,
    start: AttackResult | UnitState | None = None,
) -> SequenceResult:
    """Attacks resolved one after another against one target, the target's state
    carried from each to the next: several units shooting in turn, or turn after turn.

    Parameters
    ----------
    steps : iterable
        The attacks in order. Each is the weapons as :func:`mathhammer.attack` takes them,
        or ``(weapons, context)``, ``(weapons, context, modifiers)``, or a mapping with
        ``weapons`` and optionally ``context``, ``modifiers`` and ``label``.
    target : Unit
        The target before the first step.
    rules : str or Ruleset
        The ruleset of every step (``"11e"`` by default). Under the classic ruleset each
        step's result carries the Panic Test that attacking unit causes.
    start : AttackResult or UnitState, optional
        The target's state before the first step (e.g. the last step of an earlier
        turn's sequence).

    Returns
    -------
    SequenceResult
        The result after each step, and P(destroyed) by step.

    Examples
    --------
    >>> import mathhammer as mh
    >>> tank = mh.Unit.of("Tank", models=1, toughness=10, save=3, wounds=12)
    >>> melta = mh.Weapon("Melta", 1, 3, strength=9, ap=-4, damage="D6", abilities="[MELTA 2]")
    >>> lascannon = mh.Weapon("Lascannon", 1, skill=3, strength=12, ap=-3, damage="D6+1")
    >>> close = mh.Context(half_range=True)
    >>> turn = mh.sequence(
    ...     [
    ...         {"weapons": [(melta, 2)], "context": close, "label": "Melta squad"},
    ...         {"weapons": [(lascannon, 2)], "label": "Devastators"},
    ...         {"weapons": [(lascannon, 2)], "label": "Predator"},
    ...     ],
    ...     tank,
    ... )
    >>> [round(p, 4) for p in turn.p_destroyed]
    [0.0206, 0.1342, 0.3247]
    """
    _check_arguments(steps, target)
    labels, results = [], []
    state = start
    for index, item in enumerate(steps, 1):
        weapons, context, modifiers, label = _step(item, index)
        result = attack(
            weapons, target, rules=rules, context=context, modifiers=modifiers, start=state
        )
        labels.append(label)
        results.append(result)
        state = result
    if not results:
        raise OptionError("sequence: give at least one step")
    return SequenceResult(target, tuple(labels), tuple(results))


def _check_arguments(steps: Any, target: Any) -> None:
    """Refuse a ``target`` that is not a Unit, or ``steps`` that are not a list of them."""
    if not isinstance(target, Unit):
        raise OptionError(f"target must be a Unit; got {type(target).__name__}")
    if isinstance(steps, str | bytes) or not isinstance(steps, Iterable):
        raise field_error(OptionError, "steps", "a list of attacks, one per step", steps)
