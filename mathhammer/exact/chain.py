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
from ..core.limits import MAX_TABLE
from ..errors import OptionError
from ..rules.base import FACES, AllocationOrder
from .cost import CHUNK_ENTRIES
from .damage import CommandDamage, Damage, damage_key, never_zero
from .layout import Layout, damage_matrix

if TYPE_CHECKING:  # imported where a large unit needs it: import time matters
    import scipy.sparse as sp

__all__ = [
    "BAND_ENTRIES",
    "BAND_LIMIT",
    "BAND_STATES",
    "MAX_JOINT",
    "TRIM_MASS",
    "WINDOW_COUNTS",
    "WINDOW_MASS",
    "Transition",
    "Windows",
    "apply_pool",
    "block_share",
    "cap_passengers",
    "command_transition",
    "fresh_saves",
    "save_command_split",
    "rolling_parts",
    "saving_states",
    "sorted_dice_chain",
    "spill_mortal_wounds",
    "split_windows",
    "trim_counts",
]

#: The most entries of a pool's joint (dice left, devastating wounds, state) distribution.
MAX_JOINT = MAX_TABLE


#: From this many states, a transition that only moves states forward by at most
#: :data:`BAND_LIMIT` is applied band by band (a few vector operations, not a matrix
#: product or a sparse one).
BAND_STATES = 128
#: The widest band applied band by band.
BAND_LIMIT = 32
#: A dense transition is applied band by band only when its bands, times this, are no
#: more than the work of the dense product (states x entries moved): each band is a few
#: numpy calls (about 1.5 us), a dense product about 0.08 ns per multiply-add (measured
#: from 128 to 1,200 states). A vector then goes through the dense matrix unless the
#: bands are few; a wide stack of distributions goes band by band.
BAND_ENTRIES = 20_000


class Transition:
    """A one-die transition ``T`` (rows: from, columns: to), applied to row vectors.

    Stored dense for small units, sparse for large ones, and as bands when every
    transition moves a state forward by a few places only (the units whose groups are
    used up in order: damage moves the unit along one line of states).
    """

    def __init__(self, matrix: np.ndarray | sp.spmatrix) -> None:
        self.dense = isinstance(matrix, np.ndarray)
        self.bands = _bands(matrix) if matrix.shape[0] >= BAND_STATES else None
        if self.dense:
            self._m = matrix
        else:
            import scipy.sparse as sp

            # a sparse T is stored transposed and applied as (T^t @ x^t)^t
            self._m = sp.csr_matrix(matrix.T)

    @classmethod
    def with_saves(cls, damage: np.ndarray | sp.csr_matrix, saving: np.ndarray) -> Transition:
        """The damage transition with the rows of ``saving`` states replaced by "stay"."""
        if isinstance(damage, np.ndarray):
            m = damage.copy()
            m[saving] = 0.0
            idx = np.flatnonzero(saving)
            m[idx, idx] = 1.0
            return cls(m)
        import scipy.sparse as sp

        keep = sp.diags((~saving).astype(float))
        return cls(keep @ damage + sp.diags(saving.astype(float)))

    def _by_bands(self, x: FloatArray) -> bool:
        """Whether ``x`` is moved band by band (see :data:`BAND_ENTRIES`)."""
        if self.bands is None:
            return False
        return not self.dense or len(self.bands) * BAND_ENTRIES <= x.size * len(self.bands[0])

    def apply(self, x: FloatArray) -> FloatArray:
        """``x @ T`` for a vector or for a stack of row vectors (any leading shape)."""
        if self._by_bands(x):
            bands = self.bands
            assert bands is not None
            out: FloatArray = x * bands[0]
            for d in range(1, len(bands)):
                out[..., d:] += x[..., :-d] * bands[d, :-d]
            return out
        if self.dense:
            return np.asarray(x @ self._m, dtype=np.float64)
        flat = x.reshape(-1, x.shape[-1])
        return np.asarray((self._m @ flat.T).T).reshape(x.shape)

    def power_series(self, coeffs: FloatArray) -> FloatArray:
        """``sum_j coeffs[j] @ T**j`` by Horner's scheme (``coeffs`` stacked on axis 0)."""
        result: FloatArray = coeffs[-1].copy()
        for j in range(len(coeffs) - 2, -1, -1):
            result = self.apply(result) + coeffs[j]
        return result

    def apply_columns(self, x: FloatArray) -> FloatArray:
        """``T^t @ x``: each column of ``x`` (shape ``(S, M)``, or ``(L, S, M)`` for ``L`` such
        arrays) a state distribution, moved one die. The states are on the second-last axis,
        so a stack of ``L`` is one product with no transposed copy (a block-diagonal one
        when ``T`` is sparse)."""
        if self._by_bands(x):
            assert self.bands is not None
            column = self.bands[:, :, None]
            moved: FloatArray = x * column[0]
            for d in range(1, len(column)):
                moved[..., d:, :] += x[..., :-d, :] * column[d, :-d]
            return moved
        if self.dense:
            if x.ndim == 2:
                return np.asarray(self._m.T @ x, dtype=np.float64)
            stack, states, width = x.shape
            if width == 1:  # one product of the stacked row vectors
                return np.asarray(x.reshape(stack, states) @ self._m).reshape(x.shape)
            moved = np.tensordot(x, self._m, axes=(1, 0))  # [stack, width, states]
            return np.ascontiguousarray(moved.transpose(0, 2, 1))
        if x.ndim == 2:
            return np.asarray(self._m @ x, dtype=np.float64)
        stack, states = x.shape[0], x.shape[1]
        flat = x.reshape(stack * states, -1)
        return np.asarray(self._block(stack) @ flat, dtype=np.float64).reshape(x.shape)

    def _block(self, stack: int) -> sp.csr_matrix:
        """``I_stack (x) T^t``: the first ``stack`` blocks of one block-diagonal matrix, made
        once for the largest stack asked for and cut to size without copying its arrays."""
        import scipy.sparse as sp

        big = self.__dict__.get("_big")
        if big is None or big.shape[0] < stack * self._m.shape[0]:
            size = max(stack, self.__dict__.get("_reserved", 0))
            big = sp.csr_matrix(sp.kron(sp.identity(size, format="csr"), self._m))
            self.__dict__["_big"] = big
        rows = stack * self._m.shape[0]
        end = int(big.indptr[rows])
        return sp.csr_matrix(
            (big.data[:end], big.indices[:end], big.indptr[: rows + 1]), shape=(rows, rows)
        )

    def reserve(self, stack: int) -> None:
        """Make the block-diagonal matrix of :meth:`apply_columns` for stacks of up to
        ``stack`` arrays at once, rather than again as the stacks grow."""
        self.__dict__["_reserved"] = max(stack, self.__dict__.get("_reserved", 0))

    def column_series(self, coeffs: FloatArray) -> FloatArray:
        """``sum_j T^t**j @ coeffs[j]`` by Horner's scheme: :meth:`power_series` for arrays
        whose states are on axis 1 (``coeffs[j]`` of shape ``(S, M)``)."""
        result: FloatArray = coeffs[-1].copy()
        for j in range(len(coeffs) - 2, -1, -1):
            result = self.apply_columns(result)
            result += coeffs[j]
        return result


def _bands(matrix: np.ndarray | sp.spmatrix) -> FloatArray | None:
    """``bands[d, s] = T[s, s + d]`` when every entry of ``T`` lies on such a diagonal with
    ``0 <= d <= BAND_LIMIT``; else None."""
    if isinstance(matrix, np.ndarray):
        rows, cols = np.nonzero(matrix)
        values = matrix[rows, cols]
    else:
        coo = matrix.tocoo()
        rows, cols, values = coo.row, coo.col, coo.data
    offsets = cols - rows
    if offsets.size == 0 or offsets.min() < 0 or offsets.max() > BAND_LIMIT:
        return None
    bands = np.zeros((int(offsets.max()) + 1, matrix.shape[0]))
    np.add.at(bands, (offsets, rows), values)
    return bands


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


def saving_states(current: np.ndarray, pattern: np.ndarray) -> np.ndarray:
    """States whose current model saves the block's faces; leftover dice against a
    destroyed unit change nothing, so the destroyed state "saves" too."""
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
    active = [i for i, (_, t) in enumerate(blocks) if t is not None]
    if not active:
        return np.asarray(count.sum(axis=0)[:, None] * state, dtype=np.float64)
    first, last = active[0], active[-1]
    for p, _ in blocks[:first]:  # saved by every group: they take dice, change nothing
        count = binomial_thin(count, 1.0 - p)
    p, t = blocks[first]
    assert t is not None
    if first == last:  # the dice of later blocks are saved: only this block's count matters
        return factored_series(_trimmed(binomial_thin(count, p), trimmed), state, t)
    mass = 0.0 if trimmed is None else WINDOW_MASS
    cuts: list[float] = []
    joint = _first_split(_trimmed(count, trimmed), state, p, t, mass, cuts)
    for p, t in blocks[first + 1 : last]:
        joint = _thin_in_place(joint, 1.0 - p) if t is None else _split(joint, p, t, mass, cuts)
    p, t = blocks[last]
    assert t is not None
    out = _last_split(joint, p, t, mass, cuts)
    if trimmed is not None:
        trimmed.append(float(sum(cuts)))
    return out


#: The most probability mass cut from the top of one count of dice (:func:`trim_counts`).
TRIM_MASS = 1e-18
#: The mass :func:`split_windows` cuts, at most, from each end of the counts a split takes
#: and from each tail of the dice a block takes of a count (relative to the count's mass):
#: a split cuts at most four times this, ``TRIM_MASS / 4``.
WINDOW_MASS = TRIM_MASS / 16
#: Counts of dice up to which a split keeps every term (:func:`split_windows`).
WINDOW_COUNTS = 128


class Windows:
    """What a split of counts of dice between a block and the blocks above it keeps: the
    counts ``a..b``, and of ``n`` dice the ``lo[n - a]..hi[n - a]`` that fall in the block
    (both non-decreasing in ``n``), with the probability mass the rest held (``cut``).
    Without ``lo`` and ``hi``, every count from 0 to ``b`` and every split of it: nothing
    cut.

    ``dice_range(j)``: the counts ``n0..n1`` whose window holds ``j`` (empty when
    ``n0 > n1``).
    """

    def __init__(
        self,
        a: int,
        b: int,
        lo: np.ndarray | None = None,
        hi: np.ndarray | None = None,
        cut: float = 0.0,
    ) -> None:
        self.a, self.b, self.cut = a, b, cut
        #: whether every count and every split of it is kept
        self.full = lo is None or hi is None
        if lo is None or hi is None:
            self.first, self.last, self.low, self.high = 0, b, 0, b
            return
        self.lo, self.hi = lo, hi
        #: the fewest and the most dice any kept count puts in the block
        self.first, self.last = int(lo[0]), int(hi[-1])
        dice = np.arange(self.first, self.last + 1)
        n0 = a + np.searchsorted(hi, dice, side="left")  # the first count reaching j
        n1 = a + np.searchsorted(lo, dice, side="right") - 1  # the last count starting by j
        self._n0, self._n1 = n0.tolist(), n1.tolist()
        left = n0 - dice  # the dice above the block, n - j, at each end
        right = n1 - dice
        some = n0 <= n1
        #: the fewest and the most dice left above the block
        self.low = int(left[some].min()) if some.any() else 0
        self.high = int(right[some].max()) if some.any() else -1

    def dice_range(self, j: int) -> tuple[int, int]:
        if self.full:
            return j, self.b
        if j < self.first or j > self.last:
            return 1, 0
        return self._n0[j - self.first], self._n1[j - self.first]

    def mask(self, n: np.ndarray, j: np.ndarray) -> np.ndarray:
        """Whether ``j`` dice of ``n`` (broadcast) are kept."""
        inside = (n >= self.a) & (n <= self.b)
        if self.full:
            every: np.ndarray = inside & (j <= n)
            return every
        at = np.clip(n, self.a, self.b) - self.a
        kept: np.ndarray = inside & (j >= self.lo[at]) & (j <= self.hi[at])
        return kept


def split_windows(counts: FloatArray, table: FloatArray, mass: float) -> Windows:
    """The :class:`Windows` of a split: ``counts[n]`` (an array of any shape) the
    probabilities of ``n`` dice, ``table[n, j]`` the chance ``j`` of them fall in the block.

    The counts at either end holding at most ``mass`` there are cut, and of each count
    kept the dice in the block at either tail of its binomial whose chance is at most
    ``mass``: the cut is at most ``4 * mass`` (times the total of ``counts``), and is
    reported. With ``mass = 0``, or at most :data:`WINDOW_COUNTS` counts, nothing is cut
    (the windows cost more than they save).

    Examples
    --------
    >>> from mathhammer.core.binomial import binomial_table
    >>> counts = np.zeros(401)
    >>> counts[300] = 1.0
    >>> w = split_windows(counts, binomial_table(400, 0.5), 1e-18)
    >>> (w.a, w.b), (int(w.lo[0]), int(w.hi[0])), w.cut < 4e-18
    ((300, 300), (76, 224), True)
    """
    size = len(counts)
    if mass == 0.0 or size <= WINDOW_COUNTS:
        return Windows(0, size - 1)
    rowmass = counts.reshape(size, -1).sum(axis=1)
    below = np.cumsum(rowmass)
    a = min(int(np.searchsorted(below, mass, side="right")), size - 1)
    above = np.cumsum(rowmass[::-1])  # above[i]: the mass of the top i + 1 counts
    b = max(size - 1 - int(np.searchsorted(above, mass, side="right")), a)
    cut = float(below[a - 1]) if a > 0 else 0.0
    cut += float(above[size - 2 - b]) if b < size - 1 else 0.0
    rows = table[a : b + 1, : b + 1]
    width = b + 1
    cdf = np.cumsum(rows, axis=1)
    sf = np.cumsum(rows[:, ::-1], axis=1)[:, ::-1]  # sf[n, j]: P(at least j)
    # windows only widened to make them non-decreasing in n (rounding may break it)
    lo = np.minimum.accumulate(np.count_nonzero(cdf <= mass, axis=1)[::-1])[::-1]
    hi = np.maximum.accumulate(width - 1 - np.count_nonzero(sf <= mass, axis=1))
    index = np.arange(len(rows))
    low = np.where(lo > 0, cdf[index, np.maximum(lo - 1, 0)], 0.0)
    high = np.where(hi < width - 1, sf[index, np.minimum(hi + 1, width - 1)], 0.0)
    cut += float(rowmass[a : b + 1] @ (low + high))
    return Windows(a, b, lo, hi, cut)


def trim_counts(count: FloatArray, mass: float = TRIM_MASS) -> tuple[FloatArray, float]:
    """``count[n, m]`` without its top rows (most dice) whose total probability is at most
    ``mass``; return it and the mass cut.

    A pool of hundreds of dice reaches its largest counts with probabilities far below any
    that can be printed; the chain's work grows with the square of the count, so those
    rows are dropped, and the mass dropped is reported with the result.

    Examples
    --------
    >>> count = np.array([[0.5], [0.5 - 1e-19], [1e-19]])
    >>> kept, cut = trim_counts(count)
    >>> kept.shape, cut
    ((2, 1), 1e-19)
    """
    if not len(count):
        return count, 0.0
    last = count[-1]  # each tail holds the last row: one entry read as it is
    if (float(last[0]) if len(last) == 1 else float(np.add.reduce(last))) > mass:
        return count, 0.0
    rows = count.sum(axis=1)
    tail = np.cumsum(rows[::-1])[::-1]  # tail[n]: P(at least n dice)
    cut_from = int(np.searchsorted(-tail, -mass, side="left"))  # first n with tail <= mass
    cut_from = max(cut_from, 1)
    if cut_from >= len(rows):
        return count, 0.0
    return count[:cut_from], float(tail[cut_from])


def _trimmed(count: FloatArray, trimmed: list[float] | None) -> FloatArray:
    if trimmed is None:
        return count
    kept, cut = trim_counts(count)
    trimmed.append(cut)
    return kept


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
    mass: float = 0.0,
    cuts: list[float] | None = None,
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
    win = split_windows(count, table, mass)
    if cuts is not None:
        cuts.append(win.cut)
    joint = np.zeros((kmax + 1, state.size, width))
    first, last, low, high = win.first, win.last, win.low, win.high
    v = state
    for _ in range(first):  # the powers below the fewest dice in the block: not kept
        v = t.apply(v)
    # coeffs[j, n'] = table[n' + j, j] * count[n' + j, m], for a range of j or of n'
    if width == 1:
        flat = joint.reshape(kmax + 1, state.size)
        span = high - low + 1
        chunk = max(1, CHUNK_ENTRIES // max(span, 1))
        rows_at_once = max(1, CHUNK_ENTRIES // state.size)  # of the product, added to joint
        for j0 in range(first, last + 1, chunk):
            rows = min(chunk, last + 1 - j0)
            coeffs = np.zeros((rows, span))
            powers = np.empty((rows, state.size))
            for r in range(rows):
                j = j0 + r
                n0, n1 = (j, win.b) if win.full else win.dice_range(j)
                if n0 <= n1:
                    coeffs[r, n0 - j - low : n1 - j - low + 1] = (
                        table[n0 : n1 + 1, j] * count[n0 : n1 + 1, 0]
                    )
                powers[r] = v
                if j < last:
                    v = t.apply(v)
            for r0 in range(0, span, rows_at_once):
                r1 = min(span, r0 + rows_at_once)
                flat[low + r0 : low + r1] += coeffs[:, r0:r1].T @ powers
        return joint
    powers = np.empty((last - first + 1, state.size))
    for j in range(first, last + 1):
        powers[j - first] = v
        if j < last:
            v = t.apply(v)
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
    return joint


def _split(
    joint: FloatArray,
    p: float,
    t: Transition,
    mass: float = 0.0,
    cuts: list[float] | None = None,
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
    win = split_windows(joint, table, mass)
    if cuts is not None:
        cuts.append(win.cut)
    out = np.zeros_like(joint)
    term = np.empty_like(joint[: win.b - win.a + 1])
    t.reserve(max(win.high - win.low + 1, 1))
    lo, hi = kmax + 1, -1  # the rows the sum holds so far: none
    full, n1 = win.full, win.b
    for j in range(win.last, -1, -1):
        if lo <= hi:
            out[lo : hi + 1] = t.apply_columns(out[lo : hi + 1])
        if full:  # every count from j dice up
            n0 = j
        else:
            n0, n1 = win.dice_range(j)
            if n0 > n1:
                continue
        rows = n1 + 1 - n0
        np.multiply(joint[n0 : n1 + 1], table[n0 : n1 + 1, j, None, None], out=term[:rows])
        out[n0 - j : n1 - j + 1] += term[:rows]
        if n0 - j < lo:
            lo = n0 - j
        if n1 - j > hi:
            hi = n1 - j
    return out


def _last_split(
    joint: FloatArray,
    p: float,
    t: Transition,
    mass: float = 0.0,
    cuts: list[float] | None = None,
) -> FloatArray:
    """``result[m, s]`` after the last acting block: ``sum_j T^t**j sum_n P(j of n dice in
    the block) joint[n]`` (the dice above it are saved by every group), the inner sums a
    product with the windows' table (:func:`split_windows`; their cut appended to
    ``cuts``) into ``joint`` itself, a chunk of columns at a time, then Horner's scheme."""
    kmax = joint.shape[0] - 1
    table = binomial_table(kmax, p)
    flat = joint.reshape(kmax + 1, -1)
    win = split_windows(joint, table, mass)
    if cuts is not None:
        cuts.append(win.cut)
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
    groups = [int(g) for g in np.unique(current[state > 0]) if g >= 0] or [0]
    parts = []
    for i, g in enumerate(groups):
        mask = (current == g) | ((current < 0) if i == 0 else False)
        parts.append((np.where(mask, state, 0.0), faces[g]))
    return parts


def _blocks(
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
            if pattern.all()
            else Transition.with_saves(damage, saving_states(current, pattern))
        )
        out.append((p, t))
    return out


#: The most save-block transitions a layout keeps (for the pools that follow on it).
BLOCKS_KEPT = 16


def _layout_blocks(
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
        found = kept[key] = _blocks(saved, current, damage, weights)
    return found  # type: ignore[no-any-return]


def apply_pool(
    layout: Layout,
    state: FloatArray,
    to_save: FloatArray,
    saved: np.ndarray,
    effective_damage: Sequence[Damage],
    mortal_damage: Sequence[Damage],
    focus: int | None = None,
    order: AllocationOrder | None = None,
    trimmed: list[float] | None = None,
    faces: np.ndarray | None = None,
    command: CommandDamage | None = None,
    save_command: bool = False,
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
    saved : ndarray of bool, shape (groups, 6)
        ``saved[g, f - 1]``: group ``g`` saves a natural ``f`` against this pool.
    effective_damage : sequence of Dist
        Wounds lost per unsaved attack by a model of each group (after FNP).
    mortal_damage : sequence of Dist
        Wounds lost per devastating wound by a model of each group (after FNP).
    focus : int, optional
        The CHARACTER group [PRECISION] makes current.
    order : callable, optional
        The ruleset's allocation order (the 11th edition's by default).
    trimmed : list of float, optional
        Given, the counts of dice of negligible probability are cut (:func:`trim_counts`)
        and the mass cut appended to it; else nothing is cut.
    faces : ndarray, optional
        ``faces[g, f - 1]``: the chance that one save die shows ``f`` once the defender's
        re-rolls are made, with group ``g`` current as the dice are rolled
        (:func:`~mathhammer.rules.base.save_face_weights`); uniform when None.
    command : optional
        A command re-roll of one damage roll (:func:`~mathhammer.exact.damage.command_damage`):
        the chain runs on the states twice over, before and after the re-roll is used
        (:func:`command_transition`).
    save_command : bool
        The defender's command re-roll of the pool's first failed save (docs/rules.md D33):
        the chain runs on the states twice over (:func:`save_command_split`).
    """
    if save_command and command is not None:
        raise OptionError(
            "a command re-roll of a damage roll against a unit with a command re-roll "
            "of a save is not computed; give one of them"
        )
    if save_command or command is not None:
        args = (saved, effective_damage, mortal_damage, focus, order, trimmed, faces)
        return _on_doubled_states(layout, state, to_save, *args, command)
    damage = damage_matrix(layout, effective_damage, focus=focus, order=order)
    if trimmed is not None:
        to_save = _trimmed(to_save.T, trimmed).T  # the devastating wounds' count, then the dice
    if to_save.shape[1] > 1 and never_zero(mortal_damage):
        to_save = cap_passengers(to_save, layout.most_damage)
    parts = rolling_parts(layout, state, faces, focus, order)
    if len(parts) > 1 and trimmed is not None:  # the dice cut once, for every part
        to_save, trimmed = _trimmed(to_save, trimmed), None
    after_saves = sum(
        sorted_dice_chain(
            to_save,
            part,
            _layout_blocks(layout, saved, effective_damage, focus, order, damage, weights),
            trimmed,
        )
        for part, weights in parts
    )  # [m, s]
    assert isinstance(after_saves, np.ndarray)
    if after_saves.shape[0] == 1:
        return np.asarray(after_saves[0], dtype=np.float64)
    devastating = Transition(damage_matrix(layout, mortal_damage, focus=focus, order=order))
    return devastating.power_series(after_saves)


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


def _on_doubled_states(
    layout: Layout,
    state: FloatArray,
    to_save: FloatArray,
    saved: np.ndarray,
    effective_damage: Sequence[Damage],
    mortal_damage: Sequence[Damage],
    focus: int | None,
    order: AllocationOrder | None,
    trimmed: list[float] | None,
    faces: np.ndarray | None,
    command: CommandDamage | None,
) -> FloatArray:
    """:func:`apply_pool` with a command re-roll: the sorted-dice chain on the states twice
    over, while the re-roll is unused and once it is used, then the two copies added. The
    attacker's re-roll of a damage roll (``command``) changes the damage transition
    (:func:`command_transition`); otherwise it is the defender's of a save, which changes
    the save dice's (:func:`save_command_split`)."""
    size = layout.size
    current = layout.current_group(focus, order)
    damage = damage_matrix(layout, effective_damage, focus=focus, order=order)
    if command is not None:
        (kept, rerolled), (mortal_kept, mortal_rerolled) = command
        doubled = command_transition(layout, effective_damage, kept, rerolled, focus, order)
        mortal = command_transition(
            layout, mortal_damage, mortal_kept, mortal_rerolled, focus, order
        )

        def blocks_of(weights: FloatArray | None) -> list[tuple[float, Transition | None]]:
            return _blocks(saved, np.tile(current, 2), doubled, weights)
    else:
        again = fresh_saves(layout, saved, focus, order)
        mortal = _twice(damage_matrix(layout, mortal_damage, focus=focus, order=order))

        def blocks_of(weights: FloatArray | None) -> list[tuple[float, Transition | None]]:
            out: list[tuple[float, Transition | None]] = []
            for lo, n, pattern in save_blocks(saved):
                t = None
                if not pattern.all():
                    kept, hit = save_command_split(damage, saving_states(current, pattern), again)
                    both = kept + hit
                    t = Transition(both.toarray() if isinstance(damage, np.ndarray) else both)
                out.append((block_share(weights, lo, n), t))
            return out

    if trimmed is not None:
        to_save = _trimmed(_trimmed(to_save.T, trimmed).T, trimmed)
    after_saves = sum(
        sorted_dice_chain(to_save, np.concatenate([part, np.zeros(size)]), blocks_of(weights))
        for part, weights in rolling_parts(layout, state, faces, focus, order)
    )  # [m, 2 states]
    assert isinstance(after_saves, np.ndarray)
    if after_saves.shape[0] > 1:
        after_saves = Transition(mortal).power_series(after_saves)[None, :]
    both = after_saves[0]
    return np.asarray(both[:size] + both[size:], dtype=np.float64)


def _twice(matrix: np.ndarray | sp.csr_matrix) -> np.ndarray | sp.csr_matrix:
    """The same transition on both copies of the states."""
    if isinstance(matrix, np.ndarray):
        zero = np.zeros_like(matrix)
        return np.block([[matrix, zero], [zero, matrix]])
    import scipy.sparse as sp

    return sp.csr_matrix(sp.block_diag([matrix, matrix]))


def cap_passengers(to_save: FloatArray, wounds: int) -> FloatArray:
    """``to_save[k, m]`` with the counts of devastating wounds above ``wounds`` added to
    ``wounds``: when every devastating wound costs a wound, a unit with ``wounds`` wounds
    is destroyed by that many, and the rest change nothing. Exact, and the chain's joint
    is no wider than the unit's wounds.

    Examples
    --------
    >>> cap_passengers(np.array([[0.125, 0.25, 0.5, 0.125]]), 1).tolist()
    [[0.125, 0.875]]
    """
    if to_save.shape[1] <= wounds + 1:
        return to_save
    capped = to_save[:, : wounds + 1].copy()
    capped[:, wounds] += to_save[:, wounds + 1 :].sum(axis=1)
    return capped


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
