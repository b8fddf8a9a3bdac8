"""What the layout's engine keeps by value between attacks: the faces each group saves,
and the cost estimates of the hit and wound steps and of the save chain. Each is the
value computed afresh, found again for equal inputs, and emptied by ``clear_caches``."""

from __future__ import annotations

import numpy as np

import mathhammer as mh
from mathhammer.exact import budget, cost
from mathhammer.exact.steps import hit_kernel, wound_kernel
from mathhammer.rules.base import FACE_ARRAY
from mathhammer.rules.plan import PlannedPool, plan_attack

LED = mh.targets.get("Character-led unit").unit


def _step(weapon: mh.Weapon) -> PlannedPool:
    step = plan_attack([(weapon, 3)], LED).steps[0]
    assert isinstance(step, PlannedPool)
    return step


def test_the_saved_faces_are_kept_read_only_and_equal_to_those_made_afresh() -> None:
    mh.clear_caches()
    checks = _step(mh.Weapon("Gun", 1, 3, 4, -2, 1)).checks
    first = budget.saved_faces(checks, LED)
    fresh = np.array([checks.saves(FACE_ARRAY, g) for g in LED.groups], dtype=bool)
    assert first.tolist() == fresh.tolist() and not first.flags.writeable
    other = _step(mh.Weapon("Rifle", 2, 4, 5, -2, 2)).checks  # the same AP: the same saves
    assert budget.saved_faces(other, LED) is first
    mh.clear_caches()
    assert budget.saved_faces(checks, LED) is not first


def test_a_stage_estimate_is_found_by_the_kernels_values() -> None:
    mh.clear_caches()
    step = _step(mh.Weapon("Gun", 2, 3, 4, 0, 1, "[SUSTAINED HITS 1], [LETHAL HITS]"))
    hk, wk = hit_kernel(step.checks), wound_kernel(step.checks)
    first = budget.stage_cost(step, hk, wk)
    assert budget.stage_cost(step, hk.copy(), wk.copy()) is first  # equal values, kept
    budget._stage_cost.cache_clear()
    again = budget.stage_cost(step, hk, wk)
    assert again == first and again is not first
    # another number of dice is estimated anew, and costs more
    more = budget.stage_cost(
        _step(mh.Weapon("Gun", 20, 3, 4, 0, 1, "[SUSTAINED HITS 1], [LETHAL HITS]")), hk, wk
    )
    assert more[0].work > first[0].work


def test_a_chain_estimate_is_the_same_for_a_list_or_a_tuple_of_blocks() -> None:
    a = cost.chain_cost(100, 2, 50, 10.0, [True, False, True], 5.0)
    assert cost.chain_cost(100, 2, 50, 10.0, (True, False, True), 5.0) is a
    assert cost.chain_cost(100, 2, 50, 10.0, [True, True, True], 5.0).work > a.work
