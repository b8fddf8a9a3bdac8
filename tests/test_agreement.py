"""The Monte Carlo check of a report row (docs: README, --check-trials): a test valid for rare
outcomes. A rare outcome drawn once no longer reads as a disagreement; a real disagreement
still does, in a row and on the command line."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.stats import binom

import mathhammer as mh
from mathhammer.errors import OptionError
from mathhammer.io.report import build_report
from mathhammer.results.agreement import DISAGREE, agreement_p


def test_a_rare_outcome_drawn_once_is_not_a_disagreement() -> None:
    """The case a user reported: exact P(kill) = 5.1e-7, one kill in 20,000 trials."""
    p, trials = 5.1e-7, 20_000
    exact = mh.Dist([1 - p, p])
    drawn = mh.Dist([1 - 1 / trials, 1 / trials])
    z = (drawn.mean() - exact.mean()) / (exact.std() / math.sqrt(trials))
    assert z == pytest.approx(9.8, abs=0.1)  # the mean's z cries wolf
    # P(at least one kill) = 1 - (1 - p)^n, doubled for two sides, times two outcomes
    at_least_one = 1 - (1 - p) ** trials
    assert agreement_p(exact, drawn, trials) == pytest.approx(4 * at_least_one, rel=1e-6)
    assert agreement_p(exact, drawn, trials) > DISAGREE


def test_each_outcome_is_an_exact_binomial_test() -> None:
    exact = mh.Dist([0.25, 0.5, 0.25])
    counts = np.array([230, 520, 250])
    p = agreement_p(exact, mh.Dist(counts / 1000), 1000)
    tails = [
        min(1.0, 2 * min(binom.cdf(c, 1000, q), binom.sf(c - 1, 1000, q)))
        for c, q in zip(counts, exact.probabilities, strict=True)
    ]
    assert p == pytest.approx(min(1.0, 3 * min(tails)), rel=1e-12)


def test_a_real_disagreement_still_flags() -> None:
    """The Monte Carlo of one attack against the exact result of another (+1 to hit)."""
    gun = mh.Weapon("Gun", 2, 4, 4, 0, 1)
    squad = mh.Unit.of("Squad", 10, 4, 4, 1)
    exact = mh.attack([(gun, 10)], squad)
    other = mh.simulate([(gun, 10)], squad, trials=20_000, modifiers=mh.Modifiers(hit=1),
                        rng=np.random.default_rng(7))  # fmt: skip
    assert agreement_p(exact.killed, other.killed, 20_000) < DISAGREE
    same = mh.simulate([(gun, 10)], squad, trials=20_000, rng=np.random.default_rng(7))
    assert agreement_p(exact.killed, same.killed, 20_000) > DISAGREE


def test_an_outcome_the_exact_result_rules_out_is_a_p_value_of_zero() -> None:
    assert agreement_p(mh.Dist([1.0]), mh.Dist([0.999, 0.001]), 1000) == 0.0


@pytest.mark.parametrize("trials", [0, -1, 2.5, True])
def test_trials_are_a_count(trials: object) -> None:
    with pytest.raises(OptionError, match="trials"):
        agreement_p(mh.Dist([1.0]), mh.Dist([1.0]), trials)  # type: ignore[arg-type]


def test_frequencies_must_be_counts_of_the_trials() -> None:
    with pytest.raises(OptionError, match="frequencies of 10 trials"):
        agreement_p(mh.Dist([0.5, 0.5]), mh.Dist([0.333, 0.667]), 10)


def test_every_checked_row_has_its_p_value() -> None:
    bolt = mh.Weapon("Bolt rifle", attacks=2, skill=3, strength=4, ap=-1, damage=1)
    frame = build_report([mh.Loadout("bolters", [(bolt, 10)], 160)],
                         [mh.targets.get("Line infantry"), mh.targets.get("Elite infantry")],
                         trials=5000, rng=3)  # fmt: skip
    assert list(frame.columns[-4:]) == ["mc_mean_killed", "mc_se_killed", "mc_z", "mc_p"]
    assert ((frame.mc_p > DISAGREE) & (frame.mc_p <= 1)).all()
