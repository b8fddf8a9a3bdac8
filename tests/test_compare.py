"""compare: shape, columns, and every value against direct attack calls."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import mathhammer as mh
from mathhammer.results.columns import ALL_COLUMNS, CHECK_COLUMNS, attack_columns
from mathhammer.units.compare import COLUMNS, Loadout
from mathhammer.units.targets import Target

BOLT = mh.Weapon("Bolt rifle", attacks=2, skill=3, strength=4, ap=-1, damage=1)
PLASMA = mh.Weapon("Plasma gun", attacks=1, skill=3, strength=7, ap=-2, damage=2)
MELTA = mh.Weapon(
    "Melta", attacks=1, skill=3, strength=9, ap=-4, damage="D6", abilities="[MELTA 2]"
)
LOADOUTS = {
    "bolters": ([(BOLT, 10)], 160),
    "plasma": ([(PLASMA, 5), (BOLT, 5)], 200),
    "melta": ([(MELTA, 4)], 180),
}
POINTS_COLUMNS = [
    "loadout_points",
    "killed_per_100_points",
    "target_points",
    "points_destroyed",
    "points_of_damage",
    "points_destroyed_per_100_points",
]


def test_compare_against_the_standard_suite_matches_direct_attacks() -> None:
    frame = mh.compare(LOADOUTS, mh.targets.STANDARD)
    assert frame.shape == (3 * 9, len(COLUMNS) + 1 + len(POINTS_COLUMNS))
    assert list(frame.columns) == [*COLUMNS, "p_character_killed", *POINTS_COLUMNS]
    assert frame.loadout.tolist() == [name for name in LOADOUTS for _ in range(9)]
    assert frame.target.tolist() == 3 * mh.targets.names()
    for row in frame.itertuples():
        weapons, points = LOADOUTS[row.loadout]
        target = mh.targets.get(row.target)
        res = mh.attack(weapons, target.unit)
        half = (target.unit.models + 1) // 2
        assert row.mean_killed == res.killed.mean()
        assert row.sd_killed == res.killed.std()
        assert row.p_at_least_1 == res.killed.at_least(1)
        assert row.p_at_least_half == res.killed.at_least(half)
        assert row.p_destroyed == res.p_destroyed
        assert row.mean_damage == res.damage.mean()
        assert row.loadout_points == points and row.target_points == target.points
        assert row.killed_per_100_points == pytest.approx(
            100 * res.killed.mean() / points, abs=1e-12
        )
        destroyed = sum(
            price * group.killed.mean()
            for price, group in zip(target.model_points or (), res.groups, strict=True)
        )
        assert row.points_destroyed == pytest.approx(destroyed, abs=1e-12)
        assert row.points_destroyed_per_100_points == pytest.approx(
            100 * destroyed / points, abs=1e-12
        )


def test_hand_derived_values_for_one_pairing() -> None:
    # 10 attacks that always hit and wound a T3 W1 5+ save unit of 20 at AP -4: 10 kills.
    sure = mh.Weapon("Sure", attacks=1, skill=2, strength=8, ap=-4, damage=1, abilities="[TORRENT]")
    frame = mh.compare({"sure": ([(sure, 10)], 50)}, "Horde infantry")
    row = frame.iloc[0]
    p = 5 / 6  # wound on 2+, no save possible
    assert row.mean_killed == pytest.approx(10 * p, abs=1e-12)
    assert row.sd_killed == pytest.approx(np.sqrt(10 * p * (1 - p)), abs=1e-12)
    assert row.p_at_least_1 == pytest.approx(1 - (1 - p) ** 10, abs=1e-12)
    assert row.p_at_least_half == pytest.approx(p**10, abs=1e-12)  # half of 20 is all 10
    assert row.p_destroyed == 0.0
    assert row.points_destroyed == pytest.approx(6 * 10 * p, abs=1e-12)  # 120 points / 20
    assert row.points_destroyed_per_100_points == pytest.approx(2 * 6 * 10 * p, abs=1e-12)


def test_without_points_there_are_no_points_columns() -> None:
    unit = mh.Unit.of("Squad", models=5, toughness=4, save=3, wounds=2)
    frame = mh.compare({"bolters": [(BOLT, 10)]}, unit)
    assert list(frame.columns) == list(COLUMNS)
    assert frame.shape == (1, len(COLUMNS))
    res = mh.attack([(BOLT, 10)], unit)
    assert frame.loc[0, "p_at_least_half"] == res.killed.at_least(3)


def test_points_columns_appear_for_the_side_that_has_points() -> None:
    unit = mh.Unit.of("Squad", models=5, toughness=4, save=3, wounds=2)
    only_loadout = mh.compare({"b": ([(BOLT, 10)], 100)}, unit)
    assert list(only_loadout.columns) == [*COLUMNS, "loadout_points", "killed_per_100_points"]
    only_target = mh.compare({"b": [(BOLT, 10)]}, Target(unit, 90))
    assert list(only_target.columns) == [
        *COLUMNS,
        "target_points",
        "points_destroyed",
        "points_of_damage",
    ]
    assert only_target.loc[0, "points_destroyed"] == pytest.approx(
        18 * only_target.loc[0, "mean_killed"], abs=1e-12
    )
    mixed = mh.compare({"b": ([(BOLT, 10)], 100), "c": [(BOLT, 5)]}, Target(unit, 90))
    assert mixed.loadout_points.isna().tolist() == [False, True]
    assert mixed.points_destroyed_per_100_points.isna().tolist() == [False, True]


def test_loadouts_in_every_accepted_form_give_the_same_rows() -> None:
    target = mh.targets.get("Line infantry")
    forms = [
        {"x": [(BOLT, 10)]},
        {"x": Loadout("other name", [(BOLT, 10)])},
        [Loadout("x", [(BOLT, 10)])],
        Loadout("x", [(BOLT, 10)]),
        {"x": ([(BOLT, 10)], 160)},
    ]
    frames = [mh.compare(form, target)[list(COLUMNS)] for form in forms]
    for frame in frames[1:]:
        pd.testing.assert_frame_equal(frame, frames[0])


def test_targets_in_every_accepted_form() -> None:
    unit = mh.Unit.of("Squad", models=5, toughness=4, save=3, wounds=2)
    line = mh.targets.get("Line infantry")
    frame = mh.compare({"b": [(BOLT, 10)]}, [unit, line, "Vehicle"])
    assert frame.target.tolist() == ["Squad", "Line infantry", "Vehicle"]
    renamed = mh.compare({"b": [(BOLT, 10)]}, {"Small squad": unit, "MEQ": "Line infantry"})
    assert renamed.target.tolist() == ["Small squad", "MEQ"]
    assert renamed.target_points.isna().tolist() == [True, False]
    assert renamed.mean_killed.tolist() == frame.mean_killed.tolist()[:2]


def test_rules_context_and_modifiers_reach_every_attack() -> None:
    ctx = mh.Context(half_range=True)
    mods = mh.Modifiers(hit=1, reroll_wounds="ones")
    frame = mh.compare({"melta": [(MELTA, 4)]}, ["Vehicle", "Monster"], context=ctx, modifiers=mods)
    for row in frame.itertuples():
        res = mh.attack([(MELTA, 4)], mh.targets.get(row.target).unit, context=ctx, modifiers=mods)
        assert row.mean_damage == res.damage.mean()
    plain = mh.compare({"melta": [(MELTA, 4)]}, ["Vehicle"])
    assert plain.mean_damage[0] < frame.mean_damage[0]
    with pytest.raises(mh.RulesError, match="rules must be one of"):
        mh.compare({"melta": [(MELTA, 4)]}, ["Vehicle"], rules="1st")


@pytest.mark.parametrize(
    ("loadouts", "targets", "error", "message"),
    [
        ({}, "Vehicle", mh.ProfileError, "loadouts must be non-empty"),
        ("bolters", "Vehicle", mh.ProfileError, "loadouts must be a dict of name"),
        ([("x", [(BOLT, 1)])], "Vehicle", mh.ProfileError, "loadouts must be a dict of name"),
        ({"x": "bolt"}, "Vehicle", mh.ProfileError, "weapons must be a Weapon"),
        (
            {"x": ([(BOLT, 1)], 0)},
            "Vehicle",
            mh.ProfileError,
            "Loadout.points must be an integer >= 1; got 0",
        ),
        ({"x": [(BOLT, 1)]}, "Tank", mh.ProfileError, r"target must be one of \['Horde infantry'"),
        ({"x": [(BOLT, 1)]}, [], mh.ProfileError, "targets must be non-empty"),
        ({"x": [(BOLT, 1)]}, 3, mh.ProfileError, "targets must be a Unit, a Target"),
        ({"x": [(BOLT, 1)]}, [3], mh.ProfileError, "targets must be Units, Targets"),
        (
            {"x": [(BOLT, 1)]},
            ["Vehicle", "vehicle"],
            mh.ProfileError,
            r"target names must be unique; got \['Vehicle'\]",
        ),
        (
            [Loadout("x", BOLT), Loadout("x", PLASMA)],
            "Vehicle",
            mh.ProfileError,
            "loadout names must be unique",
        ),
    ],
)
def test_bad_inputs_are_clear_errors(
    loadouts: object, targets: object, error: type, message: str
) -> None:
    with pytest.raises(error, match=message):
        mh.compare(loadouts, targets)


def test_loadout_validates_itself() -> None:
    with pytest.raises(mh.ProfileError, match="Loadout.name must be a non-empty string"):
        Loadout("", [(BOLT, 1)])
    with pytest.raises(mh.ProfileError, match="Loadout.points must be an integer >= 1; got True"):
        Loadout("x", [(BOLT, 1)], True)


def test_panic_columns_under_the_classic_rules() -> None:
    lasgun = mh.Weapon("Lasgun", attacks=1, bs=3, strength=3)
    troops = mh.Unit.of("Troops", 10, 3, 5, 1, keywords="INFANTRY", leadership=7)
    frame = mh.compare({"lasguns": [(lasgun, 20)]}, troops, rules="classic")
    assert list(frame.columns) == [*COLUMNS, "p_panic_test", "p_panic_fail"]
    res = mh.attack([(lasgun, 20)], troops, rules="classic")
    assert frame.loc[0, "p_panic_test"] == res.p_panic_test
    assert frame.loc[0, "p_panic_fail"] == res.p_panic_fail
    assert frame.loc[0, "mean_killed"] == res.killed.mean()
    leaderless = mh.Unit.of("Troops", 10, 3, 5, 1, keywords="INFANTRY")
    with pytest.raises(mh.RulesError, match="needs leadership= for its Panic Test"):
        mh.compare({"lasguns": [(lasgun, 20)]}, leaderless, rules="classic")


def test_a_loadout_is_attacked_in_its_own_context() -> None:
    near, far = mh.Context(half_range=True), mh.Context(half_range=False)
    own = Loadout("close", [(MELTA, 4)], context=near)
    plain = Loadout("plain", [(MELTA, 4)])
    frame = mh.compare([own, plain], "Vehicle", context=far).set_index("loadout")
    vehicle = mh.targets.get("Vehicle").unit
    assert (
        frame.mean_damage["close"] == mh.attack([(MELTA, 4)], vehicle, context=near).damage.mean()
    )
    assert frame.mean_damage["plain"] == mh.attack([(MELTA, 4)], vehicle, context=far).damage.mean()
    assert frame.mean_damage["close"] > frame.mean_damage["plain"]
    renamed = mh.compare({"renamed": own}, "Vehicle")  # a new name keeps the context
    assert renamed.mean_damage[0] == frame.mean_damage["close"]


def test_loadout_context_and_source() -> None:
    with pytest.raises(mh.ProfileError, match="Loadout.context must be a Context or None; got 1"):
        Loadout("x", [(BOLT, 1)], context=1)  # type: ignore[arg-type]
    with pytest.raises(mh.ProfileError, match="Loadout.source must be a string or None"):
        Loadout("x", [(BOLT, 1)], source=3)  # type: ignore[arg-type]
    assert Loadout("x", [(BOLT, 1)], source="a.csv:2") == Loadout("x", [(BOLT, 1)])


def test_every_row_is_the_attack_columns_of_its_pairing() -> None:
    line = mh.targets.get("Line infantry")
    loadout = Loadout("bolters", [(BOLT, 10)], 160)
    frame = mh.compare(loadout, [line, "Vehicle"])
    expected = attack_columns(mh.attack(loadout.weapons, line.unit), target=line, loadout=loadout)
    assert list(expected) == list(frame.columns)
    assert frame.iloc[0].to_dict() == expected
    assert list(frame.columns) == [c for c in ALL_COLUMNS if c in frame.columns]


def test_attack_columns_without_a_target_or_loadout() -> None:
    unit = mh.Unit.of("Squad", models=5, toughness=4, save=3, wounds=2)
    res = mh.attack([(BOLT, 10)], unit)
    row = attack_columns(res)
    assert list(row) == list(COLUMNS[1:])
    assert row["target"] == "Squad" and row["p_at_least_half"] == res.killed.at_least(3)
    no_price = attack_columns(res, target=Target(unit), loadout=Loadout("b", [(BOLT, 10)]))
    assert list(no_price) == list(COLUMNS)


def test_the_check_columns_measure_the_monte_carlo_in_exact_standard_errors() -> None:
    unit = mh.Unit.of("Squad", models=5, toughness=4, save=3, wounds=2)
    exact = mh.attack([(BOLT, 10)], unit)
    sim = mh.simulate([(BOLT, 10)], unit, trials=4000, rng=5)
    row = attack_columns(exact, check=sim)
    assert list(row)[-4:] == list(CHECK_COLUMNS)
    sigma = exact.killed.std() / np.sqrt(4000)
    assert row["mc_z"] == pytest.approx(
        (sim.killed.mean() - exact.killed.mean()) / sigma, abs=1e-12
    )
    assert row["mc_mean_killed"] == sim.killed.mean() and row["mc_se_killed"] == sim.killed_se
