"""The performance goals of issue 14, every row timed beside its goal and warhammer-stats.

Each row of the goals table is one line of the output: its median (or rate, ratio or
peak memory), the goal beside it, met or not, and the ratio of warhammer-stats' median
to mathhammer's when the peer can express the case (``n/a`` otherwise). The cases are
defined once, in :func:`exact_cases` and :data:`DERIVED`, and listed in
benchmarks/README.md (``--list`` prints that table).

Every exact case is timed two ways, interleaved call by call: **cold** (the headline),
``mathhammer.clear_caches()`` before the call, outside the timed region, so the call
computes everything; and **warm**, the same call again straight after, caches kept.
BLAS and OpenMP are pinned to one thread unless the environment already says otherwise.

Usage::

    python benchmarks/bench_perf.py [--quick] [--cases S1,STRESS,CLIFF] [--json PATH]
    python benchmarks/bench_perf.py --list     # the case definitions as a Markdown table
"""

from __future__ import annotations

import os
import sys

#: The thread pools of numpy's BLAS and of OpenMP; pinned before numpy is imported.
THREAD_ENV = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")
PINNED = tuple(name for name in THREAD_ENV if name not in os.environ)
for _name in PINNED:
    os.environ[_name] = "1"

import argparse  # noqa: E402
import gc  # noqa: E402
import json  # noqa: E402
import platform  # noqa: E402
import re  # noqa: E402
import resource  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import time  # noqa: E402
import warnings  # noqa: E402
from collections.abc import Callable, Sequence  # noqa: E402
from dataclasses import asdict, dataclass, field  # noqa: E402
from functools import partial  # noqa: E402
from pathlib import Path  # noqa: E402
from types import ModuleType  # noqa: E402
from typing import Any  # noqa: E402

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
# This checkout's package (not an installed copy), and bench.py beside this file.
sys.path[:0] = [str(ROOT), str(HERE)]

import bench  # noqa: E402
import numpy as np  # noqa: E402

import mathhammer as mh  # noqa: E402
from mathhammer import ModelGroup, Unit, Weapon  # noqa: E402
from mathhammer.examples import EXAMPLES, Example  # noqa: E402

EXPORT = ROOT.parent / "shared" / "data" / "wahapedia-10e"
#: ``mh.clear_caches`` where the package has it; without it "cold" cannot be measured.
CLEAR: Callable[[], None] | None = getattr(mh, "clear_caches", None)
US, MS = 1e-6, 1e-3
#: The goal of each small case S1-S6, beside a ratio to warhammer-stats of at least 30.
SMALL_GOAL = 80 * US

# --------------------------------------------------------------------------- the cases
_BY_NAME = {ex.name: ex for ex in EXAMPLES}
_HEAVY = Weapon("Heavy gun", attacks=1, skill=3, strength=5, ap=-1, damage="D6")
_ELITE20 = Unit.of("Elite infantry", models=20, toughness=4, save=3, wounds=3, keywords="INFANTRY")
#: The examples' led unit with a third group: three non-CHARACTER groups and a CHARACTER.
_RETINUE = Unit(
    "Led retinue",
    [
        ModelGroup(10, toughness=4, save=3, wounds=2, name="Veterans"),
        ModelGroup(10, toughness=4, save=4, wounds=1, name="Troopers"),
        ModelGroup(3, toughness=4, save=2, wounds=3, invuln=4, name="Gravis"),
        ModelGroup(1, toughness=4, save=2, wounds=5, invuln=4, character=True, name="Captain"),
    ],
    keywords="INFANTRY",
)


@dataclass(frozen=True)
class ExactCase:
    """One exact computation: ``mh.attack(weapons, target)`` (or its ``summary()``)."""

    key: str
    title: str
    weapons: list[tuple[Weapon, int]]
    target: Unit
    goal_s: float
    summary: bool = False

    def run(self) -> Any:
        result = mh.attack(self.weapons, self.target)
        return result.summary() if self.summary else result

    def example(self) -> Example:
        return Example(self.key, self.title, self.weapons, self.target)

    def definition(self) -> str:
        weapons = " + ".join(f"{n} x {_profile(w)}" for w, n in self.weapons)
        call = "`mh.attack(...).summary()`" if self.summary else "`mh.attack`"
        return f"{self.title}: {weapons} vs {_profile(self.target)}; {call}"


def _profile(obj: Weapon | Unit) -> str:
    """``A1 BS3+ S4 AP0 D1 [...]`` of a weapon, ``10x T4 Sv3+ W1 + ...`` of a unit."""
    found = re.fullmatch(r"\w+\('.*?', (?:\d+ models?: )?(.*)\)", repr(obj))
    return found[1] if found else repr(obj)


def _example(name: str) -> tuple[list[tuple[Weapon, int]], Unit]:
    example = _BY_NAME[name]
    return list(example.weapons), example.target


def exact_cases() -> dict[str, ExactCase]:
    """The exact cases of the goals table, by key (the definitions of record)."""
    s1_weapons, s1_target = _example("bolters-vs-line")
    stress_weapons, stress_target = _example("heavy-vs-elite")
    chain_gun = _example("sustained-lethal-vs-elite")[0][0][0]
    small = SMALL_GOAL
    cases = [
        ExactCase("S1", "bolters-vs-line", s1_weapons, s1_target, small),
        ExactCase(
            "S2",
            "D6 damage vs multi-wound models",
            [(Weapon("Heavy plasma", 1, 3, 7, -2, "D6"), 6)],
            Unit.of("Bikers", 5, 5, 3, 4),
            small,
        ),
        ExactCase(
            "S3",
            "D3 damage vs Feel No Pain",
            [(Weapon("Power weapon", 1, 3, 5, -1, "D3"), 12)],
            Unit.of("Zealots", 5, 4, 3, 3, fnp=5),
            small,
        ),
        ExactCase(
            "S4",
            "anti-tank (melta profile) vs a vehicle",
            [(Weapon("Multi-melta", 2, 3, 9, -4, "D6"), 2)],
            Unit.of("Vehicle", 1, 10, 3, 12),
            small,
        ),
        ExactCase(
            "S5",
            "many dice (rapid fire) vs a horde",
            [(Weapon("Storm gun", "2D6", 4, 3, 0, 1), 5)],
            Unit.of("Horde infantry", 20, 3, 5, 1),
            small,
        ),
        ExactCase(
            "S6",
            "invulnerable save",
            [(Weapon("Heavy bolt", 1, 3, 6, -3, 2), 8)],
            Unit.of("Terminators", 5, 4, 2, 3, invuln=4),
            small,
        ),
        ExactCase("STRESS", "heavy-vs-elite", stress_weapons, stress_target, 0.3 * MS),
        ExactCase(
            "D2000",
            "2000 D6 attacks vs 200x W3",
            [(_HEAVY, 2000)],
            Unit.of("Massed elites", 200, 4, 3, 3),
            5 * MS,
        ),
        ExactCase(
            "MIXED640", "640 D6 attacks vs a 4-group unit", [(_HEAVY, 640)], _RETINUE, 25 * MS
        ),
        ExactCase(
            "DWPREC",
            "160 D2 [DEVASTATING WOUNDS] [PRECISION] vs a 4-group unit",
            [(Weapon("Needle gun", 1, 3, 4, -1, 2, "[DEVASTATING WOUNDS], [PRECISION]"), 160)],
            _RETINUE,
            1.0,
        ),
        ExactCase(
            "SUSLETH",
            "160 attacks [SUSTAINED HITS 1] [LETHAL HITS] vs 20x W3",
            [(chain_gun, 160)],
            _ELITE20,
            5 * MS,
        ),
        ExactCase(
            "DEVWOUNDS",
            "160 attacks [DEVASTATING WOUNDS] vs 20x W3",
            [(Weapon("Needle rifle", 1, 3, 4, -1, 2, "[DEVASTATING WOUNDS]"), 160)],
            _ELITE20,
            10 * MS,
        ),
        ExactCase(
            "SUMMARY",
            "summary() of 300 dice vs 50 models in two save groups",
            [(_HEAVY, 300)],
            Unit(
                "Two saves",
                [ModelGroup(25, 4, 3, 3, name="Armoured"), ModelGroup(25, 4, 4, 3, name="Light")],
            ),
            0.1,
            summary=True,
        ),
    ]
    return {case.key: case for case in cases}


#: The cliff: one weapon against one group at these numbers of dice, neighbours compared.
CLIFF_WEAPON = Weapon("Bolter", attacks=1, skill=3, strength=4, ap=0, damage=1)
CLIFF_TARGET = Unit.of("Massed line", models=200, toughness=4, save=3, wounds=1)
CLIFF_SIZES = tuple(sorted({100, *range(112, 601, 16), 257, 513, 600}))
CLIFF_SIZES_QUICK = (128, 192, 256, 257, 320, 512, 513)
CLIFF_GOAL = 1.5
#: Warm calls of CLIFF timed together, each round, for a size's warm time: one call is a
#: lookup of about 20 us, which one reading of the clocks does not resolve to 1.5x (a
#: run's 35 steps of single calls gave 0.72x to 1.51x for the same lookup).
CLIFF_WARM_CALLS = 10
#: Monte Carlo: trials per ``mh.simulate`` call and the goals in trials per second.
MC_TRIALS, MC_TRIALS_QUICK = 500_000, 100_000
MC_GOALS = {"S1": 5e6, "STRESS": 1e6}
BATCH_GOALS = {"compare": 3.0, "report": 5.0}
#: Weapon rows of the export in the --quick batch (the full one has 6,765); its time
#: is scaled to the full batch and marked "est.".
BATCH_QUICK_ROWS = 200
MEMORY_GOAL_MB = 200.0

#: The definitions of the derived rows (the exact rows define themselves).
DERIVED: tuple[tuple[str, str, str], ...] = (
    (
        "DWPREC-mem",
        "peak resident memory of a fresh process that imports mathhammer and runs DWPREC once "
        "(`VmHWM`, or `ru_maxrss` without /proc; the interpreter and imports included)",
        f"<= {MEMORY_GOAL_MB:.0f} MB",
    ),
    (
        "CLIFF",
        f"{_profile(CLIFF_WEAPON)} x n vs {_profile(CLIFF_TARGET)}, n = 100, 112, 128, ..., 592 "
        "(every 16), 257, 513, 600: the largest ratio of a size's median to the next smaller "
        "size's, cold and warm (goal on the larger of the two)",
        f"<= {CLIFF_GOAL}x",
    ),
    (
        "BATCH-compare",
        "every weapon row of the Wahapedia export (6,765 weapons, each its own `Loadout` of one) "
        "x the 9 standard targets, serial, `mh.compare(loadouts, mh.targets.STANDARD)`",
        f"<= {BATCH_GOALS['compare']:.0f} s",
    ),
    (
        "BATCH-report",
        "the same pairs through `mathhammer.io.report.build_report(..., jobs=1)`, "
        "what `mathhammer report` runs",
        f"<= {BATCH_GOALS['report']:.0f} s",
    ),
    (
        "BATCH-attack",
        "the same pairs, one `mh.attack(weapons, target.unit)` call each: pairs per second "
        "(no goal of its own)",
        "-",
    ),
    ("MC-S1", f"`mh.simulate` on S1, {MC_TRIALS:,} trials a call", ">= 5 M trials/s"),
    ("MC-STRESS", f"`mh.simulate` on STRESS, {MC_TRIALS:,} trials a call", ">= 1 M trials/s"),
)
#: The order of the goals table; CLIFF, BATCH and MC name groups of derived rows.
ORDER = (
    *("S1", "S2", "S3", "S4", "S5", "S6", "STRESS", "D2000", "MIXED640", "DWPREC"),
    *("SUSLETH", "DEVWOUNDS", "CLIFF", "BATCH", "SUMMARY", "MC"),
)


def specs() -> list[tuple[str, str, str]]:
    """Every row: (key, definition, goal), in the order of the goals table."""
    cases = exact_cases()
    derived = {key: (key, text, goal) for key, text, goal in DERIVED}
    rows = []
    for key in ORDER:
        if key in cases:
            case = cases[key]
            goal = f"<= {_fmt_time(case.goal_s, goal=True)}"
            if case.goal_s == SMALL_GOAL:
                goal += ", ws/mh >= 30x"
            rows.append((key, case.definition(), goal))
        rows.extend(row for name, row in derived.items() if name.split("-")[0] == key)
    return rows


# --------------------------------------------------------------------------- results
@dataclass
class Row:
    """One line of the output: a headline value (cold), the warm one, goal and peer."""

    key: str
    kind: str  # "time" (s), "ratio" (x), "rate" (per s), "memory" (MB)
    unit: str = ""  # for rates: "trials" or "pairs"
    value: float | None = None  # cold, on the clock of the run (--clock)
    warm: float | None = None
    other: float | None = None  # cold, on the other clock
    goal: float | None = None
    at_most: bool = True
    runs: str = ""
    status: str = ""
    peer_s: float | None = None
    ratio: float | None = None
    ratio_goal: float | None = None
    peer: str = "n/a"  # why the peer column is what it is
    peer_runs: str = ""
    note: str = ""
    detail: dict[str, Any] = field(default_factory=dict)

    def judge(self) -> None:
        if self.status or self.value is None or self.goal is None:
            self.status = self.status or "-"
            return
        ok = self.value <= self.goal if self.at_most else self.value >= self.goal
        if self.ratio_goal is not None and self.ratio is not None:
            ok = ok and self.ratio >= self.ratio_goal
        self.status = "met" if ok else "NOT MET"


def _median(values: Sequence[float]) -> float:
    return float(statistics.median(values))


#: The clocks every call is timed on.
CLOCK_NAMES = {"wall": "time.perf_counter", "cpu": "time.process_time, this process's CPU"}
CLOCKS = tuple(CLOCK_NAMES)


def other_clock(clock: str) -> str:
    return "cpu" if clock == "wall" else "wall"


@dataclass
class Times:
    """Seconds of calls on the wall clock and on the process's CPU clock.

    On a shared machine the wall clock also counts the time the process waited for a
    core; its CPU time does not (BLAS runs one thread, so it is the call's own work).
    """

    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)

    def call(self, func: Callable[[], Any]) -> Any:
        wall, cpu = time.perf_counter(), time.process_time()
        result = func()
        self.cpu.append(time.process_time() - cpu)
        self.wall.append(time.perf_counter() - wall)
        return result

    def median(self, clock: str) -> float:
        return _median(self.wall if clock == "wall" else self.cpu)


#: Runs of one library between the other's in :func:`cold_warm`.
BLOCK = 5
#: Untimed calls of each library at the start of its block, after the other's: the calls
#: made straight after the other library's run slower while what it left in the
#: processor's caches and the allocator wears off (S3's cold calls after five of
#: warhammer-stats', by position: 331, 110, 98, 93, 90, 89, 87, 87, 86 us and then 85,
#: as back to back).
SETTLE_CALLS = 8
#: Untimed calls of each library, in turn, before a case's runs (a case under a second):
#: the first cold calls of a process are slower while the interpreter specialises the
#: code they run (S1's first 40 fell from 140 to 75 us in one process).
WARMUP_CALLS = 40


def cold_warm(
    func: Callable[[], object],
    runs: int,
    warmup: int,
    peer: Callable[[], object] | None = None,
) -> tuple[Times, Times, Times]:
    """``runs`` cold calls, each followed by a warm one, and ``runs`` calls of the peer.

    Interleaved in blocks of :data:`BLOCK` runs, mathhammer's then the peer's, so that a
    change in the machine's load falls on both alike; each block after the other
    library's (or after the warm-up's calls of both) starts with :data:`SETTLE_CALLS`
    untimed calls (one for a case with no warm-up: one over a second), because the calls
    made straight after the other library's run on what that one left in the
    processor's caches and the allocator (a cold S1 measured 1.7x slower right
    after a call of warhammer-stats than after its own). Garbage collection is off
    while timing, as :mod:`timeit` does.
    """
    for _ in range(warmup):
        _clear()
        func()
        if peer is not None:
            bench.clear_peer_caches()
            peer()
    cold, warm, peers = Times(), Times(), Times()
    settle = SETTLE_CALLS if warmup else 1
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        done = 0
        while done < runs:
            block = min(BLOCK, runs - done)
            if peer is not None:
                for _ in range(settle):  # untimed: the first calls after the peer's
                    _clear()
                    func()
            for _ in range(block):
                _clear()
                cold.call(func)
                warm.call(func)
            if peer is not None:
                for _ in range(settle):  # untimed, likewise
                    bench.clear_peer_caches()  # identity-keyed: they only grow (see bench.py)
                    peer()
                for _ in range(block):
                    bench.clear_peer_caches()
                    peers.call(peer)
            done += block
    finally:
        if enabled:
            gc.enable()
        bench.clear_peer_caches()
    return cold, warm, peers


def _clear() -> None:
    if CLEAR is not None:
        CLEAR()


# --------------------------------------------------------------------------- exact rows
@dataclass
class Settings:
    quick: bool
    repeat: int
    heavy_repeat: int
    peer: ModuleType | None
    peer_status: str
    clock: str = "wall"


def bench_exact(case: ExactCase, cfg: Settings) -> Row:
    """Time one exact case cold and warm, and the peer on it, interleaved."""
    row = Row(case.key, "time", goal=case.goal_s)
    if case.goal_s == SMALL_GOAL:
        row.ratio_goal = 30.0
    try:
        probe, result = _probe(case.run)
    except mh.MathhammerError as exc:
        row.status, row.note = "refused", f"{type(exc).__name__}: {exc}"
        return row
    heavy = probe > 1.0
    runs = 1 if probe > 20.0 else (cfg.heavy_repeat if heavy else cfg.repeat)
    peer = peer_call(case, row, cfg)
    slow = Times()
    if peer is not None:
        peer = _peer_probe(case, row, cfg, result, peer, slow)
    cold, warm, peers = cold_warm(case.run, runs, 0 if heavy else WARMUP_CALLS, peer)
    clock = cfg.clock
    row.value, row.warm, row.runs = cold.median(clock), warm.median(clock), str(runs)
    row.other = cold.median(other_clock(clock))
    row.detail.update(cold=asdict(cold), warm=asdict(warm), probe_s=probe)
    peers = peers if peers.wall else slow
    if peers.wall:
        row.peer_s, row.peer_runs = peers.median(clock), str(len(peers.wall))
        row.ratio = row.peer_s / row.value
        row.detail["peer"] = asdict(peers)
    return row


def _probe(func: Callable[[], Any]) -> tuple[float, Any]:
    """One cold call: its wall-clock seconds and its result."""
    _clear()
    start = time.perf_counter()
    result = func()
    return time.perf_counter() - start, result


def _peer_probe(
    case: ExactCase, row: Row, cfg: Settings, ours: Any, peer: Callable[[], Any], slow: Times
) -> Callable[[], Any] | None:
    """One call of the peer: its results checked; the peer to interleave, or None when it
    failed or is slow (thousands of dice: then timed here, into ``slow``, a few times or
    only once)."""
    bench.clear_peer_caches()
    probe = Times()
    try:
        theirs = probe.call(peer)
    except Exception as exc:  # the peer's failure is reported, not ours
        row.peer = f"n/a: it raised {type(exc).__name__}: {exc}"
        return None
    _check_peer(case, row, ours, theirs)
    if probe.wall[0] <= 1.0:
        return peer
    if probe.wall[0] > 5.0 or cfg.quick:
        slow.wall, slow.cpu = probe.wall, probe.cpu
        return None
    for _ in range(cfg.heavy_repeat):
        bench.clear_peer_caches()
        slow.call(peer)
    bench.clear_peer_caches()
    return None


def peer_call(case: ExactCase, row: Row, cfg: Settings) -> Callable[[], Any] | None:
    """warhammer-stats' call for the case, as bench.py expresses it; None (and the reason in
    ``row.peer``) when it is not installed or cannot express the case."""
    ws = cfg.peer
    if ws is None:
        row.peer = cfg.peer_status
        return None
    profiles = bench.peer_profiles(ws, case.example())
    if isinstance(profiles, str) or case.summary:
        row.peer = "n/a: " + (profiles if isinstance(profiles, str) else "no failed-saves stage")
        return None
    row.peer = "ok"
    return lambda: ws.Attack(profiles.weapon, profiles.target).run()


def _check_peer(case: ExactCase, row: Row, ours: Any, theirs: Any) -> None:
    """Note where the peer's mean models killed differs from mathhammer's."""
    kills = np.asarray(theirs.kills_dist.values, dtype=float)
    peer_killed = float(np.arange(kills.size) @ kills)
    killed = float(ours.killed.mean())
    if bench.rel_diff(peer_killed, killed) > bench.AGREEMENT_RTOL:
        row.note = (
            f"warhammer-stats' mean killed {peer_killed:.6g} vs mathhammer's {killed:.6g}"
            f" (its kills are not bounded by the unit's {case.target.models} models)"
        )


def bench_memory(key: str) -> Row:
    """Peak resident memory of a fresh process running one exact case once."""
    row = Row(f"{key}-mem", "memory", goal=MEMORY_GOAL_MB, runs="1")
    command = [sys.executable, str(Path(__file__).resolve()), "--child-memory", key]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=900, check=False)
    except subprocess.TimeoutExpired:
        row.status = "timeout"
        return row
    if done.returncode != 0:
        row.status, row.note = "error", (done.stderr.strip().splitlines() or ["?"])[-1]
        return row
    found = json.loads(done.stdout.strip().splitlines()[-1])
    if found.get("refused"):
        row.status, row.note = "refused", found["refused"]
        return row
    row.value = found["peak_mb"]
    row.note = (
        f"{found['added_mb']:.0f} MB added by the call, {found['before_mb']:.0f} MB before it;"
        f" the call took {found['seconds']:.2f} s ({found['cpu_seconds']:.2f} s of CPU)"
    )
    row.detail = found
    return row


def _peak_mb() -> float:
    """This process's peak resident memory, in MB.

    Linux's ``VmHWM`` belongs to the process's own memory map, which ``exec`` replaces;
    ``ru_maxrss`` is carried over from the process that forked this one, a benchmark
    that may itself have grown to hundreds of MB, so it is only the fallback.
    """
    try:
        status = Path("/proc/self/status").read_text(encoding="ascii")
    except OSError:
        status = ""
    found = re.search(r"^VmHWM:\s+(\d+) kB", status, re.MULTILINE)
    if found:
        return int(found[1]) / 1024
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 2**20 if sys.platform == "darwin" else peak / 1024  # bytes on macOS


def child_memory(key: str) -> int:
    """Run one case once (cold) and print its time and the process's peak memory as JSON."""
    case = exact_cases()[key]
    before = _peak_mb()
    times = Times()
    try:
        times.call(case.run)
    except mh.MathhammerError as exc:
        print(json.dumps({"refused": f"{type(exc).__name__}: {exc}"}))
        return 0
    peak = _peak_mb()
    out = {"seconds": times.wall[0], "cpu_seconds": times.cpu[0], "peak_mb": peak}
    out.update(before_mb=before, added_mb=peak - before)
    print(json.dumps(out))
    return 0


# --------------------------------------------------------------------------- derived rows
def bench_cliff(cfg: Settings) -> Row:
    """Medians at each size (sizes interleaved run by run); the worst step up to the next."""
    sizes = CLIFF_SIZES_QUICK if cfg.quick else CLIFF_SIZES
    calls = {n: partial(mh.attack, [(CLIFF_WEAPON, n)], CLIFF_TARGET) for n in sizes}
    for call in calls.values():  # warm-up: imports and first-use costs out of the way
        call()
    cold = {n: Times() for n in sizes}
    warm = {n: Times() for n in sizes}
    for _ in range(cfg.repeat):
        for n in sizes:
            c, _, _ = cold_warm(calls[n], 1, 0)
            cold[n].wall += c.wall
            cold[n].cpu += c.cpu
            w = Times()
            w.call(partial(_calls, calls[n], CLIFF_WARM_CALLS))
            warm[n].wall += [t / CLIFF_WARM_CALLS for t in w.wall]
            warm[n].cpu += [t / CLIFF_WARM_CALLS for t in w.cpu]
    medians = {
        f"{mode}_{clock}": [times[n].median(clock) for n in sizes]
        for mode, times in (("cold", cold), ("warm", warm))
        for clock in CLOCKS
    }
    worst: dict[str, tuple[float, int, int]] = {}
    for name, values in medians.items():
        steps = [(b / a, sizes[i], sizes[i + 1]) for i, (a, b) in enumerate(pairwise(values))]
        worst[name] = max(steps)
    clock, other = cfg.clock, other_clock(cfg.clock)
    row = Row("CLIFF", "ratio", goal=CLIFF_GOAL, runs=str(cfg.repeat))
    row.value, row.warm = worst[f"cold_{clock}"][0], worst[f"warm_{clock}"][0]
    row.other = worst[f"cold_{other}"][0]
    row.status = "met" if max(row.value, row.warm) <= CLIFF_GOAL else "NOT MET"
    row.note = "largest steps: " + ", ".join(
        f"{mode} {r:.2f}x at {a}->{b}{'' if c == clock else f' ({c})'}"
        for c in (clock, other)
        for mode in ("cold", "warm")
        for r, a, b in [worst[f"{mode}_{c}"]]
    )
    row.peer = "n/a: a ratio of mathhammer's own times"
    row.detail = {"sizes": list(sizes), **medians}
    return row


def _calls(func: Callable[[], object], count: int) -> None:
    """``count`` calls of ``func`` in a row (garbage collection off, as :func:`cold_warm`)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        for _ in range(count):
            func()
    finally:
        if enabled:
            gc.enable()


def pairwise(values: Sequence[float]) -> list[tuple[float, float]]:
    return list(zip(values[:-1], values[1:], strict=True))


def export_weapons(folder: Path) -> tuple[list[Weapon], int]:
    """Every weapon row of the export the package can read, and how many rows it skipped."""
    from mathhammer.io.wahapedia import WEAPON_COLUMNS, read_table, weapon_from_row
    from mathhammer.io.wahapedia.weapons import WeaponRowError

    weapons, skipped = [], 0
    for row in read_table(folder / "Datasheets_wargear.csv", WEAPON_COLUMNS).rows:
        try:
            weapons.append(weapon_from_row(row.values))
        except WeaponRowError:
            skipped += 1
    return weapons, skipped


def bench_batch(cfg: Settings) -> list[Row]:
    """Every weapon row x the standard targets: compare, report and attack, serial."""
    keys = ("BATCH-compare", "BATCH-report", "BATCH-attack")
    if not (EXPORT / "Datasheets_wargear.csv").is_file():
        message = f"skipped: the Wahapedia export is not beside the repository ({EXPORT})"
        return [Row(key, "rate", status="skipped", note=message) for key in keys]
    from mathhammer.io.report import build_report

    weapons, skipped = export_weapons(EXPORT)
    full_pairs = len(weapons) * 9
    if cfg.quick:
        weapons = weapons[:BATCH_QUICK_ROWS]
    targets = list(mh.targets.STANDARD)
    loadouts = [mh.Loadout(f"{i:04d} {w.name}", [(w, 1)]) for i, w in enumerate(weapons)]
    pairs = len(loadouts) * len(targets)
    refused: list[int] = []

    def attack_each() -> None:
        refused[:] = [0]
        for loadout in loadouts:
            for target in targets:
                try:
                    mh.attack(loadout.weapons, target.unit)
                except mh.MathhammerError:
                    refused[0] += 1

    runs: dict[str, Callable[[], object]] = {
        "BATCH-compare": lambda: mh.compare(loadouts, targets),
        "BATCH-report": lambda: build_report(loadouts, targets, jobs=1),
        "BATCH-attack": attack_each,
    }
    # the libraries a path imports on first use (pandas for the frames, the report's
    # modules) are loaded once per process, not per batch: one loadout first, untimed
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        mh.compare(loadouts[:1], targets)
        build_report(loadouts[:1], targets, jobs=1)
    scale = full_pairs / pairs
    out = []
    for key, run in runs.items():
        row = Row(key, "time", runs="1", peer="n/a: not run over the batch")
        goal = BATCH_GOALS.get(key.split("-")[1])
        row.goal = goal
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                _clear()
                cold, warm = Times(), Times()
                cold.call(run)
                warm.call(run)
        except Exception as exc:  # a batch that fails is reported, not fatal
            row.status, row.note = "error", f"{type(exc).__name__}: {exc}"
            out.append(row)
            continue
        seconds = cold.median(cfg.clock), warm.median(cfg.clock)
        row.value, row.warm = seconds[0] * scale, seconds[1] * scale
        row.other = cold.median(other_clock(cfg.clock)) * scale
        row.note = f"{pairs / seconds[0]:,.0f} pairs/s cold, {pairs / seconds[1]:,.0f} warm"
        if key == "BATCH-attack":  # no goal of its own: its rate, beside the others'
            row.kind, row.unit = "rate", "pairs"
            row.value, row.warm, row.other = pairs / seconds[0], pairs / seconds[1], None
            row.note = f"{seconds[0] * scale:.1f} s cold, {seconds[1] * scale:.1f} s warm"
        if cfg.quick:
            row.note += f"; est. from {pairs:,} of {full_pairs:,} pairs"
        if key == "BATCH-attack" and refused and refused[0]:
            row.note += f"; {refused[0]} pairs refused"
        row.detail = {"pairs": pairs, "full_pairs": full_pairs}
        row.detail.update(cold=asdict(cold), warm=asdict(warm))
        row.detail.update(weapons=len(weapons), distinct=len(set(weapons)), rows_skipped=skipped)
        out.append(row)
    return out


def bench_mc(cfg: Settings, cases: dict[str, ExactCase]) -> list[Row]:
    """Monte Carlo throughput on S1 and STRESS (cold: caches cleared before each call)."""
    trials = MC_TRIALS_QUICK if cfg.quick else MC_TRIALS
    repeat = 2 if cfg.quick else 5
    out = []
    for key, goal in MC_GOALS.items():
        case = cases[key]

        def run(case: ExactCase = case) -> object:
            return mh.simulate(case.weapons, case.target, trials=trials, rng=1)

        run()
        times = Times()
        for _ in range(repeat):
            _clear()
            times.call(run)
        row = Row(f"MC-{key}", "rate", unit="trials", goal=goal, at_most=False, runs=str(repeat))
        row.value = trials / times.median(cfg.clock)
        row.other = trials / times.median(other_clock(cfg.clock))
        row.peer = "n/a: warhammer-stats has no Monte Carlo"
        row.detail = {"trials": trials, "seconds": asdict(times)}
        out.append(row)
    return out


# --------------------------------------------------------------------------- output
def _fmt_time(seconds: float | None, goal: bool = False) -> str:
    """``412 us``, ``1.25 ms``, ``2.31 s``; a goal without trailing zeros (``5 ms``)."""
    if seconds is None:
        return "-"
    if seconds < 1e-3:
        return f"{seconds * 1e6:.0f} us"
    value, unit = (seconds * 1e3, "ms") if seconds < 1.0 else (seconds, "s")
    return f"{value:g} {unit}" if goal else f"{value:.2f} {unit}"


def _fmt(row: Row, value: float | None, goal: bool = False) -> str:
    if value is None:
        return "-"
    if row.kind == "time":
        return _fmt_time(value, goal)
    if row.kind == "ratio":
        return f"{value:g}x" if goal else f"{value:.2f}x"
    if row.kind == "memory":
        return f"{value:.0f} MB"
    if row.unit == "trials":
        return f"{value / 1e6:g} M/s" if goal else f"{value / 1e6:.2f} M/s"
    return f"{value:,.0f}/s"


def _goal(row: Row) -> str:
    if row.goal is None:
        return "-"
    text = ("<= " if row.at_most else ">= ") + _fmt(row, row.goal, goal=True)
    if row.ratio_goal is not None:
        text += f", ws/mh >= {row.ratio_goal:.0f}x"
    return text


def print_report(rows: Sequence[Row], meta: dict[str, Any]) -> None:
    """The header, the goals table and the notes."""
    print(
        f"mathhammer {meta['mathhammer']} ({meta['mathhammer_path']}) | Python {meta['python']}"
        f" | numpy {meta['numpy']} | {meta['machine']} ({meta['cpus']} CPUs)"
    )
    load = ", ".join(f"{x:.2f}" for x in meta["load_average_start"])
    print(f"load average at start (1, 5, 15 min): {load}")
    threads = " ".join(f"{k}={v}" for k, v in meta["thread_env"].items())
    pinned = f" (set to 1 by this script: {', '.join(PINNED)})" if PINNED else ""
    print(f"threads: {threads}{pinned}")
    print(f"caches: {meta['clear_caches']}; peer: {meta['peer']}")
    print(meta["runs"])
    print(meta["clock"])
    busy = meta["load_average_start"][0]
    if busy > (meta["cpus"] or 1):
        print(
            f"BUSY: load {busy:.1f} on {meta['cpus']} CPUs: the wall-clock times include"
            " waiting for a core; the CPU times do not"
        )
    print()
    other = f"cold {other_clock(meta['clock_used'])}"
    header = ["row", "cold", "warm", other, "goal", "status", "runs"]
    lines = [[*header, "ws median", "ws/mh", "ws runs"]]
    for row in rows:
        lines.append(
            [
                row.key,
                _fmt(row, row.value),
                _fmt(row, row.warm),
                _fmt(row, row.other),
                _goal(row),
                row.status,
                row.runs,
                _fmt_time(row.peer_s) if row.peer_s is not None else "n/a",
                f"{row.ratio:.1f}x" if row.ratio is not None else "n/a",
                row.peer_runs,
            ]
        )
    print(bench.table(lines, [False, True, True, True, False, False, True, True, True, True]))
    for title, notes in (
        ("notes", [(r.key, r.note) for r in rows if r.note]),
        ("warhammer-stats", [(r.key, r.peer) for r in rows if r.peer_s is None]),
    ):
        if notes:
            print(f"\n{title}:")
            for key, note in notes:
                print(f"  {key}: {note}")
    load = ", ".join(f"{x:.2f}" for x in meta["load_average_end"])
    print(f"\nload average at end (1, 5, 15 min): {load}")


def print_cliff(row: Row, clock: str) -> None:
    sizes, detail, other = row.detail["sizes"], row.detail, other_clock(clock)
    names = ["cold", "warm", f"cold {other}", f"warm {other}"]
    columns = [detail[f"{mode}_{c}"] for c in (clock, other) for mode in ("cold", "warm")]
    print(f"\nCLIFF medians ({_profile(CLIFF_WEAPON)} x n vs {_profile(CLIFF_TARGET)}):")
    lines = [["n", *(cell for name in names for cell in (name, "step"))]]
    for i, n in enumerate(sizes):
        cells = [str(n)]
        for values in columns:
            cells += [_fmt_time(values[i]), f"{values[i] / values[i - 1]:.2f}x" if i else ""]
        lines.append(cells)
    print(bench.table(lines, [True] * 9))


def print_definitions() -> None:
    """The case definitions as the Markdown table of benchmarks/README.md."""
    print("| row | case | goal |")
    print("|---|---|---|")
    for key, definition, goal in specs():
        print(f"| {key} | {definition} | {goal} |")


# --------------------------------------------------------------------------- main
def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--quick",
        action="store_true",
        help="medians of 5 runs, a shorter cliff, a sample of the batch scaled up, and "
        "DWPREC skipped unless named in --cases: a smoke run, not figures of record",
    )
    parser.add_argument("--cases", help="comma-separated row keys or groups (all)")
    parser.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    parser.add_argument("--repeat", type=int, help="runs per exact case (15; --quick: 5)")
    parser.add_argument("--no-peer", action="store_true", help="skip warhammer-stats")
    parser.add_argument(
        "--clock",
        choices=CLOCKS,
        default="wall",
        help="the clock of the medians and goals: wall (time.perf_counter, the default) or "
        "cpu (time.process_time: steadier on a busy machine); the other is shown beside",
    )
    parser.add_argument("--list", action="store_true", help="print the case definitions")
    parser.add_argument("--child-memory", metavar="KEY", help=argparse.SUPPRESS)
    return parser


def chosen_keys(spec: str | None, quick: bool) -> list[str]:
    """The keys to run, in table order (--quick leaves DWPREC out unless it is named)."""
    if spec is None:
        return [k for k in ORDER if not (quick and k == "DWPREC")]
    named = {s.strip().upper() for s in spec.split(",") if s.strip()}
    unknown = sorted(named - set(ORDER))
    if unknown:
        raise SystemExit(f"--cases must name rows of {', '.join(ORDER)}; got {unknown}")
    return [k for k in ORDER if k in named]


def collect(keys: Sequence[str], cfg: Settings) -> list[Row]:
    cases = exact_cases()
    rows: list[Row] = []
    for key in keys:
        if key in cases:
            rows.append(bench_exact(cases[key], cfg))
            if key == "DWPREC":
                rows.append(bench_memory(key))
        elif key == "CLIFF":
            rows.append(bench_cliff(cfg))
        elif key == "BATCH":
            rows.extend(bench_batch(cfg))
        elif key == "MC":
            rows.extend(bench_mc(cfg, cases))
    for row in rows:
        row.judge()
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.child_memory:
        return child_memory(args.child_memory)
    if args.list:
        print_definitions()
        return 0
    repeat = args.repeat or (5 if args.quick else 15)
    if repeat < 1:
        raise SystemExit(f"--repeat must be >= 1; got {repeat}")
    keys = chosen_keys(args.cases, args.quick)
    ws = None if args.no_peer else bench.load_peer()
    status = "skipped" if args.no_peer else ("ok" if ws is not None else "not installed")
    heavy = 1 if args.quick else 3
    cfg = Settings(args.quick, repeat, heavy, ws, status, args.clock)
    meta: dict[str, Any] = {
        "mathhammer": mh.__version__,
        "mathhammer_path": str(Path(mh.__file__).parent),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "machine": f"{platform.system()} {platform.machine()}",
        "cpus": os.cpu_count(),
        "load_average_start": list(os.getloadavg()),
        "thread_env": {name: os.environ.get(name, "") for name in THREAD_ENV},
        "pinned_by_script": list(PINNED),
        "clear_caches": "cold = mh.clear_caches() before each call"
        if CLEAR is not None
        else "mh.clear_caches missing: cold is not cold",
        "peer": f"{bench.PEER_DIST} {bench.peer_version()}" if ws is not None else status,
        "quick": args.quick,
        "clock_used": args.clock,
        "clock": f"clock: {args.clock} ({CLOCK_NAMES[args.clock]}); beside it, the cold median"
        f" on the {other_clock(args.clock)} clock ({CLOCK_NAMES[other_clock(args.clock)]})",
        "runs": f"runs: medians of {repeat} cold and {repeat} warm calls"
        f" (interleaved; {heavy} for a case over 1 s, 1 over 20 s; batch rows once each)"
        + (" -- QUICK: a smoke run, not figures of record" if args.quick else ""),
    }
    rows = collect(keys, cfg)
    meta["load_average_end"] = list(os.getloadavg())
    print_report(rows, meta)
    for row in rows:
        if row.key == "CLIFF" and row.detail:
            print_cliff(row, cfg.clock)
    if args.json:
        payload = {"meta": meta, "rows": [asdict(r) for r in rows]}
        Path(args.json).write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
