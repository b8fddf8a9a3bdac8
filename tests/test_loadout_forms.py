"""Loadouts are explicit (issue 12, point 4): ``(weapon, n)`` is refused, not guessed.

``compare({"Lascannon team": (las, 120)}, "Vehicle")`` used to mean 120 lascannons (and
the points columns vanished); the error now shows the two unambiguous forms. Each
loadout keeps its own Context.
"""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

import mathhammer as mh
from mathhammer.units.loadout import describe_weapons

LAS = mh.Weapon("Lascannon", attacks=1, skill=3, strength=12, ap=-3, damage="D6+1")
MELTA = mh.Weapon("Melta", 1, 3, 9, -4, "D6", "[MELTA 2]")
#: W20: no attack here can take more wounds than it has, so wounds lost are linear
VEHICLE = mh.Unit.of("Tank", 1, 10, 3, 20, keywords="VEHICLE")


@pytest.mark.parametrize(
    "call",
    [
        lambda: mh.compare({"Lascannon team": (LAS, 120)}, "Vehicle"),
        lambda: mh.Loadout("Lascannon team", (LAS, 120)),
    ],
)
def test_a_weapon_and_a_number_is_refused_with_both_right_forms(call: object) -> None:
    with pytest.raises(mh.ProfileError) as info:
        call()  # type: ignore[operator]
    message = str(info.value)
    assert "ambiguous" in message
    assert "mh.Loadout('Lascannon team', [(weapon, 1)], points=120)" in message
    assert "{'Lascannon team': [(weapon, 120)]}" in message
    assert "\n" not in message and "attacks=" not in message  # no whole Weapon repr
    assert info.value.field == "loadout 'Lascannon team'"


def test_the_explicit_forms_mean_points_or_weapons() -> None:
    points = mh.compare([mh.Loadout("Lascannon team", [(LAS, 1)], points=120)], VEHICLE)
    assert points.loadout_points.tolist() == [120.0]
    weapons = mh.compare({"Lascannon team": [(LAS, 2)]}, VEHICLE)
    assert "loadout_points" not in weapons.columns
    # one lascannon: hits on 3+ (2/3), wounds T10 with S12 on 3+ (2/3), AP-3 makes Sv3+ a
    # 6+ (fails 5/6); D6+1 averages 4.5: 4.5 * 10/27 = 5/3 wounds per lascannon
    one = Fraction(2, 3) * Fraction(2, 3) * Fraction(5, 6) * Fraction(9, 2)
    assert abs(points.mean_damage[0] - float(one)) < 1e-12
    assert abs(weapons.mean_damage[0] - float(2 * one)) < 1e-12
    assert mh.compare({"pair": ([(LAS, 1)], 120)}, VEHICLE).loadout_points.tolist() == [120.0]


def test_each_loadout_keeps_its_own_context() -> None:
    near = mh.Loadout("near", [(MELTA, 1)], context=mh.Context(half_range=True))
    far = mh.Loadout("far", [(MELTA, 1)])
    frame = mh.compare([near, far], VEHICLE, context=mh.Context()).set_index("loadout")
    # hits on 3+ (2/3), S9 wounds T10 on 5+ (1/3), AP-4 leaves Sv3+ no save; [MELTA 2]
    # adds 2 to the damage within half range: D6 (3.5) becomes 5.5
    p = Fraction(2, 3) * Fraction(1, 3)
    assert abs(frame.mean_damage["near"] - float(p * Fraction(11, 2))) < 1e-12
    assert abs(frame.mean_damage["far"] - float(p * Fraction(7, 2))) < 1e-12


def test_describe_weapons_counts_mortal_wound_steps_by_name() -> None:
    assert describe_weapons([mh.MortalWounds(3)]) == "mortal wounds"


def test_a_bare_weapon_or_a_pair_list_is_still_a_loadout() -> None:
    assert mh.Loadout("one", LAS).weapons == ((LAS, 1),)
    assert mh.Loadout("two", (LAS, MELTA)).weapons == ((LAS, 1), (MELTA, 1))  # two weapons
    assert mh.compare({"two": (LAS, MELTA)}, VEHICLE).loadout.tolist() == ["two"]
    with pytest.raises(mh.ProfileError, match=re.escape("Loadout.points must be")):
        mh.Loadout("x", [(LAS, 1)], points=0)
