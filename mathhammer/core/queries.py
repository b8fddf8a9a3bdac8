"""The read side of a distribution: the scipy.stats-style queries of its pmf.

:class:`DistQueries` holds what :class:`~mathhammer.core.dist.Dist` answers about the
array it wraps: ``pmf(k)``, ``cdf(k)``, ``sf(k)`` (P(X > k)), ``at_least(k)``
(P(X >= k)), ``ppf(q)``, the moments, the median, mode and support. Each takes a number
(and returns a float) or an array (and returns an array), as :mod:`scipy.stats` does,
and raises on invalid input instead of returning NaN. How a distribution is built and
combined is :mod:`mathhammer.core.dist`'s concern.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, overload

import numpy as np
from numpy.typing import NDArray

from ..errors import DistributionError, field_error
from .arguments import as_numbers, float_or_array
from .binomial import FloatArray

__all__ = ["FEW_VALUES", "DistQueries", "IntArray", "Points", "Scalar"]

#: Up to this many values the moments and tails are summed in Python floats: a few array
#: operations on a short pmf cost more than the sum itself (a row of a comparison table
#: asks for four of them).
FEW_VALUES = 48
_VALUES = np.arange(FEW_VALUES, dtype=np.float64)
_VALUES.setflags(write=False)

#: Slack used when comparing a cdf with a requested quantile, so that rounding
#: noise of the last bit does not move a median from 2 to 3.
_QUANTILE_SLACK = 1e-12

IntArray = NDArray[np.int64]
#: One point at which to evaluate a distribution: the result is a float.
Scalar = float | np.integer | np.floating
#: Several points (a list or an array of any shape): the result is an array of that shape.
Points = Sequence[Any] | NDArray[Any]


class DistQueries:
    """The queries of a probability distribution over ``0..n``, given its pmf ``_pmf``.

    The base of :class:`~mathhammer.core.dist.Dist`, which sets ``_pmf`` (a read-only
    float array summing to 1) and keeps it in its slot.

    Examples
    --------
    >>> import mathhammer as mh
    >>> d = mh.Dist([0.25, 0.5, 0.25])
    >>> d.mean(), d.at_least(1), d.sf(1), d.pmf(1), d.ppf(0.5)
    (1.0, 0.75, 0.25, 0.5, 1)
    """

    __slots__ = ()
    _pmf: FloatArray
    #: the mean, and the variance once asked for (None until the mean is)
    _moments: tuple[float, float | None] | None

    @property
    def probabilities(self) -> FloatArray:
        """The whole pmf as a read-only array: ``probabilities[k]`` = P(X = k), k = 0..n.

        Examples
        --------
        >>> import mathhammer as mh
        >>> mh.Dist.binomial(2, 0.5).probabilities.tolist()
        [0.25, 0.5, 0.25]
        """
        return self._pmf

    @property
    def n(self) -> int:
        """The largest value the array covers (its probability may be 0)."""
        return len(self._pmf) - 1

    @overload
    def pmf(self, k: Scalar) -> float: ...
    @overload
    def pmf(self, k: Points) -> FloatArray: ...
    def pmf(self, k: Scalar | Points) -> float | FloatArray:
        """The probability mass function P(X = k): 0 outside 0..n and at non-integers.

        Parameters
        ----------
        k : number or array_like of numbers
            Where to evaluate, as for :mod:`scipy.stats`: a float for a number, an
            array of floats for an array. The whole pmf is :attr:`probabilities`.

        Examples
        --------
        >>> import mathhammer as mh
        >>> d = mh.Dist([0.5, 0.25, 0.25])
        >>> d.pmf(1), d.pmf(7), d.pmf(1.5)
        (0.25, 0.0, 0.0)
        >>> d.pmf([0, 2]).tolist()
        [0.5, 0.25]
        """
        ks = as_numbers(k, "k")
        inside = (ks >= 0) & (ks <= self.n) & (ks == np.floor(ks))
        idx = np.where(inside, ks, 0).astype(np.intp)
        return float_or_array(np.where(inside, self._pmf[idx], 0.0))

    def _cumulative(self) -> FloatArray:
        return np.cumsum(self._pmf)

    def _tail(self) -> FloatArray:
        # Summed from the top so that small upper tails keep full relative precision.
        return np.cumsum(self._pmf[::-1])[::-1]

    @overload
    def cdf(self, k: Scalar) -> float: ...
    @overload
    def cdf(self, k: Points) -> FloatArray: ...
    def cdf(self, k: Scalar | Points) -> float | FloatArray:
        """The cumulative distribution function P(X <= k).

        Examples
        --------
        >>> import mathhammer as mh
        >>> d = mh.Dist([0.5, 0.25, 0.25])
        >>> d.cdf(1), d.cdf(1.5), d.cdf(-1)
        (0.75, 0.75, 0.0)
        >>> d.cdf(np.arange(d.n + 1)).tolist()
        [0.5, 0.75, 1.0]
        """
        ks = np.floor(as_numbers(k, "k"))
        cum = np.minimum(self._cumulative(), 1.0)
        idx = np.clip(ks, 0, self.n).astype(np.intp)
        return float_or_array(np.where(ks < 0, 0.0, np.where(ks >= self.n, 1.0, cum[idx])))

    @overload
    def sf(self, k: Scalar) -> float: ...
    @overload
    def sf(self, k: Points) -> FloatArray: ...
    def sf(self, k: Scalar | Points) -> float | FloatArray:
        """The survival function P(X > k), as in :mod:`scipy.stats`; see :meth:`at_least`.

        Examples
        --------
        >>> import mathhammer as mh
        >>> d = mh.Dist([0.5, 0.25, 0.25])
        >>> d.sf(0), d.sf(0.5), d.sf(2)
        (0.5, 0.5, 0.0)
        """
        if type(k) is int:  # the common question, answered without arrays
            size = len(self._pmf)
            if k < 0:
                return 1.0
            if k >= size - 1:
                return 0.0
            if size <= FEW_VALUES:  # from the top, as the tail of an array
                return min(sum(self._pmf[:k:-1].tolist()), 1.0)
            return min(float(np.add.reduce(self._pmf[k + 1 :])), 1.0)
        ks = np.floor(as_numbers(k, "k"))
        tail = np.append(np.minimum(self._tail(), 1.0)[1:], 0.0)  # tail[k] = P(X > k)
        idx = np.clip(ks, 0, self.n).astype(np.intp)
        return float_or_array(np.where(ks < 0, 1.0, np.where(ks >= self.n, 0.0, tail[idx])))

    @overload
    def at_least(self, k: Scalar) -> float: ...
    @overload
    def at_least(self, k: Points) -> FloatArray: ...
    def at_least(self, k: Scalar | Points) -> float | FloatArray:
        """P(X >= k): "the chance to kill at least k models".

        Examples
        --------
        >>> import mathhammer as mh
        >>> d = mh.Dist([0.5, 0.25, 0.25])
        >>> d.at_least(1), d.at_least(0.5)
        (0.5, 0.5)
        """
        if type(k) is int:
            return self.sf(k - 1)
        # X >= 1.5 means X >= 2 for an integer X: P(X > ceil(k) - 1)
        return self.sf(np.ceil(as_numbers(k, "k")) - 1)

    at_most = cdf  # P(X <= k), beside at_least

    # ------------------------------------------------------------------ moments
    def mean(self) -> float:
        """The expected value."""
        found = self._moments
        if found is None:
            if len(self._pmf) <= FEW_VALUES:  # values too small for their size to matter
                mu = float(self._pmf.dot(_VALUES[: len(self._pmf)]))
            else:  # about the mode, so that the sum's rounding grows with the spread of
                # the values, not with their size (a D6 + 999,994 has a mean exact to 1e-13)
                mode = int(self._pmf.argmax())
                mu = mode + float(np.dot(np.arange(len(self._pmf)) - mode, self._pmf))
            found = (mu, None)
            object.__setattr__(self, "_moments", found)  # computed once: the pmf is read-only
        return found[0]

    def var(self) -> float:
        """The variance."""
        mu = self.mean()
        assert self._moments is not None  # set by the mean
        variance = self._moments[1]
        if variance is None:
            if len(self._pmf) <= FEW_VALUES:
                terms = [(k - mu) * (k - mu) * x for k, x in enumerate(self._pmf.tolist())]
                variance = max(sum(terms), 0.0)
            else:
                k = np.arange(len(self._pmf))
                variance = float(max(np.dot((k - mu) ** 2, self._pmf), 0.0))
            object.__setattr__(self, "_moments", (mu, variance))
        return variance

    def std(self) -> float:
        """The standard deviation."""
        return math.sqrt(self.var())

    @overload
    def ppf(self, q: Scalar) -> int: ...
    @overload
    def ppf(self, q: Points) -> IntArray: ...
    def ppf(self, q: Scalar | Points) -> int | IntArray:
        """The quantile function: the smallest k with P(X <= k) >= q.

        Values are integers (an int, or an int64 array), and ``ppf(0)`` is the lowest
        value of non-zero probability, where :mod:`scipy.stats` returns the float
        ``lower bound - 1``.

        Examples
        --------
        >>> import mathhammer as mh
        >>> mh.Dist([0.5, 0.25, 0.25]).ppf([0.5, 0.6, 1.0]).tolist()
        [0, 1, 2]
        """
        qs = as_numbers(q, "q")
        if np.any((qs < 0) | (qs > 1)):
            raise field_error(DistributionError, "q", "a probability in [0, 1]", q)
        cum = self._cumulative()
        out = np.searchsorted(cum, qs - _QUANTILE_SLACK, side="left")
        out = np.minimum(out, self.n)
        # never return a value of zero probability at the bottom (q = 0)
        out = np.maximum(out, self.support()[0])
        return int(out) if out.ndim == 0 else out.astype(np.int64)

    quantile = ppf  # the name numpy and pandas use

    def median(self) -> int:
        """The median, ``ppf(0.5)``."""
        return int(self.ppf(0.5))

    def mode(self) -> int:
        """The most likely value (the smallest one on ties)."""
        return int(np.argmax(self._pmf))

    def support(self) -> tuple[int, int]:
        """The smallest and largest values with non-zero probability.

        Examples
        --------
        >>> import mathhammer as mh
        >>> mh.Dist([0.0, 0.5, 0.5, 0.0]).support()
        (1, 2)
        """
        nz = np.flatnonzero(self._pmf)
        return int(nz[0]), int(nz[-1])
