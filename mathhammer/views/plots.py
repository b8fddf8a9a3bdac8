"""Plots with matplotlib: the only module that imports it, and only when a plot is drawn.

Every function takes ``ax=None`` (draw on a new figure) and returns what it drew on,
so plots compose: ``ax = a.plot("at_least", label="A"); b.plot("at_least", ax=ax)``.
Distributions and results are taken by duck typing, so this module imports nothing
from the package but :mod:`mathhammer.views.html` and the error helpers.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import DistributionError, field_error
from ..results.columns import metric_column
from ..rules.registry import RulesetLike
from .html import DistLike, visible_range

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.axes import Axes

    from ..results.attack import AttackResult


__all__ = [
    "DURABILITY_METRICS",
    "KINDS",
    "axes_or_new",
    "figure_width",
    "plot_at_least",
    "plot_compare",
    "plot_dist",
    "plot_durability",
    "plot_result",
]

#: The kinds of distribution plot.
KINDS = ("pmf", "at_least", "cdf")
_YLABELS = {"pmf": "P(X = k)", "at_least": "P(X >= k)", "cdf": "P(X <= k)"}
MEDIAN_COLOUR = "#55a868"


def axes_or_new(ax: Axes | None, figsize: tuple[float, float] = (5, 3.2)) -> Axes:
    """``ax``, or the Axes of a new figure of ``figsize`` inches."""
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt

    return plt.figure(figsize=figsize, layout="constrained").add_subplot()


def figure_width(ax: Axes) -> float:
    """The width in inches of the figure (or subfigure) ``ax`` is drawn on."""
    return float(ax.figure.bbox.width / ax.figure.dpi)


def _check_kind(kind: str) -> None:
    if kind not in KINDS:
        raise field_error(DistributionError, "kind", f"one of {list(KINDS)}", kind)


def plot_dist(
    dist: DistLike,
    kind: str = "pmf",
    ax: Axes | None = None,
    *,
    label: str | None = None,
    xlabel: str = "k",
    title: str | None = None,
    marks: bool = False,
    **kwargs: Any,
) -> Any:
    """Plot one distribution; return the Axes.

    Parameters
    ----------
    dist : Dist
        The distribution.
    kind : {"pmf", "at_least", "cdf"}
        Bars of P(X = k); the curve of P(X >= k) (markers joined by lines); or the
        step curve of P(X <= k).
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure by default.
    label : str, optional
        The legend entry.
    xlabel, title : str
        Axis label and title.
    marks : bool
        Draw vertical lines at the mean and the median, with legend entries.
    **kwargs
        Passed on to ``bar`` (pmf), ``plot`` (at_least) or ``step`` (cdf).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from mathhammer import Dist
    >>> ax = plot_dist(Dist([0.25, 0.5, 0.25]), "pmf")
    >>> [float(p.get_height()) for p in ax.patches]
    [0.25, 0.5, 0.25]
    >>> import matplotlib.pyplot as plt; plt.close("all")
    """
    _check_kind(kind)
    ax = axes_or_new(ax)
    lo, hi = visible_range(dist)
    pmf = np.asarray(dist.probabilities, dtype=np.float64)
    _DRAWN[kind](ax, pmf, lo, hi, label, kwargs)
    if marks:
        _mark_centre(ax, dist)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(_YLABELS[kind])
    if title is not None:
        ax.set_title(title)
    if label is not None or marks:
        ax.legend(fontsize="small")
    return ax


def _bars(ax: Any, pmf: Any, lo: int, hi: int, label: str | None, kwargs: Any) -> None:
    """Bars of P(X = k) for k from ``lo`` to ``hi``."""
    ks = np.arange(lo, hi + 1)
    ax.bar(ks, pmf[lo : hi + 1], width=0.8, label=label, **kwargs)


def _tail_curve(ax: Any, pmf: Any, lo: int, hi: int, label: str | None, kwargs: Any) -> None:
    """The curve of P(X >= k), markers joined by lines, down to P = 0 where possible."""
    ks = np.arange(lo, min(hi + 1, len(pmf) - 1) + 1)
    tail = np.cumsum(pmf[::-1])[::-1]  # tail[k] = P(X >= k)
    values = np.where(ks < len(tail), tail[np.minimum(ks, len(tail) - 1)], 0.0)
    kwargs.setdefault("marker", "o")
    kwargs.setdefault("markersize", 3)
    ax.plot(ks, np.minimum(values, 1.0), label=label, **kwargs)
    ax.set_ylim(0.0, 1.05)


def _steps(ax: Any, pmf: Any, lo: int, hi: int, label: str | None, kwargs: Any) -> None:
    """The step curve of P(X <= k) for k from ``lo`` to ``hi``."""
    ks = np.arange(lo, hi + 1)
    cdf = np.minimum(np.cumsum(pmf)[lo : hi + 1], 1.0)
    ax.step(ks, cdf, where="post", label=label, **kwargs)
    ax.set_ylim(0.0, 1.05)


#: How :func:`plot_dist` draws each kind.
_DRAWN = {"pmf": _bars, "at_least": _tail_curve, "cdf": _steps}


def _mark_centre(ax: Any, dist: DistLike) -> None:
    """Vertical lines at the mean and the median, with legend entries."""
    mean, median = dist.mean(), dist.median()
    ax.axvline(mean, color="#c44e52", linestyle="--", label=f"mean {mean:.2f}")
    ax.axvline(median, color=MEDIAN_COLOUR, linestyle=":", label=f"median {median}")


def _attacker(result: Any) -> str:
    """The pools of an attack, shortened to fit a title."""
    import textwrap

    labels = " + ".join(pool.label for pool in result.pools) or "attack"
    return textwrap.shorten(labels, width=60, placeholder=" …")


def _one_wound_each(unit: Any) -> bool:
    """Every model has one wound left, so models destroyed and wounds lost are one."""
    return bool(unit.total_wounds == unit.models)


def _panel_axes(ax: Any, panels: int) -> Any:
    """The Axes to draw ``panels`` panels on: ``ax`` checked, or a new figure's."""
    if ax is None:
        import matplotlib.pyplot as plt

        size = (4.8 * panels, 3.4)
        _, axes = plt.subplots(1, panels, figsize=size, layout="constrained", squeeze=False)
        return axes.ravel()
    axes = np.asarray(ax, dtype=object).ravel()
    if axes.size not in (panels, 2):
        expected = "a pair of Axes" if panels == 2 else "one Axes or a pair"
        raise field_error(DistributionError, "ax", expected, ax)
    return axes


def plot_result(
    result: Any, kind: str = "pmf", ax: Any = None, *, attacker: str | None = None, **kwargs: Any
) -> Any:
    """Models destroyed and wounds lost side by side, the mean and median marked.

    Against a unit whose every model has one wound left the two are the same
    distribution, so one panel is drawn (unless a pair of Axes is given). Each title
    names the attacker and the target.

    Parameters
    ----------
    result : AttackResult
        An exact or simulated result.
    kind : {"pmf", "at_least", "cdf"}
        As for :func:`plot_dist`.
    ax : matplotlib Axes or a pair of them, optional
        Where to draw; a new figure by default.
    attacker : str, optional
        The attacker's name in the titles; by default the pools attacking
        (``"Bolt rifle x10"``).
    **kwargs
        Passed on to :func:`plot_dist` for every panel.

    Returns
    -------
    numpy.ndarray of Axes
        The killed panel, then the damage panel where there are two.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import mathhammer as mh
    >>> gun = mh.Weapon("Gun", attacks=2, skill=3, strength=4, ap=0, damage=1)
    >>> axes = plot_result(mh.attack([(gun, 5)], mh.Unit.of("Squad", 5, 4, 3, 2)), "cdf")
    >>> [a.get_title() for a in axes]
    ['Gun x5 → Squad\\nmodels destroyed', 'Gun x5 → Squad\\nwounds lost']
    >>> axes = plot_result(mh.attack([(gun, 5)], mh.Unit.of("Boyz", 5, 4, 5, 1)))
    >>> len(axes), axes[0].get_xlabel()
    (1, 'models destroyed (W1: = wounds lost)')
    >>> import matplotlib.pyplot as plt; plt.close("all")
    """
    _check_kind(kind)
    single = _one_wound_each(result.target)
    axes = _panel_axes(ax, 1 if single else 2)
    kwargs.setdefault("marks", True)
    heading = f"{attacker or _attacker(result)} → {result.target.name}"
    if axes.size == 1:
        xlabel = "models destroyed (W1: = wounds lost)"
        plot_dist(result.killed, kind, axes[0], xlabel=xlabel, title=heading, **kwargs)
        return axes
    panels = (("models destroyed", result.killed), ("wounds lost", result.damage))
    for axis, (what, dist) in zip(axes, panels, strict=True):
        plot_dist(dist, kind, axis, xlabel=what, title=f"{heading}\n{what}", **kwargs)
    return axes


def _legend_outside(ax: Any) -> None:
    """The legend right of the Axes, where it covers no curve."""
    ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0)


def plot_at_least(
    results: Mapping[str, AttackResult | DistLike],
    ax: Axes | None = None,
    *,
    stage: str | None = None,
    title: str | None = None,
    **kwargs: Any,
) -> Any:
    """Overlay the "at least k models destroyed" curves of several attacks.

    Parameters
    ----------
    results : mapping of str to AttackResult or Dist
        The curves by legend label: typically several loadouts against one target,
        ``{name: mh.attack(weapons, target) for name, weapons in loadouts.items()}``.
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure by default.
    stage : {"killed", "damage"}, optional
        Which distribution of a result to draw. By default models destroyed, or wounds
        lost when every target is a single model (whose "models destroyed" is only 0
        or 1).
    title : str, optional
        The title; by default the target's name when every result shares it.
    **kwargs
        Passed on to :func:`plot_dist` for every curve.

    The legend sits right of the plot, where it hides no curve.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import mathhammer as mh
    >>> squad = mh.Unit.of("Squad", 5, 4, 3, 1)
    >>> one = mh.Weapon("Gun", attacks=1, skill=3, strength=4, ap=0, damage=1)
    >>> two = mh.Weapon("Twin gun", attacks=2, skill=3, strength=4, ap=0, damage=1)
    >>> ax = plot_at_least({"gun": mh.attack(one, squad), "twin": mh.attack(two, squad)})
    >>> [line.get_label() for line in ax.lines], ax.get_title()
    (['gun', 'twin'], 'Squad: at least k models destroyed')
    >>> tank = mh.Unit.of("Tank", 1, 10, 3, 12)
    >>> plot_at_least({"twin": mh.attack(two, tank)}).get_xlabel()
    'wounds lost'
    >>> import matplotlib.pyplot as plt; plt.close("all")
    """
    if not results:
        raise field_error(
            DistributionError, "results", "a non-empty mapping of label to result", results
        )
    units = [item.target for item in results.values() if hasattr(item, "target")]
    stage = _checked_stage(stage, units)
    ax = axes_or_new(ax)
    _at_least_curves(results, stage, ax, kwargs)
    what = _STAGE_WORDS[stage]
    ax.set_xlabel(what)
    ax.set_title(_at_least_title(units, what) if title is None else title)
    ax.grid(True, alpha=0.3)
    _legend_outside(ax)
    return ax


def _at_least_curves(
    results: Mapping[str, AttackResult | DistLike], stage: str, ax: Axes, kwargs: dict[str, Any]
) -> None:
    """One curve of :func:`plot_at_least` per result, by its label: a result's ``stage``
    distribution, or a distribution as it is."""
    for label, item in results.items():
        dist = getattr(item, stage) if hasattr(item, "target") else item
        plot_dist(dist, "at_least", ax, label=str(label), **kwargs)


#: The stages :func:`plot_at_least` draws, in words.
_STAGE_WORDS = {"killed": "models destroyed", "damage": "wounds lost"}


def _checked_stage(stage: str | None, units: list[Any]) -> str:
    """The stage :func:`plot_at_least` draws: ``stage``, checked, or by default wounds
    lost when every target is a single model, else models destroyed."""
    if stage is None:
        stage = _default_stage(units)
    if stage not in _STAGE_WORDS:
        raise field_error(DistributionError, "stage", "'killed' or 'damage'", stage)
    return stage


def _default_stage(units: list[Any]) -> str:
    """The stage drawn by default: wounds lost when every target is a single model (whose
    "models destroyed" is only 0 or 1), else models destroyed."""
    lone = bool(units) and all(unit.models == 1 for unit in units)
    return "damage" if lone else "killed"


def _at_least_title(units: list[Any], what: str) -> str:
    """The default title of :func:`plot_at_least`: the target's name when every result
    shares it."""
    names = {unit.name for unit in units}
    return f"{names.pop()}: at least k {what}" if len(names) == 1 else f"at least k {what}"


def plot_compare(
    frame: pd.DataFrame,
    metric: str | None = None,
    ax: Axes | None = None,
    *,
    rules: RulesetLike | None = None,
    scale: str = "auto",
    cmap: str = "viridis",
    annotate: bool = True,
    fmt: str = "{:.2f}",
) -> Any:
    """A loadout x target heatmap of one column of a :func:`mathhammer.compare` frame.

    Probabilities (``p_`` columns) are coloured on one scale from 0 to 1; any other
    metric is scaled per target column (its best loadout brightest), since a horde and
    a lone Terminator differ tenfold in models destroyed. The colour bar says which.

    Parameters
    ----------
    frame : pandas.DataFrame
        The tidy frame :func:`mathhammer.compare` or a report returns (columns
        ``loadout``, ``target`` and the metric; with a ``phase`` column, each loadout's
        phases are rows of their own).
    metric : str, optional
        The column to show, e.g. ``"mean_killed"``, ``"p_destroyed"`` or
        ``"points_destroyed_per_100_points"``. By default one that means something
        against every target: ``points_of_damage``, else ``mean_damage``
        (:func:`~mathhammer.views.heatmap.default_metric`).
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure by default.
    rules : str or Ruleset, optional
        The ruleset, named in the title (by default the frame's ``rules`` column, if
        it has one value).
    scale : {"auto", "column", "shared"}
        Colour probabilities 0 to 1 and anything else per column; every metric per
        column; or one scale for the whole grid.
    cmap : str
        A matplotlib colour map.
    annotate : bool
        Write each value in its cell.
    fmt : str
        The format of the values written, e.g. ``"{:.0%}"`` for probabilities.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"loadout": ["a", "a", "b", "b"], "target": ["x", "y", "x", "y"],
    ...                       "mean_killed": [1.0, 2.0, 3.0, 4.0]})
    >>> ax = plot_compare(frame, rules="11e")
    >>> ax.images[0].get_array().tolist()  # each column over its best
    [[0.3333333333333333, 0.5], [1.0, 1.0]]
    >>> ax.get_title(), ax.get_xlabel(), ax.get_ylabel()
    ('mean killed (rules 11e)', 'target', 'loadout')
    >>> import matplotlib.pyplot as plt; plt.close("all")
    """
    from .heatmap import colour_scale, frame_metric, grid, heatmap_title
    from .layout import heatmap_layout, short_label, wrapped_title

    metric = frame_metric(frame, metric)
    cells = grid(frame, metric)
    colours = colour_scale(cells.values, metric, scale)
    values, levels, rows, columns, labels = _oriented(cells, colours.levels)
    layout = heatmap_layout(rows, columns, _widest(values, fmt), annotate)
    ax = axes_or_new(ax, layout.figsize)
    image = ax.imshow(levels, cmap=cmap, aspect="auto", vmin=0.0, vmax=1.0)
    ax.set_xticks(range(len(columns)), [short_label(c) for c in columns], rotation=35,
                  ha="right", fontsize=8)  # fmt: skip
    ax.set_yticks(range(len(rows)), [short_label(r) for r in rows], fontsize=8)
    ax.set_xlabel(labels[0])
    ax.set_ylabel(labels[1])
    ax.set_title(wrapped_title(heatmap_title(metric, rules, frame), figure_width(ax)))
    _colour_bar(ax, image, colours)
    if layout.annotate:
        annotate_cells(ax, values, levels, fmt)
    return ax


def _oriented(cells: Any, levels: Any) -> tuple[Any, Any, list[str], list[str], tuple[str, str]]:
    """The grid's values, colour levels, rows and columns as drawn, and the axes' labels
    (x, y): loadouts down the side, or, for many targets, the targets
    (:func:`~mathhammer.views.layout.transposed`)."""
    from .layout import transposed

    if transposed(len(cells.rows), len(cells.columns)):  # down the side, not across
        return cells.values.T, levels.T, cells.columns, cells.rows, ("loadout", "target")
    return cells.values, levels, cells.rows, cells.columns, ("target", "loadout")


def _colour_bar(ax: Any, image: Any, colours: Any) -> None:
    """The colour bar beside the heatmap, saying what the colours mean (scaled per column:
    from 0 to the target's best)."""
    bar = ax.figure.colorbar(image, ax=ax)
    bar.set_label(colours.label)
    if colours.per_column:
        bar.set_ticks([0.0, 1.0], labels=["0", "target's best"])


def _widest(values: Any, fmt: str) -> int:
    """The most characters a value of the grid takes written with ``fmt`` (4 for none)."""
    texts = [fmt.format(v) for v in values[np.isfinite(values)]]
    return max((len(t) for t in texts), default=4)


def annotate_cells(ax: Any, values: Any, levels: Any, fmt: str) -> None:
    """Write each finite value of a heatmap in its cell: black on the bright colours
    (``levels`` above the middle), white on the dark ones."""
    for (i, j), value in np.ndenumerate(values):
        if np.isfinite(value):
            colour = "black" if levels[i, j] > 0.5 else "white"
            ax.text(j, i, fmt.format(value), ha="center", va="center", color=colour,
                    fontsize=8)  # fmt: skip


#: The columns of a durability frame :func:`plot_durability` can show
#: (:data:`~mathhammer.results.columns.DURABILITY_COLUMNS`), and their labels.
DURABILITY_METRICS = {
    "copies_90": "copies to destroy it with P >= 90 %",
    "copies_50": "copies to destroy it with P >= 50 %",
    "effective_wounds_per_100_points": "effective wounds per 100 points",
    "effective_wounds": "effective wounds",
    "points_lost_per_100": "points lost per 100 points of the attacker",
    "killed_mean": "models destroyed by one copy",
    "p_destroyed": "P(destroyed) by one copy",
}


def plot_durability(frame: pd.DataFrame, metric: str = "copies_90", ax: Axes | None = None) -> Any:
    """Durability profiles side by side: one group of bars per standard attacker, one bar
    per unit, from a :func:`mathhammer.durability` frame.

    Parameters
    ----------
    frame : pandas.DataFrame
        Columns ``unit``, ``attacker`` and the metric.
    metric : str
        One of :data:`DURABILITY_METRICS`: ``"copies_90"`` (default), ``"copies_50"``,
        ``"effective_wounds_per_100_points"``, ... A unit still standing after the most
        copies sent has no bar for that attacker (its value is missing).
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure by default.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"unit": ["a", "a", "b", "b"], "attacker": ["x", "y", "x", "y"],
    ...                       "copies_90": [2, 5, 3, None]})
    >>> ax = plot_durability(frame)
    >>> [round(p.get_height()) for p in ax.patches]
    [2, 5, 3, 0]
    >>> import matplotlib.pyplot as plt; plt.close("all")
    """
    metric = _check_durability(frame, metric)
    units = list(dict.fromkeys(frame["unit"]))
    attackers = list(dict.fromkeys(frame["attacker"]))
    table = frame.pivot_table(index="attacker", columns="unit", values=metric, aggfunc="first")
    table = table.reindex(index=attackers, columns=units)
    ax = axes_or_new(ax, (1.2 + 1.1 * len(attackers), 3.4))
    width = 0.8 / len(units)
    positions = np.arange(len(attackers))
    for i, unit in enumerate(units):
        values = np.asarray(table[unit], dtype=float)
        ax.bar(
            positions + (i - (len(units) - 1) / 2) * width, np.nan_to_num(values), width, label=unit
        )
    ax.set_xticks(positions, attackers, rotation=25, ha="right")
    ax.set_ylabel(DURABILITY_METRICS[metric])
    ax.set_title("durability against the standard attackers")
    if len(units) > 1:
        _legend_outside(ax)
    return ax


def _check_durability(frame: Any, metric: str) -> str:
    """The column of a metric :func:`plot_durability` shows; a frame without the columns
    it needs refused."""
    metric = metric_column(metric, among=DURABILITY_METRICS)
    missing = [c for c in ("unit", "attacker", metric) if c not in getattr(frame, "columns", ())]
    if missing:
        raise field_error(
            DistributionError, "frame", "a durability frame (mathhammer.durability)", missing
        )
    return metric
