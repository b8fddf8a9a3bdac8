"""How the command line ends when it is interrupted, terminated, loses a worker or runs out of
memory, and the worker map under it, in this process (tests/test_report_faults.py sends real
signals to real runs): one line each, the status a shell expects, ``--debug`` for the
traceback."""

from __future__ import annotations

import argparse
import os
import re
import signal
import sys
import threading
import time
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

import pytest

from mathhammer.cli import Terminated, main
from mathhammer.io.outputs import process_running
from mathhammer.io.workers import ordered_map, set_parent_death_signal


def command_raising(monkeypatch: pytest.MonkeyPatch, error: BaseException | None) -> None:
    """``mathhammer targets`` raises ``error`` (or sends itself SIGTERM, for None)."""

    def run(args: argparse.Namespace) -> int:
        if error is None:
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(5)  # the handler raises before this ends
        raise error or AssertionError("SIGTERM was not turned into an exception")

    monkeypatch.setattr("mathhammer.cli.parser.targets_command", run)


@pytest.mark.parametrize(
    ("error", "status", "line"),
    [
        (KeyboardInterrupt(), 130, "mathhammer: interrupted"),
        (Terminated(), 143, "mathhammer: terminated"),
        (None, 143, "mathhammer: terminated"),
        (
            BrokenProcessPool("a worker process was killed by SIGKILL"),
            1,
            "mathhammer: error: a worker process was killed by SIGKILL",
        ),
        (
            MemoryError("Unable to allocate 61.0 MiB for an array with shape (50000, 160)"),
            1,
            "mathhammer: error: out of memory: Unable to allocate 61.0 MiB for an array with "
            "shape (50000, 160)",
        ),
        (MemoryError(), 1, "mathhammer: error: out of memory: an allocation failed"),
    ],
)
def test_one_line_and_the_status_a_shell_expects(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    error: BaseException | None,
    status: int,
    line: str,
) -> None:
    command_raising(monkeypatch, error)
    before = signal.getsignal(signal.SIGTERM)
    assert main(["targets"]) == status
    assert capsys.readouterr().err == line + "\n"
    with pytest.raises(type(error) if error is not None else Terminated):
        main(["--debug", "targets"])
    assert signal.getsignal(signal.SIGTERM) is before  # given back after the run


def test_main_runs_in_another_thread_without_a_signal_handler(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status: list[int] = []
    thread = threading.Thread(target=lambda: status.append(main(["targets"])))
    thread.start()
    thread.join(60)
    assert status == [0] and "Horde infantry" in capsys.readouterr().out


def test_a_worker_that_exits_is_named_by_its_status() -> None:
    with pytest.raises(BrokenProcessPool, match="a worker process exited with status 3"):
        list(ordered_map(os._exit, [3], jobs=1))


def test_a_map_left_early_stops_its_workers() -> None:
    results = ordered_map(time.sleep, [0.01] + [30] * 8, jobs=2, chunk=1)
    assert next(results) is None
    started = time.monotonic()
    results.close()  # the workers asleep for 30 s are stopped, not waited for
    assert time.monotonic() - started < 10


def test_a_map_run_in_another_thread() -> None:
    found: list[list[int]] = []
    thread = threading.Thread(target=lambda: found.append(list(ordered_map(abs, [-1, -2], jobs=2))))
    thread.start()
    thread.join(60)
    assert found == [[1, 2]]


def test_the_death_signal_elsewhere(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "platform", "darwin")
    assert set_parent_death_signal(0) is False
    monkeypatch.setattr(sys, "platform", "linux")

    def no_library(name: object, use_errno: bool = False) -> None:
        raise OSError("no C library")

    monkeypatch.setattr("ctypes.CDLL", no_library)
    assert set_parent_death_signal(0) is False


def test_which_processes_run(monkeypatch: pytest.MonkeyPatch) -> None:
    assert process_running(os.getpid()) and not process_running(2**22 + 12345)
    assert process_running(2**40)  # not an id this system can have: never "gone"

    def not_permitted(pid: int, sig: int) -> None:
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(os, "kill", not_permitted)
    assert process_running(1)  # another user's process


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["report", "--jobs", "1" + "0" * 21], "expected an integer from 1 to 256; got 1000"),
        (["report", "--seed", "-1"], "argument --seed: expected an integer >= 0; got -1"),
        (["demo", "--seed", "x"], "argument --seed: expected an integer; got 'x'"),
    ],
)
def test_out_of_range_workers_and_seeds_are_usage_errors(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as usage:
        main(argv)
    assert usage.value.code == 2 and message in capsys.readouterr().err


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"jobs": 10**21}, "jobs must be at most 256; got 1000000000000000000000 (one per"),
        ({"rng": -1}, "rng must be None, an integer >= 0 or a SeedSequence; got -1"),
    ],
)
def test_out_of_range_workers_and_seeds_are_refused_by_the_library(
    options: dict[str, Any], message: str
) -> None:
    import mathhammer as mh
    from mathhammer.io.report import build_report

    gun = mh.Weapon("Gun", 1, 3, 4, 0, 1)
    with pytest.raises(mh.OptionError, match=re.escape(message)):
        build_report([mh.Loadout("g", [(gun, 1)])], [mh.targets.get("Vehicle")], **options)


def test_a_failed_write_is_one_line_and_leaves_no_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def disk_full(self: object, out: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("mathhammer.io.report_csv.RowSpool.write_csv", disk_full)
    out = tmp_path / "r.csv"
    out.write_text("precious\n")
    assert main(["report", "-o", str(out), "--no-progress"]) == 1
    assert capsys.readouterr().err == "mathhammer: error: [Errno 28] No space left on device\n"
    assert [p.name for p in tmp_path.iterdir()] == ["r.csv"] and out.read_text() == "precious\n"
    with pytest.raises(OSError):
        main(["--debug", "report", "-o", str(out), "--no-progress"])


def test_a_warning_is_one_line_of_ours(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    army = tmp_path / "army.csv"
    army.write_text(
        "unit,weapon,count,A,BS/WS,S,AP,D,abilities,colour\nSquad,Gun,5,2,3+,4,0,1,,red\n"
    )
    assert main(["report", str(army), "-o", str(tmp_path / "r.csv"), "--no-progress"]) == 0
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith(f"mathhammer: warning: {army}:1: column 'colour': not a column")
