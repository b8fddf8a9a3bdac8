"""What one pool brings to the save step on a target's layout: the faces each group
saves, the damage per unsaved attack and per devastating wound, and the rules that
change which model is current or how the dice are rolled."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..rules.base import AllocationOrder
from ..rules.plan import AttackPlan, PlannedPool
from .budget import save_weights, saved_faces
from .chain import in_attack_order
from .damage import CommandDamage, Damage, command_damage, group_damage

__all__ = ["PoolSaves", "pool_saves"]


@dataclass(frozen=True, slots=True)
class PoolSaves:
    """One pool's save step against a target.

    Attributes
    ----------
    saved : ndarray of bool, shape (groups, 6)
        ``saved[g, f - 1]``: group ``g`` saves a natural ``f`` against this pool.
    damage : sequence of Dist
        Wounds lost per unsaved attack by a model of each group (after FNP).
    mortal : sequence of Dist
        Wounds lost per devastating wound by a model of each group (after FNP).
    focus : int, optional
        The CHARACTER group [PRECISION] makes current.
    order : callable, optional
        The ruleset's allocation order (the 11th edition's by default).
    faces : ndarray, optional
        ``faces[g, f - 1]``: the chance that one save die shows ``f`` once the defender's
        re-rolls are made, with group ``g`` current as the dice are rolled
        (:func:`~mathhammer.rules.base.save_face_weights`); uniform when None.
    command : optional
        A command re-roll of one damage roll (:func:`~mathhammer.exact.damage.command_damage`):
        the chain runs on the states twice over, before and after the re-roll is used
        (:func:`~mathhammer.exact.rerolled.command_transition`).
    save_command : bool
        The defender's command re-roll of the pool's first failed save (docs/rules.md D33):
        the chain runs on the states twice over
        (:func:`~mathhammer.exact.rerolled.save_command_split`).
    in_order : bool
        The saves are resolved one attack at a time, each against the model its attack
        is allocated to (a ruleset without sorted saves: the 10th edition); ``saved``
        then holds each group's chance to save a die on every face
        (:func:`~mathhammer.exact.chain.in_attack_order`) and ``faces`` is None.
    """

    saved: np.ndarray
    damage: tuple[Damage, ...]
    mortal: tuple[Damage, ...] = ()
    focus: int | None = None
    order: AllocationOrder | None = None
    faces: np.ndarray | None = None
    command: CommandDamage | None = None
    save_command: bool = False
    in_order: bool = False


def pool_saves(step: PlannedPool, plan: AttackPlan) -> PoolSaves:
    """The save step of one pool of a plan."""
    checks, target, ruleset = step.checks, plan.target, plan.ruleset
    saved = saved_faces(checks, target)
    faces = save_weights(checks, saved)
    if not ruleset.sorted_saves:
        saved, faces = in_attack_order(saved, faces), None
    per_attack, per_mortal = group_damage(checks, target, ruleset)
    return PoolSaves(
        saved,
        tuple(per_attack),
        tuple(per_mortal),
        checks.precision_group,
        ruleset.current_group,
        faces,
        command_damage(checks, target, ruleset),
        checks.save_reroll == "command",
        not ruleset.sorted_saves,
    )
