"""The target as it stands when the attacks are declared (docs/rules.md D11, D18, D21, D30,
D34), after earlier attacks: ``mh.attack(..., start=earlier)``.

An attack that carries on from an earlier one is resolved from each state the target may
be in, every rule that reads the target read against the models standing in that state,
and the results weighted by the states' probabilities. Each case is checked three ways:
the brute-force oracle against values derived by hand; the engine against the oracle on
every distribution it reports; and the case against the reading D34 replaces (the unit
as first given: ``oracle_attack(..., as_given=True)``, or a hand count), so that a test
here fails if the rule it names is read wrongly.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Any

import pytest
from oracle import (
    ATOL,
    PMF,
    OracleResult,
    State,
    _command,
    _current,
    _roll_pool,
    assert_pmf,
    exact,
    gather_entries,
    joint,
    oracle_attack,
    pool_profile,
    positions_of,
)

import mathhammer as mh

STAGES = ("attacks", "hits", "wounds", "unsaved", "devastating", "killed")
NO_SAVE = 7

FRAG = mh.Weapon("Frag", 1, 2, 6, 0, 1, "[BLAST]")
BOLT = mh.Weapon("Bolt", 1, 3, 4, 0, 1)
AXE = mh.Weapon("Axe", 1, 2, 6, 0, 1, "[CLEAVE 1]")
RIFLE = mh.Weapon("Rifle", 1, 3, 4, 0, 1)  # S4: wounds T3 on 3+, T5 on 5+
SNIPER = mh.Weapon("Sniper", 1, 2, 4, 0, 1, "[PRECISION]")
#: [DEVASTATING WOUNDS] wounding T4 on 4+: a command re-roll of a wound die fishes for a
#: critical when a fresh die, 2/6 x u + 1/6, is worth more than a wound kept, u, that is
#: when u < 1/4 (u: the chance that the save taking the wound fails).
NEEDLE = mh.Weapon("Needle", 2, 3, 4, 0, 1, "[DEVASTATING WOUNDS]")
PRECISE_NEEDLE = mh.Weapon("Precise needle", 2, 3, 4, 0, 1, "[PRECISION], [DEVASTATING WOUNDS]")
FISH_WOUNDS = mh.Modifiers(reroll_one="wound")


def guarded(
    guard_save: int, boss_save: int, boss_wounds: int = 3, reroll_saves: str | None = None
) -> mh.Unit:
    """Two W1 bodyguards and a CHARACTER, all T4."""
    boss = mh.ModelGroup(
        1, toughness=4, save=boss_save, wounds=boss_wounds, character=True, name="Boss"
    )
    guard = mh.ModelGroup(2, toughness=4, save=guard_save, wounds=1, name="Guard")
    return mh.Unit("Guarded", [guard, boss], reroll_saves=reroll_saves)


# --------------------------------------------------------------------------- helpers


def far(a: PMF, b: PMF) -> bool:
    """The two exact pmfs differ by more than the engine's tolerance somewhere."""
    return any(abs(float(a.get(k, 0) - b.get(k, 0))) > 1e3 * ATOL for k in {*a, *b})


def assert_same(got: mh.AttackResult, want: OracleResult, unit: mh.Unit, what: str) -> None:
    """Every distribution the engine reports equals the oracle's (to ATOL), and so do the
    abilities each pool lists and the states the attack leaves."""
    assert_pmf(got.killed.probabilities, want.killed, f"{what}: killed")
    assert_pmf(got.damage.probabilities, want.damage, f"{what}: damage")
    assert got.p_destroyed == pytest.approx(float(want.p_destroyed), rel=0, abs=ATOL), what
    assert len(got.groups) == len(want.groups), what
    for g, group in enumerate(got.groups):
        assert_pmf(group.killed.probabilities, want.groups[g], f"{what}: group {g}")
    assert len(got.pools) == len(want.pools), what
    for j, (pool, expected) in enumerate(zip(got.pools, want.pools, strict=True)):
        for stage in STAGES:
            have = getattr(pool, stage).probabilities
            assert_pmf(have, getattr(expected, stage), f"{what}: pool {j} {stage}")
        assert tuple(pool.abilities) == expected.abilities, f"{what}: pool {j} abilities"
    assert got.state is not None, what
    have_states, want_states = joint(got.state), positions_of(unit, want.states)
    assert have_states.keys() == want_states.keys(), what
    for key, p in want_states.items():
        assert have_states[key] == pytest.approx(p, rel=0, abs=ATOL), (what, key)


@dataclasses.dataclass(frozen=True)
class Carried:
    """A second attack carried on from a first: the engine's, the oracle's and the
    oracle's reading of the unit as first given (the reading D34 replaces)."""

    engine: mh.AttackResult
    oracle: OracleResult
    as_given: OracleResult
    before: dict[State, Fraction]  # the oracle's states after the first attack


def carried(
    unit: mh.Unit,
    first: list[Any],
    second: list[Any],
    *,
    first_context: mh.Context | None = None,
    context: mh.Context | None = None,
    modifiers: mh.Modifiers | None = None,
) -> Carried:
    before = oracle_attack(first, unit, context=first_context).states
    earlier = mh.attack(first, unit, context=first_context)
    kw: dict[str, Any] = {"context": context, "modifiers": modifiers}
    return Carried(
        engine=mh.attack(second, unit, start=earlier, **kw),
        oracle=oracle_attack(second, unit, start=before, **kw),
        as_given=oracle_attack(second, unit, start=before, as_given=True, **kw),
        before=before,
    )


def fish(
    weapon: mh.Weapon,
    unit: mh.Unit,
    standing: State | None,
    modifiers: mh.Modifiers,
    *,
    current: int,
    context: mh.Context | None = None,
) -> bool:
    """The oracle's command re-roll decision of D30 for ``weapon`` against ``standing``,
    valued at the save of group ``current`` (unless [PRECISION] picks a CHARACTER)."""
    prof = pool_profile(weapon, unit, context or mh.Context(), modifiers, standing)
    return _command(prof, modifiers, unit, current).fish


# --------------------------------------------------------------------------- [BLAST], [CLEAVE]


def test_blast_counts_the_models_standing_after_a_mortal_wound_by_hand() -> None:
    # The bug report: five T3 W1 models without a save; one mortal wound leaves four, for
    # certain. The Frag (A1, BS 2+, S6, [BLAST]) then rolls one die: four models make no
    # full five, so no Blast die (attacks [0, 1]). It hits on 2+ (5/6) and wounds T3 on 2+
    # (S6 >= 2 x T3: 5/6); no save, D1: it destroys a model with 25/36. ``killed`` counts
    # from the start of the sequence, the mortal wound's model included: one model for
    # certain, a second with 25/36, so over 0..5 it is [0, 11/36, 25/36, 0, 0, 0] (the
    # report's [0, 11/36, 25/36, 0] is this pmf cut at 3).
    five = mh.Unit.of("Five", 5, 3, NO_SAVE, 1)
    p = Fraction(5, 6) * Fraction(5, 6)
    expected_killed = {
        0: Fraction(0),
        1: 1 - p,
        2: p,
        3: Fraction(0),
        4: Fraction(0),
        5: Fraction(0),
    }
    case = carried(five, [mh.MortalWounds(1)], [(FRAG, 1)])
    assert case.before == {((1, 1, 1, 1),): Fraction(1)}
    assert case.oracle.pools[0].attacks == {1: Fraction(1)}
    assert case.oracle.killed == exact(expected_killed)
    assert case.oracle.damage == exact(expected_killed)  # W1: a wound lost is a model
    # Read as first given, five models would make a full five: two dice, 1 + Bin(2, p).
    assert case.as_given.pools[0].attacks == {2: Fraction(1)}
    assert case.as_given.killed == {1: (1 - p) ** 2, 2: 2 * p * (1 - p), 3: p**2}
    assert_pmf(case.engine.pools[0].attacks.probabilities, {0: Fraction(0), 1: Fraction(1)})
    assert_pmf(case.engine.killed.probabilities, expected_killed, "killed")
    assert_same(case.engine, case.oracle, five, "five, then the Frag")


#: (unit, first attack, second attack, context of the second): earlier attacks that leave
#: the target at several sizes across a boundary of five.
BOUNDARY_CASES: dict[str, tuple[mh.Unit, list[Any], list[Any], mh.Context | None]] = {
    # six models, D3 mortal wounds: 5, 4 or 3 standing -> one Blast die, none, none
    "blast, six after D3 mortal wounds": (
        mh.Unit.of("Six", 6, 3, NO_SAVE, 1),
        [mh.MortalWounds("D3")],
        [(FRAG, 1)],
        None,
    ),
    # ten models, two bolt shots: 10, 9 or 8 standing -> two Blast dice, one, one
    "blast, ten after two bolt shots": (
        mh.Unit.of("Ten", 10, 3, NO_SAVE, 1),
        [(BOLT, 2)],
        [(FRAG, 1)],
        None,
    ),
    # the same in melee with [CLEAVE 1] (single_target, the default)
    "cleave, six after D3 mortal wounds": (
        mh.Unit.of("Six", 6, 3, NO_SAVE, 1),
        [mh.MortalWounds("D3")],
        [(AXE, 1)],
        mh.Context(melee=True),
    ),
    "cleave, ten after two bolt shots": (
        mh.Unit.of("Ten", 10, 3, NO_SAVE, 1),
        [(BOLT, 2)],
        [(AXE, 1)],
        mh.Context(melee=True),
    ),
}


@pytest.mark.parametrize("name", list(BOUNDARY_CASES))
def test_blast_and_cleave_count_each_start_states_models(name: str) -> None:
    unit, first, second, context = BOUNDARY_CASES[name]
    case = carried(unit, first, second, context=context)
    sizes = {sum(len(m) for m in state) for state in case.before}
    assert min(sizes) // 5 != max(sizes) // 5, "the start states cross a boundary of five"
    # sensitive: read as first given, every state would get the unit's full fives
    assert far(case.oracle.pools[0].attacks, case.as_given.pools[0].attacks), name
    assert far(case.oracle.killed, case.as_given.killed), name
    assert_same(case.engine, case.oracle, unit, name)


def test_cleave_only_in_melee_against_one_target() -> None:
    # [CLEAVE] adds nothing shot, nor split over several targets: then the standing
    # cannot matter, and the carried attack equals the reading as first given.
    unit, first, second, _ = BOUNDARY_CASES["cleave, ten after two bolt shots"]
    for context in (None, mh.Context(melee=True, single_target=False)):
        case = carried(unit, first, second, context=context)
        assert case.oracle.pools[0].attacks == {1: Fraction(1)}
        assert case.oracle.killed == case.as_given.killed
        assert_same(case.engine, case.oracle, unit, f"cleave, {context}")


def test_a_second_pools_blast_counts_the_models_at_declaration() -> None:
    # Seven models, D3 mortal wounds: 6, 5 or 4 standing when the next unit declares its
    # attacks, so its Frag rolls 1 + 1, 1 + 1 or 1 die, whatever its bolt pool, resolved
    # first, destroys before the Frag's pool is rolled.
    seven = mh.Unit.of("Seven", 7, 3, NO_SAVE, 1)
    first, second = [mh.MortalWounds("D3")], [(BOLT, 2), (FRAG, 1)]
    case = carried(seven, first, second)
    third = Fraction(1, 3)
    assert case.oracle.pools[1].attacks == {1: third, 2: 2 * third}
    # sensitive to both wrong readings: the unit as first given (seven: always a Blast
    # die) and the target as the first pool leaves it (the Frag carried on from the bolts)
    assert case.as_given.pools[1].attacks == {2: Fraction(1)}
    after_bolts = oracle_attack([(BOLT, 2)], seven, start=case.before).states
    late = oracle_attack([(FRAG, 1)], seven, start=after_bolts)
    assert far(case.oracle.pools[1].attacks, late.pools[0].attacks)
    assert far(case.oracle.killed, late.killed)
    assert far(case.oracle.killed, case.as_given.killed)
    assert_same(case.engine, case.oracle, seven, "bolts then Frag, carried")


# --------------------------------------------------------------------------- Toughness

LED = mh.Unit(
    "Led",
    [
        mh.ModelGroup(2, toughness=3, save=NO_SAVE, wounds=1, name="Guard"),
        mh.ModelGroup(1, toughness=5, save=NO_SAVE, wounds=3, character=True, name="Boss"),
    ],
)


def test_toughness_is_the_boss_once_the_guard_is_gone_by_hand() -> None:
    # Two mortal wounds destroy both T3 guards for certain; the T5 Boss stands alone and
    # the S4 Rifle wounds it on 5+: 2/3 x 1/3 = 2/9 to take a wound (no save, D1, W3).
    # Damage counts from the start: the two guards' wounds, then one more with 2/9.
    case = carried(LED, [mh.MortalWounds(2)], [(RIFLE, 1)])
    p = Fraction(2, 3) * Fraction(1, 3)
    assert case.oracle.damage == {2: 1 - p, 3: p}
    assert case.oracle.killed == {2: Fraction(1)}
    # read as first given, the guard's T3 (3+ to wound): 2/3 x 2/3
    q = Fraction(2, 3) * Fraction(2, 3)
    assert case.as_given.damage == {2: 1 - q, 3: q}
    assert_same(case.engine, case.oracle, LED, "the Boss alone")


def test_toughness_reads_each_start_state() -> None:
    # D3 mortal wounds: one guard left (T3), or none (T5), the Boss wounded with a 3;
    # then two S4 shots
    case = carried(LED, [mh.MortalWounds("D3")], [(RIFLE, 2)])
    assert {bool(state[0]) for state in case.before} == {True, False}
    assert far(case.oracle.pools[0].wounds, case.as_given.pools[0].wounds)
    assert far(case.oracle.damage, case.as_given.damage)
    assert_same(case.engine, case.oracle, LED, "Led, D3 mortal wounds then rifles")


def test_toughness_after_a_pool_that_may_wipe_the_guard() -> None:
    # An earlier unit's two bolt shots may destroy none, one or both guards
    case = carried(LED, [(BOLT, 2)], [(mh.Weapon("Heavy", 2, 3, 5, 0, 1), 1)])
    assert far(case.oracle.damage, case.as_given.damage)
    assert_same(case.engine, case.oracle, LED, "Led, bolts then S5")


# --------------------------------------------------------------------------- [PRECISION]

TWO_CHARACTERS = mh.Unit(
    "Court",
    [
        mh.ModelGroup(2, toughness=4, save=NO_SAVE, wounds=1, name="Guard"),
        mh.ModelGroup(1, toughness=4, save=NO_SAVE, wounds=1, character=True, name="Herald"),
        mh.ModelGroup(1, toughness=4, save=NO_SAVE, wounds=2, character=True, name="Lord"),
    ],
)


@pytest.mark.parametrize("named", ["Herald", 1, None])
def test_precision_picks_a_character_standing(named: str | int | None) -> None:
    # A first Sniper shot at the Herald may destroy it; the second unit's Sniper names it
    # again (or names none: the first CHARACTER group standing). Where the Herald is gone
    # the Lord is picked, not the Guard.
    context = mh.Context(precision_group=named)
    first_context = mh.Context(precision_group="Herald")
    case = carried(
        TWO_CHARACTERS,
        [(SNIPER, 1)],
        [(SNIPER, 2)],
        first_context=first_context,
        context=context,
    )
    gone = [state for state in case.before if not state[1]]
    assert gone and all(state[2] for state in gone)
    assert case.oracle.pools[0].abilities == ("[PRECISION]",)
    # sensitive: read as first given, the Herald (gone) is picked and the shots fall on
    # the Guard, so the Lord is hurt less often
    assert far(case.oracle.groups[2], case.as_given.groups[2])
    assert far(case.oracle.groups[0], case.as_given.groups[0])
    assert_same(case.engine, case.oracle, TWO_CHARACTERS, f"precision, named {named!r}")


def test_precision_does_nothing_once_no_character_stands() -> None:
    # The Boss (Sv 2+) may fall to the first Sniper; then a [PRECISION] [DEVASTATING
    # WOUNDS] Needle with a command re-roll of a wound die. Where the Boss stands, its
    # Sv 2+ takes the first save (u = 1/6 < 1/4: fish); where it is gone, [PRECISION] does
    # nothing and the guard without a save does (u = 1: no fishing). Read as first given,
    # the Boss's save would value every state.
    unit = guarded(NO_SAVE, 2, boss_wounds=1)
    case = carried(unit, [(SNIPER, 1)], [(PRECISE_NEEDLE, 1)], modifiers=FISH_WOUNDS)
    gone = next(state for state in case.before if not state[1])
    standing = next(state for state in case.before if state[1])
    alone = oracle_attack([(PRECISE_NEEDLE, 1)], unit, start={gone: Fraction(1)},
                          modifiers=FISH_WOUNDS)  # fmt: skip
    assert alone.pools[0].abilities == ("[DEVASTATING WOUNDS]",)  # not listed: no effect
    # over the start states: used in any of them, listed as printed on the weapon (the
    # order does not depend on which state comes first)
    assert case.oracle.pools[0].abilities == ("[PRECISION]", "[DEVASTATING WOUNDS]")
    assert not fish(PRECISE_NEEDLE, unit, gone, FISH_WOUNDS, current=0)
    assert fish(PRECISE_NEEDLE, unit, standing, FISH_WOUNDS, current=0)
    assert fish(PRECISE_NEEDLE, unit, None, FISH_WOUNDS, current=0)  # as first given
    assert far(case.oracle.pools[0].wounds, case.as_given.pools[0].wounds)
    assert_same(case.engine, case.oracle, unit, "precision, no character left")


# --------------------------------------------------------------------------- command re-roll

#: (unit, first attack): the bodyguard's save differs from the Boss's, and D3 mortal
#: wounds leave one guard (state 1/3) or none (2/3).
DECLARED_CASES = {
    # a Sv 2+ bodyguard (u = 1/6: fish) destroyed, the Boss without a save (u = 1: not)
    "2+ guard gone, Boss without a save": guarded(2, NO_SAVE),
    # a bodyguard without a save (not) destroyed, the Boss with Sv 2+ (fish)
    "guard without a save gone, Boss 2+": guarded(NO_SAVE, 2),
}


@pytest.mark.parametrize("name", list(DECLARED_CASES))
def test_the_command_re_roll_values_the_save_of_the_current_group(name: str) -> None:
    unit = DECLARED_CASES[name]
    case = carried(unit, [mh.MortalWounds("D3")], [(NEEDLE, 1)], modifiers=FISH_WOUNDS)
    decisions = set()
    for state in case.before:
        where = _current(unit.groups, state)
        assert where is not None
        right = fish(NEEDLE, unit, state, FISH_WOUNDS, current=where[0])
        declared = fish(NEEDLE, unit, state, FISH_WOUNDS, current=0)
        decisions.add((where[0], right, declared))
    # sensitive: where the guard is gone the two readings decide differently
    assert any(group == 1 and right != declared for group, right, declared in decisions)
    assert far(case.oracle.pools[0].wounds, case.as_given.pools[0].wounds)
    assert far(case.oracle.damage, case.as_given.damage)
    assert_same(case.engine, case.oracle, unit, name)


def _fish_both_ways(weapon: mh.Weapon, unit: mh.Unit, state: State | None) -> tuple[bool, bool]:
    """The decision with the defender's save re-rolls counted, and without them."""
    where = None if state is None else _current(unit.groups, state)
    current = 0 if where is None else where[0]
    plain = mh.Unit(unit.name, list(unit.groups))  # the same models, no save re-rolls
    return (
        fish(weapon, unit, state, FISH_WOUNDS, current=current),
        fish(weapon, plain, state, FISH_WOUNDS, current=current),
    )


def _wounds_if(weapon: mh.Weapon, unit: mh.Unit, state: State | None, decision: bool) -> PMF:
    """The pool's wound pmf with the command re-roll's decision forced."""
    prof = pool_profile(weapon, unit, mh.Context(), FISH_WOUNDS, state)
    prof = dataclasses.replace(_command(prof, FISH_WOUNDS, unit, 0), fish=decision)
    (entries,) = gather_entries([(weapon, 1)])
    assert isinstance(entries, list)
    return _roll_pool(entries, prof)[2]


@pytest.mark.parametrize("policy", ["ones", "failures"])
def test_the_command_re_roll_counts_the_defenders_save_re_rolls(policy: str) -> None:
    # Sv 3+ at AP 0 fails on 1-2: u = 1/3, no fishing (1/3 >= 1/4). Re-rolling 1s:
    # u = 1/6 + 1/6 x 1/3 = 2/9; re-rolling failures: u = 1/3 x 1/3 = 1/9; both below
    # 1/4, so the attacker fishes. After D3 mortal wounds on three W1 models.
    unit = mh.Unit("Stubborn", [mh.ModelGroup(3, 4, 3, 1)], reroll_saves=policy)
    with_rerolls, without = _fish_both_ways(NEEDLE, unit, None)
    assert (with_rerolls, without) == (True, False)
    assert far(_wounds_if(NEEDLE, unit, None, True), _wounds_if(NEEDLE, unit, None, False))
    case = carried(unit, [mh.MortalWounds("D3")], [(NEEDLE, 1)], modifiers=FISH_WOUNDS)
    assert_same(case.engine, case.oracle, unit, f"reroll_saves={policy}, carried")
    got = mh.attack([(NEEDLE, 1)], unit, modifiers=FISH_WOUNDS)
    want = oracle_attack([(NEEDLE, 1)], unit, modifiers=FISH_WOUNDS)
    assert_same(got, want, unit, f"reroll_saves={policy}")


def test_the_boss_alone_re_rolling_failures() -> None:
    # Guards without a save, a Sv 3+ Boss that re-rolls failed saves: while a guard stands
    # no fishing (u = 1); once the guards are gone the Boss's re-rolled save (u = 1/9)
    # makes it worth fishing, which neither the declared first group (the guard) nor the
    # Boss's save without its re-roll (u = 1/3) would.
    unit = guarded(NO_SAVE, 3, reroll_saves="failures")
    case = carried(unit, [mh.MortalWounds("D3")], [(NEEDLE, 1)], modifiers=FISH_WOUNDS)
    gone = next(state for state in case.before if not state[0])
    assert _fish_both_ways(NEEDLE, unit, gone) == (True, False)
    assert not fish(NEEDLE, unit, gone, FISH_WOUNDS, current=0)
    assert far(case.oracle.pools[0].wounds, case.as_given.pools[0].wounds)
    assert_same(case.engine, case.oracle, unit, "Boss re-rolling failures, carried")


def test_the_defenders_command_re_roll_is_not_counted() -> None:
    # reroll_saves="command" leaves u at the faces' 1/3: no fishing, as without re-rolls
    unit = mh.Unit("Commanded", [mh.ModelGroup(3, 4, 3, 1)], reroll_saves="command")
    assert _fish_both_ways(NEEDLE, unit, None) == (False, False)
    got = mh.attack([(NEEDLE, 1)], unit, modifiers=FISH_WOUNDS)
    want = oracle_attack([(NEEDLE, 1)], unit, modifiers=FISH_WOUNDS)
    assert_same(got, want, unit, "reroll_saves=command")


def test_the_command_re_roll_values_the_precision_groups_save() -> None:
    # Guards without a save and a Sv 2+ Boss: a [PRECISION] pool's first save is the
    # Boss's (u = 1/6: fish), an ordinary pool's the guard's (u = 1: not)
    unit = guarded(NO_SAVE, 2)
    assert fish(PRECISE_NEEDLE, unit, None, FISH_WOUNDS, current=0)
    assert not fish(NEEDLE, unit, None, FISH_WOUNDS, current=0)
    got = mh.attack([(PRECISE_NEEDLE, 1)], unit, modifiers=FISH_WOUNDS)
    want = oracle_attack([(PRECISE_NEEDLE, 1)], unit, modifiers=FISH_WOUNDS)
    assert_same(got, want, unit, "precision's save values the re-roll")
