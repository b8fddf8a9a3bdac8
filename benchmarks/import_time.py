"""Time ``import mathhammer`` and ``mathhammer --version`` in fresh processes.

Each command runs ``--repeat`` times (10 by default) in a new interpreter, timed from
outside with ``time.perf_counter`` around the whole process, and the median is printed
beside its goal. The interpreter's own start-up (``python -c pass``) is timed the same
way as a floor. By default the checkout this script lives in is measured
(``PYTHONPATH`` points at it); ``--installed`` measures the installed package instead.

    python benchmarks/import_time.py
    python benchmarks/import_time.py --repeat 20 --installed
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: Goals in seconds, for the median of the repeated runs.
GOALS = {"import mathhammer": 0.25, "mathhammer --version": 0.35}
#: Modules that ``import mathhammer`` must leave for later (they are imported on use).
HEAVY = ("scipy", "pandas", "matplotlib")


def _environment(installed: bool) -> dict[str, str]:
    env = dict(os.environ)
    if not installed:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    return env


def _directory(installed: bool) -> str:
    # ``python -c`` puts the working directory first on sys.path: run where only the
    # intended copy can be found
    return tempfile.gettempdir() if installed else str(ROOT)


def _console_script() -> list[str]:
    """The ``mathhammer`` entry point beside this interpreter, as a user would run it.

    A version manager's shim on ``PATH`` (pyenv, say) adds its own start-up time, so the
    script next to ``sys.executable`` comes first; ``python -m mathhammer`` if there is none.
    """
    beside = Path(sys.executable).parent / "mathhammer"
    if beside.is_file() and os.access(beside, os.X_OK):
        return [str(beside)]
    found = shutil.which("mathhammer")
    return [found] if found else [sys.executable, "-m", "mathhammer"]


def _time(command: Sequence[str], env: dict[str, str], cwd: str, repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(command, env=env, cwd=cwd, check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return times


def _heavy_modules(env: dict[str, str], cwd: str) -> tuple[str, list[str]]:
    """Where ``mathhammer`` was imported from, and which heavy packages came with it."""
    probe = (
        "import sys, mathhammer; print(mathhammer.__file__); "
        f"print(' '.join(sorted({{m.split('.')[0] for m in sys.modules}} & {set(HEAVY)!r})))"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], env=env, cwd=cwd, check=True, capture_output=True, text=True
    ).stdout.splitlines()
    return out[0], out[1].split() if len(out) > 1 else []


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=10, help="fresh processes per command")
    parser.add_argument(
        "--installed", action="store_true", help="measure the installed package, not this checkout"
    )
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error(f"--repeat must be at least 1; got {args.repeat}")
    env, cwd = _environment(args.installed), _directory(args.installed)
    where, heavy = _heavy_modules(env, cwd)
    print(f"mathhammer from {where}")
    print(f"python {sys.executable}; load average {os.getloadavg()[0]:.2f} at start")
    commands = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "import mathhammer": [sys.executable, "-c", "import mathhammer"],
        "mathhammer --version": [*_console_script(), "--version"],
    }
    print(f"\n{'command':<22} {'median':>8} {'min':>8} {'max':>8} {'goal':>8}  status")
    failed = False
    for name, command in commands.items():
        times = _time(command, env, cwd, args.repeat)
        median = statistics.median(times)
        goal = GOALS.get(name)
        status = "" if goal is None else ("ok" if median <= goal else "MISSED")
        failed |= status == "MISSED"
        goal_text = f"{goal:.2f} s" if goal is not None else "-"
        print(
            f"{name:<22} {median:>6.3f} s {min(times):>6.3f} s {max(times):>6.3f} s "
            f"{goal_text:>8}  {status}"
        )
    print(f"\nheavy modules loaded by 'import mathhammer': {', '.join(heavy) or 'none'}")
    print(f"medians of {args.repeat} fresh processes; 'python -c pass' is the interpreter's floor")
    return 1 if failed or heavy else 0


if __name__ == "__main__":
    sys.exit(main())
