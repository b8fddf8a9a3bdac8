"""Binomial probabilities for every pool size at once, by Pascal's recurrence.

Thinning a count (each of ``n`` dice succeeds with probability ``p``) needs the
Binomial(n, p) pmf for every ``n`` up to the pool's size. One table serves them all,
and the engine asks for the same few ``p`` (a D6 roll of 2+ .. 6+) again and again,
so tables are cached.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from numpy.typing import NDArray

from ..errors import DistributionError, field_error

__all__ = ["FloatArray", "binomial_table"]

FloatArray = NDArray[np.float64]

#: Tables up to this size are cached (at most 512 of them: under 300 MB in the worst case);
#: larger ones, for pools of hundreds of dice, are rebuilt when needed.
_CACHED_SIZE = 256


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


_binomial_table_cached = lru_cache(maxsize=512)(_binomial_table_build)


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
    # Bucket the size so that repeated calls with slowly growing nmax share a table.
    size = max(16, 1 << (int(nmax) - 1).bit_length()) if nmax > 0 else 16
    if size > _CACHED_SIZE:
        return _binomial_table_build(int(nmax), float(p))
    return _binomial_table_cached(size, float(p))[: nmax + 1, : nmax + 1]
