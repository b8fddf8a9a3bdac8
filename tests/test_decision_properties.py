"""Properties of the decisions over random small armies and units (hypothesis): the plan
found by the search is the best of every assignment scored independently through
``resolve_sequence``; the best pool order is the best of every order attacked from scratch;
the defender's order is the best of every legal order."""

from __future__ import annotations

import itertools

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mathhammer as mh
from mathhammer.decisions.defender import legal_orders, reordered

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

weapons = st.builds(
    mh.Weapon,
    name=st.sampled_from(["A", "B", "C", "D"]),
    attacks=st.integers(1, 3),
    skill=st.integers(2, 5),
    strength=st.integers(3, 9),
    ap=st.integers(-3, 0),
    damage=st.sampled_from([1, 2, 3, "D3"]),
)
groups = st.builds(
    mh.ModelGroup,
    count=st.integers(1, 4),
    toughness=st.integers(3, 6),
    save=st.integers(2, 6),
    wounds=st.integers(1, 3),
)


@st.composite
def units(draw: st.DrawFn) -> mh.Unit:
    found: list[mh.ModelGroup] = []
    for g in draw(st.lists(groups, min_size=1, max_size=3)):
        if all((g.wounds, g.save, g.invuln) != (h.wounds, h.save, h.invuln) for h in found):
            found.append(g)
    name = draw(st.sampled_from(["X", "Y", "Z"]))
    return mh.Unit(name, found)


@st.composite
def armies(draw: st.DrawFn) -> list[tuple[mh.Attacker, list[tuple[str, str]]]]:
    out = []
    for u in range(draw(st.integers(1, 2))):
        guns = draw(st.lists(weapons, min_size=1, max_size=2, unique_by=lambda w: w.name))
        models = [mh.Models(draw(st.integers(1, 4)), [g], name=g.name) for g in guns]
        out.append((mh.Attacker(f"Unit {u}", models), [(g.name, g.name) for g in guns]))
    return out


@SETTINGS
@given(armies(), st.lists(units(), min_size=1, max_size=3, unique_by=lambda u: u.name))
def test_the_plan_is_the_best_assignment(army, targets) -> None:  # type: ignore[no-untyped-def]
    plan = mh.plan_army(army, targets, metric="killed")
    rows = [(u, m, w) for u, (_, declared) in enumerate(army) for m, w in declared]
    best = -1.0
    for assignment in itertools.product(range(len(targets)), repeat=len(rows)):
        steps = []
        for u, (attacker, _) in enumerate(army):
            uses = [
                mh.Use(m, w, target=targets[t])
                for (v, m, w), t in zip(rows, assignment, strict=True)
                if v == u
            ]
            steps.append((attacker, uses))
        results = mh.resolve_sequence(steps).results
        best = max(best, sum(r.killed.mean() for r in results.values()))
    assert abs(plan.value - best) <= 1e-9
    assert plan.value >= plan.naive - 1e-12


@SETTINGS
@given(st.lists(weapons, min_size=2, max_size=4, unique_by=lambda w: w.name), units())
def test_the_best_pool_order_is_the_best_of_every_order(guns, target) -> None:  # type: ignore[no-untyped-def]
    entries = [(g, 2) for g in guns]
    ranking = mh.rank_pool_orders(entries, target)
    pools = ranking.pools
    best = max(
        mh.attack([e for i in order for e in pools[i].weapons], target).killed.mean()
        for order in itertools.permutations(range(len(pools)))
    )
    assert abs(ranking.scores[0][0] - best) <= 1e-9


@SETTINGS
@given(st.lists(weapons, min_size=1, max_size=2, unique_by=lambda w: w.name), units())
def test_the_defenders_order_is_the_best_legal_order(guns, target) -> None:  # type: ignore[no-untyped-def]
    entries = [(g, 3) for g in guns]
    chosen = mh.attack(entries, target, allocation="defender-best")
    least = min(
        mh.attack(entries, reordered(target, order)).killed.mean() for order in legal_orders(target)
    )
    assert abs(chosen.killed.mean() - least) <= 1e-9
