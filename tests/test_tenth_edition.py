"""The 10th-edition ruleset (``rules="10e"``) against a literal oracle of its own.

The oracle below reads the 10th edition as docs/rules.md §6 states it and enumerates every
die face with exact Fractions: every hit die, every wound die, then the wounding attacks
**one at a time**, each allocated to the current model (a model that has lost wounds first,
the bodyguard before a CHARACTER) and saved against that model's Sv and InSv, its damage
rolled and lost by that model, excess lost; devastating wounds after the other attacks.
Nothing of the engine is used. The cases are small (four attacks at most) and most have
two allocation groups whose saves differ, where resolving the saves one attack at a time
(10e) and sorted from the lowest (11e) give different answers.

The engines are also checked against each other (Monte Carlo within 5 sigma and the DKW
band, fixed seeds), and one-group cases against an independent computation with icepool.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

import icepool
import numpy as np
import pytest
from statcheck import assert_matches, seed_for

import mathhammer as mh

TOL = 1e-12
SIXTH = Fraction(1, 6)
PMF = dict[int, Fraction]
#: Each group's models' wounds left, in allocation order.
State = tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class Gun:
    """One pool of ``attacks`` attack dice, its abilities as flags."""

    attacks: int
    skill: int
    strength: int
    ap: int
    damage: tuple[int, ...] = (1,)  # the faces of D, equally likely: (1, 2, 3) is D3
    sustained: int = 0
    lethal: bool = False
    devastating: bool = False
    torrent: bool = False
    heavy: bool = False
    indirect: bool = False
    melta: int = 0

    def weapon(self) -> mh.Weapon:
        damage = {(1,): "1", (2,): "2", (3,): "3", (1, 2, 3): "D3"}[self.damage]
        flags = [
            (self.sustained, f"[SUSTAINED HITS {self.sustained}]"),
            (self.lethal, "[LETHAL HITS]"),
            (self.devastating, "[DEVASTATING WOUNDS]"),
            (self.torrent, "[TORRENT]"),
            (self.heavy, "[HEAVY]"),
            (self.indirect, "[INDIRECT FIRE]"),
            (self.melta, f"[MELTA {self.melta}]"),
        ]
        abilities = ", ".join(text for on, text in flags if on)
        return mh.Weapon("Gun", self.attacks, self.skill, self.strength, self.ap, damage, abilities)


@dataclass(frozen=True)
class Group:
    count: int
    save: int
    wounds: int
    invuln: int | None = None
    character: bool = False
    halve: bool = False

    def model_group(self, i: int) -> mh.ModelGroup:
        return mh.ModelGroup(
            self.count, 4, self.save, self.wounds, invuln=self.invuln,
            character=self.character, name=f"g{i}", halve_damage=self.halve,
        )  # fmt: skip


@dataclass(frozen=True)
class Case:
    gun: Gun
    groups: tuple[Group, ...]
    half_range: bool = False
    stationary: bool = False
    cover: bool = False
    stealth: bool = False
    keywords: tuple[str, ...] = field(default=())

    def unit(self) -> mh.Unit:
        groups = [g.model_group(i) for i, g in enumerate(self.groups)]
        return mh.Unit("Target", groups, list(self.keywords), stealth=self.stealth)

    def context(self) -> mh.Context:
        return mh.Context(
            half_range=self.half_range,
            remained_stationary=self.stationary,
            target_in_cover=self.cover,
        )


# ---------------------------------------------------------------- the oracle, literally
def _add(pmf: dict[object, Fraction], key: object, p: Fraction) -> None:
    pmf[key] = pmf.get(key, Fraction(0)) + p


def _wound_needed(strength: int, toughness: int) -> int:
    if strength >= 2 * toughness:
        return 2
    if strength > toughness:
        return 3
    if strength == toughness:
        return 4
    return 6 if 2 * strength <= toughness else 5


def _hit(case: Case, face: int) -> str:
    """A hit die read by the 10th edition: "miss", "hit" or "crit"."""
    gun = case.gun
    modifier = (1 if gun.heavy and case.stationary else 0) - (1 if case.stealth else 0)
    modifier -= 1 if gun.indirect else 0
    modifier = max(-1, min(1, modifier))
    fails_up_to = 3 if gun.indirect else 1
    if face <= fails_up_to:
        return "miss"
    if face == 6:
        return "crit"
    return "hit" if face + modifier >= gun.skill else "miss"


def _wound(gun: Gun, face: int) -> tuple[int, int]:
    """(normal wounds, devastating wounds) of one wound die."""
    if face == 1:
        return 0, 0
    if face == 6:
        return (0, 1) if gun.devastating else (1, 0)
    return (1, 0) if face >= _wound_needed(gun.strength, 4) else (0, 0)


def _hits_to_wounds(gun: Gun, hits: int) -> dict[tuple[int, int], Fraction]:
    """(normal, devastating) wounds of ``hits`` wound dice, every face enumerated."""
    out: dict[tuple[int, int], Fraction] = {(0, 0): Fraction(1)}
    for _ in range(hits):
        step: dict[tuple[int, int], Fraction] = {}
        for (n, m), p in out.items():
            for face in range(1, 7):
                dn, dm = _wound(gun, face)
                _add(step, (n + dn, m + dm), p * SIXTH)  # type: ignore[arg-type]
        out = step
    return out


def _one_attack(case: Case) -> dict[tuple[int, int], Fraction]:
    """(normal, devastating) wounds of one attack die."""
    gun = case.gun
    hit_faces = [("hit", Fraction(1))] if gun.torrent else [
        (_hit(case, f), SIXTH) for f in range(1, 7)
    ]  # fmt: skip
    out: dict[tuple[int, int], Fraction] = {}
    for result, p in hit_faces:
        rolled = {"miss": 0, "hit": 1, "crit": 1 + gun.sustained}[result]
        automatic = 1 if result == "crit" and gun.lethal else 0  # a crit wounds at once
        for (n, m), q in _hits_to_wounds(gun, rolled - automatic).items():
            _add(out, (n + automatic, m), p * q)  # type: ignore[arg-type]
    return out


def _wound_events(case: Case) -> dict[tuple[int, int], Fraction]:
    out: dict[tuple[int, int], Fraction] = {(0, 0): Fraction(1)}
    one = _one_attack(case)
    for _ in range(case.gun.attacks):
        step: dict[tuple[int, int], Fraction] = {}
        for (n, m), p in out.items():
            for (dn, dm), q in one.items():
                _add(step, (n + dn, m + dm), p * q)  # type: ignore[arg-type]
        out = step
    return out


def _current(case: Case, state: State) -> tuple[int, int] | None:
    """(group, model) of the current model: the bodyguard's groups in order, then the
    CHARACTERs; in a group, a model that has lost wounds first."""
    order = sorted(range(len(case.groups)), key=lambda g: case.groups[g].character)
    for g in order:
        alive = [i for i, left in enumerate(state[g]) if left > 0]
        if alive:
            wounded = [i for i in alive if state[g][i] < case.groups[g].wounds]
            return g, (wounded or alive)[0]
    return None


def _saved(case: Case, group: Group, face: int) -> bool:
    if face == 1:
        return False
    if group.invuln is not None and face >= group.invuln:
        return True
    ap = case.gun.ap
    in_cover = case.cover or case.gun.indirect  # [INDIRECT FIRE] gives the target cover
    cover = 1 if in_cover and not (group.save <= 3 and ap == 0) else 0
    return face + ap + cover >= group.save


def _damage(case: Case, group: Group, face: int) -> int:
    """The damage of one attack: halved (the defender), then Melta added, rounded up."""
    melta = case.gun.melta if case.half_range else 0
    value = Fraction(face, 2 if group.halve else 1) + melta
    return max(1, math.ceil(value))


def _lose(state: State, g: int, i: int, wounds: int) -> State:
    group = list(state[g])
    group[i] = max(0, group[i] - wounds)
    return (*state[:g], tuple(group), *state[g + 1 :])


def _one_wound(case: Case, states: dict[State, Fraction], saving: bool) -> dict[State, Fraction]:
    """Every state after one more wounding attack, resolved on its own: a save die (none
    for a devastating wound), then its damage to the current model."""
    faces = case.gun.damage
    out: dict[State, Fraction] = {}
    for state, p in states.items():
        now = _current(case, state)
        if now is None:  # the unit is destroyed: the attack is lost
            _add(out, state, p)  # type: ignore[arg-type]
            continue
        g, i = now
        group = case.groups[g]
        for face in range(1, 7) if saving else (0,):
            chance = p * (SIXTH if saving else 1)
            if saving and _saved(case, group, face):
                _add(out, state, chance)  # type: ignore[arg-type]
                continue
            for d in faces:
                lost = _damage(case, group, d)
                _add(out, _lose(state, g, i, lost), chance / len(faces))  # type: ignore[arg-type]
    return out


def oracle(case: Case) -> tuple[PMF, PMF]:
    """The models destroyed and the wounds lost, every die enumerated."""
    start: State = tuple((g.wounds,) * g.count for g in case.groups)
    killed: PMF = {}
    lost: PMF = {}
    total = sum(g.wounds * g.count for g in case.groups)
    for (n, m), p in _wound_events(case).items():
        states = {start: Fraction(1)}
        for _ in range(n):
            states = _one_wound(case, states, saving=True)
        for _ in range(m):  # devastating wounds: after the other attacks, no save
            states = _one_wound(case, states, saving=False)
        for state, q in states.items():
            dead = sum(left == 0 for group in state for left in group)
            _add(killed, dead, p * q)  # type: ignore[arg-type]
            _add(lost, total - sum(sum(group) for group in state), p * q)  # type: ignore[arg-type]
    return killed, lost


def _close(got: mh.Dist, expected: PMF) -> None:
    size = max(len(got.probabilities), max(expected) + 1)
    want = np.zeros(size)
    for k, p in expected.items():
        want[k] = float(p)
    have = np.zeros(size)
    have[: len(got.probabilities)] = got.probabilities
    np.testing.assert_allclose(have, want, rtol=0, atol=TOL)


# ---------------------------------------------------------------- the cases
MIXED = (Group(3, 6, 1), Group(2, 2, 2))
CASES = {
    "mixed saves": Case(Gun(4, 3, 4, -1), MIXED),
    "an invulnerable CHARACTER and D3": Case(
        Gun(3, 3, 5, -3, (1, 2, 3)), (Group(2, 3, 2), Group(1, 2, 3, invuln=4, character=True))
    ),
    "cover: none for a 3+ against AP 0": Case(
        Gun(4, 3, 4, 0), (Group(2, 4, 1), Group(2, 3, 1)), cover=True
    ),
    "cover at AP -2 on a 2+ (a roll modifier)": Case(
        Gun(3, 3, 4, -2, (2,)), (Group(1, 5, 1), Group(2, 2, 2)), cover=True
    ),
    "Stealth, and Heavy when stationary": Case(
        Gun(3, 4, 4, -1, heavy=True), MIXED, stationary=True, stealth=True
    ),
    "Stealth alone": Case(Gun(3, 3, 4, -1), MIXED, stealth=True),
    "Indirect Fire": Case(Gun(4, 3, 4, 0, indirect=True), (Group(2, 4, 1), Group(2, 3, 1))),
    "Sustained and Lethal Hits": Case(Gun(3, 4, 4, -1, sustained=1, lethal=True), MIXED),
    "Devastating Wounds": Case(
        Gun(3, 3, 4, -1, (2,), devastating=True), (Group(2, 6, 1), Group(1, 3, 3))
    ),
    "halved damage and Melta": Case(
        Gun(2, 3, 8, -2, (1, 2, 3), melta=2),
        (Group(1, 6, 3, halve=True), Group(1, 3, 4, halve=True)),
        half_range=True,
    ),
    "Torrent": Case(Gun(3, 3, 4, -1, torrent=True), MIXED),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_exact_engine_agrees_with_the_literal_oracle(name: str) -> None:
    case = CASES[name]
    result = mh.attack(case.gun.weapon(), case.unit(), rules="10e", context=case.context())
    killed, lost = oracle(case)
    _close(result.killed, killed)
    _close(result.damage, lost)


def test_saves_one_attack_at_a_time_differ_from_sorted_saves() -> None:
    # sorted (11e), the lowest dice meet the 5+ bodyguard and the highest the 3+ models;
    # one at a time (10e), each die meets its model whatever it shows: more kills
    unit = mh.Unit("Mixed", [mh.ModelGroup(2, 4, 5, 1, name="a"), mh.ModelGroup(3, 4, 3, 1)])
    gun = mh.Weapon("Gun", 10, 3, 4, 0, 1)
    tenth = mh.attack(gun, unit, rules="10e")
    eleventh = mh.attack(gun, unit, rules="11e")
    assert tenth.rules == "10e" and eleventh.rules == "11e"
    assert tenth.killed.mean() > eleventh.killed.mean() + 0.05
    oracle_case = Case(Gun(4, 3, 4, 0), (Group(2, 5, 1), Group(3, 3, 1)))
    killed, _ = oracle(oracle_case)
    _close(mh.attack(oracle_case.gun.weapon(), oracle_case.unit(), rules="10e").killed, killed)


@pytest.mark.parametrize("save", [2, 3, 4, 6])
def test_against_one_group_the_two_editions_agree_without_their_differences(save: int) -> None:
    gun = mh.Weapon("Gun", 6, 3, 5, -1, "D3", "[SUSTAINED HITS 1]")
    unit = mh.Unit.of("Squad", 4, 4, save, 2, invuln=5)
    tenth = mh.attack(gun, unit, rules="10e")
    eleventh = mh.attack(gun, unit, rules="11e")
    np.testing.assert_allclose(tenth.killed.probabilities, eleventh.killed.probabilities,
                               rtol=0, atol=TOL)  # fmt: skip


def test_the_tenth_edition_orders_damage_modifiers_its_own_way() -> None:
    rules = mh.get_ruleset("10e")
    # divide before adding, round at the end: 5 / 2 + 2 = 4.5 -> 5 (11e: (5 + 2) / 2 -> 4)
    assert int(rules.modified_damage(5, add=2, halve=True)) == 5
    assert int(mh.get_ruleset("11e").modified_damage(5, add=2, halve=True)) == 4
    assert rules.modified_damage(np.arange(1, 7), multiply=2, subtract=1).tolist() == [
        1, 3, 5, 7, 9, 11,
    ]  # fmt: skip
    assert rules.hazard_fails(np.arange(1, 7)).tolist() == [True] + [False] * 5
    assert rules.hazard_wounds(mh.Context()) == 3


def test_eleventh_edition_choices_are_refused_under_the_tenth() -> None:
    gun = mh.Weapon("Gun", 2, 3, 4, 0, 1, "[LETHAL HITS]")
    unit = mh.Unit.of("Squad", 5, 4, 4, 1)
    with pytest.raises(mh.RulesError, match=r"Context\(lethal_hits\) has no effect"):
        mh.attack(gun, unit, rules="10e", context=mh.Context(lethal_hits="roll"))
    with pytest.raises(mh.RulesError, match=r"Context\(moved_at_most_3\) has no effect"):
        mh.attack(gun, unit, rules="10e", context=mh.Context(moved_at_most_3=True))


def test_cleave_is_not_a_tenth_edition_ability() -> None:
    axe = mh.Weapon("Axe", 2, 3, 5, -1, 1, "[CLEAVE 1]", melee=True)
    plain = mh.Weapon("Axe", 2, 3, 5, -1, 1, melee=True)
    horde = mh.Unit.of("Horde", 10, 4, 6, 1)
    got = mh.attack(axe, horde, rules="10e", context=mh.Context(melee=True))
    want = mh.attack(plain, horde, rules="10e", context=mh.Context(melee=True))
    assert got.killed.mean() == pytest.approx(want.killed.mean(), abs=TOL)
    assert mh.attack(axe, horde, context=mh.Context(melee=True)).killed.mean() > (
        want.killed.mean() + 0.1
    )


@pytest.mark.parametrize(
    "name", ["mixed saves", "an invulnerable CHARACTER and D3", "Devastating Wounds"]
)
def test_exact_equals_monte_carlo(name: str) -> None:
    case = CASES[name]
    unit, gun, context = case.unit(), case.gun.weapon(), case.context()
    trials = 60_000
    exact = mh.attack([(gun, 3)], unit, rules="10e", context=context)
    sim = mh.simulate(
        [(gun, 3)], unit, rules="10e", context=context, trials=trials, rng=seed_for("10e", name)
    )
    assert_matches(f"10e {name} killed", exact.killed, sim.killed, trials)
    assert_matches(f"10e {name} damage", exact.damage, sim.damage, trials)
    for mine, theirs in zip(exact.groups, sim.groups, strict=True):
        assert_matches(f"10e {name} {mine.label}", mine.killed, theirs.killed, trials)
    for stage in ("hits", "wounds", "unsaved", "devastating"):  # the failed saves too
        got, rolled = getattr(exact.pools[0], stage), getattr(sim.pools[0], stage)
        assert_matches(f"10e {name} {stage}", got, rolled, trials)


def _mixed(reroll: str | None) -> mh.Unit:
    groups = [mh.ModelGroup(3, 4, 5, 1, name="a"), mh.ModelGroup(2, 4, 3, 2, name="b")]
    return mh.Unit("Mixed", groups, reroll_saves=reroll)


@pytest.mark.parametrize("reroll", ["failures", "ones", "command"])
def test_exact_equals_monte_carlo_with_save_rerolls(reroll: str) -> None:
    gun = mh.Weapon("Gun", 4, 3, 4, -1, 1)
    trials = 60_000
    exact = mh.attack([(gun, 3)], _mixed(reroll), rules="10e")
    sim = mh.simulate(
        [(gun, 3)], _mixed(reroll), rules="10e", trials=trials, rng=seed_for("10e", reroll)
    )
    assert_matches(f"10e re-rolled saves ({reroll}) killed", exact.killed, sim.killed, trials)
    plain = mh.attack([(gun, 3)], _mixed(None), rules="10e")
    assert exact.killed.mean() < plain.killed.mean()


# ---------------------------------------------------------------- icepool, side by side
def _icepool_killed(
    attacks: int, skill: int, needed: int, ap: int, save: int, damage: int, wounds: int,
    models: int, *, sustained: int = 0, lethal: bool = False, devastating: bool = False,
    twin: bool = False,
) -> PMF:  # fmt: skip
    """Models destroyed of one group by a fixed-damage weapon, computed with icepool's
    dice algebra: each attack's failed saves (and devastating wounds) summed over the
    attacks; each model takes ``ceil(W / D)`` of them, excess lost."""
    d6 = icepool.d6

    def unsaved(face: int) -> int:
        return 1 if face == 1 or face + ap < save else 0

    fail = d6.map(unsaved)

    def wound(face: int) -> str:
        return "crit" if face == 6 else "wound" if face != 1 and face >= needed else "fail"

    def per_wound_die(face: int) -> icepool.Die[int] | int:
        outcome = wound(face)
        if outcome == "fail":
            return 0
        return 1 if outcome == "crit" and devastating else fail

    per_hit = d6.map(per_wound_die)
    if twin:
        per_hit = d6.map(
            lambda f: d6.map(per_wound_die) if wound(f) == "fail" else per_wound_die(f)
        )

    def per_attack_die(face: int) -> icepool.Die[int] | int:
        if face == 1 or (face != 6 and face < skill):
            return 0
        if face != 6:
            return per_hit
        first = fail if lethal else per_hit
        return first + sustained @ per_hit if sustained else first

    total = attacks @ d6.map(per_attack_die)
    each = math.ceil(wounds / damage)
    killed = total.map(lambda t: min(t // each, models))
    denominator = killed.denominator()
    return {int(k): Fraction(q, denominator) for k, q in killed.items()}


ICEPOOL_CASES = {
    "bolters against marines": (
        mh.Weapon("Bolter", 10, 3, 4, -1, 1), mh.Unit.of("Marines", 5, 4, 3, 2),
        dict(attacks=10, skill=3, needed=4, ap=-1, save=3, damage=1, wounds=2, models=5),
    ),
    "sustained lethal into a horde": (
        mh.Weapon("Gun", 8, 4, 4, 0, 1, "[SUSTAINED HITS 1], [LETHAL HITS]"),
        mh.Unit.of("Horde", 10, 4, 5, 1),
        dict(attacks=8, skill=4, needed=4, ap=0, save=5, damage=1, wounds=1, models=10,
             sustained=1, lethal=True),
    ),
    "devastating twin-linked into terminators": (
        mh.Weapon("Lance", 6, 3, 6, -2, 2, "[DEVASTATING WOUNDS], [TWIN-LINKED]"),
        mh.Unit.of("Terminators", 4, 5, 2, 3),
        dict(attacks=6, skill=3, needed=3, ap=-2, save=2, damage=2, wounds=3, models=4,
             devastating=True, twin=True),
    ),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(ICEPOOL_CASES))
def test_one_group_cases_agree_with_icepool(name: str) -> None:
    weapon, unit, spec = ICEPOOL_CASES[name]
    expected = _icepool_killed(**spec)  # type: ignore[arg-type]
    for rules in ("10e", "11e"):  # one group, no rule of the two editions' differences
        _close(mh.attack(weapon, unit, rules=rules).killed, expected)


@pytest.mark.parametrize("step", ["damage", "wound"])
def test_exact_equals_monte_carlo_with_a_command_reroll(step: str) -> None:
    # the attacker's command re-roll: of a damage roll, on the chain's doubled states
    unit = mh.Unit("Mixed", [mh.ModelGroup(2, 4, 5, 3, name="a"), mh.ModelGroup(2, 4, 3, 3)])
    gun = mh.Weapon("Gun", 3, 3, 5, -1, "D3")
    modifiers, trials = mh.Modifiers(reroll_one=step), 60_000
    exact = mh.attack([(gun, 2)], unit, rules="10e", modifiers=modifiers)
    sim = mh.simulate([(gun, 2)], unit, rules="10e", modifiers=modifiers, trials=trials,
                      rng=seed_for("10e command", step))  # fmt: skip
    assert_matches(f"10e command {step} killed", exact.killed, sim.killed, trials)
    assert_matches(f"10e command {step} damage", exact.damage, sim.damage, trials)
