"""Who shoots what (``mh.plan_targets``): the assignment of a unit's declarations to targets.

The plan is checked against every assignment scored independently through ``mh.resolve``
(the declarations as ``Use`` at their targets), for each metric; the local search against
the exhaustive optimum; the plan's exact metric against its Monte Carlo; and the bad
inputs against their messages.
"""

from __future__ import annotations

import csv
import itertools
import math
from collections.abc import Callable
from pathlib import Path

import pytest
from statcheck import seed_for

import mathhammer as mh
from mathhammer.cli import main
from mathhammer.cli.plan import units_of
from mathhammer.units import targeting
from mathhammer.units.selection import per_target

RIFLE = mh.Weapon("Rifle", 2, 3, 4, 0, 1)
PLASMA = mh.Weapon("Plasma", 2, 3, 8, -3, 2)
LASCANNON = mh.Weapon("Lascannon", 1, 3, 12, -3, "D6+1")
SQUAD = mh.Attacker(
    "Squad",
    [
        mh.Models(6, [RIFLE], name="Troopers"),
        mh.Models(2, [PLASMA], name="Gunners"),
        mh.Models(1, [LASCANNON], name="Heavy"),
    ],
)
DECLARED = [("Troopers", "Rifle"), ("Gunners", "Plasma"), ("Heavy", "Lascannon")]
TARGETS = [
    mh.targets.get("Horde infantry"),
    mh.targets.get("Elite infantry"),
    mh.Target(mh.Unit.of("Walker", 1, 9, 3, 8, keywords="VEHICLE"), points=140),
]


def by_resolve(assignment: tuple[int, ...]) -> dict[str, mh.AttackResult]:
    uses = [
        mh.Use(m, w, target=TARGETS[t].unit) for (m, w), t in zip(DECLARED, assignment, strict=True)
    ]
    return dict(mh.resolve(SQUAD, uses).results)


def at_least(results: dict[str, mh.AttackResult], k: int) -> float:
    """P(at least k destroyed), every outcome of the independent targets enumerated."""
    ps = [r.p_destroyed for r in results.values()]
    total = 0.0
    for outcome in itertools.product((0, 1), repeat=len(ps)):
        if sum(outcome) >= k:
            p = 1.0
            for hit, q in zip(outcome, ps, strict=True):
                p *= q if hit else 1 - q
            total += p
    return total


METRICS: dict[str, Callable[[dict[str, mh.AttackResult]], float]] = {
    "killed": lambda rs: sum(r.killed.mean() for r in rs.values()),
    "points": lambda rs: sum(
        float(next(t for t in TARGETS if t.name == n).points_destroyed(r) or 0.0)
        for n, r in rs.items()
    ),
    "destroyed:Elite infantry": lambda rs: (
        rs["Elite infantry"].p_destroyed if "Elite infantry" in rs else 0.0
    ),
    "at_least:1": lambda rs: at_least(rs, 1),
}


@pytest.mark.parametrize("metric", list(METRICS))
def test_the_plan_is_the_best_of_every_assignment_scored_through_resolve(metric: str) -> None:
    plan = mh.plan_targets(SQUAD, DECLARED, TARGETS, metric=metric)
    assert plan.method == "exhaustive" and plan.scored == 3**3
    scores = {a: METRICS[metric](by_resolve(a)) for a in itertools.product(range(3), repeat=3)}
    best = max(scores.values())
    assert plan.value == pytest.approx(best, abs=1e-12)
    assert scores[plan.assignment] == pytest.approx(best, abs=1e-12)
    # the first best in the order scored (ties go to earlier targets)
    first = next(a for a in itertools.product(range(3), repeat=3) if scores[a] >= best - 1e-12)
    assert plan.assignment == first
    # the baseline: the best plan that sends everything at one target (the first of equals)
    singles = [scores[(t, t, t)] for t in range(3)]
    assert plan.naive == pytest.approx(max(singles), abs=1e-12)
    assert plan.naive_target == singles.index(max(singles))
    assert plan.baseline == plan.targets[plan.naive_target].name
    assert plan.value >= plan.naive


def test_the_plan_reads_as_a_table_and_repeats() -> None:
    plan = mh.plan_targets(SQUAD, DECLARED, TARGETS, metric="points")
    frame = plan.frame()
    assert list(frame.columns) == ["unit", "models", "weapon", "target"]
    assert frame["weapon"].tolist() == ["Rifle", "Plasma", "Lascannon"]
    assert set(frame["target"]) <= {t.name for t in TARGETS}
    assert mh.plan_targets(SQUAD, DECLARED, TARGETS, metric="points").assignment == plan.assignment
    assert "exhaustive, 27 plans scored" in repr(plan)
    page = plan._repr_html_()
    assert "plans scored" in page and all(name in page for name in plan.results)
    assert page.count("<svg") == len(plan.results)  # a chart of each target's outcome
    assert set(plan.results) == {TARGETS[t].name for t in set(plan.assignment)}


@pytest.mark.parametrize("metric", ["killed", "points", "destroyed:Walker"])
def test_the_monte_carlo_of_the_plan_agrees_with_its_exact_metric(metric: str) -> None:
    # each target's attack rolled with real dice (the targets are independent given the
    # plan): the rolled metric within 5 standard errors of the plan's exact value, the
    # variance from the exact distributions (each target here is one group, so its points
    # destroyed are its model's points times the models destroyed)
    plan = mh.plan_targets(SQUAD, DECLARED, TARGETS, metric=metric)
    trials = 40_000
    uses = [
        mh.Use(m, w, target=TARGETS[t].unit)
        for (m, w), t in zip(DECLARED, plan.assignment, strict=True)
    ]
    rolled, variance = 0.0, 0.0
    for i, (name, (target, weapons)) in enumerate(per_target(SQUAD, uses, "shooting").items()):
        sim = mh.simulate(weapons, target, trials=trials, rng=seed_for("plan", metric, i))
        exact = plan.results[name]
        if metric == "destroyed:Walker":
            rolled, variance = sim.p_destroyed, exact.p_destroyed * (1 - exact.p_destroyed)
            continue
        model_points = next(t for t in TARGETS if t.name == name).model_points
        assert model_points is not None and len(model_points) == 1
        scale = 1.0 if metric == "killed" else model_points[0]
        rolled += scale * sim.killed.mean()
        variance += (scale * exact.killed.std()) ** 2
    assert len(plan.results) == (2 if metric == "points" else 1)
    assert variance > 0  # the metric varies: the check can fail
    assert abs(rolled - plan.value) <= 5 * math.sqrt(variance / trials)


def test_the_greedy_search_keeps_exact_values(monkeypatch: pytest.MonkeyPatch) -> None:
    exhaustive = mh.plan_targets(SQUAD, DECLARED, TARGETS, metric="points")
    monkeypatch.setattr(targeting, "MAX_EXHAUSTIVE", 1)
    greedy = mh.plan_targets(SQUAD, DECLARED, TARGETS, metric="points")
    assert greedy.method == "local search from each target"
    assert greedy.value <= exhaustive.value + 1e-12
    assert greedy.value == pytest.approx(
        METRICS["points"](by_resolve(greedy.assignment)), abs=1e-12
    )
    assert greedy.value >= greedy.naive


def test_bad_input() -> None:
    with pytest.raises(mh.OptionError, match="declarations must be at least one"):
        mh.plan_targets(SQUAD, [], TARGETS)
    with pytest.raises(mh.OptionError, match="targets must be at least one"):
        mh.plan_targets(SQUAD, DECLARED, [])
    with pytest.raises(mh.OptionError, match="targets must be units with distinct names"):
        mh.plan_targets(SQUAD, DECLARED, [TARGETS[0], TARGETS[0]])
    with pytest.raises(mh.OptionError, match="metric 'points_destroyed' must be targets with"):
        mh.plan_targets(SQUAD, DECLARED, [mh.Unit.of("Bare", 5, 4, 3, 1)], metric="points")
    with pytest.raises(mh.OptionError, match="metric must be a target of"):
        mh.plan_targets(SQUAD, DECLARED, TARGETS, metric="destroyed:Nobody")
    with pytest.raises(mh.OptionError, match="at_least:<k> with k >= 1 or 'all'"):
        mh.plan_targets(SQUAD, DECLARED, TARGETS, metric="at_least:0")
    with pytest.raises(mh.OptionError, match="metric must be one of .*'mean_killed'"):
        mh.plan_targets(SQUAD, DECLARED, TARGETS, metric="best")
    with pytest.raises(mh.OptionError, match="at_least:k with k from 1 to 3"):
        mh.plan_targets(SQUAD, DECLARED, TARGETS, metric="at_least:4")
    with pytest.raises(mh.ProfileError, match="weapon of 'Troopers' must be one of"):
        mh.plan_targets(SQUAD, [("Troopers", "Plasma")], TARGETS)


# ------------------------------------------------------------------------ an army
HEAVY = mh.Attacker("Heavy", [mh.Models(3, [mh.Weapon("Heavy gun", 3, 4, 6, -1, 2)])])
ARMY = [
    (SQUAD, DECLARED[:2]),
    (HEAVY, [(0, "Heavy gun")], mh.Context(remained_stationary=True)),
]


def by_resolve_sequence(assignment: tuple[int, ...]) -> dict[str, mh.AttackResult]:
    rows = [(SQUAD, m, w) for m, w in DECLARED[:2]] + [(HEAVY, 0, "Heavy gun")]
    steps = []
    for unit, context in ((SQUAD, None), (HEAVY, mh.Context(remained_stationary=True))):
        uses = [
            mh.Use(m, w, target=TARGETS[t].unit)
            for (u, m, w), t in zip(rows, assignment, strict=True)
            if u is unit
        ]
        steps.append({"attacker": unit, "uses": uses, "context": context or mh.Context()})
    return dict(mh.resolve_sequence(steps).results)


@pytest.mark.parametrize("metric", ["killed", "points", "at_least:1"])
def test_an_army_plan_is_the_best_of_every_assignment_in_sequence(metric: str) -> None:
    plan = mh.plan_army(ARMY, TARGETS, metric=metric)
    assert plan.method == "exhaustive" and plan.scored == 27
    scores = {
        a: METRICS[metric](by_resolve_sequence(a)) for a in itertools.product(range(3), repeat=3)
    }
    best = max(scores.values())
    assert plan.value == pytest.approx(best, abs=1e-12)
    assert scores[plan.assignment] == pytest.approx(best, abs=1e-12)
    assert list(plan.frame()["unit"]) == ["Squad", "Squad", "Heavy"]


def test_an_army_plan_carries_each_targets_state_from_unit_to_unit() -> None:
    # everything at the elite infantry: the heavy guns carry on from the squad's damage
    everything = (1, 1, 1)
    results = by_resolve_sequence(everything)
    plan_value = mh.plan_army(ARMY, [TARGETS[1]], metric="killed").value
    assert plan_value == pytest.approx(results["Elite infantry"].killed.mean(), abs=1e-12)
    alone = mh.attack([(HEAVY.models[0].weapons[0], 3)], TARGETS[1].unit).killed.mean()
    assert plan_value > alone


@pytest.mark.parametrize("metric", ["killed", "points", "at_least:1"])
def test_a_given_army_plan_is_scored_as_resolve_sequence_scores_it(metric: str) -> None:
    best = mh.plan_army(ARMY, TARGETS, metric=metric)
    for assignment in [(0, 2, 1), (2, 2, 2), best.assignment]:
        given = mh.plan_army(ARMY, TARGETS, metric=metric, assignment=assignment)
        want = METRICS[metric](by_resolve_sequence(assignment))
        assert given.value == pytest.approx(want, abs=1e-12)
        assert (given.method, given.assignment, given.naive) == ("given", assignment, best.naive)
        assert given.value <= best.value + 1e-12


def test_army_bad_input() -> None:
    for wrong in ([0, 1], [0, 1, 3], [0, 1, -1], [0, True, 1]):
        with pytest.raises(mh.OptionError, match="assignment must be 3 target positions"):
            mh.plan_army(ARMY, TARGETS, assignment=wrong)
    with pytest.raises(mh.OptionError, match="units must be at least one"):
        mh.plan_army([], TARGETS)
    with pytest.raises(mh.OptionError, match=r"units\[0\] must be \(Attacker, declarations\)"):
        mh.plan_army([SQUAD], TARGETS)  # type: ignore[list-item]
    with pytest.raises(mh.OptionError, match=r"units\[1\] must be an Attacker with at least one"):
        mh.plan_army([(SQUAD, DECLARED), (HEAVY, [])], TARGETS)


# ------------------------------------------------------------------- the command line
def test_the_plan_command_prints_and_writes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    army = tmp_path / "army.csv"
    army.write_text(
        "unit,weapon,count,A,BS/WS,S,AP,D,abilities\n"
        "Squad,Rifle,6,2,3+,4,0,1,\n"
        "Squad,Plasma,2,2,3+,8,-3,2,\n"
        "Heavy,Lascannon,1,1,3+,12,-3,D6+1,\n"
    )
    threats = tmp_path / "threats.csv"
    threats.write_text("unit,models,T,Sv,W,points\nGuard,10,3,5+,1,60\nTank,1,10,3+,12,150\n")
    out = tmp_path / "plan.csv"
    argv = ["plan", str(army), "--targets", str(threats), "--metric", "points", "-o", str(out)]
    assert main(argv) == 0
    printed = capsys.readouterr().out
    assert "points_destroyed:" in printed and "exhaustive, 8 plans scored" in printed
    rows = list(csv.DictReader(out.open()))
    assert [r["weapon"] for r in rows] == ["Rifle", "Plasma", "Lascannon"]
    # the same plan through the library
    loadouts = mh.read_attackers(army)
    units = units_of(loadouts, "shooting")
    plan = mh.plan_army(units, mh.read_targets(threats), metric="points")
    assert [r["target"] for r in rows] == plan.frame()["target"].tolist()
    assert f"{plan.value:.4g} for this plan" in printed
    assert main(["plan", str(army), "--targets", str(threats), "--metric", "nonsense"]) == 1
    assert "metric must be one of ['mean_killed'" in capsys.readouterr().err
