"""The HTML report: one self-contained file, checked as text and in a real headless browser.

The browser tests open the file in Debian's Chromium, driven by Playwright (whose own
browser downloads cannot be fetched here, so it is pointed at the system's Chromium). A
clone without Chromium or Playwright skips them, saying why; under CI (``CI`` set) their
absence is a failure, since ``.ci/run`` installs Chromium.
"""

from __future__ import annotations

import os
import shutil
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import numpy as np
import pandas as pd
import pytest

import mathhammer as mh
from mathhammer.io.report_html import write_html_report
from mathhammer.views.heatmap import colour_scale, heatmap_svg, viridis
from mathhammer.views.report_html import report_html, spark_svg

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

BOLT = mh.Weapon("Bolt rifle", attacks=2, skill=3, strength=4, ap=-1, damage=1)
LASCANNON = mh.Weapon("Lascannon", attacks=1, skill=3, strength=12, ap=-3, damage="D6+1")
LOADOUTS = [
    mh.Loadout("bolters", [(BOLT, 10)], points=160),
    mh.Loadout("lascannons", [(LASCANNON, 2)], points=120),
    mh.Loadout("mixed <b>&", [(BOLT, 5), (LASCANNON, 1)], points=140),
]
TARGETS = ["Horde infantry", "Elite infantry", "Vehicle"]
#: Chromium's flags for a closed network: no background connections, no sandbox as root.
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="module")
def report() -> tuple[Any, list[mh.AttackResult]]:
    frame = mh.compare(LOADOUTS, [mh.targets.get(t) for t in TARGETS])
    units = {t: mh.targets.get(t).unit for t in TARGETS}
    by_name = {loadout.name: loadout for loadout in LOADOUTS}
    results = [
        mh.attack(by_name[row.loadout].weapons, units[row.target])
        for row in frame.itertuples(index=False)
    ]
    return frame, results


# --------------------------------------------------------------------------- as text
def test_the_page_is_self_contained(report: tuple[Any, list[mh.AttackResult]]) -> None:
    frame, results = report
    page = report_html(frame, title="Army <test>", rules="11e", results=results)
    assert page.startswith("<!DOCTYPE html>") and page.count("<tr data-row=") == len(frame)
    outside = page.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert "http" not in outside and "src=" not in outside and "@import" not in outside
    assert '<link rel="icon" href="data:,">' in page  # else the browser asks for a favicon
    assert "<title>Army &lt;test&gt;</title>" in page
    assert "mixed &lt;b&gt;&amp;" in page and "mixed <b>" not in page
    assert page.count('class="spark"') == len(frame) and page.count('class="cell"') == 9


def test_numbers_carry_their_value_for_sorting() -> None:
    frame = pd.DataFrame(
        {
            "loadout": ["a", "b"],
            "target": ["x", "x"],
            "loadout_points": [160.0, np.nan],
            "mean_killed": [1.23456, 2.0],
            "unknown_abilities": ["LETHAL HIT", np.nan],
        }
    )
    page = report_html(frame)
    assert '<td class="number" data-value="160.0">160</td>' in page  # whole: no decimals
    assert '<td class="number" data-value="">' in page  # NaN: blank, sorted last
    assert '<td class="number" data-value="1.23456">1.235</td>' in page
    assert "<td>LETHAL HIT</td>" in page and "<td></td>" in page
    assert "P(≥k)" not in page  # no distributions given, no chart column


def test_each_row_charts_what_matters_against_its_target() -> None:
    frame = pd.DataFrame({"loadout": ["a"] * 4, "target": list("wxyz"), "mean_killed": 1.0})
    squad = mh.attack([(BOLT, 10)], mh.Unit.of("Squad", 5, 4, 3, 2))
    tank = mh.attack([(BOLT, 10)], mh.Unit.of("Tank", 1, 10, 3, 12))
    page = report_html(frame, results=[squad, tank, None, mh.Dist([0.5, 0.5])])
    assert page.count('class="spark"') == 3
    assert "<title>P(≥1) = 0.500</title>" in page  # a plain distribution: no unit to name
    assert "5 models destroyed</text>" in page  # P(>= k) up to the squad's 5 models
    assert "wounds lost</text>" in page  # one model: wounds lost, not a 0..1 axis
    assert '<td class="chart"></td>' in page  # no distribution for the third row


def test_a_spark_line_is_the_survival_curve() -> None:
    svg = spark_svg(mh.Dist([0.25, 0.5, 0.25]), "hits")
    # P(>= k) = 1, 0.75, 0.25 for k = 0, 1, 2: a plot 132 px wide from x = 4 and 24 px
    # high from y = 4 (1 at the top)
    assert 'points="4.0,4.0 70.0,10.0 136.0,22.0"' in svg
    assert "P(≥1 hits) = 0.750; P(≥2 hits) = 0.250" in svg
    wide = spark_svg(mh.Dist.binomial(100, 0.5), "")
    assert "<circle" not in wide and "<polyline" in wide  # too many points for markers


def test_the_report_refuses_what_it_cannot_show(
    report: tuple[Any, list[mh.AttackResult]],
) -> None:
    frame, results = report
    with pytest.raises(mh.DistributionError, match=r"results must be one entry .*9 rows.*8"):
        report_html(frame, results=results[:-1])
    with pytest.raises(mh.DistributionError, match="frame must be a report with at least one"):
        report_html(frame.iloc[:0])


def test_the_file_is_replaced_whole(tmp_path: Path) -> None:
    frame = pd.DataFrame({"loadout": ["a"], "target": ["x"], "mean_killed": [1.0]})
    path = write_html_report(frame, tmp_path / "r.html", title="first")
    assert path == tmp_path / "r.html" and "<h1>first</h1>" in path.read_text(encoding="utf-8")
    umask = os.umask(0)
    os.umask(umask)
    assert path.stat().st_mode & 0o777 == 0o666 & ~umask
    (tmp_path / "d.html").mkdir()  # a directory in the way: refused before any write
    with pytest.raises(mh.OptionError, match="path must be a file name, not a folder"):
        write_html_report(frame, tmp_path / "d.html")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d.html", "r.html"]


def test_the_library_writer_keeps_links_devices_and_read_only_files(tmp_path: Path) -> None:
    frame = pd.DataFrame({"loadout": ["a"], "target": ["x"], "mean_killed": [1.0]})
    real = tmp_path / "real.html"
    real.write_text("old", encoding="utf-8")
    link = tmp_path / "link.html"
    link.symlink_to(real)
    assert write_html_report(frame, link, title="linked") == real
    assert link.is_symlink() and "<h1>linked</h1>" in real.read_text(encoding="utf-8")
    before = os.stat("/dev/null")
    assert write_html_report(frame, "/dev/null") == Path("/dev/null")
    after = os.stat("/dev/null")
    assert stat.S_ISCHR(after.st_mode) and after.st_ino == before.st_ino
    real.chmod(0o444)
    with pytest.raises(mh.OptionError, match="writable file.*force=True"):
        write_html_report(frame, real, title="refused")
    assert "<h1>linked</h1>" in real.read_text(encoding="utf-8")
    write_html_report(frame, real, title="forced", force=True)
    assert "<h1>forced</h1>" in real.read_text(encoding="utf-8")
    assert stat.S_IMODE(real.stat().st_mode) == 0o444
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.html", "real.html"]


def test_the_svg_heatmap_matches_the_colour_scale() -> None:
    frame = pd.DataFrame(
        {
            "loadout": ["a", "a", "b", "b"],
            "target": ["x", "y", "x", "y"],
            "mean_killed": [4.0, 0.0, 1.0, np.nan],
            "rules": ["11e", "classic", "11e", "11e"],
        }
    )
    svg = heatmap_svg(frame, "mean_killed")
    cells = svg.split('<rect class="cell"')[1:]
    colours = [cell.split('fill="')[1].split('"')[0] for cell in cells]
    # column x: 4 is its best, 1 a quarter; column y: only zeros (no scale), and a gap
    assert colours == [viridis(1.0), viridis(0.0), viridis(0.25), "#dddddd"]
    assert "mean killed</text>" in svg  # two rulesets in the frame: none named
    assert "colour: scaled per target column" in svg
    levels = colour_scale(np.array([[-2.0, np.nan], [2.0, np.nan]]), "mc_z").levels
    assert levels[:, 0].tolist() == [0.0, 1.0] and np.isnan(levels[:, 1]).all()


# --------------------------------------------------------------------------- in a browser
def _unavailable(reason: str) -> NoReturn:
    if os.environ.get("CI"):
        pytest.fail(f"CI runs the browser tests, but {reason}")
    pytest.skip(reason)


def _chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("Playwright is not installed (pip install -e '.[test]')")
    executable = _chromium()
    if executable is None:
        _unavailable(
            "no Chromium to open the HTML report in (as root: apt-get install chromium; "
            "Playwright's own browser download cannot be used here)"
        )
    with sync_playwright() as playwright:
        opened = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_FLAGS)
        yield opened
        opened.close()


def _column(page: Page, name: str) -> list[str]:
    """The cells of the column headed ``name``, top to bottom, as the page shows them."""
    script = """(name) => {
        const heads = Array.from(document.querySelectorAll("table.report thead th"));
        const column = heads.findIndex((th) => th.textContent.replace(/ [▲▼]$/, "") === name);
        return Array.from(document.querySelectorAll("table.report tbody tr"),
                          (row) => row.cells[column].textContent);
    }"""
    cells: list[str] = page.evaluate(script, name)
    return cells


@pytest.mark.system
def test_the_report_renders_and_sorts_in_a_browser(
    browser: Browser, report: tuple[Any, list[mh.AttackResult]], tmp_path: Path
) -> None:
    frame, results = report
    path = write_html_report(frame, tmp_path / "report.html", rules="11e", results=results)
    page = browser.new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}"))
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.on(
        "request",
        lambda r: None if r.url.startswith(("file:", "data:")) else problems.append(r.url),
    )
    page.goto(path.as_uri())

    assert page.locator("table.report tbody tr").count() == len(frame) == 9
    assert _column(page, "loadout")[:3] == ["bolters"] * 3
    # the charts are drawn: every row's P(>= k) line and every heatmap cell has a size
    for selector, count in (("svg.spark polyline", 9), ("svg.heatmap rect.cell", 9)):
        shapes = page.locator(selector)
        assert shapes.count() == count
        for i in range(count):
            box = shapes.nth(i).bounding_box()
            assert box is not None and box["width"] > 0 and box["height"] > 0
    assert page.locator("svg.heatmap").bounding_box() is not None

    header = page.locator("table.report thead th", has_text="mean_killed")
    header.click()
    ascending = sorted(frame["mean_killed"])
    assert [float(x) for x in _column(page, "mean_killed")] == pytest.approx(ascending, abs=5e-4)
    assert header.get_attribute("aria-sort") == "ascending"
    header.click()
    assert [float(x) for x in _column(page, "mean_killed")] == pytest.approx(
        ascending[::-1], abs=5e-4
    )
    assert header.get_attribute("aria-sort") == "descending"
    page.locator("table.report thead th", has_text="target").first.click()
    assert _column(page, "target") == sorted(frame["target"])
    # a row moves whole: its loadout, numbers and chart stay together
    vehicle = page.locator("table.report tbody tr").nth(8)
    assert "Vehicle" in vehicle.inner_text()
    assert "wounds lost" in vehicle.locator("svg.spark").inner_html()
    page.locator("th.nosort").click()  # the chart column does not sort
    assert _column(page, "target") == sorted(frame["target"])
    assert problems == []
    page.close()


def test_a_large_report_shows_its_first_rows_with_a_note() -> None:
    """11,155 rows made a 23 MB page: the table keeps the first MAX_PAGE_ROWS rows."""
    import pandas as pd

    from mathhammer.views.report_html import MAX_PAGE_ROWS, report_html

    rows = MAX_PAGE_ROWS + 500
    frame = pd.DataFrame({"loadout": [f"unit {i // 50}" for i in range(rows)],
                          "target": [f"target {i % 50}" for i in range(rows)],
                          "mean_killed": [i / rows for i in range(rows)]})  # fmt: skip
    charts = [mh.Dist([0.5, 0.5])] * rows
    page = report_html(frame, results=charts)
    assert page.count("<tr data-row=") == MAX_PAGE_ROWS
    assert f"the first {MAX_PAGE_ROWS:,} of {rows:,} rows" in page
    small = report_html(frame.iloc[:10], results=charts[:10])
    assert "the first" not in small and small.count("<tr data-row=") == 10
    assert report_html(frame, results=charts, max_rows=5).count("<tr data-row=") == 5
