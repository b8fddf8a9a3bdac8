"""Sums over a pool of dice: one die's outcome summed over ``N ~ count`` independent dice.

Every attack die of a pool is resolved on its own, with the same odds: its hits, and the
wounds it sends to the saves, are independent of the other dice's. So the pool's hits are
the sum over ``N`` dice of one die's hits, and so are its wounds; no joint table of the
pool's hits and automatic wounds is needed on the way. This module sums a small per-die
pmf ``q`` over the dice, by the cheapest exact form:

* ``q`` on {0, 1} (a die succeeds or not): binomial thinning of the count;
* a fixed ``N``: the ``N``-fold convolution by repeated squaring (``log2 N`` products);
* a random ``N`` on ``lo..hi``: Horner's scheme, ``sum_n P(N = n) q^n``, over ``lo..hi``,
  times ``q^lo``.

Every term is a sum of products of non-negative numbers: no cancellation, rounding errors
of a few units in the last place of each probability.

[DEVASTATING WOUNDS] needs the joint of the wounds that go to the saves (``k``) and the
devastating ones (``m``). Of the ``t`` wound rolls that succeed, each is critical with the
same probability ``r`` whatever happened before, so ``m`` given ``t`` is Binomial(t, r): the
multinomial closed form ``P(k, m) = P(t = k + m) * P(Binomial(k + m, r) = m)``
(:func:`split_successes`), one product per entry instead of a convolution per die.
"""

from __future__ import annotations

import numpy as np
from numpy.lib.stride_tricks import as_strided

from ..core.binomial import FloatArray, binomial_row, binomial_table, binomial_thin

__all__ = ["by_total", "compound", "power", "skew", "split_successes"]


def power(q: FloatArray, n: int) -> FloatArray:
    """The ``n``-fold convolution of the pmf ``q`` (``q`` summed over ``n`` dice).

    Examples
    --------
    >>> power(np.array([0.5, 0.5]), 2).tolist()
    [0.25, 0.5, 0.25]
    """
    if n == 0:
        return np.ones(1)
    base = q
    while not n & 1:  # the squarings below the lowest bit set
        base = np.convolve(base, base)
        n >>= 1
    # the first factor taken as it is: no convolution with [1.0]
    result = base.copy() if base is q else base  # q itself is the caller's
    n >>= 1
    while n:
        base = np.convolve(base, base)
        if n & 1:
            result = np.convolve(result, base)
        n >>= 1
    return result


def compound(count: FloatArray, q: FloatArray) -> FloatArray:
    """The pmf of ``q`` summed over ``N`` independent dice, ``N ~ count``.

    ``count[n]`` = P(N = n) and ``q[j]`` = P(one die scores j); the result has
    ``(len(count) - 1) * (len(q) - 1) + 1`` entries (read-only for a fixed number of
    Bernoulli dice: the cached row of :func:`~mathhammer.core.binomial.binomial_row`).

    Examples
    --------
    >>> compound(np.array([0.0, 0.0, 1.0]), np.array([0.5, 0.5])).tolist()  # thinning
    [0.25, 0.5, 0.25]
    >>> compound(np.array([0.5, 0.5]), np.array([0.0, 0.0, 1.0])).tolist()  # 0 or 2
    [0.5, 0.0, 0.5]
    >>> out = compound(np.array([0.0, 0.5, 0.5]), np.array([0.5, 0.25, 0.25]))
    >>> (out * 32).tolist()  # half the time one die (16 8 8), half two (8 8 10 4 2)
    [12.0, 8.0, 9.0, 2.0, 1.0]
    """
    if len(q) == 2 and count[-1] == 1.0:  # a fixed number of dice that score 0 or 1
        return binomial_row(len(count) - 1, float(q[1]))
    out = np.zeros((len(count) - 1) * (len(q) - 1) + 1)
    dice, faces = count.nonzero()[0], q.nonzero()[0]
    if dice.size == 0 or faces.size == 0:
        return out
    lo, hi, last = int(dice[0]), int(dice[-1]), int(faces[-1])
    out[: hi * last + 1] = _spread(count, q[: last + 1], lo, hi)
    return out


def _spread(count: FloatArray, die: FloatArray, lo: int, hi: int) -> FloatArray:
    """:func:`compound` of ``N ~ count`` on ``lo..hi`` dice, each scoring ``die`` (a pmf
    whose last entry, ``last = len(die) - 1``, has a chance): its first ``hi * last + 1``
    entries, the only ones with a chance."""
    last = len(die) - 1
    if last == 0:
        return np.array([count.sum()])
    if last == 1:
        return _thinned(count, float(die[1]), lo, hi)
    if lo == hi:
        return np.asarray(count[hi] * power(die, hi), dtype=np.float64)
    return _horner(count[lo : hi + 1], die, lo)


def _thinned(count: FloatArray, p: float, lo: int, hi: int) -> FloatArray:
    """:func:`compound` of dice that score 0 or 1 (``p``: the chance of 1), over the counts
    ``0..hi`` (``lo``: the fewest with a chance): a row where the count is certain."""
    if lo == hi:
        row: FloatArray = count[hi] * binomial_row(hi, p)
        return row
    return binomial_thin(count[: hi + 1], p)


def _horner(count: FloatArray, die: FloatArray, lo: int) -> FloatArray:
    """``sum_i count[i] die^(lo + i)`` (powers by convolution) by Horner's scheme."""
    result = count[-1:].copy()
    for weight in count[-2::-1].tolist():
        result = np.convolve(result, die)
        result[0] += weight
    return np.convolve(result, power(die, lo)) if lo else result


def skew(g: FloatArray, width: int | None = None) -> FloatArray:
    """``out[t, t + y] = g[t, y]``: row ``t`` moved ``t`` places right (zeros elsewhere).

    ``width`` keeps the first columns only (all ``rows + cols - 1`` by default; at least
    ``cols - 1``): the result is contiguous, and every entry of ``g`` that would land at
    or past it must be 0 (it runs into the start of the next row).

    Examples
    --------
    >>> skew(np.array([[1.0, 2.0], [3.0, 4.0]])).tolist()
    [[1.0, 2.0, 0.0], [0.0, 3.0, 4.0]]
    >>> skew(np.array([[1.0, 2.0], [3.0, 0.0]]), width=2).tolist()
    [[1.0, 2.0], [0.0, 3.0]]
    """
    rows, cols = g.shape
    if width is None:
        width = rows + cols - 1
    # in a buffer of rows of width + 1, row t starts t places further into a row of width
    buffer = np.zeros(rows * (width + 1))
    buffer.reshape(rows, width + 1)[:, :cols] = g
    return buffer[: rows * width].reshape(rows, width)


def by_total(z: FloatArray, rows: int, cols: int) -> FloatArray:
    """``out[k, m] = z[k + m, m]`` for ``k < rows`` and ``m < cols`` (zero past ``z``).

    ``z[w, m]`` is indexed by a total ``w = k + m`` and one of its parts; the result by the
    two parts.

    Examples
    --------
    >>> by_total(np.array([[1.0, 0.0], [2.0, 3.0], [4.0, 5.0]]), 2, 2).tolist()
    [[1.0, 3.0], [2.0, 5.0]]
    """
    padded = np.zeros((rows + cols - 1, cols))
    width = min(cols, z.shape[1])
    padded[: z.shape[0], :width] = z[:, :width]
    # out[k, m] = padded[k + m, m]: a step of a row and a column per m. The last entry
    # read, padded[rows - 1 + cols - 1, cols - 1], is the last one of ``padded``.
    row, col = padded.strides
    view = as_strided(padded, shape=(rows, cols), strides=(row, row + col), writeable=False)
    return view.copy()


def split_successes(totals: FloatArray, r: float, rows: int, cols: int) -> FloatArray:
    """``out[k, m] = totals[k + m] * P(Binomial(k + m, r) = m)``, of shape ``(rows, cols)``.

    ``totals[t]`` is P(t successes); each success is independently of the second kind
    with probability ``r``: ``k`` of the first kind, ``m`` of the second.

    Examples
    --------
    >>> split_successes(np.array([0.5, 0.5]), 0.25, 2, 2).tolist()
    [[0.5, 0.125], [0.375, 0.0]]
    """
    table = binomial_table(len(totals) - 1, r)
    return by_total(totals[:, None] * table[:, :cols], rows, cols)
