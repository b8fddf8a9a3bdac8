"""A defender that re-rolls its save rolls of 1 or its failed saves (``Unit.reroll_saves``).

The dice are re-rolled as they are rolled, before they are sorted; a failure is judged
against the model current at that moment (docs/rules.md §4.7, D29). Checked against the
brute-force oracle (every face of every die and of every re-roll, with exact fractions),
against the Monte Carlo (which re-rolls real dice), through a carried state, and for its
inputs.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from oracle import assert_pmf, oracle_attack
from statcheck import assert_matches

import mathhammer as mh
from mathhammer.rules.base import save_face_weights

SQUAD = [mh.ModelGroup(2, 4, 3, 1), mh.ModelGroup(1, 4, 5, 2, invuln=4)]
LED = [mh.ModelGroup(2, 4, 4, 1), mh.ModelGroup(1, 4, 2, 3, character=True, name="Boss")]
WEAPONS = [
    mh.Weapon("AP-1", 2, 3, 4, -1, 1),
    mh.Weapon("D2", 1, 3, 5, 0, 2),
    mh.Weapon("D3 devastating", 2, 3, 4, -1, "D3", "[DEVASTATING WOUNDS]"),
    mh.Weapon("Precise", 2, 3, 4, 0, 1, "[PRECISION]"),
]


@pytest.mark.parametrize("policy", ["ones", "failures"])
@pytest.mark.parametrize(
    "groups", [SQUAD, LED, [mh.ModelGroup(3, 4, 4, 1)]], ids=["squad", "led", "one"]
)
@pytest.mark.parametrize("weapon", WEAPONS, ids=lambda w: w.name)
def test_save_rerolls_equal_the_oracle(
    weapon: mh.Weapon, groups: list[mh.ModelGroup], policy: str
) -> None:
    unit = mh.Unit("Squad", groups, reroll_saves=policy)
    got = mh.attack([(weapon, 2)], unit)
    want = oracle_attack([(weapon, 2)], unit)
    what = f"{weapon.name} vs {len(groups)} groups, re-roll {policy}"
    assert_pmf(got.killed.probabilities, want.killed, what)
    assert_pmf(got.damage.probabilities, want.damage, what)
    assert_pmf(got.pools[0].unsaved.probabilities, want.pools[0].unsaved, what)
    for g, group in enumerate(got.groups):
        assert_pmf(group.killed.probabilities, want.groups[g], what)


@pytest.mark.parametrize("policy", ["ones", "failures"])
def test_a_second_pool_rolls_against_the_model_the_first_left_current(policy: str) -> None:
    # the first pool may destroy the Sv3+ models: the second pool's failures are then
    # judged against the Sv5+ model, in those states only
    unit = mh.Unit("Squad", SQUAD, reroll_saves=policy)
    weapons = [(mh.Weapon("Heavy", 2, 3, 8, -2, 1), 1), (mh.Weapon("Light", 1, 3, 4, 0, 1), 2)]
    got = mh.attack(weapons, unit)
    want = oracle_attack(weapons, unit)
    assert_pmf(got.killed.probabilities, want.killed)
    assert_pmf(got.damage.probabilities, want.damage)
    assert_pmf(got.pools[1].unsaved.probabilities, want.pools[1].unsaved)


def test_a_carried_start_resolves_each_state_against_its_own_current_model() -> None:
    unit = mh.Unit("Squad", SQUAD, reroll_saves="failures")
    first = [(mh.Weapon("Heavy", 2, 3, 8, -2, 1), 1)]
    second = [(mh.Weapon("Light", 2, 3, 4, 0, 1), 1)]
    carried = mh.attack(second, unit, start=mh.attack(first, unit))
    want = oracle_attack(second, unit, start=oracle_attack(first, unit).states)
    assert_pmf(carried.killed.probabilities, want.killed)
    assert_pmf(carried.damage.probabilities, want.damage)


def test_hand_derived_values() -> None:
    # Sv4+ fails on 1-3. Re-rolling 1s: 2/6 + 1/6 x 3/6 = 5/12. Re-rolling failures:
    # 3/6 x 3/6 = 1/4. One [TORRENT] S8 attack against T4 wounds on 2+ (5/6).
    saved = np.array([[False, False, False, True, True, True]])
    gun = mh.Weapon("Gun", 1, 2, 8, 0, 1, "[TORRENT]")
    for policy, fail in (("ones", Fraction(5, 12)), ("failures", Fraction(1, 4))):
        weights = save_face_weights(saved, policy)[0]
        assert weights.sum() == pytest.approx(1.0, abs=1e-15)
        assert weights[~saved[0]].sum() == pytest.approx(float(fail), abs=1e-15)
        result = mh.attack(
            [(gun, 1)], mh.Unit("One", mh.ModelGroup(1, 4, 4, 1), reroll_saves=policy)
        )
        want = Fraction(5, 6) * fail  # 25/72 and 5/24
        assert result.killed.probabilities[1] == pytest.approx(float(want), abs=1e-15)


@pytest.mark.parametrize("policy", ["ones", "failures"])
def test_the_monte_carlo_re_rolls_real_dice(policy: str) -> None:
    unit = mh.Unit(
        "Squad",
        [
            mh.ModelGroup(5, 4, 3, 1),
            mh.ModelGroup(3, 4, 5, 2),
            mh.ModelGroup(1, 4, 2, 4, character=True),
        ],
        reroll_saves=policy,
    )
    weapons = [(mh.Weapon("Gun", 2, 3, 5, -1, "D2"), 6), (mh.Weapon("Rifle", 2, 3, 4, 0, 1), 5)]
    exact = mh.attack(weapons, unit)
    trials = 60_000
    rolled = mh.simulate(weapons, unit, trials=trials, rng=17)
    assert_matches(f"save re-roll {policy}", exact.killed, rolled.killed, trials)
    assert_matches(f"save re-roll {policy}", exact.damage, rolled.damage, trials)
    lone = mh.Unit("Lone", mh.ModelGroup(10, 4, 4, 1), reroll_saves=policy)
    exact = mh.attack(weapons, lone)
    rolled = mh.simulate(weapons, lone, trials=trials, rng=18)
    assert_matches(f"lone save re-roll {policy}", exact.killed, rolled.killed, trials)


def test_re_rolls_only_help_the_defender_and_failures_help_most() -> None:
    weapons = [(mh.Weapon("Gun", 2, 3, 5, -1, 1), 10)]
    means = [
        mh.attack(weapons, mh.Unit("A", mh.ModelGroup(10, 4, 3, 1), reroll_saves=r)).killed.mean()
        for r in (None, "ones", "failures")
    ]
    assert means[0] > means[1] > means[2]


def test_inputs_and_where_they_are_read(tmp_path: Path) -> None:
    refusals: tuple[Any, ...] = ("all", {"ones": 1}, ["ones"])  # unhashable ones as well
    for refused in refusals:
        with pytest.raises(mh.ProfileError, match="Unit.reroll_saves must be 'ones', 'failures'"):
            mh.Unit("A", mh.ModelGroup(5, 4, 3, 1), reroll_saves=refused)
    unit = mh.Unit("A", mh.ModelGroup(5, 4, 3, 1), leadership=7, reroll_saves="ones")
    assert repr(unit).endswith("re-rolls save rolls of 1)")
    assert unit != mh.Unit.of("A", 5, 4, 3, 1, leadership=7)
    lasgun = mh.Weapon("Lasgun", attacks=1, bs=3, strength=3)
    with pytest.raises(mh.RulesError, match="re-rolls saves, which this ruleset"):
        mh.attack([(lasgun, 5)], unit, rules="classic")
    # a leader or its bodyguard brings it to the led unit; failures include the 1s
    boss = mh.Unit("Boss", [mh.ModelGroup(1, 4, 2, 5, character=True)], reroll_saves="failures")
    assert mh.attach_leaders(unit, boss).reroll_saves == "failures"
    assert mh.attach_leaders(unit, mh.Unit.of("B", 1, 4, 3, 4)).reroll_saves == "ones"
    # a reordered unit keeps it
    led = mh.attach_leaders(mh.Unit("G", SQUAD, reroll_saves="ones"), boss)
    gun = mh.Weapon("Gun", 1, 3, 4)
    result = mh.attack([(gun, 5)], led, allocation="defender-best")
    assert result.target.reroll_saves == "failures"
    # a JSON suite and a targets CSV
    path = tmp_path / "suite.json"
    entry = {"name": "Stubborn", "reroll_saves": "ones", "groups": [{"count": 5, "toughness": 4,
             "save": 3, "wounds": 2, "points": 100}]}  # fmt: skip
    path.write_text(json.dumps({"targets": [entry]}))
    (target,) = mh.targets.load(path)
    assert target.unit.reroll_saves == "ones"
    csv = tmp_path / "targets.csv"
    csv.write_text(
        "unit,models,T,Sv,W,re-roll saves\nA,5,4,3+,1,failures\nA,1,4,3+,3,\nB,5,4,3+,1,-\n"
    )
    a, b = mh.read_targets(csv)
    assert (a.unit.reroll_saves, b.unit.reroll_saves) == ("failures", None)
    csv.write_text("unit,models,T,Sv,W,re-roll saves\nA,5,4,3+,1,ones\nA,1,4,3+,3,failures\n")
    with pytest.raises(mh.CsvError, match="column 're-roll saves': unit 'A' has 'ones'"):
        mh.read_targets(csv)
    csv.write_text("unit,models,T,Sv,W,re-roll saves\nA,5,4,3+,1,sixes\n")
    with pytest.raises(mh.CsvError, match="column 're-roll saves'.*'ones', 'failures'"):
        mh.read_targets(csv)


# --------------------------------------------------------------------------- command
@pytest.mark.parametrize(
    "groups", [SQUAD, LED, [mh.ModelGroup(3, 4, 4, 1)]], ids=["squad", "led", "one"]
)
@pytest.mark.parametrize("weapon", WEAPONS, ids=lambda w: w.name)
def test_the_defenders_command_re_roll_equals_the_oracle(
    weapon: mh.Weapon, groups: list[mh.ModelGroup]
) -> None:
    # the oracle rolls the first failed save again as it is resolved (docs/rules.md D33)
    unit = mh.Unit("Squad", groups, reroll_saves="command")
    got = mh.attack([(weapon, 2)], unit)
    want = oracle_attack([(weapon, 2)], unit)
    what = f"{weapon.name} vs {len(groups)} groups, command re-roll"
    assert_pmf(got.killed.probabilities, want.killed, what)
    assert_pmf(got.damage.probabilities, want.damage, what)
    assert_pmf(got.pools[0].unsaved.probabilities, want.pools[0].unsaved, what)


def test_each_pool_has_its_own_command_re_roll_of_a_save() -> None:
    unit = mh.Unit("Squad", SQUAD, reroll_saves="command")
    weapons = [(mh.Weapon("Heavy", 2, 3, 8, -2, 1), 1), (mh.Weapon("Light", 1, 3, 4, 0, 1), 2)]
    got = mh.attack(weapons, unit)
    want = oracle_attack(weapons, unit)
    assert_pmf(got.killed.probabilities, want.killed)
    assert_pmf(got.pools[1].unsaved.probabilities, want.pools[1].unsaved)
    carried = mh.attack(weapons[1:], unit, start=mh.attack(weapons[:1], unit))
    assert_pmf(carried.damage.probabilities, want.damage)


def test_a_command_re_roll_of_a_save_by_hand() -> None:
    # one [TORRENT] S8 attack against one W1 Sv4+ model: it dies when the wound (5/6)
    # fails its save twice (1/2 x 1/2); two attacks: the second save has no re-roll left
    gun = mh.Weapon("Gun", 1, 2, 8, 0, 1, "[TORRENT]")
    one = mh.Unit("One", mh.ModelGroup(1, 4, 4, 1), reroll_saves="command")
    assert mh.attack([(gun, 1)], one).killed.probabilities[1] == pytest.approx(5 / 24, abs=1e-15)
    pair = mh.Unit("Pair", mh.ModelGroup(2, 4, 4, 1), reroll_saves="command")
    # both wounds (25/36), both die only if the first fails twice and the second once:
    # 1/4 x 1/2 = 1/8
    two = mh.attack([(gun, 2)], pair)
    assert two.killed.probabilities[2] == pytest.approx(25 / 36 / 8, abs=1e-15)


@pytest.mark.parametrize(
    "target",
    [
        mh.Unit("Lone", mh.ModelGroup(8, 4, 3, 2), reroll_saves="command"),
        mh.Unit(
            "Mixed",
            [
                mh.ModelGroup(5, 4, 3, 1),
                mh.ModelGroup(2, 4, 5, 2),
                mh.ModelGroup(1, 4, 2, 4, character=True),
            ],
            reroll_saves="command",
        ),  # fmt: skip
    ],
    ids=["lone", "mixed"],
)
def test_the_monte_carlo_re_rolls_the_first_failed_save(target: mh.Unit) -> None:
    weapons = [(mh.Weapon("Gun", 2, 3, 5, -1, "D2", "[DEVASTATING WOUNDS]"), 5),
               (mh.Weapon("Rifle", 2, 3, 4, 0, 1), 5)]  # fmt: skip
    exact = mh.attack(weapons, target)
    trials = 60_000
    rolled = mh.simulate(weapons, target, trials=trials, rng=23)
    for i in range(2):
        assert_matches(f"save command pool {i}", exact.pools[i].unsaved, rolled.pools[i].unsaved,
                       trials)  # fmt: skip
    assert_matches(f"save command {target.name}", exact.killed, rolled.killed, trials)
    assert_matches(f"save command {target.name}", exact.damage, rolled.damage, trials)


def test_both_command_re_rolls_at_once_are_refused() -> None:
    unit = mh.Unit("Squad", SQUAD, reroll_saves="command")
    with pytest.raises(mh.OptionError, match="command re-roll of a damage roll against a unit"):
        mh.attack([(WEAPONS[1], 2)], unit, modifiers=mh.Modifiers(reroll_one="damage"))
