"""The questions a result answers directly: does the CHARACTER die, what does [HAZARDOUS]
cost the attacker, how many models are left; and every answer is a Python number.

Values are derived by hand or read off the brute-force oracle (``tests/oracle.py``),
which tracks every model of the target and the attacker's hazard rolls.
"""

from __future__ import annotations

import math
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import mathhammer as mh
from mathhammer import ModelGroup, Unit, Weapon
from mathhammer.results.columns import attack_columns, columns_frame
from mathhammer.units.compare import Loadout
from mathhammer.units.targets import Target

sys.path.insert(0, str(Path(__file__).parent))
from oracle import ATOL, OracleResult, oracle_attack  # noqa: E402


def gun(
    attacks: int | str = 1,
    skill: int = 3,
    strength: int = 4,
    ap: int = 0,
    damage: Any = 1,
    abilities: str = "",
) -> Weapon:
    return Weapon("gun", attacks, skill, strength, ap, damage, abilities)


def leader(save: int, wounds: int, name: str, **kw: Any) -> ModelGroup:
    return ModelGroup(1, 4, save, wounds, character=True, name=name, **kw)


def oracle_character_killed(oracle: OracleResult, unit: Unit) -> Fraction:
    """P(some CHARACTER group has no model left), from the oracle's final states."""
    characters = [g for g, group in enumerate(unit.groups) if group.character]
    return sum(
        (p for state, p in oracle.states.items() if any(not state[g] for g in characters)),
        Fraction(0),
    )


# ----------------------------------------------------------------------- the CHARACTER

CHARACTER_CASES = [
    ("leader-behind-bodyguard", [(gun(skill=2, strength=8, ap=-2, damage=2), 5)],
     [ModelGroup(2, 4, 3, 2), leader(3, 3, "Captain", invuln=5)], None),
    ("precision-reaches-the-leader", [(gun(skill=2, strength=8, ap=-1, damage=2,
                                           abilities="[PRECISION]"), 3)],
     [ModelGroup(2, 4, 3, 2), leader(3, 3, "Captain")], None),
    ("two-characters-in-order", [(gun(skill=2, strength=8, ap=-2, damage=2), 5)],
     [ModelGroup(1, 4, 3, 1), leader(3, 4, "Captain", wounds_lost=2), leader(4, 2, "Ancient")],
     None),
    ("precision-picks-the-second-character", [(gun(skill=2, strength=8, ap=-1,
                                                   abilities="[PRECISION]"), 3)],
     [ModelGroup(1, 4, 3, 1), leader(3, 2, "Captain"), leader(4, 1, "Ancient")], "Ancient"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("name", "weapons", "groups", "focus"), CHARACTER_CASES, ids=[c[0] for c in CHARACTER_CASES]
)
def test_p_character_killed_is_the_oracles(
    name: str, weapons: Any, groups: list[ModelGroup], focus: str | None
) -> None:
    unit = Unit(name, groups)
    context = mh.Context(precision_group=focus)
    res = mh.attack(weapons, unit, context=context)
    got = res.p_character_killed
    assert got is not None
    if math.isnan(got):  # several CHARACTERs and [PRECISION]: the groups' results do not tell
        assert sum(g.group.character for g in res.groups) > 1
        assert any("[PRECISION]" in p.abilities for p in res.pools)
        return
    expected = oracle_character_killed(oracle_attack(weapons, unit, context=context), unit)
    assert abs(got - float(expected)) <= ATOL


def test_a_leader_behind_one_bodyguard_by_hand() -> None:
    # 3 automatic hits of damage 1, wounding on 2+ and never saved (AP -4 against 3+):
    # each takes a wound with P = 5/6; the W1 bodyguard goes first, so the W1 Leader
    # dies when at least 2 of the 3 wound.
    unit = Unit("Pair", [ModelGroup(1, 4, 3, 1), leader(3, 1, "Boss")])
    sure = gun(skill=2, strength=8, ap=-4, abilities="[TORRENT]")
    res = mh.attack([(sure, 3)], unit)
    p = 5 / 6
    assert res.p_character_killed == pytest.approx(3 * p**2 * (1 - p) + p**3, abs=ATOL)
    # with [PRECISION] the Leader is hit first: he dies when any of the 3 wounds
    precise = gun(skill=2, strength=8, ap=-4, abilities="[TORRENT], [PRECISION]")
    res = mh.attack([(precise, 3)], unit)
    assert res.p_character_killed == pytest.approx(1 - (1 - p) ** 3, abs=ATOL)


def test_the_column_appears_against_characters_only() -> None:
    led = mh.targets.get("Character-led unit")
    bolt = gun(attacks=2, strength=4, ap=-1)
    res = mh.attack([(bolt, 10)], led.unit)
    row = attack_columns(res, target=led)
    names = list(row)
    assert names.index("p_character_killed") == names.index("mean_damage") + 1
    assert row["p_character_killed"] == res.group("Leader").killed.at_least(1)
    line = mh.attack([(bolt, 10)], mh.targets.get("Line infantry").unit)
    assert line.p_character_killed is None and "p_character_killed" not in attack_columns(line)
    frame = mh.compare({"bolters": [(bolt, 10)]}, mh.targets.STANDARD).set_index("target")
    assert frame.p_character_killed.notna().tolist() == [
        t.unit.groups[-1].character for t in mh.targets.STANDARD
    ]


# ----------------------------------------------------------------------- [HAZARDOUS]


@pytest.mark.parametrize(("monster", "per_fail"), [(False, 1), (True, 3)])
def test_mean_hazard_wounds_by_hand(monster: bool, per_fail: int) -> None:
    # one hazard roll per weapon, failing on a 1 or 2: 6 weapons fail 2 rolls on average,
    # each costing 1 mortal wound (3 for a MONSTER or VEHICLE attacker)
    plasma = gun(skill=3, strength=8, ap=-3, damage=2, abilities="[HAZARDOUS]")
    context = mh.Context(attacker_monster_or_vehicle=monster)
    squad = mh.targets.get("Line infantry")
    res = mh.attack([(plasma, 6)], squad.unit, context=context)
    assert res.mean_hazard_wounds == pytest.approx(2 * per_fail, abs=ATOL)
    row = attack_columns(res, target=squad)
    assert row["mean_hazard_wounds"] == res.mean_hazard_wounds
    assert list(row).index("mean_hazard_wounds") == list(row).index("mean_damage") + 1


def test_mean_hazard_wounds_of_mixed_pools_is_the_oracles() -> None:
    plasma = gun(skill=3, strength=7, ap=-2, damage=2, abilities="[HAZARDOUS]")
    weapons = [(plasma, 2), (gun(ap=-1), 2)]
    unit = Unit("Squad", [ModelGroup(3, 4, 3, 2)])
    res = mh.attack(weapons, unit)
    oracle = oracle_attack(weapons, unit)
    expected = sum((k * p for k, p in oracle.hazardous.items()), Fraction(0))
    assert res.mean_hazard_wounds == pytest.approx(float(expected), abs=ATOL)


def test_without_hazardous_weapons_there_is_no_hazard_column() -> None:
    res = mh.attack([(gun(), 5)], mh.targets.get("Line infantry").unit)
    assert res.mean_hazard_wounds is None
    assert "mean_hazard_wounds" not in attack_columns(res)


def test_the_monte_carlo_estimates_the_hazard_alike() -> None:
    plasma = gun(skill=3, strength=8, ap=-3, damage=2, abilities="[HAZARDOUS]")
    unit = mh.targets.get("Line infantry").unit
    exact = mh.attack([(plasma, 6)], unit)
    sim = mh.simulate([(plasma, 6)], unit, trials=20_000, rng=3)
    assert sim.mean_hazard_wounds is not None and exact.mean_hazard_wounds is not None
    se = exact.hazardous.std() / np.sqrt(sim.trials)
    assert abs(sim.mean_hazard_wounds - exact.mean_hazard_wounds) < 5 * se


# ----------------------------------------------------------------------- survivors


def test_survivors_by_hand() -> None:
    # 6 automatic hits at S4 AP -4 on 5 T4 W1 models (Sv 4+): each wounds on 4+ and is
    # never saved, so killed = min(Binomial(6, 1/2), 5).
    gun6 = gun(skill=2, strength=4, ap=-4, abilities="[TORRENT]")
    res = mh.attack([(gun6, 6)], Unit.of("Squad", 5, 4, 4, 1))
    by_count = [math.comb(6, k) for k in range(7)]
    killed = [Fraction(c, 64) for c in by_count[:5]] + [Fraction(by_count[5] + by_count[6], 64)]
    left = killed[::-1]  # survivors = 5 - killed
    for k in range(6):
        assert res.survivors.pmf(k) == pytest.approx(float(left[k]), abs=ATOL)
    assert res.survivors.at_least(3) == 22 / 64  # at most 2 killed: (1 + 6 + 15) / 64


@pytest.mark.parametrize("target", mh.targets.STANDARD, ids=lambda t: t.name)
def test_survivors_mirror_the_kills(target: Target) -> None:
    res = mh.attack([(gun(attacks=2, strength=8, ap=-2, damage=2), 10)], target.unit)
    models = target.unit.models
    survivors = res.survivors
    assert survivors.n == models
    assert float(survivors.probabilities.sum()) == pytest.approx(1.0, abs=ATOL)
    assert survivors.mean() == pytest.approx(models - res.killed.mean(), abs=1e-9)
    for k in range(models + 2):
        assert survivors.at_least(k) == pytest.approx(res.killed.at_most(models - k), abs=ATOL)
    assert survivors.pmf(0) == pytest.approx(res.p_destroyed, abs=ATOL)


def test_a_simulation_has_survivors_too() -> None:
    unit = mh.targets.get("Line infantry").unit
    sim = mh.simulate([(gun(attacks=2, ap=-1), 10)], unit, trials=500, rng=1)
    assert isinstance(sim.survivors, mh.Dist)
    assert np.allclose(sim.survivors.probabilities, sim.killed.probabilities[::-1])


# ----------------------------------------------------------------------- Python floats


def _scalars(res: mh.AttackResult) -> dict[str, Any]:
    values = {
        "killed.mean()": res.killed.mean(),
        "killed.std()": res.killed.std(),
        "killed.at_least(1)": res.killed.at_least(1),
        "killed.at_least(np.int64(1))": res.killed.at_least(np.int64(1)),
        "killed.cdf(np.float32(1))": res.killed.cdf(np.float32(1)),
        "killed.pmf(1.0)": res.killed.pmf(1.0),
        "killed.sf(1)": res.killed.sf(1),
        "damage.mean()": res.damage.mean(),
        "survivors.mean()": res.survivors.mean(),
        "p_destroyed": res.p_destroyed,
        "p_character_killed": res.p_character_killed,
        "mean_hazard_wounds": res.mean_hazard_wounds,
    }
    for group in res.groups:
        values[f"{group.label}.p_destroyed"] = group.p_destroyed
    for test in res.tests:
        values[f"{test.name}.p_taken"] = test.p_taken
        values[f"{test.name}.p_failed"] = test.p_failed
    # None where the question does not arise (no CHARACTER, no [HAZARDOUS])
    return {name: value for name, value in values.items() if value is not None}


def _attacks() -> list[tuple[mh.AttackResult, Target]]:
    plasma = gun(attacks=2, strength=8, ap=-3, damage=2, abilities="[HAZARDOUS]")
    led = mh.targets.get("Character-led unit")
    horde = mh.targets.get("Horde infantry")
    lasgun = Weapon("Lasgun", 1, bs=3, strength=3)
    return [
        (mh.attack([(plasma, 5)], led.unit), led),
        (mh.simulate([(plasma, 5)], led.unit, trials=200, rng=1), led),
        (mh.attack([(lasgun, 20)], horde.unit, rules="classic"), horde),
    ]


@pytest.mark.parametrize("case", range(3), ids=["exact", "simulation", "classic"])
def test_results_answer_in_python_floats(case: int) -> None:
    res, target = _attacks()[case]
    for name, value in _scalars(res).items():
        assert type(value) is float, f"{name} is {type(value).__name__}"
    row = attack_columns(res, target=target, loadout=Loadout("x", [(gun(), 1)], points=50))
    for column, value in row.items():
        assert type(value) in (str, int, float), f"{column} is {type(value).__name__}"
        assert type(value) is not int or column in ("loadout_points", "target_points")
    for value in (target.points_destroyed(res), target.points_of_damage(res)):
        assert type(value) is float
    if isinstance(res, mh.SimulationResult):
        for value in (res.killed_se, res.damage_se, res.p_destroyed_se, res.at_least_se(1)):
            assert type(value) is float


def test_a_columns_frame_orders_the_new_columns() -> None:
    row = {
        "points_of_damage": 1.0,
        "mean_hazard_wounds": 0.5,
        "p_character_killed": 0.25,
        "target": "A",
        "points_destroyed": 0.0,
        "mean_damage": 2.0,
    }
    frame = columns_frame([row])
    assert list(frame.columns) == [
        "target",
        "mean_damage",
        "p_character_killed",
        "mean_hazard_wounds",
        "points_destroyed",
        "points_of_damage",
    ]
