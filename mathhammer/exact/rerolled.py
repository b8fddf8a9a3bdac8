"""A command re-roll in the chain: the states twice over, while the re-roll is unused
and once it is used (docs/rules.md D33). The attacker's re-roll of a damage roll changes
the damage transition (:func:`command_transition`); the defender's of a save changes the
save dice's (:func:`save_command_split`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

import numpy as np

from ..core.binomial import FloatArray
from ..rules.base import AllocationOrder
from .chain import (
    block_share,
    block_transitions,
    rolling_parts,
    save_blocks,
    saves_every_die,
    saving_states,
    sorted_dice_chain,
)
from .counts import trim_into
from .damage import Damage
from .layout import Layout, damage_matrix
from .pool_saves import PoolSaves
from .transition import Transition

if TYPE_CHECKING:  # imported where a large unit needs it: import time matters
    import scipy.sparse as sp

__all__ = ["command_transition", "fresh_saves", "on_doubled_states", "save_command_split"]


def command_transition(
    layout: Layout,
    plain: Sequence[Damage],
    kept: Sequence[Damage],
    rerolled: Sequence[Damage],
    focus: int | None = None,
    order: AllocationOrder | None = None,
) -> np.ndarray | sp.csr_matrix:
    """The one-attack damage transition on the states twice over: the first copy while the
    pool's command re-roll is unused, the second once it is used. From the first, an
    attack whose roll is kept stays in it (``kept``), one rolled again moves to the second
    (``rerolled``); the second takes the damage as rolled (``plain``)::

        [[K, R],
         [0, P]]
    """
    matrices = [damage_matrix(layout, d, focus=focus, order=order) for d in (kept, rerolled, plain)]
    k, r, p = matrices
    # a destroyed unit stays where it is (in K); R moves nothing out of it
    standing = (layout.current_group(focus, order) >= 0).astype(float)
    if isinstance(k, np.ndarray):
        return np.block([[k, r * standing[:, None]], [np.zeros_like(k), p]])
    import scipy.sparse as sp

    r = sp.diags(standing) @ r
    return sp.csr_matrix(sp.bmat([[k, r], [None, p]]))


def save_command_split(
    damage: np.ndarray | sp.csr_matrix, saving: np.ndarray, again: np.ndarray
) -> tuple[sp.csr_matrix, sp.csr_matrix]:
    """One save die of a block on the states twice over (before and after the defender's
    command re-roll is used): the part that inflicts no damage and the part that does.

    ``saving``: the states whose current model saves the block's faces (of one copy);
    ``again[s]``: the chance that a die rolled again saves for state ``s``'s current model.
    Unused, a failed save is rolled again at once: saved (``again``), the state moves to
    the second copy; failed again, it takes the damage there. Used, a failed save takes
    the damage::

        kept    = [[S, F a], [0, S]]      S = diag(saving), F = diag(not saving)
        damaged = [[0, F (1 - a) D], [0, F D]]
    """
    import scipy.sparse as sp

    size = len(again)
    sav = saving[:size].astype(float)
    fail = 1.0 - sav
    d = sp.csr_matrix(damage)
    kept = sp.bmat([[sp.diags(sav), sp.diags(fail * again)], [None, sp.diags(sav)]])
    damaged = sp.bmat(
        [
            [None, sp.diags(fail * (1.0 - again)) @ d],
            [sp.csr_matrix((size, size)), sp.diags(fail) @ d],
        ]
    )
    return sp.csr_matrix(kept), sp.csr_matrix(damaged)


def fresh_saves(
    layout: Layout, saved: np.ndarray, focus: int | None, order: AllocationOrder | None
) -> np.ndarray:
    """The chance that a save die rolled again saves, for each state's current model (1
    for a destroyed unit: nothing is left to damage)."""
    current = layout.current_group(focus, order)
    share = saved.mean(axis=1)
    return np.where(current >= 0, share[np.maximum(current, 0)], 1.0)


def on_doubled_states(
    layout: Layout,
    state: FloatArray,
    to_save: FloatArray,
    saves: PoolSaves,
    trimmed: list[float] | None,
) -> FloatArray:
    """:func:`~mathhammer.exact.pool_chain.apply_pool` with a command re-roll: the
    sorted-dice chain on the states twice over, while the re-roll is unused and once it is
    used, then the two copies added. The attacker's re-roll of a damage roll
    (``saves.command``) changes the damage transition (:func:`command_transition`);
    otherwise it is the defender's of a save, which changes the save dice's
    (:func:`save_command_split`)."""
    size = layout.size
    doubled = _command_blocks if saves.command is not None else _save_command_blocks
    blocks_of, mortal = doubled(layout, saves)
    if trimmed is not None:
        to_save = trim_into(trim_into(to_save.T, trimmed).T, trimmed)
    parts = rolling_parts(layout, state, saves.faces, saves.focus, saves.order)
    after_saves = sum(
        sorted_dice_chain(to_save, np.concatenate([part, np.zeros(size)]), blocks_of(weights))
        for part, weights in parts
    )  # [m, 2 states]
    assert isinstance(after_saves, np.ndarray)
    if after_saves.shape[0] > 1:
        after_saves = Transition(mortal).power_series(after_saves)[None, :]
    both = after_saves[0]
    return np.asarray(both[:size] + both[size:], dtype=np.float64)


#: The save blocks' transitions on the doubled states, given the faces' weights.
_Blocks = Callable[[FloatArray | None], list[tuple[float, Transition | None]]]


def _command_blocks(layout: Layout, saves: PoolSaves) -> tuple[_Blocks, Any]:
    """The attacker's command re-roll of a damage roll: the save blocks' transitions and
    the devastating wounds' transition on the doubled states."""
    assert saves.command is not None
    (kept, rerolled), (mortal_kept, mortal_rerolled) = saves.command
    focus, order = saves.focus, saves.order
    current = layout.current_group(focus, order)
    doubled = command_transition(layout, saves.damage, kept, rerolled, focus, order)
    mortal = command_transition(layout, saves.mortal, mortal_kept, mortal_rerolled, focus, order)
    return partial(block_transitions, saves.saved, np.tile(current, 2), doubled), mortal


def _save_command_blocks(layout: Layout, saves: PoolSaves) -> tuple[_Blocks, Any]:
    """The defender's command re-roll of a failed save: the save blocks' transitions and
    the devastating wounds' transition on the doubled states."""
    focus, order = saves.focus, saves.order
    current = layout.current_group(focus, order)
    damage = damage_matrix(layout, saves.damage, focus=focus, order=order)
    again = fresh_saves(layout, saves.saved, focus, order)
    mortal = _twice(damage_matrix(layout, saves.mortal, focus=focus, order=order))
    return partial(_split_blocks, saves.saved, current, damage, again), mortal


def _split_blocks(
    saved: np.ndarray,
    current: np.ndarray,
    damage: np.ndarray | sp.csr_matrix,
    again: np.ndarray,
    weights: FloatArray | None,
) -> list[tuple[float, Transition | None]]:
    """Each save block's share of the dice and its transition on the doubled states
    (:func:`save_command_split`; None where every state saves the block's faces)."""
    out: list[tuple[float, Transition | None]] = []
    for lo, n, pattern in save_blocks(saved):
        t = None
        if not saves_every_die(pattern):
            kept, hit = save_command_split(damage, saving_states(current, pattern), again)
            both = kept + hit
            t = Transition(both.toarray() if isinstance(damage, np.ndarray) else both)
        out.append((block_share(weights, lo, n), t))
    return out


def _twice(matrix: np.ndarray | sp.csr_matrix) -> np.ndarray | sp.csr_matrix:
    """The same transition on both copies of the states."""
    if isinstance(matrix, np.ndarray):
        zero = np.zeros_like(matrix)
        return np.block([[matrix, zero], [zero, matrix]])
    import scipy.sparse as sp

    return sp.csr_matrix(sp.block_diag([matrix, matrix]))
