"""A sweep's attacker x target matrix as a heatmap, ordered to be read."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import OptionError, field_error

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.axes import Axes


__all__ = ["ORDERS", "one_context", "plot_sweep", "sweep_html"]

#: How the rows and columns of :func:`plot_sweep` are ordered.
ORDERS = ("cluster", "efficiency", "given")
#: The most rows or columns labelled one by one.
LABELLED = 60


def plot_sweep(
    frame: pd.DataFrame,
    metric: str | None = None,
    *,
    context: str | None = None,
    order: str = "cluster",
    ax: Axes | None = None,
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
    from .heatmap import colour_scale, frame_metric, grid
    from .layout import heatmap_layout, wrapped_title
    from .plots import annotate_cells, axes_or_new, figure_width

    if order not in ORDERS:
        raise field_error(OptionError, "order", f"one of {list(ORDERS)}", order)
    rows = one_context(frame, context)
    metric = frame_metric(rows, metric)
    cells = grid(rows, metric)
    colours = colour_scale(cells.values, metric, scale)
    levels = np.nan_to_num(colours.levels, nan=0.0)
    r, c = _ORDERED[order](cells.values, levels)
    shown = colours.levels[np.ix_(r, c)]
    values = cells.values[np.ix_(r, c)]
    row_labels, column_labels = _labels(cells.rows, r), _labels(cells.columns, c)
    few = len(r) <= LABELLED and len(c) <= LABELLED  # each cell may hold its number
    layout = heatmap_layout(row_labels, column_labels, value_chars=4, annotate=few)
    ax = axes_or_new(ax, layout.figsize)
    image = ax.imshow(shown, cmap=cmap, aspect="auto", vmin=0.0, vmax=1.0, interpolation="nearest")
    _label_ticks(ax, row_labels, column_labels)
    if layout.annotate:
        annotate_cells(ax, values, shown, "{:.2f}")
    ax.set_xlabel(f"target ({len(c)})")
    ax.set_ylabel(f"attacker ({len(r)})")
    title = _sweep_title(metric, rows, context)
    ax.set_title(wrapped_title(title, figure_width(ax)))
    bar = ax.figure.colorbar(image, ax=ax)
    bar.set_label(colours.label)
    return ax


def _by_cluster(values: np.ndarray, levels: np.ndarray) -> tuple[list[int], list[int]]:
    """Rows, and columns, that score alike side by side (clustered as coloured)."""
    return _clustered(levels), _clustered(levels.T)


def _by_efficiency(values: np.ndarray, levels: np.ndarray) -> tuple[list[int], list[int]]:
    """Attackers by their mean over the targets and targets by how much they suffer,
    most first."""
    r = list(np.argsort(-np.nanmean(values, axis=1), kind="stable"))
    c = list(np.argsort(-np.nanmean(levels, axis=0), kind="stable"))
    return r, c


def _as_given(values: np.ndarray, levels: np.ndarray) -> tuple[list[int], list[int]]:
    """Rows and columns in the frame's order."""
    rows, columns = values.shape
    return list(range(rows)), list(range(columns))


#: The row and column order of each of :data:`ORDERS`, from the grid's values and levels.
_ORDERED = {"cluster": _by_cluster, "efficiency": _by_efficiency, "given": _as_given}


def _labels(names: list[str], order: list[int]) -> list[str]:
    """The names in ``order``, each cut to a label's length."""
    from .layout import short_label

    return [short_label(names[i]) for i in order]


def _label_ticks(ax: Any, row_labels: list[str], column_labels: list[str]) -> None:
    """Label the rows and the columns, each up to :data:`LABELLED` of them (past that,
    none); the column labels slanted."""
    for labels, set_ticks in ((column_labels, ax.set_xticks), (row_labels, ax.set_yticks)):
        if len(labels) <= LABELLED:
            set_ticks(range(len(labels)), labels, fontsize=8)
        else:
            set_ticks([])
    if len(column_labels) <= LABELLED:
        for label in ax.get_xticklabels():
            label.set_rotation(60)
            label.set_horizontalalignment("right")


def _sweep_title(metric: str, rows: Any, context: str | None) -> str:
    """The heatmap's title: the metric, the ruleset and the context shown."""
    from .heatmap import heatmap_title

    title = heatmap_title(metric, None, rows)
    if context and not title.endswith(f", {context}"):
        title += f", {context}"
    return title


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
    frame: pd.DataFrame,
    metric: str | None = None,
    *,
    context: str | None = None,
    title: str = "sweep",
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
