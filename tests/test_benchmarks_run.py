"""benchmarks/bench_perf.py runs: a quick pass prints each row it was asked for beside its
goal, pins the BLAS threads, writes its JSON, and defines its cases as benchmarks/README.md
lists them.

The script is run in a subprocess, as a user runs it, on two small rows (a few seconds);
the full benchmark takes minutes and is not part of the test run.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "benchmarks" / "bench_perf.py"
THREAD_ENV = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in THREAD_ENV}
    env["PYTHONPATH"] = str(ROOT)
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )


def test_a_quick_run_prints_each_row_beside_its_goal(tmp_path: Path) -> None:
    out = tmp_path / "perf.json"
    done = _run("--quick", "--cases", "S1,CLIFF", "--repeat", "3", "--json", str(out))
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    rows: dict[str, str] = {}
    for line in done.stdout.splitlines():  # the table's line of each row comes first
        rows.setdefault(line.split()[0] if line.strip() else "", line)
    period, status = r"[\d.]+ (?:us|ms)", r"\s+(?:met|NOT MET)\s"
    three = rf"{period}\s+{period}\s+{period}"  # cold, warm, and cold on the CPU clock
    assert re.search(rf"^S1\s+{three}\s+<= 80 us, ws/mh >= 30x{status}", rows["S1"])
    assert re.search(r"^CLIFF\s+([\d.]+x\s+){3}<= 1.5x" + status, rows["CLIFF"])
    assert re.search(r"^row\s+cold\s+warm\s+cold cpu\s+goal", rows["row"])
    assert re.search(r"load average at start \(1, 5, 15 min\): [\d.]+, ", done.stdout)
    assert "OPENBLAS_NUM_THREADS=1" in done.stdout
    assert "CLIFF medians" in done.stdout and re.search(r"^257\s", done.stdout, re.MULTILINE)

    payload = json.loads(out.read_text(encoding="utf-8"))
    by_key = {row["key"]: row for row in payload["rows"]}
    assert list(by_key) == ["S1", "CLIFF"]
    s1 = by_key["S1"]
    cold, warm = s1["detail"]["cold"], s1["detail"]["warm"]
    assert len(cold["wall"]) == len(cold["cpu"]) == len(warm["wall"]) == 3
    assert s1["value"] == sorted(cold["wall"])[1] > 0
    assert s1["other"] == sorted(cold["cpu"])[1] > 0
    assert s1["peer"] in ("ok", "not installed")
    assert (s1["ratio"] is not None) == (s1["peer"] == "ok")
    assert by_key["CLIFF"]["detail"]["sizes"] == [128, 192, 256, 257, 320, 512, 513]
    assert payload["meta"]["pinned_by_script"] == list(THREAD_ENV)
    assert set(payload["meta"]["thread_env"].values()) == {"1"}


def test_the_case_definitions_are_those_of_the_benchmarks_readme() -> None:
    done = _run("--list")
    assert done.returncode == 0, done.stderr
    table = done.stdout.strip().splitlines()
    keys = [line.split("|")[1].strip() for line in table[2:]]
    assert keys[:6] == ["S1", "S2", "S3", "S4", "S5", "S6"] and len(keys) == 20
    readme = (ROOT / "benchmarks" / "README.md").read_text(encoding="utf-8")
    missing = [line for line in table if line not in readme.splitlines()]
    assert not missing, "benchmarks/README.md lacks (run bench_perf.py --list):\n" + "\n".join(
        missing
    )


def test_an_unknown_case_is_refused_with_the_known_ones() -> None:
    done = _run("--quick", "--cases", "S1,S9")
    assert done.returncode != 0
    assert "--cases must name rows of S1, S2" in done.stderr and "['S9']" in done.stderr


def test_the_cpu_clock_can_be_the_one_judged() -> None:
    done = _run("--quick", "--cases", "S1", "--repeat", "3", "--clock", "cpu", "--no-peer")
    assert done.returncode == 0, done.stderr
    assert "clock: cpu (time.process_time" in done.stdout
    assert re.search(r"^row\s+cold\s+warm\s+cold wall\s+goal", done.stdout, re.MULTILINE)
    assert re.search(r"^S1\s.*\s(met|NOT MET)\s+3\s+n/a\s+n/a\s*$", done.stdout, re.MULTILINE)


INSTRUCTIONS = ROOT / "benchmarks" / "instructions.py"


def test_the_instruction_counter_s_child_makes_the_calls() -> None:
    """benchmarks/instructions.py: the process valgrind measures runs the cold calls of a
    case (here without valgrind), and without valgrind the script says so."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    child = [sys.executable, str(INSTRUCTIONS), "--child", "S1", "2", "cold"]
    done = subprocess.run(child, capture_output=True, text=True, env=env, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    env["PATH"] = str(Path(sys.executable).parent)  # python, and no valgrind
    done = subprocess.run(
        [sys.executable, str(INSTRUCTIONS), "--cases", "S1"],
        capture_output=True, text=True, env=env, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 2
    assert "valgrind is not on the PATH" in done.stderr
