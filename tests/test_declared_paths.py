"""Every path that carries the target's state on declares each attack against the target as
it stands (docs/rules.md D11, D34): ``mh.sequence``, ``mh.resolve_sequence``,
``mh.plan_army``, ``mh.durability`` with a suite of one's own and ``mh.simulate(start=)``.

Each is checked against the brute-force oracle carried from attack to attack
(``oracle_attack(..., start=states)``, which resolves each start state on its own), and
each case is one where reading the unit as first given (``as_given=True``) gives another
answer, so that a path that forgot the standing fails here. The Monte Carlo is checked
against the exact engine with the tolerances of docs/architecture.md §4.5. Properties
(hypothesis): an attack from a state with k models standing is the attack on a fresh unit
of those k models with the same wounds, and an attack from several states is the mixture
of the attacks from each.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from oracle import OracleResult, assert_pmf, oracle_attack
from statcheck import assert_matches, seed_for

import mathhammer as mh
from mathhammer.units.durability import StandardAttacker

FRAG = mh.Weapon("Frag", 1, 2, 6, 0, 1, "[BLAST]")
BOLT = mh.Weapon("Bolt", 1, 3, 4, 0, 1)
AXE = mh.Weapon("Axe", 1, 2, 6, 0, 1, "[CLEAVE 1]", melee=True)
SEVEN = mh.Unit.of("Seven", 7, 3, 7, 1)  # T3, no save, W1: a Frag wounds on 2+


def chain(steps: Sequence[list[Any]], unit: mh.Unit, as_given: bool = False) -> list[OracleResult]:
    """The oracle's results of ``steps`` attacking ``unit`` one after another."""
    results: list[OracleResult] = []
    states = None
    for weapons in steps:
        made = oracle_attack(weapons, unit, start=states, as_given=as_given)
        results.append(made)
        states = made.states
    return results


def mean(pmf: dict[int, Fraction]) -> Fraction:
    return sum((k * p for k, p in pmf.items()), Fraction(0))


def assert_same_result(got: mh.AttackResult, want: OracleResult, what: str) -> None:
    assert_pmf(got.killed.probabilities, want.killed, f"{what}: killed")
    assert_pmf(got.damage.probabilities, want.damage, f"{what}: damage")
    for pool, expected in zip(got.pools, want.pools, strict=True):
        assert_pmf(pool.attacks.probabilities, expected.attacks, f"{what}: {pool.label} attacks")
        assert_pmf(pool.unsaved.probabilities, expected.unsaved, f"{what}: {pool.label} unsaved")


STEPS = [[(BOLT, 3)], [(FRAG, 2)], [(FRAG, 2)]]


def test_a_sequence_declares_each_step_against_the_target_as_it_stands() -> None:
    turn = mh.sequence(STEPS, SEVEN)
    want, old = chain(STEPS, SEVEN), chain(STEPS, SEVEN, as_given=True)
    for i, (got, expected) in enumerate(zip(turn.results, want, strict=True)):
        assert_same_result(got, expected, f"step {i + 1}")
    # the third step's Frags meet fewer than five models in some states: read as given,
    # they would always roll a Blast die each
    assert mean(want[2].pools[0].attacks) < 4
    assert mean(old[2].pools[0].attacks) == 4
    assert abs(float(mean(want[2].killed) - mean(old[2].killed))) > 1e-3


def test_resolve_sequence_carries_each_unit_declared_as_the_target_stands() -> None:
    bolters = mh.Attacker("Bolters", [mh.Models(3, [BOLT])])
    grenadiers = mh.Attacker("Grenadiers", [mh.Models(2, [FRAG])])
    units = [
        (bolters, [mh.Use(0, "Bolt", target=SEVEN)]),
        (grenadiers, [mh.Use(0, "Frag", target=SEVEN)]),
        (grenadiers, [mh.Use(0, "Frag", target=SEVEN)]),
    ]
    turn = mh.resolve_sequence(units)
    want = chain(STEPS, SEVEN)
    for i, (step, expected) in enumerate(zip(turn.steps, want, strict=True)):
        assert_same_result(step.results["Seven"], expected, f"unit {i + 1}")
    assert_same_result(turn.results["Seven"], want[-1], "final")


def test_plan_army_values_the_plan_with_the_target_as_it_stands() -> None:
    # one target, so the plan is everything at it: its value is the expected models
    # destroyed after the three units, each declared against the models then standing
    units = [
        (mh.Attacker("Bolters", [mh.Models(3, [BOLT])]), [(0, "Bolt")]),
        (mh.Attacker("Grenadiers", [mh.Models(2, [FRAG])]), [(0, "Frag")]),
        (mh.Attacker("Second grenadiers", [mh.Models(2, [FRAG])]), [(0, "Frag")]),
    ]
    plan = mh.plan_army(units, [SEVEN], metric="killed")
    want = chain(STEPS, SEVEN)[-1]
    old = chain(STEPS, SEVEN, as_given=True)[-1]
    assert plan.value == pytest.approx(float(mean(want.killed)), abs=1e-12)
    assert abs(float(mean(want.killed) - mean(old.killed))) > 1e-3
    assert_same_result(plan.results["Seven"], want, "plan")


def copies(steps: list[Any], unit: mh.Unit, most: int, as_given: bool = False) -> list[int | None]:
    """The fewest copies of ``steps``, each carried on from the last, that destroy the unit
    with a chance of 50 % and 90 %, by the oracle (``durability``'s definition)."""
    found: list[int | None] = [None, None]
    states = None
    for n in range(1, most + 1):
        made = oracle_attack(steps, unit, start=states, as_given=as_given)
        states = made.states
        p = made.killed.get(unit.models, Fraction(0))
        for i, q in enumerate((Fraction(1, 2), Fraction(9, 10))):
            if found[i] is None and p >= q:
                found[i] = n
        if found[1] is not None:
            break
    return found


def test_durability_sends_copies_declared_against_the_unit_as_it_stands() -> None:
    # a lone Frag at ten T3 W1 models: 2 dice while 10 stand, 1 from 9 down to 5, none
    # below (the Blast die per full five); a copy kills at most two models
    weapons = ((mh.Weapon("Frag", 1, 3, 6, 0, 1, "[BLAST]"), 1),)
    suite = [StandardAttacker("Grenadier", "anti-horde", weapons, 10)]
    ten = mh.Unit.of("Ten", 10, 3, 7, 1)
    table = mh.durability(ten, suite, max_copies=40)
    want = copies(list(weapons), ten, 40)
    old = copies(list(weapons), ten, 40, as_given=True)
    assert [int(table.loc[0, "copies_50"]), int(table.loc[0, "copies_90"])] == want
    assert want != old  # read as given, every copy would roll a Blast die per five
    first = oracle_attack(list(weapons), ten)
    assert table.loc[0, "killed_mean"] == pytest.approx(float(mean(first.killed)), abs=1e-12)


CARRIED_CASES: dict[str, tuple[mh.Unit, list[Any], list[Any], mh.Context | None]] = {
    "blast": (SEVEN, [(BOLT, 3)], [(FRAG, 3)], None),
    "cleave": (SEVEN, [mh.MortalWounds("D3")], [(AXE, 3)], mh.Context(melee=True)),
    "toughness": (
        mh.Unit(
            "Led",
            [
                mh.ModelGroup(2, toughness=3, save=7, wounds=1, name="Guard"),
                mh.ModelGroup(1, toughness=5, save=7, wounds=3, character=True, name="Boss"),
            ],
        ),
        [mh.MortalWounds("D3")],
        [(mh.Weapon("Rifle", 2, 3, 4, 0, 1), 3)],
        None,
    ),
}


@pytest.mark.parametrize("name", list(CARRIED_CASES))
def test_the_monte_carlo_draws_each_trials_declaration_from_its_state(name: str) -> None:
    target, first, second, context = CARRIED_CASES[name]
    before = mh.attack(first, target)
    exact = mh.attack(second, target, start=before, context=context)
    trials = 100_000
    sim = mh.simulate(second, target, start=before, context=context, trials=trials,
                      rng=seed_for("declared", name))  # fmt: skip
    assert_matches(f"{name}: killed", exact.killed, sim.killed, trials)
    assert_matches(f"{name}: damage", exact.damage, sim.damage, trials)
    for pool, rolled in zip(exact.pools, sim.pools, strict=True):
        for stage in ("attacks", "hits", "wounds"):
            got, want = getattr(rolled, stage), getattr(pool, stage)
            assert_matches(f"{name}: {pool.label} {stage}", want, got, trials)
    assert [p.abilities for p in sim.pools] == [p.abilities for p in exact.pools]
    # and the exact engine is the oracle's, which reads each start state on its own
    states = oracle_attack(first, target).states
    want = oracle_attack(second, target, context=context, start=states)
    old = oracle_attack(second, target, context=context, start=states, as_given=True)
    assert_same_result(exact, want, name)
    assert abs(float(mean(want.killed) - mean(old.killed))) > 1e-3


# ------------------------------------------------------------------------ properties


def fresh_unit(unit: mh.Unit, state: mh.UnitState) -> tuple[mh.Unit, int]:
    """The unit of the models standing in ``state`` (one state), its wounded model's
    wounds lost as given, and the models destroyed before."""
    killed, hurt = state.killed_in_group()[0], state.wounded()[0]
    groups = []
    for g, group in enumerate(unit.groups):
        left = group.count - int(killed[g])
        if left:
            groups.append(
                mh.ModelGroup(
                    left,
                    group.toughness,
                    group.save,
                    group.wounds,
                    invuln=group.invuln,
                    character=group.character,
                    wounds_lost=int(hurt[g]),
                    name=group.name,
                )  # fmt: skip
            )
    return mh.Unit(unit.name, groups, unit.keywords), int(killed.sum())


GROUPS = st.lists(
    st.tuples(st.integers(1, 6), st.sampled_from([3, 4, 5]), st.integers(1, 3)),
    min_size=1,
    max_size=2,
)


@st.composite
def carried(draw: Any) -> tuple[mh.Unit, int, list[Any], mh.Context]:
    """A unit (bodies, then maybe a CHARACTER), a number of wounds lost in allocation
    order (so the state is one an attack without [PRECISION] reaches), and a weapon with
    [BLAST] or [CLEAVE], maybe [PRECISION]."""
    bodies = [
        mh.ModelGroup(n, toughness=t, save=5 - i, wounds=w, name=f"g{i}")  # a Sv each
        for i, (n, t, w) in enumerate(draw(GROUPS))
    ]
    if draw(st.booleans()):
        bodies.append(
            mh.ModelGroup(
                1,
                toughness=draw(st.sampled_from([4, 6])),
                save=3,
                wounds=3,
                character=True,
                name="Boss",
            )  # fmt: skip
        )
    unit = mh.Unit("U", bodies)
    lost = draw(st.integers(0, unit.total_wounds - 1))
    ability = draw(st.sampled_from(["[BLAST]", "[BLAST 2]", "[CLEAVE 1]"]))
    if draw(st.booleans()):
        ability += ", [PRECISION]"
    weapon = mh.Weapon("W", draw(st.integers(1, 3)), 3, draw(st.integers(3, 8)), -1, 1, ability)
    context = mh.Context(melee="CLEAVE" in ability)
    return unit, lost, [(weapon, draw(st.integers(1, 3)))], context


def state_after(unit: mh.Unit, lost: int) -> mh.UnitState:
    """The one state with ``lost`` wounds taken in allocation order, group by group."""
    row = []
    for group in unit.groups:
        take = min(lost, group.total_wounds)
        row.append(take)
        lost -= take
    return mh.UnitState(unit, "11e", np.array([row]), np.array([1.0]))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(carried())
def test_an_attack_from_k_models_standing_is_one_on_a_fresh_unit_of_k(case: Any) -> None:
    unit, lost, weapons, context = case
    state = state_after(unit, lost)
    fresh, before = fresh_unit(unit, state)
    after = mh.attack(weapons, unit, start=state, context=context)
    alone = mh.attack(weapons, fresh, context=context)
    np.testing.assert_allclose(
        after.pools[0].attacks.probabilities, alone.pools[0].attacks.probabilities, atol=1e-12
    )
    # killed counts from the unit as given: the models destroyed before come first
    shifted = np.concatenate([np.zeros(before), alone.killed.probabilities])
    np.testing.assert_allclose(after.killed.probabilities, shifted, atol=1e-12)
    assert after.pools[0].abilities == alone.pools[0].abilities


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(carried(), st.integers(0, 40), st.floats(0.05, 0.95))
def test_an_attack_from_several_states_mixes_the_attacks_from_each(
    case: Any, other: int, p: float
) -> None:
    unit, lost, weapons, context = case
    first, second = state_after(unit, lost), state_after(unit, other % unit.total_wounds)
    both = mh.UnitState(
        unit, "11e", np.concatenate([first.positions, second.positions]), np.array([p, 1 - p])
    )
    mixed = mh.attack(weapons, unit, start=both, context=context)
    a = mh.attack(weapons, unit, start=first, context=context)
    b = mh.attack(weapons, unit, start=second, context=context)
    reads: list[Callable[[mh.AttackResult], mh.Dist]] = [
        lambda r: r.killed,
        lambda r: r.damage,
        lambda r: r.pools[0].attacks,
    ]
    for read in reads:
        want = mh.Dist.mixture([p, 1 - p], [read(a), read(b)]).probabilities
        got = read(mixed).probabilities
        size = max(len(want), len(got))
        np.testing.assert_allclose(
            np.pad(got, (0, size - len(got))), np.pad(want, (0, size - len(want))), atol=1e-12
        )
