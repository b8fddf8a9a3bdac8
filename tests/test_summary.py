"""Summaries, tidy frames and the terminal and HTML views of distributions and results."""

from __future__ import annotations

import ast
import re
from fractions import Fraction as F
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import mathhammer as mh
import mathhammer.core.dist
from mathhammer.views import distribution
from mathhammer.views.html import bar_chart_svg, visible_range

ATOL = 1e-12

BOLT = mh.Weapon("Bolt rifle", attacks=2, skill=3, strength=4, ap=-1, damage=1)
MARINES = mh.Unit.of("Intercessors", models=5, toughness=4, save=3, wounds=2)
GUARD = mh.ModelGroup(4, toughness=4, save=3, wounds=2, name="Bodyguard")
BOSS = mh.ModelGroup(1, toughness=4, save=2, wounds=5, invuln=4, character=True, name="Boss")
LED = mh.Unit("Led unit", [GUARD, BOSS], keywords="INFANTRY")


# --------------------------------------------------------------------------- Dist
def test_describe_gives_the_key_numbers_of_a_hand_built_distribution() -> None:
    d = mh.Dist([0.125, 0.375, 0.375, 0.125])  # Binomial(3, 1/2)
    assert d.describe() == {
        "mean": 1.5,
        "sd": pytest.approx(np.sqrt(0.75), abs=ATOL),
        "median": 1,
        "mode": 1,
        "P(>=1)": 0.875,
        "P(>=2)": 0.5,
        "P(>=3)": 0.125,
    }
    assert list(d.describe([2])) == ["mean", "sd", "median", "mode", "P(>=2)"]


def test_thresholds_cover_small_units_fully_and_large_ones_by_quarters() -> None:
    d = mh.Dist.binomial(30, 0.5)
    assert d.thresholds(top=1) == [1]
    assert d.thresholds(top=10) == list(range(1, 11))
    assert d.thresholds(top=11) == [1, 2, 3, 6, 9, 11]
    assert d.thresholds(top=200) == [1, 2, 3, 50, 100, 150, 200]
    assert mh.Dist.constant(0).thresholds() == [1]
    assert mh.Dist.binomial(6, 0.5).thresholds() == [1, 2, 3, 4, 5, 6]


def test_summary_is_a_series_of_describe() -> None:
    d = mh.Dist.binomial(4, 0.25)
    series = d.summary([1, 4])
    assert isinstance(series, pd.Series)
    assert series.to_dict() == pytest.approx(d.describe([1, 4]), abs=0)


def test_dist_to_frame_is_tidy_and_consistent() -> None:
    d = mh.Dist.binomial(5, F(1, 3).__float__())
    frame = d.to_frame()
    assert list(frame.columns) == ["value", "pmf", "cdf", "at_least"]
    assert frame.value.tolist() == list(range(6))
    np.testing.assert_allclose(frame.pmf, d.probabilities, atol=0)
    np.testing.assert_allclose(frame.cdf, np.cumsum(d.probabilities), atol=ATOL)
    np.testing.assert_allclose(frame.at_least, 1 - frame.cdf + frame.pmf, atol=ATOL)


def test_dist_repr_is_compact_and_html_has_numbers_and_chart() -> None:
    d = mh.Dist([0.25, 0.5, 0.25])
    assert repr(d) == "Dist(mean=1, std=0.7071, support=0..2)"
    page = d._repr_html_()
    assert page.count("<svg") == 1 and page.count("<rect") == 3
    for text in ("<td>1.000</td>", "<td>0.707</td>", "<td>0.750</td>", "<td>0.250</td>"):
        assert text in page
    assert "P(≥1)" in page and "support 0..2" in page


def test_dist_presentation_lives_in_the_views_layer() -> None:
    # core.dist keeps thin methods that import the views on use, never at import time
    tree = ast.parse(Path(mathhammer.core.dist.__file__).read_text())
    top_level = [n.module or "" for n in tree.body if isinstance(n, ast.ImportFrom)]
    assert top_level and not [m for m in top_level if "views" in m]
    d = mh.Dist.binomial(40, 0.3)
    # wide: 1 and the quantiles from 10% to 90%, here those of scipy's binomial
    quantiles = stats.binom(40, 0.3).ppf([0.1, 0.25, 0.5, 0.75, 0.9]).astype(int).tolist()
    assert d.thresholds() == distribution.thresholds(d) == [1, *quantiles]
    assert d.thresholds(top=30) == distribution.thresholds(d, top=30)
    assert d.describe([1, 12]) == distribution.describe(d, [1, 12])
    pd.testing.assert_series_equal(d.summary(), distribution.summary(d))
    pd.testing.assert_frame_equal(d.to_frame(), distribution.to_frame(d))


def test_presentation_arguments_are_validated() -> None:
    d = mh.Dist.binomial(4, 0.5)
    with pytest.raises(mh.DistributionError, match="top must be an integer >= 0; got -2"):
        d.thresholds(top=-2)
    with pytest.raises(mh.DistributionError, match="k must be an integer >= 0; got 1.5"):
        d.describe([1.5])  # type: ignore[list-item]


# --------------------------------------------------------------------------- results
def test_distributions_name_every_stage_in_order() -> None:
    res = mh.attack([(BOLT, 10)], MARINES)
    assert list(res.distributions()) == ["attacks", "hits", "wounds", "unsaved", "damage", "killed"]
    assert res.distributions()["killed"] is res.killed


def test_distributions_of_several_pools_groups_and_special_steps() -> None:
    needle = mh.Weapon("Needle", 2, 3, 4, -1, 2, "[DEVASTATING WOUNDS]")
    plasma = mh.Weapon("Plasma", 1, 3, 8, -3, 2, "[HAZARDOUS]")
    res = mh.attack([mh.MortalWounds(2), (needle, 3), plasma], LED)
    names = list(res.distributions())
    assert names == [
        "Mortal wounds 2: mortal wounds",
        "Needle x3: attacks",
        "Needle x3: hits",
        "Needle x3: wounds",
        "Needle x3: unsaved",
        "Needle x3: devastating",
        "Plasma: attacks",
        "Plasma: hits",
        "Plasma: wounds",
        "Plasma: unsaved",
        "hazardous",
        "damage",
        "killed",
        "killed: Bodyguard",
        "killed: Boss",
    ]


def test_summary_rows_match_the_distributions() -> None:
    res = mh.attack([(BOLT, 10)], MARINES)
    table = res.summary()
    assert table.index.name == "stage"
    assert list(table.columns) == [
        "mean",
        "sd",
        "median",
        "mode",
        *(f"P(>={k})" for k in range(1, 6)),
        "P(destroyed)",
    ]
    for stage, dist in res.distributions().items():
        row = table.loc[stage]
        assert row["mean"] == dist.mean() and row["sd"] == dist.std()
        assert row["median"] == dist.median() and row["mode"] == dist.mode()
        for k in range(1, 6):
            assert row[f"P(>={k})"] == dist.at_least(k)
    assert table.loc["killed", "P(destroyed)"] == res.p_destroyed
    assert table["P(destroyed)"].drop("killed").isna().all()
    # hand-derived: 20 dice, each unsaved with 2/3 * 1/2 * 1/2 = 1/6
    assert abs(table.loc["unsaved", "mean"] - 20 / 6) < 1e-3  # a destroyed unit stops saves
    assert table.loc["attacks", "mean"] == 20 and table.loc["attacks", "sd"] == 0


def test_summary_of_a_led_unit_has_group_rows_and_custom_thresholds() -> None:
    heavy = mh.Weapon("Heavy gun", 1, 3, 5, -1, "D6")
    res = mh.attack([(heavy, 12)], LED)
    table = res.summary(at_least=[1, 3])
    assert [c for c in table.columns if c.startswith("P(>=")] == ["P(>=1)", "P(>=3)"]
    assert table.loc["killed: Boss", "P(destroyed)"] == res.group("Boss").p_destroyed
    assert table.loc["killed: Bodyguard", "P(destroyed)"] == res.group("Bodyguard").p_destroyed
    assert table.loc["killed: Boss", "P(>=1)"] == res.killed_in("Boss").at_least(1)


def test_summary_of_a_large_unit_uses_quarters() -> None:
    horde = mh.Unit.of("Horde", models=40, toughness=3, save=6, wounds=1)
    table = mh.attack([(BOLT, 10)], horde).summary()
    ks = [c for c in table.columns if c.startswith("P(>=")]
    assert ks == ["P(>=1)", "P(>=2)", "P(>=3)", "P(>=10)", "P(>=20)", "P(>=30)", "P(>=40)"]


def test_result_to_frame_holds_every_distribution() -> None:
    res = mh.attack([(BOLT, 10)], MARINES)
    frame = res.to_frame()
    assert list(frame.columns) == ["stage", "value", "pmf", "cdf", "at_least"]
    assert list(pd.unique(frame.stage)) == list(res.distributions())
    killed = frame[frame.stage == "killed"]
    assert killed.value.tolist() == [0, 1, 2, 3, 4, 5]
    np.testing.assert_array_equal(killed.pmf, res.killed.probabilities)
    np.testing.assert_allclose(killed.at_least, res.killed.at_least(np.arange(6)), atol=0)
    totals = frame.groupby("stage", sort=False).pmf.sum()
    np.testing.assert_allclose(totals, 1.0, atol=ATOL)


def test_result_repr_stays_compact() -> None:
    res = mh.attack([(BOLT, 10)], MARINES)
    text = repr(res)
    assert "\n" not in text and len(text) < 200
    assert text.startswith("<AttackResult [11e] Bolt rifle x10 -> Intercessors (5 models)")


def test_result_html_shows_the_summary_numbers_and_two_charts() -> None:
    res = mh.attack([(BOLT, 10)], MARINES)
    page = res._repr_html_()
    table = res.summary()
    assert page.count("<svg") == 2
    assert "models destroyed" in page and "wounds lost" in page
    for stage in table.index:
        assert f">{stage}</th>" in page
    for value in table.loc["killed"].drop(["median", "mode"]):
        assert f"<td>{value:.3f}</td>" in page
    headline = re.search(r"<p>(models destroyed: .*?)</p>", page)
    assert headline is not None
    assert f"mean {res.killed.mean():.3f}" in headline.group(1)
    assert f"P(destroyed) {res.p_destroyed:.3f}" in headline.group(1)
    assert "Bolt rifle x10 → Intercessors" in page and "rules 11e" in page


def test_result_html_escapes_names() -> None:
    unit = mh.Unit.of("<Squad & co>", 2, 4, 3, 1)
    page = mh.attack(BOLT, unit)._repr_html_()
    assert "<Squad" not in page and "&lt;Squad &amp; co&gt;" in page


def test_simulation_results_have_the_same_views() -> None:
    sim = mh.simulate([(BOLT, 10)], MARINES, trials=2_000, rng=3)
    table = sim.summary()
    assert table.loc["killed", "mean"] == sim.killed.mean()
    assert "<svg" in sim._repr_html_()
    assert "2000 trials" in repr(sim)


# --------------------------------------------------------------------------- SVG chart
def test_visible_range_starts_at_zero_unless_far_away() -> None:
    assert visible_range(mh.Dist([0, 0, 0.5, 0.5])) == (0, 3)
    assert visible_range(mh.Dist.constant(3)) == (3, 3)  # a lone bar needs no empty run-up
    assert visible_range(mh.Dist.constant(0)) == (0, 0)
    lo, hi = visible_range(mh.Dist.binomial(400, 0.5))
    assert 150 < lo < 200 and 200 < hi < 250


def test_bar_chart_draws_one_bar_per_value_scaled_to_the_tallest() -> None:
    svg = bar_chart_svg(mh.Dist([0.2, 0.8]), "killed", width=100, height=60)
    heights = [float(h) for h in re.findall(r'<rect [^>]*height="([\d.]+)"', svg)]
    assert len(heights) == 2
    assert heights[1] == pytest.approx(60 - 18 - 16) and heights[0] == pytest.approx(heights[1] / 4)
    assert "<title>killed: P(X = k) for k = 0..1</title>" in svg
    assert "mean 0.8" in svg


# --------------------------------------------------------------------------- classic rules
LASGUN = mh.Weapon("Lasgun", attacks=1, bs=3, strength=3)
TROOPS = mh.Unit.of(
    "Troops", models=10, toughness=3, save=5, wounds=1, keywords="INFANTRY", leadership=7
)


def test_panic_tests_join_the_summary_and_the_html_under_the_classic_rules() -> None:
    res = mh.attack([(LASGUN, 20)], TROOPS, rules="classic")
    table = res.summary()
    assert list(table.columns[-3:]) == ["P(destroyed)", "P(panic test)", "P(panic test failed)"]
    assert table.loc["killed", "P(panic test)"] == res.p_panic_test
    assert table.loc["killed", "P(panic test failed)"] == res.p_panic_fail
    assert table["P(panic test)"].drop("killed").isna().all()
    page = res._repr_html_()
    assert f"P(Panic Test failed) {res.p_panic_fail:.3f}" in page
    assert "rules classic" in page
    eleventh = mh.attack([(BOLT, 10)], MARINES).summary()
    assert "P(panic test)" not in eleventh.columns
