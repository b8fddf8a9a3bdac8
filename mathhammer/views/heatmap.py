"""The loadout x target grid of a comparison, and how its cells are coloured.

Both heatmaps, the matplotlib one (:func:`mathhammer.views.plots.plot_compare`) and the
SVG one of the HTML report (:func:`heatmap_svg`), read their grid, their default metric,
their colours and their title here, so the two always show the same thing.

A colour must mean the same thing across a row: a shared scale makes 5 Boyz and one
Terminator look alike, since their mean kills differ tenfold. So a probability (a
``p_`` column) is drawn on the fixed scale 0 to 1, and any other metric is scaled per
target column, from 0 (or the column's lowest value, if negative) to the column's
highest value; the colour bar and the note say which.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import DistributionError, field_error
from ..results.columns import metric_column
from ..rules.registry import RulesetLike

__all__ = [
    "SCALES",
    "ColourScale",
    "Grid",
    "colour_scale",
    "default_metric",
    "frame_metric",
    "grid",
    "heatmap_svg",
    "heatmap_title",
    "viridis",
]

#: How cells are coloured: "auto" (probabilities 0 to 1, anything else per column),
#: "column" (every metric per target column) or "shared" (one scale for the whole grid).
SCALES = ("auto", "column", "shared")
#: Scaled per column, a column's brightest is its best or this share of the grid's best.
COLUMN_FLOOR = 0.1
#: The metrics tried, in order, when none is asked for: each means something against every
#: target, a vehicle that loses wounds but no model included.
DEFAULT_METRICS = ("points_of_damage", "mean_damage", "mean_killed")
#: Nine evenly spaced colours of matplotlib's viridis, so that the SVG heatmap needs no
#: matplotlib and matches the PNG one.
_VIRIDIS = (
    (0x44, 0x01, 0x54),
    (0x47, 0x2D, 0x7B),
    (0x3B, 0x52, 0x8B),
    (0x2C, 0x72, 0x8E),
    (0x21, 0x91, 0x8C),
    (0x28, 0xAE, 0x80),
    (0x5E, 0xC9, 0x62),
    (0xAD, 0xDC, 0x30),
    (0xFD, 0xE7, 0x25),
)


@dataclass(frozen=True)
class Grid:
    """One metric laid out loadout (row) by target (column), in first-seen order."""

    rows: list[str]
    columns: list[str]
    values: Any  # float64 array, rows x columns; NaN where a pairing is missing


@dataclass(frozen=True)
class ColourScale:
    """Cell colours as numbers from 0 to 1, and what they mean, for the colour bar."""

    levels: Any  # float64 array like Grid.values, in [0, 1]; NaN where the value is
    label: str  # short, for a colour bar
    note: str  # a sentence, for a key under the grid
    per_column: bool


def default_metric(frame: Any) -> str:
    """The metric a heatmap shows when none is asked for.

    ``points_of_damage`` when the targets have points (damage credited, so a tank that
    loses wounds but no model is not a column of zeros), else ``mean_damage``, else
    ``mean_killed``.

    Examples
    --------
    >>> import pandas as pd
    >>> default_metric(pd.DataFrame({"mean_killed": [1.0], "mean_damage": [2.0]}))
    'mean_damage'
    >>> default_metric(pd.DataFrame({"mean_damage": [2.0], "points_of_damage": [float("nan")]}))
    'mean_damage'
    >>> default_metric(pd.DataFrame({"loadout": ["a"]}))
    'mean_killed'
    """
    for metric in DEFAULT_METRICS:
        if metric in frame.columns and np.isfinite(frame[metric].to_numpy(np.float64)).any():
            return metric
    return DEFAULT_METRICS[-1]


def _row_labels(frame: Any) -> list[str]:
    """The loadout of each row, with its phase where the report split shooting and fight
    (unless the name says it: "Boyz (ranged)"), and its situation where a report holds
    several (``--situation``).

    Examples
    --------
    >>> import pandas as pd
    >>> _row_labels(pd.DataFrame({"loadout": ["Boyz (ranged)", "Guns", "Guns"],
    ...                           "phase": ["shooting", "shooting", "shooting"],
    ...                           "context": ["default", "default", "half_range"]}))
    ['Boyz (ranged) [default]', 'Guns (shooting) [default]', 'Guns (shooting) [half_range]']
    """
    labels = [str(x) for x in frame["loadout"]]
    if "phase" in frame.columns:
        labels = _with_phases(labels, frame["phase"])
    if "context" in frame.columns and frame["context"].nunique() > 1:
        labels = _with_contexts(labels, frame["context"])
    return labels


def _with_contexts(names: list[str], contexts: Any) -> list[str]:
    """Each name with its situation in square brackets."""
    return [f"{name} [{c}]" for name, c in zip(names, contexts, strict=True)]


#: A loadout's name that says its phase already (a roster's "Boyz (ranged)").
_NAMES_PHASE = re.compile(r"\((?:ranged|melee|shooting|fight)\)$")


def _with_phases(names: list[str], phases: Any) -> list[str]:
    """Each name with its phase in brackets, unless it has none or the name says it."""
    return [
        f"{name} ({phase})"
        if isinstance(phase, str) and phase and not _NAMES_PHASE.search(name)
        else name
        for name, phase in zip(names, phases, strict=True)
    ]


def frame_metric(frame: Any, metric: str | None) -> str:
    """The column a picture of ``frame`` shows for ``metric``: :func:`default_metric` for
    None, else the frame's column ``metric`` names (an alias read by
    :func:`mathhammer.metric_column`).

    Examples
    --------
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"loadout": ["a"], "target": ["x"], "mean_damage": [2.0]})
    >>> frame_metric(frame, "damage"), frame_metric(frame, None)
    ('mean_damage', 'mean_damage')
    """
    if metric is None:
        return default_metric(frame)
    return metric_column(metric, among=[str(c) for c in frame.columns])


def grid(frame: Any, metric: str) -> Grid:
    """The values of ``metric`` by loadout (rows, with the phase if any) and target.

    Examples
    --------
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"loadout": ["a", "a", "b"], "target": ["x", "y", "x"],
    ...                       "mean_killed": [1.0, 2.0, 3.0]})
    >>> g = grid(frame, "mean_killed")
    >>> g.rows, g.columns, g.values.tolist()
    (['a', 'b'], ['x', 'y'], [[1.0, 2.0], [3.0, nan]])
    """
    _check_columns([str(c) for c in frame.columns], metric)
    rows = _row_labels(frame)
    targets = [str(t) for t in frame["target"]]
    row_names, column_names = list(dict.fromkeys(rows)), list(dict.fromkeys(targets))
    values = _laid_out(rows, targets, frame[metric].to_numpy(np.float64), row_names, column_names)
    return Grid(row_names, column_names, values)


def _laid_out(
    rows: list[str], targets: list[str], found: Any, row_names: list[str], column_names: list[str]
) -> Any:
    """Each value ``found`` in the cell of its row's loadout and target (NaN where none);
    two values for one cell refused."""
    values = np.full((len(row_names), len(column_names)), np.nan)
    seen: set[tuple[str, str]] = set()
    row_at = {name: i for i, name in enumerate(row_names)}
    column_at = {name: j for j, name in enumerate(column_names)}
    for row, target, value in zip(rows, targets, found, strict=True):
        if (row, target) in seen:
            raise field_error(
                DistributionError,
                "frame",
                "one row per loadout (and phase) and target",
                f"several rows for {row!r} against {target!r}",
            )
        seen.add((row, target))
        values[row_at[row], column_at[target]] = value
    return values


def _check_columns(columns: list[str], metric: str) -> None:
    """Refuse a frame without ``loadout``, ``target`` and ``metric`` columns."""
    if "loadout" not in columns or "target" not in columns:
        expected = "a mathhammer.compare frame with 'loadout' and 'target' columns"
        raise field_error(DistributionError, "frame columns", expected, columns)
    if metric not in columns:
        raise field_error(
            DistributionError, "metric", f"one of the frame's columns {columns}", metric
        )


def colour_scale(values: Any, metric: str, scale: str = "auto") -> ColourScale:
    """Map a grid's values to colour levels from 0 to 1.

    Parameters
    ----------
    values : numpy.ndarray
        The grid, rows x columns (NaN where missing).
    metric : str
        Its column name: a ``p_`` column holding probabilities is drawn 0 to 1 under
        ``scale="auto"``.
    scale : {"auto", "column", "shared"}
        See :data:`SCALES`.

    Examples
    --------
    >>> import numpy as np
    >>> colour_scale(np.array([[1.0, 10.0], [2.0, 40.0]]), "mean_killed").levels.tolist()
    [[0.25, 0.25], [0.5, 1.0]]
    >>> colour_scale(np.array([[7.41, 0.05], [0.0, 0.0]]), "mean_killed").levels.round(3).tolist()
    [[1.0, 0.067], [0.0, 0.0]]
    >>> colour_scale(np.array([[0.07], [0.02]]), "p_destroyed").levels.tolist()
    [[0.07], [0.02]]
    """
    if scale not in SCALES:
        raise field_error(DistributionError, "scale", f"one of {list(SCALES)}", scale)
    values = np.asarray(values, dtype=np.float64)
    if scale == "auto" and _is_probability(values, metric):
        note = "probability, one scale from 0 to 1 for every target"
        return ColourScale(np.clip(values, 0.0, 1.0), "probability, 0 to 1", note, False)
    if scale == "shared":
        return _shared(values, metric)
    return _per_column(values)


def _is_probability(values: Any, metric: str) -> bool:
    """Whether ``metric`` is a ``p_`` column whose finite ``values`` are all from 0 to 1."""
    finite = values[np.isfinite(values)]
    return metric.startswith("p_") and bool(((finite >= 0) & (finite <= 1)).all())


def _shared(values: Any, metric: str) -> ColourScale:
    """Levels on one scale for the whole grid, from 0 (or its lowest value, if negative)
    to its best."""
    low, high = _bounds(values)
    note = f"{_words(metric)}, one scale for every target"
    return ColourScale(_scaled(values, low, high), _words(metric), note, False)


def _per_column(values: Any) -> ColourScale:
    """Levels scaled per target column, from 0 (or its lowest value, if negative) to its
    best, or a tenth of the grid's best if more."""
    low, high = _bounds(values, axis=0)
    # a column whose best is a sliver of the grid's best is not painted as bright as the
    # others' best: 0.05 against 0.00 is no 7.41 against 0
    floor = COLUMN_FLOOR * float(np.max(high, initial=0.0))
    high = np.maximum(high, floor)
    note = (
        "scaled per target column, from 0 to the best loadout against that target (or a "
        "tenth of the grid's best, if more)"
    )
    return ColourScale(_scaled(values, low, high), "scaled per target", note, True)


def _bounds(values: Any, axis: int | None = None) -> tuple[Any, Any]:
    """The lowest value (0 unless one is negative) and the highest, over finite values."""
    finite = np.isfinite(values)
    low = np.min(np.where(finite, values, np.inf), axis=axis, initial=np.inf)
    high = np.max(np.where(finite, values, -np.inf), axis=axis, initial=-np.inf)
    return np.minimum(np.where(np.isfinite(low), low, 0.0), 0.0), np.where(
        np.isfinite(high), high, 0.0
    )


def _scaled(values: Any, low: Any, high: Any) -> Any:
    span = np.asarray(high - low, dtype=np.float64)
    levels = np.where(span > 0, (values - low) / np.where(span > 0, span, 1.0), 0.0)
    return np.where(np.isfinite(values), np.clip(levels, 0.0, 1.0), np.nan)


def _words(metric: str) -> str:
    return metric.replace("_", " ")


def heatmap_title(metric: str, rules: RulesetLike | None = None, frame: Any = None) -> str:
    """The metric in words and the ruleset: ``rules``, else the frame's ``rules`` column.

    Examples
    --------
    >>> heatmap_title("points_of_damage", "11e")
    'points of damage (rules 11e)'
    >>> import pandas as pd
    >>> heatmap_title("mean_killed", frame=pd.DataFrame({"rules": ["classic"]}))
    'mean killed (rules classic)'
    >>> heatmap_title("mean_damage", "11e", pd.DataFrame({"context": ["half_range"] * 2}))
    'mean damage (rules 11e), half_range'
    """
    if rules is None:
        rules = _only_value(frame, "rules")
    rules = getattr(rules, "name", rules)  # a Ruleset by its name
    title = _words(metric) + (f" (rules {rules})" if rules else "")
    context = _only_value(frame, "context")
    if context not in (None, "default"):  # one situation: say which
        title += f", {context}"
    return title


def _only_value(frame: Any, column: str) -> str | None:
    """The one value of ``column`` (missing values aside), or None: no ``frame``, no such
    column, or other than one value in it."""
    if frame is None or column not in frame.columns:
        return None
    found = {str(v) for v in frame[column].dropna()}
    return found.pop() if len(found) == 1 else None


def viridis(level: float) -> str:
    """The viridis colour of a level from 0 to 1, as ``#rrggbb`` (NaN: light grey).

    Examples
    --------
    >>> viridis(0.0), viridis(1.0), viridis(float("nan"))
    ('#440154', '#fde725', '#dddddd')
    """
    if not np.isfinite(level):
        return "#dddddd"
    position = min(max(float(level), 0.0), 1.0) * (len(_VIRIDIS) - 1)
    i = min(int(position), len(_VIRIDIS) - 2)
    t = position - i
    rgb = (round(a + (b - a) * t) for a, b in zip(_VIRIDIS[i], _VIRIDIS[i + 1], strict=True))
    return "#" + "".join(f"{c:02x}" for c in rgb)


def _text_colour(level: float) -> str:
    # viridis is dark below the middle: white text there, black above
    return "black" if np.isfinite(level) and level > 0.5 else "white"


def _cell_svg(
    box: tuple[int, int, int, int], value: float, level: float, what: str, fmt: str
) -> str:
    """One cell: its colour, its value written in it, and a tooltip naming the pairing."""
    x, y, width, height = box
    shown = fmt.format(value) if np.isfinite(value) else ""
    return (
        f'<rect class="cell" x="{x}" y="{y}" width="{width}" height="{height}" '
        f'fill="{viridis(level)}" stroke="white"><title>{html.escape(what)}: {shown}</title>'
        f'</rect><text x="{x + width / 2:.1f}" y="{y + height / 2 + 4:.1f}" '
        f'text-anchor="middle" fill="{_text_colour(level)}">{shown}</text>'
    )


def _column_labels_svg(columns: list[str], left: int, top: int, cell_w: int) -> list[str]:
    """Each column's label above its cells, slanted."""
    out = []
    for j, name in enumerate(columns):
        x = left + cell_w * (j + 0.5)
        out.append(
            f'<text x="{x:.1f}" y="{top - 6}" transform="rotate(-30 {x:.1f} {top - 6})">'
            f"{html.escape(name)}</text>"
        )
    return out


def _row_svg(
    cells: Grid, levels: Any, i: int, layout: tuple[int, int, int, int], fmt: str
) -> list[str]:
    """Row ``i`` of the grid: its label, then its cells (``layout``: the grid's left and
    top edges, a cell's width and height)."""
    left, top, cell_w, cell_h = layout
    name = cells.rows[i]
    y = top + cell_h * (i + 0.5) + 4
    out = [f'<text x="{left - 6}" y="{y:.1f}" text-anchor="end">{html.escape(name)}</text>']
    for j, value in enumerate(cells.values[i]):
        box = (left + cell_w * j, top + cell_h * i, cell_w, cell_h)
        what = f"{name} vs {cells.columns[j]}"
        out.append(_cell_svg(box, value, float(levels[i, j]), what, fmt))
    return out


def heatmap_svg(
    frame: Any,
    metric: str | None = None,
    *,
    rules: RulesetLike | None = None,
    scale: str = "auto",
    fmt: str = "{:.2f}",
) -> str:
    """The heatmap as a standalone SVG element: cells, values, labels, title and key.

    Examples
    --------
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"loadout": ["a", "b"], "target": ["x", "x"],
    ...                       "mean_killed": [1.0, 2.0]})
    >>> svg = heatmap_svg(frame, rules="11e")
    >>> svg.count('class="cell"'), "mean killed (rules 11e)" in svg
    (2, True)
    """
    metric = frame_metric(frame, metric)
    cells = grid(frame, metric)
    colours = colour_scale(cells.values, metric, scale)
    cell_w, cell_h = 76, 26
    left = 12 + 7 * max(len(r) for r in cells.rows)
    top = 40 + 6 * max(len(c) for c in cells.columns) // 2
    # the last column's slanted label reaches past the grid's right edge
    right = max(12, round(5.7 * len(cells.columns[-1])) - cell_w // 2 + 12)
    width = left + cell_w * len(cells.columns) + right
    height = top + cell_h * len(cells.rows) + 34
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="heatmap" width="{width}" '
        f'height="{height}" viewBox="0 0 {width} {height}" role="img" '
        'style="font: 11px sans-serif">',
        f'<text x="4" y="14" font-weight="bold">'
        f"{html.escape(heatmap_title(metric, rules, frame))}</text>",
    ]
    parts += _column_labels_svg(cells.columns, left, top, cell_w)
    for i in range(len(cells.rows)):
        parts += _row_svg(cells, colours.levels, i, (left, top, cell_w, cell_h), fmt)
    parts.append(
        f'<text x="4" y="{height - 10}" fill="#555">colour: {html.escape(colours.note)}</text>'
        "</svg>"
    )
    return "".join(parts)
