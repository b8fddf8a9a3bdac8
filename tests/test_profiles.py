"""Profiles: validation messages, allocation-order constraints, pooling."""

from __future__ import annotations

import re

import pytest

import mathhammer as mh
from mathhammer import AllocationOrderError, MathhammerError, ModelGroup, ProfileError, Unit, Weapon


def weapon(**changes: object) -> Weapon:
    fields: dict[str, object] = dict(
        name="w", attacks=2, skill=3, strength=4, ap=-1, damage=1, abilities=""
    )
    fields.update(changes)
    return Weapon(**fields)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"skill": 1}, "Weapon.skill must be an integer from 2 to 6; got 1"),
        ({"skill": 7}, "Weapon.skill must be an integer from 2 to 6; got 7"),
        (
            {"skill": "3x"},
            "Weapon.skill must be a roll from 2+ to 6+, written '3+' or '3'; got '3x'",
        ),
        ({"skill": 3.0}, "Weapon.skill must be an integer from 2 to 6; got 3.0"),
        ({"skill": True}, "Weapon.skill must be an integer from 2 to 6; got True"),
        ({"strength": 0}, "Weapon.strength must be an integer >= 1; got 0"),
        ({"ap": 1}, "Weapon.ap must be an integer <= 0; got 1 (AP is as printed: -1)"),
        ({"ap": "-1"}, "Weapon.ap must be an integer <= 0; got '-1'"),
        ({"attacks": 0}, "Weapon.attacks must be at least 1 on every roll; got '0'"),
        ({"attacks": "2D"}, "Weapon.attacks: cannot read dice expression '2D' at position 2"),
        ({"attacks": 1.5}, "Weapon.attacks must be an integer or a dice expression"),
        ({"damage": 0}, "Weapon.damage must be at least 1 on every roll; got '0'"),
        ({"damage": "D6-1"}, "Weapon.damage: cannot read dice expression 'D6-1' at position 2"),
        ({"name": 3}, "Weapon.name must be a string; got 3"),
        ({"abilities": 3}, "Weapon.abilities must be a string or a list of abilities; got 3"),
    ],
)
def test_weapon_validation(changes: dict[str, object], message: str) -> None:
    with pytest.raises(ProfileError, match=re.escape(message)):
        weapon(**changes)


def test_errors_are_value_errors_and_mathhammer_errors() -> None:
    for exc in (ProfileError, AllocationOrderError, mh.DiceSyntaxError, mh.RulesError):
        assert issubclass(exc, ValueError) and issubclass(exc, MathhammerError)


def test_weapon_normalises_dice() -> None:
    w = weapon(attacks="d6", damage="D3+1")
    assert isinstance(w.attacks, mh.Dice) and isinstance(w.damage, mh.Dice)
    assert w.attacks == mh.parse_dice("D6") and w.attacks.text == "D6"
    assert w.damage.text == "D3+1"
    assert weapon(abilities=["ASSAULT", "HEAVY"]).abilities_text == "[ASSAULT], [HEAVY]"
    with pytest.raises(AttributeError):
        w.skill = 2  # type: ignore[misc]


def test_pool_key_ignores_name_and_attacks() -> None:
    assert weapon(name="a", attacks=1).pool_key == weapon(name="b", attacks="D6").pool_key
    assert weapon(damage=1).pool_key == weapon(damage="1").pool_key
    assert (
        weapon(abilities="[HEAVY], [ASSAULT]").pool_key
        == weapon(abilities="assault, heavy").pool_key
    )
    for change in (
        {"skill": 4},
        {"strength": 5},
        {"ap": 0},
        {"damage": 2},
        {"abilities": "ASSAULT"},
    ):
        assert weapon(**change).pool_key != weapon().pool_key


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"count": 0}, "ModelGroup.count must be an integer >= 1; got 0"),
        ({"count": 2.0}, "ModelGroup.count must be an integer >= 1; got 2.0"),
        ({"toughness": 0}, "ModelGroup.toughness must be an integer >= 1; got 0"),
        ({"save": 1}, "ModelGroup.save must be an integer from 2 to 7; got 1"),
        ({"save": "3x"}, "ModelGroup.save must be a roll from 2+ to 6+, written '3+' or '3'"),
        ({"wounds": 0}, "ModelGroup.wounds must be an integer >= 1; got 0"),
        ({"invuln": 7}, "ModelGroup.invuln must be an integer from 2 to 6; got 7"),
        ({"fnp": 1}, "ModelGroup.fnp must be an integer from 2 to 6; got 1"),
        ({"character": "yes"}, "ModelGroup.character must be True or False; got 'yes'"),
        ({"character": True}, "ModelGroup.count must be 1 for a CHARACTER group; got 5"),
        ({"wounds_lost": 2}, "ModelGroup.wounds_lost must be an integer from 0 to 1; got 2"),
        ({"name": None}, "ModelGroup.name must be a string; got None"),
    ],
)
def test_model_group_validation(changes: dict[str, object], message: str) -> None:
    fields: dict[str, object] = dict(count=5, toughness=4, save=3, wounds=2)
    fields.update(changes)
    with pytest.raises(ProfileError, match=re.escape(message)):
        ModelGroup(**fields)  # type: ignore[arg-type]


def test_unit_of_and_properties() -> None:
    u = Unit.of(
        "Marines",
        models=5,
        toughness=4,
        save=3,
        wounds=2,
        invuln=5,
        fnp=6,
        keywords="infantry, Imperium",
    )
    assert u.models == 5 and u.total_wounds == 10 and u.toughness == 4
    assert u.keywords == ("INFANTRY", "IMPERIUM") and u.has_keyword("infantry")
    assert u.groups[0].invuln == 5 and u.groups[0].fnp == 6
    assert u.groups[0].label == "5x W2 Sv3+ InSv5+"


def test_unit_toughness_is_highest_non_character() -> None:
    u = Unit(
        "u",
        [ModelGroup(3, 5, 3, 2), ModelGroup(2, 4, 4, 1), ModelGroup(1, 6, 2, 5, character=True)],
    )
    assert u.toughness == 5
    only_characters = Unit("c", [ModelGroup(1, 6, 2, 5, character=True)])
    assert only_characters.toughness == 6


GUARD = ModelGroup(4, 4, 3, 2, name="Guard")
TROOPS = ModelGroup(5, 4, 4, 1, name="Troops")
BOSS = ModelGroup(1, 4, 2, 5, invuln=4, character=True, name="Boss")
ADJUTANT = ModelGroup(1, 4, 3, 4, character=True, name="Adjutant")


@pytest.mark.parametrize(
    ("groups", "constraint"),
    [
        ([BOSS, GUARD], "must put every non-CHARACTER group before the CHARACTER groups"),
        ([GUARD, BOSS, TROOPS], "must put every non-CHARACTER group before the CHARACTER groups"),
        (
            [GUARD, ModelGroup(5, 4, 4, 1, wounds_lost=0), ModelGroup(2, 4, 5, 2, wounds_lost=1)],
            "must put a non-CHARACTER group holding a wounded model first",
        ),
        (
            [ModelGroup(2, 4, 3, 2, wounds_lost=1), ModelGroup(2, 4, 5, 2, wounds_lost=1)],
            "at most one non-CHARACTER group with a wounded model",
        ),
        (
            [GUARD, BOSS, ModelGroup(1, 4, 3, 4, character=True, name="Hurt", wounds_lost=1)],
            "must put wounded CHARACTER groups before unwounded ones",
        ),
        ([GUARD, ModelGroup(3, 5, 3, 2)], "must not split models sharing W, Sv and InSv"),
    ],
)
def test_allocation_order_constraints(groups: list[ModelGroup], constraint: str) -> None:
    with pytest.raises(AllocationOrderError, match=re.escape(constraint)):
        Unit("u", groups)


def test_valid_orders() -> None:
    Unit("u", [GUARD, TROOPS, BOSS, ADJUTANT])
    Unit("u", [ModelGroup(2, 4, 3, 2, wounds_lost=1), TROOPS, BOSS])
    Unit("u", [GUARD, ModelGroup(1, 4, 3, 4, character=True, wounds_lost=2), BOSS])
    Unit("u", [BOSS])
    Unit("u", BOSS)  # a lone group is wrapped in a tuple


@pytest.mark.parametrize(
    ("groups", "message"),
    [
        ([], "Unit.groups must be at least one ModelGroup"),
        ([GUARD, "x"], "Unit.groups must be ModelGroup objects; got 'x'"),
        (3, "Unit.groups must be a sequence of ModelGroup; got 3"),
    ],
)
def test_unit_validation(groups: object, message: str) -> None:
    with pytest.raises(ProfileError, match=re.escape(message)):
        Unit("u", groups)  # type: ignore[arg-type]


def test_group_lookup() -> None:
    u = Unit("u", [GUARD, BOSS])
    assert u.group_index("Boss") == 1 and u.group_index(0) == 0
    with pytest.raises(
        ProfileError, match=re.escape("group must be one of ['Guard', 'Boss']; got 'X'")
    ):
        u.group_index("X")
    with pytest.raises(ProfileError, match="group must be an index from 0 to 1; got 2"):
        u.group_index(2)


def test_gather_pools_forms_and_order() -> None:
    a, b = weapon(name="a"), weapon(name="b", strength=8)
    assert [p.label for p in mh.gather_pools(a)] == ["a"]
    assert [p.label for p in mh.gather_pools([a, b, a])] == ["a + a", "b"]
    pools = mh.gather_pools([(b, 2), (a, 3), (weapon(name="c", attacks="D3"), 1)])
    assert [p.label for p in pools] == ["b x2", "a x3 + c"]


@pytest.mark.parametrize(
    ("weapons", "message"),
    [
        ([], "weapons must be non-empty"),
        ("bolter", "weapons must be a Weapon, a list of Weapons, or a list of (Weapon, count)"),
        ([("x", 2)], "weapons[0] must be a Weapon"),
        ([(weapon(), 0)], "weapons[0].count must be an integer >= 1; got 0"),
        ([(weapon(), 1.5)], "weapons[0].count must be an integer >= 1; got 1.5"),
        ([weapon(), (weapon(), -2)], "weapons[1].count must be an integer >= 1; got -2"),
    ],
)
def test_bad_weapon_lists(weapons: object, message: str) -> None:
    unit = Unit.of("t", 5, 4, 3, 1)
    with pytest.raises(ProfileError, match=re.escape(message)):
        mh.attack(weapons, unit)  # type: ignore[arg-type]  # wrong on purpose
    with pytest.raises(ProfileError, match=re.escape(message)):
        mh.simulate(weapons, unit, trials=10)  # type: ignore[arg-type]


def test_bad_target_rules_and_trials() -> None:
    with pytest.raises(ProfileError, match="target must be a Unit"):
        mh.attack(weapon(), "marines")  # type: ignore[arg-type]
    with pytest.raises(
        mh.RulesError, match=re.escape("rules must be one of ['11e', 'classic'") + r".*got '9e'"
    ):
        mh.attack(weapon(), Unit.of("t", 5, 4, 3, 1), rules="9e")
    with pytest.raises(mh.OptionError, match="trials must be an integer >= 2; got 0"):
        mh.simulate(weapon(), Unit.of("t", 5, 4, 3, 1), trials=0)


def test_unknown_abilities_warn_once_and_are_kept() -> None:
    with pytest.warns(mh.UnknownAbilityWarning, match="'SNAGGED'") as record:
        w = weapon(abilities="[ASSAULT], [SNAGGED], [LETHAL HITS]")
    assert len(record) == 1
    assert w.unknown_abilities == ("SNAGGED",)
    assert w.abilities_text == "[ASSAULT], [LETHAL HITS]"


def test_exact_engine_size_limits() -> None:
    big = Weapon("w", attacks=6000, skill=3, strength=4, ap=0, damage=1)
    with pytest.raises(
        mh.LimitError, match="attack dice of pool 'w' must be at most 5000; got 6000"
    ):
        mh.attack(big, Unit.of("t", 5, 4, 3, 1))
    with pytest.raises(mh.LimitError, match="target wounds must be at most 10000; got 12000"):
        mh.attack(weapon(), Unit.of("t", 2000, 4, 3, 6))


def test_more_input_forms_and_errors() -> None:
    unit = Unit.of("t", 10, 4, 3, 1)
    bolt = weapon()
    assert mh.attack({bolt: 3}, unit).pools[0].attacks.mean() == 6.0  # {Weapon: count}
    with pytest.raises(ProfileError, match="keywords must be a string or a list of strings"):
        Unit.of("u", 1, 4, 3, 1, keywords=None)  # type: ignore[arg-type]
    with pytest.raises(mh.OptionError, match="rng must be None, an integer, a SeedSequence"):
        mh.simulate(bolt, unit, trials=10, rng="a")  # type: ignore[arg-type]
    blast = Weapon("b", 1, 4, 5, 0, 1, abilities="[BLAST 5]")
    with pytest.raises(mh.LimitError, match="got 10010"):  # bonus dice count towards the limit
        mh.attack([(blast, 10)], Unit.of("h", 1000, 3, 5, 1))
