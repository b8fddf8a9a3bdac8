"""The page for list builders: its matrix, its state, and the served page in Chromium.

The matrix's cells are the exact attacks :func:`mathhammer.compare` chooses; the served
page (``mathhammer app``, started here) shows the same numbers, opens the attack behind a
cell, changes when the situation does, reads an uploaded roster and says in one line why
a bad upload is not read. Screenshots at a desktop's and a phone's width are written to
``$MATHHAMMER_ARTIFACTS`` (or the test's temporary folder).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

import mathhammer as mh
from mathhammer.page.layout import PageState, read_upload
from mathhammer.page.matrix import matrix, of_phase
from mathhammer.page.text import _count, cell_text, plan_text
from mathhammer.units.options import choose

ROOT = Path(__file__).resolve().parents[1]
ROSTER = ROOT / "tests" / "data" / "rosters" / "necrons.rosz"
ORKS = ROOT / "tests" / "data" / "rosters" / "orks.rosz"
CATALOGUES = ROOT / "tests" / "data" / "bsdata"


# --------------------------------------------------------------------------- the matrix
def test_each_cell_is_the_units_best_attack_on_that_target() -> None:
    army = mh.read_army(ROSTER)
    ranged = of_phase(army.loadouts, "ranged")
    targets = list(mh.targets.STANDARD)
    frame = matrix(ranged, targets)
    assert frame.index.tolist() == [x.name for x in ranged]
    assert frame.columns.tolist() == [t.name for t in targets]
    for loadout in ranged[:3]:
        for target in targets[:3]:
            want = choose(loadout, target).result.killed.mean()
            assert frame.loc[loadout.name, target.name] == pytest.approx(want, abs=1e-12)


def test_the_phases_split_the_units() -> None:
    army = mh.read_army(ROSTER)
    ranged, melee = of_phase(army.loadouts, "ranged"), of_phase(army.loadouts, "melee")
    assert ranged and melee and not set(ranged) & set(melee)
    assert all(x.name.endswith("(melee)") for x in melee)
    with pytest.raises(mh.OptionError, match="phase must be one of"):
        of_phase(army.loadouts, "psychic")


def test_damage_per_100_points_and_points_destroyed() -> None:
    army = mh.read_army(ROSTER)
    ranged = of_phase(army.loadouts, "ranged")[:2]
    targets = list(mh.targets.STANDARD)[:2]
    per_100 = matrix(ranged, targets, metric="damage_per_100_points")
    points = matrix(ranged, targets, metric="points_destroyed")
    for loadout in ranged:
        for target in targets:
            result = choose(loadout, target).result
            assert loadout.points is not None
            want = 100 * result.damage.mean() / loadout.points
            assert per_100.loc[loadout.name, target.name] == pytest.approx(want, rel=1e-12)
            assert points.loc[loadout.name, target.name] > 0
    with pytest.raises(mh.OptionError, match="metric must be one of"):
        matrix(ranged, targets, metric="style points")


def test_the_state_follows_the_list_and_the_situation() -> None:
    state = PageState(mine=mh.read_army(ROSTER))
    assert state.ruleset == "11e" and not state.context.melee
    still = state.table()
    state.situation = ("half_range",)
    assert (state.table().to_numpy() >= still.to_numpy() - 1e-12).all()
    state.phase = "melee"
    assert state.context.melee and state.context.half_range
    unit, target = state.loadouts[0].name, state.theirs[0].name
    text = cell_text(state, unit, target)
    assert text.startswith(f"### {unit} against {target}")
    assert f"**{state.attack(unit, target).killed.mean():.3f}**" in text


def test_a_cells_check_and_what_it_would_take() -> None:
    state = PageState(mine=mh.read_army(ROSTER))
    unit, target = "Necron Warriors (ranged)", "Horde infantry"
    line = state.check(unit, target)
    rolled, se = (float(x) for x in line.split(": ")[1].split(";")[0].split(" ± "))
    exact = state.attack(unit, target).killed.mean()
    assert line.endswith(f"exact {exact:.3f}") and abs(rolled - exact) <= 5 * se + 1e-3
    loadout = next(x for x in state.loadouts if x.name == unit)
    row = mh.durability(mh.targets.get(target), [loadout]).iloc[0]
    half, most = state.copies(unit, target)
    assert (half, most) == (row["copies_50"], row["copies_90"]) and half <= most
    assert f"what it would take: {half} for 50 %, {most} for 90 %" in cell_text(state, unit, target)
    assert [_count(x) for x in (3, pd.NA, float("nan"))] == ["3", "more than 60", "more than 60"]


def test_a_targets_csv_uploaded_as_their_list() -> None:
    text = (
        "unit,group,models,T,Sv,InSv,W,FNP,keywords,CHARACTER,Ld,points\n"
        "Squad,Troopers,10,4,3+,,1,,INFANTRY,no,,90\n"
    )
    theirs = read_upload("their-targets.csv", text.encode(), "targets")
    assert [t.name for t in theirs.targets] == ["Squad"] and theirs.targets[0].points == 90
    state = PageState(mine=mh.read_army(ROSTER), theirs=list(theirs.targets))
    squad = mh.Unit.of("Squad", 10, 4, 3, 1, keywords="INFANTRY")
    warriors = next(x for x in state.loadouts if x.name.startswith("Necron Warriors"))
    want = choose(warriors, mh.Target(squad, points=90)).result.killed.mean()
    assert state.table().loc[warriors.name, "Squad"] == pytest.approx(want, abs=1e-12)


def test_an_upload_is_read_under_the_importers_limits(tmp_path: Path) -> None:
    army = read_upload("../../etc/necrons.rosz", ROSTER.read_bytes())
    assert [x.name for x in army.loadouts][:1] == ["Overlord (ranged)"]
    assert "etc" not in Path(army.source).parts[-3:]  # the name's folders are dropped
    with pytest.raises(mh.InputFileError):
        read_upload("deep.ros", b"<roster>" + b"<a>" * 200 + b"</a>" * 200 + b"</roster>")


@pytest.mark.system
@pytest.mark.parametrize(
    ("argv", "line"),
    [
        (["--port", "99999"], "argument --port: a port is 1 to 65535; got 99999"),
        (["--port", "http"], "argument --port: expected an integer; got 'http'"),
        (["/no/such/list.rosz"], "/no/such/list.rosz: no such file or folder"),
        ([str(ROSTER), "--targets", "/dev/zero"], "/dev/zero: not a regular file"),
        ([str(CATALOGUES)], "(the source holds several factions: choose one)"),
        (["--host", "no.such.host.invalid", "--port", "1"], "mathhammer: error: "),
    ],
)
def test_the_app_command_refuses_in_one_line(argv: list[str], line: str) -> None:
    """What keeps the page from being served is one line, before any serving."""
    run = subprocess.run(
        [sys.executable, "-m", "mathhammer", "app", *argv],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert run.returncode in (1, 2) and "serving" not in run.stdout
    lines = run.stderr.strip().splitlines()
    assert line in lines[-1] and "Traceback" not in run.stderr


# --------------------------------------------------------------------------- in a browser
def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def served() -> Iterator[str]:
    """``mathhammer app`` with the Necrons roster, on a free port of 127.0.0.1."""
    pytest.importorskip("panel")
    port = _free_port()
    argv = [sys.executable, "-m", "mathhammer", "app", str(ROSTER), "--port", str(port)]
    server = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        assert line.startswith(f"serving on http://127.0.0.1:{port}/"), line
        yield f"http://127.0.0.1:{port}/"
    finally:
        server.terminate()
        server.wait(timeout=20)


def _chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    if os.environ.get("CI"):
        pytest.fail("CI runs the browser tests, but no Chromium is installed")
    pytest.skip("no Chromium (as root: apt-get install chromium)")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        opened = playwright.chromium.launch(executable_path=_chromium(), args=["--no-sandbox"])
        yield opened
        opened.close()


def _cell(page: Any, unit: str, target: str) -> float:
    """The number the matrix shows for ``unit`` against ``target``, once it shows one (a
    column just added may show "-" until its formatter arrives)."""
    row = page.locator(".tabulator-row", has_text=unit).first
    cell = row.locator(f'.tabulator-cell[tabulator-field="{target}"]')
    deadline = time.monotonic() + 30
    while True:
        text = cell.inner_text()
        try:
            return float(text)
        except ValueError:
            assert time.monotonic() < deadline, f"{unit} against {target} shows {text!r}"
            time.sleep(0.2)


def _open(browser: Any, url: str, width: int, height: int) -> Any:
    page = browser.new_page(viewport={"width": width, "height": height})
    page.goto(url)
    page.wait_for_selector(".tabulator-row", state="attached", timeout=60_000)
    page.locator(".tabulator-row", has_text="Necron Warriors").first.wait_for(timeout=30_000)
    return page


ARTIFACTS = os.environ.get("MATHHAMMER_ARTIFACTS")


@pytest.mark.system
def test_the_served_page_shows_the_exact_numbers(served: str, browser: Any, tmp_path: Path) -> None:
    page = _open(browser, served, 1280, 800)
    warriors = next(x for x in mh.read_army(ROSTER).loadouts if x.name.startswith("Necron W"))
    horde = mh.targets.get("Horde infantry")
    exact = choose(warriors, horde).result.killed.mean()
    assert _cell(page, warriors.name, horde.name) == pytest.approx(exact, abs=5e-4)
    row = page.locator(".tabulator-row", has_text=warriors.name).first
    row.locator(f'.tabulator-cell[tabulator-field="{horde.name}"]').click()
    heading = page.get_by_text(f"{warriors.name} against {horde.name}")
    heading.wait_for(timeout=30_000)
    summary = page.locator("p", has_text="expected models destroyed").first.inner_text()
    assert summary.startswith(f"expected models destroyed {exact:.3f}, P(destroyed)")
    page.get_by_role("button", name="Check by Monte Carlo").click()
    rolled = page.locator("p", has_text="Monte Carlo (20,000 trials)").first
    rolled.wait_for(timeout=60_000)
    assert rolled.inner_text().endswith(f"exact {exact:.3f}")
    with page.expect_download() as download:
        page.get_by_role("button", name="Download the matrix (CSV)").click()
    csv = Path(download.value.path()).read_text()
    want = PageState(mine=mh.read_army(ROSTER)).table().to_csv()
    assert csv == want
    with page.expect_download() as download:
        page.get_by_role("button", name="Download this view (HTML)").click()
    report = Path(download.value.path()).read_text()
    assert report == PageState(mine=mh.read_army(ROSTER)).report()
    folder = Path(ARTIFACTS) if ARTIFACTS else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / "page-desktop.png"), full_page=True)
    page.close()
    phone = _open(browser, served, 390, 844)
    phone.screenshot(path=str(folder / "page-phone.png"), full_page=True)
    phone.close()


@pytest.mark.system
def test_the_situation_changes_the_numbers(served: str, browser: Any) -> None:
    page = _open(browser, served, 1280, 800)
    before = _cell(page, "Necron Warriors", "Horde infantry")
    page.get_by_text("within half range").click()
    deadline = time.monotonic() + 30
    while _cell(page, "Necron Warriors", "Horde infantry") == before:
        assert time.monotonic() < deadline, "the number did not change"
        time.sleep(0.2)
    state = PageState(mine=mh.read_army(ROSTER), situation=("half_range",))
    want = state.table().loc["Necron Warriors (ranged)", "Horde infantry"]
    assert _cell(page, "Necron Warriors", "Horde infantry") == pytest.approx(want, abs=5e-4)
    page.close()


@pytest.mark.system
def test_an_upload_replaces_the_list_and_a_bad_one_says_why(
    served: str, browser: Any, tmp_path: Path
) -> None:
    page = _open(browser, served, 1280, 800)
    inputs = page.locator('input[type="file"]')
    inputs.first.set_input_files(str(ORKS))
    first_ork = mh.read_army(ORKS).loadouts[0].name
    page.locator(".tabulator-row", has_text=first_ork).first.wait_for(timeout=30_000)
    bad = tmp_path / "broken.rosz"
    bad.write_bytes(b"PK\x03\x04 not a zip at all")
    inputs.first.set_input_files(str(bad))
    alert = page.locator(".alert-danger", has_text="broken.rosz")
    alert.wait_for(timeout=30_000)
    assert "\n" not in alert.inner_text().strip()
    page.close()


SHARED_ROSTERS = ROOT.parent / "shared" / "data" / "rosters"


@pytest.mark.system
@pytest.mark.parametrize(
    "name", ["11e_orks_breaka_boyz_nr_probhammer.json", "10e_votann_leviathan_prettyscribe.rosz"]
)
def test_a_players_real_export_uploaded_as_their_list(served: str, browser: Any, name: str) -> None:
    """A real export (New Recruit 11e, BattleScribe 10e) as the opponent: the matrix's
    columns become its units, the cells the exact attacks under the page's ruleset."""
    path = SHARED_ROSTERS / name
    if not path.exists():
        if os.environ.get("CI"):
            pytest.fail(f"CI runs the full-data tests, but {path} is missing")
        pytest.skip("the shared data is not beside the repository")
    page = _open(browser, served, 1280, 800)
    page.locator('input[type="file"]').nth(1).set_input_files(str(path))
    theirs = mh.read_army(path)
    first = theirs.targets[0].name
    page.locator(f'.tabulator-cell[tabulator-field="{first}"]').first.wait_for(timeout=60_000)
    state = PageState(mine=mh.read_army(ROSTER), theirs=list(theirs.targets), their_army=theirs)
    want = state.table()
    unit = "Necron Warriors (ranged)"
    assert _cell(page, unit, first) == pytest.approx(want.loc[unit, first], abs=5e-4)
    page.close()


@pytest.mark.system
def test_a_link_restores_the_choices(served: str, browser: Any) -> None:
    """The page's link to its view carries the choices; opened, it shows the same matrix."""
    page = _open(browser, served, 1280, 800)
    page.get_by_text("melee", exact=True).click()
    link = page.get_by_role("link", name="Link to this view")
    link.wait_for(timeout=30_000)
    deadline = time.monotonic() + 30
    while "phase=melee" not in (link.get_attribute("href") or ""):
        assert time.monotonic() < deadline, link.get_attribute("href")
        time.sleep(0.2)
    href = link.get_attribute("href")
    assert href == PageState(phase="melee").query()
    again = browser.new_page(viewport={"width": 1280, "height": 800})
    again.goto(served + str(href))
    row = again.locator(".tabulator-row", has_text="Necron Warriors (melee)").first
    row.wait_for(timeout=60_000)
    want = PageState(mine=mh.read_army(ROSTER), phase="melee").table()
    got = _cell(again, "Necron Warriors (melee)", "Horde infantry")
    assert got == pytest.approx(want.loc["Necron Warriors (melee)", "Horde infantry"], abs=5e-4)
    page.close()
    again.close()


def test_the_states_the_lists_rules_mention_can_be_assumed() -> None:
    orks = mh.read_army(ORKS)
    state = PageState(mine=orks, phase="melee")
    assert "waaagh" in state.states() and "objective" in state.states()
    plain = state.table()
    state.assumed = ("waaagh",)
    waaagh = state.table()
    melee = of_phase(orks.loadouts, "melee")
    context = mh.Context(melee=True, assume={"waaagh"})
    pd.testing.assert_frame_equal(waaagh, matrix(melee, list(mh.targets.STANDARD), context=context))
    assert (waaagh > plain).any().any() and not (waaagh < plain).any().any()
    assert "assumed=%5B%22waaagh%22%5D" in state.query()
    # the drill-down of a cell is its attack in the same situation: stages, rules, copies
    unit, target = "Boyz (melee)", "Elite infantry"
    boyz = next(x for x in melee if x.name == unit)
    result = mh.attack(boyz.weapons, mh.targets.get(target).unit, context=context)
    assert state.attack(unit, target).killed.pmf == pytest.approx(result.killed.pmf, abs=1e-15)
    shown = cell_text(state, unit, target)
    assert f"rules applied: {'; '.join(result.rules_applied)}" in shown
    assert "Waaagh! (melee: +1 A if waaagh)" in result.rules_applied
    for pool in result.pools:
        means = [pool.attacks, pool.hits, pool.wounds, pool.unsaved]
        assert f"| {pool.label} | " + " | ".join(f"{d.mean():.2f}" for d in means) in shown
    attacker = mh.Loadout(unit, boyz.weapons, None, context)
    row = mh.durability(mh.targets.get(target), [attacker]).iloc[0]
    assert state.copies(unit, target) == (row["copies_50"], row["copies_90"])
    state.assumed = ()
    assert state.copies(unit, target)[0] > row["copies_50"]  # more Boyz without the Waaagh!


def test_the_view_as_the_html_report() -> None:
    state = PageState(mine=mh.read_army(ROSTER), phase="melee", metric="points_destroyed")
    page = state.report()
    melee = of_phase(state.mine.loadouts if state.mine else [], "melee")
    assert page.count("<tr data-row=") == len(melee) * len(mh.targets.STANDARD)
    assert "<title>mathhammer: necrons.rosz, melee</title>" in page
    assert "heatmap: points_destroyed" in page
    with pytest.raises(mh.OptionError, match="a list with units in the phase"):
        PageState().report()


def test_the_page_without_a_list_starts_from_the_bundled_examples() -> None:
    pn = pytest.importorskip("panel")
    from mathhammer.io.attackers_csv import example_attackers
    from mathhammer.page.layout import app

    page = app()
    table = next(iter(page.select(pn.widgets.Tabulator))).value
    examples = of_phase(mh.read_army(example_attackers()).loadouts, "ranged")
    assert table.index.tolist() == [x.name for x in examples]
    want = matrix(examples, list(mh.targets.STANDARD))
    pd.testing.assert_frame_equal(table, want)


def test_a_catalogue_faction_against_another() -> None:
    pn = pytest.importorskip("panel")
    from mathhammer.page.layout import app

    page = app(CATALOGUES, CATALOGUES, faction="Necrons", target_faction="Orks")
    table = next(iter(page.select(pn.widgets.Tabulator))).value
    necrons = mh.read_army(CATALOGUES, faction="Necrons")
    orks = mh.read_army(CATALOGUES, faction="Orks")
    want = matrix(of_phase(necrons.loadouts, "ranged"), list(orks.targets))
    pd.testing.assert_frame_equal(table, want)
    assert table.shape == (len(of_phase(necrons.loadouts, "ranged")), len(orks.targets))


@pytest.mark.system
def test_a_bundled_example_replaces_the_list(served: str, browser: Any) -> None:
    from mathhammer.io.attackers_csv import example_attackers

    page = _open(browser, served, 1280, 800)
    group = page.locator(".bk-input-group", has_text="Or a bundled example")
    group.locator("select").select_option("example attackers (classic)")
    classic = of_phase(mh.read_army(example_attackers("classic")).loadouts, "ranged")
    first = classic[0].name
    page.locator(".tabulator-row", has_text=first).first.wait_for(timeout=30_000)
    state = PageState(mine=mh.read_army(example_attackers("classic")))
    target = mh.targets.STANDARD[0].name
    assert _cell(page, first, target) == pytest.approx(state.table().loc[first, target], abs=5e-4)
    page.close()


def test_leaders_as_the_file_attaches_them_and_changed() -> None:
    attached = ROOT / "tests" / "data" / "rosters" / "real" / "orks_11e_attached.json"
    state = PageState(mine=mh.read_army(attached))
    assert state.leading() == {"Beastboss on Squigosaur": "", "Bigboss": "Breaka Boyz"}
    assert [x.name for x in state.loadouts] == [
        "Beastboss on Squigosaur (ranged)", "Breaka Boyz led by Bigboss (ranged)",
    ]  # fmt: skip
    state.lead({"Beastboss on Squigosaur": "", "Bigboss": ""})  # the Bigboss on its own
    assert state.leading() == {"Beastboss on Squigosaur": "", "Bigboss": ""}
    alone = mh.read_army(attached, leaders={})
    assert [x.name for x in state.loadouts] == [x.name for x in of_phase(alone.loadouts, "ranged")]
    pd.testing.assert_frame_equal(state.table(), PageState(mine=alone).table())
    necrons = PageState(mine=mh.read_army(ROSTER))
    necrons.lead({"Overlord": "Necron Warriors", "Royal Warden": ""})
    led = mh.read_army(ROSTER, leaders={"Necron Warriors": ["Overlord"]})
    pd.testing.assert_frame_equal(necrons.table(), PageState(mine=led).table())
    with pytest.raises(mh.OptionError, match="leaders"):  # two leaders, one led by the other
        necrons.lead({"Overlord": "Royal Warden", "Royal Warden": "Immortals"})
    assert necrons.leading() == {"Overlord": "Necron Warriors", "Royal Warden": ""}
    with pytest.raises(mh.OptionError, match="a roster's"):
        PageState().lead({"Overlord": "Necron Warriors"})


# --------------------------------------------------------------------------- the plan
def test_the_plan_is_plan_army_in_the_pages_situation() -> None:
    army = mh.read_army(ROSTER)
    state = PageState(mine=army, situation=("half_range",))
    units = ["Necron Warriors (ranged)", "Immortals (ranged)"]
    plan = state.plan(units, "points_destroyed")
    chosen = [x for x in of_phase(army.loadouts, "ranged") if x.name in units]
    near = mh.Context(half_range=True)
    placed = [mh.Loadout(x.name, x.weapons, x.points, near) for x in chosen]
    want = mh.plan_army(placed, mh.targets.STANDARD, metric="points_destroyed")
    assert plan.value == pytest.approx(want.value, rel=1e-12)
    assert plan.assignment == want.assignment
    far = PageState(mine=army).plan(units, "points_destroyed")
    assert far.value != pytest.approx(plan.value)  # the gauss weapons' rapid fire at half range
    text = plan_text(plan)
    assert f"**{plan.value:.3f}** with this plan; {plan.naive:.3f} with everything at" in text


def test_what_neither_reader_understood_is_listed() -> None:
    mine, theirs = mh.read_army(ROSTER), mh.read_army(ORKS)
    state = PageState(mine=mine, theirs=list(theirs.targets), their_army=theirs)
    listed = state.not_understood()
    assert mine.report is not None and theirs.report is not None
    ours = [f"{u}: {r}" for u, r, _ in mine.report.not_understood]
    others = [f"theirs: {u}: {r}" for u, r, _ in theirs.report.not_understood]
    assert ours and others and listed == [str(x) for x in mine.unknown_abilities] + ours + others
    assert "theirs: Battlewagon: ’Ard Case" in listed


def test_a_plan_i_choose_is_scored_beside_the_naive_one() -> None:
    army = mh.read_army(ROSTER)
    state = PageState(mine=army)
    units = ["Necron Warriors (ranged)", "Doomsday Ark (ranged)"]
    chosen = ["Horde infantry", "Vehicle"]
    mine = state.plan(units, "mean_killed", targets=chosen)
    loadouts = {x.name: x for x in of_phase(army.loadouts, "ranged")}
    names = [t.name for t in mh.targets.STANDARD]
    # each unit alone at its own target: the expected kills add up
    want = sum(
        mh.attack(loadouts[u].weapons, mh.targets.get(t).unit).killed.mean()
        for u, t in zip(units, chosen, strict=True)
    )
    assert mine.value == pytest.approx(want, rel=1e-12)
    assert mine.method == "given" and {names[t] for t in mine.assignment} == set(chosen)
    best = state.plan(units, "mean_killed")
    assert mine.value <= best.value and mine.naive == best.naive
    assert f"**{mine.value:.3f}** with your plan; {mine.naive:.3f} with" in plan_text(mine)
    with pytest.raises(mh.OptionError, match="targets must be targets among"):
        state.plan(units, targets=["Horde infantry", "Titan"])
    with pytest.raises(mh.OptionError, match="targets must be one for each of 2 units"):
        state.plan(units, targets=["Horde infantry"])


@pytest.mark.parametrize(
    "units, metric, error",
    [
        ([], "mean_killed", "units must be at least one unit"),
        (["Nobody"], "mean_killed", "units must be units of"),
        (["Immortals (ranged)"], "mean_damage", "metric must be one of"),
    ],
)
def test_a_plan_of_nothing_or_by_an_unknown_metric_is_one_line(
    units: list[str], metric: str, error: str
) -> None:
    with pytest.raises(mh.OptionError, match=error):
        PageState(mine=mh.read_army(ROSTER)).plan(units, metric)


@pytest.mark.system
def test_the_page_plans_and_a_long_plan_can_be_cancelled(served: str, browser: Any) -> None:
    page = _open(browser, served, 1280, 800)
    army = mh.read_army(ROSTER)
    ranged = [x.name for x in of_phase(army.loadouts, "ranged")]
    for name in ranged:  # every unit: a local search of some seconds
        page.get_by_role("checkbox", name=name, exact=True).check()
    page.get_by_role("button", name="Best plan").click()
    page.get_by_role("button", name="Cancel").click()
    page.get_by_text("Cancelled.").wait_for(timeout=60_000)
    for name in ranged[2:]:
        page.get_by_role("checkbox", name=name, exact=True).uncheck()
    page.get_by_role("button", name="Best plan").click()
    shown = page.locator("p", has_text="with this plan").first
    try:
        shown.wait_for(timeout=60_000)
    except Exception as exc:  # what the page shows instead: a lost click, a search still on
        start = page.get_by_role("button", name="Best plan")
        said = page.locator("p").all_inner_texts()[-2:]  # the hint, then the plan's line
        raise AssertionError(f"no plan: start enabled {start.is_enabled()}, {said}") from exc
    plan = PageState(mine=army).plan(ranged[:2])
    assert shown.inner_text().startswith(f"expected models destroyed: {plan.value:.3f} with")
    # my own plan: the first unit at the vehicle, the second at the horde
    chosen = ["Vehicle", "Horde infantry"]
    for name, target in zip(ranged[:2], chosen, strict=True):
        page.get_by_role("combobox", name=name, exact=True).select_option(target)
    page.get_by_role("button", name="Score my plan").click()
    mine = page.locator("p", has_text="with your plan").first
    mine.wait_for(timeout=60_000)
    scored = PageState(mine=army).plan(ranged[:2], targets=chosen)
    assert mine.inner_text().startswith(f"expected models destroyed: {scored.value:.3f} with")
    page.close()


@pytest.mark.system
def test_a_leader_attached_in_the_page(served: str, browser: Any) -> None:
    page = _open(browser, served, 1280, 800)
    group = page.locator(".bk-input-group", has_text="Overlord")
    group.locator("select").select_option("Necron Warriors")
    led = "Necron Warriors led by Overlord (ranged)"
    page.locator(".tabulator-row", has_text=led).first.wait_for(timeout=30_000)
    want = PageState(mine=mh.read_army(ROSTER, leaders={"Necron Warriors": "Overlord"}))
    target = "Horde infantry"
    assert _cell(page, led, target) == pytest.approx(want.table().loc[led, target], abs=5e-4)
    page.close()
