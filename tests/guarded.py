"""Running code where a failure cannot take the machine down.

:func:`run_capped` runs a script in a fresh interpreter whose address space is capped
(``RLIMIT_AS``) and with a timeout: an allocation past the cap raises ``MemoryError`` in
that interpreter, and a hang ends at the timeout, whatever the code does. The script
prints one JSON line last, which is returned.

:func:`memory_cap` caps this process the same way for the length of a ``with`` block
(its soft limit: restored afterwards), for the in-process twins of those tests that
coverage measures.

:func:`run_batch` makes many calls in one capped interpreter (``reliability_child.py``),
one outcome each: the reliability suite's way to try thousands of inputs without starting
an interpreter for each. A batch that outlives its time, dies, or leaves processes behind
fails the test, naming the call it was making.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import pytest

GIB = 2**30
#: The repository: the interpreter run imports this copy of mathhammer.
ROOT = Path(__file__).resolve().parent.parent

#: Defined in every script :func:`run_capped` runs: ``timed(f)`` calls ``f()`` and returns
#: ``{"error": class name or None, "message": first line, "seconds": float, "cpu": float}``
#: (the wall clock, and the child's own CPU time, which a busy machine does not inflate).
_PRELUDE = """
import json, resource, time
resource.setrlimit(resource.RLIMIT_AS, ({cap}, {cap}))

def timed(f):
    start, cpu = time.perf_counter(), time.process_time()
    try:
        f()
        error, message = None, ""
    except Exception as exc:
        error, message = type(exc).__name__, (str(exc).splitlines() or [""])[0]
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    return {{"error": error, "message": message, "seconds": seconds, "cpu": cpu}}
"""


def child_environment() -> dict[str, str]:
    """The environment of a child interpreter: this checkout first on its path, one BLAS
    thread (each thread reserves address space of its own, which a cap would count), and
    pyarrow's memory pool on the system allocator (pandas' text columns are pyarrow's: its
    default pool, mimalloc, reserves a gigabyte of address space on first use, which left
    a capped child too little to import matplotlib after a report)."""
    return {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
        "OPENBLAS_NUM_THREADS": "1",
        "OMP_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
        "ARROW_DEFAULT_MEMORY_POOL": "system",
    }


def run_capped(code: str, *, memory: int = GIB, timeout: float = 120.0) -> Any:
    """Run ``code`` in a fresh interpreter with at most ``memory`` bytes of address space.

    One BLAS thread (each thread reserves address space of its own). The script's last
    line of output must be JSON; it is returned parsed.
    """
    script = _PRELUDE.format(cap=memory) + textwrap.dedent(code)
    proc = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=child_environment(),
        cwd=ROOT,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _address_space() -> int:
    """This process's current address space in bytes (VmSize), or 0 where unknown."""
    try:
        status = Path("/proc/self/status").read_text()
    except OSError:
        return 0
    for line in status.splitlines():
        if line.startswith("VmSize:"):
            return int(line.split()[1]) * 1024
    return 0


@contextmanager
def memory_cap(extra: int = GIB) -> Iterator[None]:
    """Cap this process's address space at its current size plus ``extra``.

    Where the size cannot be read (no ``/proc``), nothing is capped.
    """
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    current = _address_space()
    if not current:
        yield
        return
    cap = current + extra
    if hard != resource.RLIM_INFINITY:
        cap = min(cap, hard)
    resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def timed(f: Callable[[], object]) -> tuple[BaseException | None, float]:
    """Call ``f``; return the exception it raised (or None) and the seconds it took."""
    start = time.perf_counter()
    try:
        f()
    except Exception as exc:
        return exc, time.perf_counter() - start
    return None, time.perf_counter() - start


#: The child script of :func:`run_batch`.
CHILD = Path(__file__).resolve().parent / "reliability_child.py"


def run_batch(
    mode: str, calls: Sequence[Any], *, memory: int, seconds: float, call_seconds: float
) -> list[dict[str, Any]]:
    """Make ``calls`` in one interpreter capped at ``memory`` bytes of address space and
    ``seconds`` of wall time, each call interrupted after ``call_seconds``; return one
    outcome per call (see ``reliability_child.py``).

    The interpreter leads a session of its own, so that whatever it starts (the workers of
    ``--jobs``) can be found and ended; any process of that session still there a few
    seconds after it exits is an orphan, and fails the test.
    """
    folder = Path(tempfile.mkdtemp(prefix="mathhammer-reliability-"))
    try:
        (folder / "calls.json").write_text(json.dumps(list(calls)))
        proc = subprocess.Popen(
            [sys.executable, str(CHILD), mode, str(folder / "calls.json"), str(folder)]
            + [str(call_seconds)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=child_environment(),
            cwd=ROOT,
            start_new_session=True,
            preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_AS, (memory, memory)),
        )
        try:
            out, err = proc.communicate(timeout=seconds)
        except subprocess.TimeoutExpired:
            _end_session(proc.pid)
            out, err = proc.communicate()
            done = len(out.splitlines())
            where = f"call {calls[done]!r:.2000}" if done < len(calls) else "exit, every call done"
            tail = err.decode(errors="replace")[-2000:]
            pytest.fail(f"a batch took over {seconds} s at {where}\n{tail}", False)
        orphans = _orphans(proc.pid)
        outcomes = [json.loads(line) for line in out.decode().splitlines()]
        if proc.returncode != 0 or len(outcomes) != len(calls):
            pytest.fail(
                f"the child died (status {proc.returncode}) after {len(outcomes)} of "
                f"{len(calls)} calls; the next was {calls[len(outcomes)]!r:.1000}\n"
                f"{err.decode(errors='replace')[-3000:]}",
                False,
            )
        assert not orphans, f"processes left behind by {calls!r:.2000}: {orphans}"
        return outcomes
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _session(sid: int) -> list[int]:
    """The processes of session ``sid`` (Linux's /proc; none elsewhere)."""
    found = []
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue  # gone meanwhile
        if int(fields[3]) == sid and fields[0] != "Z":
            found.append(int(entry.name))
    return found


def _orphans(sid: int, wait: float = 5.0) -> list[int]:
    """The processes of session ``sid`` still running after ``wait`` seconds (then ended)."""
    deadline = time.monotonic() + wait
    while (left := _session(sid)) and time.monotonic() < deadline:
        time.sleep(0.1)
    _end_session(sid)
    return left


def _end_session(sid: int) -> None:
    """End every process of session ``sid`` (its leader's pid is its process group too)."""
    with suppress(ProcessLookupError):
        os.killpg(sid, signal.SIGKILL)
