"""Monte Carlo against exact distributions, with the tolerances of docs/architecture.md §4.5.

* Means: ``|mean_MC - mean_exact| <= 5 sigma``, ``sigma = std_exact / sqrt(trials)``, the
  standard deviation taken from the *exact* distribution; a quantity that is constant
  under the exact distribution must be reproduced to 1e-9.
* Distributions: the Dvoretzky-Kiefer-Wolfowitz band at ``alpha = 1e-6``,
  ``sup_k |F_n(k) - F(k)| <= sqrt(ln(2 / alpha) / (2 n))``.

Seeds are fixed by the callers; nothing is retried.

Examples
--------
>>> import mathhammer as mh
>>> exact = mh.Dist([0.5, 0.5])
>>> z_score(exact, 0.51, trials=10_000)
2.0...
>>> round(dkw_bound(100_000), 4)
0.0085
"""

from __future__ import annotations

import math
import zlib

import numpy as np

import mathhammer as mh

__all__ = [
    "ALPHA",
    "Z_MAX",
    "Z_SEEN",
    "assert_matches",
    "dkw_bound",
    "ks_distance",
    "seed_for",
    "z_score",
]

Z_MAX = 5.0
ALPHA = 1e-6
#: Every z-score :func:`assert_matches` computed in this process, by label (for reports).
Z_SEEN: list[tuple[str, float]] = []


def seed_for(*parts: object) -> int:
    """A stable seed from names (``zlib.crc32``, not the salted ``hash``)."""
    return zlib.crc32(":".join(str(p) for p in parts).encode())


def dkw_bound(n: int, alpha: float = ALPHA) -> float:
    """The DKW half-width: P(sup |F_n - F| > bound) <= alpha."""
    return math.sqrt(math.log(2.0 / alpha) / (2.0 * n))


def z_score(exact: mh.Dist, mc_mean: float, trials: int) -> float:
    """(MC mean - exact mean) in units of the exact standard error ``std / sqrt(trials)``."""
    diff = mc_mean - exact.mean()
    sd = exact.std()
    if sd < 1e-12:  # a constant: the simulation must reproduce it
        return 0.0 if abs(diff) <= 1e-9 else math.inf
    return diff / (sd / math.sqrt(trials))


def ks_distance(exact: mh.Dist, empirical: mh.Dist) -> float:
    """``sup_k |F_n(k) - F(k)|`` over every integer k (beyond both supports both are 1)."""
    size = max(exact.n, empirical.n) + 1
    f = np.ones(size)
    f[: exact.n + 1] = np.cumsum(exact.probabilities)
    fn = np.ones(size)
    fn[: empirical.n + 1] = np.cumsum(empirical.probabilities)
    return float(np.max(np.abs(fn - f)))


def assert_matches(label: str, exact: mh.Dist, simulated: mh.Dist, trials: int) -> float:
    """Assert the mean within 5 sigma and the cdf within the DKW band; return the z-score."""
    z = z_score(exact, simulated.mean(), trials)
    Z_SEEN.append((label, z))
    assert abs(z) <= Z_MAX, f"{label}: MC mean {simulated.mean():.5f} vs {exact.mean():.5f}, z={z}"
    d = ks_distance(exact, simulated)
    assert d <= dkw_bound(trials), f"{label}: sup|F_n - F| = {d:.5f} > {dkw_bound(trials):.5f}"
    return z
