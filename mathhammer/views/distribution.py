"""The key numbers of one distribution, for display: a dict, a Series, a tidy frame.

:class:`~mathhammer.core.dist.Dist` computes probabilities; how they are chosen and laid
out for a reader lives here, behind its thin ``describe``, ``thresholds``, ``summary``
and ``to_frame`` methods. :func:`describe` is the one place the displayed numbers are
computed: ``Dist.summary()``, the HTML view and
:meth:`AttackResult.summary <mathhammer.results.attack.AttackResult.summary>` all read
it. pandas is imported only when a Series or a frame is built. Distributions are taken
by duck typing, so that ``core.dist`` can import this module on demand without a cycle.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Protocol

import numpy as np

from ..core.arguments import as_count
from ..errors import DistributionError, field_error

__all__ = ["describe", "summary", "thresholds", "to_frame"]

#: Up to this many values every k gets its own P(X >= k).
EVERY_K_UP_TO = 10


class Describable(Protocol):
    """What the key numbers need from a distribution (:class:`mathhammer.Dist` has it)."""

    @property
    def n(self) -> int: ...
    @property
    def probabilities(self) -> Any: ...
    def mean(self) -> float: ...
    def std(self) -> float: ...
    def median(self) -> int: ...
    def mode(self) -> int: ...
    def ppf(self, q: Any) -> Any: ...
    def cdf(self, k: Any) -> Any: ...
    def at_least(self, k: Any) -> Any: ...


def thresholds(dist: Describable, top: int | None = None) -> list[int]:
    """The values k for which P(X >= k) is worth showing.

    Every k from 1 to ``top`` when that is at most 10; otherwise 1, 2, 3 and the
    quarters of ``top``. Without ``top`` (a unit's model count, say), the range the
    distribution actually covers decides: 1 to its 99.9% quantile, or the quantiles
    from 10% to 90% when that is wide.

    Examples
    --------
    >>> from mathhammer import Dist
    >>> thresholds(Dist.binomial(20, 0.5), top=5)
    [1, 2, 3, 4, 5]
    >>> thresholds(Dist.binomial(20, 0.5), top=20)
    [1, 2, 3, 5, 10, 15, 20]
    >>> thresholds(Dist.binomial(100, 0.5))
    [1, 44, 47, 50, 53, 56]
    """
    if top is not None:
        return _thresholds_up_to(max(as_count(top, "top"), 1))
    high = max(dist.ppf(0.999), 1)
    if high <= EVERY_K_UP_TO:
        return list(range(1, high + 1))
    quantiles = dist.ppf([0.1, 0.25, 0.5, 0.75, 0.9]).tolist()
    return sorted({1, *(int(k) for k in quantiles if k >= 1)})


def _thresholds_up_to(top: int) -> list[int]:
    """Every k from 1 to ``top`` when that is at most 10; otherwise 1, 2, 3 and the
    quarters of ``top``."""
    if top <= EVERY_K_UP_TO:
        return list(range(1, top + 1))
    return sorted({1, 2, 3, *(-(-top * q // 4) for q in (1, 2, 3, 4))})


def describe(dist: Describable, at_least: Sequence[int] | None = None) -> dict[str, float]:
    """The key numbers as a plain dict: mean, sd, median, mode and P(X >= k).

    Parameters
    ----------
    dist : Dist
        The distribution (anything with its methods).
    at_least : sequence of int, optional
        The k of the ``"P(>=k)"`` entries; :func:`thresholds` by default.

    Examples
    --------
    >>> from mathhammer import Dist
    >>> describe(Dist([0.25, 0.5, 0.25]))
    {'mean': 1.0, 'sd': 0.7071067811865476, 'median': 1, 'mode': 1, 'P(>=1)': 0.75,
     'P(>=2)': 0.25}
    """
    ks = _ks(dist, at_least)
    out: dict[str, float] = {
        "mean": dist.mean(),
        "sd": dist.std(),
        "median": dist.median(),
        "mode": dist.mode(),
    }
    for k in ks:
        out[f"P(>={k})"] = dist.at_least(k)
    return out


def _ks(dist: Describable, at_least: Sequence[int] | None) -> list[int]:
    """The k of :func:`describe`'s ``"P(>=k)"`` entries: ``at_least`` checked, or
    :func:`thresholds`."""
    if at_least is not None and (isinstance(at_least, str) or not isinstance(at_least, Iterable)):
        raise field_error(DistributionError, "at_least", "a list of integers", at_least)
    return thresholds(dist) if at_least is None else [as_count(k, "k") for k in at_least]


def summary(dist: Describable, at_least: Sequence[int] | None = None) -> Any:
    """The key numbers as a :class:`pandas.Series` (see :func:`describe`).

    Examples
    --------
    >>> from mathhammer import Dist
    >>> summary(Dist([0.25, 0.5, 0.25]))
    mean      1.000000
    sd        0.707107
    median    1.000000
    mode      1.000000
    P(>=1)    0.750000
    P(>=2)    0.250000
    dtype: float64
    """
    import pandas as pd

    return pd.Series(describe(dist, at_least), dtype=np.float64)


def to_frame(dist: Describable) -> Any:
    """A tidy :class:`pandas.DataFrame`: one row per value with pmf, cdf and at_least.

    Examples
    --------
    >>> from mathhammer import Dist
    >>> to_frame(Dist([0.25, 0.5, 0.25]))
       value   pmf   cdf  at_least
    0      0  0.25  0.25      1.00
    1      1  0.50  0.75      0.75
    2      2  0.25  1.00      0.25
    """
    import pandas as pd

    values = np.arange(dist.n + 1)
    return pd.DataFrame(
        {
            "value": values,
            "pmf": dist.probabilities,
            "cdf": dist.cdf(values),
            "at_least": dist.at_least(values),
        }
    )
