"""Benchmark of mathhammer's exact engine and Monte Carlo, with warhammer-stats as a peer.

What is measured, for each example of :data:`mathhammer.examples.EXAMPLES`:

* ``mh.attack``: the wall-clock time of one exact computation (profiles built
  beforehand). After a few warm-up calls, every call is timed on its own with
  :func:`time.perf_counter` (garbage collection off, as :mod:`timeit` does); the
  median, the 10th and the 90th percentiles are reported against a per-case goal.
* ``mh.simulate``: Monte Carlo throughput in trials per second (trials divided by
  the median wall-clock time of a whole call), against a goal on case (a).
* The peer, the PyPI package ``warhammer-stats``, when it is installed:
  ``Attack(weapon, target).run()`` timed the same way on every case it can express
  (one weapon profile against one model profile), the ratio of its median time to
  mathhammer's, and whether its mean models killed, mean damage and P(unit destroyed)
  agree with mathhammer's exact results. Cases it cannot express are reported as "n/a".

Usage::

    python benchmarks/bench.py [--repeat N] [--json PATH|-] [--cases a,b]

With ``--json -`` the JSON goes to stdout and the tables to stderr.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import importlib.metadata
import json
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from types import ModuleType
from typing import Any, TextIO

import numpy as np

import mathhammer as mh
from mathhammer.examples import EXAMPLES, Example

#: The benchmark's case letters and the example each one names.
CASE_NAMES: dict[str, str] = {
    "a": "bolters-vs-line",
    "b": "heavy-vs-elite",
    "c": "heavy-vs-big-unit",
    "d": "heavy-vs-led-unit",
    "e": "sustained-lethal-vs-elite",
    "f": "devastating-anti-vs-led-unit",
}
#: Goal for the median time of ``mh.attack``, in milliseconds.
ATTACK_GOAL_MS: dict[str, float] = {"a": 0.5, "b": 2.0, "c": 20.0, "d": 5.0, "e": 2.0, "f": 5.0}
#: Goal for ``mh.simulate`` throughput, in trials per second (only case (a) has one).
SIMULATE_GOAL_TPS: dict[str, float] = {"a": 1_000_000.0}
#: Relative difference of two means below which the peer is said to agree.
AGREEMENT_RTOL = 1e-3
#: Probabilities and differences below this are not reported as differences (round-off).
MASS_ATOL = 1e-9
PEER_DIST = "warhammer-stats"
#: Environment variables that set the BLAS / OpenMP thread pools numpy and scipy use.
THREAD_ENV = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")
#: Functions of warhammer-stats cached with ``functools.cache``; they are keyed on
#: PMF objects by identity, so they never hit across calls, only grow. They are
#: cleared (outside the timed region) before each timed call.
PEER_CACHE_MODULE = "warhammer_stats.attack.phases.kill_phase"
PEER_CACHED = (
    "calculate_kills",
    "generate_kill_tree",
    "generate_mortal_kill_tree",
    "generate_one_kill_tree",
)


# --------------------------------------------------------------------------- timing
@dataclass(frozen=True)
class Timing:
    """Wall-clock times of repeated calls, in milliseconds."""

    repeat: int
    median_ms: float
    p10_ms: float
    p90_ms: float
    min_ms: float

    @classmethod
    def of(cls, seconds: Sequence[float]) -> Timing:
        ms = np.asarray(seconds) * 1e3
        p10, median, p90 = np.percentile(ms, [10, 50, 90])
        return cls(len(ms), float(median), float(p10), float(p90), float(ms.min()))


def time_calls(
    func: Callable[[], object],
    repeat: int,
    warmup: int,
    setup: Callable[[], None] | None = None,
) -> list[float]:
    """Seconds taken by each of ``repeat`` calls of ``func``, after ``warmup`` untimed calls.

    ``setup`` runs before every call, outside the timed region.
    """
    for _ in range(warmup):
        if setup is not None:
            setup()
        func()
    times: list[float] = []
    gc.collect()
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        for _ in range(repeat):
            if setup is not None:
                setup()
            start = time.perf_counter()
            func()
            times.append(time.perf_counter() - start)
    finally:
        if gc_was_enabled:
            gc.enable()
    return times


# --------------------------------------------------------------------------- results
@dataclass
class AttackBench:
    """``mh.attack`` on one case: timing, goal and the exact means."""

    timing: Timing
    goal_ms: float
    met: bool
    killed_mean: float
    damage_mean: float
    p_destroyed: float


@dataclass
class SimulateBench:
    """``mh.simulate`` on one case: throughput, goal and the estimate of mean killed."""

    trials: int
    repeat: int
    median_s: float
    trials_per_s: float
    goal_trials_per_s: float | None
    met: bool | None
    killed_mean: float
    killed_se: float


@dataclass
class PeerBench:
    """warhammer-stats on one case: status, timing and how its numbers compare."""

    status: str  # "ok", "n/a", "not installed" or "skipped"
    reason: str = ""
    timing: Timing | None = None
    ratio: float | None = None  # peer median / mathhammer median
    killed_mean: float | None = None
    damage_mean: float | None = None
    p_destroyed: float | None = None  # P(kills >= models) from its kills pmf
    killed_mass: float | None = None  # total probability of its kills pmf
    damage_mass: float | None = None
    p_kills_over_unit: float | None = None  # P(kills > models in the unit)
    killed_rel_diff: float | None = None
    damage_rel_diff: float | None = None
    killed_agrees: bool | None = None
    damage_agrees: bool | None = None
    notes: list[str] = field(default_factory=list)


@dataclass
class CaseBench:
    """Everything measured on one case."""

    key: str
    name: str
    description: str
    attack: AttackBench
    simulate: SimulateBench | None
    peer: PeerBench


# --------------------------------------------------------------------------- mathhammer
def bench_attack(key: str, example: Example, repeat: int, warmup: int) -> AttackBench:
    """Time ``mh.attack`` on the example and keep its exact means."""
    result = mh.attack(example.weapons, example.target)
    timing = Timing.of(
        time_calls(lambda: mh.attack(example.weapons, example.target), repeat, warmup)
    )
    goal = ATTACK_GOAL_MS[key]
    return AttackBench(
        timing=timing,
        goal_ms=goal,
        met=timing.median_ms <= goal,
        killed_mean=result.killed.mean(),
        damage_mean=result.damage.mean(),
        p_destroyed=result.p_destroyed,
    )


def bench_simulate(key: str, example: Example, trials: int, repeat: int) -> SimulateBench:
    """Throughput of ``mh.simulate`` on the example, in trials per second."""
    last: list[Any] = []

    def run() -> None:
        last[:] = [mh.simulate(example.weapons, example.target, trials=trials, rng=1)]

    times = time_calls(run, repeat, warmup=1)
    median = statistics.median(times)
    goal = SIMULATE_GOAL_TPS.get(key)
    tps = trials / median
    sim = last[0]
    return SimulateBench(
        trials=trials,
        repeat=repeat,
        median_s=median,
        trials_per_s=tps,
        goal_trials_per_s=goal,
        met=None if goal is None else tps >= goal,
        killed_mean=float(sim.killed.mean()),
        killed_se=float(sim.killed_se),
    )


# --------------------------------------------------------------------------- peer
def load_peer() -> ModuleType | None:
    """The ``warhammer_stats`` module, or None when it is not installed."""
    try:
        return importlib.import_module("warhammer_stats")
    except ImportError:
        return None


def peer_version() -> str:
    try:
        return importlib.metadata.version(PEER_DIST)
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


@dataclass(frozen=True)
class PeerProfiles:
    """A case translated into warhammer-stats' ``Weapon`` and ``Target``."""

    weapon: Any
    target: Any
    models: int


def peer_profiles(ws: ModuleType, example: Example) -> PeerProfiles | str:
    """The example as warhammer-stats profiles, or the reason it cannot express it.

    warhammer-stats takes one weapon (BS, a distribution of shots, S, AP as a
    positive number, a damage distribution) against one ``Target`` profile
    (T, Sv, invulnerable save, Feel No Pain, W; 7 meaning "none"). It has no
    number of models.
    """
    pools = mh.gather_pools(example.weapons)
    if len(pools) != 1:
        return "several weapon profiles (no shared target state between them)"
    pool = pools[0]
    if isinstance(pool, mh.MortalWounds):
        return "mortal wounds: not a weapon profile"
    weapon = pool.weapon
    if any(not isinstance(a, mh.abilities.NoEffect) for a in weapon.abilities):
        return "weapon abilities are not translated"
    groups = example.target.groups
    if len(groups) != 1:
        return "mixed model groups: its Target is a single model profile"
    group = groups[0]
    if group.wounds_lost:
        return "a pre-wounded model"
    attacks = mh.Dist.constant(0)
    for each, count in pool.weapons:
        attacks = attacks + mh.parse_dice(each.attacks).dist.repeat(count)
    pmf, pmf_collection = ws.PMF, ws.PMFCollection
    peer_weapon = ws.Weapon(
        bs=weapon.skill,
        shots=pmf_collection([pmf([float(p) for p in attacks.probabilities])]),
        strength=weapon.strength,
        ap=-weapon.ap,
        damage=pmf_collection(
            [pmf([float(p) for p in mh.parse_dice(weapon.damage).dist.probabilities])]
        ),
    )
    peer_target = ws.Target(
        toughness=group.toughness,
        save=group.save,
        invuln=7 if group.invuln is None else group.invuln,
        fnp=7 if group.fnp is None else group.fnp,
        wounds=group.wounds,
    )
    return PeerProfiles(peer_weapon, peer_target, group.count)


def clear_peer_caches() -> None:
    """Empty warhammer-stats' identity-keyed caches (they only grow between calls)."""
    module = sys.modules.get(PEER_CACHE_MODULE)
    for name in PEER_CACHED:
        cache_clear = getattr(getattr(module, name, None), "cache_clear", None)
        if cache_clear is not None:
            cache_clear()


def rel_diff(value: float, reference: float) -> float:
    return abs(value - reference) / max(abs(reference), 1e-12)


def bench_peer(
    ws: ModuleType, example: Example, exact: AttackBench, repeat: int, warmup: int
) -> PeerBench:
    """Time warhammer-stats on the example and compare its means with mathhammer's."""
    profiles = peer_profiles(ws, example)
    if isinstance(profiles, str):
        return PeerBench(status="n/a", reason=profiles)

    def run() -> Any:
        return ws.Attack(profiles.weapon, profiles.target).run()

    clear_peer_caches()
    result = run()
    timing = Timing.of(time_calls(run, repeat, warmup, setup=clear_peer_caches))
    clear_peer_caches()

    kills = np.asarray(result.kills_dist.values, dtype=float)
    damage = np.asarray(result.total_damage_dist.values, dtype=float)
    models = profiles.models
    killed_mean = float(np.arange(kills.size) @ kills)
    damage_mean = float(np.arange(damage.size) @ damage)
    killed_rel = rel_diff(killed_mean, exact.killed_mean)
    damage_rel = rel_diff(damage_mean, exact.damage_mean)
    peer = PeerBench(
        status="ok",
        timing=timing,
        ratio=timing.median_ms / exact.timing.median_ms,
        killed_mean=killed_mean,
        damage_mean=damage_mean,
        p_destroyed=float(kills[models:].sum()),
        killed_mass=float(kills.sum()),
        damage_mass=float(damage.sum()),
        p_kills_over_unit=float(kills[models + 1 :].sum()),
        killed_rel_diff=killed_rel,
        damage_rel_diff=damage_rel,
        killed_agrees=killed_rel <= AGREEMENT_RTOL,
        damage_agrees=damage_rel <= AGREEMENT_RTOL,
    )
    peer.notes = peer_notes(kills, damage, exact, models, example.target.total_wounds)
    return peer


def peer_notes(
    kills: np.ndarray, damage: np.ndarray, exact: AttackBench, models: int, total_wounds: int
) -> list[str]:
    """Factual observations on the peer's kills and damage pmfs for one case."""
    notes: list[str] = []
    for label, pmf in (("kills", kills), ("damage", damage)):
        missing = 1.0 - float(pmf.sum())
        if missing > MASS_ATOL:
            notes.append(f"its {label} pmf sums to {1.0 - missing:.9f} (missing {missing:.2e})")
    over_unit = float(kills[models + 1 :].sum())
    if over_unit > MASS_ATOL:
        notes.append(
            f"P(kills > the unit's {models} models) = {over_unit:.2e}"
            " (its kills are not bounded by the unit size)"
        )
    over_wounds = float(damage[total_wounds + 1 :].sum())
    if over_wounds > MASS_ATOL:
        notes.append(
            f"P(damage > the unit's {total_wounds} wounds) = {over_wounds:.2e}"
            " (its damage is not bounded by the unit's wounds)"
        )
    compared = (
        ("mean killed", float(np.arange(kills.size) @ kills), exact.killed_mean),
        ("mean damage", float(np.arange(damage.size) @ damage), exact.damage_mean),
        ("P(unit destroyed)", float(kills[models:].sum()), exact.p_destroyed),
    )
    for label, value, reference in compared:
        if abs(value - reference) > MASS_ATOL and rel_diff(value, reference) > AGREEMENT_RTOL:
            notes.append(
                f"{label} {value:.6g} vs mathhammer {reference:.6g}"
                f" ({(value - reference) / reference:+.2%})"
            )
    return notes


# --------------------------------------------------------------------------- report
def fmt_ms(ms: float | None) -> str:
    if ms is None:
        return "-"
    return f"{ms * 1e3:.0f} us" if ms < 1.0 else f"{ms:.2f} ms"


def fmt_met(met: bool | None) -> str:
    return "-" if met is None else ("met" if met else "NOT MET")


def fmt_agree(agrees: bool | None) -> str:
    return "" if agrees is None else ("yes" if agrees else "NO")


def table(rows: Sequence[Sequence[str]], right: Sequence[bool]) -> str:
    """Rows of cells as aligned text; the first row is the header."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]

    def line(row: Sequence[str]) -> str:
        cells = (
            cell.rjust(w) if r else cell.ljust(w)
            for cell, w, r in zip(row, widths, right, strict=True)
        )
        return "  ".join(cells).rstrip()

    rule = "  ".join("-" * w for w in widths)
    return "\n".join([line(rows[0]), rule, *(line(row) for row in rows[1:])])


def report(cases: Sequence[CaseBench], meta: dict[str, Any], out: TextIO) -> None:
    """Print the readable tables."""
    print(
        f"mathhammer {meta['mathhammer']} | Python {meta['python']} | numpy {meta['numpy']}"
        f" | {meta['machine']} ({meta['cpus']} CPUs)",
        file=out,
    )
    if meta["load_average"] is not None:
        load = ", ".join(f"{x:.2f}" for x in meta["load_average"])
        print(f"load average at start (1, 5, 15 min): {load}", file=out)
    threads = " ".join(f"{k}={v}" for k, v in meta["thread_env"].items())
    print(f"repeat={meta['repeat']} warm-up={meta['warmup']} {threads}".rstrip(), file=out)

    print("\nExact engine: mh.attack (time per call)", file=out)
    rows = [["case", "median", "p10", "p90", "goal", "status"]]
    for c in cases:
        t = c.attack.timing
        rows.append(
            [
                f"({c.key}) {c.name}",
                fmt_ms(t.median_ms),
                fmt_ms(t.p10_ms),
                fmt_ms(t.p90_ms),
                f"<= {fmt_ms(c.attack.goal_ms)}",
                fmt_met(c.attack.met),
            ]
        )
    print(table(rows, [False, True, True, True, True, False]), file=out)

    sims = [c for c in cases if c.simulate is not None]
    if sims:
        s0 = sims[0].simulate
        assert s0 is not None
        print(
            f"\nMonte Carlo: mh.simulate ({s0.trials:,} trials per call, median of {s0.repeat})",
            file=out,
        )
        rows = [["case", "trials/s", "goal", "status", "killed: MC +- se", "exact"]]
        for c in sims:
            s = c.simulate
            assert s is not None
            goal = s.goal_trials_per_s
            rows.append(
                [
                    f"({c.key}) {c.name}",
                    f"{s.trials_per_s:,.0f}",
                    "-" if goal is None else f">= {goal:,.0f}",
                    fmt_met(s.met),
                    f"{s.killed_mean:.4f} +- {s.killed_se:.4f}",
                    f"{c.attack.killed_mean:.4f}",
                ]
            )
        print(table(rows, [False, True, True, False, True, True]), file=out)

    peer_meta = meta["peer"]
    print(f"\nPeer: {PEER_DIST} {peer_meta['version'] or ''}".rstrip(), file=out)
    if peer_meta["status"] != "ok":
        print(f"  {peer_meta['status']}: no peer timings", file=out)
        return
    print("  timed: warhammer_stats.Attack(weapon, target).run()", file=out)
    rows = [["case", "median", "p10", "p90", "mathhammer", "ratio ws/mh"]]
    for c in cases:
        p = c.peer
        if p.timing is None:
            mh_median = fmt_ms(c.attack.timing.median_ms)
            rows.append([f"({c.key}) {c.name}", "n/a", "", "", mh_median, "n/a"])
            continue
        rows.append(
            [
                f"({c.key}) {c.name}",
                fmt_ms(p.timing.median_ms),
                fmt_ms(p.timing.p10_ms),
                fmt_ms(p.timing.p90_ms),
                fmt_ms(c.attack.timing.median_ms),
                f"{p.ratio:.1f}x",
            ]
        )
    print(table(rows, [False, True, True, True, True, True]), file=out)

    print(
        f"\nAgreement with mathhammer's exact results (agree: relative difference <= "
        f"{AGREEMENT_RTOL:g})",
        file=out,
    )
    rows = [
        [
            "case",
            "killed mh",
            "killed ws",
            "agree",
            "damage mh",
            "damage ws",
            "agree",
            "P(wiped) mh",
            "P(wiped) ws",
        ]
    ]
    for c in cases:
        p = c.peer
        ok = p.status == "ok"
        rows.append(
            [
                f"({c.key}) {c.name}",
                f"{c.attack.killed_mean:.6f}",
                f"{p.killed_mean:.6f}" if ok else "n/a",
                fmt_agree(p.killed_agrees),
                f"{c.attack.damage_mean:.6f}",
                f"{p.damage_mean:.6f}" if ok else "n/a",
                fmt_agree(p.damage_agrees),
                f"{c.attack.p_destroyed:.3e}",
                f"{p.p_destroyed:.3e}" if ok else "n/a",
            ]
        )
    print(table(rows, [False, True, True, False, True, True, False, True, True]), file=out)
    noted = [c for c in cases if c.peer.notes or c.peer.status == "n/a"]
    if noted:
        print("\nObserved differences (warhammer-stats):", file=out)
        for c in noted:
            items = c.peer.notes or [f"n/a: {c.peer.reason}"]
            print(f"  ({c.key}) {c.name}:", file=out)
            for item in items:
                print(f"    - {item}", file=out)


# --------------------------------------------------------------------------- main
def select_cases(spec: str | None) -> list[tuple[str, Example]]:
    """The (letter, example) pairs named by ``--cases`` (letters or example names)."""
    by_name = {ex.name: ex for ex in EXAMPLES}
    missing = [name for name in CASE_NAMES.values() if name not in by_name]
    if missing:
        raise SystemExit(f"mathhammer.examples.EXAMPLES lacks {missing}")
    letter_of = {name: key for key, name in CASE_NAMES.items()}
    keys = list(CASE_NAMES) if spec is None else [s.strip() for s in spec.split(",") if s.strip()]
    chosen: list[tuple[str, Example]] = []
    for key in keys:
        letter = key if key in CASE_NAMES else letter_of.get(key)
        if letter is None:
            choices = ", ".join(f"{k} ({n})" for k, n in CASE_NAMES.items())
            raise SystemExit(f"unknown case {key!r}; choose from {choices}")
        chosen.append((letter, by_name[CASE_NAMES[letter]]))
    return chosen


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=100, help="timed calls per case (100)")
    parser.add_argument("--warmup", type=int, default=5, help="untimed calls first (5)")
    parser.add_argument(
        "--cases", default=None, help="comma-separated letters or example names (all)"
    )
    parser.add_argument("--json", metavar="PATH", help="write JSON results to PATH ('-': stdout)")
    parser.add_argument(
        "--trials", type=int, default=200_000, help="trials per mh.simulate call (200000)"
    )
    parser.add_argument(
        "--sim-repeat", type=int, default=3, help="timed mh.simulate calls per case (3)"
    )
    parser.add_argument("--no-simulate", action="store_true", help="skip mh.simulate")
    parser.add_argument("--no-peer", action="store_true", help="skip warhammer-stats")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.repeat < 2 or args.warmup < 0 or args.trials < 2 or args.sim_repeat < 1:
        raise SystemExit("--repeat >= 2, --warmup >= 0, --trials >= 2, --sim-repeat >= 1")
    chosen = select_cases(args.cases)
    ws = None if args.no_peer else load_peer()
    peer_status = "skipped" if args.no_peer else ("ok" if ws is not None else "not installed")
    meta: dict[str, Any] = {
        "mathhammer": mh.__version__,
        "python": platform.python_version(),
        "numpy": np.__version__,
        "machine": f"{platform.system()} {platform.machine()}",
        "cpus": os.cpu_count(),
        "load_average": list(os.getloadavg()) if hasattr(os, "getloadavg") else None,
        "thread_env": {name: os.environ[name] for name in THREAD_ENV if name in os.environ},
        "repeat": args.repeat,
        "warmup": args.warmup,
        "peer": {
            "name": PEER_DIST,
            "status": peer_status,
            "version": peer_version() if ws is not None else None,
        },
    }

    cases: list[CaseBench] = []
    for key, example in chosen:
        exact = bench_attack(key, example, args.repeat, args.warmup)
        sim = (
            None if args.no_simulate else bench_simulate(key, example, args.trials, args.sim_repeat)
        )
        if ws is None:
            peer = PeerBench(status=peer_status)
        else:
            peer = bench_peer(ws, example, exact, args.repeat, args.warmup)
        cases.append(CaseBench(key, example.name, example.description, exact, sim, peer))

    to_stdout = args.json == "-"
    report(cases, meta, sys.stderr if to_stdout else sys.stdout)
    if args.json:
        payload = {"meta": meta, "cases": [asdict(c) for c in cases]}
        text = json.dumps(payload, indent=2)
        if to_stdout:
            print(text)
        else:
            with open(args.json, "w", encoding="utf-8") as fh:
                fh.write(text + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
