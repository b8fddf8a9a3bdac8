"""The searches refuse by estimated work before their first attack.

Each search that attacks many times (the orders of the pools, the defender's orders of the
groups, the splits of a melee weapon, the assignments of declarations to targets) once ran
for minutes on inputs a user can type: six pools of 200 dice ranked past 80 s, a weapon of
2,500 attacks split three ways past 110 s and 2.2 GB, fifteen declarations planned at two
targets past 80 s. Each is now refused in well under a second, with the sizes and what to
do, while the searches of a real list (a few pools, groups and declarations) still run.
"""

from __future__ import annotations

import math
import time
from dataclasses import replace

import pytest

import mathhammer as mh
from mathhammer.core.limits import MAX_SEARCH_WORK
from mathhammer.decisions.order import MAX_EXHAUSTIVE, rank_orders
from mathhammer.decisions.runs import Request, engine_run
from mathhammer.decisions.work import check_search, order_runs, request_work

#: A refusal comes before the first attack: far quicker than any of the searches it stops.
REFUSED_WITHIN = 2.0

TARGET = mh.Unit(
    "Big",
    [
        mh.ModelGroup(10, 5, 3, 3, name="A"),
        mh.ModelGroup(10, 5, 4, 2, name="B"),
        mh.ModelGroup(1, 5, 2, 6, character=True, name="C"),
    ],
)


def pools(count: int, dice: int) -> list[tuple[mh.Weapon, int]]:
    """``count`` distinct pools of ``dice`` attack dice each (no two alike: alike
    weapons would pool)."""
    return [
        (mh.Weapon(f"G{i}", 2, 3, 4 + i, -1 - i % 2, "D3" if i % 2 else 2), dice)
        for i in range(count)
    ]


def refused(call: object, *args: object, **kwargs: object) -> str:
    """The message of the LimitError the call raises, checked to come at once."""
    assert callable(call)
    start = time.perf_counter()
    with pytest.raises(mh.LimitError) as caught:
        call(*args, **kwargs)
    assert time.perf_counter() - start < REFUSED_WITHIN
    return str(caught.value)


# ---------------------------------------------------------------- the orders of the pools
@pytest.mark.parametrize("count", [1, 2, 3, 4, 5, 6, 7, 8])
def test_order_runs_counts_the_pool_attacks_of_a_ranking(count: int) -> None:
    """The estimate's factor is the number of pool attacks the ranking makes, over the
    pools: counted here on the ranking itself (every order up to MAX_EXHAUSTIVE pools as a
    tree, a greedy order past it)."""
    calls = 0

    def counted(request: Request) -> mh.AttackResult:
        nonlocal calls
        calls += 1
        return engine_run(request)

    small = pools(count, 1)
    assert len(mh.gather_pools(small)) == count
    rank_orders(Request(small, TARGET), "mean_killed", counted)
    want = count if count == 1 else order_runs(count, MAX_EXHAUSTIVE) * count
    assert calls == want
    if count <= MAX_EXHAUSTIVE:
        assert calls == sum(math.perm(count, k) for k in range(1, count + 1))


def test_a_ranking_of_heavy_pools_is_refused_at_once() -> None:
    message = refused(mh.rank_pool_orders, pools(6, 200), TARGET)
    assert message.startswith("estimated work of the pool orders must be at most 5e+09")
    assert "the orders of 6 pools" in message
    assert "rank fewer or smaller pools" in message
    message = refused(mh.attack, pools(6, 200), TARGET, pool_order="best")
    assert message.startswith("estimated work of the attack's decisions must be at most")
    assert "pool_order='given'" in message


def test_a_ranking_within_the_limit_runs() -> None:
    ranking = mh.rank_pool_orders(pools(4, 20), TARGET)
    assert ranking.method == "exhaustive" and len(ranking.orders) == 24
    assert request_work(Request(pools(4, 20), TARGET)) * order_runs(4, 6) < MAX_SEARCH_WORK


# ---------------------------------------------------------------- the defender's orders
def mixed(groups: int, models: int) -> mh.Unit:
    """A unit of ``groups`` groups that differ in save and wounds: every order legal."""
    made = [mh.ModelGroup(models, 4, 2 + i % 5, 1 + i, name=f"g{i}") for i in range(groups)]
    return mh.Unit("Mixed", made)


def test_the_defenders_orders_of_seven_groups_are_refused_when_heavy() -> None:
    heavy = [(mh.Weapon("Gun", 2, 3, 5, -1, 2), 20)]
    message = refused(mh.attack, heavy, mixed(7, 3), allocation="defender-best")
    assert "5,040 orders of the defender's groups" in message
    assert "allocation='given'" in message


def test_the_defenders_orders_of_a_real_unit_run() -> None:
    gun = [(mh.Weapon("Gun", 2, 3, 5, -1, 2), 5)]
    result = mh.attack(gun, mixed(4, 2), allocation="defender-best")
    assert "the defender's best of 24 legal orders" in result.choices[0]


def test_the_decisions_multiply() -> None:
    """Pool orders under the defender's orders: the product is refused where each alone
    is accepted."""
    weapons, target = pools(4, 10), mixed(6, 2)
    each = request_work(Request(weapons, target))
    assert each * order_runs(4, MAX_EXHAUSTIVE) < MAX_SEARCH_WORK  # the orders alone
    mh.rank_pool_orders(weapons, target)
    message = refused(mh.attack, weapons, target, pool_order="best", allocation="defender-best")
    assert "the orders of 4 pools, 720 orders of the defender's groups" in message


# ---------------------------------------------------------------- the splits
def test_a_split_of_thousands_of_attacks_is_refused_at_once() -> None:
    axe = mh.Weapon("Axe", attacks=2500, skill=3, strength=5, ap=-1, damage=1, melee=True)
    targets = [mh.Unit.of(f"T{i}", 10, 3 + i, 6 - i, 1 + i) for i in range(3)]
    message = refused(mh.best_splits, mh.Models(1, [axe]), "Axe", targets)
    assert "3,121,251 splits of 2500 attacks across 3 targets" in message
    assert "mathhammer.resolve" in message


def test_a_split_within_the_limit_runs() -> None:
    axe = mh.Weapon("Axe", attacks=30, skill=3, strength=5, ap=-1, damage=1, melee=True)
    targets = [mh.Unit.of(f"T{i}", 10, 3 + i, 6 - i, 1 + i) for i in range(3)]
    table = mh.best_splits(mh.Models(2, [axe]), "Axe", targets)
    assert len(table) == math.comb(29, 2)


# ---------------------------------------------------------------- the target plans
def army(declarations: int, models: int) -> tuple[mh.Attacker, list[tuple[str, str]]]:
    weapons = [
        mh.Weapon(f"W{i}", 2, 3, 4 + i % 4, -(i % 3), 1 + i % 2) for i in range(declarations)
    ]
    groups = [mh.Models(models, [w], name=f"M{i}") for i, w in enumerate(weapons)]
    return mh.Attacker("Army", groups), [(f"M{i}", f"W{i}") for i in range(declarations)]


TWO = [mh.Unit.of(f"T{t}", 10, 4 + t, 3 + t % 2, 2) for t in range(2)]


def test_every_assignment_of_many_declarations_is_refused_at_once() -> None:
    attacker, declared = army(15, 10)
    message = refused(mh.plan_targets, attacker, declared, TWO)
    assert "32,767 sets of 15 declarations at 2 targets" in message
    assert "declare fewer groups of models apart" in message


def test_a_plan_within_the_limit_runs() -> None:
    attacker, declared = army(6, 5)
    plan = mh.plan_targets(attacker, declared, TWO)
    assert plan.method == "exhaustive" and plan.scored == 2**6


def test_the_local_search_is_not_refused() -> None:
    """Past the exhaustive search the local one bounds its own work: many declarations at
    many targets still plan."""
    attacker, declared = army(8, 1)
    targets = [mh.Unit.of(f"T{t}", 5, 4, 4, 1) for t in range(5)]  # 5 ** 8 = 390,625 plans
    plan = mh.plan_targets(attacker, declared, targets)
    assert plan.method.startswith("local search")


# ---------------------------------------------------------------- the check itself
def test_the_refusal_names_its_figures() -> None:
    check_search("x", MAX_SEARCH_WORK, "sizes", "hint")  # the limit itself is accepted
    with pytest.raises(mh.LimitError, match=r"got 1e\+10 \(sizes; hint\)"):
        check_search("x", 2 * MAX_SEARCH_WORK, "sizes", "hint")


def test_a_request_without_a_target_costs_nothing() -> None:
    request = Request(pools(1, 1), None)
    assert request_work(request) == 0.0
    assert request_work(replace(request, target=TARGET)) > 0.0


# ---------------------------------------------------------------- sweeps
def test_a_sweep_with_one_row_the_engine_refuses_stops_before_its_first_task() -> None:
    """The refusal names the row, and comes before any task (however many rows come
    first: here 300 alike loadouts, planned once)."""
    gun = mh.Weapon("Gun", 1, 3, 4, 0, 1)
    fine = [mh.Loadout(f"Squad {i}", [(gun, 10)]) for i in range(300)]
    huge = mh.Loadout("Horde of guns", [(gun, 6000)])
    contexts = {"open": mh.Context(), "close": mh.Context(half_range=True)}
    message = refused(mh.sweep, [*fine, huge], ["Vehicle", "Elite infantry"], contexts=contexts)
    assert message.startswith("sweep row 'Horde of guns' against 'Vehicle' (open): attack dice")
    assert "use mathhammer.simulate" in message


def test_a_sweep_whose_unit_option_is_refused_names_the_unit() -> None:
    gun = mh.Weapon("Gun", 1, 3, 4, 0, 1, "[LETHAL HITS], [DEVASTATING WOUNDS]")
    options = mh.AttackOptions("Unit", [[(gun, 1)], [(gun, 2000)]], "shooting")
    message = refused(mh.sweep, [options], ["Horde infantry"])
    assert message.startswith("sweep row 'Unit' (option '2000x Gun') against 'Horde infantry'")
    assert "estimated work of pool" in message
