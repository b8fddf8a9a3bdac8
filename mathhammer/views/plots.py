"""Plots with matplotlib: the only module that imports it, and only when a plot is drawn.

Every function takes ``ax=None`` (draw on a new figure) and returns what it drew on,
so plots compose: ``ax = a.plot("at_least", label="A"); b.plot("at_least", ax=ax)``.
Distributions and results are taken by duck typing, so this module imports nothing
from the package but :mod:`mathhammer.views.html` and the error helpers.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ..errors import DistributionError, field_error
from .html import DistLike, visible_range

__all__ = ["KINDS", "plot_at_least", "plot_compare", "plot_dist", "plot_result"]

#: The kinds of distribution plot.
KINDS = ("pmf", "at_least", "cdf")
_YLABELS = {"pmf": "P(X = k)", "at_least": "P(X >= k)", "cdf": "P(X <= k)"}
MEDIAN_COLOUR = "#55a868"


def _axes(ax: Any) -> Any:
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt

    _, new = plt.subplots(figsize=(5, 3.2), layout="constrained")
    return new


def _check_kind(kind: str) -> None:
    if kind not in KINDS:
        raise field_error(DistributionError, "kind", f"one of {list(KINDS)}", kind)


def plot_dist(
    dist: DistLike,
    kind: str = "pmf",
    ax: Any = None,
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
    ax = _axes(ax)
    lo, hi = visible_range(dist)
    ks = np.arange(lo, hi + 1)
    pmf = np.asarray(dist.probabilities, dtype=np.float64)
    if kind == "pmf":
        ax.bar(ks, pmf[lo : hi + 1], width=0.8, label=label, **kwargs)
    elif kind == "at_least":
        ks = np.arange(lo, min(hi + 1, len(pmf) - 1) + 1)  # down to P = 0 where possible
        tail = np.cumsum(pmf[::-1])[::-1]  # tail[k] = P(X >= k)
        values = np.where(ks < len(tail), tail[np.minimum(ks, len(tail) - 1)], 0.0)
        kwargs.setdefault("marker", "o")
        kwargs.setdefault("markersize", 3)
        ax.plot(ks, np.minimum(values, 1.0), label=label, **kwargs)
        ax.set_ylim(0.0, 1.05)
    else:
        cdf = np.minimum(np.cumsum(pmf)[lo : hi + 1], 1.0)
        ax.step(ks, cdf, where="post", label=label, **kwargs)
        ax.set_ylim(0.0, 1.05)
    if marks:
        mean, median = dist.mean(), dist.median()
        ax.axvline(mean, color="#c44e52", linestyle="--", label=f"mean {mean:.2f}")
        ax.axvline(median, color=MEDIAN_COLOUR, linestyle=":", label=f"median {median}")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(_YLABELS[kind])
    if title is not None:
        ax.set_title(title)
    if label is not None or marks:
        ax.legend(fontsize="small")
    return ax


def plot_result(result: Any, kind: str = "pmf", ax: Any = None, **kwargs: Any) -> Any:
    """Models destroyed and wounds lost side by side, the mean and median marked.

    Parameters
    ----------
    result : AttackResult
        An exact or simulated result.
    kind : {"pmf", "at_least", "cdf"}
        As for :func:`plot_dist`.
    ax : pair of matplotlib Axes, optional
        Where to draw; a new figure with two panels by default.
    **kwargs
        Passed on to :func:`plot_dist` for both panels.

    Returns
    -------
    numpy.ndarray of two Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import mathhammer as mh
    >>> gun = mh.Weapon("Gun", attacks=2, skill=3, strength=4, ap=0, damage=1)
    >>> axes = plot_result(mh.attack([(gun, 5)], mh.Unit.of("Squad", 5, 4, 3, 1)), "cdf")
    >>> axes[1].get_ylabel()
    'P(X <= k)'
    >>> import matplotlib.pyplot as plt; plt.close("all")
    """
    _check_kind(kind)
    if ax is None:
        import matplotlib.pyplot as plt

        _, axes = plt.subplots(1, 2, figsize=(9, 3.2), layout="constrained")
    else:
        axes = np.asarray(ax, dtype=object).ravel()
        if axes.size != 2:
            raise field_error(DistributionError, "ax", "a pair of Axes", ax)
    kwargs.setdefault("marks", True)
    name = result.target.name
    plot_dist(
        result.killed,
        kind,
        axes[0],
        xlabel="models destroyed",
        title=f"{name}: models destroyed",
        **kwargs,
    )
    plot_dist(
        result.damage, kind, axes[1], xlabel="wounds lost", title=f"{name}: wounds lost", **kwargs
    )
    return np.asarray(axes, dtype=object)


def plot_at_least(
    results: Mapping[str, Any],
    ax: Any = None,
    *,
    stage: str = "killed",
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
    stage : str
        Which distribution of a result to draw: ``"killed"`` or ``"damage"``.
    title : str, optional
        The title; by default the target's name when every result shares it.
    **kwargs
        Passed on to :func:`plot_dist` for every curve.

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
    >>> import matplotlib.pyplot as plt; plt.close("all")
    """
    if stage not in ("killed", "damage"):
        raise field_error(DistributionError, "stage", "'killed' or 'damage'", stage)
    if not results:
        raise field_error(
            DistributionError, "results", "a non-empty mapping of label to result", results
        )
    ax = _axes(ax)
    names = set()
    for label, item in results.items():
        dist = getattr(item, stage) if hasattr(item, "target") else item
        if hasattr(item, "target"):
            names.add(item.target.name)
        plot_dist(dist, "at_least", ax, label=str(label), **kwargs)
    what = "models destroyed" if stage == "killed" else "wounds lost"
    ax.set_xlabel(what)
    if title is None:
        title = f"{names.pop()}: at least k {what}" if len(names) == 1 else f"at least k {what}"
    ax.set_title(title)
    ax.grid(True, alpha=0.3)
    return ax


def plot_compare(
    frame: Any,
    metric: str = "mean_killed",
    ax: Any = None,
    *,
    cmap: str = "viridis",
    annotate: bool = True,
    fmt: str = "{:.2f}",
) -> Any:
    """A loadout x target heatmap of one column of a :func:`mathhammer.compare` frame.

    Parameters
    ----------
    frame : pandas.DataFrame
        The tidy frame :func:`mathhammer.compare` returns (columns ``loadout``,
        ``target`` and the metric).
    metric : str
        The column to show, e.g. ``"mean_killed"``, ``"p_destroyed"`` or
        ``"points_destroyed_per_100_points"``.
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure by default.
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
    >>> ax = plot_compare(frame)
    >>> ax.images[0].get_array().tolist()
    [[1.0, 2.0], [3.0, 4.0]]
    >>> import matplotlib.pyplot as plt; plt.close("all")
    """
    import pandas as pd

    columns = [str(c) for c in frame.columns]
    if "loadout" not in columns or "target" not in columns:
        expected = "a mathhammer.compare frame with 'loadout' and 'target' columns"
        raise field_error(DistributionError, "frame columns", expected, columns)
    if metric not in columns:
        raise field_error(
            DistributionError, "metric", f"one of the frame's columns {columns}", metric
        )
    loadouts, targets = pd.unique(frame["loadout"]), pd.unique(frame["target"])
    table = frame.pivot_table(index="loadout", columns="target", values=metric, sort=False)
    table = table.reindex(index=loadouts, columns=targets)
    values = table.to_numpy(dtype=np.float64)
    if ax is None:
        import matplotlib.pyplot as plt

        size = (2.0 + 1.0 * len(targets), 2.2 + 0.5 * len(loadouts))
        _, ax = plt.subplots(figsize=size, layout="constrained")
    image = ax.imshow(values, cmap=cmap, aspect="auto")
    ax.set_xticks(range(len(targets)), [str(t) for t in targets], rotation=35, ha="right")
    ax.set_yticks(range(len(loadouts)), [str(name) for name in loadouts])
    ax.set_title(metric.replace("_", " "))
    ax.figure.colorbar(image, ax=ax)
    if annotate:
        finite = values[np.isfinite(values)]
        middle = (finite.min() + finite.max()) / 2 if finite.size else 0.0
        for (i, j), value in np.ndenumerate(values):
            if np.isfinite(value):
                colour = "black" if value > middle else "white"
                text = fmt.format(value)
                ax.text(j, i, text, ha="center", va="center", color=colour, fontsize=8)
    return ax
