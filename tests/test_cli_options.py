"""Command-line options and failure paths, in-process: the progress bar, Monte Carlo checks,
option values refused at parse time, and errors from the file system and the pipe."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

import mathhammer as mh
from mathhammer.cli import main

ATTACKERS = """unit,weapon,count,A,BS/WS,S,AP,D,abilities,points
Squad,Bolt rifle,5,2,3+,4,-1,1,,90
Guns,Heavy bolter,2,3,4+,5,-1,2,,60
"""
TARGETS = """unit,group,models,T,Sv,InSv,W,FNP,keywords,CHARACTER,Ld,points
Horde,,10,3,6+,,1,,INFANTRY,no,6,60
"""


@pytest.fixture
def army(tmp_path: Path) -> list[str]:
    attackers, targets = tmp_path / "army.csv", tmp_path / "threats.csv"
    attackers.write_text(ATTACKERS)
    targets.write_text(TARGETS)
    return [str(attackers), "--targets", str(targets), "-o", str(tmp_path / "out.csv")]


class Terminal(io.StringIO):
    """A stderr that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def test_a_terminal_gets_a_progress_bar_unless_ci_or_asked_not_to(
    army: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for env, flags, shown in (
        ({}, [], True),
        ({}, ["--no-progress"], False),
        ({"CI": "true"}, [], False),
    ):
        monkeypatch.delenv("CI", raising=False)
        for name, value in env.items():
            monkeypatch.setenv(name, value)
        terminal = Terminal()
        monkeypatch.setattr("sys.stderr", terminal)
        assert main(["report", *army, *flags]) == 0
        bar = terminal.getvalue()
        assert ("2/2" in bar and "report" in bar) is shown, (env, flags, bar)


def test_attack_with_trials_adds_the_monte_carlo_estimate(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["attack", "-A", "2", "--skill", "3+", "-S", "4", "--count", "5", "--models", "10"]
    assert (
        main([*argv, "-T", "3", "--save", "6+", "-W", "1", "--trials", "4000", "--seed", "5"]) == 0
    )
    out = capsys.readouterr().out
    unit = mh.Unit.of("target", 10, 3, 6, 1)
    sim = mh.simulate([(mh.Weapon("weapon", 2, 3, 4, 0, 1), 5)], unit, trials=4000, rng=5)
    assert (
        f"Monte Carlo (4000 trials): mean killed {sim.killed.mean():.3f} "
        f"+/- {sim.killed_se:.3f}" in out
    )


def test_demo_without_trials_runs_only_the_exact_engine(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["demo", "--trials", "0"]) == 0
    out = capsys.readouterr().out
    assert "exact (" in out and "Monte Carlo" not in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["report", "--jobs", "two"], "argument --jobs: expected an integer; got 'two'"),
        (
            ["report", "--check-trials", "1"],
            "argument --check-trials: expected 0 (none) or at least 2 trials; got 1",
        ),
        (
            ["attack", "-A", "1", "--skill", "three", "-S", "4"],
            "argument --skill must be a roll from 2+ to 6+, written '3+' or '3'",
        ),
        (
            ["attack", "-A", "1", "--skill", "3+", "-S", "4", "--save", "x+"],
            "argument --save: --save must be a roll from 2+ to 6+, written '3+' or '3', or '-' "
            "for no save; got 'x+'",
        ),
    ],
)
def test_bad_option_values_are_usage_errors(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    assert message in capsys.readouterr().err


def test_a_save_of_none_means_no_armour_save(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["attack", "-A", "1", "--skill", "2+", "-S", "8", "-D", "1", "--models", "1"]
    assert main([*argv, "-T", "4", "-W", "1", "--save", "-"]) == 0
    table = capsys.readouterr().out.split(" k  P(killed = k)")[1]
    # hits on 2+, wounds on 2+ (S8 vs T4), no save: P(killed = 1) = 5/6 * 5/6
    assert f"{25 / 36:14.4f}" in table


def test_an_unknown_heatmap_metric_is_an_error(
    army: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    png = tmp_path / "heat.png"
    argv = ["report", *army, "--no-progress", "--plot", str(png), "--metric", "fun"]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert re.search(r"--metric must be one of \[.*'mean_killed'.*\]; got 'fun'", err)
    assert not png.exists()


def test_an_unwritable_output_is_one_line_and_leaves_nothing_behind(
    army: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "no such folder" / "out.csv"
    argv = ["report", *army[:-1], str(missing), "--no-progress"]
    assert main(argv) == 1
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith("mathhammer: error: ") and "no such folder" in err[0]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["army.csv", "threats.csv"]
    with pytest.raises(mh.OptionError):  # checked before any work, as an option
        main(["--debug", *argv])


class ClosedPipe(io.StringIO):
    """A stdout whose reader has gone, as `mathhammer targets | head -1` leaves it."""

    def write(self, text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")


def test_a_closed_pipe_ends_quietly(monkeypatch: pytest.MonkeyPatch) -> None:
    stderr = io.StringIO()
    monkeypatch.setattr("sys.stdout", ClosedPipe())
    monkeypatch.setattr("sys.stderr", stderr)
    assert main(["targets"]) == 0
    # stderr is closed so that the interpreter's own flush at exit cannot complain either
    assert stderr.closed


CLASSIC_ATTACKERS = """unit,weapon,count,A,BS/WS,S,AP,D,abilities,points
Guard,Lasgun,10,1,3,3,0,1,,60
"""


def test_a_classic_report_prints_the_panic_test_failures(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    attackers, targets, out = tmp_path / "guard.csv", tmp_path / "threats.csv", tmp_path / "o.csv"
    attackers.write_text(CLASSIC_ATTACKERS)
    targets.write_text(TARGETS)
    argv = [str(attackers), "--targets", str(targets), "-o", str(out), "--rules", "classic"]
    assert main(["report", *argv, "--no-progress"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("rules: classic (")  # the report names its ruleset first
    printed = lines[1].split()
    # the terminal shows P(taken and failed) after p_destroyed; the CSV has both columns
    assert printed == [
        "loadout",
        "phase",
        "weapons_used",
        "context",
        "target",
        "mean_killed",
        "mean_damage",
        "p_at_least_1",
        "p_destroyed",
        "p_panic_fail",
        "points_of_damage",
        "points_destroyed_per_100_points",
    ]
    header = out.read_text().splitlines()[0].split(",")
    assert header[header.index("mean_damage") + 1 :][:2] == ["p_panic_test", "p_panic_fail"]
