"""Standard errors of a Monte Carlo result: each is the sample's, and shrinks as 1/sqrt(n)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import mathhammer as mh

GUN = mh.Weapon("Gun", 3, 3, 4, -1, 1)
SQUAD = mh.Unit.of("Squad", 3, 4, 4, 1)


def test_proportions_have_the_binomial_standard_error() -> None:
    sim = mh.simulate([(GUN, 3)], SQUAD, trials=4000, rng=11)
    # the proportion of trials with every model destroyed, from the tallied counts
    destroyed = sim.killed.probabilities[SQUAD.models]
    assert sim.p_destroyed == pytest.approx(destroyed, abs=1e-12)
    assert 0 < sim.p_destroyed < 1
    expected = math.sqrt(destroyed * (1 - destroyed) / 4000)
    assert sim.p_destroyed_se == pytest.approx(expected, rel=1e-9)
    for k in range(SQUAD.models + 1):
        p = float(sim.killed.probabilities[k:].sum())
        assert sim.at_least_se(k) == pytest.approx(math.sqrt(p * (1 - p) / 4000), rel=1e-9, abs=0)
    assert sim.at_least_se(0) == 0.0  # at least none: certain, no error


def test_standard_errors_shrink_as_one_over_root_n() -> None:
    small = mh.simulate([(GUN, 3)], SQUAD, trials=1_000, rng=3)
    large = mh.simulate([(GUN, 3)], SQUAD, trials=16_000, rng=3)
    # within 15% of the 1/4 ratio: both are estimates of the same sd over sqrt(n)
    for se in ("killed_se", "damage_se", "p_destroyed_se"):
        ratio = getattr(large, se) / getattr(small, se)
        assert ratio == pytest.approx(0.25, rel=0.15), se
    # the sample standard deviation (ddof=1) of the tallied counts, over sqrt(n)
    values = np.arange(large.killed.n + 1)
    counts = np.rint(large.killed.probabilities * 16_000)
    samples = np.repeat(values, counts.astype(int))
    assert len(samples) == 16_000
    assert large.killed_se == pytest.approx(np.std(samples, ddof=1) / math.sqrt(16_000), rel=1e-12)
