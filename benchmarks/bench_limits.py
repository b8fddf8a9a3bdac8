"""Time and peak memory at the edge of each limit of :mod:`mathhammer.core.limits`.

Each case runs in a fresh interpreter with its address space capped (``--cap``, 4 GiB by
default) and a timeout, one BLAS thread: the largest input each limit accepts (it must
finish), and the smallest it refuses (the refusal must be quick and allocate nothing).
Printed: the wall-clock seconds of the call, the peak resident memory of the whole process
(``resource.getrusage``: interpreter and ``import mathhammer`` included) and how much of it
the call added, and for the exact engine the estimated largest table and work of
:mod:`mathhammer.exact.cost` that the limits compare.

    python benchmarks/bench_limits.py                 # every case
    python benchmarks/bench_limits.py --only dice,hits
    python benchmarks/bench_limits.py --json limits.json

The exit status is 1 when an accepted case fails or takes more than ``--budget`` seconds
(10 by default), or a refusal takes more than a second.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import textwrap
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Case:
    """One input at a limit's edge: ``code`` defines ``run()`` (and ``plan`` for the cost)."""

    key: str
    limit: str
    what: str
    code: str
    accepted: bool = True


_COMMON = """
import mathhammer as mh
from mathhammer.rules.plan import plan_attack
gun = lambda a=1, d=1, ab="": mh.Weapon("Gun", a, 3, 4, 0, d, abilities=ab)
plan = None
"""

_SEARCHES = """
TARGET = mh.Unit("Big", [mh.ModelGroup(10, 5, 3, 3), mh.ModelGroup(10, 5, 4, 2),
                         mh.ModelGroup(1, 5, 2, 6, character=True)])
pools = lambda count, dice: [
    (mh.Weapon(f"G{i}", 2, 3, 4 + i, -1 - i % 2, "D3" if i % 2 else 2), dice)
    for i in range(count)
]
mixed = lambda groups, models: mh.Unit(
    "Mixed", [mh.ModelGroup(models, 4, 2 + i % 5, 1 + i, name=f"g{i}") for i in range(groups)]
)
axe = lambda a: mh.Weapon("Axe", a, 3, 5, -1, 1, melee=True)
THREE = [mh.Unit.of(f"T{i}", 10, 3 + i, 6 - i, 1 + i) for i in range(3)]
TWO = [mh.Unit.of(f"T{t}", 10, 4 + t, 3 + t % 2, 2) for t in range(2)]
def army(n):
    weapons = [mh.Weapon(f"W{i}", 2, 3, 4 + i % 4, -(i % 3), 1 + i % 2) for i in range(n)]
    groups = [mh.Models(5, [w], name=f"M{i}") for i, w in enumerate(weapons)]
    return mh.Attacker("Army", groups), [(f"M{i}", f"W{i}") for i in range(n)]
"""

_FILES = """
import sys, tempfile, pathlib
sys.path.insert(0, "tests")
from hostile_files import (
    amplified_attributes, big_folder, deep_roster, link_chain, link_graph, long_csv, model_count,
    roster_json, wargear_count,
)
FOLDER = pathlib.Path(tempfile.mkdtemp())
"""

CASES = [
    # ---------------------------------------------------------------- the exact engine
    Case(
        "dice",
        "MAX_POOL_DICE, MAX_UNIT_WOUNDS",
        "5,000 dice (BS3+ S4 D1) vs 10,000 models W1 Sv3+",
        "plan = plan_attack([(gun(), 5000)], mh.Unit.of('Horde', 10000, 4, 3, 1))",
    ),
    Case(
        "dice-d6",
        "MAX_POOL_DICE, MAX_UNIT_WOUNDS",
        "5,000 dice D6 vs 2,000 models W5 Sv3+, and its failed saves",
        "def run():\n"
        "    res = mh.attack([(gun(d='D6'), 5000)], mh.Unit.of('Big', 2000, 4, 3, 5))\n"
        "    res.pools[0].unsaved",
    ),
    Case(
        "two-groups",
        "MAX_POOL_DICE, MAX_TABLE, MAX_WORK",
        "2,000 dice D3 vs 250 W10 Sv3+ and 250 W10 Sv4+ (5,000 wounds)",
        "plan = plan_attack([(gun(d='D3'), 2000)], mh.Unit('Mob', [mh.ModelGroup(250, 4, 3, 10),"
        " mh.ModelGroup(250, 4, 4, 10)]))",
    ),
    Case(
        "hits",
        "MAX_POOL_HITS",
        "5,000 dice [SUSTAINED HITS 2] (15,000 hits) vs 10,000 models W1",
        "plan = plan_attack([(gun(ab='[SUSTAINED HITS 2]'), 5000)],"
        " mh.Unit.of('Horde', 10000, 4, 3, 1))",
    ),
    Case(
        "lethal",
        "MAX_POOL_DICE",
        "2,000 dice [LETHAL HITS] vs 5,000 models W1",
        "plan = plan_attack([(gun(ab='[LETHAL HITS]'), 2000)], mh.Unit.of('Horde', 5000, 4, 3, 1))",
    ),
    Case(
        "devastating",
        "MAX_POOL_DICE, MAX_WORK",
        "2,000 dice [DEVASTATING WOUNDS] vs 5,000 models W1 (issue 13: 149 GiB)",
        "plan = plan_attack([(gun(ab='[DEVASTATING WOUNDS]'), 2000)],"
        " mh.Unit.of('Horde', 5000, 4, 3, 1))",
    ),
    Case(
        "devastating-groups",
        "MAX_TABLE",
        "250 dice [DEVASTATING WOUNDS] vs 100 W1 Sv3+ and 100 W1 Sv4+",
        "plan = plan_attack([(gun(ab='[DEVASTATING WOUNDS]'), 250)], mh.Unit('Mob',"
        " [mh.ModelGroup(100, 4, 3, 1), mh.ModelGroup(100, 4, 4, 1)]))",
    ),
    Case(
        "lethal-devastating",
        "MAX_WORK",
        "500 dice [LETHAL HITS], [DEVASTATING WOUNDS] vs 10 models W1",
        "plan = plan_attack([(gun(ab='[LETHAL HITS], [DEVASTATING WOUNDS]'), 500)],"
        " mh.Unit.of('Squad', 10, 4, 3, 1))",
    ),
    Case(
        "damage",
        "MAX_DAMAGE",
        "60 dice D1000 vs 5 models W1000",
        "plan = plan_attack([(gun(d=1000), 60)], mh.Unit.of('Titans', 5, 4, 3, 1000))",
    ),
    Case(
        "mortal",
        "MAX_MORTAL_WOUNDS",
        "MortalWounds(100000) vs 5,000 models W1",
        "plan = plan_attack([mh.MortalWounds(100000)], mh.Unit.of('Horde', 5000, 4, 3, 1))",
    ),
    Case(
        "mortal-fnp",
        "MAX_MORTAL_WOUNDS, MAX_WORK",
        "MortalWounds(100000) vs 100 models W1 with a 5+ Feel No Pain",
        "plan = plan_attack([mh.MortalWounds(100000)], mh.Unit.of('Squad', 100, 4, 3, 1, fnp=5))",
    ),
    Case(
        "states",
        "MAX_STATES",
        "20 dice [PRECISION] vs 490 W1 and a CHARACTER W400 (196,891 states)",
        "plan = plan_attack([(gun(d='D3', ab='[PRECISION]'), 20)], mh.Unit('Led',"
        " [mh.ModelGroup(490, 4, 3, 1), mh.ModelGroup(1, 4, 3, 400, character=True)]))",
    ),
    Case(
        "dice-refused",
        "MAX_POOL_DICE",
        "5,001 dice",
        "plan = plan_attack([(gun(), 5001)], mh.Unit.of('Horde', 10, 4, 3, 1))",
        accepted=False,
    ),
    Case(
        "hits-refused",
        "MAX_POOL_HITS",
        "2,000 dice [SUSTAINED HITS 30] (62,000 hits; issue 13: 28.6 GiB)",
        "plan = plan_attack([(gun(ab='[SUSTAINED HITS 30]'), 2000)], mh.Unit.of('S', 5, 4, 3, 2))",
        accepted=False,
    ),
    Case(
        "table-refused",
        "MAX_TABLE",
        "2,000 dice [DEVASTATING WOUNDS] vs 2,500 W1 Sv3+ and 2,500 W1 Sv4+",
        "plan = plan_attack([(gun(ab='[DEVASTATING WOUNDS]'), 2000)], mh.Unit('Mob',"
        " [mh.ModelGroup(2500, 4, 3, 1), mh.ModelGroup(2500, 4, 4, 1)]))",
        accepted=False,
    ),
    Case(
        "work-refused",
        "MAX_WORK",
        "2,000 dice [LETHAL HITS], [DEVASTATING WOUNDS]",
        "plan = plan_attack([(gun(ab='[LETHAL HITS], [DEVASTATING WOUNDS]'), 2000)],"
        " mh.Unit.of('S', 10, 4, 3, 1))",
        accepted=False,
    ),
    Case(
        "damage-refused",
        "MAX_DAMAGE",
        "Damage 1,001",
        "plan = plan_attack(gun(d=1001), mh.Unit.of('S', 5, 4, 3, 2))",
        accepted=False,
    ),
    Case(
        "expression-refused",
        "MAX_VALUE, MAX_DICE",
        "Damage 10^9, 'D6+1000000', '999999D6' (issue 13: 7.45 GiB, 7 TiB, never returned)",
        "def run():\n"
        "    for text in (10**9, 'D6+1000000', '999999D6'):\n"
        "        try: gun(d=text)\n"
        "        except mh.LimitError: pass\n"
        "    gun(d='999999D6')",
        accepted=False,
    ),
    Case(
        "mortal-refused",
        "MAX_MORTAL_WOUNDS",
        "MortalWounds(10**6); MortalWounds(10**9) (issue 13: 7.45 GiB)",
        "def run():\n"
        "    try: mh.MortalWounds(10**9)\n"
        "    except mh.LimitError: pass\n"
        "    mh.attack([mh.MortalWounds(10**6)], mh.Unit.of('S', 5, 4, 3, 2))",
        accepted=False,
    ),
    # ---------------------------------------------------------------- the searches
    Case(
        "orders",
        "MAX_SEARCH_WORK",
        "every order of 6 pools of 40 dice vs 10 W3, 10 W2 and a CHARACTER (3.9e9 estimated)",
        _SEARCHES + "run = lambda: mh.rank_pool_orders(pools(6, 40), TARGET)",
    ),
    Case(
        "orders-refused",
        "MAX_SEARCH_WORK",
        "every order of 6 pools of 200 dice (81 s before issue 37)",
        _SEARCHES + "run = lambda: mh.rank_pool_orders(pools(6, 200), TARGET)",
        accepted=False,
    ),
    Case(
        "defender",
        "MAX_SEARCH_WORK",
        "the defender's 720 orders of 6 groups of 4 models, 20 dice (2.8e9 estimated)",
        _SEARCHES + "run = lambda: mh.attack([(gun(2, 2), 20)], mixed(6, 4), "
        "allocation='defender-best')",
    ),
    Case(
        "defender-refused",
        "MAX_SEARCH_WORK",
        "the defender's 5,040 orders of 7 groups of 3 models, 20 dice",
        _SEARCHES + "run = lambda: mh.attack([(gun(2, 2), 20)], mixed(7, 3), "
        "allocation='defender-best')",
        accepted=False,
    ),
    Case(
        "splits",
        "MAX_SEARCH_WORK",
        "the 79,401 splits of 400 attacks across 3 targets (4.9e9 estimated)",
        _SEARCHES + "run = lambda: mh.best_splits(mh.Models(1, [axe(400)]), 'Axe', THREE)",
    ),
    Case(
        "splits-refused",
        "MAX_SEARCH_WORK",
        "the 3,121,251 splits of 2,500 attacks (past 110 s and 2.2 GB before issue 37)",
        _SEARCHES + "run = lambda: mh.best_splits(mh.Models(1, [axe(2500)]), 'Axe', THREE)",
        accepted=False,
    ),
    Case(
        "plans",
        "MAX_SEARCH_WORK",
        "every plan of 12 declarations at 2 targets (4,095 sets a target; 3.7e9 estimated)",
        _SEARCHES + "run = lambda: mh.plan_targets(*army(12), TWO)",
    ),
    Case(
        "plans-refused",
        "MAX_SEARCH_WORK",
        "every plan of 15 declarations at 2 targets (past 80 s before issue 37)",
        _SEARCHES + "run = lambda: mh.plan_targets(*army(15), TWO)",
        accepted=False,
    ),
    # ---------------------------------------------------------------- the importers
    Case(
        "csv-rows",
        "MAX_ROWS",
        "an attackers CSV of 20,000 rows",
        _FILES
        + "path, faction = long_csv(20_000)(FOLDER)\n"
        + "run = lambda: mh.read_attackers(path)",
    ),
    Case(
        "csv-rows-refused",
        "MAX_ROWS",
        "an attackers CSV of 20,001 rows (1.7 million: 200 s, 2.7 GB)",
        _FILES
        + "path, faction = long_csv(20_001)(FOLDER)\n"
        + "run = lambda: mh.read_attackers(path)",
        accepted=False,
    ),
    Case(
        "copies",
        "MAX_COPIES",
        "a catalogue unit whose models carry 20 guns each",
        _FILES
        + "path, faction = wargear_count(20)(FOLDER)\n"
        + "run = lambda: mh.read_army(path, faction=faction)",
    ),
    Case(
        "copies-refused",
        "MAX_COPIES",
        "10,000,000 guns a model (a MemoryError after 94 s)",
        _FILES
        + "path, faction = wargear_count(10_000_000)(FOLDER)\n"
        + "run = lambda: mh.read_army(path, faction=faction)",
        accepted=False,
    ),
    Case(
        "models",
        "MAX_UNIT_WOUNDS",
        "a catalogue unit of up to 10,000 models",
        _FILES
        + "path, faction = model_count(10_000)(FOLDER)\n"
        + "run = lambda: mh.read_army(path, faction=faction)",
    ),
    Case(
        "models-refused",
        "MAX_UNIT_WOUNDS",
        "a catalogue unit of up to 999,999,999 models (a MemoryError)",
        _FILES
        + "path, faction = model_count(999_999_999)(FOLDER)\n"
        + "run = lambda: mh.read_army(path, faction=faction)",
        accepted=False,
    ),
    Case(
        "tree",
        "MAX_SLOTS",
        "a unit whose links branch 13 levels deep (16,382 entries)",
        _FILES
        + "path, faction = link_graph(13)(FOLDER)\n"
        + "run = lambda: mh.read_army(path, faction=faction)",
    ),
    Case(
        "tree-refused",
        "MAX_SLOTS",
        "links branching 26 levels deep (never ended)",
        _FILES
        + "path, faction = link_graph(26)(FOLDER)\n"
        + "run = lambda: mh.read_army(path, faction=faction)",
        accepted=False,
    ),
    Case(
        "nesting",
        "MAX_NESTING",
        "a unit whose links form a chain 50 levels deep",
        _FILES
        + "path, faction = link_chain(50)(FOLDER)\n"
        + "run = lambda: mh.read_army(path, faction=faction)",
    ),
    Case(
        "nesting-refused",
        "MAX_NESTING",
        "a chain of links 5,000 levels deep (a RecursionError)",
        _FILES
        + "path, faction = link_chain(5000)(FOLDER)\n"
        + "run = lambda: mh.read_army(path, faction=faction)",
        accepted=False,
    ),
    Case(
        "number",
        "MAX_NUMBER",
        "a roster selection of 10,000 models",
        _FILES
        + "path, faction = roster_json(10_000)(FOLDER)\n"
        + "run = lambda: mh.read_army(path, faction=faction)",
    ),
    Case(
        "number-refused",
        "MAX_NUMBER",
        "a roster selection of 10**9 models (2.8 GB, then a MemoryError)",
        _FILES
        + "path, faction = roster_json(10**9)(FOLDER)\n"
        + "run = lambda: mh.read_army(path, faction=faction)",
        accepted=False,
    ),
    Case(
        "attributes",
        "MAX_INPUT_BYTES",
        "an XML catalogue of 30 MB of short attributes",
        _FILES
        + "path, faction = amplified_attributes(30)(FOLDER)\n"
        + "run = lambda: mh.read_catalogue(path)",
    ),
    Case(
        "depth-refused",
        "MAX_DEPTH",
        "a roster nested 100,000 selections deep (a RecursionError)",
        _FILES
        + "path, faction = deep_roster(100_000)(FOLDER)\n"
        + "run = lambda: mh.read_army(path, faction=faction)",
        accepted=False,
    ),
    Case(
        "folder-refused",
        "MAX_FOLDER_BYTES",
        "a folder of catalogue files of 200 MB",
        _FILES
        + "path, faction = big_folder(200)(FOLDER)\n"
        + "run = lambda: mh.read_catalogue(path)",
        accepted=False,
    ),
    # ---------------------------------------------------------------- distributions
    Case(
        "binomial",
        "MAX_BINOMIAL_N",
        "Dist.binomial(20000, 0.3) and Dist.uniform(0, 20000).thin(0.5)",
        "run = lambda: (mh.Dist.binomial(20000, 0.3), mh.Dist.uniform(0, 20000).thin(0.5))",
    ),
    Case(
        "binomial-refused",
        "MAX_BINOMIAL_N",
        "Dist.binomial(10**6, 0.5)",
        "run = lambda: mh.Dist.binomial(10**6, 0.5)",
        accepted=False,
    ),
    # ---------------------------------------------------------------- the Monte Carlo
    Case(
        "trials",
        "MAX_TRIALS",
        "10,000,000 trials of 20 bolt rifle dice vs 10 models W2",
        "run = lambda: mh.simulate([(gun(a=2), 10)], mh.Unit.of('Squad', 10, 4, 3, 2),"
        " trials=10**7, rng=1)",
    ),
    Case(
        "trial-block",
        "BLOCK_DICE",
        "50,000 trials of a 2,000-dice pool (blocks of 5,000 trials)",
        "run = lambda: mh.simulate([(gun(), 2000)], mh.Unit.of('Horde', 5000, 4, 3, 1),"
        " trials=50_000, rng=1)",
    ),
    Case(
        "trial-dice",
        "MAX_TRIAL_DICE",
        "100 trials of 10 dice [SUSTAINED HITS 99999] (1,000,000 dice a trial)",
        "run = lambda: mh.simulate([(gun(ab='[SUSTAINED HITS 99999]'), 10)],"
        " mh.Unit.of('Squad', 10, 4, 3, 2), trials=100, rng=1)",
    ),
    Case(
        "trials-refused",
        "MAX_TRIALS",
        "trials=10**12 (issue 13: MemoryError)",
        "run = lambda: mh.simulate(gun(), mh.Unit.of('S', 5, 4, 3, 2), trials=10**12)",
        accepted=False,
    ),
]

_CHILD = """
import json, resource, time
resource.setrlimit(resource.RLIMIT_AS, ({cap}, {cap}))
{common}
{code}
if plan is not None and "run" not in globals():
    run = lambda: mh.attack(plan)
cost = None
if plan is not None:
    from mathhammer.exact import budget
    from mathhammer.exact.layout import Layout
    try:
        layout = Layout.of(plan.target, plan.focus)
        steps = [
            budget.pool_cost(s, plan.target, layout)[0] if hasattr(s, "checks")
            else budget.mortal_cost(s, plan.target, layout)[0]
            for s in plan.steps
        ]
        cost = [max(c.entries for c in steps), sum(c.work for c in steps)]
    except mh.LimitError:
        pass
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
start = time.perf_counter()
try:
    run()
    error = None
except Exception as exc:
    error = type(exc).__name__ + ": " + (str(exc).splitlines() or [""])[0]
seconds = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({{"seconds": seconds, "peak_mb": peak / 1024, "added_mb": (peak - base) / 1024,
                  "error": error, "cost": cost}}))
"""


def run_case(case: Case, cap: int, timeout: float) -> dict[str, Any]:
    """Run one case in a capped interpreter; its measurements (or a timeout)."""
    script = _CHILD.format(cap=cap, common=_COMMON, code=textwrap.dedent(case.code))
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
        "OPENBLAS_NUM_THREADS": "1",
        "OMP_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
    }
    try:
        proc = subprocess.run(
            [sys.executable, "-c", script],
            capture_output=True,
            text=True,
            timeout=timeout,
            env=env,
            cwd=ROOT,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return {"seconds": timeout, "error": f"timed out after {timeout:.0f} s"}
    if proc.returncode != 0:
        return {"seconds": float("nan"), "error": proc.stderr.strip().splitlines()[-1]}
    result: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


def _verdict(case: Case, outcome: dict[str, Any], budget: float) -> bool:
    refusals = ("LimitError", "OptionError", "InputFileError", "CsvError")
    refused = (outcome.get("error") or "").startswith(refusals)
    if case.accepted:
        return outcome.get("error") is None and outcome["seconds"] <= budget
    return refused and outcome["seconds"] <= 1.0


def _row(case: Case, outcome: dict[str, Any], ok: bool) -> str:
    cost = outcome.get("cost")
    table = f"{cost[0] / 1e6:.1f} M" if cost else ""
    work = f"{cost[1] / 1e9:.2f} G" if cost else ""
    peak = f"{outcome['peak_mb']:.0f}" if "peak_mb" in outcome else ""
    added = f"{outcome['added_mb']:.0f}" if "added_mb" in outcome else ""
    status = ("ok" if ok else "FAILED") if case.accepted else ("refused" if ok else "NOT REFUSED")
    return (
        f"| {case.limit} | {case.what} | {outcome['seconds']:.2f} | {peak} | {added} | {table} "
        f"| {work} | {status} |"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="comma-separated case keys")
    parser.add_argument("--cap", type=float, default=4.0, help="address space, GiB (4)")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds a case (300)")
    parser.add_argument("--budget", type=float, default=10.0, help="seconds an accepted case")
    parser.add_argument("--json", help="write the measurements to this file")
    args = parser.parse_args(argv)
    keys = args.only.split(",") if args.only else [c.key for c in CASES]
    unknown = set(keys) - {c.key for c in CASES}
    if unknown:
        parser.error(f"unknown cases: {sorted(unknown)}")
    print(f"load average {os.getloadavg()[0]:.2f}; cap {args.cap:g} GiB; one BLAS thread")
    print("| limit | case | seconds | peak MB | added MB | table | work | |")
    print("|---|---|---|---|---|---|---|---|")
    results, failed = {}, False
    for case in (c for c in CASES if c.key in keys):
        outcome = run_case(case, int(args.cap * 2**30), args.timeout)
        ok = _verdict(case, outcome, args.budget)
        failed |= not ok
        print(_row(case, outcome, ok), flush=True)
        results[case.key] = {**asdict(case), **outcome, "ok": ok}
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2) + "\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
