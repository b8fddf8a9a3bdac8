"""The command re-roll's policy: which die of a pool it re-rolls, and whether it fishes.

A command re-roll (``Modifiers.reroll_one``) re-rolls one hit, wound or damage roll of a
pool. :func:`command_reroll` decides, once per pool, whether it re-rolls only a failed die
or, when none failed, a non-critical success for a critical (docs/rules.md D30); the
engines then re-roll the first die it marks.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..model.draft import PoolDraft
from .base import CommandReroll, RollCheck
from .faces import CRITICAL, SUCCESS, save_face_weights

__all__ = ["command_reroll"]


def command_reroll(
    draft: PoolDraft,
    hit: RollCheck | None,
    wound: RollCheck,
    saved: Any,
    save_rerolls: str | None = None,
) -> CommandReroll | None:
    """The pool's command re-roll (``Modifiers.reroll_one``), its policy decided
    (docs/rules.md D30).

    To raise the expected damage, a non-critical success is re-rolled (when no die
    failed) if a re-rolled die's expected worth beats a success's. A die's worth is
    counted in wounds that get past the saves, per point of damage: a wound is worth
    the chance ``u`` that the group taking the pool's first save fails it (``saved``:
    the faces it saves; ``save_rerolls``: the defender's re-roll of its ones or of its
    failed saves, :func:`~mathhammer.rules.base.save_face_weights`; a command re-roll of
    one save is not counted), a devastating wound 1; a hit is worth its wound roll's
    expected worth, a critical hit its [LETHAL HITS] wound or its hit, plus its
    [SUSTAINED HITS]. With ``:at_least`` only a failed die is re-rolled. [TORRENT] has
    no hit roll.

    Examples
    --------
    >>> from mathhammer import Context, Modifiers, Unit, Weapon
    >>> from mathhammer.rules import get_ruleset
    >>> gun = Weapon("Gun", 1, 2, 4, 0, 1, "[SUSTAINED HITS 2]")
    >>> target = Unit.of("T", 5, 4, 4, 1)
    >>> checks = get_ruleset("11e").pool_checks(gun, target, Context(), Modifiers(reroll_one="hit"))
    >>> checks.reroll_one  # BS 2+: 1/6 fails, and a critical is worth three hits
    CommandReroll(step='hit', fish=True)
    """
    if draft.reroll_one is None:
        return None
    step, _, goal = draft.reroll_one.partition(":")
    if step == "damage":  # which roll: decided with the model's wounds in view (D32)
        return CommandReroll(step)
    check = hit if step == "hit" else wound
    if check is None:
        return None
    if goal == "at_least":
        return CommandReroll(step)
    u = _save_fails(np.asarray(saved, dtype=bool), save_rerolls)
    return CommandReroll(step, fish=_fishes(check, _worths(draft, step, wound, u)))


def _fishes(check: RollCheck, worths: tuple[float, float]) -> bool:
    """True if a re-rolled die of ``check`` is expected to be worth more than a success,
    given what a success and a critical success are worth (``worths``)."""
    success, critical = worths
    again = check.rerolled()
    worth = again[SUCCESS] * success + again[CRITICAL] * critical
    return bool(worth > success * (1.0 + 1e-12))


def _worths(draft: PoolDraft, step: str, wound: RollCheck, u: float) -> tuple[float, float]:
    """What a success and a critical success of the re-rolled ``step`` are worth, in wounds
    past the saves per point of damage, when a wound gets past them with chance ``u``: a
    devastating wound always does; a hit is worth its wound roll (:func:`_hit_worths`)."""
    critical_wound = 1.0 if draft.devastating else u
    if step == "wound":
        return u, critical_wound
    return _hit_worths(draft, wound, u, critical_wound)


def _hit_worths(
    draft: PoolDraft, wound: RollCheck, u: float, critical_wound: float
) -> tuple[float, float]:
    """What a hit and a critical hit are worth, a wound and a critical wound being worth
    ``u`` and ``critical_wound``: a hit its wound roll's expected worth, a critical hit its
    [LETHAL HITS] wound or its hit, plus its [SUSTAINED HITS]."""
    w = wound.probabilities()
    per_hit = w[SUCCESS] * u + w[CRITICAL] * critical_wound
    extra = draft.sustained.mean if draft.sustained is not None else 0.0
    return per_hit, (u if draft.lethal else per_hit) + extra * per_hit


def _save_fails(saved: np.ndarray, rerolls: str | None) -> float:
    """P(a save fails) for a group that saves the faces ``saved``, once the defender has
    re-rolled its ones or its failed saves (``"ones"``, ``"failures"``; a command re-roll
    of one save, ``"command"``, is not counted: docs/rules.md D30).

    Examples
    --------
    >>> saved = np.array([False, False, True, True, True, True])  # a 3+ save
    >>> round(_save_fails(saved, None) * 36), round(_save_fails(saved, "failures") * 36)
    (12, 4)
    """
    if rerolls not in ("ones", "failures"):
        return 1.0 - float(np.mean(saved))
    weights = save_face_weights(saved[np.newaxis, :], rerolls)[0]
    return float(weights[~saved].sum())
