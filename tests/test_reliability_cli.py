"""Reliability of the command line: every subcommand and option, given hostile values,
gives output or one clean error line, within a time and memory budget, and harms no file.

The argument lists run in batches in a capped child (:func:`guarded.run_batch`), each by
:func:`mathhammer.cli.main` as the console runs it, with its output caught at the file
descriptors, and checked by :func:`hostile.problems`: exit status 0, 1 or 2 in time; no
traceback; a failure's last line ``mathhammer[ command]: error: ...``, under 500
characters; no temporary file left behind; no read-only file replaced without --force.

Paths are tokens of the child's sandbox (``@army``, ``@fifo``, ``@readonly``: see
``reliability_child.py``); every output lands in the sandbox.
"""

from __future__ import annotations

import argparse
import csv
from pathlib import Path

import pytest
from hostile import (
    CLI_TEXT,
    LONG,
    NUMBER_TEXT_VALUES,
    NUMBER_TEXTS,
    QUICK,
    TEXT_VALUES,
    TEXTS,
    check_runs,
    run_cli,
)
from hypothesis import given
from hypothesis import strategies as st

from mathhammer.results.columns import METRIC_COLUMNS

# ------------------------------------------------------------------ values of the options
#: Inputs: the real test data of every kind, the sandbox's hostile paths, and text.
INPUT_TOKENS = [
    "@army",
    "@examples",
    "@classic",
    "@roster",
    "@orks",
    "@ros",
    "@rosterjson",
    "@bsdata",
    "@catalogue",
    "@wahapedia",
    "@targets",
    "@suite",
    "@suitefile",
    "@missing_input",
    "@empty",
    "@binary",
    "@folder",
    "@fifo",
    "@socket",
    "@loop",
    "@dangling",
    "@link",
    "@readonly",
    "@long",
    "@under_file",
    "@devzero",
    "@devnull",
    "@stdin",
    "@proc",
    "@root",
]
INPUTS = st.one_of(st.sampled_from(INPUT_TOKENS), CLI_TEXT)
OUTPUT_TOKENS = [
    "@new",
    "@unicode",
    "@readonly",
    "@folder",
    "@out_fifo",
    "@loop",
    "@dangling",
    "@link",
    "@socket",
    "@under_file",
    "@no_folder",
    "@long",
    "",
    " ",
]
OUTPUTS = st.sampled_from(OUTPUT_TOKENS)
PLOTS = st.sampled_from(["@new_png", "@new_svg", "@new_pgf", "@readonly_png", *OUTPUT_TOKENS])
PAGES = st.sampled_from(["@new_html", "@readonly_html", *OUTPUT_TOKENS])
FACTIONS = st.one_of(
    st.sampled_from(["Orks", "Necrons", "Tyranids", "orks", "Adeptus Mechanicus", "T\u2019au"]),
    CLI_TEXT,
)
LEADS = st.one_of(
    st.sampled_from(["Necron Warriors=Overlord", "=", "a=", "=b", "a=b=c", " = "]),
    CLI_TEXT,
    st.tuples(CLI_TEXT, CLI_TEXT).map("=".join),
)
RULES = st.one_of(st.sampled_from(["11e", "classic", "11E", "10e", "auto"]), TEXTS)
STATES = st.one_of(st.sampled_from(["riled up", "waaagh", "Riled Up!", "objective", ""]), CLI_TEXT)
METRICS = st.one_of(st.sampled_from(METRIC_COLUMNS), CLI_TEXT)


def small_or_refused(most: int) -> st.SearchStrategy[str]:
    """Numbers as typed, but no valid count above ``most`` (a run that long is no leak)."""

    def fits(text: str) -> bool:
        try:
            return not most < int(text) <= 10**7
        except ValueError:
            return True

    numbers = [text for text in NUMBER_TEXT_VALUES if fits(text)]
    return st.one_of(st.sampled_from(numbers), st.integers(-20, min(most, 40)).map(str))


#: The options of ``report`` (flags map to None) and their hostile values.
REPORT_OPTIONS: dict[str, st.SearchStrategy[str] | None] = {
    "--targets": INPUTS,
    "--faction": FACTIONS,
    "--target-faction": FACTIONS,
    "--lead": LEADS,
    "--situation": st.one_of(st.sampled_from(["far", "close", "close+stationary"]), CLI_TEXT),
    "--assume": STATES,
    "--half-range": None,
    "--stationary": None,
    "--charged": None,
    "--in-cover": None,
    "--strict": None,
    "--import-report": None,
    "-o": OUTPUTS,
    "--plot": PLOTS,
    "--metric": METRICS,
    "--html": PAGES,
    "--check-trials": small_or_refused(5000),
    "--jobs": small_or_refused(4),
    "--seed": NUMBER_TEXTS,
    "--no-progress": None,
    "--force": None,
    "--rules": RULES,
}
DATASHEETS_OPTIONS: dict[str, st.SearchStrategy[str] | None] = {
    "--faction": FACTIONS,
    "--search": CLI_TEXT,
    "--strict": None,
    "--import-report": None,
}
ATTACK_OPTIONS: dict[str, st.SearchStrategy[str] | None] = {
    "--name": CLI_TEXT,
    "-A": CLI_TEXT,
    "--skill": CLI_TEXT,
    "-S": NUMBER_TEXTS,
    "--ap": NUMBER_TEXTS,
    "-D": CLI_TEXT,
    "--abilities": CLI_TEXT,
    "--count": NUMBER_TEXTS,
    "--melee": None,
    "--target": st.one_of(st.sampled_from(["Line infantry", "vehicle", "Monster"]), CLI_TEXT),
    "--modify": None,
    "--models": NUMBER_TEXTS,
    "-T": NUMBER_TEXTS,
    "--save": CLI_TEXT,
    "-W": NUMBER_TEXTS,
    "--invuln": CLI_TEXT,
    "--fnp": CLI_TEXT,
    "--keywords": CLI_TEXT,
    "--leadership": CLI_TEXT,
    "--half-range": None,
    "--stationary": None,
    "--charged": None,
    "--cover": None,
    "--trials": small_or_refused(10**7),
    "--seed": NUMBER_TEXTS,
    "--plot": PLOTS,
    "--force": None,
    "--rules": RULES,
}
DURABILITY_OPTIONS: dict[str, st.SearchStrategy[str] | None] = {
    "--attackers": st.one_of(st.sampled_from(["@suitefile", "@attackersuite", "@army"]), INPUTS),
    "--faction": FACTIONS,
    "--attacker-faction": FACTIONS,
    "--half-range": None,
    "--stationary": None,
    "--charged": None,
    "--in-cover": None,
    "--strict": None,
    "--max-copies": small_or_refused(8),
    "-o": OUTPUTS,
    "--plot": PLOTS,
    "--metric": st.one_of(st.sampled_from(["copies_50", "p_destroyed"]), CLI_TEXT),
    "--force": None,
    "--rules": RULES,
}
PLAN_OPTIONS: dict[str, st.SearchStrategy[str] | None] = {
    "--targets": INPUTS,
    "--metric": st.one_of(
        st.sampled_from(["killed", "points", "at_least:1", "destroyed:Guard", "at_least:x"]),
        CLI_TEXT,
    ),
    "--phase": st.one_of(st.sampled_from(["shooting", "fight"]), CLI_TEXT),
    "--faction": FACTIONS,
    "--target-faction": FACTIONS,
    "--no-progress": None,
    "--assume": STATES,
    "--half-range": None,
    "--stationary": None,
    "--charged": None,
    "--in-cover": None,
    "--strict": None,
    "-o": OUTPUTS,
    "--force": None,
    "--rules": RULES,
}
DETACHMENTS_OPTIONS: dict[str, st.SearchStrategy[str] | None] = {
    "--catalogue": INPUTS,
    "--faction": FACTIONS,
    "--targets": INPUTS,
    "--target-faction": FACTIONS,
    "--assume": STATES,
    "--half-range": None,
    "--stationary": None,
    "--charged": None,
    "--in-cover": None,
    "--rank-by": st.one_of(
        st.sampled_from(["mean_damage", "mean_killed", "points_destroyed"]), CLI_TEXT
    ),
    "--strict": None,
    "-o": OUTPUTS,
    "--force": None,
    "--rules": RULES,
}
SWEEP_OPTIONS: dict[str, st.SearchStrategy[str] | None] = {
    "--targets": INPUTS,
    "--faction": FACTIONS,
    "--target-faction": FACTIONS,
    "--contexts": INPUTS,
    "-o": OUTPUTS,
    "--resume": None,
    "--jobs": st.one_of(st.sampled_from(["1", "2"]), CLI_TEXT),
    "--dask": None,
    "--scheduler": CLI_TEXT,
    "--check-trials": small_or_refused(200),
    "--seed": NUMBER_TEXTS,
    "--no-progress": None,
    "--strict": None,
    "--rules": RULES,
}
DEMO_OPTIONS: dict[str, st.SearchStrategy[str] | None] = {
    "--trials": small_or_refused(20_000),
    "--seed": NUMBER_TEXTS,
    "--rules": RULES,
}
#: app serves until stopped: its refusals are tried in tests/test_page.py instead.
APP_OPTIONS: dict[str, st.SearchStrategy[str] | None] = {
    "--targets": None,
    "--faction": None,
    "--target-faction": None,
    "--port": None,
    "--host": None,
}
#: The quick profile's Monte Carlo: a few thousand trials at most (the long profile runs
#: the limits' edges, ten million trials of an attack, and demo's default).
QUICK_TRIALS = small_or_refused(2000)


@st.composite
def options(
    draw: st.DrawFn, table: dict[str, st.SearchStrategy[str] | None], most: int = 4
) -> list[str]:
    """Some options of ``table``, each with a value drawn for it (a flag alone)."""
    argv: list[str] = []
    for flag in draw(st.lists(st.sampled_from(sorted(table)), max_size=most, unique=True)):
        values = table[flag]
        argv += [flag] if values is None else [flag, draw(values)]
    return argv


@st.composite
def report_runs(draw: st.DrawFn, edge: bool = False) -> list[str]:
    attackers = draw(st.one_of(st.just([]), INPUTS.map(lambda a: [a])))
    argv = ["report", *attackers, *draw(options(REPORT_OPTIONS)), "--no-progress"]
    if edge and draw(st.booleans()):  # the most workers, and the most trials of a check
        argv += draw(st.sampled_from([["--jobs", "256"], ["--check-trials", "20000"]]))
    return argv


@st.composite
def datasheets_runs(draw: st.DrawFn) -> list[str]:
    return ["datasheets", draw(INPUTS), *draw(options(DATASHEETS_OPTIONS))]


#: A valid attack: the options drawn change it, or add to it.
ATTACK = {"-A": "2", "--skill": "3+", "-S": "4", "--ap": "-1", "-D": "1", "--count": "5"}


@st.composite
def durability_runs(draw: st.DrawFn) -> list[str]:
    targets = draw(st.one_of(st.just([]), INPUTS.map(lambda a: [a])))
    return ["durability", *targets, *draw(options(DURABILITY_OPTIONS))]


@st.composite
def plan_runs(draw: st.DrawFn) -> list[str]:
    attackers = draw(st.one_of(st.just([]), INPUTS.map(lambda a: [a])))
    return ["plan", *attackers, *draw(options(PLAN_OPTIONS))]


@st.composite
def detachments_runs(draw: st.DrawFn) -> list[str]:
    required = ["--catalogue", draw(INPUTS)]
    return ["detachments", draw(INPUTS), *required, *draw(options(DETACHMENTS_OPTIONS))]


@st.composite
def sweep_runs(draw: st.DrawFn) -> list[str]:
    required = ["--targets", draw(INPUTS), "-o", draw(OUTPUTS)]
    return ["sweep", draw(INPUTS), *required, *draw(options(SWEEP_OPTIONS, most=3))]


@st.composite
def demo_runs(draw: st.DrawFn, edge: bool) -> list[str]:
    trials = [] if edge else ["--trials", draw(QUICK_TRIALS)]
    return ["demo", *trials, *draw(options(DEMO_OPTIONS))]


@st.composite
def attack_runs(draw: st.DrawFn, edge: bool = False) -> list[str]:
    base = dict(ATTACK)
    if draw(st.booleans()):
        base["--target"] = "Line infantry"
    else:
        base.update({"--models": "10", "-T": "4", "--save": "3+", "-W": "2"})
    argv = ["attack", *[x for kv in base.items() for x in kv]]
    argv += draw(options(ATTACK_OPTIONS, most=5))
    if not edge and "--trials" in argv:  # the last of a repeated option counts
        argv += ["--trials", draw(QUICK_TRIALS)]
    return argv


def runs(edge: bool) -> st.SearchStrategy[list[str]]:
    """A command line of any subcommand; with ``edge``, Monte Carlo runs at their limits."""
    return st.one_of(
        report_runs(edge),
        report_runs(edge),
        datasheets_runs(),
        attack_runs(edge),
        demo_runs(edge),
        durability_runs(),
        plan_runs(),
        detachments_runs(),
        sweep_runs(),
        st.lists(CLI_TEXT, max_size=3),
    )


RUNS = runs(edge=False)


# ------------------------------------------------------------------ the tests
@QUICK
@given(st.lists(RUNS, min_size=40, max_size=50))
def test_every_command_and_option_gives_output_or_one_clean_line(runs: list[list[str]]) -> None:
    check_runs(runs)


@pytest.mark.slow
@LONG
@given(st.lists(runs(edge=True), min_size=40, max_size=60))
def test_every_command_and_option_long(runs: list[list[str]]) -> None:
    check_runs(runs)


def test_every_option_of_every_command_is_tried() -> None:
    """The tables above name every option the parser has: a new one is tried at once."""
    from mathhammer.cli import build_parser

    parser = build_parser()
    (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    commands: dict[str, argparse.ArgumentParser] = sub.choices
    tables = {
        "report": REPORT_OPTIONS,
        "datasheets": DATASHEETS_OPTIONS,
        "attack": ATTACK_OPTIONS,
        "demo": DEMO_OPTIONS,
        "durability": DURABILITY_OPTIONS,
        "plan": PLAN_OPTIONS,
        "detachments": DETACHMENTS_OPTIONS,
        "sweep": SWEEP_OPTIONS,
        "targets": {},
        "app": APP_OPTIONS,
    }
    assert set(commands) == set(tables)
    for name, command in commands.items():
        flags = {a.option_strings[0] for a in command._actions if a.option_strings}
        assert flags - {"-h"} == set(tables[name]), name


def test_every_path_as_every_input_and_output() -> None:
    """Each hostile path as the attackers, the targets, the datasheets' source and each
    output of ``report`` and ``attack``: deterministic, so none is left to chance."""
    army = ["report", "@army", "--targets", "@targets"]
    runs = [["report", token, "--targets", "@targets"] for token in INPUT_TOKENS]
    runs += [["report", "@army", "--targets", token] for token in INPUT_TOKENS]
    runs += [["datasheets", token] for token in INPUT_TOKENS]
    runs += [["durability", token, "--max-copies", "3"] for token in INPUT_TOKENS]
    runs += [["plan", token, "--targets", "@targets"] for token in INPUT_TOKENS]
    runs += [["plan", "@army", "--targets", token] for token in INPUT_TOKENS]
    runs += [["plan", "@army", "--targets", "@targets", "-o", token] for token in OUTPUT_TOKENS]
    runs += [["detachments", token, "--catalogue", "@bsdata"] for token in INPUT_TOKENS]
    runs += [["detachments", "@orks", "--catalogue", token] for token in INPUT_TOKENS]
    runs += [["durability", "--attackers", token, "--max-copies", "3"] for token in INPUT_TOKENS]
    sweep = ["sweep", "@army", "--targets", "@targets", "--quiet"]
    runs += [[*sweep, "-o", token] for token in OUTPUT_TOKENS]
    runs += [["sweep", token, "--targets", "@targets", "-o", "@new"] for token in INPUT_TOKENS]
    runs += [[*sweep, "-o", "@new", "--contexts", token] for token in INPUT_TOKENS]
    for token in OUTPUT_TOKENS:
        runs += [[*army, "-o", token], [*army, "-o", token, "--force"]]
        runs += [[*army, "--html", token], [*army, "--plot", token, "-o", "@new"]]
    runs += [[*army, "--plot", "@readonly_png"], [*army, "--plot", "@new_pgf"]]
    runs += [[*army, "--html", "@readonly_html", "--force"], [*army, "-o", "@new", "--jobs", "2"]]
    runs += [[*ATTACK_ARGV, "--plot", token] for token in ["@new_png", "@readonly_png", "@folder"]]
    durable = ["durability", "@targets", "--max-copies", "3"]
    runs += [[*durable, "-o", token] for token in OUTPUT_TOKENS]
    runs += [[*durable, "--plot", token] for token in ["@new_png", "@readonly_png", "@new_svg"]]
    check_runs(runs)


ATTACK_ARGV = ["attack", *[x for kv in ATTACK.items() for x in kv], "--target", "Line infantry"]


def test_the_army_options_with_every_army_source() -> None:
    """--faction, --target-faction, --lead, --strict and --import-report with the sources
    they apply to (rosters, catalogues, the export) as attackers and as targets."""
    sources = ["@roster", "@orks", "@ros", "@rosterjson", "@bsdata", "@catalogue", "@wahapedia"]
    factions = ["Necrons", "orks", "Nowhere", "", "\u202e", "Tyranids"]
    leads = ["Necron Warriors=Overlord", "Overlord=Necron Warriors", "a=b", "Boyz=Boyz"]
    runs = []
    for n, source in enumerate(sources):
        faction = factions[n % len(factions)]
        runs += [["report", source, "--faction", faction, "--import-report", "-o", "@new"]]
        runs += [["report", "@army", "--targets", source, "--target-faction", faction]]
        runs += [["report", "@army", "--targets", source, "--lead", leads[n % len(leads)]]]
        runs += [["report", source, "--targets", source, "--strict", "--faction", "Necrons"]]
        runs += [["datasheets", source, "--search", faction, "--faction", "Orks", "--strict"]]
    runs += [["report", "@army", "--lead", "a=b"], ["report", "@army", "--targets", "@roster"]]
    check_runs(runs)


def test_hostile_names_give_every_output(tmp_path: Path) -> None:
    """Units and weapons named with every hostile text that is a name at all: the report,
    its heatmap (matplotlib reads ``$...$`` as mathematics) and its page are all written."""
    names = [t for t in TEXT_VALUES if t.strip() and len(t) < 1000 and "\n" not in t]
    rows = [(f"{name} {n}", name) for n, name in enumerate(names)]
    army = tmp_path / "army.csv"
    with army.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["unit", "weapon", "count", "A", "BS/WS", "S", "AP", "D", "abilities"])
        writer.writerows([unit, weapon, 1, 1, "3+", 4, 0, 1, ""] for unit, weapon in rows)
    argv = ["report", str(army), "--targets", "@targets", "-o", "@new", "--no-progress"]
    runs = [[*argv, "--plot", "@new_png", "--html", "@new_html"], [*argv, "--plot", "@new_svg"]]
    marked = [name for name in names if set(name) & set("$\\{%<\u202e")]  # mathtext, markup
    runs += [
        ["attack", *ATTACK_ARGV[1:], f"--name={name}", "--plot", "@new_png"] for name in marked
    ]
    outcomes = run_cli(runs)
    assert [out["status"] for out in outcomes] == [0] * len(runs), [
        (argv[-3:], out["stderr"][-300:])
        for argv, out in zip(runs, outcomes, strict=True)
        if out["status"]
    ]


def test_every_command_without_arguments_and_the_global_options() -> None:
    check_runs(
        [
            [],
            ["--version"],
            ["--help"],
            ["--debug", "targets"],
            ["targets"],
            ["targets", "extra"],
            ["nonsense"],
            ["report", "--help"],
            ["datasheets"],
            ["attack"],
            ["demo", "--trials", "0"],
            ["report", "--jobs"],
            ["report", "--rules", "classic", "-o", "@new"],
        ]
    )
