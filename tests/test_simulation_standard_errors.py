"""Standard errors of a Monte Carlo result: each is the sample's, and shrinks as 1/sqrt(n)."""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt
import pytest

import mathhammer as mh

GUN = mh.Weapon("Gun", 3, 3, 4, -1, 1)
SQUAD = mh.Unit.of("Squad", 3, 4, 4, 1)


def killed_samples(sim: mh.SimulationResult) -> npt.NDArray[np.int64]:
    """The simulated kill counts, rebuilt (sorted) from the result's empirical distribution."""
    counts = np.rint(sim.killed.probabilities * sim.trials).astype(np.int64)
    assert counts.sum() == sim.trials
    return np.repeat(np.arange(counts.size, dtype=np.int64), counts)


def test_proportions_have_the_binomial_standard_error() -> None:
    sim = mh.simulate([(GUN, 3)], SQUAD, trials=4000, rng=11)
    destroyed = killed_samples(sim) == SQUAD.models
    assert sim.p_destroyed == pytest.approx(destroyed.mean(), abs=1e-12)
    assert 0 < sim.p_destroyed < 1
    assert sim.p_destroyed_se == pytest.approx(destroyed.std() / math.sqrt(4000), rel=1e-9)
    for k in range(SQUAD.models + 1):
        hit = killed_samples(sim) >= k
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
        np.std(killed_samples(large), ddof=1) / math.sqrt(16_000), rel=1e-12
    )
