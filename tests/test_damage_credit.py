"""Damage credit: the wounds each allocation group lost, and the points they are worth.

Against a vehicle or a monster the models destroyed are nearly always 0, so a table of
kills and points destroyed shows nothing; ``points_of_damage`` spreads each model's
points over its wounds, so that every wound lost earns its share. Each group's wounds
lost are checked against the brute-force oracle (``tests/oracle.py``), which tracks every
model's wounds; the points are then derived by hand from those.
"""

from __future__ import annotations

import itertools
import sys
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import mathhammer as mh
from mathhammer import ModelGroup, Unit, Weapon
from mathhammer.results.attack import GroupResult
from mathhammer.results.columns import attack_columns, columns_frame
from mathhammer.units.compare import Loadout
from mathhammer.units.targets import Target

sys.path.insert(0, str(Path(__file__).parent))
from oracle import ATOL, OracleResult, assert_pmf, oracle_attack  # noqa: E402

PMF = dict[int, Fraction]


def gun(
    attacks: int | str = 1,
    skill: int = 3,
    strength: int = 4,
    ap: int = 0,
    damage: Any = 1,
    abilities: str = "",
) -> Weapon:
    return Weapon("gun", attacks, skill, strength, ap, damage, abilities)


def body(count: int, save: int, wounds: int, **kw: Any) -> ModelGroup:
    return ModelGroup(count, kw.pop("toughness", 4), save, wounds, **kw)


def leader(save: int, wounds: int, name: str, **kw: Any) -> ModelGroup:
    return ModelGroup(1, kw.pop("toughness", 4), save, wounds, character=True, name=name, **kw)


#: (id, weapons, unit, points of each group): damage above 1 (the excess is lost), random
#: damage, Feel No Pain, wounded models, several pools, mortal wounds, two CHARACTERs.
CASES = [
    ("one-group-D2-vs-W3", [(gun(skill=3, strength=5, ap=-1, damage=2), 4)], [body(2, 3, 3)],
     (60,)),
    ("bodyguard-then-leader-D2", [(gun(skill=2, strength=8, ap=-3, damage=2), 5)],
     [body(2, 3, 2), leader(2, 4, "Captain", invuln=4)], (40, 70)),
    ("randD-D3-W1-then-W2", [(gun(skill=2, strength=8, ap=-1, damage="D3"), 4)],
     [body(1, 3, 1), body(1, 3, 2)], (15, 35)),
    ("fnp-only-on-second-group", [(gun(skill=2, strength=8, ap=-1, damage=2), 4)],
     [body(1, 3, 1), body(1, 4, 3, fnp=4)], (10, 45)),
    ("wounded-first-model", [(gun(skill=3, strength=5, ap=-1), 4)],
     [body(2, 3, 2, wounds_lost=1), body(1, 4, 1)], (50, 20)),
    ("two-pools-state-carries-over", [(gun(ap=-1), 3), (gun(strength=7, ap=-2, damage=2), 2)],
     [body(2, 3, 2), body(1, 4, 1)], (36, 12)),
    ("mortal-wounds-spill-over", [(gun(strength=5, damage=2), 2), mh.MortalWounds("D3")],
     [body(1, 4, 2), leader(3, 2, "Boss")], (30, 50)),
    ("wounded-character-before-unwounded", [(gun(skill=2, strength=8, ap=-2, damage=2), 4)],
     [body(1, 3, 1), leader(3, 4, "Captain", invuln=5, wounds_lost=2),
      leader(4, 3, "Ancient")], (10, 80, 45)),
]  # fmt: skip
IDS = [case[0] for case in CASES]


def start_wounds(group: ModelGroup) -> int:
    return group.count * group.wounds - group.wounds_lost


def oracle_lost(oracle: OracleResult, unit: Unit) -> list[PMF]:
    """Wounds each group lost, from the oracle's final states (every model's wounds left)."""
    out: list[PMF] = [{} for _ in unit.groups]
    for state, p in oracle.states.items():
        for g, group in enumerate(unit.groups):
            lost = start_wounds(group) - sum(state[g])
            out[g][lost] = out[g].get(lost, Fraction(0)) + p
    return out


def mean(pmf: PMF) -> Fraction:
    return sum((k * p for k, p in pmf.items()), Fraction(0))


@pytest.mark.parametrize(("name", "weapons", "groups", "points"), CASES, ids=IDS)
def test_each_group_loses_what_the_oracle_says(
    name: str, weapons: Any, groups: list[ModelGroup], points: tuple[int, ...]
) -> None:
    unit = Unit(name, groups)
    res = mh.attack(weapons, unit)
    expected = oracle_lost(oracle_attack(weapons, unit), unit)
    for g, (group, want) in enumerate(zip(res.groups, expected, strict=True)):
        assert group.damage is not None
        assert_pmf(group.damage.probabilities, want, f"{name}: group {g}")
    # the groups' wounds lost add up to the unit's
    total = sum(g.damage.mean() for g in res.groups if g.damage is not None)
    assert total == pytest.approx(res.damage.mean(), abs=ATOL)


@pytest.mark.parametrize(("name", "weapons", "groups", "points"), CASES, ids=IDS)
def test_points_of_damage_spread_each_models_points_over_its_wounds(
    name: str, weapons: Any, groups: list[ModelGroup], points: tuple[int, ...]
) -> None:
    unit = Unit(name, groups)
    target = Target(unit, group_points=points)
    lost = oracle_lost(oracle_attack(weapons, unit), unit)
    expected = sum(
        (
            Fraction(p, g.count * g.wounds) * mean(pmf)
            for p, g, pmf in zip(points, groups, lost, strict=True)
        ),
        Fraction(0),
    )
    got = target.points_of_damage(mh.attack(weapons, unit))
    assert got is not None and abs(got - float(expected)) <= ATOL


def test_a_single_w10_vehicle_earns_10_points_a_wound() -> None:
    # 3 automatic hits, S20 against T10 wounds on 2+ (5/6), AP -1 against Sv 3+ fails on
    # 1-3 (1/2): each attack takes D6 wounds with P = 5/12; the model has 10 to lose.
    tank = Target(Unit("Tank", [ModelGroup(1, 10, 3, 10)], keywords="VEHICLE"), points=100)
    lance = gun(attacks=1, skill=2, strength=20, ap=-1, damage="D6", abilities="[TORRENT]")
    res = mh.attack([(lance, 3)], tank.unit)
    miss = Fraction(7, 12)
    faces = [(0, miss)] + [(d, Fraction(5, 12) / 6) for d in range(1, 7)]
    capped = Fraction(0)
    destroyed = Fraction(0)
    for rolls in itertools.product(faces, repeat=3):
        p = Fraction(1)
        for _, q in rolls:
            p *= q
        total = sum(d for d, _ in rolls)
        capped += p * min(total, 10)
        destroyed += p * (total >= 10)
    assert abs(tank.points_of_damage(res) - float(10 * capped)) <= ATOL  # type: ignore[operator]
    assert abs(tank.points_destroyed(res) - float(100 * destroyed)) <= ATOL  # type: ignore[operator]
    # 42.36 points of damage where only 9.58 points are destroyed on average
    assert (round(float(10 * capped), 2), round(float(100 * destroyed), 2)) == (42.36, 9.58)


@pytest.mark.parametrize("target", mh.targets.STANDARD, ids=lambda t: t.name)
def test_damage_is_worth_at_least_the_models_it_destroys(target: Target) -> None:
    plasma = gun(attacks=2, skill=3, strength=8, ap=-3, damage=2)
    res = mh.attack([(plasma, 5)], target.unit)
    damage, destroyed = target.points_of_damage(res), target.points_destroyed(res)
    assert damage is not None and destroyed is not None
    if all(g.wounds <= 2 for g in target.unit.groups):  # each wound lost destroys a model
        assert damage == pytest.approx(destroyed, abs=1e-9)
    else:
        assert damage > destroyed


def test_the_column_sits_beside_points_destroyed_and_credits_a_vehicle() -> None:
    # the trial's case: a heavy weapon cannot destroy a W12 vehicle (7 wounds at most)
    lascannon = gun(attacks=1, skill=3, strength=12, ap=-3, damage="D6+1")
    loadout = Loadout("Lascannon", [(lascannon, 1)], points=60)
    tank = mh.targets.get("Vehicle")
    res = mh.attack(loadout.weapons, tank.unit)
    row = attack_columns(res, target=tank, loadout=loadout)
    names = list(row)
    assert names.index("points_of_damage") == names.index("points_destroyed") + 1
    assert row["points_destroyed"] == 0.0 and row["p_at_least_1"] == 0.0
    per_wound = tank.points / tank.unit.groups[0].wounds  # type: ignore[operator]
    assert row["points_of_damage"] == pytest.approx(per_wound * res.damage.mean(), abs=1e-12)
    assert row["points_of_damage"] > 10
    frame = mh.compare({"Lascannon": loadout}, mh.targets.STANDARD)
    assert frame.points_of_damage.notna().all() and (frame.points_of_damage > 0).all()
    no_price = attack_columns(res, target=Target(tank.unit))
    assert "points_of_damage" not in no_price and "points_of_damage" not in attack_columns(res)


def test_a_price_per_group_goes_to_the_models_hit() -> None:
    # Every unsaved wound of damage 1 lands on the bodyguard first: 5 W2 bodyguards worth
    # 100 points take 10 wounds at 10 points each before the 80-point W5 Leader is hit.
    led = mh.targets.get("Character-led unit")
    sure = gun(attacks=1, skill=2, strength=8, ap=-4, damage=1, abilities="[TORRENT]")
    res = mh.attack([(sure, 6)], led.unit)  # 6 wounds at most: the Leader is never hit
    assert led.points_of_damage(res) == pytest.approx(10 * res.damage.mean(), abs=1e-12)
    assert Target(led.unit, points=180).points_of_damage(res) == pytest.approx(
        180 / 6 / 2 * res.damage.mean(), abs=1e-12
    )


def test_the_monte_carlo_credits_damage_alike() -> None:
    led = mh.targets.get("Character-led unit")
    plasma = gun(attacks=2, skill=3, strength=8, ap=-3, damage=2)
    exact = mh.attack([(plasma, 4)], led.unit)
    sim = mh.simulate([(plasma, 4)], led.unit, trials=20_000, rng=7)
    assert all(g.damage is not None for g in sim.groups)
    # the points of one attack, as a function of the unit's wounds lost
    lost = np.arange(exact.damage.n + 1)
    per_wound = np.array([10.0, 16.0])
    worth = np.minimum(lost, 10) * per_wound[0] + np.clip(lost - 10, 0, 5) * per_wound[1]
    mean = float(worth @ exact.damage.probabilities)
    sd = float(np.sqrt(((worth - mean) ** 2) @ exact.damage.probabilities))
    assert led.points_of_damage(exact) == pytest.approx(mean, abs=1e-12)
    got = led.points_of_damage(sim)
    assert got is not None and abs(got - mean) < 5 * sd / np.sqrt(sim.trials)


def _precise(res: mh.AttackResult) -> mh.AttackResult:
    """The same result as an engine that records no group's wounds lost would give it."""
    return replace(res, groups=tuple(GroupResult(g.group, g.killed) for g in res.groups))


def test_with_precision_the_groups_wounds_are_not_guessed() -> None:
    # [PRECISION] wounds the CHARACTER while the bodyguard lives: the unit's wounds lost
    # no longer tell each group's, so without a record there is no points_of_damage.
    unit = Unit("Led", [body(1, 3, 2), leader(3, 2, "Boss")])
    target = Target(unit, group_points=(20, 60))
    sniper = gun(attacks=1, skill=2, strength=8, ap=-1, damage=1, abilities="[PRECISION]")
    res = mh.attack([(sniper, 3)], unit)
    unrecorded = _precise(res)
    assert [g.damage for g in unrecorded.groups] == [None, None]
    assert target.points_of_damage(unrecorded) is None
    assert "points_of_damage" not in attack_columns(unrecorded, target=target)
    # what an engine records is kept as it is
    first = GroupResult(unit.groups[0], res.groups[0].killed, mh.Dist.constant(1))
    recorded = replace(unrecorded, groups=(first, *unrecorded.groups[1:]))
    assert recorded.groups[0].damage == mh.Dist.constant(1) and recorded.groups[1].damage is None
    # the exact engine records them, and they are the oracle's
    expected = oracle_lost(oracle_attack([(sniper, 3)], unit), unit)
    for group, want in zip(res.groups, expected, strict=True):
        assert group.damage is not None
        assert_pmf(group.damage.probabilities, want)
    assert target.points_of_damage(res) is not None


def test_a_lone_model_needs_no_record() -> None:
    # one group: its wounds lost are the unit's, whatever the abilities
    boss = Unit("Boss", [leader(3, 5, "Boss")])
    sniper = gun(attacks=2, skill=2, strength=8, ap=-1, damage=2, abilities="[PRECISION]")
    res = _precise(mh.attack([(sniper, 3)], boss))
    assert res.groups[0].damage == res.damage
    assert Target(boss, points=100).points_of_damage(res) == pytest.approx(
        20 * res.damage.mean(), abs=1e-12
    )


def test_a_table_keeps_points_of_damage_as_floats() -> None:
    # a price with nothing missing is still a float column, as a table with gaps has it
    rows: list[dict[str, Any]] = [{"target": "A", "points_of_damage": 5}]
    assert columns_frame(rows).points_of_damage.dtype == np.float64
