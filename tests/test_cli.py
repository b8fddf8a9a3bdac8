"""The command line, in-process and as the installed console script."""

from __future__ import annotations

import subprocess
import sys

import pytest

import mathhammer as mh
from mathhammer.cli import main
from mathhammer.examples import EXAMPLES


def test_demo_prints_every_example_with_exact_numbers(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--trials", "0"]) == 0
    out = capsys.readouterr().out
    for example in EXAMPLES:
        exact = mh.attack(example.weapons, example.target)
        assert example.name in out
        assert f"killed mean {exact.killed.mean():.3g}" in out
    assert "Monte Carlo" not in out


def test_demo_cross_checks_with_the_monte_carlo(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--trials", "2000", "--seed", "3"]) == 0
    assert capsys.readouterr().out.count("Monte Carlo (2000 trials)") == len(EXAMPLES)


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["nonsense"])
    assert info.value.code == 2


def test_unknown_rules_is_a_one_line_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--trials", "0", "--rules", "9e"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["mathhammer: error: rules must be one of ['11e', 'classic']; got '9e'"]


def test_module_entry_point_and_version() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mathhammer", "--version"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.strip() == f"mathhammer {mh.__version__}"
