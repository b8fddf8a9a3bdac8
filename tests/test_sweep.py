"""Sweeps (``mh.sweep``): every attacker against every target in every context.

The rows are those of ``mh.compare`` in each context; serial, local processes and a Dask
LocalCluster of two workers give identical frames (Monte Carlo columns too, by their
per-task seeds); a sweep written to Parquet resumes where it stopped, without losing or
repeating a row, also when a worker is killed mid-sweep; errors in workers arrive with their
type; bad inputs are refused with one clear error.
"""

from __future__ import annotations

import importlib
import os
import signal
import threading
import time
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

import mathhammer as mh
from mathhammer.sweeps.work import SWEEP_COLUMNS

BOLT = mh.Weapon("Bolt rifle", 2, 3, 4, -1, 1)
PLASMA = mh.Weapon("Plasma", 1, 3, 8, -3, 2, "[RAPID FIRE 1]")
MELTA = mh.Weapon("Melta", 1, 3, 9, -4, "D6", "[MELTA 2]")
LOADOUTS = [
    mh.Loadout("Bolters", [(BOLT, 10)], points=90),
    mh.Loadout("Plasma", [(PLASMA, 5)], points=120),
    mh.Loadout("Melta", [(MELTA, 3)], points=100),
    mh.Loadout("Mixed", [(BOLT, 5), (PLASMA, 2)], points=110),
]
TARGETS = list(mh.targets.STANDARD)
#: Six copies of each loadout, named apart: a sweep long enough to interrupt.
#: The dask extra (``distributed``), untyped: read through Any.
DASK: Any = importlib.import_module("distributed")
MANY = [replace(x, name=f"{x.name} {i}") for i in range(6) for x in LOADOUTS]
CONTEXTS = {"far": mh.Context(), "close": mh.Context(half_range=True)}
#: Tasks of at least ten and four rows: a small sweep still cut into several tasks.
TEN = mh.SweepExecution(task_rows=10)
FOUR = mh.SweepExecution(task_rows=4)


def test_the_rows_are_those_of_compare_in_each_context() -> None:
    frame = mh.sweep(LOADOUTS, TARGETS, contexts=CONTEXTS, execution=TEN)
    assert len(frame) == len(LOADOUTS) * len(TARGETS) * len(CONTEXTS)
    assert list(frame.columns[:3]) == ["loadout", "target", "context"]
    for name, context in CONTEXTS.items():
        want = mh.compare(LOADOUTS, TARGETS, context=context)
        got = frame[frame.context == name].drop(columns="context").reset_index(drop=True)
        pd.testing.assert_frame_equal(got[want.columns], want, check_exact=True, check_dtype=False)
    # half range: the melta's damage and the plasma's attacks go up
    close = frame.set_index(["loadout", "target", "context"]).mean_damage
    assert close["Melta", "Vehicle", "close"] > close["Melta", "Vehicle", "far"]


def test_contexts_are_named_by_their_changes() -> None:
    frame = mh.sweep(LOADOUTS[:1], TARGETS[:2], contexts=[mh.Context(), mh.Context(charged=True)])
    assert frame.context.unique().tolist() == ["default", "charged"]


def _frames(**options: Any) -> list[pd.DataFrame]:
    runs = [
        mh.sweep(LOADOUTS, TARGETS, contexts=CONTEXTS, execution=TEN, **options),
        mh.sweep(LOADOUTS, TARGETS, contexts=CONTEXTS, execution=replace(TEN, jobs=2), **options),
    ]
    with ThreadPoolExecutor(2) as threads:
        runs.append(mh.sweep(LOADOUTS, TARGETS, contexts=CONTEXTS,
                             execution=replace(TEN, executor=threads), **options))  # fmt: skip
    return runs


@pytest.mark.system
def test_serial_processes_and_an_executor_give_identical_frames() -> None:
    serial, pool, threads = _frames(trials=300, rng=7)
    assert "mc_mean_killed" in serial.columns
    pd.testing.assert_frame_equal(serial, pool, check_exact=True)
    pd.testing.assert_frame_equal(serial, threads, check_exact=True)
    # another seed, other Monte Carlo numbers; the exact columns the same
    other = mh.sweep(LOADOUTS, TARGETS, contexts=CONTEXTS, execution=TEN, trials=300, rng=8)
    assert not other.mc_mean_killed.equals(serial.mc_mean_killed)
    assert other.mean_killed.equals(serial.mean_killed)


@pytest.mark.dask
def test_a_dask_local_cluster_gives_the_same_frame() -> None:
    serial = mh.sweep(LOADOUTS, TARGETS, contexts=CONTEXTS, execution=TEN, trials=300)
    clustered = mh.sweep(LOADOUTS, TARGETS, contexts=CONTEXTS, trials=300,
                         execution=replace(TEN, executor="dask", jobs=2))  # fmt: skip
    pd.testing.assert_frame_equal(serial, clustered, check_exact=True)
    with (
        DASK.LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=":0") as cluster,
        DASK.Client(cluster) as client,
    ):
        given = mh.sweep(LOADOUTS, TARGETS, contexts=CONTEXTS, trials=300,
                         execution=replace(TEN, executor=client))  # fmt: skip
        pd.testing.assert_frame_equal(serial, given, check_exact=True)
        address = mh.sweep(LOADOUTS, TARGETS, contexts=CONTEXTS, trials=300,
                           execution=replace(TEN, executor=cluster.scheduler_address))  # fmt: skip
        pd.testing.assert_frame_equal(serial, address, check_exact=True)


class _Counting(Executor):
    """A real executor (threads) that counts the tasks it is given."""

    def __init__(self) -> None:
        self.pool = ThreadPoolExecutor(2)
        self.count = 0

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        self.count += 1
        return self.pool.submit(fn, *args, **kwargs)

    def shutdown(self, wait: bool = True, **kwargs: Any) -> None:
        self.pool.shutdown(wait)


def test_a_parquet_sweep_resumes_where_it_stopped(tmp_path: Path) -> None:
    whole = mh.sweep(LOADOUTS, TARGETS, contexts=CONTEXTS, execution=TEN)
    path = tmp_path / "sweep"
    assert mh.sweep(LOADOUTS, TARGETS, contexts=CONTEXTS, execution=TEN,
                    output=mh.SweepOutput(path, collect=False)) == len(whole)  # fmt: skip
    parts = sorted(path.glob("part-*.parquet"))
    assert len(parts) == 4  # 9 targets, at least 10 rows a task: 2 loadouts, 2 per context
    for part in parts[1::2]:  # an interrupted sweep: some tasks never written
        part.unlink()
    counting = _Counting()
    resumed = mh.sweep(LOADOUTS, TARGETS, contexts=CONTEXTS,
                       output=mh.SweepOutput(path, resume=True),
                       execution=replace(TEN, executor=counting))  # fmt: skip
    assert counting.count == len(parts[1::2])  # only the missing tasks computed
    pd.testing.assert_frame_equal(resumed, whole, check_exact=True)
    # a folder with a sweep is not written over, and other inputs are refused
    with pytest.raises(mh.OptionError, match="resume=True"):
        mh.sweep(LOADOUTS, TARGETS, contexts=CONTEXTS, execution=TEN, output=path)
    with pytest.raises(mh.OptionError, match=r"other inputs \(contexts, targets differ\)"):
        mh.sweep(LOADOUTS, TARGETS[:3], output=mh.SweepOutput(path, resume=True), execution=TEN)
    (tmp_path / "busy").mkdir()
    (tmp_path / "busy" / "notes.txt").write_text("mine")
    with pytest.raises(mh.OptionError, match="a new or empty folder"):
        mh.sweep(LOADOUTS, TARGETS, output=tmp_path / "busy")


@pytest.mark.system
def test_a_killed_worker_process_loses_no_row_once_resumed(tmp_path: Path) -> None:
    # local processes: a worker killed mid-sweep stops the sweep; resumed, every row is
    # there once
    whole = mh.sweep(MANY, TARGETS, contexts=CONTEXTS, execution=FOUR)
    path = tmp_path / "sweep"
    before = set(_children())  # a child of an earlier test is not one of the sweep's workers
    killer = threading.Thread(target=_kill_a_worker_when_written, args=(path, before), daemon=True)
    killer.start()
    with pytest.raises(Exception, match="worker process"):
        mh.sweep(MANY, TARGETS, contexts=CONTEXTS, execution=replace(FOUR, jobs=2),
                 output=mh.SweepOutput(path, collect=False))  # fmt: skip
    killer.join(5)
    assert 0 < len(list(path.glob("part-*.parquet"))) < 2 * len(MANY)
    resumed = mh.sweep(MANY, TARGETS, contexts=CONTEXTS, execution=FOUR,
                       output=mh.SweepOutput(path, resume=True))  # fmt: skip
    pd.testing.assert_frame_equal(resumed, whole, check_exact=True)


def _kill_a_worker_when_written(path: Path, before: set[int]) -> None:
    """Kill one of this process's children started since ``before`` (a worker of the sweep)
    once the sweep has written a file."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if list(path.glob("part-*.parquet")):
            children = [pid for pid in _children() if pid not in before]
            if children:
                os.kill(children[0], signal.SIGKILL)
                return
        time.sleep(0.01)


def _children() -> list[int]:
    """This process's live worker processes (not multiprocessing's resource tracker, nor a
    child that has exited and waits to be reaped)."""
    me = os.getpid()
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                command = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            zombie = fields[0] == "Z"
            if int(fields[1]) == me and not zombie and b"resource_tracker" not in command:
                out.append(int(entry.name))
    return sorted(out)


@pytest.mark.dask
def test_a_dask_worker_killed_mid_sweep_is_replaced_and_no_row_is_lost(tmp_path: Path) -> None:
    whole = mh.sweep(MANY, TARGETS, contexts=CONTEXTS, execution=FOUR)
    path = tmp_path / "sweep"
    with (
        DASK.LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=":0") as cluster,
        DASK.Client(cluster) as client,
    ):
        pids = list(client.run(os.getpid).values())
        killer = threading.Thread(target=_kill_when_written, args=(path, pids[0]), daemon=True)
        killer.start()
        frame = mh.sweep(MANY, TARGETS, contexts=CONTEXTS, output=path,
                         execution=replace(FOUR, executor=client))  # fmt: skip
        killer.join(5)
    pd.testing.assert_frame_equal(frame, whole, check_exact=True)


def _kill_when_written(path: Path, pid: int) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if list(path.glob("part-*.parquet")):
            os.kill(pid, signal.SIGKILL)
            return
        time.sleep(0.005)


def test_an_error_in_a_worker_arrives_with_its_type_and_message() -> None:
    too_many = [mh.Loadout("Horde", [(BOLT, 3000)])]  # 6,000 dice: past the exact engine
    for jobs in (1, 2):
        with pytest.raises(mh.LimitError, match="attack dice of pool"):
            mh.sweep(LOADOUTS[:1] + too_many, TARGETS[:2],
                     execution=mh.SweepExecution(task_rows=2, jobs=jobs))  # fmt: skip


@pytest.mark.dask
def test_an_error_on_a_dask_worker_arrives_with_its_type() -> None:
    too_many = [mh.Loadout("Horde", [(BOLT, 3000)])]
    with pytest.raises(mh.LimitError, match="attack dice of pool"):
        mh.sweep(too_many, TARGETS[:2], execution=mh.SweepExecution("dask", jobs=1))


@pytest.mark.dask
def test_an_unreachable_scheduler_is_a_clear_error_within_seconds() -> None:
    start = time.monotonic()
    with pytest.raises(mh.OptionError, match="no Dask scheduler answered at 'tcp://127.0.0.1:9'"):
        mh.sweep(LOADOUTS, TARGETS, execution=mh.SweepExecution("tcp://127.0.0.1:9"))
    assert time.monotonic() - start < 15


def test_bad_input() -> None:
    with pytest.raises(mh.ProfileError, match="loadouts must be non-empty"):
        mh.sweep([], TARGETS)
    with pytest.raises(mh.ProfileError, match="targets must be non-empty"):
        mh.sweep(LOADOUTS, [])
    with pytest.raises(mh.ProfileError, match="contexts must be at least one Context"):
        mh.sweep(LOADOUTS, TARGETS, contexts=[])
    with pytest.raises(mh.ProfileError, match="context names must be unique"):
        mh.sweep(LOADOUTS, TARGETS, contexts=[mh.Context(), mh.Context()])
    with pytest.raises(mh.OptionError, match="executor must be None"):
        mh.sweep(LOADOUTS, TARGETS, execution=mh.SweepExecution(3))
    with pytest.raises(mh.OptionError, match="jobs must be an integer >= 1"):
        mh.SweepExecution(jobs=0)
    with pytest.raises(mh.OptionError, match="task_rows must be an integer >= 1"):
        mh.SweepExecution(task_rows=True)
    with pytest.raises(mh.OptionError, match="execution must be a SweepExecution"):
        mh.sweep(LOADOUTS, TARGETS, execution={"jobs": 2})  # type: ignore[arg-type]
    with pytest.raises(mh.OptionError, match="output must be a folder's path or a SweepOutput"):
        mh.sweep(LOADOUTS, TARGETS, output=3)  # type: ignore[arg-type]
    assert SWEEP_COLUMNS.index("context") == SWEEP_COLUMNS.index("target") + 1


def test_the_best_attackers_and_the_heatmap() -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    frame = mh.sweep(LOADOUTS, TARGETS, contexts=CONTEXTS)
    vehicles = [t.name for t in TARGETS if "VEHICLE" in t.unit.keywords]
    metric = "points_destroyed_per_100_points"
    best = mh.sweep_top(frame, metric, n=2, targets=vehicles, context="close")
    close = frame[(frame.context == "close") & frame.target.isin(vehicles)]
    want = close.groupby("loadout")[metric].mean().sort_values(ascending=False)
    assert best.loadout.tolist() == want.index[:2].tolist()
    assert best[metric].tolist() == pytest.approx(want.iloc[:2].tolist(), abs=1e-12)
    assert best.targets.tolist() == [len(vehicles)] * 2
    with pytest.raises(mh.OptionError, match="context must be one of"):
        mh.sweep_top(frame, metric)
    with pytest.raises(mh.OptionError, match="targets must be targets of the sweep"):
        mh.sweep_top(frame, metric, context="far", targets=["Nobody"])
    for order in ("cluster", "efficiency", "given"):
        ax = mh.plot_sweep(frame, "mean_killed", context="far", order=order)
        assert ax.images[0].get_array().shape == (len(LOADOUTS), len(TARGETS))
        labels = [t.get_text() for t in ax.get_yticklabels()]
        assert sorted(labels) == sorted(x.name for x in LOADOUTS)
    efficiency = mh.plot_sweep(frame, "mean_killed", context="far", order="efficiency")
    means = frame[frame.context == "far"].groupby("loadout").mean_killed.mean()
    top = [t.get_text() for t in efficiency.get_yticklabels()][0]
    assert top == means.idxmax()
    with pytest.raises(mh.OptionError, match="order must be one of"):
        mh.plot_sweep(frame, context="far", order="alphabetical")
    plt.close("all")
    page = mh.sweep_html(frame, "mean_killed", context="close")
    assert page.count("<tr data-row=") == len(LOADOUTS) * len(TARGETS)
    assert "sweep (close)" in page
    with pytest.raises(mh.OptionError, match="context must be one of"):
        mh.sweep_html(frame)


def test_the_sweep_command(tmp_path: Path) -> None:
    from mathhammer.cli import main
    from mathhammer.cli.sweep import read_contexts

    army = tmp_path / "army.csv"
    army.write_text(
        "unit,weapon,count,A,BS/WS,S,AP,D,abilities,points\n"
        "Squad,Bolt rifle,10,2,3+,4,-1,1,,90\n"
        "Gunners,Melta,3,1,3+,9,-4,D6,[MELTA 2],100\n"
    )
    threats = tmp_path / "threats.csv"
    threats.write_text("unit,models,T,Sv,W,points\nGuard,10,3,5+,1,60\nTank,1,10,3+,12,150\n")
    contexts = tmp_path / "contexts.csv"
    contexts.write_text("name,context\nfar,\nclose,half_range\n")
    out = tmp_path / "sweep.parquet"
    argv = ["sweep", str(army), "--targets", str(threats), "--contexts", str(contexts), "-o",
            str(out), "--quiet"]  # fmt: skip
    assert main(argv) == 0
    written = pd.read_parquet(out)
    assert len(written) == 2 * 2 * 2 and set(written.context) == {"far", "close"}
    assert main([*argv, "--resume"]) == 0  # nothing left to compute
    assert main([*argv, "--jobs", "2", "--scheduler", "tcp://x:1"]) != 0  # one clean line
    bad = tmp_path / "bad.csv"
    bad.write_text("name,context\nfar,hit+1\n")
    with pytest.raises(mh.CsvError, match="context flags only"):
        read_contexts(bad)


def test_the_command_speaks_of_folders_and_flags(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """-o out.csv is refused (a sweep is a folder of Parquet files), and a folder that holds
    a sweep asks for --resume, in the command line's words; no bar on a redirected stderr."""
    from mathhammer.cli import main

    army = tmp_path / "army.csv"
    army.write_text("unit,weapon,count,A,BS/WS,S,AP,D,abilities,points\nSquad,Bolt rifle,10,2,"
                    "3+,4,-1,1,,90\n")  # fmt: skip
    threats = tmp_path / "threats.csv"
    threats.write_text("unit,models,T,Sv,W,points\nGuard,10,3,5+,1,60\n")
    base = ["sweep", str(army), "--targets", str(threats), "-o"]
    assert main([*base, str(tmp_path / "out.csv")]) == 1
    err = capsys.readouterr().err
    assert "-o must be a folder for the sweep's Parquet files; got" in err and "'out'" in err
    assert not (tmp_path / "out.csv").exists()
    folder = str(tmp_path / "out")
    assert main([*base, folder]) == 0
    assert "it/s" not in capsys.readouterr().err  # stderr is not a terminal: no bar
    assert main([*base, folder]) == 1
    err = capsys.readouterr().err
    assert "add --resume to go on with the sweep in it" in err and "resume=True" not in err
    assert main([*base, folder, "--resume", "--no-progress"]) == 0


def test_resume_checks_what_it_reads(tmp_path: Path) -> None:
    # a damaged part is computed again; a damaged manifest is one clear error
    whole = mh.sweep(LOADOUTS, TARGETS, contexts=CONTEXTS, execution=TEN)
    path = tmp_path / "sweep"
    mh.sweep(LOADOUTS, TARGETS, contexts=CONTEXTS, execution=TEN, output=path)
    part = sorted(path.glob("part-*.parquet"))[1]
    part.write_bytes(part.read_bytes()[:100])  # cut short, as a crash mid-copy leaves it
    resumed = mh.sweep(LOADOUTS, TARGETS, contexts=CONTEXTS, execution=TEN,
                       output=mh.SweepOutput(path, resume=True))  # fmt: skip
    pd.testing.assert_frame_equal(resumed, whole, check_exact=True)
    (path / "_sweep.json").write_text("{not json")
    with pytest.raises(mh.OptionError, match=r"the manifest of the sweep in .* cannot be read"):
        mh.sweep(LOADOUTS, TARGETS, contexts=CONTEXTS, execution=TEN,
                 output=mh.SweepOutput(path, resume=True))  # fmt: skip


def test_a_sweep_resumes_with_the_objects_it_was_given(tmp_path: Path) -> None:
    """The same attackers and targets, used again in the same process, are the same
    inputs: what the first sweep cached on them (a unit's wounds, its states) does not
    change their fingerprints."""
    bolt = mh.Weapon("Bolt rifle", 2, 3, 4, -1, 1)
    targets = [mh.targets.get("Vehicle"), mh.targets.get("Horde infantry")]
    attackers = {"bolters": [(bolt, 10)]}
    folder = tmp_path / "sweep"
    first = mh.sweep(attackers, targets, output=folder)
    again = mh.sweep(attackers, targets, output=mh.SweepOutput(folder, resume=True))
    assert again.equals(first)
