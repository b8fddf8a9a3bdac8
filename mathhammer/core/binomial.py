"""Binomial probabilities for every pool size at once, by Pascal's recurrence.

Thinning a count (each of ``n`` dice succeeds with probability ``p``) needs the
Binomial(n, p) pmf for every ``n`` up to the pool's size. One table serves them all,
and the engine asks for the same few ``p`` (a D6 roll of 2+ .. 6+) again and again,
so tables are cached. A large pool's table would not fit in memory: above
:data:`TABLE_SIZE` the thinning and the binomial pmf are computed by Horner's scheme
instead, in O(n) memory.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from numpy.typing import NDArray

from ..errors import DistributionError, field_error
from .caches import register
from .limits import MAX_TABLE, check_limit

__all__ = [
    "TABLE_SIZE",
    "FloatArray",
    "binomial_pmf",
    "binomial_table",
    "binomial_thin",
    "thin_uses_table",
]

FloatArray = NDArray[np.float64]

#: Tables up to this size are cached (at most 512 of them: under 300 MB in the worst case);
#: larger ones, for pools of hundreds of dice, are rebuilt when needed.
_CACHED_SIZE = 256
#: Up to this size :func:`binomial_thin` multiplies by the table (fast, in BLAS); above it,
#: it runs Horner's scheme (no table: memory grows as n, not n²) unless it thins many
#: columns at once.
TABLE_SIZE = 1024


def _binomial_table_build(nmax: int, p: float) -> FloatArray:
    table = np.zeros((nmax + 1, nmax + 1))
    table[0, 0] = 1.0
    q = 1.0 - p
    for n in range(1, nmax + 1):
        prev = table[n - 1, :n]
        table[n, :n] = q * prev
        table[n, 1 : n + 1] += p * prev
    table.flags.writeable = False
    return table


_binomial_table_cached = register(lru_cache(maxsize=512)(_binomial_table_build))


def binomial_table(nmax: int, p: float) -> FloatArray:
    """Return ``B`` with ``B[n, k]`` = P(Binomial(n, p) = k) for 0 <= k, n <= nmax.

    Built by the Pascal recurrence (no cancellation, no special functions), cached,
    and read-only.

    Examples
    --------
    >>> B = binomial_table(2, 0.5)
    >>> B[2].tolist()
    [0.25, 0.5, 0.25]
    """
    if not 0.0 <= p <= 1.0:
        raise field_error(DistributionError, "p", "a probability in [0, 1]", p)
    if nmax < 0:
        raise field_error(DistributionError, "nmax", "an integer >= 0", nmax)
    check_limit("binomial table entries", (int(nmax) + 1) ** 2, MAX_TABLE)
    # Bucket the size so that repeated calls with slowly growing nmax share a table.
    size = max(16, 1 << (int(nmax) - 1).bit_length()) if nmax > 0 else 16
    if size > _CACHED_SIZE:
        return _binomial_table_build(int(nmax), float(p))
    return _binomial_table_cached(size, float(p))[: nmax + 1, : nmax + 1]


def thin_uses_table(nmax: int, columns: int) -> bool:
    """Whether :func:`binomial_thin` multiplies by the table (else it runs Horner's scheme).

    The table costs n² memory, Horner n² x columns operations: a joint of many columns is
    thinned by the table (one matrix product) whenever the table fits.

    Examples
    --------
    >>> thin_uses_table(100, 1), thin_uses_table(3000, 1), thin_uses_table(3000, 2)
    (True, False, True)
    """
    return nmax <= TABLE_SIZE or (columns > 1 and (nmax + 1) ** 2 <= MAX_TABLE)


def binomial_thin(weights: FloatArray, p: float) -> FloatArray:
    """Thin every one of ``n`` items with probability ``p``: ``B.T @ weights``.

    ``weights[n, ...]`` is a (joint) pmf over a count ``n`` and anything else; the result
    ``out[k, ...]`` is that of the number ``k`` of items kept. Small tables multiply by
    :func:`binomial_table`; large ones run Horner's scheme on the probability generating
    function, ``G(z) -> G(1 - p + p z)``, whose terms are all non-negative (no cancellation).

    Examples
    --------
    >>> binomial_thin(np.array([0.0, 0.0, 1.0]), 0.5).tolist()
    [0.25, 0.5, 0.25]
    >>> big = np.zeros(TABLE_SIZE + 2); big[-1] = 1.0
    >>> out = binomial_thin(big, 0.5)
    >>> round(float(out.sum()), 12), round(float(out @ np.arange(len(out))), 9)
    (1.0, 512.5)
    """
    if not 0.0 <= p <= 1.0:
        raise field_error(DistributionError, "p", "a probability in [0, 1]", p)
    weights = np.asarray(weights, dtype=np.float64)
    nmax = weights.shape[0] - 1
    flat = weights.reshape(nmax + 1, -1)
    if thin_uses_table(nmax, flat.shape[1]):
        table = binomial_table(nmax, p)
        return np.asarray(table.T @ flat, dtype=np.float64).reshape(weights.shape)
    q = 1.0 - p
    out = np.zeros_like(weights)
    out[0] = weights[nmax]
    for n in range(nmax - 1, -1, -1):
        # out <- out * (q + p z) + weights[n]; out has degree nmax - n
        top = nmax - n
        out[1 : top + 1] = q * out[1 : top + 1] + p * out[:top]
        out[0] = q * out[0] + weights[n]
    return out


def binomial_pmf(n: int, p: float) -> FloatArray:
    """The Binomial(n, p) pmf, from the table when it is small, by Horner's scheme otherwise.

    Examples
    --------
    >>> binomial_pmf(2, 0.5).tolist()
    [0.25, 0.5, 0.25]
    """
    if n <= TABLE_SIZE:
        return np.array(binomial_table(n, p)[n], dtype=np.float64)
    point = np.zeros(n + 1)
    point[n] = 1.0
    return binomial_thin(point, p)
