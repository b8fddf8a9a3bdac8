"""The ``system`` marker holds by itself: a test that starts a process without it fails,
so the fast loop (``-m 'not slow and not system'``) starts none as tests are added."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

CONFTEST = Path(__file__).with_name("conftest.py")

TESTS = """
import subprocess
import sys

import pytest


def _child():
    subprocess.run([sys.executable, "-c", "pass"], check=True)


def test_unmarked():
    _child()


@pytest.mark.system
def test_marked():
    _child()


def test_no_process():
    assert sum(range(4)) == 6


@pytest.fixture
def child():
    _child()


def test_unmarked_with_a_fixture_that_starts_one(child):
    pass
"""


@pytest.mark.system  # its inner session starts processes, which this test sees too
def test_a_test_that_starts_a_process_must_be_marked_system(pytester: pytest.Pytester) -> None:
    pytester.makeconftest(CONFTEST.read_text())
    pytester.makepyfile(test_inner=TESTS)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=2, failed=2)
    result.stdout.fnmatch_lines(
        ["*test_unmarked*", "*this test starts a process (subprocess.Popen) but is not marked*"]
    )
    result.stdout.fnmatch_lines(["*FAILED*test_unmarked_with_a_fixture_that_starts_one*"])
    # the fast loop leaves the marked one out, and the unmarked one fails in it too
    fast = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-m", "not system")
    fast.assert_outcomes(passed=1, failed=2, deselected=1)
