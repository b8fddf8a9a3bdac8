"""Binomial probabilities: whole tables, single rows, and the thinning of a count.

Thinning a count (each of ``n`` dice succeeds with probability ``p``) needs the
Binomial(n, p) pmf for every ``n`` the count can take. The engine asks for the same few
``p`` (a D6 roll of 2+ .. 6+) again and again, so each ``p`` has one table, kept in a
cache bounded by the entries it holds (:data:`CACHE_ENTRIES`) and grown, by a quarter
at least, when a larger pool needs more rows; smaller pools get a read-only view of it.
The first :data:`CLOSED_ROWS` rows of a table are the closed form ``C(n, k) p^k
q^(n - k)``, all at once, with the coefficients exact integers rounded once; the rows
after them are built by Pascal's recurrence, row ``n`` from row ``n - 1`` (sums of
non-negative terms, no cancellation). A table is built once per ``p`` and never rebuilt.

Where one row is enough (a fixed number of dice), it is computed on its own in O(n),
without a table: from the mode outward, each term is the previous one times
``(n - k) / (k + 1) * p / (1 - p)`` (or its inverse), and the row is divided by its sum.
The mode is the largest term, so nothing overflows; the rounding error of a term grows
with its distance ``d`` from the mode by about ``2 d`` units in the last place, and the
terms far from the mode are small: the error is below 1e-16 absolute, closer to the
exact pmf than the recurrence itself, which drifts by a few 1e-15 at thousands of dice
(``tests/test_binomial.py`` measures both against exact fractions). A large count
spread over many values is thinned by Horner's scheme, a block of counts at a time, in
O(n) memory.
"""

from __future__ import annotations

from functools import lru_cache
from math import comb, isqrt

import numpy as np
from numpy.typing import NDArray

from ..errors import DistributionError, field_error
from .caches import register
from .limits import MAX_TABLE, check_limit
from .lru import SizedCache
from .sums import ordered_sum
from .tuning import (
    CACHE_ENTRIES,
    CLOSED_ROWS,
    HORNER_STEP,
    SMALL_ROW,
    SMALL_TABLE,
    TABLE_ROUND,
    TABLE_SIZE,
)

__all__ = [
    "FloatArray",
    "binomial_pmf",
    "binomial_row",
    "binomial_table",
    "binomial_thin",
    "thin_uses_table",
]

FloatArray = NDArray[np.float64]


_TABLES: SizedCache[float, FloatArray] = register(
    SizedCache(CACHE_ENTRIES, max_items=256, name="binomial tables")
)


def _check_p(p: float) -> None:
    """Refuse a ``p`` that is not a probability."""
    if not 0.0 <= p <= 1.0:
        raise field_error(DistributionError, "p", "a probability in [0, 1]", p)


def _check(n: int, p: float, name: str = "nmax") -> None:
    _check_p(p)
    if n < 0:
        raise field_error(DistributionError, name, "an integer >= 0", n)


def _pascal(table: FloatArray, start: int, p: float) -> None:
    """Fill rows ``start..`` of ``table`` from row ``start - 1`` by Pascal's recurrence."""
    q = 1.0 - p
    for n in range(start, table.shape[0]):
        prev = table[n - 1, :n]
        row = table[n]
        np.multiply(prev, q, out=row[:n])
        row[1 : n + 1] += p * prev


@lru_cache(maxsize=1)
def _coefficients() -> FloatArray:
    """``C(n, k)`` for ``n < CLOSED_ROWS``: exact integers, each rounded once to a float.

    A constant of arithmetic, made on first use and kept (72 KB): not one of the caches
    ``mathhammer.clear_caches()`` empties."""
    out = np.zeros((CLOSED_ROWS, CLOSED_ROWS))
    row = [1]
    for n in range(CLOSED_ROWS):
        out[n, : n + 1] = np.array(row, dtype=object).astype(np.float64)
        row = [1, *(a + b for a, b in zip(row, row[1:], strict=False)), 1]
    out.setflags(write=False)
    return out


def _closed(table: FloatArray, start: int, stop: int, p: float) -> None:
    """Rows ``start .. stop - 1`` of ``table`` by the closed form: about 3 units in the last
    place of each entry, closer to the exact pmf than the recurrence."""
    if stop <= start:
        return
    width = min(table.shape[1], stop)
    k = np.arange(width)
    misses = np.maximum(np.arange(start, stop)[:, None] - k, 0)
    # (1 - p)^m as exp(m log1p(-p)): 1 - p rounded, raised to the m-th power, would carry
    # m times its rounding error; exp(0 x) is 1, so the entries k = n need no case of their
    # own, but for p = 1 (log1p(-1) is -inf), where only they are not 0
    q_powers = np.exp(misses * np.log1p(-p)) if p < 1.0 else (misses == 0).astype(np.float64)
    table[start:stop, :width] = _coefficients()[start:stop, :width] * np.power(p, k) * q_powers


@register
@lru_cache(maxsize=512)
def _small_table(nmax: int, p: float) -> FloatArray:
    """Rows ``0..nmax`` of the table, made by :func:`_closed` (the values of the cached
    table's rows), read-only: a batch of attacks thins the same few dice at the same few
    chances again and again."""
    table = np.zeros((nmax + 1, nmax + 1))
    _closed(table, 0, nmax + 1, p)
    table.setflags(write=False)
    return table


def _binomial_table_build(nmax: int, p: float, held: FloatArray | None = None) -> FloatArray:
    """The table of ``nmax + 1`` rows, continuing ``held`` (its first rows, already built:
    the rows are the same whatever the table's size): the closed form up to
    :data:`CLOSED_ROWS`, the recurrence after."""
    table = np.zeros((nmax + 1, nmax + 1))
    start = 0 if held is None else held.shape[0]
    if held is not None:
        table[:start, :start] = held
    closed = min(nmax + 1, CLOSED_ROWS)
    _closed(table, start, closed, p)
    _pascal(table, max(start, closed), p)
    table.setflags(write=False)
    return table


def _rows_to_build(nmax: int, held: int) -> int:
    """Rows of the next table: ``nmax`` at least, a quarter more than held, rounded up."""
    rows = max(nmax + 1, held + held // 4)
    rows = -(-rows // TABLE_ROUND) * TABLE_ROUND
    return max(nmax + 1, min(rows, isqrt(MAX_TABLE)))


def binomial_table(nmax: int, p: float) -> FloatArray:
    """Return ``B`` with ``B[n, k]`` = P(Binomial(n, p) = k) for 0 <= k, n <= nmax.

    Built by the Pascal recurrence (no cancellation, no special functions), cached,
    and read-only: a view of the table held for ``p``, which is grown when a larger
    ``nmax`` is asked for.

    Examples
    --------
    >>> B = binomial_table(2, 0.5)
    >>> B[2].tolist()
    [0.25, 0.5, 0.25]
    >>> B.flags.writeable
    False
    """
    _check(nmax, p)
    nmax, p = int(nmax), float(p)
    check_limit("binomial table entries", (nmax + 1) ** 2, MAX_TABLE)
    held = _TABLES.get(p)
    if held is None or held.shape[0] <= nmax:
        rows = _rows_to_build(nmax, 0 if held is None else held.shape[0])
        held = _binomial_table_build(rows - 1, p, held)
        _TABLES.put(p, held, held.size)
    return held[: nmax + 1, : nmax + 1]


def _ratio_row(n: int, p: float) -> FloatArray:
    """The Binomial(n, p) pmf by products of consecutive ratios from the mode, normalised."""
    q = 1.0 - p
    if p == 0.0 or q == 0.0:
        out = np.zeros(n + 1)
        out[n if q == 0.0 else 0] = 1.0
        return out
    mode = min(int((n + 1) * p), n)  # the largest term: every product below is at most 1
    rho = p / q
    if n <= SMALL_ROW:
        return _small_ratio_row(n, mode, rho)
    return _large_ratio_row(n, mode, rho)


def _large_ratio_row(n: int, mode: int, rho: float) -> FloatArray:
    """:func:`_ratio_row` of many dice: on each side of the mode, the cumulative products
    of the ratios of consecutive terms, then normalised."""
    out = np.zeros(n + 1)
    k = np.arange(n + 1, dtype=np.float64)
    out[mode] = 1.0
    if mode < n:
        up = k[mode:n]  # term k + 1 over term k
        np.cumprod((n - up) / (up + 1.0) * rho, out=out[mode + 1 :])
    if mode > 0:
        down = k[1 : mode + 1]  # term k - 1 over term k
        out[:mode] = np.cumprod((down / ((n - down + 1.0) * rho))[::-1])[::-1]
    out /= np.add.reduce(out)
    return out


#: For ``n <= SMALL_ROW``: ``_UP[n][k] = (n - k) / (k + 1)`` and ``_DOWN[n][k] = n - k + 1``
#: (as floats), the parts of the ratios of consecutive terms that do not depend on ``p``:
#: the same numbers the ratios were made of, made once.
_UP = [[(n - k) / (k + 1.0) for k in range(n)] for n in range(SMALL_ROW + 1)]
_DOWN = [[n - k + 1.0 for k in range(n + 1)] for n in range(SMALL_ROW + 1)]


def _small_ratio_row(n: int, mode: int, rho: float) -> FloatArray:
    """:func:`_ratio_row` of a few dice: each term the next one's (or the previous one's)
    times the ratio of the two, from the mode outward, then normalised."""
    terms = [0.0] * (n + 1)
    term = terms[mode] = 1.0
    up, down = _UP[n], _DOWN[n]
    for k in range(mode, n):  # term k + 1 over term k: (n - k) / (k + 1) * rho
        term *= up[k] * rho
        terms[k + 1] = term
    term = 1.0
    for k in range(mode, 0, -1):  # term k - 1 over term k: k / ((n - k + 1) * rho)
        term *= k / (down[k] * rho)
        terms[k - 1] = term
    total = ordered_sum(terms)  # as np.add.reduce sums them: the same total
    return np.array([term / total for term in terms])


@register
@lru_cache(maxsize=128)
def _row(n: int, p: float) -> FloatArray:
    row = _ratio_row(n, p)
    row.setflags(write=False)
    return row


def binomial_row(n: int, p: float) -> FloatArray:
    """The Binomial(n, p) pmf as a read-only array of ``n + 1`` entries.

    Computed alone, in O(n), without a table (see the module's notes); cached.

    Examples
    --------
    >>> binomial_row(2, 0.5).tolist()
    [0.25, 0.5, 0.25]
    >>> row = binomial_row(1000, 1 / 6)
    >>> round(float(row.sum()), 12), round(float(row @ np.arange(1001)), 9)
    (1.0, 166.666666667)
    """
    _check(n, p, "n")
    return _row(int(n), float(p))


def thin_uses_table(nmax: int, columns: int) -> bool:
    """Whether :func:`binomial_thin` multiplies by the table (else it runs Horner's scheme).

    ``nmax`` is the largest count with mass, when the count takes more than one value (a
    fixed count is thinned by one row, :func:`binomial_row`). The table costs n² memory,
    Horner n² x columns operations: a joint of many columns is thinned by the table (one
    matrix product) whenever the table fits.

    Examples
    --------
    >>> thin_uses_table(100, 1), thin_uses_table(3000, 1), thin_uses_table(3000, 2)
    (True, False, True)
    """
    return nmax <= TABLE_SIZE or (columns > 1 and (nmax + 1) ** 2 <= MAX_TABLE)


def _horner(block: FloatArray, p: float, lo: int) -> FloatArray:
    """``sum_i block[i] (q + p z)^(lo + i)`` by Horner's scheme, :data:`HORNER_STEP`
    counts at a time (all terms non-negative).

    With ``A_s(z) = sum_(i >= s) block[i] (q + p z)^(i - s)``, a step of ``j`` counts is
    ``A_(s-j) = (q + p z)^j A_s + sum_(s-j <= i < s) block[i] (q + p z)^(i - s + j)``: a
    convolution with one row and a product with a small table, instead of ``j`` steps of
    a Python loop.
    """
    small = binomial_table(HORNER_STEP, p)
    start = block.shape[0]
    acc = np.zeros((0, block.shape[1]))
    while start > 0:
        step = min(HORNER_STEP, start)
        start -= step
        part = small[:step, :step].T @ block[start : start + step]
        if acc.shape[0]:
            acc = _convolve_columns(acc, small[step, : step + 1])
            acc[:step] += part
        else:
            acc = part
    if lo == 0:
        return acc
    return _convolve_columns(acc, binomial_row(lo, p))  # the factor (q + p z)^lo


def _convolve_columns(acc: FloatArray, row: FloatArray) -> FloatArray:
    """Each column of ``acc`` convolved with ``row``: the polynomials times another."""
    return np.stack([np.convolve(acc[:, c], row) for c in range(acc.shape[1])], axis=1)


#: ``n - k`` (0 above the diagonal) for ``n, k < SMALL_TABLE``: the powers of ``1 - p``
#: in the rows of a small table.
_MISSES = np.maximum(np.arange(SMALL_TABLE)[:, None] - np.arange(SMALL_TABLE), 0)
#: ``k`` for ``k < SMALL_TABLE``, as floats: the powers of ``p``.
_KEPT = np.arange(float(SMALL_TABLE))
#: ``C(n, k)`` for ``n, k < SMALL_TABLE`` (0 above the diagonal), exact: the coefficients
#: of a small table, contiguous.
_SMALL_COEFFICIENTS = np.array(
    [[comb(n, k) for k in range(SMALL_TABLE)] for n in range(SMALL_TABLE)], dtype=np.float64
)
_SMALL_COEFFICIENTS.setflags(write=False)
#: Down to this ``1 - p`` a few counts are thinned with their powers of ``1 - p`` factored
#: out of the table (``w[n] q**n``, the coefficients, then ``p**k / q**k``): ``q**15`` is
#: at least ``2**-240`` there, so a weight loses nothing but what is below ``1e-250``.
_FACTORED_MISSES = 2.0**-16


def _few_counts(weights: FloatArray, p: float) -> FloatArray:
    """:func:`binomial_thin` of one pmf of at most :data:`SMALL_TABLE` counts, where
    building the table's rows takes a dozen array operations: up to six counts by
    Horner's scheme on its generating function in Python floats, ``A <- A (q + p z) +
    weights[n]`` from the top count down (every term non-negative); past them
    ``(weights @ C(n, k) q^(n - k)) p^k`` (the coefficients exact, each power taken once),
    as ``((weights q^n) @ C(n, k)) p^k / q^k`` down to ``q =``
    :data:`_FACTORED_MISSES` (no table of the powers by index).

    Examples
    --------
    >>> _few_counts(np.array([0.0, 0.5, 0.5]), 0.5).tolist()  # 1 or 2 items, each kept at 1/2
    [0.375, 0.5, 0.125]
    >>> out = _few_counts(np.full(12, 1 / 12), 0.25)
    >>> round(float(out.sum()), 15), round(float(out @ np.arange(12)), 12)  # 5.5 / 4
    (1.0, 1.375)
    """
    q = 1.0 - p
    n = len(weights)
    if n > 6:
        return _counts_by_coefficients(weights, p, q)
    values = weights.tolist()
    acc = [0.0] * n
    acc[0] = values[-1]
    for top, below in enumerate(reversed(values[:-1]), 1):  # acc <- acc (q + p z) + below
        acc[top] = acc[top - 1] * p
        for j in range(top - 1, 0, -1):
            acc[j] = acc[j] * q + acc[j - 1] * p
        acc[0] = acc[0] * q + below
    return np.array(acc)


def _counts_by_coefficients(weights: FloatArray, p: float, q: float) -> FloatArray:
    """:func:`_few_counts` past six counts: ``(weights @ C(n, k) q^(n - k)) p^k``, as
    ``((weights q^n) @ C(n, k)) p^k / q^k`` down to ``q =`` :data:`_FACTORED_MISSES`."""
    n = len(weights)
    k = _KEPT[:n]
    q_k = q**k
    if q >= _FACTORED_MISSES:  # C(n, k) q**(n - k) = q**n C(n, k) / q**k: no table of
        # the powers by index (an indexed table of n * n powers costs as much again)
        kept = (weights * q_k).dot(_SMALL_COEFFICIENTS[:n, :n])
        kept *= p**k
        kept /= q_k
        return np.asarray(kept, dtype=np.float64)
    table = _coefficients()[:n, :n] * q_k[_MISSES[:n, :n]]
    return np.asarray(weights.dot(table) * p**k, dtype=np.float64)


def binomial_thin(weights: FloatArray, p: float) -> FloatArray:
    """Thin every one of ``n`` items with probability ``p``: ``B.T @ weights``.

    ``weights[n, ...]`` is a (joint) pmf over a count ``n`` and anything else; the result
    ``out[k, ...]`` is that of the number ``k`` of items kept. Only the counts with mass
    are read: a fixed count takes one row (:func:`binomial_row`); a count spread over
    ``lo..hi`` takes those rows of :func:`binomial_table` when it is small, and otherwise
    runs Horner's scheme on the probability generating function,
    ``G(z) -> G(1 - p + p z)``, whose terms are all non-negative (no cancellation).

    Examples
    --------
    >>> binomial_thin(np.array([0.0, 0.0, 1.0]), 0.5).tolist()
    [0.25, 0.5, 0.25]
    >>> big = np.zeros(TABLE_SIZE + 2); big[-2:] = 0.5
    >>> out = binomial_thin(big, 0.5)
    >>> round(float(out.sum()), 12), round(float(out @ np.arange(len(out))), 9)
    (1.0, 512.25)
    """
    _check_p(p)
    weights = np.asarray(weights, dtype=np.float64)
    if p == 1.0:  # every item kept
        return weights.copy()
    if weights.ndim == 1 and 0 < len(weights) <= SMALL_TABLE:
        return _few_counts(weights, p)
    flat = weights.reshape(weights.shape[0], -1)
    out = np.zeros(flat.shape)
    if p == 0.0:  # none kept
        out[0] = flat.sum(axis=0)
        return out.reshape(weights.shape)
    counts = np.flatnonzero(flat.any(axis=1))
    if counts.size:
        _thin_into(out, flat, p, int(counts[0]), int(counts[-1]))
    return out.reshape(weights.shape)


def _thin_into(out: FloatArray, flat: FloatArray, p: float, lo: int, hi: int) -> None:
    """Rows ``0..hi`` of ``out``: the counts ``lo..hi`` of ``flat`` (those with mass)
    thinned, by one row when the count is fixed, a table's rows when there are few counts
    or the table fits, else Horner's scheme."""
    if lo == hi:
        np.multiply.outer(binomial_row(hi, p), flat[hi], out=out[: hi + 1])
    elif hi < SMALL_TABLE:  # a few rows: made for this call, not kept
        out[: hi + 1] = _small_table(hi, p)[lo:].T.dot(flat[lo : hi + 1])
    elif thin_uses_table(hi, flat.shape[1]):
        out[: hi + 1] = binomial_table(hi, p)[lo:].T.dot(flat[lo : hi + 1])
    else:
        out[: hi + 1] = _horner(flat[lo : hi + 1], p, lo)


def binomial_pmf(n: int, p: float) -> FloatArray:
    """The Binomial(n, p) pmf, as a new array (see :func:`binomial_row`).

    Examples
    --------
    >>> binomial_pmf(2, 0.5).tolist()
    [0.25, 0.5, 0.25]
    """
    return np.array(binomial_row(n, p), dtype=np.float64)
