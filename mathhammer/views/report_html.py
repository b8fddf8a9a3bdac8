"""A report as one self-contained HTML page: the table (sortable), the heatmap, P(>= k) charts.

Everything the page shows is inside the file: the style, a few lines of script that sort
the table when a header is clicked, the heatmap and the per-row charts as inline SVG.
It opens offline, from a mail attachment or a shared drive, with no request anywhere.
Writing it to a file is :func:`mathhammer.io.report_html.write_html_report`'s job.
Nothing here computes a number: the values come from the report's frame, and the
charts from the distributions given beside it.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..errors import DistributionError, field_error
from ..rules.registry import RulesetLike
from .heatmap import frame_metric, heatmap_svg
from .html import DistLike, visible_range

__all__ = ["MAX_PAGE_ROWS", "report_html", "spark_svg"]

#: The text of the chart column's header.
CHART_HEADER = "P(≥k)"
#: Colours of the P(>= k) line and of the area under it.
LINE_COLOUR = "#4c72b0"
AREA_COLOUR = "#dbe4f0"

_STYLE = """
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.4em; margin-bottom: 0.2em; } h2 { font-size: 1.1em; margin-top: 1.5em; }
.meta, .hint { color: #666; }
.scroll { overflow-x: auto; }
table.report { border-collapse: collapse; font-variant-numeric: tabular-nums; }
table.report th, table.report td { border-bottom: 1px solid #ddd; padding: 2px 8px; }
table.report td { white-space: nowrap; }
table.report td.number { text-align: right; }
table.report th { background: #f4f4f4; position: sticky; top: 0; white-space: nowrap; }
table.sortable th:not(.nosort) { cursor: pointer; }
th[aria-sort="ascending"]::after { content: " ▲"; }
th[aria-sort="descending"]::after { content: " ▼"; }
tbody tr:hover { background: #f7f9fc; }
"""

# Sorts the table by the clicked header: numbers by value (blanks last either way), text
# alphabetically; a second click reverses; ties keep the report's order.
_SCRIPT = """
(() => {
  "use strict";
  const key = (cell) => {
    const value = cell.getAttribute("data-value");
    if (value === null) return cell.textContent.trim().toLowerCase();
    return value === "" ? null : Number(value);
  };
  const order = (a, b, direction) => {
    if (a === b) return 0;
    if (a === null) return 1;
    if (b === null) return -1;
    if (typeof a === "number" && typeof b === "number") return direction * (a - b);
    return direction * String(a).localeCompare(String(b));
  };
  for (const table of document.querySelectorAll("table.sortable")) {
    const heads = Array.from(table.tHead.rows[0].cells);
    heads.forEach((th, column) => {
      if (th.classList.contains("nosort")) return;
      th.addEventListener("click", () => {
        const ascending = th.getAttribute("aria-sort") !== "ascending";
        heads.forEach((h) => h.removeAttribute("aria-sort"));
        th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
        const body = table.tBodies[0];
        const rows = Array.from(body.rows);
        const direction = ascending ? 1 : -1;
        rows.sort((r, s) => order(key(r.cells[column]), key(s.cells[column]), direction)
          || Number(r.dataset.row) - Number(s.dataset.row));
        for (const row of rows) body.appendChild(row);
      });
    });
  }
})();
"""


#: The most rows the page's table shows (each with its chart): past it, the first ones
#: and a note. 11,155 rows made a page of 23 MB that took 80 s to open.
MAX_PAGE_ROWS = 2000


def spark_svg(dist: DistLike, what: str, *, width: int = 140, height: int = 40) -> str:
    """A small inline SVG of P(X >= k) for k from 0 over the visible range.

    The vertical scale is always 0 to 1, so the charts of a table compare at a glance;
    the ``<title>`` (a tooltip) lists the values.

    Examples
    --------
    >>> from mathhammer import Dist
    >>> svg = spark_svg(Dist([0.25, 0.5, 0.25]), "models destroyed")
    >>> svg.count("<circle"), "P(≥1 models destroyed) = 0.750" in svg
    (3, True)
    """
    high = max(visible_range(dist)[1], 1)
    ks = np.arange(high + 1)
    values = _at_least(dist, ks)
    left, right, top, bottom = 4, 4, 4, 12
    plot_w, plot_h = width - left - right, height - top - bottom
    xs = left + ks * plot_w / high
    ys = top + (1.0 - values) * plot_h
    points = " ".join(f"{x:.1f},{y:.1f}" for x, y in zip(xs, ys, strict=True))
    base = top + plot_h
    unit = f" {what}" if what else ""
    tip = _spark_tip(ks, values, unit)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="spark" width="{width}" '
        f'height="{height}" viewBox="0 0 {width} {height}" role="img" '
        'style="font: 9px sans-serif">',
        f"<title>{html.escape(tip)}</title>",
        f'<polygon points="{left},{base} {points} {xs[-1]:.1f},{base}" fill="{AREA_COLOUR}"/>',
        f'<polyline points="{points}" fill="none" stroke="{LINE_COLOUR}" stroke-width="1.5"/>',
    ]
    if high <= 30:
        parts += _spark_dots(xs, ys)
    parts.append(f'<text x="{left}" y="{height - 1}">0</text>')
    parts.append(
        f'<text x="{width - right}" y="{height - 1}" text-anchor="end">'
        f"{high}{html.escape(unit)}</text></svg>"
    )
    return "".join(parts)


def _spark_tip(ks: np.ndarray, values: np.ndarray, unit: str) -> str:
    """The chart's tooltip: P(X >= k) for k from 1 to 12 (``unit``: what X counts)."""
    shown = zip(ks[1:13], values[1:13], strict=True)
    return "; ".join(f"P(≥{k}{unit}) = {v:.3f}" for k, v in shown)


def _spark_dots(xs: np.ndarray, ys: np.ndarray) -> list[str]:
    """A dot at each point of the chart, for a short range."""
    return [
        f'<circle cx="{x:.1f}" cy="{y:.1f}" r="1.6" fill="{LINE_COLOUR}"/>'
        for x, y in zip(xs, ys, strict=True)
    ]


def _at_least(dist: DistLike, ks: np.ndarray) -> np.ndarray:
    """P(X >= k) for each of ``ks`` (0 past the support), at most 1."""
    pmf = np.asarray(dist.probabilities, dtype=np.float64)
    tail = np.cumsum(pmf[::-1])[::-1]  # tail[k] = P(X >= k)
    return np.minimum(np.where(ks < tail.size, tail[np.minimum(ks, tail.size - 1)], 0.0), 1.0)


def _row_chart(item: Any) -> str:
    """The P(>= k) chart of one row: models destroyed, or wounds lost for one model."""
    if item is None:
        return ""
    if hasattr(item, "target"):
        if item.target.models == 1:
            return spark_svg(item.damage, "wounds lost")
        return spark_svg(item.killed, "models destroyed")
    return spark_svg(item, "")


def _formats(column: Any) -> tuple[bool, str]:
    """(numeric, format) for a column: whole numbers shown whole, others to 3 places."""
    values = column.to_numpy()
    if values.dtype.kind not in "iuf":  # text, and flags (kind "b"), are shown as read
        return False, ""
    finite = values[np.isfinite(values.astype(np.float64))]
    whole = bool(np.all(finite == np.round(finite)))
    return True, "{:.0f}" if whole else "{:.3f}"


def _cells(frame: Any, charts: Sequence[str]) -> tuple[str, list[str]]:
    """The table's header row and body rows, the chart column after ``target``."""
    columns = [str(c) for c in frame.columns]
    chart_at = _chart_column(columns) if charts else None
    formats = [_formats(frame[c]) for c in frame.columns]
    heads = _heads(columns, chart_at)
    rows = [
        _row(i, record, formats, chart_at, charts)
        for i, record in enumerate(frame.itertuples(index=False))
    ]
    return "".join(heads), rows


def _chart_column(columns: list[str]) -> int:
    """Where the chart column goes among ``columns``: after ``target``, else last."""
    if "target" in columns:
        return columns.index("target") + 1
    return len(columns)


def _row(
    i: int,
    record: Any,
    formats: list[tuple[bool, str]],
    chart_at: int | None,
    charts: Sequence[str],
) -> str:
    """Row ``i`` of the table's body: its cells, and its chart (``charts[i]``) at
    ``chart_at`` (None: no chart column)."""
    cells = [_cell(value, *form) for value, form in zip(record, formats, strict=True)]
    if chart_at is not None:
        cells.insert(chart_at, f'<td class="chart">{charts[i]}</td>')
    return f'<tr data-row="{i}">{"".join(cells)}</tr>'


def _heads(columns: list[str], chart_at: int | None) -> list[str]:
    """The header cells, sortable, with the chart column's at ``chart_at`` (None: none)."""
    heads = [f'<th scope="col" title="click to sort">{html.escape(c)}</th>' for c in columns]
    if chart_at is not None:
        tip = "P(at least k): models destroyed, or wounds lost against one model"
        heads.insert(chart_at, f'<th scope="col" class="nosort" title="{tip}">{CHART_HEADER}</th>')
    return heads


def _cell(value: Any, numeric: bool, fmt: str) -> str:
    """One cell of the table: a number right-aligned with its value for sorting (both
    blank when missing), or text as read (NaN: blank)."""
    if numeric:
        return _number_cell(float(value), fmt)
    shown = "" if value is None or value != value else str(value)
    return f"<td>{html.escape(shown)}</td>"


def _number_cell(number: float, fmt: str) -> str:
    """A number's cell, right-aligned, with its value for sorting (both blank when it is
    missing)."""
    if not np.isfinite(number):
        return '<td class="number" data-value=""></td>'
    return f'<td class="number" data-value="{number!r}">{fmt.format(number)}</td>'


def report_html(
    frame: Any,
    *,
    title: str = "mathhammer report",
    rules: RulesetLike | None = None,
    metric: str | None = None,
    results: Sequence[Any] | None = None,
    scale: str = "auto",
    max_rows: int | None = None,
) -> str:
    """The report page as a string (see :func:`write_html_report`).

    The table shows the first ``max_rows`` rows (:data:`MAX_PAGE_ROWS` by default), with
    a note, so that a report of a whole faction stays a page a browser opens at once; the
    heatmap shows them all, and the CSV has every row.

    Examples
    --------
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"loadout": ["a", "b"], "target": ["x", "x"],
    ...                       "mean_killed": [1.0, 2.5]})
    >>> page = report_html(frame, rules="11e")
    >>> page.count("<tr data-row="), page.count('class="cell"'), "http" in page.replace(
    ...     'xmlns="http://www.w3.org/2000/svg"', "")
    (2, 2, False)
    """
    _check_results(frame, results)
    metric = frame_metric(frame, metric)
    most = _most_rows(max_rows)
    shown = frame.iloc[:most]
    charts = [_row_chart(item) for item in results[:most]] if results is not None else []
    heads, rows = _cells(shown, charts)
    cut = _cut_note(most, len(frame))
    about = _about(rules, len(frame), metric)
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<title>{html.escape(title)}</title><link rel="icon" href="data:,">'
        f"<style>{_STYLE}</style></head><body>"
        f'<h1>{html.escape(title)}</h1><p class="meta">{html.escape(about)}</p>'
        f'<h2>Heatmap</h2><div class="scroll">'
        f"{heatmap_svg(frame, metric, rules=rules, scale=scale)}</div>"
        '<h2>Table</h2><p class="hint">Click a column header to sort; click again to '
        f"reverse.</p>{cut}"
        f'<div class="scroll"><table class="report sortable"><thead><tr>{heads}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div>"
        f"<script>{_SCRIPT}</script></body></html>\n"
    )


def _about(rules: RulesetLike | None, rows: int, metric: str) -> str:
    """The line under the page's title: the rules (when given), the rows, the heatmap's
    metric."""
    about = [f"rules {getattr(rules, 'name', rules)}"] if rules else []
    about += [f"{rows} rows", f"heatmap: {metric}"]
    return " · ".join(about)


def _check_results(frame: Any, results: Sequence[Any] | None) -> None:
    """Refuse a frame without rows, or ``results`` not one per row of it."""
    if len(frame) == 0:
        raise field_error(DistributionError, "frame", "a report with at least one row", "0 rows")
    if results is not None and len(results) != len(frame):
        raise field_error(
            DistributionError,
            "results",
            f"one entry (or None) per row of the frame ({len(frame)} rows)",
            f"{len(results)} entries",
        )


def _most_rows(max_rows: int | None) -> int:
    """The most rows the table shows: ``max_rows``, checked, or :data:`MAX_PAGE_ROWS`."""
    most = MAX_PAGE_ROWS if max_rows is None else max_rows
    if isinstance(most, bool) or not isinstance(most, int) or most < 1:
        raise field_error(DistributionError, "max_rows", "an integer >= 1", most)
    return most


def _cut_note(most: int, total: int) -> str:
    """The note under the table's heading when it shows ``most`` of ``total`` rows."""
    if total <= most:
        return ""
    return (
        f'<p class="hint">The table shows the first {most:,} of {total:,} rows (the '
        "CSV has them all; the heatmap shows every row).</p>"
    )
