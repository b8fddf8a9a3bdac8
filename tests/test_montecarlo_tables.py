"""The Monte Carlo's fast paths equal the literal ones, die for die, from the same stream.

The simulation reads each check through its table over the six faces, walks the save dice
from each trial's counts of each face instead of sorting them, walks only the failed saves
against a unit of one group, and keeps each trial's current group instead of asking the
ruleset for every trial at every die. Each is checked here against the literal way, written
out in this file as the simulation did it before: the check applied to every rolled die,
``np.sort``, every die walked against a current group computed afresh, a plain state of
models destroyed and wounds lost. Both sides roll from generators with the same seed, and
their D6 through the same :func:`~mathhammer.montecarlo.rolls.d6` (checked on its own in
``test_montecarlo_dice.py``); the outcomes must be equal (``==``, not close) and the
generators left at the same place.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_montecarlo_samples import Scrambled

import mathhammer as mh
from mathhammer.core.dice import Dice
from mathhammer.model.context import Context, Modifiers
from mathhammer.montecarlo import saves, steps
from mathhammer.montecarlo.rolls import categorise, d6, roll_sum
from mathhammer.montecarlo.state import TargetState
from mathhammer.montecarlo.tables import face_counts, lookup, pair_table, prefix_mask, sorted_dice
from mathhammer.rules import EleventhEdition, eleventh, get_ruleset
from mathhammer.rules import classic as classic_rules
from mathhammer.rules.base import CRITICAL, SUCCESS, PoolChecks, RollCheck, Ruleset, reroll_mask

SEED = 20_251_201


def same_place(a: np.random.Generator, b: np.random.Generator) -> bool:
    """True when two generators are in the same state (the half of a 64-bit draw kept
    for the next 32-bit one included), so they draw the same numbers from here on."""
    return bool(a.bit_generator.state == b.bit_generator.state)


# ---------------------------------------------------------------- checks through tables
def literal_categorise(
    rng: np.random.Generator, counts: np.ndarray, check: RollCheck
) -> tuple[np.ndarray, np.ndarray]:
    """The check applied to every rolled die, re-rolls and all (the former simulation)."""
    width = int(counts.max()) if counts.size else 0
    faces = d6(rng, (counts.size, width))
    valid = np.arange(width) < counts[:, None]
    categories = np.asarray(check.first(faces))
    if check.reroll is not None:
        again = np.asarray(check.reroll(faces, categories), dtype=bool) & valid
        if again.any():
            rerolled = d6(rng, faces.shape)
            categories = np.where(again, check.again(rerolled), categories)
    return ((categories == SUCCESS) & valid).sum(axis=1), ((categories == CRITICAL) & valid).sum(
        axis=1
    )


def _scrambled(natural: Any) -> Any:
    return np.asarray([0, 2, 0, 1, 2, 0, 1])[np.asarray(natural)]


def checks_registry() -> Iterator[tuple[str, RollCheck]]:
    """Hit and wound checks of both rulesets, with every re-roll, and one no threshold
    describes."""
    for skill in (2, 3, 4, 6):
        for modifier in (-1, 0, 1):
            for critical, fails in ((6, 1), (5, 1), (6, 5)):
                first = partial(
                    eleventh.hit_outcome,
                    skill=skill,
                    modifier=modifier,
                    critical=critical,
                    fail_at_most=fails,
                )
                for policy in (None, "ones", "failures", "non_critical"):
                    reroll = None if policy is None else partial(reroll_mask, policy=policy)
                    name = f"11e hit {skill}+ {modifier:+d} crit {critical}+ {policy}"
                    yield name, RollCheck(first=first, reroll=reroll)
    for needed in (2, 4, 6):
        first = partial(eleventh.wound_outcome, needed=needed, modifier=0, critical=6)
        yield f"11e wound {needed}+", RollCheck(first=first)
    for bs in (2, 5, 7, 10):
        for linked in (False, True):
            yield f"classic BS{bs} linked={linked}", classic_rules.hit_check(bs, linked)
    for policy in (None, "failures"):
        reroll = None if policy is None else partial(reroll_mask, policy=policy)
        yield f"scrambled {policy}", RollCheck(first=_scrambled, reroll=reroll)


CHECKS = dict(checks_registry())

#: (trials, the most dice a trial rolls): from no die at all to a row wider than the
#: prefix table (256) and than the float32 packing (4094).
#: (1, 2): mostly no die to re-roll, when the re-rolls must not be rolled at all.
SHAPES = [(50, 0), (1, 2), (400, 1), (2_000, 12), (300, 300), (4, 5_000)]


@pytest.mark.parametrize("shape", SHAPES, ids=[f"{n}x{w}" for n, w in SHAPES])
@pytest.mark.parametrize("name", sorted(CHECKS))
def test_categorise_equals_the_check_on_every_die(name: str, shape: tuple[int, int]) -> None:
    trials, most = shape
    counts = np.random.default_rng(SEED).integers(0, most + 1, size=trials)
    counts[0] = most
    for seed in range(16 if trials * most <= 2 else 1):  # some seeds re-roll no die
        fast, literal = np.random.default_rng(seed), np.random.default_rng(seed)
        success, critical = categorise(fast, counts, CHECKS[name])
        expected = literal_categorise(literal, counts, CHECKS[name])
        assert success.tolist() == expected[0].tolist()
        assert critical.tolist() == expected[1].tolist()
        assert same_place(fast, literal)


# ---------------------------------------------------------------- sorted dice
@pytest.mark.parametrize("width", [0, 1, 7, 60, 256, 257, 600])
def test_sorted_dice_equal_np_sort(width: int) -> None:
    rng = np.random.default_rng(width)
    counts = rng.integers(0, width + 1, size=500)
    faces = rng.integers(1, 7, size=(500, width), dtype=np.int8)
    valid = np.arange(width) < counts[:, None]
    expected = np.sort(np.where(valid, faces, 7), axis=1)
    assert (sorted_dice(faces * valid) == expected).all()
    at_most = face_counts(faces * valid)
    assert (at_most[:, -1] == counts).all()
    assert (prefix_mask(counts, width) == valid).all()


# ---------------------------------------------------------------- the save dice
class Reference:
    """Models destroyed and wounds lost per trial and group, changed the plain way."""

    def __init__(self, unit: mh.Unit, trials: int, ruleset: Ruleset) -> None:
        self.unit, self.ruleset = unit, ruleset
        self.count = np.array([g.count for g in unit.groups])
        self.wounds = np.array([g.wounds for g in unit.groups])
        self.character = np.array([g.character for g in unit.groups])
        self.dead = np.zeros((trials, len(unit.groups)), dtype=np.int64)
        self.hurt = np.tile([g.wounds_lost for g in unit.groups], (trials, 1))

    def current(self, focus: int | None) -> np.ndarray:
        alive = self.dead < self.count
        return self.ruleset.current_group(alive, self.hurt > 0, self.character, focus)

    def lose(self, trials: np.ndarray, group: np.ndarray, wounds: np.ndarray) -> None:
        hurt = self.hurt[trials, group] + wounds
        dies = hurt >= self.wounds[group]
        self.dead[trials[dies], group[dies]] += 1
        self.hurt[trials, group] = np.where(dies, 0, hurt)


def _damage(
    rng: np.random.Generator, ruleset: Ruleset, checks: PoolChecks, unit: mh.Unit, groups: Any
) -> np.ndarray:
    """The damage of one failed save per entry of ``groups``, after Feel No Pain."""
    rolled = checks.damage.roll(rng, groups.size)
    add = np.full(groups.size, checks.damage_add)
    if checks.melta is not None:
        add = add + checks.melta.roll(rng, groups.size)
    d = np.zeros(groups.size, dtype=np.int64)
    for gi, g in enumerate(unit.groups):
        here = groups == gi
        d[here] = ruleset.modified_damage(
            rolled[here], checks.damage_multiply, add[here], g.halve_damage, g.damage_reduction
        )
    return _fnp(rng, ruleset, unit, groups, d, mortal=False)


def _fnp(
    rng: np.random.Generator,
    ruleset: Ruleset,
    unit: mh.Unit,
    groups: Any,
    wounds: np.ndarray,
    mortal: bool,
) -> np.ndarray:
    out = wounds.copy()
    for gi, g in enumerate(unit.groups):
        here = np.flatnonzero(groups == gi)
        fnp = g.feel_no_pain(mortal)
        if fnp is None or here.size == 0:
            continue
        width = int(wounds[here].max())
        faces = d6(rng, (here.size, width))
        valid = np.arange(width) < wounds[here][:, None]
        out[here] -= (ruleset.fnp_saves(faces, fnp) & valid).sum(axis=1)
    return out


def literal_save_dice(
    rng: np.random.Generator, ruleset: Ruleset, checks: PoolChecks, state: Reference, count: Any
) -> np.ndarray:
    """Sort each trial's save dice, then allocate them lowest first, one per step."""
    width = int(count.max()) if count.size else 0
    faces = d6(rng, (count.size, width))
    faces = np.sort(np.where(np.arange(width) < count[:, None], faces, 7), axis=1)
    unsaved = np.zeros(count.size, dtype=np.int64)
    for column in range(width):
        die = faces[:, column]
        group = state.current(checks.precision_group)
        live = (die != 7) & (group >= 0)
        failed = np.zeros(die.size, dtype=bool)
        for gi, g in enumerate(state.unit.groups):
            here = live & (group == gi)
            failed[here] = ~np.asarray(checks.saves(die[here], g), dtype=bool)
        unsaved += failed
        trials = np.flatnonzero(failed)
        if trials.size:
            d = _damage(rng, ruleset, checks, state.unit, group[trials])
            state.lose(trials, group[trials], d)
    return unsaved


class ReorderedEleventh(EleventhEdition):
    """The 11th edition with its allocation order given as its own method (the same
    order): the simulation may then take no short cut for a unit of one group."""

    name = "11e-reordered"

    def current_group(self, alive: Any, wounded: Any, character: Any, focus: Any) -> Any:
        return super().current_group(alive, wounded, character, focus)


class UnwoundedFirst(EleventhEdition):
    """An allocation order that reads every group's wounded model: the first group alive
    with no wounded model takes the attack, else the first group alive."""

    name = "11e-unwounded-first"

    def current_group(self, alive: Any, wounded: Any, character: Any, focus: Any) -> Any:
        fresh = alive & ~wounded
        first_alive = np.where(alive.any(axis=1), np.argmax(alive, axis=1), -1)
        return np.where(fresh.any(axis=1), np.argmax(fresh, axis=1), first_alive)


def _unit(*groups: mh.ModelGroup) -> mh.Unit:
    return mh.Unit("Target", list(groups), "INFANTRY")


BODYGUARD = mh.ModelGroup(5, 4, 3, 2, name="Guard")
VETERANS = mh.ModelGroup(3, 4, 4, 1, fnp=6, name="Veterans", wounds_lost=0)
LEADER = mh.ModelGroup(1, 4, 2, 5, invuln=4, character=True, name="Leader", wounds_lost=2)
CHAMPION = mh.ModelGroup(1, 4, 3, 4, character=True, name="Champion", fnp_mortal=5)

TARGETS: dict[str, mh.Unit] = {
    "10x W1": _unit(mh.ModelGroup(10, 4, 3, 1)),
    "5x W3, one wounded": _unit(mh.ModelGroup(5, 4, 3, 3, wounds_lost=1)),
    "20x W3": _unit(mh.ModelGroup(20, 4, 3, 3)),
    "4x W3, one wounded": _unit(mh.ModelGroup(4, 5, 2, 3, wounds_lost=2, invuln=5)),
    "6x W2 FNP5+": _unit(mh.ModelGroup(6, 4, 4, 2, fnp=5)),
    "3x W6 halve -1": _unit(mh.ModelGroup(3, 8, 3, 6, halve_damage=True, damage_reduction=1)),
    "5x W1 no save": _unit(mh.ModelGroup(5, 3, 7, 1)),
    "led unit": _unit(BODYGUARD, LEADER),
    "two groups and two leaders": _unit(BODYGUARD, VETERANS, LEADER, CHAMPION),
}
WEAPONS = {
    "D1 AP0": mh.Weapon("D1", 1, 3, 4, 0, 1),
    "D3 AP-1": mh.Weapon("D3", 1, 3, 4, -1, "D3"),
    "D6+1 AP-2": mh.Weapon("D6+1", 1, 3, 5, -2, "D6+1"),
    "2 precision melta": mh.Weapon("P", 1, 3, 5, -1, 2, abilities="[PRECISION], [MELTA 2]"),
}
RULESETS: dict[str, Ruleset] = {
    "11e": get_ruleset("11e"),
    "classic": get_ruleset("classic"),
    "scrambled": Scrambled(),
    "reordered": ReorderedEleventh(),
    "unwounded first": UnwoundedFirst(),
}


def _pre_damage(
    states: tuple[TargetState, Reference], ruleset: Ruleset, rng: np.random.Generator
) -> None:
    """The same random wounds dealt to both states first, some units destroyed."""
    trials = states[1].dead.shape[0]
    for _ in range(12):
        picked = np.flatnonzero(rng.random(trials) < 0.3)
        group = states[1].current(None)[picked]
        picked, group = picked[group >= 0], group[group >= 0]
        wounds = rng.integers(1, 4, size=picked.size)
        for state in states:
            state.lose(picked, group, wounds)


def _save_cases() -> Iterator[Any]:
    for target in TARGETS:
        for weapon in WEAPONS:
            for rules in RULESETS:
                if rules == "classic" and weapon != "D1 AP0":
                    continue  # the classic rules remove one wound per unsaved wound
                yield pytest.param(target, weapon, rules, id=f"{target}-{weapon}-{rules}")


@pytest.mark.parametrize(("target", "weapon", "rules"), list(_save_cases()))
def test_save_dice_equal_the_sorted_walk(target: str, weapon: str, rules: str) -> None:
    ruleset, unit = RULESETS[rules], TARGETS[target]
    shot = WEAPONS[weapon]
    if rules == "classic":
        shot = mh.Weapon(shot.name, 1, strength=shot.strength, ap=-1, damage=1, bs=4)
    checks = ruleset.pool_checks(shot, unit, Context(), Modifiers())
    trials = 3_000
    state, reference = TargetState(unit, trials, ruleset), Reference(unit, trials, ruleset)
    _pre_damage((state, reference), ruleset, np.random.default_rng(SEED))
    count = np.random.default_rng(SEED + 1).integers(0, 16, size=trials)
    fast, literal = np.random.default_rng(SEED), np.random.default_rng(SEED)
    unsaved = saves.save_dice(fast, ruleset, checks, state, count)
    expected = literal_save_dice(literal, ruleset, checks, reference, count)
    assert unsaved.tolist() == expected.tolist()
    assert (state.dead == reference.dead).all() and (state.hurt == reference.hurt).all()
    assert same_place(fast, literal)
    for focus in {None, checks.precision_group}:
        assert state.current(focus).tolist() == reference.current(focus).tolist()


def test_the_one_group_walk_is_taken_only_where_it_applies() -> None:
    walks: list[str] = []

    def spy(name: str, walk: Callable[..., Any]) -> Callable[..., Any]:
        def run(*args: Any) -> Any:
            walks.append(name)
            return walk(*args)

        return run

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(saves, "_lone_group", spy("lone", saves._lone_group))
        patch.setattr(saves, "_in_order", spy("sorted", saves._in_order))
        for rules in ("11e", "scrambled", "reordered"):
            ruleset, unit = RULESETS[rules], TARGETS["20x W3"]
            checks = ruleset.pool_checks(WEAPONS["D1 AP0"], unit, Context(), Modifiers())
            state = TargetState(unit, 10, ruleset)
            saves.save_dice(np.random.default_rng(1), ruleset, checks, state, np.full(10, 3))
    assert walks == ["lone", "sorted", "sorted"]


# ---------------------------------------------------------------- mortal wounds
def literal_devastating(
    rng: np.random.Generator, ruleset: Ruleset, checks: PoolChecks, state: Reference, count: Any
) -> None:
    for k in range(int(count.max()) if count.size else 0):
        group = state.current(checks.precision_group)
        trials = np.flatnonzero((k < count) & (group >= 0))
        if trials.size == 0:
            break
        rolled = checks.damage.roll(rng, trials.size)
        add = np.full(trials.size, checks.damage_add)
        if checks.melta is not None:
            add = add + checks.melta.roll(rng, trials.size)
        d = ruleset.modified_damage(rolled, checks.damage_multiply, add)
        left = _fnp(rng, ruleset, state.unit, group[trials], d, mortal=True)
        state.lose(trials, group[trials], left)


@pytest.mark.parametrize("target", sorted(TARGETS))
@pytest.mark.parametrize("weapon", ["D3 AP-1", "2 precision melta"])
def test_devastating_wounds_equal_the_literal_walk(target: str, weapon: str) -> None:
    ruleset, unit = RULESETS["11e"], TARGETS[target]
    checks = ruleset.pool_checks(WEAPONS[weapon], unit, Context(), Modifiers())
    trials = 2_000
    state, reference = TargetState(unit, trials, ruleset), Reference(unit, trials, ruleset)
    _pre_damage((state, reference), ruleset, np.random.default_rng(SEED))
    count = np.random.default_rng(SEED + 2).integers(0, 8, size=trials)
    fast, literal = np.random.default_rng(SEED), np.random.default_rng(SEED)
    steps.devastating_wounds(fast, ruleset, checks, state, count)
    literal_devastating(literal, ruleset, checks, reference, count)
    assert (state.dead == reference.dead).all() and (state.hurt == reference.hurt).all()
    assert same_place(fast, literal)


@pytest.mark.parametrize("target", sorted(TARGETS))
def test_mortal_wounds_equal_the_literal_walk(target: str) -> None:
    ruleset, unit = RULESETS["11e"], TARGETS[target]
    step = mh.MortalWounds("2D6")
    trials = 2_000
    state, reference = TargetState(unit, trials, ruleset), Reference(unit, trials, ruleset)
    _pre_damage((state, reference), ruleset, np.random.default_rng(SEED))
    fast, literal = np.random.default_rng(SEED), np.random.default_rng(SEED)
    count = steps.mortal_wounds(fast, ruleset, step, state)
    expected = step.amount.roll(literal, trials)
    for k in range(int(expected.max())):
        group = reference.current(None)
        hit = np.flatnonzero((k < expected) & (group >= 0))
        if hit.size == 0:
            break
        one = np.ones(hit.size, dtype=np.int64)
        reference.lose(hit, group[hit], _fnp(literal, ruleset, unit, group[hit], one, True))
    assert count.tolist() == expected.tolist()
    assert (state.dead == reference.dead).all() and (state.hurt == reference.hurt).all()
    assert same_place(fast, literal)


def test_a_sum_of_no_rolls_rolls_nothing() -> None:
    rng, untouched = np.random.default_rng(SEED), np.random.default_rng(SEED)
    assert roll_sum(rng, Dice.parse("D3"), np.zeros(4, dtype=np.int64)).tolist() == [0] * 4
    assert same_place(rng, untouched)


@pytest.mark.parametrize("width", [1, 10, 126, 127, 300])
def test_lookup_reads_what_np_take_reads(width: int) -> None:
    """The byte translation of :func:`lookup` against ``np.take``: every kind of table the
    simulation reads (counts packed below and above the byte's range, booleans,
    categories) and one it must leave to ``np.take`` (fractions), on rolled dice with
    trials short of dice."""
    rng = np.random.default_rng(SEED + width)
    faces = d6(rng, (400, width)) * prefix_mask(rng.integers(0, width + 1, 400), width)
    categories = np.array([0, 0, 1, 1, 1, 2, 2])
    tables = [
        pair_table(categories, width)[0],
        np.array([False, True, True, False, False, False, True]),
        categories,
        np.array([0, 2, 2, 3, 4, 4, 7], dtype=np.float32),
        np.array([0.0, 0.5, 0.25, 1.0, 1.0, 1.0, 1.0]),
    ]
    for table in tables:
        expected = np.take(table, faces)
        got = lookup(table, faces)
        assert got.dtype == expected.dtype and got.shape == expected.shape
        assert np.array_equal(got, expected)


@given(
    count=st.integers(1, 12),
    wounds=st.integers(1, 8),
    amount=st.integers(1, 10),
    trials=st.lists(
        st.tuples(st.integers(0, 12), st.integers(0, 7), st.integers(1, 40)),
        min_size=1,
        max_size=20,
    ),
)
def test_the_certain_walk_is_the_walk_of_each_failed_save(
    count: int, wounds: int, amount: int, trials: list[tuple[int, int, int]]
) -> None:
    """:func:`~mathhammer.montecarlo.saves._certain_walk` against each trial's failed saves
    taken one by one, as the walk of :func:`~mathhammer.montecarlo.saves._lone_group` takes
    them: the current model loses ``amount`` (the excess is lost), a model at 0 wounds is
    destroyed, and the failed saves after the last model are not resolved."""
    rows = [(min(d, count - 1), min(h, wounds - 1), f) for d, h, f in trials]
    dead, hurt, failures = (np.array(column, dtype=np.int64) for column in zip(*rows, strict=True))
    group = mh.ModelGroup(count, 4, 3, wounds)
    got = saves._certain_walk(group, amount, failures, dead.copy(), hurt.copy())
    for i, (d, h, f) in enumerate(rows):
        resolved = 0
        while resolved < f and d < count:
            resolved += 1
            h += amount
            if h >= wounds:
                d, h = d + 1, 0
        assert (got[0][i], got[1][i], got[2][i]) == (d, h, resolved)
