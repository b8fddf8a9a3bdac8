"""Rough edges of ``report`` a new user hit: the default CSV replaced when only a picture
was asked for, ``NaN`` and ``-0.000`` in the terminal table."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from mathhammer.cli import main
from mathhammer.cli.report import DEFAULT_REPORT, three_places


def test_only_a_plot_or_a_page_writes_no_csv(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    kept = tmp_path / DEFAULT_REPORT
    kept.write_text("an earlier report\n")
    assert main(["report", "--plot", "heat.png", "--no-progress"]) == 0
    assert main(["report", "--html", "page.html", "--no-progress"]) == 0
    assert kept.read_text() == "an earlier report\n"  # untouched
    assert (tmp_path / "heat.png").stat().st_size > 0 and (tmp_path / "page.html").exists()
    assert "rows written to" not in capsys.readouterr().out
    assert main(["report", "--no-progress", "--force"]) == 0  # no output named: the default CSV
    assert kept.read_text().startswith("loadout,")
    assert f"rows written to {DEFAULT_REPORT}" in capsys.readouterr().out


def test_the_terminal_table_shows_a_dash_where_a_column_does_not_apply(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["report", "-o", os.devnull, "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "NaN" not in out and "-0.000" not in out
    rules, header, first = out.splitlines()[:3]
    assert rules.startswith("rules: 11e (")  # the ruleset named first
    assert "p_character_killed" in header and " - " in first  # no CHARACTER in the first target


@pytest.mark.parametrize("value, shown", [(-0.0004, "0.000"), (-0.0, "0.000"), (-0.25, "-0.250")])
def test_three_places_never_shows_a_negative_zero(value: float, shown: str) -> None:
    assert three_places(value) == shown


def test_heatmap_rows_name_the_phase_once_and_each_situation(tmp_path: Path) -> None:
    import mathhammer as mh
    from mathhammer.io.report import build_report
    from mathhammer.views.heatmap import grid

    roster = Path(__file__).parent / "data" / "rosters" / "real" / "orks_11e_attached.json"
    army = mh.read_army(roster)
    frame = build_report(army.loadouts, list(mh.targets.STANDARD))
    rows = grid(frame, "mean_damage").rows
    assert rows and not any(r.endswith(("(ranged) (shooting)", "(melee) (fight)")) for r in rows)
    assert len(rows) == len(set(rows)) == len(army.loadouts)


def test_the_page_is_titled_with_the_lists_not_their_folders(tmp_path: Path) -> None:
    roster = Path(__file__).parent / "data" / "rosters" / "real" / "orks_11e_attached.json"
    folder = Path(__file__).parent / "data" / "bsdata"
    page = tmp_path / "r.html"
    argv = ["report", str(roster), "--targets", str(folder), "--target-faction", "Necrons",
            "--html", str(page), "--no-progress"]  # fmt: skip
    assert main(argv) == 0
    assert "<title>mathhammer report: orks_11e_attached vs Necrons</title>" in page.read_text()


def test_the_csv_writes_noise_below_the_engines_accuracy_as_zero(tmp_path: Path) -> None:
    """P(destroyed) 1.6e-13 of ten marines by one squad is floating-point noise: 0."""
    import csv

    out = tmp_path / "r.csv"
    assert main(["report", "-o", str(out), "--no-progress"]) == 0
    cells = [c for row in csv.reader(out.open()) for c in row]
    numbers = [float(c) for c in cells if _is_number(c)]
    assert numbers and not [x for x in numbers if 0 < abs(x) < 1e-12]
    assert "-0" not in cells


def _is_number(cell: str) -> bool:
    try:
        float(cell)
    except ValueError:
        return False
    return True
