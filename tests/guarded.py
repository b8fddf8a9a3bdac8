"""Running code where a failure cannot take the machine down.

:func:`run_capped` runs a script in a fresh interpreter whose address space is capped
(``RLIMIT_AS``) and with a timeout: an allocation past the cap raises ``MemoryError`` in
that interpreter, and a hang ends at the timeout, whatever the code does. The script
prints one JSON line last, which is returned.

:func:`memory_cap` caps this process the same way for the length of a ``with`` block
(its soft limit: restored afterwards), for the in-process twins of those tests that
coverage measures.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

GIB = 2**30
#: The repository: the interpreter run imports this copy of mathhammer.
ROOT = Path(__file__).resolve().parent.parent

#: Defined in every script :func:`run_capped` runs: ``timed(f)`` calls ``f()`` and returns
#: ``{"error": class name or None, "message": first line, "seconds": float}``.
_PRELUDE = """
import json, resource, time
resource.setrlimit(resource.RLIMIT_AS, ({cap}, {cap}))

def timed(f):
    start = time.perf_counter()
    try:
        f()
        error, message = None, ""
    except Exception as exc:
        error, message = type(exc).__name__, (str(exc).splitlines() or [""])[0]
    return {{"error": error, "message": message, "seconds": time.perf_counter() - start}}
"""


def child_environment() -> dict[str, str]:
    """The environment of a child interpreter: this checkout first on its path, and one BLAS
    thread (each thread reserves address space of its own, which a cap would count)."""
    return {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
        "OPENBLAS_NUM_THREADS": "1",
        "OMP_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
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
