"""Heatmaps at the sizes real lists give (2, 10 and 100 targets; a 3 x 2 sweep): the figure
is a page, not a strip; every number written fits its cell; labels do not overlap; the
title is whole. Checked on the drawn images: their sizes and their texts' extents."""

from __future__ import annotations

from typing import Any

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

import mathhammer as mh  # noqa: E402
from mathhammer.views.layout import MOST_INCHES  # noqa: E402


def frame(loadouts: int, targets: int) -> pd.DataFrame:
    rng = np.random.default_rng(loadouts * 1000 + targets)
    rows = [
        {"loadout": f"Loadout number {i} (ranged)", "target": f"Target datasheet {j} [Legends]",
         "mean_killed": float(rng.choice([7.41, 0.05, 0.0, 2.5, 12.75])), "rules": "11e"}
        for i in range(loadouts) for j in range(targets)
    ]  # fmt: skip
    return pd.DataFrame(rows)


def boxes(texts: list[Any]) -> list[Any]:
    renderer = texts[0].figure.canvas.get_renderer()
    return [t.get_window_extent(renderer) for t in texts if t.get_text()]


def check_page(ax: object) -> None:
    fig = ax.figure  # type: ignore[attr-defined]
    fig.canvas.draw()
    width, height = fig.get_size_inches()
    assert max(width, height) <= MOST_INCHES
    assert max(width / height, height / width) <= 8, (width, height)  # a page, not a strip
    whole = fig.bbox
    title = ax.title.get_window_extent(fig.canvas.get_renderer())  # type: ignore[attr-defined]
    assert title.x0 >= whole.x0 - 1 and title.x1 <= whole.x1 + 1 and title.y1 <= whole.y1 + 1


def check_cells(ax: object) -> int:
    """Every number inside its cell; the count of numbers written."""
    texts = list(ax.texts)  # type: ignore[attr-defined]
    if not texts:
        return 0
    to_pixels = ax.transData  # type: ignore[attr-defined]
    for text, box in zip(texts, boxes(texts), strict=True):
        x, y = text.get_position()
        (left, bottom), (right, top) = to_pixels.transform([(x - 0.5, y + 0.5), (x + 0.5, y - 0.5)])
        assert box.x0 >= left - 0.5 and box.x1 <= right + 0.5, text.get_text()
        assert box.y0 >= min(bottom, top) - 0.5 and box.y1 <= max(bottom, top) + 0.5
    return len(texts)


def no_overlap(labels: list[Any], axis: str) -> None:
    shown = boxes([t for t in labels if t.get_text()])
    spans = sorted((b.y0, b.y1) if axis == "y" else (b.x0, b.x1) for b in shown)
    for (_, end), (start, _) in zip(spans, spans[1:], strict=False):
        assert start >= end - 0.5


@pytest.mark.parametrize("targets", [2, 10, 100])
def test_the_report_heatmap_is_a_readable_page(targets: int) -> None:
    data = frame(3, targets)
    ax = mh.plot_compare(data, "mean_killed")
    check_page(ax)
    written = check_cells(ax)
    assert written == 3 * targets  # every number fits at these sizes
    if targets > 12:  # many targets: down the side
        assert ax.get_ylabel() == "target" and len(ax.get_yticklabels()) == targets
        no_overlap(ax.get_yticklabels(), "y")
    else:
        assert ax.get_xlabel() == "target"
    assert ax.get_title().startswith("mean killed (rules 11e)")
    plt.close("all")


def test_a_sliver_of_a_column_is_not_painted_as_its_best() -> None:
    """Per column, 0.05 against 0.00 is no longer as bright as 7.41 against 0."""
    data = pd.DataFrame({"loadout": ["a", "a", "b", "b"], "target": ["x", "y", "x", "y"],
                         "mean_killed": [7.41, 0.05, 0.0, 0.0]})  # fmt: skip
    ax = mh.plot_compare(data)
    levels = ax.images[0].get_array()
    assert levels[0, 0] == 1.0 and levels[0, 1] < 0.1
    plt.close("all")


def test_a_small_sweep_plot_writes_its_numbers_under_a_whole_title() -> None:
    data = frame(3, 2).assign(context="close")
    ax = mh.plot_sweep(data, "mean_killed", context="close")
    check_page(ax)
    assert check_cells(ax) == 6 and ax.get_title().endswith("close")
    assert ax.figure.get_size_inches()[0] >= 3.0
    plt.close("all")
