"""A pool's save dice and devastating wounds on the target's layout: the sorted-dice chain
(:mod:`~mathhammer.exact.chain`), on the states twice over where a command re-roll is in
play (:mod:`~mathhammer.exact.rerolled`), then the devastating wounds."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.binomial import FloatArray
from ..errors import OptionError
from .chain import layout_blocks, rolling_parts, sorted_dice_chain
from .counts import cap_passengers, trim_into
from .damage import never_zero
from .layout import Layout, damage_matrix
from .pool_saves import PoolSaves
from .rerolled import on_doubled_states
from .transition import Transition

__all__ = ["apply_pool"]


def apply_pool(
    layout: Layout,
    state: FloatArray,
    to_save: FloatArray,
    saves: PoolSaves,
    trimmed: list[float] | None = None,
) -> FloatArray:
    """The state distribution after a pool's save dice and devastating wounds.

    Parameters
    ----------
    layout : Layout
        The target's state space.
    state : ndarray
        The state distribution before the pool.
    to_save : ndarray
        ``to_save[k, m]``: P(k attacks reach the save step and m are devastating wounds).
    saves : PoolSaves
        The pool's save step against the target.
    trimmed : list of float, optional
        Given, the counts of dice of negligible probability are cut
        (:func:`~mathhammer.exact.counts.trim_counts`) and the mass cut appended to it;
        else nothing is cut.
    """
    if saves.save_command or saves.command is not None:
        return _command_pool(layout, state, to_save, saves, trimmed)
    focus, order = saves.focus, saves.order
    damage = damage_matrix(layout, saves.damage, focus=focus, order=order)
    after_saves = _saves_chain(
        layout, state, _counts(layout, to_save, saves, trimmed), saves, damage, trimmed
    )
    if after_saves.shape[0] == 1:
        return np.asarray(after_saves[0], dtype=np.float64)
    devastating = Transition(damage_matrix(layout, saves.mortal, focus=focus, order=order))
    return devastating.power_series(after_saves)


def _command_pool(
    layout: Layout,
    state: FloatArray,
    to_save: FloatArray,
    saves: PoolSaves,
    trimmed: list[float] | None,
) -> FloatArray:
    """:func:`apply_pool` with a command re-roll, of a save or of a damage roll (not both:
    refused), on the states twice over (:func:`~mathhammer.exact.rerolled.on_doubled_states`)."""
    if saves.save_command and saves.command is not None:
        raise OptionError(
            "a command re-roll of a damage roll against a unit with a command re-roll "
            "of a save is not computed; give one of them"
        )
    return on_doubled_states(layout, state, to_save, saves, trimmed)


def _counts(
    layout: Layout, to_save: FloatArray, saves: PoolSaves, trimmed: list[float] | None
) -> FloatArray:
    """The pool's joint counts of (dice to save, devastating wounds) the chain takes: the
    devastating wounds' counts trimmed, then capped at the unit's wounds where each costs
    one (:func:`~mathhammer.exact.counts.cap_passengers`)."""
    if trimmed is not None:
        to_save = trim_into(to_save.T, trimmed).T  # the devastating wounds' count, then the dice
    if to_save.shape[1] > 1 and never_zero(saves.mortal):
        to_save = cap_passengers(to_save, layout.most_damage)
    return to_save


def _saves_chain(
    layout: Layout,
    state: FloatArray,
    to_save: FloatArray,
    saves: PoolSaves,
    damage: Any,
    trimmed: list[float] | None,
) -> FloatArray:
    """``after[m, s]``: the state distribution after the save dice, jointly with the count
    ``m`` of devastating wounds still to resolve, summed over the parts of the state that
    roll their saves alike (:func:`~mathhammer.exact.chain.rolling_parts`)."""
    focus, order = saves.focus, saves.order
    parts = rolling_parts(layout, state, saves.faces, focus, order)
    if len(parts) > 1 and trimmed is not None:  # the dice cut once, for every part
        to_save, trimmed = trim_into(to_save, trimmed), None
    after_saves = sum(
        sorted_dice_chain(
            to_save,
            part,
            layout_blocks(layout, saves.saved, saves.damage, focus, order, damage, weights),
            trimmed,
        )
        for part, weights in parts
    )  # [m, s]
    assert isinstance(after_saves, np.ndarray)
    return after_saves
