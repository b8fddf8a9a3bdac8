"""Save and Inflict Damage as a Markov chain over the target unit's model-wound states.

The 11th-edition save step resolves a pool's save dice from the lowest result to
the highest, one at a time, against the *current* model (docs/rules.md §1.7). Groups in the
allocation order may have different Sv and InSv, so which die meets which model
matters, and the chain tracks it exactly.

The states and the damage transition are in :mod:`mathhammer.exact.layout`.

Sorted dice
    The faces 1..6 are split into *blocks* of consecutive faces that every group
    treats alike (saved by the same groups). Of ``n`` dice still unresolved, all
    showing at least the block's lowest face ``v``, the number in a block of ``b``
    faces is Binomial(n, b / (7 - v)); the rest stay uniform above it. The ``k``
    dice of a block are applied one at a time with the block's one-die transition
    ``T``: saved (stay) or damage (the damage matrix). Dice left when the unit is
    destroyed change nothing: leftover attacks are lost. While a single block acts
    the chain reduces to ``sum_j P(j dice in it) * state @ T**j``, evaluated by
    Horner's scheme. Dice that a defender's re-roll has rolled again are not uniform:
    then the share of a block is its faces' weight over the weight of the faces from
    ``v`` up (:func:`block_share`), and a re-roll of failed saves, which depends on the
    model current as the dice are rolled, splits the state by that model's group
    (:func:`rolling_parts`; docs/rules.md §4.7, D29).

Windows
    Of hundreds of dice, the counts that reach a block lie within a few standard
    deviations of their mean, and so do the dice of each count that fall in the block:
    a split sums only the terms of :func:`split_windows`, cutting a mass of at most
    ``4 * WINDOW_MASS`` that is reported with the result (640 dice against a 4-group
    unit: a third of the transitions' work).

Mortal wounds
    Devastating wounds are applied after the pool's save dice, one critical wound at a
    time, each damaging at most one model (the damage matrix without saves). Mortal
    wounds from other sources are applied one wound at a time and spill over.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from ..core.binomial import FloatArray, binomial_table, binomial_thin
from ..core.dist import Dist
from ..core.tuning import BLOCKS_KEPT, CHUNK_ENTRIES, WINDOW_MASS
from ..rules.base import FACES, AllocationOrder
from .counts import Windows, split_windows, trim_into
from .damage import Damage, damage_key
from .layout import Layout, damage_matrix
from .transition import Transition

if TYPE_CHECKING:  # imported where a large unit needs it: import time matters
    import scipy.sparse as sp

__all__ = [
    "block_share",
    "block_transitions",
    "factored_series",
    "in_attack_order",
    "layout_blocks",
    "rolling_parts",
    "save_blocks",
    "saves_every_die",
    "saving_states",
    "sorted_dice_chain",
    "spill_mortal_wounds",
]


def save_blocks(saved: np.ndarray) -> list[tuple[int, int, np.ndarray]]:
    """Split the faces 1..6 into runs of consecutive faces with the same per-group result.

    ``saved[g, f - 1]`` tells whether group ``g`` saves a natural ``f``. Returns
    ``(lowest face, number of faces, saved-by-group)`` per run.

    Examples
    --------
    >>> s = np.array([[0, 0, 1, 1, 1, 1], [0, 0, 0, 1, 1, 1]], dtype=bool)
    >>> [(lo, n, pattern.tolist()) for lo, n, pattern in save_blocks(s)]
    [(1, 2, [False, False]), (3, 1, [True, False]), (4, 3, [True, True])]
    """
    blocks: list[tuple[int, int, np.ndarray]] = []
    columns = saved.T.tolist()  # per face, a list of bools: compared in Python, no numpy call
    previous = None
    for f in FACES:
        column = columns[f - 1]
        if column == previous:
            lo, n, pattern = blocks[-1]
            blocks[-1] = (lo, n + 1, pattern)
        else:
            blocks.append((f, 1, saved[:, f - 1]))
        previous = column
    return blocks


def in_attack_order(saved: np.ndarray, faces: np.ndarray | None) -> np.ndarray:
    """The save faces of a ruleset that resolves a pool's saves one attack at a time, each
    against the model its attack is allocated to (10th edition, docs/rules.md §8.2, D46).

    A die is then not sorted among the others: whatever face it shows, its group saves it
    with the group's chance over the faces (``faces[g]``, the defender's re-rolls made;
    uniform when None). Every face of a group is given that chance, so the faces make one
    block (:func:`save_blocks`) whose one-die transition mixes saved and damaged by it.

    Examples
    --------
    >>> s = np.array([[0, 0, 1, 1, 1, 1], [0, 0, 0, 1, 1, 1]], dtype=bool)
    >>> [(lo, n, p.round(4).tolist()) for lo, n, p in save_blocks(in_attack_order(s, None))]
    [(1, 6, [0.6667, 0.5])]
    """
    weights = np.full(saved.shape, 1.0 / 6.0) if faces is None else faces
    chance = (weights * saved).sum(axis=1)
    out = np.repeat(chance[:, None], saved.shape[1], axis=1)
    out.setflags(write=False)
    return out


def saves_every_die(pattern: np.ndarray) -> bool:
    """Whether every group saves a block's faces (a bool or a chance per group)."""
    return bool(np.all(pattern >= 1))


def saving_states(current: np.ndarray, pattern: np.ndarray) -> np.ndarray:
    """States whose current model saves the block's faces (or the chance that it does);
    leftover dice against a destroyed unit change nothing, so the destroyed state "saves"
    too."""
    return np.where(current >= 0, pattern[np.maximum(current, 0)], True)


def sorted_dice_chain(
    count: FloatArray,
    state: FloatArray,
    blocks: list[tuple[float, Transition | None]],
    trimmed: list[float] | None = None,
) -> FloatArray:
    """Resolve sorted save dice from ``state``; return ``result[m, s]``.

    ``count[n, m]`` is the joint pmf of save dice ``n`` and of a passenger count ``m``
    (the pool's devastating wounds) that the save dice do not touch. The joint
    ``joint[n, s, m]`` of dice left, state and passengers is factored (``count`` times
    ``state``) until the first block that acts, and is only built when a later block acts
    too: a single acting block costs ``O((n + m) s)`` memory, not ``O(n m s)``.

    Given a list ``trimmed``, the counts of dice whose probability is negligible are cut
    from the top of each count (:func:`trim_counts`), each split of the dice between a
    block and the blocks above it keeps only what is not negligible (:func:`split_windows`,
    :data:`WINDOW_MASS`), and the mass cut is appended to it. Without one, nothing is cut.
    """
    acting = [(i, p, t) for i, (p, t) in enumerate(blocks) if t is not None]
    if not acting:
        return np.asarray(count.sum(axis=0)[:, None] * state, dtype=np.float64)
    (first, p, t), (last, *_) = acting[0], acting[-1]
    for saved, _ in blocks[:first]:  # saved by every group: they take dice, change nothing
        count = binomial_thin(count, 1.0 - saved)
    if first == last:  # the dice of later blocks are saved: only this block's count matters
        return factored_series(trim_into(binomial_thin(count, p), trimmed), state, t)
    between = blocks[first + 1 : last]
    return _joint_chain(trim_into(count, trimmed), state, (p, t), between, acting[-1][1:], trimmed)


def _joint_chain(
    count: FloatArray,
    state: FloatArray,
    first: tuple[float, Transition],
    between: list[tuple[float, Transition | None]],
    last: tuple[float, Transition],
    trimmed: list[float] | None,
) -> FloatArray:
    """:func:`sorted_dice_chain` from its first acting block to its last: the joint of
    dice left, state and passengers built at the first, split at each acting block
    ``between`` them and at the last, thinned at each block between them that every group
    saves."""
    mass = 0.0 if trimmed is None else WINDOW_MASS
    cuts: list[float] = []
    joint = _first_split(count, state, *first, mass, cuts)
    for p, t in between:
        joint = _thin_in_place(joint, 1.0 - p) if t is None else _split(joint, p, t, mass, cuts)
    out = _last_split(joint, *last, mass, cuts)
    if trimmed is not None:
        trimmed.append(float(sum(cuts)))
    return out


def _windows(counts: FloatArray, table: FloatArray, mass: float, cuts: list[float]) -> Windows:
    """The :func:`split_windows` of a split (``mass``), their cut appended to ``cuts``."""
    win = split_windows(counts, table, mass)
    cuts.append(win.cut)
    return win


def _thin_in_place(joint: FloatArray, p: float) -> FloatArray:
    """:func:`binomial_thin` of ``joint`` along its first axis, a chunk of columns at a time
    and into ``joint`` itself: no second array of the joint's size."""
    kmax = joint.shape[0] - 1
    table = binomial_table(kmax, p)
    flat = joint.reshape(kmax + 1, -1)
    chunk = max(1, CHUNK_ENTRIES // (kmax + 1))
    for c0 in range(0, flat.shape[1], chunk):
        flat[:, c0 : c0 + chunk] = table.T @ flat[:, c0 : c0 + chunk]
    return joint


def factored_series(coeffs: FloatArray, state: FloatArray, t: Transition) -> FloatArray:
    """``out[m] = sum_j coeffs[j, m] * (state @ T**j)``, without the ``[j, m, s]`` stack.

    The vectors ``state @ T**j`` are made one after another and multiplied in chunks, so
    the memory is ``O(m s)`` plus one chunk. Once a vector no longer changes (the unit
    is destroyed in every state reached) the remaining terms are that vector: they are
    summed at once.
    """
    jmax, width = coeffs.shape[0], coeffs.shape[1]
    out = np.zeros((width, state.size))
    chunk = max(1, min(jmax, CHUNK_ENTRIES // max(state.size, 1)))
    powers = np.empty((chunk, state.size))
    v = state
    for j0 in range(0, jmax, chunk):
        rows = min(chunk, jmax - j0)
        for r in range(rows):
            powers[r] = v
            after = t.apply(v) if j0 + r + 1 < jmax else v
            # looked for every few steps only: a few more steps cost less than the look
            if (j0 + r) % 8 == 7 and after is not v and np.array_equal(after, v):
                out += coeffs[j0 : j0 + r].T @ powers[:r]
                out += coeffs[j0 + r :].sum(axis=0)[:, None] * v
                return out
            v = after
        out += coeffs[j0 : j0 + rows].T @ powers[:rows]
    return out


def _first_split(
    count: FloatArray,
    state: FloatArray,
    p: float,
    t: Transition,
    mass: float,
    cuts: list[float],
) -> FloatArray:
    """``joint[n', s, m]`` after the first acting block, from the factored ``count x state``.

    ``joint[n'] = sum_j P(n' + j dice, j of them in the block) count[n' + j] state T**j``:
    matrix products of the coefficients with the vectors ``state @ T**j``, a chunk of ``j``
    at a time (one passenger count), or all of them against a slice of ``n'`` (several:
    the vectors are kept, the coefficients of a slice made as needed). Only the terms of
    :func:`split_windows` (``mass``) are summed; their cut is appended to ``cuts``.
    """
    kmax, width = count.shape[0] - 1, count.shape[1]
    table = binomial_table(kmax, p)  # table[n, j]
    win = _windows(count, table, mass, cuts)
    joint = np.zeros((kmax + 1, state.size, width))
    v = state
    for _ in range(win.first):  # the powers below the fewest dice in the block: not kept
        v = t.apply(v)
    # coeffs[j, n'] = table[n' + j, j] * count[n' + j, m], for a range of j or of n'
    if width == 1:
        _first_split_by_powers(joint, count, table, win, v, t)
    else:
        _first_split_by_slices(joint, count, table, win, v, t)
    return joint


def _first_split_by_powers(
    joint: FloatArray,
    count: FloatArray,
    table: FloatArray,
    win: Windows,
    v: FloatArray,
    t: Transition,
) -> None:
    """:func:`_first_split` of one passenger count, into ``joint``: the coefficients of a
    chunk of ``j`` at a time times the vectors ``v @ T**j`` (``v`` the first of them)."""
    kmax, size = joint.shape[0] - 1, joint.shape[1]
    first, last, low, high = win.first, win.last, win.low, win.high
    flat = joint.reshape(kmax + 1, size)
    span = high - low + 1
    chunk = max(1, CHUNK_ENTRIES // max(span, 1))
    rows_at_once = max(1, CHUNK_ENTRIES // size)  # of the product, added to joint
    for j0 in range(first, last + 1, chunk):
        rows = min(chunk, last + 1 - j0)
        coeffs = np.zeros((rows, span))
        for r in range(rows):
            j = j0 + r
            n0, n1 = win.dice_range(j)
            if n0 <= n1:
                coeffs[r, n0 - j - low : n1 - j - low + 1] = (
                    table[n0 : n1 + 1, j] * count[n0 : n1 + 1, 0]
                )
        powers = np.empty((rows, size))
        v = _powers_into(powers, v, t, j0 + rows <= last)
        for r0 in range(0, span, rows_at_once):
            r1 = min(span, r0 + rows_at_once)
            flat[low + r0 : low + r1] += coeffs[:, r0:r1].T @ powers


def _first_split_by_slices(
    joint: FloatArray,
    count: FloatArray,
    table: FloatArray,
    win: Windows,
    v: FloatArray,
    t: Transition,
) -> None:
    """:func:`_first_split` of several passenger counts, into ``joint``: every vector
    ``v @ T**j`` kept, against a slice of ``n'`` at a time."""
    kmax, size, width = joint.shape
    kmax -= 1
    first, last, low, high = win.first, win.last, win.low, win.high
    powers = np.empty((last - first + 1, size))
    _powers_into(powers, v, t, False)
    per_slice = max(1, CHUNK_ENTRIES // ((last - first + 1) * width))
    dice = np.arange(first, last + 1)[None, :]
    by_state = powers.T  # [s, j]
    for n0 in range(low, high + 1, per_slice):
        n1 = min(high + 1, n0 + per_slice)
        n = np.arange(n0, n1)[:, None] + dice  # [n', j] -> n' + j
        inside = np.minimum(n, kmax)
        weights = np.where(win.mask(n, dice), table[inside, dice], 0.0)
        coeffs = weights[:, :, None] * count[inside]  # [n', j, m]
        joint[n0:n1] = np.matmul(by_state, coeffs)  # [n', s, m]


def _powers_into(out: FloatArray, v: FloatArray, t: Transition, more: bool) -> FloatArray:
    """Fill the rows of ``out`` with ``v @ T**r``; return the power after the last row, or,
    where no ``more`` powers are needed, the last row's itself (none made past it)."""
    rows = len(out)
    for r in range(rows):
        out[r] = v
        if more or r + 1 < rows:
            v = t.apply(v)
    return v


def _split(
    joint: FloatArray,
    p: float,
    t: Transition,
    mass: float,
    cuts: list[float],
) -> FloatArray:
    """``joint[n', s, m]`` after a later acting block: ``sum_j P(j of n' + j dice in the
    block) T^t**j joint[n' + j]``, by Horner's scheme in ``j``.

    Only the terms of :func:`split_windows` (``mass``) are summed, their cut appended to
    ``cuts``: going down from the most dice any count puts in the block, each step moves
    the rows the sum so far holds (no more than the windows reach) and adds the terms of
    that many dice in the block, one product on contiguous memory, no stack of powers.
    """
    kmax = joint.shape[0] - 1
    table = binomial_table(kmax, p)  # table[n, j]: j of n remaining dice in this block
    win = _windows(joint, table, mass, cuts)
    out = np.zeros_like(joint)
    term = np.empty_like(joint[: win.b - win.a + 1])
    t.reserve(max(win.high - win.low + 1, 1))
    lo, hi = kmax + 1, -1  # the rows the sum holds so far: none
    for j in range(win.last, -1, -1):
        if lo <= hi:
            out[lo : hi + 1] = t.apply_columns(out[lo : hi + 1])
        n0, n1 = win.dice_range(j)  # with full windows, every count from j dice up
        if n0 > n1:
            continue
        rows = n1 + 1 - n0
        np.multiply(joint[n0 : n1 + 1], table[n0 : n1 + 1, j, None, None], out=term[:rows])
        out[n0 - j : n1 - j + 1] += term[:rows]
        lo, hi = min(lo, n0 - j), max(hi, n1 - j)
    return out


def _last_split(
    joint: FloatArray,
    p: float,
    t: Transition,
    mass: float,
    cuts: list[float],
) -> FloatArray:
    """``result[m, s]`` after the last acting block: ``sum_j T^t**j sum_n P(j of n dice in
    the block) joint[n]`` (the dice above it are saved by every group), the inner sums a
    product with the windows' table (:func:`split_windows`; their cut appended to
    ``cuts``) into ``joint`` itself, a chunk of columns at a time, then Horner's scheme."""
    kmax = joint.shape[0] - 1
    table = binomial_table(kmax, p)
    flat = joint.reshape(kmax + 1, -1)
    win = _windows(joint, table, mass, cuts)
    a, b, last = win.a, win.b, win.last
    weights = table[a : b + 1, : last + 1]  # [n, j]
    if not win.full:
        n = np.arange(a, b + 1)[:, None]
        weights = np.where(win.mask(n, np.arange(last + 1)[None, :]), weights, 0.0)
    chunk = max(1, CHUNK_ENTRIES // (b - a + 1))
    for c0 in range(0, flat.shape[1], chunk):  # each chunk's product made before it is written
        flat[: last + 1, c0 : c0 + chunk] = weights.T @ flat[a : b + 1, c0 : c0 + chunk]
    return np.ascontiguousarray(t.column_series(joint[: last + 1]).T)


def block_share(weights: FloatArray | None, lo: int, n: int) -> float:
    """The chance that a die showing ``lo`` or more shows one of the ``n`` faces from ``lo``
    up, for dice whose faces have ``weights`` (uniform when None).

    Examples
    --------
    >>> block_share(None, 3, 2)  # 3 or 4 of 3..6
    0.5
    >>> round(block_share(np.array([1, 7, 7, 7, 7, 7]) / 36, 1, 1) * 36, 12)  # 1s re-rolled
    1.0
    """
    if weights is None:
        return n / (7 - lo)
    return float(weights[lo - 1 : lo - 1 + n].sum() / weights[lo - 1 :].sum())


def rolling_parts(
    layout: Layout,
    state: FloatArray,
    faces: np.ndarray | None,
    focus: int | None = None,
    order: AllocationOrder | None = None,
) -> list[tuple[FloatArray, FloatArray | None]]:
    """The state split by the group current as a pool's save dice are rolled, each part
    with the weights of one die's faces (:func:`~mathhammer.rules.base.save_face_weights`
    ``faces[g]``; None: uniform). One part when the weights do not depend on the group;
    the destroyed states, which no die changes, go with the first part."""
    if faces is None:
        return [(state, None)]
    if (faces == faces[0]).all():
        return [(state, faces[0])]
    current = layout.current_group(focus, order)
    groups = _groups_reached(current, state)
    owner = np.where(current < 0, groups[0], current)  # destroyed: with the first part
    return [(np.where(owner == g, state, 0.0), faces[g]) for g in groups]


def _groups_reached(current: np.ndarray, state: FloatArray) -> list[int]:
    """The groups current in the states ``state`` reaches (the first group when it reaches
    only "destroyed")."""
    return [int(g) for g in np.unique(current[state > 0]) if g >= 0] or [0]


def block_transitions(
    saved: np.ndarray,
    current: np.ndarray,
    damage: np.ndarray | sp.csr_matrix,
    weights: FloatArray | None = None,
) -> list[tuple[float, Transition | None]]:
    out: list[tuple[float, Transition | None]] = []
    for lo, n, pattern in save_blocks(saved):
        p = block_share(weights, lo, n)
        t = (
            None
            if saves_every_die(pattern)
            else Transition.with_saves(damage, saving_states(current, pattern))
        )
        out.append((p, t))
    return out


def layout_blocks(
    layout: Layout,
    saved: np.ndarray,
    effective_damage: Sequence[Damage],
    focus: int | None,
    order: AllocationOrder | None,
    damage: np.ndarray | sp.csr_matrix,
    weights: FloatArray | None = None,
) -> list[tuple[float, Transition | None]]:
    """:func:`_blocks` of a pool, kept on the layout for the next pool with the same saves
    and damage (a ranking of pool orders resolves each pool hundreds of times)."""
    pmfs = damage_key(effective_damage)
    faces = None if weights is None else weights.tobytes()
    key = (pmfs, focus, order, saved.tobytes(), saved.shape, faces)
    kept = layout.__dict__.setdefault("_blocks", {})
    found = kept.get(key)
    if found is None:
        if len(kept) >= BLOCKS_KEPT:
            kept.clear()
        current = layout.current_group(focus, order)
        found = kept[key] = block_transitions(saved, current, damage, weights)
    return found  # type: ignore[no-any-return]


def spill_mortal_wounds(
    layout: Layout,
    state: FloatArray,
    count: Dist,
    wound_lost: Sequence[float],
    order: AllocationOrder | None = None,
) -> FloatArray:
    """Apply ``count`` mortal wounds one at a time; they spill over to the next model.

    ``wound_lost[g]`` is P(a mortal wound is not prevented by the FNP of group ``g``).
    """
    one = [Dist._trusted(np.array([1.0 - p, p])) for p in wound_lost]
    t = Transition(damage_matrix(layout, one, order=order))
    return np.asarray(factored_series(count.probabilities[:, None], state, t)[0], np.float64)
