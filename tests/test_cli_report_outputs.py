"""What `mathhammer report` writes besides the CSV: the heatmap and the HTML report."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from mathhammer.cli import main


def test_the_html_report_has_every_row(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out, html = tmp_path / "r.csv", tmp_path / "r.html"
    assert main(["report", "-o", str(out), "--html", str(html), "--no-progress"]) == 0
    assert f"HTML report written to {html}" in capsys.readouterr().out
    page = html.read_text()
    rows = len(pd.read_csv(out))
    assert page.count("<tr") - 1 == rows  # one header row
    for fetch in ('src="http', "src='http", 'href="http', "url(http", "@import"):
        assert fetch not in page  # nothing to fetch: it opens offline


def test_the_default_heatmap_metric_credits_damage(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["report", "-o", str(tmp_path / "r.csv"), "--plot", str(tmp_path / "h.png")]
    assert main([*argv, "--no-progress"]) == 0
    assert "heatmap of points_of_damage written to" in capsys.readouterr().out
    assert (tmp_path / "h.png").stat().st_size > 0


def test_a_bad_metric_is_refused_before_any_work(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "r.csv"
    assert main(["report", "-o", str(out), "--metric", "loadout", "--no-progress"]) == 1
    assert "--metric must be one of" in capsys.readouterr().err
    assert not out.exists()
