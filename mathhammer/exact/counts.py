"""The counts of dice a chain takes: trimmed of negligible mass, split between blocks
within windows, and devastating wounds capped at the wounds a unit has."""

from __future__ import annotations

import numpy as np

from ..core.binomial import FloatArray
from ..core.tuning import TRIM_MASS, WINDOW_COUNTS

__all__ = ["Windows", "cap_passengers", "split_windows", "trim_counts", "trim_into"]


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
        self.full = True
        if lo is None or hi is None:
            self.first, self.last, self.low, self.high = 0, b, 0, b
            return
        self.full = False
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
        self.low, self.high = (
            (int(left[some].min()), int(right[some].max())) if some.any() else (0, -1)
        )

    def dice_range(self, j: int) -> tuple[int, int]:
        if self.full:
            return j, self.b
        if not self.first <= j <= self.last:
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
    a, b, cut = _count_ends(rowmass, mass)
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


def _count_ends(rowmass: FloatArray, mass: float) -> tuple[int, int, float]:
    """The counts ``a..b`` kept of those whose probabilities are ``rowmass``: the counts at
    either end holding at most ``mass`` there cut; and the mass cut."""
    size = len(rowmass)
    below = np.cumsum(rowmass)
    a = min(int(np.searchsorted(below, mass, side="right")), size - 1)
    above = np.cumsum(rowmass[::-1])  # above[i]: the mass of the top i + 1 counts
    b = max(size - 1 - int(np.searchsorted(above, mass, side="right")), a)
    cut = float(below[a - 1]) if a > 0 else 0.0
    cut += float(above[size - 2 - b]) if b < size - 1 else 0.0
    return a, b, cut


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


def trim_into(count: FloatArray, trimmed: list[float] | None) -> FloatArray:
    """``count`` trimmed (:func:`trim_counts`), the mass cut appended to ``trimmed``;
    as it is where ``trimmed`` is None."""
    if trimmed is None:
        return count
    kept, cut = trim_counts(count)
    trimmed.append(cut)
    return kept


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
