"""Helpers of the fault tests: processes run under a memory limit, and their children.

Anything that could exhaust the memory or hang runs in a subprocess whose address space
is limited with ``resource.setrlimit`` and whose run has a timeout, so a failure is a
failed test, not a machine brought down. Processes are looked up in ``/proc`` (Linux).
"""

from __future__ import annotations

import functools
import os
import resource
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

#: The command line, as a test runs it in a subprocess.
MATHHAMMER = [sys.executable, "-m", "mathhammer"]
#: Single-threaded numerics: the address-space limit then measures the work, not the
#: stacks of a thread pool.
QUIET_ENV = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}


def limit_memory(size: int) -> Callable[[], None]:
    """A ``preexec_fn`` limiting the child's address space to ``size`` bytes."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (size, size))

    return limit


def run_limited(
    argv: Sequence[str], *, memory: int = 2**30, timeout: float = 60, **options: Any
) -> subprocess.CompletedProcess[str]:
    """Run ``argv`` with at most ``memory`` bytes of address space, for at most ``timeout``
    seconds (a hang is a ``TimeoutExpired``)."""
    env = {**os.environ, **QUIET_ENV, **options.pop("env", {})}
    return subprocess.run(
        list(argv),
        capture_output=True,
        text=True,
        timeout=timeout,
        preexec_fn=limit_memory(memory),
        env=env,
        check=False,
        **options,
    )


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue  # gone meanwhile
        if int(fields[1]) == pid:
            found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, dead but not yet reaped, does not)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return False
    return fields[0] != "Z"


def cpu_seconds(pid: int) -> float:
    """The processor time ``pid`` has used so far (0 once it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@functools.cache
def startup_seconds() -> float:
    """The processor time the command takes before any work (its imports and its parser:
    ``--help``), measured once: about half a second, more on a loaded machine. A signal
    sent before its end reaches no handler of the command's."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(
        [*MATHHAMMER, "--help"],
        stdout=subprocess.DEVNULL,
        env={**os.environ, **QUIET_ENV},
        check=True,
        timeout=60,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def wait_for(condition: Callable[[], bool], timeout: float) -> bool:
    """Whether ``condition()`` became true within ``timeout`` seconds."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


def dead_pid() -> int:
    """The id of a process that has ended (and been reaped)."""
    done = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    return int(done.stdout)


def heavy_army(path: Path, units: int = 1200) -> Path:
    """An attackers CSV that takes a report several seconds: room to interrupt it. Every
    unit's count, S and AP differ from the others', so that no attack is a repeat the
    engine has cached."""
    rows = [
        f"U{i},Gun,{10 + i % 40},D6,3+,{3 + i // 160 % 8},{-(i // 40 % 4)},D3,"
        f"[SUSTAINED HITS 1],{100 + i}"
        for i in range(units)
    ]
    path.write_text("unit,weapon,count,A,BS/WS,S,AP,D,abilities,points\n" + "\n".join(rows) + "\n")
    return path
