"""Sums of a few Python floats in the order numpy sums an array of them.

A short pmf is cheaper to handle as a list of Python floats than as an array, but its total
must be the one ``np.add.reduce`` gives for the same entries, so that a result is the same
to the last bit whichever way it was computed. :func:`ordered_sum` follows numpy's pairwise
order (eight running sums up to :data:`ORDERED_LIMIT` entries), where the built-in
:func:`sum` does not. Row that keeps it: S6 of ``benchmarks/bench_perf.py``
(docs/performance.md, sections 2 and 3).
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["ORDERED_LIMIT", "ordered_sum"]

#: The most entries :func:`ordered_sum` takes: numpy's block of pairwise summation, past
#: which it splits the array in two.
ORDERED_LIMIT = 128


def ordered_sum(values: Sequence[float]) -> float:
    """The sum of at most :data:`ORDERED_LIMIT` floats, added as ``np.add.reduce`` adds a
    float64 array of them (the same total, bit for bit).

    Raises
    ------
    ValueError
        For more than :data:`ORDERED_LIMIT` values.

    Examples
    --------
    >>> import numpy as np
    >>> values = [0.1 * k for k in range(20)]
    >>> ordered_sum(values) == float(np.add.reduce(np.array(values)))
    True
    >>> ordered_sum([]), ordered_sum([0.25, 0.5])
    (0.0, 0.75)
    """
    n = len(values)
    if n < 8:
        total = 0.0
        for value in values:
            total += value
        return total
    if n > ORDERED_LIMIT:
        raise ValueError(f"ordered_sum takes at most {ORDERED_LIMIT} values; got {n}")
    s0, s1, s2, s3, s4, s5, s6, s7 = values[:8]
    whole = n - n % 8
    for i in range(8, whole, 8):
        s0 += values[i]
        s1 += values[i + 1]
        s2 += values[i + 2]
        s3 += values[i + 3]
        s4 += values[i + 4]
        s5 += values[i + 5]
        s6 += values[i + 6]
        s7 += values[i + 7]
    total = ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7))
    for i in range(whole, n):
        total += values[i]
    return total
