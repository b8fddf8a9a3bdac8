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


def test_unknown_abilities_and_skipped_targets_are_printed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    army = tmp_path / "army.csv"
    army.write_text(
        "unit,weapon,count,A,BS/WS,S,AP,D,abilities\n"
        'Squad,Bolt rifle,5,2,3+,4,-1,1,"[SUSTAINED HIT 1], [DEVESTATING WOUNDS]"\n'
    )
    out = tmp_path / "r.csv"
    assert main(["report", str(army), "-o", str(out), "--no-progress"]) == 0
    err = capsys.readouterr().err.splitlines()
    assert f"mathhammer: warning: {army}:2: weapon 'Bolt rifle': unknown ability " in err[0]
    assert "(did you mean 'SUSTAINED HITS 1'?)" in err[0]
    assert "(did you mean 'DEVASTATING WOUNDS'?)" in err[1]
    assert set(pd.read_csv(out).unknown_abilities) == {"SUSTAINED HIT 1; DEVESTATING WOUNDS"}
    assert main(["report", str(army), "--strict", "-o", str(out)]) == 1
    assert f"{army}:2" in capsys.readouterr().err
    guard = tmp_path / "guard.csv"
    guard.write_text("unit,weapon,count,A,BS/WS,S,AP,D,abilities\nGuard,Lasgun,10,1,3,3,0,1,\n")
    assert main(["report", str(guard), "--rules", "classic", "-o", str(out), "--no-progress"]) == 0
    skipped = capsys.readouterr().err
    assert "mathhammer: warning: skipped Vehicle: target 'Vehicle' is a VEHICLE" in skipped
    assert "Vehicle" not in set(pd.read_csv(out).target)


def test_too_many_dice_in_a_report_names_the_row_and_the_remedy(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    army = tmp_path / "army.csv"
    army.write_text("unit,weapon,count,A,BS/WS,S,AP,D,abilities\nHorde,Gun,500,2D6,4+,4,0,1,\n")
    assert main(["report", str(army), "-o", str(tmp_path / "r.csv"), "--no-progress"]) == 1
    err = capsys.readouterr().err
    assert f"{army}:2: 'Horde' against " in err
    assert "--trials N" in err and "mathhammer.simulate" not in err


def test_the_html_report_charts_each_row(tmp_path: Path) -> None:
    html = tmp_path / "r.html"
    argv = ["report", "-o", str(tmp_path / "r.csv"), "--html", str(html), "--no-progress"]
    assert main(argv) == 0
    rows = len(pd.read_csv(tmp_path / "r.csv"))
    assert html.read_text().count('class="spark"') == rows
