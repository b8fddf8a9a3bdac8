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
    destroyed = sim.killed_samples == SQUAD.models
    assert sim.p_destroyed == pytest.approx(destroyed.mean(), abs=1e-12)
    assert 0 < sim.p_destroyed < 1
    assert sim.p_destroyed_se == pytest.approx(destroyed.std() / math.sqrt(4000), rel=1e-9)
    for k in range(SQUAD.models + 1):
        hit = sim.killed_samples >= k
        assert sim.at_least_se(k) == pytest.approx(hit.std() / math.sqrt(4000), rel=1e-9, abs=0)
    assert sim.at_least_se(0) == 0.0  # at least none: certain, no error


def test_standard_errors_shrink_as_one_over_root_n() -> None:
    small = mh.simulate([(GUN, 3)], SQUAD, trials=1_000, rng=3)
    large = mh.simulate([(GUN, 3)], SQUAD, trials=16_000, rng=3)
    # within 15% of the 1/4 ratio: both are estimates of the same sd over sqrt(n)
    for se in ("killed_se", "damage_se", "p_destroyed_se"):
        ratio = getattr(large, se) / getattr(small, se)
        assert ratio == pytest.approx(0.25, rel=0.15), se
    assert large.killed_se == pytest.approx(
        np.std(large.killed_samples, ddof=1) / math.sqrt(16_000), rel=1e-12
    )
