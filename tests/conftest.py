"""Test-suite configuration: hypothesis profiles and the shared real-world data.

Hypothesis profiles, chosen by ``HYPOTHESIS_PROFILE`` (else ``ci`` when ``CI`` is set, else
``default``):

- ``default``: 100 examples, no deadline (the engine's first call on a new shape compiles
  its tables, which a deadline would report as flaky);
- ``ci``: the same examples, derandomised and without the example database, so a CI run is
  reproducible and never fails on an example that a rerun would not draw;
- ``long``: 20 times the examples, for a run before a release
  (``HYPOTHESIS_PROFILE=long python -m pytest``).

A test that passes ``max_examples`` to ``@settings`` keeps its own count in every profile.

The real datasheet exports live outside the repository, in ``../shared/data`` beside the
clone. The ``shared_data`` fixture gives that folder; a test using it is skipped where the
folder is absent, except under CI, where the folder is provided and its absence is a failure.
"""

from __future__ import annotations

import functools
import os
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

import mathhammer as mh

# Each profile extends Hypothesis's own profile of that name (its "ci" profile, which it loads
# by itself when CI is set, also drops the example database): a parent left out would be the
# profile loaded at import, which under CI is already "ci".
settings.register_profile(
    "default", settings.get_profile("default"), max_examples=100, deadline=None
)
settings.register_profile(
    "ci", settings.get_profile("ci"), max_examples=100, derandomize=True, deadline=None
)
settings.register_profile("long", settings.get_profile("default"), max_examples=2_000)
settings.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "default")
)

SHARED_DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
"""The shared data folder: ``shared/data`` beside the repository's root folder."""


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """The shared data folder; skip without it, fail without it under CI."""
    if not SHARED_DATA.is_dir():
        message = f"the shared data folder is not beside the repository: {SHARED_DATA}"
        if os.environ.get("CI"):
            pytest.fail(message + " (CI provides it, so its absence is an error)")
        pytest.skip(message)
    return SHARED_DATA


@pytest.fixture(scope="session")
def shared_catalogue(shared_data: Path) -> Callable[[str], mh.io.Catalogue]:
    """The catalogues of a folder of the shared data (``shared_catalogue("bsdata-11e")``),
    read once by each test process: a folder of real catalogues takes seconds to read, and
    several modules check what it holds. Tests of reading itself read it anew."""
    return functools.cache(lambda folder: mh.read_catalogue(shared_data / folder))


@pytest.fixture
def monkeypatch(monkeypatch: pytest.MonkeyPatch) -> Iterator[pytest.MonkeyPatch]:
    """pytest's ``monkeypatch``, emptying the package's caches at every patch and at the
    end: a test that patches the internals neither reads results cached before the patch
    nor leaves behind results computed under it. Other tests share the caches, as a
    user's calls do."""
    for name in ("setattr", "delattr", "setitem", "delitem"):
        original = getattr(monkeypatch, name)

        def patched(*args: Any, _original: Any = original, **kwargs: Any) -> None:
            _original(*args, **kwargs)
            mh.clear_caches()

        setattr(monkeypatch, name, patched)
    mh.clear_caches()
    yield monkeypatch
    mh.clear_caches()


#: Test modules that start child processes in every test (the reliability suites, signals,
#: the benchmarks and the import-time probes): ``system`` tests, left out of the fast loop.
SYSTEM_MODULES = frozenset(
    {
        "test_reliability.py",
        "test_reliability_cli.py",
        "test_reliability_files.py",
        "test_report_faults.py",
        "test_cli_interruptions.py",
        "test_benchmarks_run.py",
        "test_import_time.py",
    }
)


#: Doctests that start worker processes (a doctest carries no marker of its own).
SYSTEM_DOCTESTS = frozenset(
    {"mathhammer.io.workers", "mathhammer.io.outputs.remove_stale_temporaries"}
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test of :data:`SYSTEM_MODULES` or :data:`SYSTEM_DOCTESTS`, or one that starts a Dask
    cluster, is a ``system`` test too (``-m 'not slow and not system'``: the fast loop)."""
    for item in items:
        if (
            item.path.name in SYSTEM_MODULES
            or item.name in SYSTEM_DOCTESTS
            or item.get_closest_marker("dask")
        ):
            item.add_marker(pytest.mark.system)


#: The events by which Python starts a process (subprocess, os, multiprocessing's "fork").
#: Python 3.11 raises none for multiprocessing's "spawn" and "forkserver" starts: a test
#: that starts processes so carries the marker by hand (the package's pools fork).
PROCESS_EVENTS = frozenset(
    {"subprocess.Popen", "os.fork", "os.forkpty", "os.posix_spawn", "os.exec", "os.system"}
)
_started: list[str] = []  # the process-starting events seen while a test runs


def _audit(event: str, args: tuple[Any, ...]) -> None:
    if event in PROCESS_EVENTS and threading.current_thread() is threading.main_thread():
        _started.append(event)


sys.addaudithook(_audit)


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Watch from the test's setup on: its fixtures' processes are the test's too."""
    _started.clear()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    """Fail a test that starts a process without the ``system`` marker: the fast loop
    (``-m 'not slow and not system'``) starts none, and stays fast as tests are added."""
    outcome = yield
    if _started and not item.get_closest_marker("system"):
        pytest.fail(
            f"this test starts a process ({_started[0]}) but is not marked system: add "
            "@pytest.mark.system (or its module to SYSTEM_MODULES in tests/conftest.py)",
            pytrace=False,
        )
    return outcome
