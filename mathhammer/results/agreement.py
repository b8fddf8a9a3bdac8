"""Does a Monte Carlo run agree with the exact distribution? A test valid for rare outcomes.

A report's check compares the Monte Carlo's counts of each outcome (models destroyed, or
wounds lost) with the exact probabilities. The mean's z-score (``mc_z``) assumes a normal
mean, which fails for rare outcomes: one kill in 20,000 trials of an outcome of chance
5.1e-7 is a z of 9.8, though such a draw happens once in a hundred runs. :func:`agreement_p`
tests each outcome's count with an exact two-sided binomial test and combines them by
Bonferroni's bound: a p-value valid however rare the outcomes are. A count the exact
distribution gives no chance at all is a p-value of 0.

Examples
--------
>>> from mathhammer.core.dist import Dist
>>> exact = Dist([1 - 5.1e-7, 5.1e-7])
>>> one_in_20000 = Dist([1 - 1 / 20_000, 1 / 20_000])
>>> round(agreement_p(exact, one_in_20000, 20_000), 3)  # not a disagreement
0.041
>>> agreement_p(Dist([0.5, 0.5]), Dist([0.55, 0.45]), 20_000) < DISAGREE
True
"""

from __future__ import annotations

import numpy as np

from ..core.dist import Dist
from ..errors import OptionError, field_error

__all__ = ["DISAGREE", "agreement_p"]

#: Below this p-value the engines disagree: a false alarm once in a million rows.
DISAGREE = 1e-6


def agreement_p(exact: Dist, simulated: Dist, trials: int) -> float:
    """The p-value of ``simulated`` (the frequencies of ``trials`` Monte Carlo trials)
    under ``exact``: the smallest two-sided exact binomial p-value over the outcomes,
    times their number (at most 1).

    Raises
    ------
    OptionError
        ``trials`` below 1, or frequencies that are not counts of ``trials`` trials.
    """
    if isinstance(trials, bool) or not isinstance(trials, int | np.integer) or trials < 1:
        raise field_error(OptionError, "trials", "an integer >= 1", trials)
    p, counts = _on_one_support(exact, simulated, trials)
    outcomes = (p > 0) | (counts > 0)
    if np.any(counts[p <= 0] > 0):
        return 0.0  # an outcome the exact distribution rules out
    from scipy.stats import binom  # imported only when a check is made

    k, q = counts[outcomes], np.clip(p[outcomes], 0.0, 1.0)
    below = binom.cdf(k, trials, q)  # P(X <= k)
    above = binom.sf(k - 1, trials, q)  # P(X >= k)
    two_sided = np.minimum(1.0, 2.0 * np.minimum(below, above))
    return float(min(1.0, two_sided.min() * int(outcomes.sum())))


def _on_one_support(exact: Dist, simulated: Dist, trials: int) -> tuple[np.ndarray, np.ndarray]:
    """The exact probabilities and the counts ``simulated``'s frequencies make in ``trials``
    trials, over the values of either; frequencies that are not such counts refused."""
    size = max(exact.n, simulated.n) + 1
    p = np.zeros(size)
    p[: exact.n + 1] = exact.probabilities
    observed = np.zeros(size)
    observed[: simulated.n + 1] = simulated.probabilities * trials
    counts = np.rint(observed)
    if np.abs(observed - counts).max() > 1e-6 * trials:
        raise field_error(
            OptionError, "simulated", f"frequencies of {trials} trials", simulated.probabilities
        )
    return p, counts
