"""A sweep's attacker x target matrix as a heatmap, ordered to be read."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import OptionError, field_error

__all__ = ["ORDERS", "one_context", "plot_sweep", "sweep_html"]

#: How the rows and columns of :func:`plot_sweep` are ordered.
ORDERS = ("cluster", "efficiency", "given")
#: The most rows or columns labelled one by one.
LABELLED = 60


def plot_sweep(
    frame: Any,
    metric: str | None = None,
    *,
    context: str | None = None,
    order: str = "cluster",
    ax: Any = None,
    scale: str = "auto",
    cmap: str = "viridis",
) -> Any:
    """The attacker x target matrix of one column of a :func:`mathhammer.sweep` frame.

    Parameters
    ----------
    frame : pandas.DataFrame
        A sweep's frame.
    metric : str, optional
        The column shown (as :func:`~mathhammer.plot_compare` picks one by default).
    context : str, optional
        The context shown; required when the frame has several.
    order : {"cluster", "efficiency", "given"}
        ``"cluster"``: attackers, and targets, that score alike side by side (average-link
        clustering of their rows and columns, scaled as coloured); ``"efficiency"``:
        attackers by their mean over the targets (best first) and targets by how much they
        suffer; ``"given"``: as in the frame.
    ax : matplotlib.axes.Axes, optional
    scale, cmap
        As for :func:`~mathhammer.plot_compare`. Up to 60 rows or columns are labelled.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"loadout": ["a", "a", "b", "b"], "target": ["x", "y", "x", "y"],
    ...                       "context": "default", "mean_killed": [1.0, 2.0, 3.0, 4.0]})
    >>> ax = plot_sweep(frame, "mean_killed", order="efficiency")
    >>> [t.get_text() for t in ax.get_yticklabels()]  # b destroys more
    ['b', 'a']
    >>> import matplotlib.pyplot as plt; plt.close("all")
    """
    from .heatmap import colour_scale, default_metric, grid, heatmap_title
    from .layout import heatmap_layout, short_label, wrapped_title

    if order not in ORDERS:
        raise field_error(OptionError, "order", f"one of {list(ORDERS)}", order)
    rows = one_context(frame, context)
    metric = default_metric(rows) if metric is None else metric
    cells = grid(rows, metric)
    colours = colour_scale(cells.values, metric, scale)
    levels = np.nan_to_num(colours.levels, nan=0.0)
    if order == "cluster":
        r, c = _clustered(levels), _clustered(levels.T)
    elif order == "efficiency":
        r = list(np.argsort(-np.nanmean(cells.values, axis=1), kind="stable"))
        c = list(np.argsort(-np.nanmean(levels, axis=0), kind="stable"))
    else:
        r, c = list(range(len(cells.rows))), list(range(len(cells.columns)))
    shown = colours.levels[np.ix_(r, c)]
    values = cells.values[np.ix_(r, c)]
    row_labels = [short_label(cells.rows[i]) for i in r]
    column_labels = [short_label(cells.columns[i]) for i in c]
    few = len(r) <= LABELLED and len(c) <= LABELLED  # each cell may hold its number
    layout = heatmap_layout(row_labels, column_labels, value_chars=4, annotate=few)
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots(figsize=layout.figsize, layout="constrained")
    image = ax.imshow(shown, cmap=cmap, aspect="auto", vmin=0.0, vmax=1.0, interpolation="nearest")
    for labels, set_ticks in ((column_labels, ax.set_xticks), (row_labels, ax.set_yticks)):
        if len(labels) <= LABELLED:
            set_ticks(range(len(labels)), labels, fontsize=8)
        else:
            set_ticks([])
    if layout.annotate:
        for (i, j), value in np.ndenumerate(values):
            if np.isfinite(value):
                colour = "black" if shown[i, j] > 0.5 else "white"
                ax.text(j, i, f"{value:.2f}", ha="center", va="center", color=colour,
                        fontsize=8)  # fmt: skip
    if len(c) <= LABELLED:
        for label in ax.get_xticklabels():
            label.set_rotation(60)
            label.set_horizontalalignment("right")
    ax.set_xlabel(f"target ({len(c)})")
    ax.set_ylabel(f"attacker ({len(r)})")
    title = heatmap_title(metric, None, rows)
    if context and not title.endswith(f", {context}"):
        title += f", {context}"
    ax.set_title(wrapped_title(title, ax.figure.get_size_inches()[0]))
    bar = ax.figure.colorbar(image, ax=ax)
    bar.set_label(colours.label)
    return ax


def one_context(frame: Any, context: str | None) -> Any:
    """The rows of a sweep's frame in one context: ``context``, which must be given when
    the frame has several.

    Examples
    --------
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"loadout": ["a", "a"], "target": ["x", "x"],
    ...                       "context": ["far", "close"], "mean_killed": [1.0, 2.0]})
    >>> one_context(frame, "close").mean_killed.tolist()
    [2.0]
    """
    if "context" not in frame.columns:
        return frame
    contexts = list(dict.fromkeys(frame["context"]))
    if context is None:
        if len(contexts) > 1:
            raise field_error(OptionError, "context", f"one of {contexts}", context)
        return frame
    if context not in contexts:
        raise field_error(OptionError, "context", f"one of {contexts}", context)
    return frame[frame["context"] == context]


def sweep_html(
    frame: Any, metric: str | None = None, *, context: str | None = None, title: str = "sweep"
) -> str:
    """A sweep in one context as the HTML report's page (its heatmap and sortable table;
    :func:`~mathhammer.views.report_html.report_html`).

    Examples
    --------
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"loadout": ["a", "a"], "target": ["x", "x"],
    ...                       "context": ["far", "close"], "mean_killed": [1.0, 2.0]})
    >>> page = sweep_html(frame, context="far")
    >>> page.count("<tr data-row="), "far" in page
    (1, True)
    """
    from .report_html import report_html

    rows = one_context(frame, context)
    named = f"{title} ({context})" if context else title
    return report_html(rows.reset_index(drop=True), title=named, metric=metric)


def _clustered(values: np.ndarray) -> list[int]:
    """The rows of ``values`` in the leaf order of an average-link clustering."""
    if len(values) < 3:
        return list(range(len(values)))
    from scipy.cluster.hierarchy import leaves_list, linkage

    return [int(i) for i in leaves_list(linkage(values, method="average", optimal_ordering=True))]
