"""The child side of the reliability suite: calls made in a capped interpreter.

:func:`guarded.run_batch` runs ``python reliability_child.py MODE CALLS.json SANDBOX`` with
its address space capped; this module makes each call of ``CALLS.json`` and prints its
outcome as one JSON line, flushed at once, so that a call that hangs or kills the
interpreter is known by the lines before it. The modes:

- ``library``: ``[name, args]`` calls of :data:`TABLE` (parsers, constructors, readers);
- ``build``: ``[factory, overrides]``: a public constructor of :data:`FACTORIES` with some
  of its arguments replaced, and the object then used the way a caller would;
- ``cli``: argument lists of ``mathhammer``, run in-process by :func:`mathhammer.cli.main`
  with the standard streams redirected (file descriptors too, so a worker's output is
  caught). Whole arguments that name a :func:`sandbox` path (``@army``, ``@fifo`` ...) are
  replaced by it.

An outcome is ``ok``, ``error <class>`` for a :class:`~mathhammer.errors.MathhammerError`,
``LEAK <class>: <message>`` for anything else (a traceback a user would have seen), or
``HANG`` for a call still running after the time a call is allowed (``SECONDS``, the
fourth argument): an alarm interrupts it, and the batch goes on.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import sys
import tempfile
import threading
import time
import traceback
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
PACKAGE_DATA = ROOT / "mathhammer" / "data"

ARMY = (
    "unit,weapon,count,A,BS/WS,S,AP,D,abilities,points\n"
    "Squad,Bolt rifle,5,2,3+,4,-1,1,,90\n"
    "Guns,Heavy bolter,2,3,4+,5,-1,2,[SUSTAINED HITS 1],60\n"
)
TARGETS = (
    "unit,group,models,T,Sv,InSv,W,FNP,keywords,CHARACTER,Ld,points\n"
    "Horde,,10,3,6+,,1,,INFANTRY,no,6,60\n"
)
OLD = "precious\n"

#: Paths outside the sandbox, read only: the real inputs of the tests, devices, folders.
OUTSIDE = {
    "@examples": str(PACKAGE_DATA / "example_attackers.csv"),
    "@classic": str(PACKAGE_DATA / "example_attackers_classic.csv"),
    "@suitefile": str(PACKAGE_DATA / "targets.json"),
    "@attackersuite": str(PACKAGE_DATA / "attackers.json"),
    "@roster": str(DATA / "rosters" / "necrons.rosz"),
    "@orks": str(DATA / "rosters" / "orks.rosz"),
    "@ros": str(DATA / "rosters" / "necrons.ros"),
    "@rosterjson": str(DATA / "rosters" / "necrons.json"),
    "@bsdata": str(DATA / "bsdata"),
    "@catalogue": str(DATA / "bsdata" / "Necrons.json"),
    "@wahapedia": str(DATA / "wahapedia-10e"),
    "@devzero": "/dev/zero",
    "@devnull": "/dev/null",
    "@stdin": "/dev/stdin",
    "@proc": "/proc/self/status",
    "@root": "/",
}
#: Paths inside the sandbox's ``work`` folder: made afresh before every call.
INSIDE = {
    "@army": "army.csv",
    "@targets": "targets.csv",
    "@suite": "suite.json",
    "@readonly": "readonly.csv",
    "@readonly_png": "readonly.png",
    "@readonly_html": "readonly.html",
    "@empty": "empty.csv",
    "@binary": "binary.csv",
    "@folder": "folder",
    "@fifo": "fifo",
    "@socket": "socket",
    "@loop": "loop.csv",
    "@dangling": "dangling.csv",
    "@link": "link.csv",
    "@new": "new.csv",
    "@missing_input": "missing.csv",
    "@new_png": "new.png",
    "@new_svg": "new.svg",
    "@new_pgf": "new.pgf",
    "@new_html": "new.html",
    "@under_file": "empty.csv/x.csv",
    "@no_folder": "nowhere/x.csv",
    "@long": "x" * 300 + ".csv",
    "@unicode": "rapport \u2603 \u00e9\u0301 \u202e.csv",
}
#: Written in place by a thread that reads whatever arrives (a FIFO output needs a reader).
OUT_FIFO = "@out_fifo"
READ_ONLY = ("@readonly", "@readonly_png", "@readonly_html")


class CallTimeout(BaseException):
    """Raised by the alarm in a call that has run out of time (a BaseException, so that no
    handler of the library mistakes it for an error of its own)."""


def _alarm(number: int, frame: object) -> None:
    raise CallTimeout


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Interrupt the block with :class:`CallTimeout` after ``seconds`` (a blocked ``open``
    of a FIFO too: the signal ends the system call)."""
    signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


def short(text: str, size: int = 300) -> str:
    return " ".join(text.split())[:size]


def outcome(call: Callable[[], object], seconds: float) -> dict[str, Any]:
    """Make ``call``; say how it ended and how long it took."""
    from mathhammer.errors import MathhammerError

    start = time.perf_counter()
    try:
        with time_limit(seconds):
            call()
        kind = "ok"
    except CallTimeout:
        kind = "HANG"
    except MathhammerError as exc:
        kind = f"error {type(exc).__name__}"
    except Exception as exc:
        return {
            "outcome": f"LEAK {printed_name(exc)}: {short(str(exc))}",
            "seconds": time.perf_counter() - start,
            "where": where(exc),
        }
    return {"outcome": kind, "seconds": time.perf_counter() - start}


def printed_name(exc: BaseException) -> str:
    """The exception's name as a traceback prints it (``ValueError``, ``zlib.error``)."""
    module = type(exc).__module__
    return type(exc).__qualname__ if module == "builtins" else f"{module}.{type(exc).__qualname__}"


def where(exc: BaseException) -> str:
    """The last place in the package the exception went through: ``io/roster/load.py:_unzip``."""
    package = f"{os.sep}mathhammer{os.sep}"
    frames = [
        f
        for f in traceback.extract_tb(exc.__traceback__)
        if package in f.filename and not f.name.startswith("<")  # <listcomp> is its function's
    ]
    if not frames:
        return ""
    path = frames[-1].filename.rsplit(package, 1)[1].replace(os.sep, "/")
    return f"{path}:{frames[-1].name}"


# ------------------------------------------------------------------ the sandbox
def sandbox(folder: Path) -> dict[str, str]:
    """Make the hostile paths in ``folder`` (once); return every token's path."""
    keep, work = folder / "keep", folder / "work"
    keep.mkdir(parents=True, exist_ok=True)
    work.mkdir(exist_ok=True)
    fifo = keep / "out-fifo"
    os.mkfifo(fifo)
    threading.Thread(target=_drain, args=(fifo,), daemon=True).start()
    paths = {**OUTSIDE, **{token: str(work / name) for token, name in INSIDE.items()}}
    paths[OUT_FIFO] = str(fifo)
    reset(work)
    return paths


def _drain(fifo: Path) -> None:
    while True:
        with open(fifo, "rb") as handle:
            while handle.read(65536):
                pass


def reset(work: Path) -> None:
    """Put the ``work`` folder back as :func:`sandbox` made it."""
    for entry in list(work.iterdir()):
        if entry.is_dir() and not entry.is_symlink():
            entry.chmod(0o755)
            shutil.rmtree(entry)
        else:
            entry.unlink()
    (work / "army.csv").write_text(ARMY)
    (work / "targets.csv").write_text(TARGETS)
    suite = json.loads((PACKAGE_DATA / "targets.json").read_text())
    suite["targets"] = suite["targets"][:2]
    (work / "suite.json").write_text(json.dumps(suite))
    for token in READ_ONLY:
        path = work / INSIDE[token]
        path.write_text(OLD)
        path.chmod(0o444)
    (work / "empty.csv").write_text("")
    (work / "binary.csv").write_bytes(bytes(range(256)) * 4)
    (work / "folder").mkdir()
    os.mkfifo(work / "fifo")
    with socket.socket(socket.AF_UNIX) as server:
        server.bind(str(work / "socket"))
    (work / "loop.csv").symlink_to("loop.csv")
    (work / "dangling.csv").symlink_to("nowhere/x.csv")
    (work / "link.csv").symlink_to("army.csv")


def debris(work: Path) -> list[str]:
    """The temporary files of our naming left in ``work``."""
    from mathhammer.io.outputs import TEMPORARY_MARK

    return [str(p.relative_to(work)) for p in work.rglob(f"*{TEMPORARY_MARK}*")]


# ------------------------------------------------------------------ the command line
def run_cli(argv: list[str], limit: float) -> dict[str, Any]:
    """``mathhammer ARGV`` in this process, as the console would run it: its exit status,
    the tail of its standard error and its time."""
    from mathhammer.cli import main

    saved = os.dup(1), os.dup(2)
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        sys.stdout.flush()
        sys.stderr.flush()
        os.dup2(out.fileno(), 1)
        os.dup2(err.fileno(), 2)
        start = time.perf_counter()
        try:
            with time_limit(limit):
                status: object = main(argv)
        except CallTimeout:
            status = "HANG"
        except SystemExit as exc:  # argparse: a usage error, --help, --version
            status = 0 if exc.code is None else exc.code
        except BaseException:  # what the interpreter would print, and its status
            traceback.print_exc()
            status = 1
        finally:
            seconds = time.perf_counter() - start
            if sys.stderr.closed:  # main closes it after a closed pipe
                sys.stderr = open(2, "w", closefd=False)  # noqa: SIM115
            sys.stdout.flush()
            sys.stderr.flush()
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            for fd in saved:
                os.close(fd)
        err.seek(0)
        stderr = err.read().decode("utf-8", "replace")
    traceback_shown = "Traceback (most recent call last)" in stderr
    return {
        "status": status,
        "stderr": stderr[-3000:],
        "seconds": seconds,
        "traceback": traceback_shown,
    }


def cli(calls: list[list[str]], folder: Path, limit: float) -> None:
    paths = sandbox(folder)
    work = folder / "work"
    os.chdir(work)  # the default output, mathhammer-report.csv, lands in the sandbox
    for argv in calls:
        result = run_cli([paths.get(arg, arg) for arg in argv], limit)
        result["debris"] = debris(work)
        result["read_only_changed"] = [  # bytes: --force may have written a PNG there
            token for token in READ_ONLY if Path(paths[token]).read_bytes() != OLD.encode()
        ]
        print(json.dumps(result), flush=True)
        reset(work)


# ------------------------------------------------------------------ the library
def main(mode: str, calls_file: str, folder: str, seconds: str) -> None:
    from library_calls import TABLE, build

    warnings.simplefilter("ignore")
    warnings.simplefilter("error", RuntimeWarning)  # numpy's NaN and overflow, as the suite
    calls = json.loads(Path(calls_file).read_text())
    limit = float(seconds)
    if mode == "cli":
        warnings.resetwarnings()  # the command line shows warnings as lines of its own
        cli(calls, Path(folder), limit)
        return
    paths = sandbox(Path(folder))
    for name, args in calls:
        if mode == "build":
            call = partial(build, name, args, paths)
        else:
            call = partial(TABLE[name], paths, *args)
        print(json.dumps(outcome(call, limit)), flush=True)


if __name__ == "__main__":
    main(*sys.argv[1:5])
