"""Plots: drawn with the Agg backend, checked on the Axes they return, figures closed."""

from __future__ import annotations

from collections.abc import Iterator

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

import mathhammer as mh  # noqa: E402

BOLT = mh.Weapon("Bolt rifle", attacks=2, skill=3, strength=4, ap=-1, damage=1)
PLASMA = mh.Weapon("Plasma gun", attacks=1, skill=3, strength=7, ap=-2, damage=2)
MARINES = mh.Unit.of("Intercessors", models=5, toughness=4, save=3, wounds=2)


@pytest.fixture(autouse=True)
def close_figures() -> Iterator[None]:
    yield
    plt.close("all")


def test_pmf_plot_draws_one_bar_per_value() -> None:
    d = mh.Dist([0.125, 0.375, 0.375, 0.125])
    ax = d.plot()
    assert [float(p.get_height()) for p in ax.patches] == [0.125, 0.375, 0.375, 0.125]
    assert [float(p.get_x() + p.get_width() / 2) for p in ax.patches] == [0, 1, 2, 3]
    assert ax.get_ylabel() == "P(X = k)" and ax.get_xlabel() == "k"
    assert ax.get_legend() is None


def test_at_least_plot_is_the_survival_curve() -> None:
    d = mh.Dist([0.125, 0.375, 0.375, 0.125])
    ax = d.plot("at_least", label="three coins")
    (line,) = ax.lines
    assert line.get_xdata().tolist() == [0, 1, 2, 3]
    assert line.get_ydata().tolist() == [1.0, 0.875, 0.5, 0.125]
    assert line.get_label() == "three coins"
    assert ax.get_ylabel() == "P(X >= k)" and ax.get_ylim() == (0.0, 1.05)


def test_cdf_plot_is_a_step_curve() -> None:
    d = mh.Dist([0.5, 0.25, 0.25])
    ax = d.plot("cdf", title="cdf")
    (line,) = ax.lines
    assert line.get_drawstyle() == "steps-post"
    assert line.get_ydata().tolist() == [0.5, 0.75, 1.0]
    assert ax.get_title() == "cdf"


def test_marks_draw_the_mean_and_the_median() -> None:
    d = mh.Dist([0.5, 0.0, 0.0, 0.5])
    ax = d.plot(marks=True)
    labels = [line.get_label() for line in ax.lines]
    assert labels == ["mean 1.50", "median 0"]
    assert ax.lines[0].get_xdata()[0] == 1.5 and ax.lines[1].get_xdata()[0] == 0
    assert [t.get_text() for t in ax.get_legend().get_texts()] == labels


def test_plots_draw_on_the_axes_given() -> None:
    _, ax = plt.subplots()
    out = mh.Dist([0.5, 0.5]).plot("at_least", ax=ax, label="a")
    assert out is ax
    mh.Dist([0.25, 0.75]).plot("at_least", ax=ax, label="b", color="red")
    assert [line.get_label() for line in ax.lines] == ["a", "b"]
    assert ax.lines[1].get_color() == "red"


def test_an_unknown_kind_is_a_clear_error() -> None:
    with pytest.raises(mh.DistributionError, match=r"kind must be one of .*'pmf'.*; got 'pdf'"):
        mh.Dist([1.0]).plot("pdf")


def test_a_wide_distribution_is_drawn_over_its_visible_range() -> None:
    d = mh.Dist.binomial(1000, 0.5)
    ax = d.plot()
    xs = [p.get_x() + p.get_width() / 2 for p in ax.patches]
    assert 400 < min(xs) < 450 and 550 < max(xs) < 600
    assert sum(p.get_height() for p in ax.patches) > 1 - 1e-5


def test_result_plot_shows_killed_and_damage_side_by_side() -> None:
    res = mh.attack([(BOLT, 10)], MARINES)
    axes = res.plot()
    assert len(axes) == 2 and axes[0].figure is axes[1].figure
    # each title names the attacker (its pools) and the target
    assert [a.get_title() for a in axes] == [
        "Bolt rifle x10 → Intercessors\nmodels destroyed",
        "Bolt rifle x10 → Intercessors\nwounds lost",
    ]
    assert [a.get_xlabel() for a in axes] == ["models destroyed", "wounds lost"]
    heights = [p.get_height() for p in axes[0].patches]
    np.testing.assert_array_equal(heights, res.killed.probabilities)
    marks = [line.get_label() for line in axes[1].lines]
    assert marks == [f"mean {res.damage.mean():.2f}", f"median {res.damage.median()}"]


def test_result_plot_titles_name_a_loadout_given_and_every_pool() -> None:
    res = mh.attack([(BOLT, 10), (PLASMA, 1)], MARINES)
    axes = res.plot(attacker="Tactical squad")
    assert axes[0].get_title() == "Tactical squad → Intercessors\nmodels destroyed"
    axes = res.plot()
    assert axes[1].get_title() == "Bolt rifle x10 + Plasma gun → Intercessors\nwounds lost"


def test_result_plot_against_one_wound_models_draws_one_panel() -> None:
    # W1: models destroyed and wounds lost are the same distribution, drawn once
    horde = mh.Unit.of("Boyz", models=10, toughness=5, save=5, wounds=1)
    res = mh.attack([(BOLT, 10)], horde)
    np.testing.assert_array_equal(res.killed.probabilities, res.damage.probabilities)
    axes = res.plot()
    assert len(axes) == 1 and len(axes[0].figure.axes) == 1
    assert axes[0].get_title() == "Bolt rifle x10 → Boyz"
    assert axes[0].get_xlabel() == "models destroyed (W1: = wounds lost)"
    heights = [p.get_height() for p in axes[0].patches]
    np.testing.assert_array_equal(heights, res.killed.probabilities[: len(heights)])
    _, one = plt.subplots()
    assert list(res.plot(ax=one)) == [one]
    _, pair = plt.subplots(1, 2)  # asked for two panels: both drawn
    assert [a.get_xlabel() for a in res.plot(ax=pair)] == ["models destroyed", "wounds lost"]
    _, three = plt.subplots(1, 3)
    with pytest.raises(mh.DistributionError, match="ax must be one Axes or a pair"):
        res.plot(ax=three)


def test_result_plot_on_given_axes_and_kinds() -> None:
    res = mh.attack([(BOLT, 10)], MARINES)
    _, given = plt.subplots(2, 1)
    axes = res.plot("at_least", ax=given, marks=False)
    assert list(axes) == list(given)
    np.testing.assert_allclose(
        axes[0].lines[0].get_ydata(), res.killed.at_least(np.arange(6)), atol=1e-15
    )
    with pytest.raises(mh.DistributionError, match="ax must be a pair of Axes"):
        res.plot(ax=given[0])


def test_plot_at_least_overlays_one_curve_per_loadout() -> None:
    target = mh.targets.get("Line infantry").unit
    results = {
        "bolters": mh.attack([(BOLT, 10)], target),
        "plasma": mh.attack([(PLASMA, 10)], target),
    }
    ax = mh.plot_at_least(results)
    assert [line.get_label() for line in ax.lines] == ["bolters", "plasma"]
    assert ax.get_title() == "Line infantry: at least k models destroyed"
    for line, res in zip(ax.lines, results.values(), strict=True):
        ks = line.get_xdata()
        np.testing.assert_allclose(line.get_ydata(), res.killed.at_least(ks), atol=1e-15)
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["bolters", "plasma"]


def test_plot_at_least_of_damage_and_of_plain_distributions() -> None:
    res = mh.attack([(BOLT, 10)], MARINES)
    ax = mh.plot_at_least({"r": res}, stage="damage")
    np.testing.assert_allclose(
        ax.lines[0].get_ydata(), res.damage.at_least(ax.lines[0].get_xdata())
    )
    assert ax.get_xlabel() == "wounds lost"
    ax = mh.plot_at_least({"d": mh.Dist([0.5, 0.5])}, title="coin")
    assert ax.get_title() == "coin"
    with pytest.raises(mh.DistributionError, match="stage must be"):
        mh.plot_at_least({"r": res}, stage="hits")
    with pytest.raises(mh.DistributionError, match="results must be a non-empty mapping"):
        mh.plot_at_least({})


def test_plot_at_least_against_one_model_shows_wounds_lost() -> None:
    tank = mh.targets.get("Vehicle").unit
    assert tank.models == 1
    results = {"bolters": mh.attack([(BOLT, 10)], tank), "plasma": mh.attack([(PLASMA, 10)], tank)}
    ax = mh.plot_at_least(results)
    assert ax.get_xlabel() == "wounds lost"
    assert ax.get_title() == "Vehicle: at least k wounds lost"
    for line, res in zip(ax.lines, results.values(), strict=True):
        ks = line.get_xdata()
        assert ks.max() > 1  # not the 0..1 of "models destroyed"
        np.testing.assert_allclose(line.get_ydata(), res.damage.at_least(ks), atol=1e-15)
    ax = mh.plot_at_least(results, stage="killed")  # asked for: models destroyed
    assert ax.get_xlabel() == "models destroyed"


def test_plot_at_least_puts_its_legend_beside_the_curves() -> None:
    target = mh.targets.get("Line infantry").unit
    results = {name: mh.attack([(w, 10)], target) for name, w in [("b", BOLT), ("p", PLASMA)]}
    ax = mh.plot_at_least(results)
    figure = ax.figure
    figure.canvas.draw()
    renderer = figure.canvas.get_renderer()
    legend = ax.get_legend().get_window_extent(renderer)
    plot = ax.get_window_extent(renderer)
    assert legend.x0 >= plot.x1  # right of the plotting area: it can cover no curve
    assert figure.bbox.contains(legend.x1 - 1, legend.y0 + 1)  # and inside the figure


def test_plot_compare_is_a_loadout_by_target_heatmap() -> None:
    loadouts = [
        mh.Loadout("bolters", [(BOLT, 10)], points=160),
        mh.Loadout("plasma", [(PLASMA, 10)], points=200),
    ]
    frame = mh.compare(loadouts, mh.targets.STANDARD)
    ax = mh.plot_compare(frame, metric="p_destroyed", rules="11e")
    image = ax.images[0].get_array()
    assert image.shape == (2, 9)
    expected = frame.pivot(index="loadout", columns="target", values="p_destroyed")
    expected = expected.loc[["bolters", "plasma"], mh.targets.names()]
    # probabilities keep one scale, 0 to 1: a 7 % chance stays dark
    np.testing.assert_array_equal(image, expected.to_numpy())
    assert ax.images[0].get_clim() == (0.0, 1.0)
    assert [t.get_text() for t in ax.get_xticklabels()] == mh.targets.names()
    assert [t.get_text() for t in ax.get_yticklabels()] == ["bolters", "plasma"]
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("target", "loadout")
    assert ax.get_title() == "p destroyed (rules 11e)"
    assert len(ax.texts) == 18 and ax.texts[0].get_text() == f"{expected.iloc[0, 0]:.2f}"
    colour_bar = ax.figure.axes[-1]
    assert colour_bar.get_ylabel() == "probability, 0 to 1"


def test_plot_compare_scales_each_target_column_to_its_best() -> None:
    # 5 Boyz against 1 Terminator: a shared scale would make the Terminator column all dark
    frame = pd.DataFrame(
        {
            "loadout": ["a", "a", "b", "b"],
            "target": ["Boyz", "Terminator", "Boyz", "Terminator"],
            "mean_killed": [5.0, 0.2, 2.5, 0.5],
        }
    )
    ax = mh.plot_compare(frame, "mean_killed")
    assert ax.images[0].get_array().tolist() == [[1.0, 0.4], [0.5, 1.0]]
    assert [t.get_text() for t in ax.texts] == ["5.00", "0.20", "2.50", "0.50"]
    # dark cells get white text, bright ones black, by their own column's scale
    assert [t.get_color() for t in ax.texts] == ["black", "white", "white", "black"]
    colour_bar = ax.figure.axes[-1]
    assert colour_bar.get_ylabel() == "scaled per target"
    assert [t.get_text() for t in colour_bar.get_yticklabels()] == ["0", "target's best"]
    shared = mh.plot_compare(frame, "mean_killed", scale="shared")
    assert shared.images[0].get_array().tolist() == [[1.0, 0.04], [0.5, 0.1]]
    probability = mh.plot_compare(frame.assign(p_x=[0.07, 0.5, 0.0, 1.0]), "p_x", scale="column")
    # a column's best below a tenth of the grid's is scaled to that tenth: 0.07 is 0.7
    assert np.round(probability.images[0].get_array(), 12).tolist() == [[0.7, 0.5], [0.0, 1.0]]
    with pytest.raises(mh.DistributionError, match="scale must be one of"):
        mh.plot_compare(frame, "mean_killed", scale="log")


def test_plot_compare_default_metric_credits_damage() -> None:
    # against a vehicle no model dies, but the default metric still tells the loadouts apart
    loadouts = {"bolters": [(BOLT, 10)], "plasma": [(PLASMA, 10)]}
    priced = mh.compare(loadouts, ["Horde infantry", "Vehicle"])
    assert mh.plot_compare(priced).get_title().startswith("points of damage")
    frame = priced.drop(columns=["points_of_damage"])  # targets without points
    assert frame.loc[frame.target == "Vehicle", "mean_killed"].max() < 0.05
    ax = mh.plot_compare(frame)
    assert ax.get_title().startswith("mean damage")
    damage = frame.loc[frame.target == "Vehicle", "mean_damage"].to_numpy()
    vehicle = ax.images[0].get_array()[:, 1]
    np.testing.assert_allclose(vehicle, damage / damage.max(), atol=1e-15)
    assert 0.0 < vehicle.min() < vehicle.max() == 1.0
    priced = frame.assign(points_of_damage=[10.0, 3.0, 20.0, 12.0], rules="classic")
    assert mh.plot_compare(priced).get_title() == "points of damage (rules classic)"


def test_plot_compare_gives_each_phase_its_row() -> None:
    frame = pd.DataFrame(
        {
            "loadout": ["a", "a", "b"],
            "phase": ["shooting", "fight", None],
            "target": ["x", "x", "x"],
            "mean_killed": [1.0, 2.0, 4.0],
        }
    )
    ax = mh.plot_compare(frame, "mean_killed")
    assert [t.get_text() for t in ax.get_yticklabels()] == ["a (shooting)", "a (fight)", "b"]
    assert ax.images[0].get_array().tolist() == [[0.25], [0.5], [1.0]]
    with pytest.raises(mh.DistributionError, match="frame must be one row per loadout"):
        mh.plot_compare(frame.drop(columns="phase"), "mean_killed")


def test_plot_compare_checks_its_frame() -> None:
    frame = pd.DataFrame({"loadout": ["a"], "target": ["x"], "mean_killed": [1.0]})
    ax = mh.plot_compare(frame, annotate=False, fmt="{:.0%}")
    assert len(ax.texts) == 0
    _, given = plt.subplots()
    gaps = pd.DataFrame({"loadout": ["a", "b"], "target": ["x", "y"], "mean_killed": [1.0, 2.0]})
    assert mh.plot_compare(gaps, ax=given) is given
    assert [t.get_text() for t in given.texts] == ["1.00", "2.00"]  # no text where no pairing
    assert np.isnan(given.images[0].get_array().filled(np.nan)[[0, 1], [1, 0]]).all()
    with pytest.raises(mh.OptionError, match="metric must be one of"):
        mh.plot_compare(frame, metric="kills")
    with pytest.raises(mh.DistributionError, match="frame columns must be a mathhammer.compare"):
        mh.plot_compare(frame.drop(columns="loadout"))
