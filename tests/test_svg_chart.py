"""The small SVG bar chart of a notebook result: bars, the mean mark, escaped titles."""

from __future__ import annotations

import mathhammer as mh
from mathhammer.views.html import MEAN_COLOUR, bar_chart_svg


def test_the_mean_mark_is_optional() -> None:
    dist = mh.Dist([0.25, 0.5, 0.25])
    marked = bar_chart_svg(dist, "killed")
    plain = bar_chart_svg(dist, "killed", mark_mean=False)
    assert marked.count(MEAN_COLOUR) == 2 and "mean 1" in marked
    assert MEAN_COLOUR not in plain and "mean" not in plain
    assert plain.count("<rect") == marked.count("<rect") == 3


def test_a_title_is_escaped() -> None:
    svg = bar_chart_svg(mh.Dist([1.0]), "<Boss> & co")
    assert "&lt;Boss&gt; &amp; co" in svg and "<Boss>" not in svg
