"""The target as it stands: the facts of many states read at once (``rules.standing.States``)
against a :class:`~mathhammer.model.standing.Standing` read one state at a time, what a
pool's checks note they read, and the declarations that gather a start's states
(docs/rules.md D34).

The property that matters most: the states gathered under one plan are those whose own
declarations would give that plan; a plan is never shared by states that read differently.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mathhammer as mh
from mathhammer.model.standing import Standing
from mathhammer.rules import get_ruleset, plan_attack
from mathhammer.rules.standing import States, declarations, distinct

RULES = get_ruleset("11e")
LED = mh.Unit(
    "Led",
    [
        mh.ModelGroup(3, toughness=4, save=3, wounds=2, name="Guard"),
        mh.ModelGroup(2, toughness=3, save=5, wounds=1, name="Light"),
        mh.ModelGroup(1, toughness=5, save=2, wounds=4, character=True, name="Boss"),
        mh.ModelGroup(1, toughness=4, save=3, wounds=3, character=True, name="Herald"),
    ],
)


def every_state(unit: mh.Unit) -> np.ndarray:
    """Every combination of each group's wounds lost."""
    ranges = [range(g.total_wounds + 1) for g in unit.groups]
    return np.array(list(itertools.product(*ranges)), dtype=np.int64)


def test_the_facts_of_all_states_at_once_are_each_standings_own() -> None:
    positions = every_state(LED)
    states = States(LED, RULES, positions)
    standings = states.standings(np.arange(len(positions)))
    labels = states.fact("characters")
    by_set: dict[tuple[int, ...], int] = {}
    for row, standing in enumerate(standings):
        lost = positions[row]
        for g, group in enumerate(LED.groups):  # the models standing, counted by hand
            assert standing.alive[g] == group.count - min(lost[g] // group.wounds, group.count)
        assert states.fact("models")[row] == standing.models
        assert states.fact("killed")[row] == LED.models - standing.models
        assert states.fact("toughness")[row] == standing.toughness
        assert states.fact("current")[row] == standing.current
        # one label per set of CHARACTERs standing, 0 when all stand (as given)
        assert by_set.setdefault(standing.characters, int(labels[row])) == labels[row]
        assert (labels[row] == 0) == (standing.characters == (2, 3))
    assert len(set(by_set.values())) == len(by_set) == 4
    with pytest.raises(ValueError, match="no fact 'size'"):
        states.fact("size")


def test_toughness_is_the_bodyguards_then_the_characters() -> None:
    standing = Standing(LED, (0, 1, 1, 1), 1)
    assert standing.toughness == 3  # the Light models still stand
    assert Standing(LED, (3, 0, 1, 1), 0).toughness == 4
    assert Standing(LED, (0, 0, 1, 1), 2).toughness == 5  # the bodyguard gone
    assert Standing(LED, (0, 0, 0, 1), 3).toughness == 4
    assert Standing(LED, (0, 0, 0, 0), -1).toughness == LED.toughness  # nothing to wound


def test_the_distinct_rows_are_the_same_either_way() -> None:
    rng = np.random.default_rng(3)
    columns = [rng.integers(-1, 9, size=200) for _ in range(3)]
    coded, compared = distinct(columns), distinct(columns, most=1)
    for a, b in zip(coded, compared, strict=True):
        assert a.tolist() == b.tolist()
    rows = np.column_stack(columns)
    first, inverse = coded
    assert (rows[first][inverse] == rows).all()
    assert len(first) == len({tuple(r) for r in rows.tolist()})


@pytest.mark.parametrize(
    ("abilities", "modifiers", "read"),
    [
        ("", None, {"toughness"}),
        ("[BLAST]", None, {"toughness", "models"}),
        ("[PRECISION]", None, {"toughness", "characters"}),
        ("", mh.Modifiers(reroll_one="wound"), {"toughness", "current"}),
    ],
)
def test_a_pools_checks_say_what_they_read(
    abilities: str, modifiers: mh.Modifiers | None, read: set[str]
) -> None:
    gun = mh.Weapon("Gun", 2, 3, 4, 0, 1, abilities)
    plan = plan_attack([(gun, 1)], LED, modifiers=modifiers)
    assert plan.reads == read


def test_the_classic_panic_test_reads_the_models_destroyed_before() -> None:
    gun = mh.Weapon("Lasgun", 1, bs=3, strength=3)
    troops = mh.Unit.of("Troops", 10, 3, 5, 1, leadership=7)
    assert plan_attack([(gun, 1)], troops, rules="classic").reads == {"toughness", "killed"}


@st.composite
def attacks(draw: Any) -> tuple[mh.Unit, Any, mh.Modifiers | None]:
    """A weapon of some abilities against the led unit, maybe with a command re-roll."""
    abilities = draw(
        st.lists(
            st.sampled_from(["[BLAST]", "[PRECISION]", "[DEVASTATING WOUNDS]", "[LETHAL HITS]"]),
            unique=True,
        )
    )
    strength = draw(st.integers(3, 6))
    gun = mh.Weapon("Gun", 2, 3, strength, -1, 1, ", ".join(abilities))
    modifiers = draw(st.sampled_from([None, mh.Modifiers(reroll_one="wound")]))
    return LED, [(gun, draw(st.integers(1, 3)))], modifiers


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(attacks(), st.integers(0, 2**32 - 1))
def test_states_share_a_plan_only_when_each_would_declare_it(case: Any, seed: int) -> None:
    unit, weapons, modifiers = case
    positions = every_state(unit)
    rng = np.random.default_rng(seed)
    positions = positions[rng.choice(len(positions), size=40, replace=False)]
    plan = plan_attack(weapons, unit, modifiers=modifiers)
    rows, plans = declarations(plan, positions)
    own = States(unit, RULES, positions).standings(np.arange(len(positions)))
    for row, standing in enumerate(own):
        assert plans[rows[row]].declaration() == plan.declared(standing).declaration()
    # and plans that differ are not merged
    keys = [p.declaration() for p in plans]
    assert len(keys) == len(set(keys))
