"""``plan`` on a real list against a whole faction (issue: it ran for ever): identical weapon
lines declared together, the local search bounded up front to the targets each declaration
does best at, its progress reported, and the baseline the best single target."""

from __future__ import annotations

import mathhammer as mh
from mathhammer.units.targeting import CANDIDATES, FEW_TARGETS


def faction(count: int) -> list[mh.Target]:
    """Targets of every size and toughness, with points."""
    out = []
    for k in range(count):
        unit = mh.Unit.of(f"Unit {k}", 1 + k % 10, 3 + k % 8, 2 + k % 5, 1 + k % 4)
        out.append(mh.Target(unit, points=40 + 5 * k))
    return out


def roster_like() -> list[mh.Loadout]:
    """Units whose models are each their own line, as a roster stores them."""
    rifle = mh.Weapon("Rifle", 2, 3, 4, 0, 1)
    cannon = mh.Weapon("Cannon", "D6", 4, 9, -2, 3)
    melta = mh.Weapon("Melta", 1, 3, 9, -4, "D6", "[MELTA 2]")
    return [
        mh.Loadout("Troopers", [(rifle, 1)] * 9 + [(melta, 1)], points=100),
        mh.Loadout("Gunners", [(cannon, 1)] * 3, points=120),
        mh.Loadout("Veterans", [(rifle, 1)] * 4 + [(melta, 1)] * 2, points=110),
    ]


def test_a_list_against_a_faction_is_searched_among_few_targets() -> None:
    targets = faction(40)
    steps: list[tuple[int, int]] = []
    plan = mh.plan_army(roster_like(), targets, metric="points",
                        progress=lambda done, total: steps.append((done, total)))  # fmt: skip
    # identical lines are one declaration: rifle and melta, cannon, rifle and melta
    assert len(plan.declarations) == 5
    assert " of 40 targets" in plan.method and plan.method.startswith("local search")
    used = int(plan.method.split(" over ")[1].split(" of ")[0])
    assert used <= CANDIDATES * (len(plan.declarations) + 1) < len(targets)
    assert steps[-1] == (used + 1, used + 1) and [d for d, _ in steps] == list(range(1, used + 2))
    assert plan.value >= plan.naive
    # the baseline is the best plan that sends everything at one target
    singles = [
        mh.plan_army(roster_like(), [t], metric="points").value for t in targets
    ]  # one target: every declaration at it
    assert plan.naive == max(singles) and plan.baseline == targets[singles.index(max(singles))].name


def test_few_targets_are_all_searched() -> None:
    plan = mh.plan_army(roster_like(), faction(FEW_TARGETS), metric="killed")
    assert " of " not in plan.method
