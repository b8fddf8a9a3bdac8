"""The number of failed saves of a pool: how many save dice inflicted damage.

A failed save resolved after the unit was destroyed inflicts nothing, so the count is
not the number of dice that failed: it depends on the target's state, and so on the
sorted-dice chain of :mod:`mathhammer.exact.chain`.

The failing streak
    When every group saves from some face up (a threshold: Sv, InSv, a natural 1 that
    always fails), a die saved by the current model leaves the state as it is, and every
    later die shows as much or more: it is saved too. So the failed saves are the
    *leading* dice that fail, and ``count >= c`` exactly when the ``c`` lowest dice fail
    one after another. Split by the face block ``b`` of the ``c``-th lowest die and by the
    blocks ``i_1 .. i_b`` of the ``c`` lowest (``i_b >= 1``)::

        P(count >= c) = sum P(i_1 .. i_{b-1} exactly, at least i_b in block b)
                            * state @ T_1**i_1 @ ... @ T_b**i_b @ 1

    with ``T_b`` the damage transition from the states whose current model fails the
    block's faces (the rows of the others zero: the streak ends there). The weight is a
    binomial of the dice in blocks before ``b`` times a tail of those in block ``b``
    (:func:`_tail_weights`), and the vectors are mixed block by block
    (:func:`_mix`): no counter beside the states, and no joint of dice left and states.
    With ``L`` the most failed saves (the dice, or the unit's wounds) and ``S`` states,
    two acting blocks (two save characteristics) cost ``3 L`` vectors through the damage
    transition and one ``(L x S) @ (S x L)`` product; the augmented chain cost ``K² S L``.

Otherwise (a ruleset whose saves are not thresholds) the chain runs on states augmented
with a counter of failed saves (:func:`_augmented_chain`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..core.binomial import FloatArray, binomial_table, binomial_thin
from ..core.dist import Dist
from ..core.tuning import BLAS, STEP
from ..rules.base import AllocationOrder
from .chain import (
    block_share,
    rolling_parts,
    save_blocks,
    saves_every_die,
    saving_states,
    sorted_dice_chain,
)
from .cost import Cost, apply_cost, chain_cost, check_cost
from .damage import CommandDamage, Damage, never_zero
from .layout import Layout, damage_matrix
from .pool_saves import PoolSaves
from .rerolled import command_transition, fresh_saves, save_command_split
from .transition import Transition

__all__ = ["unsaved_counter", "unsaved_distribution"]

#: What the refusal of an estimate names.
_WHAT = "the failed saves' distribution"


def unsaved_counter(layout: Layout, kmax: int, effective_damage: Sequence[Damage]) -> int:
    """The values the failed-saves counter takes: ``0..kmax``, or ``0..wounds`` when every
    failed save costs at least one wound (the unit is destroyed by then)."""
    if never_zero(effective_damage):
        return min(kmax, layout.most_damage) + 1
    return kmax + 1


def _thresholds(saved: np.ndarray) -> bool:
    """Whether every group saves from some face up (``False .. False, True .. True``)."""
    return bool(np.all(saved[:, 1:] >= saved[:, :-1]))


def unsaved_distribution(
    layout: Layout, state: FloatArray, to_save: FloatArray, saves: PoolSaves
) -> Dist:
    """The number of save dice that inflicted damage (failed saves resolved before the unit died).

    Parameters
    ----------
    layout : Layout
        The target's state space.
    state : ndarray
        The state distribution before the pool.
    to_save : ndarray
        ``to_save[k, m]``: P(k attacks reach the save step and m are devastating wounds).
    saves : PoolSaves
        The pool's save step (:class:`~mathhammer.exact.pool_saves.PoolSaves`); with a
        command re-roll, the failed saves are counted on the doubled states.

    Returns
    -------
    Dist
        Over ``0..kmax``, or ``0..wounds`` when every failed save costs a wound.

    Examples
    --------
    Two dice against a Sv3+ W1 model, then a Sv4+ W1 model, at AP -1 (they fail on 1-3
    and on 1-4). Sorted ``a <= b``: ``a`` fails unless both dice are 4+ (27/36), and ``b``
    fails too when ``a <= 3`` and ``b <= 4``: 16/36 - 1/36 (``a = b = 4``).

    >>> from mathhammer.model.profiles import ModelGroup, Unit
    >>> layout = Layout(Unit("u", [ModelGroup(1, 4, 3, 1), ModelGroup(1, 4, 4, 1)]))
    >>> saved = np.array([[0, 0, 0, 1, 1, 1], [0, 0, 0, 0, 1, 1]], dtype=bool)
    >>> two_dice = np.array([[0.0], [0.0], [1.0]])
    >>> saves = PoolSaves(saved, (Dist.constant(1),) * 2)
    >>> d = unsaved_distribution(layout, layout.initial_state(), two_dice, saves)
    >>> (d.probabilities * 36).round(9).tolist()
    [9.0, 12.0, 15.0]
    """
    count = np.asarray(to_save.sum(axis=1), dtype=np.float64)  # devastating wounds: no save
    parts = rolling_parts(layout, state, saves.faces, saves.focus, saves.order)
    pmf = sum(_part_unsaved(layout, part, count, saves, weights) for part, weights in parts)
    assert isinstance(pmf, np.ndarray)
    return Dist._trusted(pmf)


def _part_unsaved(
    layout: Layout,
    state: FloatArray,
    count: FloatArray,
    saves: PoolSaves,
    weights: FloatArray | None,
) -> FloatArray:
    """:func:`unsaved_distribution` from one part of the state (:func:`rolling_parts`):
    with a command re-roll, by the counter beside the doubled states."""
    args = (saves.saved, saves.damage, saves.focus, saves.order, weights)
    if saves.command is not None or saves.save_command or saves.in_order:
        # in attack order, a die saved may be followed by one that fails: no streak
        return _augmented_chain(layout, state, count, *args, saves.command, saves.save_command)
    return _unsaved(layout, state, count, *args)


def _unsaved(
    layout: Layout,
    state: FloatArray,
    count: FloatArray,
    saved: np.ndarray,
    effective_damage: Sequence[Damage],
    focus: int | None,
    order: AllocationOrder | None,
    weights: FloatArray | None,
) -> FloatArray:
    """:func:`unsaved_distribution` from one part of the state (:func:`rolling_parts`)."""
    kmax = count.size - 1
    counter = unsaved_counter(layout, kmax, effective_damage)
    if not _thresholds(saved):
        args = (saved, effective_damage, focus, order, weights)
        return _augmented_chain(layout, state, count, *args)
    current = layout.current_group(focus, order)
    acting = [
        (block_share(weights, 1, lo - 1 + n) - block_share(weights, 1, lo - 1),
         ~saving_states(current, pattern))
        for lo, n, pattern in save_blocks(saved)
        if not saves_every_die(pattern)
    ]  # fmt: skip
    damage = damage_matrix(layout, effective_damage, focus=focus, order=order)
    if isinstance(damage, np.ndarray):
        cost = streak_cost(kmax, counter - 1, layout.size, layout.size**2, True, len(acting))
    else:
        cost = streak_cost(kmax, counter - 1, layout.size, int(damage.nnz), False, len(acting))
    sizes = f"{kmax} dice to save, {layout.size} target states"
    check_cost(_WHAT, cost, sizes)
    at_least = _streak_at_least(count, state, acting, _Step(damage), counter - 1)
    return np.maximum(at_least[:-1] - at_least[1:], 0.0)


class _Step:
    """One die of a face block: the damage transition from the failing states only."""

    def __init__(self, damage: Any) -> None:
        self.dense = isinstance(damage, np.ndarray)
        self._m = damage
        if not self.dense:
            import scipy.sparse as sp

            # row vectors go through the transpose, as in chain.Transition
            self._t = sp.csr_matrix(damage.T)

    def forward(self, rows: FloatArray, failing: np.ndarray) -> FloatArray:
        """``rows @ T``: the mass of saving states stops, the rest takes the damage."""
        x = np.where(failing, rows, 0.0)
        if self.dense:
            return np.asarray(x @ self._m, dtype=np.float64)
        return np.asarray((self._t @ x.T).T, dtype=np.float64)

    def backward(self, column: FloatArray, failing: np.ndarray) -> FloatArray:
        """``T @ column``: what a function of the state after the die is worth before it."""
        return np.where(failing, np.asarray(self._m @ column, dtype=np.float64), 0.0)


def _trim(rows: FloatArray) -> FloatArray:
    """Drop trailing rows that are exactly zero (the streak cannot be that long)."""
    nonzero = np.flatnonzero(np.any(rows != 0.0, axis=1))
    return rows[: nonzero[-1] + 1] if nonzero.size else rows[:1]


def _survivals(step: _Step, failing: np.ndarray, most: int, size: int) -> FloatArray:
    """``q[i] = T**i @ 1``: P(``i`` dice of the block in a row all fail), from each state."""
    q = np.zeros((most + 1, size))
    q[0] = 1.0
    for i in range(1, most + 1):
        q[i] = step.backward(q[i - 1], failing)
        if not q[i].any():
            return q[:i]
    return q


def _mix(z: FloatArray, step: _Step, failing: np.ndarray, share: float, most: int) -> FloatArray:
    """The vectors after one more block: ``out[I] = sum_i Bin(I, share)(i) z[I - i] @ T**i``.

    ``z[a]`` is the state mass after the streak's ``a`` lowest dice, all in earlier
    blocks; ``share`` is the chance that one of ``I`` dice in the blocks so far is in
    this one. ``z @ T**i`` is made for every row at once, ``i`` by ``i``.
    """
    if share == 1.0:  # the first block: z is the state alone, every die is in this block
        return _first_mix(z, step, failing, most)
    out = np.zeros((most + 1, z.shape[1]))
    stack = z
    table = binomial_table(most, share)  # table[I, i]
    i = 0
    while stack.any():  # rows past I = most are dropped: the stack ends empty
        rows = min(stack.shape[0], most + 1 - i)
        out[i : i + rows] += table[i : i + rows, i, None] * stack[:rows]
        stack = step.forward(stack[: min(rows, most - i)], failing)
        i += 1
    return _trim(out)


def _first_mix(z: FloatArray, step: _Step, failing: np.ndarray, most: int) -> FloatArray:
    """:func:`_mix` after the first block, every die in it: ``out[i] = z[0] @ T**i``."""
    out = np.zeros((most + 1, z.shape[1]))
    stack = z
    for i in range(most + 1):
        out[i] = stack[0]
        stack = step.forward(stack, failing)
        if not stack.any():
            break
    return _trim(out)


def _tail_weights(count: FloatArray, before: float, upto: float, top: int) -> FloatArray:
    """``h[I, N]``: P(``I`` dice in the blocks before this one and ``N - I`` or more in it).

    With ``A(N)`` = P(``N`` dice in the blocks up to this one) (a thinning of the save
    dice), ``I`` of them are in the earlier blocks with Bin(N, before / upto)(I): the
    weight is the tail sum ``sum_{N' >= N} A(N') Bin(N', before / upto)(I)``.
    """
    within = binomial_thin(count, upto)  # within[N]
    kmax = count.size - 1
    if before == 0.0:  # the first block: no earlier dice
        split = np.zeros((kmax + 1, top))
        split[:, 0] = within
    else:
        split = within[:, None] * binomial_table(kmax, before / upto)[:, :top]
    return np.cumsum(split[::-1], axis=0)[::-1].T  # [I, N]


def _streak_at_least(
    count: FloatArray,
    state: FloatArray,
    acting: list[tuple[float, np.ndarray]],
    step: _Step,
    most: int,
) -> FloatArray:
    """``at_least[c]`` = P(the ``c`` lowest save dice all fail), ``c = 0..most + 1``.

    ``acting[b]`` is ``(P(a die is in block b), failing states)`` for the blocks that
    some group fails, in face order (the later ones save every die).
    """
    at_least = np.zeros(most + 2)
    at_least[0] = state.sum()  # the state's mass: one part of it (rolling_parts) or all
    z = state[None, :]  # the streak's vectors before the first block (no dice yet)
    before = 0.0
    for b, (p, failing) in enumerate(acting):
        q = _survivals(step, failing, most, state.size)
        top = min(z.shape[0], most + 1)
        sigma = z[:top] @ q.T  # sigma[I, i]: mass left after I dice before, then i here
        h = _tail_weights(count, before, before + p, top)
        for lead in range(top):  # c = lead + i, i >= 1 of them in this block
            n = min(q.shape[0] - 1, most - lead)
            if n <= 0:
                break
            at_least[lead + 1 : lead + n + 1] += (
                h[lead, lead + 1 : lead + n + 1] * sigma[lead, 1 : n + 1]
            )
        before += p
        if b + 1 < len(acting):
            z = _mix(z, step, failing, p / before, most)
    return at_least


def streak_cost(kmax: int, most: int, states: int, nonzero: int, dense: bool, acting: int) -> Cost:
    """The estimated cost of :func:`unsaved_distribution` on its failing-streak path.

    ``most`` is the largest count of failed saves, ``acting`` the face blocks that some
    group fails. Each block runs ``2 most`` products of a vector with the damage
    transition, a product of the streak's vectors ``(most + 1) x states`` with the
    block's survivals, and tail sums of a binomial table ``(kmax + 1)²``; each block
    between the first and the last mixes the vectors (``most²/2`` rows through the
    transition), with two more arrays of vectors.

    Examples
    --------
    >>> streak_cost(300, 60, 61, 61 * 61, True, 2).entries  # the binomial table and tails
    131044
    >>> streak_cost(2000, 2000, 5001, 15003, False, 2).entries  # the vectors
    20014002
    """
    vectors = (most + 1) * states
    one = apply_cost(states, nonzero, dense)
    row = apply_cost(states, nonzero, dense, stacked=True)
    table = (kmax + 1) ** 2
    build = 0.0 if kmax <= 256 else 1.5 * table + kmax * STEP
    products = (most + 1) ** 2 * states * BLAS
    block = 2 * most * (one + STEP) + products + 4 * (kmax + 1) * (most + 1) + build
    mix = (most + 1) ** 2 / 2 * (row + 2 * states) + most * STEP
    work = acting * block + max(acting - 2, 0) * mix
    tails = table + 2 * (kmax + 1) * (most + 1) + (most + 1) ** 2
    return Cost(max((2 if acting <= 2 else 4) * vectors, tails), work)


def _augmented_chain(
    layout: Layout,
    state: FloatArray,
    count: FloatArray,
    saved: np.ndarray,
    effective_damage: Sequence[Damage],
    focus: int | None = None,
    order: AllocationOrder | None = None,
    weights: FloatArray | None = None,
    command: CommandDamage | None = None,
    save_command: bool = False,
) -> FloatArray:
    """The chain of :func:`~mathhammer.exact.chain.apply_pool` on states augmented with a
    counter of failed saves: for any ``saved`` (a die saved may be followed by one that
    fails), at ``counter`` times the cost of the chain; with a ``command`` re-roll of a
    damage roll, on the doubled states of :func:`~mathhammer.exact.chain.command_transition`;
    with the defender's ``save_command``, on those of
    :func:`~mathhammer.exact.chain.save_command_split` (a save made by the re-roll is not
    counted)."""
    kmax = count.size - 1
    counter = unsaved_counter(layout, kmax, effective_damage)
    again = fresh_saves(layout, saved, focus, order) if save_command else None
    current, damage, state = _augmented_damage(
        layout, state, effective_damage, focus, order, command
    )
    size = len(current)
    if save_command:
        size *= 2
        state = np.concatenate([state, np.zeros(layout.size)])
    states = size * counter
    nonzero = counter * (damage.nnz + layout.size)
    acting = [not saves_every_die(pattern) for _, _, pattern in save_blocks(saved)]
    one, stacked = apply_cost(states, nonzero, False), apply_cost(states, nonzero, False, True)
    cost = chain_cost(kmax, 1, states, one, acting, stacked)
    sizes = f"{kmax} dice to save, {size} target states x {counter} counts"
    check_cost(_WHAT, cost, sizes)
    blocks = _augmented_blocks(saved, weights, current, damage, again, counter)
    start = np.zeros((size, counter))
    start[:, 0] = state
    final = sorted_dice_chain(count[:, None], start.ravel(), blocks)[0].reshape(size, counter)
    return np.asarray(final.sum(axis=0), dtype=np.float64)


def _augmented_damage(
    layout: Layout,
    state: FloatArray,
    effective_damage: Sequence[Damage],
    focus: int | None,
    order: AllocationOrder | None,
    command: CommandDamage | None,
) -> tuple[np.ndarray, Any, FloatArray]:
    """The current group of each state, the sparse damage transition and the state of
    :func:`_augmented_chain`: on the states twice over with a ``command`` re-roll of a
    damage roll (:func:`~mathhammer.exact.rerolled.command_transition`)."""
    import scipy.sparse as sp

    current = layout.current_group(focus, order)
    if command is None:
        damage = damage_matrix(layout, effective_damage, focus=focus, order=order, sparse=True)
        assert isinstance(damage, sp.csr_matrix)
        return current, damage, state
    (kept, rerolled), _ = command
    damage = command_transition(layout, effective_damage, kept, rerolled, focus, order)
    doubled = np.concatenate([state, np.zeros(layout.size)])
    return np.tile(current, 2), sp.csr_matrix(damage), doubled


def _augmented_blocks(
    saved: np.ndarray,
    weights: FloatArray | None,
    current: np.ndarray,
    damage: Any,
    again: np.ndarray | None,
    counter: int,
) -> list[tuple[float, Transition | None]]:
    """The face blocks of :func:`_augmented_chain`: each acting block's transition on the
    states times the counter, which a failed save moves up by one (it stops at its top);
    with the defender's command re-roll (``again``), the saves it makes are not counted
    (:func:`~mathhammer.exact.rerolled.save_command_split`)."""
    import scipy.sparse as sp

    top = counter - 1
    shift = sp.diags(np.ones(top), 1, shape=(counter, counter)) + sp.coo_matrix(
        ([1.0], ([top], [top])), shape=(counter, counter)
    )
    blocks: list[tuple[float, Transition | None]] = []
    for lo, n, pattern in save_blocks(saved):
        p = block_share(weights, lo, n)
        if saves_every_die(pattern):
            blocks.append((p, None))
            continue
        saving = saving_states(current, pattern).astype(float)  # a bool, or a chance
        if again is None:
            kept, fail = sp.diags(saving), sp.diags(1.0 - saving) @ damage
        else:
            kept, fail = save_command_split(damage, saving, again)
        aug = sp.kron(kept, sp.identity(counter)) + sp.kron(fail, shift)
        blocks.append((p, Transition(sp.csr_matrix(aug))))
    return blocks
