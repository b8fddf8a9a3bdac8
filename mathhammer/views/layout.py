"""The size of a heatmap figure, from what it has to show: a readable cell, labels that fit.

A report against a whole faction has a hundred targets; a comparison of two loadouts, two.
:func:`heatmap_layout` sizes the figure by its rows, its columns and the length of its
labels and values: every cell at least as wide as the numbers written in it, the labels
room of their own, and the figure within :data:`MOST_INCHES`. Past that, the cells shrink
and the numbers are left out (the colours stay); a plot lays many targets down the side
(:func:`transposed`) rather than across, so that the figure is a page, not a strip.

Examples
--------
>>> small = heatmap_layout(["a", "b"], ["x", "y"], value_chars=4)
>>> small.annotate, small.figsize[0] >= 2 * CELL_MIN_INCHES
(True, True)
>>> wide = heatmap_layout(["one"] * 200, ["t"] * 300, value_chars=4)
>>> wide.annotate, max(wide.figsize) <= MOST_INCHES
(False, True)
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = [
    "CELL_MIN_INCHES",
    "LABEL_CHARS",
    "MOST_INCHES",
    "HeatmapLayout",
    "heatmap_layout",
    "short_label",
    "transposed",
    "wrapped_title",
]

#: The width of one character of the cells' and labels' text (8 pt), in inches.
CHAR_INCHES = 0.075
#: The narrowest cell with a number written in it, and a row's height.
CELL_MIN_INCHES = 0.55
ROW_INCHES = 0.32
#: The narrowest cell without numbers, and its height.
BARE_INCHES = 0.12
#: The largest side of a figure, in inches (at 100 dpi, 6,000 pixels).
MOST_INCHES = 60.0
#: A label is cut to this many characters (the full name is in the table).
LABEL_CHARS = 40
#: Past this many columns, and more columns than rows, a plot lays the columns down the side.
MANY_COLUMNS = 12


@dataclass(frozen=True)
class HeatmapLayout:
    """A heatmap figure's size in inches, and whether its cells hold their numbers."""

    figsize: tuple[float, float]
    annotate: bool


def heatmap_layout(
    rows: Sequence[str], columns: Sequence[str], value_chars: int, annotate: bool = True
) -> HeatmapLayout:
    """The figure for a grid of ``rows`` x ``columns`` labelled as given, its numbers
    ``value_chars`` characters long (numbers only where they fit)."""
    left = _label_inches(rows) + 0.7
    # column labels turned 35 degrees: their height is about half their length
    bottom = _label_inches(columns) * 0.6
    bottom += 0.8
    fixed_width, fixed_height = left + 1.5, bottom + 1.0  # the colour bar; the title
    wanted = max(CELL_MIN_INCHES, CHAR_INCHES * value_chars + 0.2)
    width = wanted if annotate else max(BARE_INCHES, 0.3)
    height = ROW_INCHES if annotate else max(BARE_INCHES, 0.25)
    room_w = (MOST_INCHES - fixed_width) / max(1, len(columns))
    room_h = (MOST_INCHES - fixed_height) / max(1, len(rows))
    width, annotate = _fitted(width, room_w, wanted, annotate)
    height, annotate = _fitted(height, room_h, ROW_INCHES, annotate)
    figsize = (
        min(MOST_INCHES, fixed_width + width * len(columns)),
        min(MOST_INCHES, fixed_height + height * len(rows)),
    )
    return HeatmapLayout(figsize, annotate)


def _label_inches(labels: Sequence[str]) -> float:
    """The length of the longest label, as cut to :data:`LABEL_CHARS`, in inches."""
    return CHAR_INCHES * min(LABEL_CHARS, max((len(x) for x in labels), default=1))


def _fitted(side: float, room: float, needed: float, annotate: bool) -> tuple[float, bool]:
    """A cell's side within the ``room`` there is for it, and whether it still holds its
    number (which needs ``needed`` inches)."""
    if room < side:
        return max(BARE_INCHES, room), annotate and room >= needed
    return side, annotate


def transposed(rows: int, columns: int) -> bool:
    """Whether a plot lays the columns down the side: many of them, more than rows.

    >>> transposed(2, 97), transposed(10, 8), transposed(30, 40)
    (True, False, True)
    """
    return columns > MANY_COLUMNS and columns > rows


def short_label(label: str) -> str:
    """A label cut to :data:`LABEL_CHARS` characters, with an ellipsis.

    >>> short_label("Necron Warriors (ranged)"), len(short_label("x" * 90))
    ('Necron Warriors (ranged)', 40)
    """
    return label if len(label) <= LABEL_CHARS else label[: LABEL_CHARS - 1] + "…"


def wrapped_title(title: str, width_inches: float) -> str:
    """A title broken into lines that fit the figure's width (11 pt characters).

    >>> print(wrapped_title("points of damage (rules 11e), half_range", 2.0))
    points of damage (rules
    11e), half_range
    """
    chars = max(12, math.floor(width_inches / 0.085))
    return "\n".join(textwrap.wrap(title, chars)) or title
