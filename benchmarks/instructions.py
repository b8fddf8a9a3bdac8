"""Instructions a cold call executes, counted by valgrind: a figure the machine's load does
not move, for comparing two checkouts (or a change) where timings vary by twice an hour.

For each case, two runs of the same child under callgrind, one making ``N`` cold calls
(``mathhammer.clear_caches()`` then the call, as ``bench_perf.py`` times them) and one
making only the ``N`` clearings: the difference over ``N`` is the call's own instructions
(and the clearing of the previous call's caches), garbage collection off as when timed. ``compare``
counts per pair: ``mh.compare`` of 400 distinct Wahapedia weapon profiles (a fixed
sample) against the 9 standard targets, less the same run without the comparison.
``PYTHONHASHSEED`` is fixed (0) for both runs: another seed moves a count by a few percent.
BLAS runs one thread, as ``bench_perf.py`` sets it: the waiting of a second thread is
otherwise counted, more of it the busier the machine.

Usage::

    python benchmarks/instructions.py                       # S1-S6 and STRESS, 100 calls
    python benchmarks/instructions.py --cases S1,compare --root ../other-checkout

``--root`` counts another checkout's package with this script's cases (its own
``benchmarks/bench_perf.py`` defines them). Needs ``valgrind`` on the PATH (Debian:
``apt-get install valgrind``); a run of all the default cases takes a few minutes.
"""

from __future__ import annotations

import argparse
import gc
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_CASES = ("S1", "S2", "S3", "S4", "S5", "S6", "STRESS")
#: Weapon profiles in the ``compare`` case, and the seed that samples them.
SAMPLE, SAMPLE_SEED = 400, 7


def child(root: Path, case: str, calls: int, mode: str) -> None:
    """The measured process: ``calls`` cold calls of ``case`` (``mode == "cold"``) or only
    the clearings (``"clear"``); ``compare`` runs the comparison once, or not at all."""
    sys.path[:0] = [str(root), str(root / "benchmarks")]
    import mathhammer as mh  # noqa: PLC0415 (the checkout's package, after the path)

    if case == "compare":
        import random  # noqa: PLC0415
        import warnings  # noqa: PLC0415

        from bench_perf import EXPORT, export_weapons  # noqa: PLC0415

        weapons, _ = export_weapons(EXPORT)
        distinct = sorted(set(weapons), key=repr)
        random.Random(SAMPLE_SEED).shuffle(distinct)
        loadouts = [mh.Loadout(f"{i:04d} {w.name}", [(w, 1)]) for i, w in enumerate(distinct)]
        loadouts = loadouts[:SAMPLE]
        targets = list(mh.targets.STANDARD)
        warnings.simplefilter("ignore")
        mh.compare(loadouts[:1], targets)  # the modules a first comparison imports
        mh.clear_caches()
        if mode == "cold":
            mh.compare(loadouts, targets)
        return
    from bench_perf import exact_cases  # noqa: PLC0415

    run = exact_cases()[case].run
    for _ in range(3):  # imports and first-use constants, outside the count's difference
        mh.clear_caches()
        run()
    gc.collect()
    gc.disable()  # as bench_perf.py times them
    for _ in range(calls):
        mh.clear_caches()
        if mode == "cold":
            run()


def count(root: Path, case: str, calls: int, mode: str) -> int:
    """The instructions valgrind counts in one child process."""
    # BLAS on one thread, as bench_perf.py runs it: a worker thread's waiting spins
    # between products, and valgrind would count them (as many again as a Monte Carlo's
    # own instructions, varying with the machine's load)
    threads = dict.fromkeys(("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"), "1")
    env = dict(os.environ, PYTHONHASHSEED="0", **threads)
    command = [
        "valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
        sys.executable, str(Path(__file__).resolve()), "--child", case, str(calls), mode,
        "--root", str(root),
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if done.returncode != 0 or found is None:
        raise RuntimeError(f"valgrind failed on {case} ({mode}):\n{done.stderr[-2000:]}")
    return int(found[1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", default=",".join(DEFAULT_CASES))
    parser.add_argument("--calls", type=int, default=100, help="cold calls a case (100)")
    parser.add_argument("--root", type=Path, default=HERE.parent, help="the checkout counted")
    parser.add_argument(
        "--child", nargs=3, metavar=("CASE", "CALLS", "MODE"), help=argparse.SUPPRESS
    )
    args = parser.parse_args(argv)
    root = args.root.resolve()
    if args.child:
        case, calls, mode = args.child
        child(root, case, int(calls), mode)
        return 0
    if shutil.which("valgrind") is None:
        print("instructions.py: valgrind is not on the PATH", file=sys.stderr)
        return 2
    print(f"instructions per cold call of {root / 'mathhammer'} (valgrind, PYTHONHASHSEED=0)")
    for case in args.cases.split(","):
        calls = 1 if case == "compare" else args.calls
        per = (count(root, case, calls, "cold") - count(root, case, calls, "clear")) / calls
        if case == "compare":
            per /= SAMPLE * 9
            print(f"{case:8} {per / 1000:10,.0f} k a pair ({SAMPLE} profiles x 9 targets)")
        else:
            print(f"{case:8} {per / 1000:10,.0f} k a call ({calls} calls)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
