"""The full 2-D convolution of two small probability tables, in numpy.

The hit and wound steps convolve a pool's joint pmf with a per-die kernel of a few
entries. :func:`scipy.signal.convolve2d` does that too, but importing
:mod:`scipy.signal` costs about half a second, more than everything else
``import mathhammer`` does; a shifted, scaled copy per kernel entry is all the work
there is.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from ..errors import DistributionError, field_error

__all__ = ["convolve2d"]


def convolve2d(a: NDArray[np.float64], b: NDArray[np.float64]) -> NDArray[np.float64]:
    """The full discrete 2-D convolution ``out[i, j] = sum a[m, n] * b[i - m, j - n]``.

    The same as ``scipy.signal.convolve2d(a, b)`` (mode ``"full"``): the table of
    ``X1 + X2, Y1 + Y2`` when ``a`` and ``b`` are the joint pmfs of independent
    pairs. Each non-zero entry of the smaller table adds one shifted, scaled copy of
    the larger, so a kernel of a handful of entries costs a handful of array additions.

    Parameters
    ----------
    a, b : ndarray
        Two-dimensional, non-empty.

    Returns
    -------
    ndarray
        Shape ``(a.shape[0] + b.shape[0] - 1, a.shape[1] + b.shape[1] - 1)``.

    Examples
    --------
    >>> coin = np.array([[0.5, 0.25], [0.25, 0.0]])  # one die: (x, y) = (0, 0), (1, 0) or (0, 1)
    >>> convolve2d(coin, coin)
    array([[0.25  , 0.25  , 0.0625],
           [0.25  , 0.125 , 0.    ],
           [0.0625, 0.    , 0.    ]])
    """
    a, b = _table(a, "a"), _table(b, "b")
    big, small = (a, b) if a.size >= b.size else (b, a)
    rows, cols = big.shape
    out = np.zeros((a.shape[0] + b.shape[0] - 1, a.shape[1] + b.shape[1] - 1))
    # a Python loop over the few entries of the kernel: tolist() keeps it cheap for small pools
    for m, row in enumerate(small.tolist()):
        for n, weight in enumerate(row):
            if weight:
                out[m : m + rows, n : n + cols] += weight * big
    return out


def _table(table: NDArray[np.float64], name: str) -> NDArray[np.float64]:
    """``table`` as a float array, checked: two-dimensional and non-empty."""
    out = np.asarray(table, dtype=np.float64)
    if out.ndim != 2 or out.size == 0:
        raise field_error(DistributionError, name, "a non-empty 2-D array", out.shape)
    return out
