"""Short, readable reprs of the profiles and dice, and error messages that never dump
whole objects."""

from __future__ import annotations

import pytest

import mathhammer as mh
from mathhammer.errors import MAX_SHOWN, ProfileError, field_error, shown

BOLT_RIFLE = mh.Weapon("Bolt rifle", attacks=2, skill=3, strength=4, ap=-1, damage=1)


@pytest.mark.parametrize(
    ("weapon", "expected"),
    [
        (BOLT_RIFLE, "Weapon('Bolt rifle', A2 BS3+ S4 AP-1 D=1)"),
        (
            mh.Weapon("Storm bolter", 2, 3, 4, 0, 1, "[RAPID FIRE 2], [ASSAULT]"),
            "Weapon('Storm bolter', A2 BS3+ S4 AP0 D=1 [RAPID FIRE 2], [ASSAULT])",
        ),
        (
            mh.Weapon("Power fist", 3, 3, 8, -2, 2, melee=True),
            "Weapon('Power fist', A3 WS3+ S8 AP-2 D=2, melee)",
        ),
        (
            mh.Weapon("Flamer", "D6", "N/A", 4, abilities="[TORRENT]"),
            "Weapon('Flamer', A=D6 BS=N/A S4 AP0 D=1 [TORRENT])",
        ),
        (
            mh.Weapon("Lascannon", 1, 3, 12, -3, "D6+1"),
            "Weapon('Lascannon', A1 BS3+ S12 AP-3 D=D6+1)",
        ),
        (mh.Weapon("Lasgun", 1, bs=3, strength=3), "Weapon('Lasgun', A1 BS3 S3 AP0 D=1)"),
    ],
)
def test_weapon_repr(weapon: mh.Weapon, expected: str) -> None:
    assert repr(weapon) == expected


def test_weapon_repr_shows_unknown_abilities_apart() -> None:
    with pytest.warns(mh.UnknownAbilityWarning):
        weapon = mh.Weapon("Gun", 1, 3, 4, abilities="[LETHAL HITS], [SNAGGED]")
    assert repr(weapon) == "Weapon('Gun', A1 BS3+ S4 AP0 D=1 [LETHAL HITS], unknown ['SNAGGED'])"


def test_unit_and_model_group_reprs() -> None:
    marines = mh.Unit.of("Intercessors", models=5, toughness=4, save=3, wounds=2)
    assert repr(marines) == "Unit('Intercessors', 5 models: 5x T4 Sv3+ W2)"
    guard = mh.ModelGroup(4, 4, 3, 2, name="Bodyguard")
    boss = mh.ModelGroup(1, 4, 2, 5, invuln=4, fnp=5, character=True, name="Captain")
    assert repr(guard) == "ModelGroup('Bodyguard', 4x T4 Sv3+ W2)"
    assert repr(boss) == "ModelGroup('Captain', 1x T4 Sv2+ W5 InSv4+ FNP5+ CHARACTER)"
    assert repr(mh.Unit("Command", [guard, boss])) == (
        "Unit('Command', 5 models: Bodyguard 4x T4 Sv3+ W2 + "
        "Captain 1x T4 Sv2+ W5 InSv4+ FNP5+ CHARACTER)"
    )
    tank = mh.ModelGroup(1, 11, 2, 14, wounds_lost=1, halve_damage=True, fnp_mortal=6)
    assert repr(mh.Unit("Tank", tank)) == (
        "Unit('Tank', 1 model: 1x T11 Sv2+ W14 FNP6+ vs mortal wounds "
        "(1 wound lost) (halve damage))"
    )
    assert repr(mh.ModelGroup(20, 3, 7, 1)) == "ModelGroup(20x T3 Sv- W1)"


def test_dice_repr_is_short_and_reads_back() -> None:
    for text in ("D6+1", "2D3", "3"):
        dice = mh.Dice(text)
        assert repr(dice) == f"Dice({text!r})"
        assert eval(repr(dice), {"Dice": mh.Dice}) == dice == mh.parse_dice(text)
    assert mh.Dice(mh.Dice("d6 + 1")).text == "D6+1"
    assert repr(mh.abilities.SustainedHits.of(1)).endswith("value=Dice('1'))")


def test_reprs_are_short() -> None:
    weapon = mh.Weapon("Heavy bolter", 3, 4, 5, -1, 2, "[SUSTAINED HITS 1], [HEAVY]")
    unit = mh.Unit.of("Boyz", 20, 5, 5, 1, fnp=6, keywords="INFANTRY, ORKS, MOB")
    assert len(repr(weapon)) < 80 and len(repr(unit)) < 60 and "\n" not in repr(unit)


def test_errors_show_objects_by_their_short_repr() -> None:
    with pytest.raises(ProfileError) as info:
        mh.Unit("x", [BOLT_RIFLE])  # type: ignore[list-item]
    assert str(info.value) == (
        "Unit.groups must be ModelGroup objects; got Weapon('Bolt rifle', A2 BS3+ S4 AP-1 D=1)"
    )
    assert info.value.value is BOLT_RIFLE  # the object itself travels with the error


def test_a_long_value_is_cut_short_in_the_message() -> None:
    value = [BOLT_RIFLE] * 10
    error = field_error(ProfileError, "weapons", "at most 3 weapons", value)
    got = str(error).split("; got ")[1]
    assert len(got) == MAX_SHOWN and got.endswith(" ...") and error.value is value
    assert shown("a\nb") == "'a\\nb'"  # a string's repr is already one line

    class Tall:
        def __repr__(self) -> str:
            return "Tall(\n  1,\n  2)"

    assert shown(Tall()) == "Tall( ..."
