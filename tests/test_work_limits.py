"""Work inside the limits: what the exact engine accepts finishes in seconds.

Issue 13, point 2: [DEVASTATING WOUNDS] pools inside the documented limits ran for more
than 590 s or asked for 149 GiB (the joint of dice left, devastating wounds and states was
built whole, unchecked, on the single-block path), and 2,000 D3 attacks against a
two-group unit of 500 models took 425 s. Now the save chain stays factored until a second
block acts, [LETHAL HITS] and [DEVASTATING WOUNDS] are one matrix product instead of
thousands of 2-D convolutions, and every pool's memory and work are estimated
(:mod:`mathhammer.exact.cost`) and refused past the limits before anything is computed.

The fast paths are checked against the algorithms they replace (and enumeration); the
largest accepted case of each limit is timed against a budget, and the cases just past
them are refused within a second, in interpreters whose memory is capped.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from guarded import GIB, memory_cap, run_capped, timed

import mathhammer as mh
from mathhammer.core import limits
from mathhammer.core.binomial import (
    _binomial_table_build,
    binomial_table,
    binomial_thin,
)
from mathhammer.core.convolution import convolve2d
from mathhammer.core.dist import Dist
from mathhammer.core.tuning import TABLE_SIZE
from mathhammer.exact import budget, chain, cost, unsaved
from mathhammer.exact.chain import factored_series
from mathhammer.exact.layout import Layout, damage_matrix
from mathhammer.exact.steps import compound_kernel, split_kernel, thin_by_kernel
from mathhammer.exact.transition import Transition

ATOL = 1e-12
rng = np.random.default_rng(13)


def kernel_of(p_fail: float, p_success: float, p_critical: float, a: int) -> np.ndarray:
    """A split kernel: fail (0, 0), success (1, 0), critical (a, 1)."""
    k = np.zeros((max(a, 1) + 1, 2))
    k[0, 0], k[1, 0] = p_fail, p_success
    k[a, 1] += p_critical
    return k


def convolved(count: Dist, k: np.ndarray) -> np.ndarray:
    """The n-fold convolution of ``k`` mixed over ``count``: the general path."""
    out = np.zeros((count.n * (k.shape[0] - 1) + 1, count.n * (k.shape[1] - 1) + 1))
    power = np.ones((1, 1))
    for n, weight in enumerate(count.probabilities):
        if n:
            power = convolve2d(power, k)
        out[: power.shape[0], : power.shape[1]] += weight * power
    return out


# --------------------------------------------------------------------- the split kernel
@pytest.mark.parametrize("a", [0, 1, 3])
def test_split_kernel_equals_the_convolution(a: int) -> None:
    """[LETHAL HITS] (a = 0), with [SUSTAINED HITS a]: one matrix product, same joint."""
    fail, success, critical = rng.dirichlet([1, 1, 1]).tolist()
    k = kernel_of(fail, success, critical, a)
    assert split_kernel(k) is not None
    count = Dist(rng.dirichlet(np.ones(30)))
    np.testing.assert_allclose(compound_kernel(count, k), convolved(count, k), atol=ATOL)


@pytest.mark.parametrize(
    "k",
    [
        np.array([[0.75, 0.25]]),  # no success: a die fails or is critical
        np.array([[0.5, 0.25], [0.25, 0.0], [0.0, 0.0]]),  # a trailing row of zeros
    ],
)
def test_split_kernels_of_other_shapes(k: np.ndarray) -> None:
    assert split_kernel(k) is not None
    count = Dist(rng.dirichlet(np.ones(8)))
    np.testing.assert_allclose(compound_kernel(count, k), convolved(count, k), atol=ATOL)


def test_split_kernel_equals_enumeration() -> None:
    k = kernel_of(0.5, 1 / 3, 1 / 6, 2)
    count = Dist([0.1, 0.2, 0.3, 0.4])
    want = np.zeros((3 * 2 + 1, 3 + 1))
    cells = [(0, 0), (1, 0), (2, 1)]
    for n, weight in enumerate(count.probabilities):
        for combo in itertools.product(cells, repeat=n):
            p = weight * np.prod([k[c] for c in combo])
            want[sum(c[0] for c in combo), sum(c[1] for c in combo)] += p
    np.testing.assert_allclose(compound_kernel(count, k), want, atol=ATOL)


def test_devastating_thinning_of_lethal_hits_equals_enumeration() -> None:
    """A joint with automatic wounds (several columns) through the devastating kernel."""
    joint = rng.dirichlet(np.ones(12)).reshape(4, 3)  # [hits to wound, automatic wounds]
    k = kernel_of(0.5, 1 / 3, 1 / 6, 0)  # wound: fail, wound, devastating
    want = np.zeros((3 + 2 + 1, 3 + 1))
    for x, y in itertools.product(range(4), range(3)):
        for combo in itertools.product([(0, 0), (1, 0), (0, 1)], repeat=x):
            p = joint[x, y] * np.prod([k[c] for c in combo])
            want[y + sum(c[0] for c in combo), sum(c[1] for c in combo)] += p
    got = thin_by_kernel(joint, k)
    np.testing.assert_allclose(got, want[: got.shape[0], : got.shape[1]], atol=ATOL)


def test_kernels_that_are_not_split() -> None:
    assert split_kernel(np.array([[0.5], [0.5]])) is None
    assert split_kernel(np.array([[0.3, 0.1], [0.2, 0.05], [0.25, 0.1]])) is None  # 2 criticals
    assert split_kernel(np.array([[0.5, 0.2], [0.2, 0.0], [0.1, 0.0]])) is None  # x = 2, y = 0
    assert split_kernel(np.array([[0.5, 0.2], [0.2, 0.0]])) is None  # mass 0.9
    assert budget.kernel_kind(np.array([[0.3, 0.1], [0.2, 0.05], [0.25, 0.1]])) == "general"


# --------------------------------------------------------------------- binomial thinning
def test_binomial_thinning_by_horner_equals_the_table() -> None:
    n = TABLE_SIZE + 200
    weights = rng.dirichlet(np.ones(n + 1))
    table = _binomial_table_build(n, 0.3)
    np.testing.assert_allclose(binomial_thin(weights, 0.3), table.T @ weights, atol=ATOL)
    joint = rng.dirichlet(np.ones(3 * (n + 1))).reshape(n + 1, 3)  # several columns: the table
    np.testing.assert_allclose(binomial_thin(joint, 0.3), table.T @ joint, atol=ATOL)
    assert Dist.binomial(n, 0.3).allclose(Dist._trusted(table[n].copy()))
    with pytest.raises(mh.DistributionError, match="p must be a probability"):
        binomial_thin(weights, 1.5)


# --------------------------------------------------------------------- the save chain
def reference_chain(
    count: np.ndarray, state: np.ndarray, blocks: list[tuple[float, Transition | None]]
) -> np.ndarray:
    """The chain as it was: the whole joint [n, m, s] from the first block on."""
    active = [i for i, (_, t) in enumerate(blocks) if t is not None]
    if not active:
        return np.asarray(count.sum(axis=0)[:, None] * state)
    last, kmax = active[-1], count.shape[0] - 1
    joint = count[:, :, None] * state
    for i, (p, t) in enumerate(blocks[: last + 1]):
        table = binomial_table(kmax, p)
        if i == last:
            assert t is not None
            return t.power_series(np.tensordot(table.T, joint, axes=1))
        out = np.zeros_like(joint)
        stack = joint.copy()
        for j in range(kmax + 1):
            out[: kmax + 1 - j] += table[j:, j, None, None] * stack[j:]
            if j < kmax and t is not None:
                stack[j + 1 :] = t.apply(stack[j + 1 :])
        joint = out
    raise AssertionError("unreachable")


def random_transition(states: int, sparse: bool) -> Transition:
    m = rng.random((states, states)) * (rng.random((states, states)) < 0.3)
    m[np.arange(states), np.arange(states)] += 0.1
    m /= m.sum(axis=1, keepdims=True)
    if not sparse:
        return Transition(m)
    import scipy.sparse as sp

    return Transition(sp.csr_matrix(m))


@pytest.mark.parametrize(
    "acting",
    [
        [True, False],  # one acting block: factored throughout
        [False, True, False],  # a block saved by every group first
        [True, True, False],  # two acting blocks: the joint after the first
        [True, True, True, False],  # a middle block that acts
        [True, False, True],  # a middle block saved by every group
        [False, False, False],  # nothing acts
    ],
)
@pytest.mark.parametrize("width", [1, 4])
@pytest.mark.parametrize("sparse", [False, True])
def test_factored_chain_equals_the_whole_joint(
    acting: list[bool], width: int, sparse: bool
) -> None:
    states, kmax = 7, 9
    count = rng.dirichlet(np.ones((kmax + 1) * width)).reshape(kmax + 1, width)
    state = rng.dirichlet(np.ones(states))
    probabilities = rng.dirichlet(np.ones(len(acting))) / 1.5
    blocks = [
        (float(p), random_transition(states, sparse) if acts else None)
        for p, acts in zip(probabilities, acting, strict=True)
    ]
    want = reference_chain(count, state, blocks)
    np.testing.assert_allclose(chain.sorted_dice_chain(count, state, blocks), want, atol=ATOL)


def test_small_chunks_give_the_same_attack(monkeypatch: pytest.MonkeyPatch) -> None:
    """Chunking the vectors state @ T**j and the thinning changes nothing."""
    gun = mh.Weapon("Gun", 2, 3, 4, 0, "D3", abilities="[DEVASTATING WOUNDS]")
    mob = mh.Unit("Mob", [mh.ModelGroup(5, 4, 3, 2), mh.ModelGroup(5, 4, 4, 1)])
    plain = mh.Weapon("Plain", 2, 3, 4, 0, "D3")
    cases: list[tuple[mh.WeaponsLike, mh.Unit]] = [
        ([(gun, 10)], mob),
        ([(plain, 10)], mob),
        ([mh.MortalWounds("2D6")], mob),
    ]
    whole = [mh.attack(weapons, target) for weapons, target in cases]
    monkeypatch.setattr(chain, "CHUNK_ENTRIES", 7)
    for (weapons, target), want in zip(cases, whole, strict=True):
        got = mh.attack(weapons, target)
        assert got.damage.allclose(want.damage, atol=ATOL)
        assert got.killed.allclose(want.killed, atol=ATOL)


def test_a_series_stops_when_the_state_stops_changing() -> None:
    """Mortal wounds past the unit's wounds: the remaining terms are summed at once."""
    layout = Layout(mh.Unit.of("Squad", 3, 4, 3, 2))
    one = [Dist([0.0, 1.0])]
    t = Transition(damage_matrix(layout, one))
    coeffs = rng.dirichlet(np.ones(40))[:, None]  # up to 39 wounds; the unit has 6
    state = layout.initial_state()
    want = t.power_series(coeffs * state)
    np.testing.assert_allclose(factored_series(coeffs, state, t)[0], want, atol=ATOL)


def test_the_failed_saves_counter_stops_at_the_units_wounds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    gun = mh.Weapon("Gun", 3, 3, 4, 0, "D3")
    led = mh.Unit("Led", [mh.ModelGroup(4, 4, 3, 1), mh.ModelGroup(1, 4, 4, 3, character=True)])
    bounded = mh.attack([(gun, 10)], led).pools[0].unsaved
    monkeypatch.setattr(unsaved, "unsaved_counter", lambda layout, kmax, damage: kmax + 1)
    whole = mh.attack([(gun, 10)], led).pools[0].unsaved
    assert bounded.allclose(whole, atol=ATOL)
    assert bounded.n == 7 and whole.n == 30  # the unit has 7 wounds


# --------------------------------------------------------------------- estimates
def test_cost_estimates_follow_the_paths() -> None:
    assert cost.Cost(3, 1.0) + cost.Cost(2, 2.0) == cost.Cost(3, 3.0)
    # a general hit kernel (random extra hits with automatic wounds) costs n³
    general, rows, columns = cost.hit_cost(400, (4, 2), "general", 5)
    assert (rows, columns) == (1201, 401) and general.work > 400**3
    # nothing acts: the state is carried as it is
    assert cost.chain_cost(100, 1, 50, 10.0, [False] * 3) == cost.Cost(50, 101 * 50)
    # a block saved by every group costs a thinning, before the first block that acts or
    # between two that act
    acting = cost.chain_cost(100, 1, 50, 10.0, [True, True])
    assert cost.chain_cost(100, 1, 50, 10.0, [False, True, True]).work > acting.work
    assert cost.chain_cost(100, 1, 50, 10.0, [True, False, True]).work > acting.work
    # a general wound kernel: the n-fold convolution of each column
    wound, to_save, width = cost.wound_cost(101, 3, "general", 3)
    assert (to_save, width) == (103, 101) and wound.work > 3 * 100**3
    assert cost.apply_cost(100, 300, dense=True) == 1250.0
    assert cost.apply_cost(1000, 3000, dense=False, stacked=True) == 3000.0


def test_estimates_are_checked_against_the_limits() -> None:
    cost.check_cost("pool 'Gun'", cost.Cost(10, 10.0), "10 dice")
    with pytest.raises(mh.LimitError, match="largest table of pool 'Gun' must be at most"):
        cost.check_cost("pool 'Gun'", cost.Cost(limits.MAX_TABLE + 1, 1.0), "10 dice")
    with pytest.raises(mh.LimitError, match=r"estimated work .* at most 3e\+09 operations"):
        cost.check_cost("pool 'Gun'", cost.Cost(1, 1e10), "10 dice")


# --------------------------------------------------------------------- refusals and budgets
REFUSALS: dict[str, Callable[[], object]] = {
    "devastating vs two groups of 2,500": lambda: mh.attack(
        [(mh.Weapon("Gun", 1, 3, 4, 0, 1, abilities="[DEVASTATING WOUNDS]"), 2000)],
        mh.Unit("Mob", [mh.ModelGroup(2500, 4, 3, 1), mh.ModelGroup(2500, 4, 4, 1)]),
    ),
    "lethal and devastating, 2,000 dice": lambda: mh.attack(
        [(mh.Weapon("Gun", 1, 3, 4, 0, 1, abilities="[LETHAL HITS], [DEVASTATING WOUNDS]"), 2000)],
        mh.Unit.of("Squad", 10, 4, 3, 1),
    ),
    "three groups, 2,000 dice": lambda: mh.attack(
        [(mh.Weapon("Gun", 1, 3, 4, 0, "D3"), 2000)],
        mh.Unit(
            "Mob",
            [mh.ModelGroup(100, 4, 2, 2), mh.ModelGroup(100, 4, 3, 2), mh.ModelGroup(100, 4, 4, 2)],
        ),
    ),
    "mortal wounds against Feel No Pain": lambda: mh.attack(
        [mh.MortalWounds(100_000)], mh.Unit.of("Horde", 5000, 4, 3, 1, fnp=5)
    ),
}


@pytest.mark.parametrize("build", list(REFUSALS.values()), ids=list(REFUSALS))
def test_work_beyond_the_limits_is_refused_within_a_second(build: Callable[[], object]) -> None:
    with memory_cap(GIB):
        error, seconds = timed(build)
    assert isinstance(error, mh.LimitError), error
    assert seconds < 1.0
    assert "use mathhammer.simulate" in str(error)
    assert str(error).startswith(("estimated work of", "largest table of"))


def test_the_failed_saves_stage_of_a_large_two_group_unit_is_computed_in_a_second() -> None:
    """Refused once (its augmented chain passed the limits); the leading run of failing
    dice makes it small (tests/test_unsaved_streak.py refuses a larger one)."""
    gun = mh.Weapon("Gun", 1, 3, 4, 0, "D3")
    mob = mh.Unit("Mob", [mh.ModelGroup(250, 4, 3, 1), mh.ModelGroup(250, 4, 4, 1)])
    result = mh.attack([(gun, 500)], mob)
    with memory_cap(GIB):
        error, seconds = timed(lambda: result.pools[0].unsaved)
    assert error is None and seconds < 1.0
    unsaved = result.pools[0].unsaved
    assert abs(unsaved.probabilities.sum() - 1.0) < 1e-12
    # every failed save kills a W1 model: the count is the models killed
    assert unsaved.allclose(result.killed, atol=1e-12)


@pytest.mark.system
def test_the_issue_cases_are_refused_in_a_capped_process() -> None:
    report = run_capped(
        """
        import mathhammer as mh
        dev = mh.Weapon("Gun", 1, 3, 4, 0, 1, abilities="[DEVASTATING WOUNDS]")
        cases = {
            "two groups": lambda: mh.attack([(dev, 2000)], mh.Unit("Mob", [
                mh.ModelGroup(2500, 4, 3, 1), mh.ModelGroup(2500, 4, 4, 1)])),
            "led unit": lambda: mh.attack([(dev, 2000)], mh.Unit("Led", [
                mh.ModelGroup(1000, 4, 3, 2), mh.ModelGroup(1, 4, 4, 5, character=True)])),
        }
        print(json.dumps({name: timed(f) for name, f in cases.items()}))
        """,
        memory=GIB,
    )
    for name, outcome in report.items():
        assert outcome["error"] == "LimitError" and outcome["seconds"] < 1.0, (name, outcome)


#: The largest accepted case of each limit: (code defining ``weapons`` and ``target``,
#: seconds allowed). Measured on 2 shared cores, one BLAS thread, each takes 0.2-2.5 s
#: (benchmarks/README.md): the budgets leave room for a busy machine.
EDGES: dict[str, tuple[str, float]] = {
    "5,000 dice vs 10,000 wounds": (
        "weapons = [(gun(), 5000)]; target = mh.Unit.of('Horde', 10000, 4, 3, 1)",
        5.0,
    ),
    "5,000 D6 dice vs 2,000 W5": (
        "weapons = [(gun(d='D6'), 5000)]; target = mh.Unit.of('Big', 2000, 4, 3, 5)",
        5.0,
    ),
    "one group at the closed form's bound: 5,000 D20 dice vs W10,000": (
        "weapons = [(gun(d='D20'), 5000)]; target = mh.Unit.of('Monster', 1, 4, 7, 10000)",
        10.0,
    ),
    "15,000 hits": (
        "weapons = [(gun(ab='[SUSTAINED HITS 2]'), 5000)]; "
        "target = mh.Unit.of('Horde', 10000, 4, 3, 1)",
        5.0,
    ),
    "2,000 lethal dice": (
        "weapons = [(gun(ab='[LETHAL HITS]'), 2000)]; target = mh.Unit.of('Horde', 5000, 4, 3, 1)",
        5.0,
    ),
    "Damage 1,000": (
        "weapons = [(gun(d=1000), 60)]; target = mh.Unit.of('Titans', 5, 4, 3, 1000)",
        5.0,
    ),
    "100,000 mortal wounds": (
        "weapons = [mh.MortalWounds(100000)]; target = mh.Unit.of('Horde', 5000, 4, 3, 1)",
        5.0,
    ),
    "200,000 states": (
        "weapons = [(gun(d='D3', ab='[PRECISION]'), 20)]; target = mh.Unit('Led', "
        "[mh.ModelGroup(490, 4, 3, 1), mh.ModelGroup(1, 4, 3, 400, character=True)])",
        5.0,
    ),
    "lethal and devastating work": (
        "weapons = [(gun(ab='[LETHAL HITS], [DEVASTATING WOUNDS]'), 500)]; "
        "target = mh.Unit.of('Squad', 10, 4, 3, 1)",
        5.0,
    ),
    "devastating vs two groups": (
        "weapons = [(gun(ab='[DEVASTATING WOUNDS]'), 250)]; target = mh.Unit('Mob', "
        "[mh.ModelGroup(100, 4, 3, 1), mh.ModelGroup(100, 4, 4, 1)])",
        5.0,
    ),
    "2,000 devastating dice vs 5,000 wounds (149 GiB before)": (
        "weapons = [(gun(ab='[DEVASTATING WOUNDS]'), 2000)]; "
        "target = mh.Unit.of('Horde', 5000, 4, 3, 1)",
        10.0,
    ),
    "2,000 D3 dice vs two groups of 250 W10 (425 s before)": (
        "weapons = [(gun(d='D3'), 2000)]; target = mh.Unit('Mob', "
        "[mh.ModelGroup(250, 4, 3, 10), mh.ModelGroup(250, 4, 4, 10)])",
        10.0,
    ),
}


def _edge(name: str) -> Any:
    code, seconds = EDGES[name]
    return pytest.param(code, seconds, id=name)


@pytest.mark.system
@pytest.mark.parametrize(("code", "budget_seconds"), [_edge(name) for name in EDGES])
def test_the_largest_accepted_cases_finish_within_budget(code: str, budget_seconds: float) -> None:
    report = run_capped(
        f"""
        import mathhammer as mh
        from mathhammer.exact.layout import Layout
        from mathhammer.rules.plan import plan_attack
        gun = lambda d=1, ab="": mh.Weapon("Gun", 1, 3, 4, 0, d, abilities=ab)
        {code}
        plan = plan_attack(weapons, target)
        layout = Layout.of(target, plan.focus)
        start = time.perf_counter()
        result = mh.attack(plan)
        seconds = time.perf_counter() - start
        total = float(result.killed.probabilities.sum())
        print(json.dumps({{"seconds": seconds, "total": total, "states": layout.size}}))
        """,
        memory=2 * GIB,
        timeout=10 * budget_seconds,
    )
    assert report["seconds"] < budget_seconds, report
    assert report["total"] == pytest.approx(1.0, abs=1e-9)
