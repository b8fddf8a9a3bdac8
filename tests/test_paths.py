"""Every path of the exact engine computes the same numbers as the reference path.

The engine chooses between paths in one place (:data:`mathhammer.exact.engine.PATHS`,
chosen by :func:`mathhammer.exact.engine.run`): the closed form of a one-group target's
line of states, and the allocation chain on the target's layout, which takes every plan
and is the reference. Each path is forced (``run(plan, path=...)``) on every scenario of
the registry it takes, and its distributions compared with the reference's. Within a
path, a transition is stored dense or sparse and applied by bands or by products
(:data:`mathhammer.exact.methods.TRANSITIONS`), each forced on every scenario in turn and
compared with the choice the sizes make. The powers of a line's transition have their own
paths (:data:`mathhammer.exact.powers.POWERS`), checked against plain products in
``tests/test_plain_stages.py``.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from scenarios import SCENARIOS, Scenario, scenario_ids

import mathhammer as mh
from mathhammer.exact import engine, methods, transition
from mathhammer.exact.on_line import run_line
from mathhammer.rules import plan_attack

#: Paths compute in a different order: the same numbers within rounding.
ATOL = 1e-12


def _plan(scenario: Scenario) -> mh.rules.AttackPlan:
    return plan_attack(
        scenario.weapons, scenario.target, rules=scenario.rules,
        context=scenario.context, modifiers=scenario.modifiers,
    )  # fmt: skip


def _distributions(result: mh.AttackResult) -> list[np.ndarray]:
    out = [result.killed.probabilities, result.damage.probabilities]
    out += [g.killed.probabilities for g in result.groups]
    for pool in result.pools:
        out += [pool.killed.probabilities, pool.unsaved.probabilities]
    return out


def _assert_same(got: mh.AttackResult, want: mh.AttackResult) -> None:
    for a, b in zip(_distributions(got), _distributions(want), strict=True):
        size = max(a.size, b.size)
        np.testing.assert_allclose(
            np.pad(a, (0, size - a.size)), np.pad(b, (0, size - b.size)), rtol=0, atol=ATOL
        )


@pytest.mark.parametrize("path", sorted(set(engine.PATHS) - {"layout"}))
@pytest.mark.parametrize("name", scenario_ids())
def test_every_path_equals_the_layout(name: str, path: str) -> None:
    plan = _plan(SCENARIOS[name])
    if engine.PATHS[path](plan, None) is None:
        with pytest.raises(ValueError, match="does not take this plan"):
            engine.run(plan, path=path)
        return
    _assert_same(engine.run(plan, path=path), engine.run(plan, path="layout"))


@pytest.mark.parametrize("kind", methods.TRANSITIONS)
@pytest.mark.parametrize("name", scenario_ids())
def test_every_transition_kind_equals_the_sizes_choice(name: str, kind: str) -> None:
    plan = _plan(SCENARIOS[name])
    chosen = engine.run(plan)
    with methods.forcing(kind):
        forced = engine.run(plan)
    _assert_same(forced, chosen)


@pytest.mark.parametrize("kind", methods.TRANSITIONS)
def test_forcing_a_kind_makes_every_transition_that_kind(
    kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the check above is not vacuous: under each kind, the transitions built are that kind
    made: list[transition.Transition] = []
    original = transition.Transition.__init__

    def recorded(self: transition.Transition, matrix: object) -> None:
        original(self, matrix)
        made.append(self)

    monkeypatch.setattr(transition.Transition, "__init__", recorded)
    weapon = mh.Weapon("Gun", 3, 3, 4, -1, "D3")
    unit = mh.Unit("Two", [mh.ModelGroup(10, 4, 3, 1), mh.ModelGroup(3, 4, 3, 3)])
    with methods.forcing(kind):
        mh.attack([(weapon, 10)], unit)
    assert made
    if kind == "dense":
        assert all(t.dense and t.bands is None for t in made)
    elif kind == "sparse":
        assert all(not t.dense and t.bands is None for t in made)
    else:
        assert any(t.bands is not None for t in made)
        assert all(t.forced_bands for t in made)
    with pytest.raises(ValueError, match="kind must be one of dense, sparse, banded"):
        methods.forcing("blocked").__enter__()


def test_the_line_takes_the_one_group_scenarios() -> None:
    # the dispatch is not vacuous: the closed form takes most one-group scenarios, and no
    # target of several groups
    taken = [s for s in SCENARIOS.values() if run_line(_plan(s)) is not None]
    one_group = [s for s in SCENARIOS.values() if not s.mixed]
    assert all(not s.mixed for s in taken)
    assert len(taken) >= len(one_group) // 2


def test_run_takes_the_line_where_it_applies() -> None:
    plan = plan_attack([(mh.Weapon("Gun", 2, 3, 4, 0, 1), 5)], mh.Unit.of("U", 5, 4, 3, 2))
    state = engine.run(plan).state
    assert state is not None and state.positions.shape[1] == 1  # the line's states
    with pytest.raises(KeyError):
        engine.run(plan, path="nowhere")


def test_the_path_table_names_tests_that_exist() -> None:
    # docs/architecture.md §3.1: every "file.py::test_name" it cites is a test of that file
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    table = (root / "docs" / "architecture.md").read_text().split('<a id="paths"></a>')[1]
    cited = re.findall(r"`(test_\w+\.py)::(test_\w+)`", table.split("\n## ")[0])
    assert len(cited) >= 6
    for file, name in cited:
        assert f"def {name}(" in (root / "tests" / file).read_text(), (file, name)
