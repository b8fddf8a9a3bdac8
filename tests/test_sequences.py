"""Attacks that carry on from the target's state: ``attack(..., start=...)`` and
``mh.sequence``.

Exactness three ways: against the brute-force oracle (every die face, exact fractions)
carried from step to step on tiny cases; against one attack of the same pools (a
sequence of attacks with the same context is one attack whose pools resolve in order);
and, for the classic Panic Test, against each state's unit attacked on its own.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from oracle import assert_pmf, joint, oracle_attack, positions_of
from statcheck import assert_matches, seed_for

import mathhammer as mh
from mathhammer.model.context import Context, Modifiers

BOLTER = mh.Weapon("Bolter", 1, 3, 4, 0, 1)
MELTA = mh.Weapon("Melta", 1, 3, 9, -4, "D3")
HEAVY = mh.Weapon("Heavy", 1, 4, 6, -1, 2)
PRECISE = mh.Weapon("Sniper", 1, 3, 4, -2, 2, "[PRECISION]")
DEVASTATING = mh.Weapon("Dev", 1, 3, 4, 0, 1, "[DEVASTATING WOUNDS]")
SUSTAINED = mh.Weapon("Chain", 1, 4, 5, 0, 1, "[SUSTAINED HITS 1]")

GUARDED = mh.Unit(
    "Guarded",
    [mh.ModelGroup(2, 4, 4, 1), mh.ModelGroup(1, 4, 3, 2, character=True, name="Boss")],
)
MIXED = mh.Unit("Mixed", [mh.ModelGroup(2, 4, 4, 1), mh.ModelGroup(1, 4, 3, 2)])
WOUNDED = mh.Unit("Wounded", [mh.ModelGroup(2, 4, 3, 2, wounds_lost=1)])
TOUGH = mh.Unit("Tough", [mh.ModelGroup(2, 4, 4, 2, fnp=5)])

Step = tuple[list[Any], Context | None, Modifiers | None]

#: Tiny sequences the oracle enumerates: (target, steps), each step with its own context.
ORACLE_CASES: dict[str, tuple[mh.Unit, list[Step]]] = {
    "bolters then melta vs 2x W2": (
        mh.Unit.of("Pair", 2, 4, 3, 2),
        [([(BOLTER, 2)], None, None), ([(MELTA, 1)], None, None)],
    ),
    "a wounded start, then cover": (
        WOUNDED,
        [([(HEAVY, 2)], None, None), ([(BOLTER, 2)], Context(target_in_cover=True), None)],
    ),
    "two groups, three units": (
        MIXED,
        [([(BOLTER, 1)], None, None), ([(HEAVY, 1)], None, None), ([(MELTA, 1)], None, None)],
    ),
    "precision after a bodyguard is hurt": (
        GUARDED,
        [([(BOLTER, 2)], None, None), ([(PRECISE, 2)], None, None)],
    ),
    "precision first, then an ordinary gun": (
        GUARDED,
        [([(PRECISE, 1)], None, None), ([(HEAVY, 2)], None, None)],
    ),
    "devastating wounds against FNP, then a modifier": (
        TOUGH,
        [([(DEVASTATING, 2)], None, None), ([(SUSTAINED, 1)], None, Modifiers(hit=1))],
    ),
    "a mortal-wound step between units": (
        MIXED,
        [([(BOLTER, 1), mh.MortalWounds("D3")], None, None), ([(HEAVY, 1)], None, None)],
    ),
}


@pytest.mark.parametrize("name", list(ORACLE_CASES))
def test_a_sequence_equals_the_oracle_carried_step_by_step(name: str) -> None:
    target, steps = ORACLE_CASES[name]
    states = None
    result: mh.AttackResult | None = None
    for i, (weapons, context, modifiers) in enumerate(steps):
        want = oracle_attack(weapons, target, context=context, modifiers=modifiers, start=states)
        result = mh.attack(weapons, target, context=context, modifiers=modifiers, start=result)
        what = f"{name}, step {i + 1}"
        assert_pmf(result.killed.probabilities, want.killed, what)
        assert_pmf(result.damage.probabilities, want.damage, what)
        for g, group in enumerate(result.groups):
            assert_pmf(group.killed.probabilities, want.groups[g], f"{what}, group {g}")
        for pool, expected in zip(result.pools, want.pools, strict=True):
            assert_pmf(pool.killed.probabilities, expected.killed, f"{what}, {pool.label}")
            assert_pmf(pool.unsaved.probabilities, expected.unsaved, f"{what}, {pool.label}")
        assert result.state is not None
        got, expected_joint = joint(result.state), positions_of(target, want.states)
        assert got.keys() == expected_joint.keys(), what
        for key, p in expected_joint.items():
            assert got[key] == pytest.approx(p, abs=1e-12), (what, key)
        assert result.p_destroyed == pytest.approx(float(want.p_destroyed), abs=1e-12)
        states = want.states


RETINUE = mh.Unit(
    "Retinue",
    [
        mh.ModelGroup(10, 4, 3, 2, name="Veterans"),
        mh.ModelGroup(5, 4, 4, 1, name="Troopers"),
        mh.ModelGroup(1, 4, 2, 5, invuln=4, character=True, name="Captain"),
    ],
)
#: (target, first weapons, second weapons): larger, against one attack of both pools.
SPLIT_CASES = {
    "one group, many dice": (
        mh.Unit.of("Horde", 30, 3, 5, 1),
        [(BOLTER, 40)],
        [(mh.Weapon("Flamer", "D6", 2, 4, 0, 1, "[TORRENT]"), 4)],
    ),
    "one group, D3 vs W3": (
        mh.Unit.of("Elite", 6, 4, 3, 3),
        [(MELTA, 6)],
        [(HEAVY, 12)],
    ),
    "three groups, precision second": (
        RETINUE,
        [(HEAVY, 20)],
        [(mh.Weapon("Sniper", 1, 3, 5, -2, 3, "[PRECISION]"), 6)],
    ),
    "three groups, precision first": (
        RETINUE,
        [(mh.Weapon("Sniper", 1, 3, 5, -2, 3, "[PRECISION]"), 6)],
        [(BOLTER, 30)],
    ),
    "devastating wounds second": (
        RETINUE,
        [(BOLTER, 20)],
        [(mh.Weapon("Dev", 2, 3, 5, -1, 2, "[DEVASTATING WOUNDS]"), 5)],
    ),
}


def close(got: np.ndarray, want: np.ndarray, what: str) -> None:
    size = max(len(got), len(want))
    np.testing.assert_allclose(
        np.pad(got, (0, size - len(got))),
        np.pad(want, (0, size - len(want))),
        atol=1e-12,
        err_msg=what,
    )


@pytest.mark.parametrize("name", list(SPLIT_CASES))
def test_two_attacks_in_sequence_are_one_attack_of_both_pools(name: str) -> None:
    target, first, second = SPLIT_CASES[name]
    whole = mh.attack([*first, *second], target)
    before = mh.attack(first, target)
    after = mh.attack(second, target, start=before)
    close(before.killed.probabilities, whole.pools[0].killed.probabilities, "first pool")
    close(after.pools[0].killed.probabilities, whole.pools[1].killed.probabilities, "second")
    close(after.killed.probabilities, whole.killed.probabilities, "killed")
    close(after.damage.probabilities, whole.damage.probabilities, "damage")
    for g, (got, want) in enumerate(zip(after.groups, whole.groups, strict=True)):
        close(got.killed.probabilities, want.killed.probabilities, f"group {g}")
    assert after.state is not None and whole.state is not None
    mine, theirs = joint(after.state), joint(whole.state)
    for key in mine.keys() | theirs.keys():
        assert mine.get(key, 0.0) == pytest.approx(theirs.get(key, 0.0), abs=1e-12), key
    assert after.p_destroyed == pytest.approx(whole.p_destroyed, abs=1e-12)
    turn = mh.sequence([first, second], target)
    assert turn.final.killed == after.killed and turn.results[0].killed == before.killed
    assert turn.p_destroyed == (before.p_destroyed, after.p_destroyed)


def test_the_panic_test_counts_the_models_each_unit_slew_out_of_those_left() -> None:
    lasgun = mh.Weapon("Lasgun", attacks=1, bs=3, strength=3)
    troops = mh.Unit.of("Troops", 8, 3, 5, 1, keywords="INFANTRY", leadership=7)
    first = mh.attack([(lasgun, 12)], troops, rules="classic")
    second = mh.attack([(lasgun, 10)], troops, rules="classic", start=first)
    # each state's unit attacked on its own: k slain before leaves 8 - k models
    taken = failed = 0.0
    for k, p in enumerate(first.killed.probabilities.tolist()):
        if p == 0.0 or k == troops.models:
            continue
        alone = mh.attack(
            [(lasgun, 10)],
            mh.Unit.of("Troops", 8 - k, 3, 5, 1, keywords="INFANTRY", leadership=7),
            rules="classic",
        )
        taken += p * alone.p_panic_test
        failed += p * alone.p_panic_fail
    assert 0.05 < taken < 0.95
    assert second.p_panic_test == pytest.approx(taken, abs=1e-12)
    assert second.p_panic_fail == pytest.approx(failed, abs=1e-12)
    turn = mh.sequence([[(lasgun, 12)], [(lasgun, 10)]], troops, rules="classic")
    assert [r.p_panic_test for r in turn.results] == [first.p_panic_test, second.p_panic_test]


def test_a_start_from_another_target_or_ruleset_is_refused() -> None:
    squad = mh.Unit.of("Squad", 5, 4, 3, 2)
    other = mh.Unit.of("Other", 5, 4, 3, 1)
    first = mh.attack([(BOLTER, 10)], squad)
    with pytest.raises(mh.OptionError, match="start: a state of unit 'Squad'.*not of the target"):
        mh.attack([(BOLTER, 10)], other, start=first)
    classic = mh.Unit.of("Squad", 5, 4, 3, 2, leadership=7)
    lasgun = mh.Weapon("Lasgun", attacks=1, bs=3, strength=3)
    earlier = mh.attack([(lasgun, 5)], classic, rules="classic")
    assert earlier.state is not None
    with pytest.raises(mh.OptionError, match="under the 'classic' ruleset; this attack uses '11e'"):
        mh.attack([(BOLTER, 10)], classic, start=earlier.state)
    with pytest.raises(mh.OptionError, match="start must be an AttackResult or a UnitState"):
        mh.attack([(BOLTER, 10)], squad, start="first")  # type: ignore[arg-type]
    with pytest.raises(mh.OptionError, match="holds no state"):
        mh.attack([(BOLTER, 10)], squad, start=mh.AttackResult(squad, "11e", *first_parts(first)))


def first_parts(result: mh.AttackResult) -> tuple[Any, ...]:
    return (result.killed, result.damage, result.groups, result.pools)


def test_sequence_forms_and_errors() -> None:
    squad = mh.Unit.of("Squad", 5, 4, 3, 2)
    a = mh.sequence([[(BOLTER, 10)], ([(BOLTER, 10)], Context(target_in_cover=True))], squad)
    b = mh.sequence(
        [
            {"weapons": [(BOLTER, 10)], "label": "first"},
            {"weapons": [(BOLTER, 10)], "context": Context(target_in_cover=True)},
        ],
        squad,
    )
    assert a.final.killed == b.final.killed and b.labels == ("first", "step 2")
    frame = b.frame()
    assert list(frame["attacker"]) == ["first", "step 2"]
    assert frame["p_destroyed_by_step"].sum() == pytest.approx(b.final.p_destroyed)
    assert "P(destroyed) by step" in repr(b)
    with pytest.raises(mh.OptionError, match="at least one step"):
        mh.sequence([], squad)
    with pytest.raises(mh.OptionError, match="step 1: a mapping takes 'weapons'"):
        mh.sequence([{"weapon": [(BOLTER, 1)]}], squad)
    with pytest.raises(mh.OptionError, match="steps must be a list of attacks"):
        mh.sequence(5, squad)  # type: ignore[arg-type]
    with pytest.raises(mh.OptionError, match="target must be a Unit"):
        mh.sequence([[(BOLTER, 1)]], "Squad")  # type: ignore[arg-type]
    later = mh.sequence([[(BOLTER, 10)]], squad, start=a.final)
    assert later.final.killed.mean() > a.final.killed.mean()


def test_the_state_answers_questions_about_the_unit() -> None:
    result = mh.attack([(HEAVY, 6), (PRECISE, 3)], GUARDED)
    state = result.state
    assert state is not None
    assert state.killed == result.killed
    assert state.p_destroyed == pytest.approx(result.p_destroyed, abs=1e-15)
    assert state.models_left.probabilities[::-1].tolist() == pytest.approx(
        result.killed.probabilities.tolist(), abs=1e-15
    )
    boss = state.group_models_left("Boss")
    assert boss.probabilities[0] == pytest.approx(result.groups[1].killed.probabilities[1])
    assert state.group_models_left(0) == state.group_models_left(0)
    with pytest.raises(KeyError, match="no group named 'Nobody'"):
        state.group_models_left("Nobody")
    with pytest.raises(IndexError):
        state.group_models_left(5)
    given = state.given_killed(1)
    assert given.probabilities.sum() == pytest.approx(1.0) and set(
        given.killed_in_group().sum(axis=1).tolist()
    ) == {1}
    with pytest.raises(ValueError, match="no state with 9 models"):
        state.given_killed(9)
    table = state.table()
    assert list(table.columns) == [
        "group 0 left",
        "group 0 wounded",
        "Boss left",
        "Boss wounded",
        "probability",
    ]
    assert table["probability"].sum() == pytest.approx(1.0)
    assert table["probability"].is_monotonic_decreasing
    assert state == mh.attack([(HEAVY, 6), (PRECISE, 3)], GUARDED).state
    assert hash(state) == hash(mh.attack([(HEAVY, 6), (PRECISE, 3)], GUARDED).state)
    assert "UnitState [11e] Guarded" in repr(state)
    initial = mh.UnitState.initial(GUARDED, "11e")
    assert (
        mh.attack([(BOLTER, 4)], GUARDED, start=initial).killed
        == mh.attack([(BOLTER, 4)], GUARDED).killed
    )


# ------------------------------------------------------------------------ Monte Carlo
MC_TRIALS = 40_000


@pytest.mark.parametrize("name", list(SPLIT_CASES))
def test_the_simulation_carries_on_from_an_exact_state(name: str) -> None:
    """Each trial draws its start from the exact state: the second step's simulated
    distributions match the exact ones (means within 5 sigma, cdfs within the DKW band)."""
    target, first, second = SPLIT_CASES[name]
    before = mh.attack(first, target)
    exact = mh.attack(second, target, start=before)
    rolled = mh.simulate(second, target, start=before, trials=MC_TRIALS, rng=seed_for(name))
    assert_matches(f"{name}: killed", exact.killed, rolled.killed, MC_TRIALS)
    assert_matches(f"{name}: damage", exact.damage, rolled.damage, MC_TRIALS)
    for g, (want, got) in enumerate(zip(exact.groups, rolled.groups, strict=True)):
        assert_matches(f"{name}: group {g}", want.killed, got.killed, MC_TRIALS)


@pytest.mark.parametrize("name", ["three groups, precision second", "one group, D3 vs W3"])
def test_a_simulated_sequence_agrees_with_the_exact_one(name: str) -> None:
    """The second step starts from the first's simulated states (its empirical
    distribution, from 4x the trials): the mean's variance is at most
    ``Var(X) (1/n1 + 1/n2)``, so the 5-sigma test uses that many effective trials."""
    target, first, second = SPLIT_CASES[name]
    exact = mh.attack(second, target, start=mh.attack(first, target))
    n1, n2 = 4 * MC_TRIALS, MC_TRIALS
    earlier = mh.simulate(first, target, trials=n1, rng=seed_for(name, 1))
    rolled = mh.simulate(second, target, start=earlier, trials=n2, rng=seed_for(name, 2))
    effective = 1.0 / (1.0 / n1 + 1.0 / n2)
    for want, got in [(exact.killed, rolled.killed), (exact.damage, rolled.damage)]:
        sd = want.std()
        assert abs(got.mean() - want.mean()) <= 5.0 * sd / np.sqrt(effective)


def test_a_simulations_state_is_its_trials_final_states() -> None:
    sim = mh.simulate([(HEAVY, 20), (PRECISE, 4)], RETINUE, trials=5_000, rng=3)
    state = sim.state
    assert state is not None and state.focus == (2,)
    counts = np.rint(state.probabilities * 5_000)
    assert np.allclose(state.probabilities * 5_000, counts) and counts.sum() == 5_000
    close(state.killed.probabilities, sim.killed.probabilities, "killed")
    for g in range(3):
        left = state.group_models_left(g).probabilities[::-1]
        assert left.tolist() == pytest.approx(sim.groups[g].killed.probabilities.tolist())
    # the exact engine carries on from it too (its precision states included)
    onward = mh.attack([(BOLTER, 10)], RETINUE, start=sim)
    assert onward.killed.mean() > sim.killed.mean()


def test_a_target_of_too_many_state_codes_keeps_no_state() -> None:
    from mathhammer.montecarlo.engine import MAX_STATE_CODES

    groups = [mh.ModelGroup(10, 4, s, 12) for s in (2, 3, 4, 5, 6)]
    big = mh.Unit("Big", groups)
    assert np.prod([g.total_wounds + 1 for g in groups]) > MAX_STATE_CODES
    sim = mh.simulate([(BOLTER, 5)], big, trials=1_000, rng=1)
    assert sim.state is None
    with pytest.raises(mh.OptionError, match="holds no state"):
        mh.simulate([(BOLTER, 5)], big, start=sim, trials=1_000, rng=1)


def test_the_simulated_panic_test_counts_from_each_trials_start() -> None:
    lasgun = mh.Weapon("Lasgun", attacks=1, bs=3, strength=3)
    troops = mh.Unit.of("Troops", 8, 3, 5, 1, keywords="INFANTRY", leadership=7)
    first = mh.attack([(lasgun, 12)], troops, rules="classic")
    exact = mh.attack([(lasgun, 10)], troops, rules="classic", start=first)
    rolled = mh.simulate(
        [(lasgun, 10)], troops, rules="classic", start=first, trials=MC_TRIALS, rng=11
    )
    pairs = [(exact.p_panic_test, rolled.p_panic_test), (exact.p_panic_fail, rolled.p_panic_fail)]
    for want, got in pairs:
        assert want is not None and got is not None
        assert abs(got - want) <= 5.0 * np.sqrt(want * (1 - want) / MC_TRIALS)


# ------------------------------------------------------------------- several units
def test_several_units_against_several_targets_carry_each_targets_state() -> None:
    rifle = mh.Weapon("Rifle", 2, 3, 4, 0, 1)
    cannon = mh.Weapon("Cannon", 1, 4, 8, -2, "D3")
    squad, elite = mh.Unit.of("Squad", 10, 4, 4, 1), mh.Unit.of("Elite", 3, 4, 3, 3)
    first = mh.Attacker("First", [mh.Models(5, [rifle]), mh.Models(1, [cannon])])
    second = mh.Attacker("Second", [mh.Models(10, [rifle])])
    cover = Context(target_in_cover=True)
    turn = mh.resolve_sequence(
        [
            (first, [mh.Use(0, "Rifle", target=squad), mh.Use(1, "Cannon", target=elite)]),
            {"attacker": second, "uses": [mh.Use(0, "Rifle", target=squad)], "context": cover},
        ]
    )
    # each target: the sequence of the weapons aimed at it, with each unit's context
    on_squad = mh.sequence([[(rifle, 5)], ([(rifle, 10)], cover)], squad)
    on_elite = mh.sequence([[(cannon, 1)]], elite)
    assert turn["Squad"].killed == on_squad.final.killed
    assert turn["Elite"].killed == on_elite.final.killed
    assert turn.p_destroyed_by_step("Squad") == on_squad.p_destroyed
    assert turn.p_destroyed_by_step(elite) == (on_elite.final.p_destroyed,) * 2
    assert turn.p_all_destroyed == pytest.approx(
        on_squad.final.p_destroyed * on_elite.final.p_destroyed
    )
    assert turn.targets == ("Squad", "Elite")
    frame = turn.frame()
    assert list(frame["target"]) == ["Squad", "Elite", "Squad"]
    assert "2 units" in repr(turn)
    # the next turn carries on from this one's results
    again = mh.resolve_sequence([(second, [mh.Use(0, "Rifle", target=squad)])], start=turn.results)
    assert again["Squad"].killed.mean() > turn["Squad"].killed.mean()


def test_resolve_sequence_refuses_what_it_cannot_read() -> None:
    squad = mh.Unit.of("Squad", 10, 4, 4, 1)
    unit = mh.Attacker("Unit", [mh.Models(5, [BOLTER])])
    with pytest.raises(mh.OptionError, match="at least one attacking unit"):
        mh.resolve_sequence([])
    with pytest.raises(mh.OptionError, match="units must be a list of attacking units"):
        mh.resolve_sequence(unit)  # type: ignore[arg-type]
    with pytest.raises(mh.OptionError, match="unit 1: a mapping takes 'attacker' and 'uses'"):
        mh.resolve_sequence([{"attacker": unit}])
    with pytest.raises(mh.OptionError, match=r"unit 1: expected \(attacker, uses"):
        mh.resolve_sequence([unit])
    with pytest.raises(mh.OptionError, match="start: a state of unit 'Other'"):
        mh.resolve_sequence(
            [(unit, [mh.Use(0, "Bolter", target=squad)])],
            start={"Squad": mh.attack([(BOLTER, 1)], mh.Unit.of("Other", 2, 4, 4, 1))},
        )
