"""Hostile and absurd army files: one clear line, bounded time and memory.

A reliability run against the importers found raw tracebacks (nesting, odd zips, numbers
of thousands of digits), runs that never ended (link graphs, counts of millions, loadouts
repeated thousands of times) and memory exhaustion (counts of 10**9, amplified attributes).
Each case of :data:`hostile_files.CASES` is read here, in capped children, by
``read_army`` and by the command line (``report`` and ``datasheets``): each gives its
expected outcome (a result, or one ``InputFileError``/``CsvError`` line) within
:data:`CALL_SECONDS` and :data:`MEMORY`; the long profile also mutates the real exports of
``../shared/data/rosters``.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from guarded import run_batch
from hostile import BATCH_SECONDS, LONG, QUICK, check_calls, check_runs
from hostile_files import CASES
from hypothesis import given
from hypothesis import strategies as st

#: Each hostile file, read by the library: its outcome (``ok`` for a result).
EXPECTED = {
    "link graph 20 levels": "error InputFileError",  # its one unit skipped: nothing read
    "link graph 26 levels": "error InputFileError",
    "link chain 50 levels": "ok",  # its deepest entry 50 levels below the unit
    "link chain 51 levels": "error InputFileError",
    "link chain 5,000 levels": "error InputFileError",  # was a RecursionError
    "5,000,000 models": "error InputFileError",
    "999,999,999 models": "error InputFileError",
    "10,000,000 guns a model": "error InputFileError",
    "20 guns a model": "ok",
    "amplified attributes 30 MB": "error InputFileError",  # read, then nothing in it
    "amplified attributes 60 MB": "error InputFileError",  # past 32 MiB: not read
    "roster count 1e9": "error InputFileError",
    "roster count 1e308": "error InputFileError",
    "roster count '1e15'": "error InputFileError",
    "roster count of 5,000 digits": "error InputFileError",
    "roster nested 400": "error InputFileError",
    "roster nested 2,000": "error InputFileError",
    "roster nested 100,000": "error InputFileError",
    "deflate64 catz": "error InputFileError",
    "encrypted catz": "error InputFileError",
    "corrupt catz": "error InputFileError",
    "utf-16 roster": "ok",
    "latin-1 roster": "ok",
    "wahapedia 20,000 copies": "ok",  # that datasheet skipped, the others read
    "wahapedia 999,999,999 copies": "ok",
    "attackers CSV of 20,001 rows": "error CsvError",
    "catalogue folder of 200 MB": "error InputFileError",
}
#: A hostile file is read in a few seconds at most (the slowest, 30 MB of attributes,
#: takes about 4), with at most this much address space.
CALL_SECONDS = 15.0
MEMORY = 1536 * 2**20


@contextmanager
def made(names: list[str]) -> Iterator[list[tuple[str, Path, str | None]]]:
    """The named cases written, each in a folder of its own: (name, path, faction)."""
    root = Path(tempfile.mkdtemp(prefix="mathhammer-hostile-"))
    try:
        out = []
        for n, name in enumerate(names):
            folder = root / str(n)
            folder.mkdir()
            path, faction = CASES[name](folder)
            out.append((name, path, faction))
        yield out
    finally:
        shutil.rmtree(root, ignore_errors=True)


def test_every_case_has_its_outcome() -> None:
    assert set(EXPECTED) == set(CASES)


@pytest.mark.system
def test_each_hostile_file_gives_its_outcome_in_bounded_time_and_memory() -> None:
    with made(list(CASES)) as cases:
        calls = [
            ("read_file", ["read_army", str(path), *([faction] if faction else [])])
            for _, path, faction in cases
        ]
        outcomes = run_batch(
            "library", calls, memory=MEMORY, seconds=BATCH_SECONDS, call_seconds=CALL_SECONDS
        )
    wrong = [
        f"{name}: {out['outcome']} in {out['seconds']:.1f} s (expected {EXPECTED[name]})"
        for (name, _, _), out in zip(cases, outcomes, strict=True)
        if out["outcome"] != EXPECTED[name] or out["seconds"] > CALL_SECONDS
    ]
    assert not wrong, "\n".join(wrong)


def _command_lines(path: Path, faction: str | None) -> list[list[str]]:
    chosen = ["--faction", faction] if faction else []
    output = ["-o", "@new", "--no-progress"]
    report = ["report", str(path), "--targets", "@targets", *chosen, *output]
    if path.suffix == ".csv":
        return [report]
    return [report, ["datasheets", str(path), *chosen]]


@pytest.mark.system
def test_each_hostile_file_is_one_line_on_the_command_line() -> None:
    """No traceback, no hang: a report, or one ``mathhammer: error:`` line."""
    quick = [name for name in CASES if "attributes" not in name]  # the library test reads them
    with made(quick) as cases:
        check_runs([argv for _, path, faction in cases for argv in _command_lines(path, faction)])


def _real_rosters() -> list[Path]:
    """The real exports of every edition beside the repository (none on a bare clone)."""
    folder = Path(__file__).resolve().parents[2] / "shared" / "data" / "rosters"
    return sorted(p for p in folder.glob("*") if p.suffix in (".ros", ".rosz", ".json"))


@st.composite
def mutated_export(draw: st.DrawFn) -> tuple[str, bytes]:
    """A real roster export with bytes changed, cut or repeated."""
    path = draw(st.sampled_from(_real_rosters()))
    data = bytearray(path.read_bytes())
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(data) - 1))
        action = draw(st.sampled_from(["flip", "cut", "repeat"]))
        if action == "flip":
            data[at] ^= draw(st.integers(1, 255))
        elif action == "cut":
            del data[at : at + draw(st.integers(1, 200))]
        else:
            data[at:at] = data[at : at + 40] * draw(st.integers(2, 500))
    return path.name, bytes(data)


NO_SHARED = pytest.mark.skipif(
    not _real_rosters(), reason="the shared data is not beside the repository"
)


@pytest.mark.system
@NO_SHARED
@QUICK
@given(files=st.lists(mutated_export(), min_size=1, max_size=6))
def test_mutated_real_exports_give_a_result_or_one_clean_error(
    files: list[tuple[str, bytes]],
) -> None:
    check_exports(files)


@pytest.mark.slow
@NO_SHARED
@LONG
@given(files=st.lists(mutated_export(), min_size=1, max_size=6))
def test_mutated_real_exports_long(files: list[tuple[str, bytes]]) -> None:
    check_exports(files)


def check_exports(files: list[tuple[str, bytes]]) -> None:
    """Every mutated export read by ``read_army`` and ``datasheets`` in capped children."""
    root = Path(tempfile.mkdtemp(prefix="mathhammer-exports-"))
    try:
        paths = []
        for n, (name, data) in enumerate(files):
            path = root / f"{n}-{name}"
            path.write_bytes(data)
            paths.append(path)
        check_calls("library", [("read_file", ["read_army", str(p)]) for p in paths])
        check_runs([["datasheets", str(p)] for p in paths])
    finally:
        shutil.rmtree(root, ignore_errors=True)
