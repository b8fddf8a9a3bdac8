"""Faults during a report: signals to the command and to its workers, and kills during a
write (issue 13, points 6 and 8).

Each test runs ``mathhammer report`` in a subprocess on an army that takes it several
seconds, hits it once its workers run, and checks what is left: the exit status and one
line on stderr, the old report untouched, no temporary file, no worker alive.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from faults import (
    MATHHAMMER,
    QUIET_ENV,
    alive,
    children,
    cpu_seconds,
    dead_pid,
    heavy_army,
    limit_memory,
    startup_seconds,
    wait_for,
)

from mathhammer.io.outputs import TEMPORARY_MARK, remove_stale_temporaries
from mathhammer.io.workers import death_message, set_parent_death_signal, watch_parent

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc, signals")

OLD = "precious\n"


class Run:
    """``mathhammer report`` on a heavy army in a subprocess of its own session."""

    def __init__(self, tmp_path: Path, *options: str) -> None:
        self.out = tmp_path / "report.csv"
        self.out.write_text(OLD)
        argv = [*MATHHAMMER, "report", str(heavy_army(tmp_path / "army.csv"))]
        self.process = subprocess.Popen(
            [*argv, "-o", str(self.out), "--no-progress", *options],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, **QUIET_ENV},
            preexec_fn=self._as_a_shell_job,
            start_new_session=True,  # a process group of its own, as a shell job has
        )
        self.workers: list[int] = []

    @staticmethod
    def _as_a_shell_job() -> None:
        """In the child, before the command starts: Ctrl-C at its default, as a terminal's
        shell gives a job, and memory capped. A test run started with ``SIGINT`` ignored (a
        script's ``&`` starts one so) would otherwise pass that on, and the command, as
        Python does, would go on ignoring it."""
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        limit_memory(2**31)()

    def wait_for_workers(self, count: int) -> list[int]:
        assert wait_for(lambda: len(children(self.process.pid)) >= count, 30), "no workers"
        self.workers = children(self.process.pid)
        return self.workers

    def finish(self) -> tuple[int, str]:
        try:
            _, err = self.process.communicate(timeout=30)
        finally:
            self.process.kill()
            for worker in self.workers:  # never leave one behind, even when a test fails
                if alive(worker):
                    os.kill(worker, signal.SIGKILL)
        return self.process.returncode, err

    def assert_untouched(self) -> None:
        assert self.out.read_text() == OLD
        assert [p.name for p in self.out.parent.iterdir() if TEMPORARY_MARK in p.name] == []


# --------------------------------------------------------------------------- point 6
def test_the_workers_of_a_killed_report_exit(tmp_path: Path) -> None:
    run = Run(tmp_path, "--jobs", "2")
    workers = run.wait_for_workers(2)
    os.kill(run.process.pid, signal.SIGKILL)
    run.process.wait(30)
    # the old workers lived on, re-parented, holding the stderr pipe a caller waited on
    assert wait_for(lambda: not any(alive(w) for w in workers), 5), "orphaned workers"
    status, err = run.finish()
    assert status == -signal.SIGKILL and err == ""
    run.assert_untouched()


def test_workers_without_the_death_signal_exit_by_their_watchdog(tmp_path: Path) -> None:
    # where prctl is missing (not Linux), the watchdog thread alone ends the workers
    script = textwrap.dedent(
        """
        import time
        import mathhammer.io.workers as workers
        workers.set_parent_death_signal = lambda number: False
        for _ in workers.ordered_map(time.sleep, [30] * 4, jobs=2):
            pass
        """
    )
    parent = subprocess.Popen([sys.executable, "-c", script], env={**os.environ, **QUIET_ENV})
    try:
        assert wait_for(lambda: len(children(parent.pid)) >= 2, 30)
        workers = children(parent.pid)
        os.kill(parent.pid, signal.SIGKILL)
        parent.wait(30)
        assert wait_for(lambda: not any(alive(w) for w in workers), 5), "orphaned workers"
    finally:
        parent.kill()
        for worker in children(parent.pid):
            os.kill(worker, signal.SIGKILL)


def test_the_watchdog_calls_back_once_the_parent_changes(monkeypatch: pytest.MonkeyPatch) -> None:
    parents = iter([7, 7, 1])  # two looks at the parent, then it is gone (adopted by init)
    monkeypatch.setattr(os, "getppid", lambda: next(parents))
    monkeypatch.setattr("time.sleep", lambda seconds: None)
    gone: list[bool] = []
    watch_parent(7, 0.5, lambda: gone.append(True))
    assert gone == [True]


def test_the_death_signal_is_asked_of_linux() -> None:
    assert set_parent_death_signal(0) is True  # 0 clears it: harmless in the test process


# --------------------------------------------------------------------------- point 8
@pytest.mark.parametrize(
    ("jobs", "sent", "status", "line"),
    [
        ("1", signal.SIGINT, 130, "mathhammer: interrupted"),
        ("2", signal.SIGINT, 130, "mathhammer: interrupted"),
        ("2", signal.SIGTERM, 143, "mathhammer: terminated"),
    ],
)
def test_a_signal_is_one_line_and_leaves_everything_as_it_was(
    tmp_path: Path, jobs: str, sent: signal.Signals, status: int, line: str
) -> None:
    run = Run(tmp_path, "--jobs", jobs)
    workers = run.wait_for_workers(2) if jobs == "2" else []
    busy = workers[-1] if workers else run.process.pid
    # into the work: past the command's startup (a signal during its imports, before the
    # command's handler is in place, is Python's own traceback), then half a second
    into_work = startup_seconds() + 0.5
    assert wait_for(lambda: cpu_seconds(busy) > into_work, 30)
    # Ctrl-C reaches the whole process group, workers too; a kill only the command
    if sent == signal.SIGINT:
        os.killpg(run.process.pid, sent)
    else:
        os.kill(run.process.pid, sent)
    code, err = run.finish()
    assert (code, err) == (status, line + "\n")  # the old Ctrl-C printed 25-32 lines
    assert wait_for(lambda: not any(alive(w) for w in workers), 5)
    run.assert_untouched()


def test_a_killed_worker_is_one_line_naming_the_signal(tmp_path: Path) -> None:
    run = Run(tmp_path, "--jobs", "2")
    workers = run.wait_for_workers(2)
    os.kill(workers[0], signal.SIGKILL)
    code, err = run.finish()
    assert code == 1
    assert err == (
        "mathhammer: error: a worker process was killed by SIGKILL (the system may have run "
        "out of memory); run again, or with fewer jobs\n"
    )
    assert wait_for(lambda: not any(alive(w) for w in workers), 5)
    run.assert_untouched()


class Ended:
    def __init__(self, exitcode: int | None) -> None:
        self.exitcode = exitcode


def test_the_death_message_names_the_first_cause() -> None:
    # the pool stops the other workers with SIGTERM once one dies: that is not the cause
    assert "killed by SIGSEGV" in death_message([Ended(-15), Ended(-11), Ended(None)])
    assert "killed by SIGTERM" in death_message([Ended(-15)])
    assert "exited with status 3" in death_message([Ended(3)])
    assert "ended unexpectedly" in death_message([Ended(None), Ended(0)])
    assert "killed by signal 77" in death_message([Ended(-77)])


KILLED_WRITE = """
import os, signal, sys
from mathhammer.io.outputs import check_output, write_output

def die(handle):
    handle.write("half a report")
    handle.flush()
    os.kill(os.getpid(), signal.SIGKILL)  # as a kill -9 during the write

write_output(check_output(sys.argv[1]), die)
"""


def test_the_temporary_of_a_write_killed_outright_is_removed_by_the_next(tmp_path: Path) -> None:
    out = tmp_path / "report.csv"
    out.write_text(OLD)
    killed = subprocess.run([sys.executable, "-c", KILLED_WRITE, str(out)], check=False)
    assert killed.returncode == -signal.SIGKILL
    (left,) = [p for p in tmp_path.iterdir() if TEMPORARY_MARK in p.name]
    assert left.name.startswith(".report.csv.mathhammer-tmp-") and out.read_text() == OLD
    # another process's temporary, still being written, is not ours to remove
    running = tmp_path / f".other.csv{TEMPORARY_MARK}{os.getppid()}-00ff"
    running.write_text("")
    army = heavy_army(tmp_path / "army.csv", units=1)
    assert (
        subprocess.run(
            [*MATHHAMMER, "report", str(army), "-o", str(out)], check=False, capture_output=True
        ).returncode
        == 0
    )
    assert not left.exists() and running.exists() and out.read_text().startswith("loadout,")


def test_stale_temporaries_are_recognised_by_name_and_process(tmp_path: Path) -> None:
    gone = dead_pid()
    names = [
        f".r.csv{TEMPORARY_MARK}{gone}-0a",  # ours, its process gone: removed
        f".r.csv{TEMPORARY_MARK}{os.getpid()}-0b",  # ours, running: kept
        f".r.csv{TEMPORARY_MARK}99999999999-0c",  # not a process id this system has: kept
        f".r.csv.{gone}.tmp",  # someone else's naming: kept
    ]
    for name in names:
        (tmp_path / name).write_text("")
    (tmp_path / f".d{TEMPORARY_MARK}{gone}-0d").mkdir()  # a folder: never removed
    assert remove_stale_temporaries(tmp_path) == [tmp_path / names[0]]
    assert remove_stale_temporaries(tmp_path / "none") == []


_NO_THREAD = r"""
import sys, threading, time
from mathhammer.io.workers import PoolStopped, ordered_map

where = sys.argv[1]
if where == "manager":  # the pool's own thread starts, the queue's feeder after it cannot
    from concurrent.futures import process

    real_run = process._ExecutorManagerThread.run

    def run(self):
        threading.stack_size(2**45)  # no stack that large: the next thread cannot start
        real_run(self)

    process._ExecutorManagerThread.run = run
else:  # the pool's own thread, started by the first submission, cannot start
    threading.stack_size(2**45)
start = time.monotonic()
try:
    list(ordered_map(abs, range(-20, 0), jobs=2))
except PoolStopped as exc:
    print(f"stopped: {exc}")
print(f"{time.monotonic() - start:.1f} s")
"""


@pytest.mark.parametrize("where", ["first", "manager"])
def test_a_pool_whose_thread_cannot_start_is_one_error_not_a_hang(where: str) -> None:
    """A thread the pool needs does not start (the stack it asks for is refused, as a
    limit on threads or on memory refuses it): the map raises ``PoolStopped`` (a
    ``BrokenProcessPool``, which the command line prints as one line) within a second or
    two, prints no traceback, and leaves no worker behind; before, a failure in the
    pool's own thread left the results waited for ever."""
    done = subprocess.run(
        [sys.executable, "-c", _NO_THREAD, where],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("stopped: the pool of worker processes could not start a thread")
    assert "can't start new thread" in lines[0] and "fewer jobs" in lines[0]
    assert float(lines[1].split()[0]) < 10.0


_HALF_SENT = r"""
import os, signal, struct, sys, time
from pathlib import Path
from mathhammer.io.workers import ordered_map

how, folder = sys.argv[1], Path(sys.argv[2])


def work(item):
    # as a worker ended (or stalled) half-way through sending its result: it holds the
    # results' lock (as a sending worker does), sends a result's length and part of it
    if item == "quick":
        return item
    if item == "stall":
        while not (folder / "quick").exists():  # its result read first
            time.sleep(0.01)
    frame = sys._getframe()
    while "result_queue" not in frame.f_locals:  # the pool's worker loop, up the stack
        frame = frame.f_back
    results = frame.f_locals["result_queue"]
    results._wlock.acquire()
    os.write(results._writer.fileno(), struct.pack("!i", 2**20) + b"part of a result")
    if item == "die":
        os.kill(os.getpid(), signal.SIGKILL)
    (folder / "half-sent").touch()
    time.sleep(120)


start = time.monotonic()
if how == "die":
    try:
        list(ordered_map(work, ["die", "quick"], jobs=2, chunk=1))
    except Exception as exc:
        print(f"{type(exc).__name__}: {exc}")
else:  # a consumer that stops once a worker has half-sent a result
    for result in ordered_map(work, ["quick", "stall"], jobs=2, chunk=1):
        (folder / result).touch()
        while not (folder / "half-sent").exists():
            time.sleep(0.01)
        break
    print("stopped")
print(f"{time.monotonic() - start:.1f} s")
"""


@pytest.mark.parametrize("how", ["die", "stall"])
def test_a_result_half_sent_is_one_error_or_a_clean_stop_not_a_hang(
    tmp_path: Path, how: str
) -> None:
    """A worker ends half-way through sending a result (killed, or stopped by a map left
    early, as a Ctrl-C stops it): the pool's manager thread, reading that result, waited
    for the rest of it for ever, and so did the map (a report hung after Ctrl-C). The map
    now raises one error naming the signal, or stops, within seconds."""
    done = subprocess.run(
        [sys.executable, "-c", _HALF_SENT, how, str(tmp_path)],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    first, took = done.stdout.splitlines()
    if how == "die":
        assert first == (
            "BrokenProcessPool: a worker process was killed by SIGKILL (the system may have "
            "run out of memory); run again, or with fewer jobs"
        )
    else:
        assert first == "stopped"
    assert float(took.split()[0]) < 10.0
