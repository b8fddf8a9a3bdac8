"""The Monte Carlo is parallel-ready: blocks with their own streams, mergeable counts.

``mh.simulate`` cuts the trials into blocks (:func:`block_streams`), each rolled from its
own stream spawned from ``rng``, and tallies each block as histograms
(:class:`~mathhammer.montecarlo.tally.Tally`). So:

(a) the blocks' tallies merged in any grouping and order give exactly (``==``) the result
    of ``mh.simulate``;
(b) the same holds when the blocks are rolled in other processes, the plan itself pickled
    and sent there;
(c) the result and the tallies hold counts per value, never per trial, so their size
    does not grow with the number of trials;
(d) a seed gives one result; other seeds give other results.
"""

from __future__ import annotations

import pickle
from concurrent.futures import ProcessPoolExecutor
from dataclasses import fields, is_dataclass
from functools import reduce
from typing import Any

import numpy as np
import pytest

import mathhammer as mh
from mathhammer.montecarlo import engine
from mathhammer.montecarlo.engine import assemble, block_streams, simulate_block
from mathhammer.montecarlo.tally import Tally
from mathhammer.rules import AttackPlan, plan_attack

SEED = 20_240_611

BOLTER = mh.Weapon("Bolt rifle", attacks=2, skill=3, strength=4, ap=-1, damage=1)
PLASMA = mh.Weapon("Plasma", 1, skill=3, strength=8, ap=-3, damage=2, abilities="[HAZARDOUS]")
GUARD = mh.ModelGroup(4, 4, 3, 2, name="Guard")
CAPTAIN = mh.ModelGroup(1, 4, 2, 5, invuln=4, character=True, name="Captain")
MARINES = mh.Unit("Marines", [GUARD, CAPTAIN], "INFANTRY", leadership=7)
#: Two pools, a mixed unit and hazard rolls: every kind of count the tally keeps.
WEAPONS = [(BOLTER, 8), (PLASMA, 2)]
CLASSIC = (
    [(mh.Weapon("Lasgun", 1, bs=3, strength=3), 20)],
    mh.Unit.of("Guard", 10, 3, 5, 1, leadership=7),
)


def plan() -> AttackPlan:
    return plan_attack(WEAPONS, MARINES)


def dists(result: mh.SimulationResult) -> dict[str, mh.Dist]:
    """Every distribution of a result, the per-pool ``unsaved`` (left out of ``==``) included."""
    out = dict(result.distributions())
    for i, pool in enumerate(result.pools):
        for stage in ("attacks", "hits", "wounds", "unsaved", "devastating", "killed"):
            out[f"pool {i} {stage}"] = getattr(pool, stage)
    out["hazardous (all)"] = result.hazardous
    return out


def assert_identical(a: mh.SimulationResult, b: mh.SimulationResult) -> None:
    assert a == b
    da, db = dists(a), dists(b)
    assert list(da) == list(db)
    for name in da:
        assert da[name] == db[name], name
    assert a.trials == b.trials and a.tests == b.tests


# --------------------------------------------------------------------- (a) merge order
@pytest.fixture
def small_blocks(monkeypatch: pytest.MonkeyPatch) -> int:
    """Blocks of 1_000 trials, so that a quick run has many of them."""
    monkeypatch.setattr(engine, "BLOCK", 1_000)
    return 1_000


def test_block_streams_cut_the_trials(small_blocks: int) -> None:
    blocks = block_streams(7_500, SEED)
    assert [size for _, size in blocks] == [1_000] * 7 + [500]
    first = [g.integers(0, 2**32, 4).tolist() for g, _ in block_streams(7_500, SEED)]
    assert len({tuple(f) for f in first}) == 8  # each block its own stream


def _pairs(tallies: list[Tally]) -> Tally:
    """Merge neighbours pairwise, as a tree: ((0 1) (2 3)) ..."""
    while len(tallies) > 1:
        tallies = [reduce(Tally.merge, tallies[i : i + 2]) for i in range(0, len(tallies), 2)]
    return tallies[0]


@pytest.mark.parametrize(
    "grouping",
    [
        pytest.param(lambda ts: reduce(Tally.merge, ts), id="in order"),
        pytest.param(lambda ts: reduce(Tally.merge, ts[::-1]), id="reversed"),
        pytest.param(_pairs, id="pairs"),
        pytest.param(lambda ts: _pairs(ts[1::2]).merge(_pairs(ts[::2])), id="odd then even"),
    ],
)
def test_merged_blocks_equal_simulate(small_blocks: int, grouping: Any) -> None:
    trials = 7_500
    the_plan = plan()
    serial = mh.simulate(the_plan, trials=trials, rng=SEED)
    tallies = [simulate_block(the_plan, g, size) for g, size in block_streams(trials, SEED)]
    assert len(tallies) == 8
    assert_identical(assemble(the_plan, grouping(tallies)), serial)


def test_merged_blocks_equal_simulate_at_the_real_block_size() -> None:
    trials = 2 * engine.BLOCK + 123
    the_plan = plan()
    serial = mh.simulate(the_plan, trials=trials, rng=SEED)
    tallies = [simulate_block(the_plan, g, size) for g, size in block_streams(trials, SEED)]
    assert [t.trials for t in tallies] == [engine.BLOCK, engine.BLOCK, 123]
    assert_identical(assemble(the_plan, _pairs(tallies[::-1])), serial)


def test_classic_panic_tests_merge_too(small_blocks: int) -> None:
    the_plan = plan_attack(*CLASSIC, rules="classic")
    serial = mh.simulate(the_plan, trials=4_000, rng=SEED)
    tallies = [simulate_block(the_plan, g, size) for g, size in block_streams(4_000, SEED)]
    merged = assemble(the_plan, _pairs(tallies[::-1]))
    assert_identical(merged, serial)
    assert merged.p_panic_test is not None and 0 < merged.p_panic_test < 1


# --------------------------------------------------------------------- (b) processes
def _block_in_worker(job: tuple[Any, mh.Unit, str, np.random.Generator, int]) -> Tally:
    """Rebuild the plan from its inputs and roll one block (runs in a worker process)."""
    weapons, target, rules, rng, size = job
    return simulate_block(plan_attack(weapons, target, rules=rules), rng, size)


@pytest.mark.system
def test_blocks_rolled_in_other_processes(small_blocks: int) -> None:
    trials = 6_500
    streams = block_streams(trials, SEED)
    for rng, _ in streams:  # a Generator travels whole: the same stream on the other side
        copy = pickle.loads(pickle.dumps(rng))
        assert copy.bit_generator.state == rng.bit_generator.state
    jobs = [(WEAPONS, MARINES, "11e", rng, size) for rng, size in streams]
    with ProcessPoolExecutor(max_workers=2) as pool:
        tallies = list(pool.map(_block_in_worker, jobs))
    the_plan = plan()
    assert_identical(
        assemble(the_plan, _pairs(tallies[::-1])), mh.simulate(the_plan, trials=trials, rng=SEED)
    )


def _plan_block_in_worker(job: tuple[AttackPlan, np.random.Generator, int]) -> Tally:
    """Roll one block of a plan that travelled pickled (runs in a worker process)."""
    the_plan, rng, size = job
    return simulate_block(the_plan, rng, size)


@pytest.mark.system
@pytest.mark.parametrize("rules", ["11e", "classic"])
def test_a_plan_pickles_for_a_worker(small_blocks: int, rules: str) -> None:
    the_plan = plan() if rules == "11e" else plan_attack(*CLASSIC, rules="classic")
    copy = pickle.loads(pickle.dumps(the_plan))
    rng = np.random.default_rng(SEED)
    a = assemble(the_plan, simulate_block(the_plan, rng, 500))
    rng = np.random.default_rng(SEED)
    assert_identical(assemble(copy, simulate_block(copy, rng, 500)), a)
    # the plan itself crosses to the workers: no rebuilding from its inputs there
    trials = 3_500
    jobs = [(the_plan, rng, size) for rng, size in block_streams(trials, SEED)]
    with ProcessPoolExecutor(max_workers=2) as pool:
        tallies = list(pool.map(_plan_block_in_worker, jobs))
    assert_identical(
        assemble(the_plan, _pairs(tallies[::-1])), mh.simulate(the_plan, trials=trials, rng=SEED)
    )


# --------------------------------------------------------------------- (c) memory
def _arrays(obj: Any, seen: set[int] | None = None) -> list[np.ndarray]:
    """Every numpy array reachable through dataclass fields, containers and Dists."""
    seen = set() if seen is None else seen
    if id(obj) in seen:
        return []
    seen.add(id(obj))
    if isinstance(obj, np.ndarray):
        return [obj]
    if isinstance(obj, mh.Dist):
        return [obj.probabilities]
    if isinstance(obj, dict):
        return [a for v in obj.values() for a in _arrays(v, seen)]
    if isinstance(obj, list | tuple):
        return [a for v in obj for a in _arrays(v, seen)]
    if is_dataclass(obj) and not isinstance(obj, type):
        out = [a for f in fields(obj) for a in _arrays(getattr(obj, f.name), seen)]
        return out + [a for v in vars(obj).values() for a in _arrays(v, seen)]
    return []


def _tally_size(tally: Tally) -> int:
    return sum(c.size for c in tally.counts.values())


def test_the_result_holds_no_per_trial_arrays() -> None:
    trials = 60_000
    sim = mh.simulate(WEAPONS, MARINES, trials=trials, rng=SEED)
    arrays = _arrays(sim)
    reached = {id(a) for a in arrays}
    assert all(
        id(d.probabilities) in reached for d in dists(sim).values()
    )  # the walk reaches them all
    assert max(a.size for a in arrays) < 100  # a few values per quantity, not 60_000
    for pool in sim.pools:
        for value in vars(pool).values():
            assert not (isinstance(value, np.ndarray) and value.size >= trials)


def test_a_tally_does_not_grow_with_trials() -> None:
    """Each histogram is bounded by the quantity's largest value, whatever the trials."""
    the_plan = plan()
    exact = mh.attack(the_plan)
    bound = {"killed": MARINES.models + 1, "damage": MARINES.total_wounds + 1}
    bound |= {f"group {i}": g.count + 1 for i, g in enumerate(MARINES.groups)}
    bound["hazardous"] = exact.hazardous.n + 1
    for i, pool in enumerate(exact.pools):
        for stage in ("attacks", "hits", "wounds", "unsaved", "devastating"):
            bound[f"{i}:{stage}"] = getattr(pool, stage).n + 1
        bound[f"{i}:killed"] = MARINES.models + 1
    codes = np.prod([g.total_wounds + 1 for g in MARINES.groups])  # the final states
    bound["state"] = int(codes)
    sizes = []
    for trials in (200, 5_000, 50_000):
        tally = simulate_block(the_plan, np.random.default_rng(SEED), trials)
        assert tally.trials == trials
        assert set(tally.counts) == set(bound)
        for name, counts in tally.counts.items():
            assert counts.size <= bound[name], name
            assert int(counts.sum()) == trials, name
        sizes.append(_tally_size(tally))
    assert max(sizes) <= sum(bound.values()) < 200
    blocks = [simulate_block(the_plan, g, 500) for g, _ in block_streams(5_000, 1)]
    assert _tally_size(reduce(Tally.merge, blocks)) <= sum(bound.values())


# --------------------------------------------------------------------- (d) seeds
def test_the_same_seed_gives_the_same_result() -> None:
    a = mh.simulate(WEAPONS, MARINES, trials=20_000, rng=SEED)
    b = mh.simulate(WEAPONS, MARINES, trials=20_000, rng=np.random.default_rng(SEED))
    c = mh.simulate(WEAPONS, MARINES, trials=20_000, rng=np.random.SeedSequence(SEED))
    assert_identical(a, b)
    assert_identical(a, c)


def test_different_seeds_give_different_results() -> None:
    a = mh.simulate(WEAPONS, MARINES, trials=20_000, rng=SEED)
    b = mh.simulate(WEAPONS, MARINES, trials=20_000, rng=SEED + 1)
    assert a.killed != b.killed and a.damage != b.damage
    assert a.killed.mean() != b.killed.mean()
