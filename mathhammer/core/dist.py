"""Immutable probability distributions over the integers 0..n.

:class:`Dist` is the currency of the whole library: attack dice, hits, wounds,
models destroyed and wounds lost are all ``Dist`` objects. Methods keep the
names and meanings users know from the frozen distributions of :mod:`scipy.stats`:
``pmf(k)``, ``cdf(k)``, ``sf(k)`` (P(X > k)) and ``ppf(q)`` take a number (and return
a float) or an array (and return an array); the wargamer's question gets its own name,
``at_least(k)`` = P(X >= k). Unlike scipy, invalid input raises instead of giving NaN.
The whole pmf is the read-only array ``probabilities``. Those queries are defined in
:mod:`mathhammer.core.queries`; this module builds and combines distributions.

Every operation returns a new instance. Sizes are checked before anything is
allocated (:mod:`mathhammer.core.limits`): a distribution past ``MAX_DIST_SIZE``, a
binomial past ``MAX_BINOMIAL_N`` or a convolution past ``MAX_DIST_WORK`` operations
raises a :class:`~mathhammer.errors.LimitError`. The presentation methods (``summary``,
``to_frame``, ``plot`` and the HTML view) are implemented in :mod:`mathhammer.views`,
imported when first used.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike

from ..errors import DistributionError, field_error
from .arguments import as_count, as_probability
from .binomial import FloatArray, binomial_pmf, binomial_table, binomial_thin
from .limits import MAX_BINOMIAL_N, MAX_DIST_SIZE, MAX_DIST_WORK, check_limit
from .queries import DistQueries

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.axes import Axes

# binomial_table is re-exported: it was first defined here
__all__ = ["Dist", "binomial_table"]

#: Largest deviation of the total probability from 1 accepted on construction.
MASS_TOLERANCE = 1e-9


def _check_work(operation: str, work: int) -> None:
    hint = "the distributions are too large"
    check_limit(f"operations of {operation}", work, MAX_DIST_WORK, hint)


def _dist_list(dists: Sequence[Dist]) -> list[Dist]:
    """The distributions of a mixture, checked: a list of Dists."""
    if isinstance(dists, Dist | str) or not isinstance(dists, Iterable):
        raise field_error(DistributionError, "dists", "a list of Dists", dists)
    found = list(dists)
    if not all(isinstance(d, Dist) for d in found):
        raise field_error(DistributionError, "dists", "a list of Dists", found)
    return found


def _mixture_weights(weights: ArrayLike, count: int) -> FloatArray:
    """The weights of a mixture of ``count`` distributions, checked: as many, finite,
    non-negative and summing to 1."""
    try:
        w = np.asarray(weights, dtype=np.float64)
    except (TypeError, ValueError):
        raise field_error(DistributionError, "weights", "an array of numbers", weights) from None
    if w.ndim != 1 or len(w) != count or len(w) == 0:
        raise field_error(DistributionError, "weights", f"one weight per distribution ({count})", w)
    if not np.all(np.isfinite(w)) or np.any(w < 0) or abs(float(w.sum()) - 1.0) > MASS_TOLERANCE:
        raise field_error(DistributionError, "weights", "finite, non-negative and summing to 1", w)
    return w


def _checked_pmf(pmf: ArrayLike) -> FloatArray:
    """``Dist(pmf)``'s pmf as a new float array, checked: one-dimensional, non-empty,
    finite, non-negative and summing to 1."""
    try:
        arr = np.array(pmf, dtype=np.float64)
    except (TypeError, ValueError):
        raise field_error(DistributionError, "pmf", "an array of probabilities", pmf) from None
    if arr.ndim != 1 or arr.size == 0:
        raise field_error(DistributionError, "pmf", "a non-empty one-dimensional array", pmf)
    if not np.all(np.isfinite(arr)):
        raise field_error(DistributionError, "pmf", "finite", pmf)
    if np.any(arr < 0):
        raise field_error(DistributionError, "pmf", "non-negative", pmf)
    total = float(arr.sum())
    if abs(total - 1.0) > MASS_TOLERANCE:
        raise field_error(DistributionError, "sum of pmf", "1", total)
    return arr


def _mapped(func: Any, size: int) -> list[int]:
    """``func(k)`` for each ``k`` below ``size``, checked: integers >= 0."""
    values = [func(k) for k in range(size)]
    for value in values:
        if isinstance(value, bool) or not isinstance(value, int | np.integer):
            raise field_error(DistributionError, "func(k)", "an integer >= 0", value)
    values = [int(v) for v in values]
    if min(values) < 0:
        raise field_error(DistributionError, "func(k)", "an integer >= 0", min(values))
    return values


class Dist(DistQueries):
    """A probability distribution over the integers ``0..n``.

    Parameters
    ----------
    pmf : array_like
        ``pmf[k]`` is P(X = k). Non-negative, finite, summing to 1 (within 1e-9); kept
        as the read-only array :attr:`probabilities`.

    Examples
    --------
    >>> d = Dist([0.25, 0.5, 0.25])
    >>> d.mean(), d.at_least(1), d.sf(1), d.pmf(1)
    (1.0, 0.75, 0.25, 0.5)
    >>> d.cdf([0, 1, 2]).tolist()
    [0.25, 0.75, 1.0]
    >>> (d + d).probabilities.tolist()
    [0.0625, 0.25, 0.375, 0.25, 0.0625]
    """

    __slots__ = ("_moments", "_pmf")

    def __init__(self, pmf: ArrayLike) -> None:
        arr = _checked_pmf(pmf)
        arr.setflags(write=False)
        self._pmf = arr
        self._moments = None

    @classmethod
    def _trusted(cls, arr: FloatArray) -> Dist:
        """Wrap an array produced by the library's own exact operations (no re-validation)."""
        out = object.__new__(cls)
        arr = np.asarray(arr, dtype=np.float64)
        arr.setflags(write=False)
        out._pmf = arr
        out._moments = None  # not computed yet (an unset slot is read by an exception)
        return out

    @classmethod
    def _lazy(cls, source: Callable[[], FloatArray]) -> Dist:
        """A distribution whose pmf ``source()`` computes, with the library's own exact
        operations, when it is first used (no re-validation, as :meth:`_trusted`): for
        what a result reports and is seldom read, such as a pool's hits.

        Examples
        --------
        >>> d = Dist._lazy(lambda: np.array([0.5, 0.5]))
        >>> d.mean(), d == Dist([0.5, 0.5])
        (0.5, True)
        """
        out = object.__new__(_LazyDist)
        out._source = source
        out._moments = None
        return out

    def __reduce__(self) -> tuple[Any, ...]:
        # rebuilt through _trusted: a plainly unpickled array would be writeable again
        return (Dist._trusted, (self._pmf,))

    @property
    def held_bytes(self) -> int:
        """The bytes of the pmf held: 0 for one not computed yet (:meth:`_lazy`), which
        this does not compute.

        Examples
        --------
        >>> Dist.constant(3).held_bytes, Dist._lazy(lambda: np.ones(1)).held_bytes
        (32, 0)
        """
        return int(self._pmf.nbytes)

    # ------------------------------------------------------------------ constructors
    @classmethod
    def constant(cls, k: int) -> Dist:
        """The distribution that is ``k`` with certainty.

        Examples
        --------
        >>> Dist.constant(2).probabilities.tolist()
        [0.0, 0.0, 1.0]
        """
        k = as_count(k, "k")
        check_limit("Dist.constant k", k, MAX_DIST_SIZE)
        arr = np.zeros(k + 1)
        arr[k] = 1.0
        return cls._trusted(arr)

    @classmethod
    def uniform(cls, low: int, high: int) -> Dist:
        """Uniform on ``low..high`` inclusive: one die is ``Dist.uniform(1, 6)``.

        Examples
        --------
        >>> Dist.uniform(1, 3).mean()
        2.0
        """
        low, high = as_count(low, "low"), as_count(high, "high")
        if high < low:
            raise field_error(DistributionError, "high", f"an integer >= low ({low})", high)
        check_limit("Dist.uniform high", high, MAX_DIST_SIZE)
        arr = np.zeros(high + 1)
        arr[low:] = 1.0 / (high - low + 1)
        return cls._trusted(arr)

    @classmethod
    def binomial(cls, n: int, p: float) -> Dist:
        """Binomial(n, p): the number of successes among ``n`` independent trials.

        Examples
        --------
        >>> Dist.binomial(2, 0.5).probabilities.tolist()
        [0.25, 0.5, 0.25]
        """
        n, p = as_count(n, "n"), as_probability(p, "p")
        check_limit("Dist.binomial n", n, MAX_BINOMIAL_N, "its work grows as n squared")
        return cls._trusted(binomial_pmf(n, p))

    @classmethod
    def from_samples(cls, samples: ArrayLike, minlength: int = 0) -> Dist:
        """The empirical distribution of non-negative integer samples.

        Examples
        --------
        >>> Dist.from_samples([0, 1, 1, 3]).probabilities.tolist()
        [0.25, 0.5, 0.0, 0.25]
        """
        arr = np.asarray(samples)
        if arr.size == 0:
            raise field_error(DistributionError, "samples", "non-empty", samples)
        if not np.issubdtype(arr.dtype, np.integer) or arr.min() < 0:
            raise field_error(DistributionError, "samples", "non-negative integers", arr.dtype)
        check_limit("largest of Dist.from_samples", int(arr.max()), MAX_DIST_SIZE)
        minlength = as_count(minlength, "minlength")
        check_limit("minlength of Dist.from_samples", minlength, MAX_DIST_SIZE + 1)
        counts = np.bincount(arr.ravel(), minlength=minlength)
        return cls._trusted(counts / arr.size)

    @staticmethod
    def mixture(weights: ArrayLike, dists: Sequence[Dist]) -> Dist:
        """The mixture ``sum(w_i * dists[i])`` with weights summing to 1.

        Examples
        --------
        >>> Dist.mixture([0.5, 0.5], [Dist.constant(0), Dist.constant(2)]).probabilities.tolist()
        [0.5, 0.0, 0.5]
        """
        dists = _dist_list(dists)
        w = _mixture_weights(weights, len(dists))
        size = max(d.n for d in dists) + 1
        out = np.zeros(size)
        for wi, d in zip(w, dists, strict=True):
            out[: d.n + 1] += wi * d._pmf
        return Dist._trusted(out)

    def __bool__(self) -> bool:
        raise TypeError(
            "a Dist has no truth value: it is a distribution, not a number; ask for a "
            "probability instead, e.g. dist.at_least(k) for P(X >= k)"
        )

    def trim(self) -> Dist:
        """The same distribution with trailing zero probabilities removed."""
        hi = self.support()[1]
        return Dist._trusted(self._pmf[: hi + 1].copy())

    # ------------------------------------------------------------------ algebra
    def convolve(self, other: Dist | int) -> Dist:
        """The distribution of ``X + Y`` for independent ``X`` (self) and ``Y``.

        An int is a constant shift.
        """
        if isinstance(other, Dist):
            _check_work("Dist.convolve", len(self._pmf) * len(other._pmf))
            return Dist._trusted(np.convolve(self._pmf, other._pmf))
        shift = as_count(other, "shift")
        check_limit("largest value of Dist.convolve", self.n + shift, MAX_DIST_SIZE)
        return Dist._trusted(np.concatenate([np.zeros(shift), self._pmf]))

    def __add__(self, other: Dist | int) -> Dist:
        return self.convolve(other)

    __radd__ = __add__

    def repeat(self, times: int) -> Dist:
        """The sum of ``times`` independent copies (the n-fold convolution).

        Examples
        --------
        >>> Dist.uniform(1, 3).repeat(2).probabilities.tolist()[2:]  # doctest: +ELLIPSIS
        [0.111..., 0.222..., 0.333..., 0.222..., 0.111...]
        """
        times = as_count(times, "times")
        size = self.n * times + 1
        check_limit("largest value of Dist.repeat", size - 1, MAX_DIST_SIZE)
        _check_work("Dist.repeat", size * size)  # the last squarings dominate
        result = np.ones(1)
        base = self._pmf
        while times:
            if times & 1:
                result = np.convolve(result, base)
            times >>= 1
            if times:
                base = np.convolve(base, base)
        return Dist._trusted(result)

    def compound(self, count: Dist) -> Dist:
        """The sum of a random number ``N ~ count`` of independent copies of self.

        Examples
        --------
        >>> Dist.constant(2).compound(Dist([0.5, 0.5])).probabilities.tolist()
        [0.5, 0.0, 0.5]
        """
        check_limit("largest value of Dist.compound", count.n * self.n, MAX_DIST_SIZE)
        _check_work("Dist.compound", (count.n + 1) ** 2 * (self.n + 1) ** 2 // 2)
        out = np.zeros(count.n * self.n + 1)
        power = np.ones(1)
        for n, weight in enumerate(count._pmf):
            if n:
                power = np.convolve(power, self._pmf)
            if weight:
                out[: len(power)] += weight * power
        return Dist._trusted(out)

    def thin(self, p: float) -> Dist:
        """Binomial thinning: each of the X items survives independently with probability p.

        Examples
        --------
        >>> Dist.constant(2).thin(0.5).probabilities.tolist()
        [0.25, 0.5, 0.25]
        """
        p = as_probability(p, "p")
        check_limit("largest value of Dist.thin", self.n, MAX_BINOMIAL_N)
        return Dist._trusted(binomial_thin(self._pmf, p))

    def map(self, func: Callable[[int], int]) -> Dist:
        """The distribution of ``func(X)`` for an integer-valued ``func`` >= 0.

        Examples
        --------
        >>> Dist.uniform(1, 3).map(lambda d: max(d - 1, 1)).probabilities.tolist()
        [0.0, 0.6666666666666666, 0.3333333333333333]
        """
        values = _mapped(func, len(self._pmf))
        check_limit("largest value of Dist.map", max(values), MAX_DIST_SIZE)
        out = np.zeros(max(values) + 1)
        np.add.at(out, values, self._pmf)
        return Dist._trusted(out)

    # ------------------------------------------------------------------ comparison
    def allclose(self, other: Dist, atol: float = 1e-12) -> bool:
        """True if both pmfs agree within ``atol`` (missing entries count as 0)."""
        size = max(self.n, other.n) + 1
        a = np.zeros(size)
        b = np.zeros(size)
        a[: self.n + 1] = self._pmf
        b[: other.n + 1] = other._pmf
        return bool(np.all(np.abs(a - b) <= atol))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Dist):
            return NotImplemented
        return bool(np.array_equal(self._pmf, other._pmf))

    def __hash__(self) -> int:
        return hash(self._pmf.tobytes())

    def __repr__(self) -> str:
        lo, hi = self.support()
        return f"Dist(mean={self.mean():.4g}, std={self.std():.4g}, support={lo}..{hi})"

    # ------------------------------------------------------------------ presentation
    # Implemented in mathhammer.views.distribution, imported on first use: the core
    # imports nothing from the layers above it, and pandas only when a table is built.
    def thresholds(self, top: int | None = None) -> list[int]:
        """The values k for which P(X >= k) is worth showing.

        See :func:`mathhammer.views.distribution.thresholds`.

        Examples
        --------
        >>> Dist.binomial(20, 0.5).thresholds(top=20)
        [1, 2, 3, 5, 10, 15, 20]
        """
        from ..views.distribution import thresholds

        return thresholds(self, top)

    def describe(self, at_least: Sequence[int] | None = None) -> dict[str, float]:
        """The key numbers as a plain dict: mean, sd, median, mode and P(X >= k).

        See :func:`mathhammer.views.distribution.describe`.

        Examples
        --------
        >>> Dist([0.25, 0.5, 0.25]).describe([2])
        {'mean': 1.0, 'sd': 0.7071067811865476, 'median': 1, 'mode': 1, 'P(>=2)': 0.25}
        """
        from ..views.distribution import describe

        return describe(self, at_least)

    def summary(self, at_least: Sequence[int] | None = None) -> pd.Series:
        """The key numbers as a :class:`pandas.Series` (see :meth:`describe`).

        Examples
        --------
        >>> Dist([0.25, 0.5, 0.25]).summary().to_dict()
        {'mean': 1.0, 'sd': 0.7071067811865476, 'median': 1.0, 'mode': 1.0, 'P(>=1)': 0.75,
         'P(>=2)': 0.25}
        """
        from ..views.distribution import summary

        return summary(self, at_least)

    def to_frame(self) -> pd.DataFrame:
        """A tidy :class:`pandas.DataFrame`: one row per value with pmf, cdf and at_least.

        Examples
        --------
        >>> Dist([0.25, 0.5, 0.25]).to_frame().columns.tolist()
        ['value', 'pmf', 'cdf', 'at_least']
        """
        from ..views.distribution import to_frame

        return to_frame(self)

    def plot(self, kind: str = "pmf", ax: Axes | None = None, **kwargs: Any) -> Any:
        """Plot the distribution with matplotlib; return the Axes.

        Parameters
        ----------
        kind : {"pmf", "at_least", "cdf"}
            Bars of P(X = k), the curve of P(X >= k), or the step curve of P(X <= k).
        ax : matplotlib.axes.Axes, optional
            Where to draw; a new figure by default.
        **kwargs
            ``label``, ``xlabel``, ``title``, ``marks`` (mark the mean and the median) and
            any matplotlib style argument: see :func:`mathhammer.views.plots.plot_dist`.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> ax = Dist([0.25, 0.5, 0.25]).plot("at_least")
        >>> ax.get_ylabel()
        'P(X >= k)'
        >>> import matplotlib.pyplot as plt; plt.close("all")
        """
        from ..views.plots import plot_dist

        return plot_dist(self, kind=kind, ax=ax, **kwargs)

    def _repr_html_(self) -> str:
        from ..views.html import dist_html

        return dist_html(self, self.summary())


#: Where a Dist keeps its pmf (the slot), read and written past :class:`_LazyDist`'s property.
_PMF_SLOT: Any = Dist.__dict__["_pmf"]


class _LazyDist(Dist):
    """A :class:`Dist` whose pmf is computed on first use (:meth:`Dist._lazy`); the same
    distribution in every other respect, and pickled as a plain one. Rows that keep it: S1-S6
    of ``benchmarks/bench_perf.py`` (docs/performance.md, section 2)."""

    __slots__ = ("_source",)
    _source: Callable[[], FloatArray] | None

    def _get_pmf(self) -> FloatArray:
        try:
            found: FloatArray = _PMF_SLOT.__get__(self, _LazyDist)
        except AttributeError:  # not computed yet (two threads may both compute it)
            source = self._source
            assert source is not None
            found = np.asarray(source(), dtype=np.float64)
            found.setflags(write=False)
            _PMF_SLOT.__set__(self, found)
            self._source = None  # what it was computed from is no longer held
        return found

    @property
    def held_bytes(self) -> int:
        if self._source is not None:  # not computed yet (the source is dropped once it is)
            return 0
        return int(_PMF_SLOT.__get__(self, _LazyDist).nbytes)

    def _set_pmf(self, arr: FloatArray) -> None:
        _PMF_SLOT.__set__(self, arr)

    _pmf = property(_get_pmf, _set_pmf)
