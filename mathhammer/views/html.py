"""HTML views for Jupyter: the summary table and a small inline chart, as text.

The charts are hand-written SVG, so showing a result in a notebook needs neither
matplotlib nor a round trip through an image file. Nothing here computes a number:
every figure shown comes from a ``summary()`` (the one source of truth) or from the
distribution being drawn. The functions take distributions by duck typing
(``probabilities``, ``ppf``, ``mean``, ``median``), so this module imports nothing from
the package.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any, Protocol

import numpy as np

__all__ = ["bar_chart_svg", "dist_html", "result_html", "table_html", "visible_range"]

#: The probability left out at each end of a drawn range.
TAIL = 1e-6
#: Colours of the bars and of the mean marker.
BAR_COLOUR = "#4c72b0"
MEAN_COLOUR = "#c44e52"


class DistLike(Protocol):
    """What drawing needs from a distribution (:class:`mathhammer.Dist` has it)."""

    @property
    def probabilities(self) -> Any: ...
    def ppf(self, q: Any) -> Any: ...
    def mean(self) -> float: ...
    def median(self) -> int: ...
    def support(self) -> tuple[int, int]: ...


def visible_range(dist: DistLike, tail: float = TAIL) -> tuple[int, int]:
    """The values worth drawing: all but ``tail`` of the probability at each end.

    The range starts at 0 unless the empty stretch before it would be wider than the
    range itself (a unit of 200 models losing about 150 wounds, say).

    Examples
    --------
    >>> from mathhammer import Dist
    >>> visible_range(Dist.binomial(10, 0.5))
    (0, 10)
    >>> visible_range(Dist.binomial(1000, 0.5))
    (425, 575)
    """
    lo, hi = int(dist.ppf(tail)), int(dist.ppf(1.0 - tail))
    hi = max(hi, lo)
    if lo <= hi - lo + 1:
        lo = 0
    return lo, hi


def bar_chart_svg(
    dist: DistLike, title: str, *, width: int = 260, height: int = 110, mark_mean: bool = True
) -> str:
    """A small SVG bar chart of P(X = k) over the visible range, the mean marked.

    Examples
    --------
    >>> from mathhammer import Dist
    >>> svg = bar_chart_svg(Dist([0.25, 0.5, 0.25]), "killed")
    >>> svg.startswith("<svg") and svg.count("<rect") == 3
    True
    """
    lo, hi = visible_range(dist)
    probs = np.asarray(dist.probabilities, dtype=np.float64)[lo : hi + 1]
    left, right, top, bottom = 6, 6, 18, 16
    plot_w, plot_h = width - left - right, height - top - bottom
    step = plot_w / len(probs)
    scale = plot_h / max(float(probs.max()), 1e-300)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img" style="font: 10px sans-serif">',
        f"<title>{html.escape(title)}: P(X = k) for k = {lo}..{hi}</title>",
        f'<text x="{left}" y="12">{html.escape(title)}</text>',
    ]
    base = top + plot_h
    for i, p in enumerate(probs):
        h = float(p) * scale
        parts.append(
            f'<rect x="{left + i * step + step * 0.1:.2f}" y="{base - h:.2f}" '
            f'width="{max(step * 0.8, 0.5):.2f}" height="{h:.2f}" fill="{BAR_COLOUR}"/>'
        )
    parts.append(f'<line x1="{left}" y1="{base}" x2="{left + plot_w}" y2="{base}" stroke="#888"/>')
    if mark_mean:
        x = left + (dist.mean() - lo + 0.5) * step
        parts += _mean_mark(dist.mean(), x, (top - 2, base), width - right)
    parts.append(f'<text x="{left}" y="{height - 3}">{lo}</text>')
    parts.append(f'<text x="{width - right}" y="{height - 3}" text-anchor="end">{hi}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _mean_mark(mean: float, x: float, span: tuple[float, float], right: float) -> list[str]:
    """The mean's dashed line at ``x`` from the top to the base of the bars (``span``), and
    its value written at the top right (``right``)."""
    top, base = span
    return [
        f'<line x1="{x:.2f}" y1="{top}" x2="{x:.2f}" y2="{base}" '
        f'stroke="{MEAN_COLOUR}" stroke-dasharray="3,2"/>',
        f'<text x="{right}" y="12" text-anchor="end" fill="{MEAN_COLOUR}">mean {mean:.3g}</text>',
    ]


def _cell(column: str, value: Any) -> str:
    if value is None or (isinstance(value, float) and np.isnan(value)):
        return ""
    if isinstance(value, str):  # a name (a plan's unit, weapon, target): as it is
        return html.escape(value)
    if column in ("median", "mode"):
        return f"{int(value)}"
    return f"{value:.3f}"


def table_html(frame: Any) -> str:
    """A summary :class:`pandas.DataFrame` as an HTML table, numbers to 3 decimals.

    Examples
    --------
    >>> import pandas as pd
    >>> html = table_html(pd.DataFrame({"mean": [1.5], "P(>=1)": [0.75]}, index=["killed"]))
    >>> "<th>P(≥1)</th>" in html and "<td>1.500</td>" in html
    True
    """
    columns = [str(c) for c in frame.columns]
    head = "".join(f"<th>{html.escape(c).replace('&gt;=', '≥')}</th>" for c in columns)
    index_name = html.escape(str(frame.index.name or ""))
    rows = [f"<tr><th>{index_name}</th>{head}</tr>"]
    for label, values in zip(frame.index, frame.itertuples(index=False), strict=True):
        rows.append(_row(str(label), columns, values))
    return '<table class="mathhammer-summary">' + "".join(rows) + "</table>"


def _row(label: str, columns: list[str], values: Any) -> str:
    """One row of the summary table: its label, then its values."""
    cells = "".join(f"<td>{_cell(c, v)}</td>" for c, v in zip(columns, values, strict=True))
    return f'<tr><th style="text-align:left">{html.escape(label)}</th>{cells}</tr>'


def _charts(charts: Sequence[tuple[DistLike, str]]) -> str:
    svgs = "".join(bar_chart_svg(d, title) for d, title in charts)
    return f'<div style="display:flex;flex-wrap:wrap;gap:12px">{svgs}</div>'


def result_html(
    title: str, details: str, headline: str, charts: Sequence[tuple[DistLike, str]], frame: Any
) -> str:
    """The HTML view of an attack: a title, the key numbers, charts and the summary table."""
    return (
        '<div class="mathhammer-result">'
        f"<p><strong>{html.escape(title)}</strong> "
        f'<span style="color:#666">{html.escape(details)}</span></p>'
        f"<p>{html.escape(headline)}</p>"
        f"{_charts(charts)}{table_html(frame)}</div>"
    )


def dist_html(dist: DistLike, summary: Any) -> str:
    """The HTML view of one distribution: its key numbers (a Series) and a chart.

    Examples
    --------
    >>> from mathhammer import Dist
    >>> d = Dist([0.25, 0.5, 0.25])
    >>> page = dist_html(d, d.summary())
    >>> "<svg" in page and "<td>0.750</td>" in page
    True
    """
    lo, hi = dist.support()
    frame = summary.to_frame().T
    frame.index = ["X"]
    return (
        '<div class="mathhammer-dist">'
        f"<p><strong>Dist</strong> "
        f'<span style="color:#666">support {lo}..{hi}</span></p>'
        f"{_charts([(dist, 'P(X = k)')])}{table_html(frame)}</div>"
    )
