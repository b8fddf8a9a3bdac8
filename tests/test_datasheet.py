"""Datasheets: unit sizes, points brackets, target units, attackers and loadouts."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

import mathhammer as mh
from mathhammer.units.datasheet import (
    AbilityText,
    Datasheet,
    ModelProfile,
    Wargear,
    attach_leaders,
)
from mathhammer.units.options import AttackOptions

GAUSS = mh.Weapon("Gauss flayer", 1, 4, 4, 0, 1, "[LETHAL HITS], [RAPID FIRE 1]")
FRAG = mh.Weapon("frag", "D3", 4, 4, 0, 1, "[BLAST]")
KRAK = mh.Weapon("krak", 1, 4, 9, -2, "D6")
BLADE = mh.Weapon("Blade", 2, 3, 4, -1, 1, melee=True)
CLAW = mh.Weapon("Claw", 1, 3, 5, -2, 2, "[EXTRA ATTACKS]", melee=True)
AXE = mh.Weapon("Axe", 3, 3, 6, -1, 2, melee=True)

WARGEAR = (
    Wargear("Gauss flayer", (GAUSS,)),
    Wargear("Grenade launcher", (FRAG, KRAK)),
    Wargear("Blade", (BLADE,)),
    Wargear("Claw", (CLAW,)),
    Wargear("Axe", (AXE,)),
)
WARRIOR = ModelProfile(
    "Warrior",
    toughness=4,
    save=4,
    wounds=1,
    min_count=9,
    max_count=19,
    weapons=("Gauss flayer", "Blade"),
    options=("Grenade launcher", "Axe"),
)
SERGEANT = ModelProfile(
    "Sergeant",
    toughness=4,
    save=4,
    wounds=2,
    fnp=6,
    fnp_mortal=5,
    weapons=("Grenade launcher", "Blade", "Claw"),
)
SQUAD = Datasheet(
    "Squad",
    models=(WARRIOR, SERGEANT),
    wargear=WARGEAR,
    faction="Testers",
    keywords=("Infantry", "Battleline"),
    abilities=(AbilityText("Tough", "Feel No Pain 6+"),),
    points=((20, 200), (10, 90)),
    source="squad.json: Squad",
)


class TestSizes:
    def test_default_total_and_per_type_counts(self) -> None:
        assert SQUAD.counts() == {"Warrior": 9, "Sergeant": 1}
        assert SQUAD.default_size == 10
        assert SQUAD.sizes == range(10, 21)
        assert SQUAD.counts(15) == {"Warrior": 14, "Sergeant": 1}
        assert SQUAD.counts({"Warrior": 12}) == {"Warrior": 12, "Sergeant": 1}

    def test_a_total_fills_the_types_that_may_vary_in_order(self) -> None:
        grunt = ModelProfile("Grunt", 3, 6, 1, min_count=5, max_count=10)
        boss = ModelProfile("Boss", 3, 6, 2, min_count=0, max_count=2)
        sheet = Datasheet("Mob", (grunt, boss))
        assert sheet.counts(12) == {"Grunt": 10, "Boss": 2}
        assert sheet.counts(6) == {"Grunt": 6, "Boss": 0}

    @pytest.mark.parametrize(
        ("models", "message"),
        [
            (9, "models of 'Squad' must be a unit size from 10 to 20; got 9"),
            (21, "models of 'Squad' must be a unit size from 10 to 20; got 21"),
            (True, "models of 'Squad' must be a unit size from 10 to 20; got True"),
            ({"Warrior": 20}, "models['Warrior'] must be from 9 to 19; got 20"),
            ({"Warrior": "9"}, "models['Warrior'] must be an integer; got '9'"),
            ({"Lord": 1}, "model of 'Squad' must be one of ['Warrior', 'Sergeant']; got 'Lord'"),
        ],
    )
    def test_invalid_sizes(self, models: object, message: str) -> None:
        with pytest.raises(mh.ProfileError, match=message.replace("[", r"\[").replace("]", r"\]")):
            SQUAD.counts(models)  # type: ignore[arg-type]

    def test_points_brackets(self) -> None:
        assert SQUAD.points == ((10, 90), (20, 200))
        assert SQUAD.points_for() == 90
        assert SQUAD.points_for(19) == 90
        assert SQUAD.points_for(20) == 200
        assert Datasheet("x", (WARRIOR,), WARGEAR).points_for() is None


class TestTargets:
    def test_a_unit_groups_models_by_wounds_save_and_invuln(self) -> None:
        unit = SQUAD.unit(15)
        assert [(g.name, g.count, g.wounds) for g in unit.groups] == [
            ("Warrior", 14, 1),
            ("Sergeant", 1, 2),
        ]
        assert unit.keywords == ("INFANTRY", "BATTLELINE")
        assert unit.groups[1].feel_no_pain(mortal=True) == 5
        twin = ModelProfile("Twin", 4, 4, 1, min_count=1, max_count=1)
        merged = Datasheet("m", (WARRIOR, twin), WARGEAR).unit()
        assert [(g.name, g.count) for g in merged.groups] == [("Warrior", 10)]

    def test_characters_are_their_own_groups_after_the_others(self) -> None:
        lord = ModelProfile("Lord", 5, 2, 5, invuln=4, character=True, min_count=2, max_count=2)
        unit = Datasheet("Court", (lord, WARRIOR), WARGEAR).unit()
        assert [(g.name, g.count, g.character) for g in unit.groups] == [
            ("Warrior", 9, False),
            ("Lord", 1, True),
            ("Lord", 1, True),
        ]

    def test_the_target_carries_points_and_source(self) -> None:
        target = SQUAD.target(20)
        assert target.points == 200 and target.unit.models == 20
        assert target.source == "squad.json: Squad"

    def test_a_unit_needs_a_model(self) -> None:
        boss = ModelProfile("Boss", 3, 6, 2, min_count=0, max_count=1)
        with pytest.raises(mh.ProfileError, match="at least one model"):
            Datasheet("Empty", (boss,)).unit()


class TestAttackers:
    def test_default_wargear_with_named_profiles(self) -> None:
        attacker = SQUAD.attacker()
        warriors, sergeant = attacker.models
        assert (warriors.count, [w.name for w in warriors.weapons]) == (
            9,
            ["Gauss flayer", "Blade"],
        )
        assert [w.name for w in sergeant.weapons] == [
            "Grenade launcher: frag",
            "Grenade launcher: krak",
            "Blade",
            "Claw",
        ]
        assert warriors.keywords == ("INFANTRY", "BATTLELINE")

    def test_stated_wargear(self) -> None:
        attacker = SQUAD.attacker(12, wargear={"Warrior": ["Grenade launcher", "Axe"]})
        assert attacker.models[0].count == 11
        assert [w.name for w in attacker.models[0].weapons] == [
            "Grenade launcher: frag",
            "Grenade launcher: krak",
            "Axe",
        ]

    def test_two_of_one_gun_are_two_weapons(self) -> None:
        ark = ModelProfile("Ark", 8, 3, 14, weapons=("Gauss flayer", "Gauss flayer"))
        attacker = Datasheet("Ark", (ark,), WARGEAR).attacker()
        assert [w.name for w in attacker.models[0].weapons] == ["Gauss flayer", "Gauss flayer #2"]
        rows = Datasheet("Ark", (ark,), WARGEAR).loadouts()
        assert [(w.name, n) for w, n in rows[0].weapon_counts] == [
            ("Gauss flayer", 1),
            ("Gauss flayer", 1),
        ]

    def test_wargear_outside_the_options_is_refused(self) -> None:
        with pytest.raises(mh.ProfileError, match="wargear of 'Warrior' must be one of"):
            SQUAD.attacker(wargear={"Warrior": ["Claw"]})
        with pytest.raises(mh.ProfileError, match="model of 'Squad' must be one of"):
            SQUAD.attacker(wargear={"Lord": ["Claw"]})

    def test_a_datasheet_without_weapons_cannot_attack(self) -> None:
        with pytest.raises(mh.ProfileError, match="has no weapons"):
            Datasheet("Unarmed", (WARRIOR.__class__("Body", 4, 4, 1),)).attacker()


class TestLoadouts:
    def test_ranged_and_melee_rows_with_profile_variants(self) -> None:
        rows = {x.name: [(w.name, n) for w, n in x.weapon_counts] for x in SQUAD.loadouts()}
        assert rows == {  # the default option of each phase
            "Squad (ranged)": [("Gauss flayer", 9), ("Grenade launcher: frag", 1)],
            # each model fights with one melee weapon, plus its [EXTRA ATTACKS] weapons
            "Squad (melee)": [("Blade", 9), ("Blade", 1), ("Claw", 1)],
        }
        ranged, melee = SQUAD.loadouts()
        assert isinstance(ranged, AttackOptions) and isinstance(melee, AttackOptions)
        assert [o.name for o in ranged.options] == [  # a launcher fires frag or krak
            "9x Gauss flayer, 1x Grenade launcher: frag",
            "9x Gauss flayer, 1x Grenade launcher: krak",
        ]
        assert (ranged.phase, melee.phase) == ("shooting", "fight")
        assert [o.name for o in melee.options] == ["10x Blade, 1x Claw"]
        assert {x.points for x in SQUAD.loadouts()} == {90}

    def test_a_loadout_attacks_as_its_weapons_do(self) -> None:
        target = mh.targets.get("Line infantry").unit
        ranged = SQUAD.loadouts()[0]
        by_hand = mh.attack([(GAUSS, 9), (FRAG, 1)], target)
        assert mh.attack(ranged.weapons, target).killed == by_hand.killed

    def test_melee_uses_the_first_main_weapon(self) -> None:
        rows = SQUAD.loadouts(wargear={"Warrior": ["Axe", "Blade", "Gauss flayer"]})
        melee = [x for x in rows if x.name == "Squad (melee)"][0]
        assert [(w.name, n) for w, n in melee.weapon_counts] == [
            ("Axe", 9),
            ("Blade", 1),
            ("Claw", 1),
        ]


class TestValidation:
    @pytest.mark.parametrize(
        ("fields", "message"),
        [
            ({"min_count": -1}, "min_count must be an integer >= 0"),
            ({"min_count": 3, "max_count": 2}, "max_count must be >= min_count"),
            ({"default_count": 5}, "default_count must be from 1 to 1"),
            ({"default_count": "1"}, "default_count must be an integer"),
            ({"save": 8}, "ModelGroup.save must be an integer from 2 to 7"),
        ],
    )
    def test_model_profiles(self, fields: dict[str, object], message: str) -> None:
        values: dict[str, object] = {"toughness": 4, "save": 4, "wounds": 1} | fields
        with pytest.raises(mh.ProfileError, match=message):
            ModelProfile("m", **values)  # type: ignore[arg-type]

    def test_wargear_needs_weapons(self) -> None:
        with pytest.raises(mh.ProfileError, match="Wargear 'x'.profiles must be one or more"):
            Wargear("x", ())

    def test_datasheets(self) -> None:
        with pytest.raises(mh.ProfileError, match="models must be one or more ModelProfiles"):
            Datasheet("x", ())
        with pytest.raises(mh.ProfileError, match="wargear must be distinct names"):
            Datasheet("x", (WARRIOR,), (WARGEAR[0], WARGEAR[0]))
        with pytest.raises(mh.ProfileError, match="wargear of 'x' must be one of"):
            Datasheet("x", (WARRIOR,), WARGEAR[:1])

    def test_melee_wargear_and_pickling(self) -> None:
        assert WARGEAR[2].melee and not WARGEAR[1].melee
        assert pickle.loads(pickle.dumps(SQUAD)) == SQUAD


class TestLeaders:
    def test_leaders_become_character_groups(self) -> None:
        guard = mh.Unit.of("Guard", 5, 4, 3, 2, keywords="INFANTRY", stealth=True)
        boss = mh.Unit("Boss", [mh.ModelGroup(1, 4, 2, 5, character=True, name="Boss")])
        pair = mh.Unit.of("Twins", 2, 4, 3, 3)
        led = attach_leaders(guard, boss, pair)
        assert led.name == "Guard led by Boss, Twins"
        assert [(g.label, g.character) for g in led.groups] == [
            ("5x W2 Sv3+", False),
            ("Boss", True),
            ("1x W3 Sv3+", True),
            ("1x W3 Sv3+", True),
        ]
        assert led.keywords == ("INFANTRY",) and not led.stealth
        assert attach_leaders(guard, name="Alone").stealth

    def test_a_led_unit_protects_its_leader(self) -> None:
        guard = mh.Unit.of("Guard", 5, 4, 3, 2)
        boss = mh.Unit("Boss", [mh.ModelGroup(1, 4, 2, 5, character=True, name="Boss")])
        led = attach_leaders(guard, boss)
        bolt = mh.Weapon("Bolt rifle", 2, 3, 4, -1, 1)
        by_hand = mh.Unit("x", [guard.groups[0], boss.groups[0]])
        assert mh.attack([(bolt, 10)], led).killed == mh.attack([(bolt, 10)], by_hand).killed
        assert mh.attack([(bolt, 10)], led).killed_in("Boss").at_least(1) < 1e-3


def test_two_wargear_choices_go_into_one_comparison_under_their_own_names() -> None:
    """Datasheet.loadouts(name=...): a datasheet's wargear choices side by side."""
    import mathhammer as mh

    catalogue = mh.read_catalogue(Path(__file__).parent / "data" / "bsdata")
    warriors = catalogue.get("Necron Warriors")
    flayers = warriors.loadouts(name="Warriors (flayers)")
    reapers = warriors.loadouts(wargear={"Necron Warriors": ["Gauss reaper"]},
                                name="Warriors (reapers)")  # fmt: skip
    assert [x.name for x in flayers][0] == "Warriors (flayers) (ranged)"
    frame = mh.compare([flayers[0], reapers[0]], [mh.targets.get("Line infantry")])
    assert frame.loadout.tolist() == ["Warriors (flayers) (ranged)", "Warriors (reapers) (ranged)"]
    assert frame.mean_killed[0] != frame.mean_killed[1]
    assert warriors.loadouts()[0].name == "Necron Warriors (ranged)"
    with pytest.raises(mh.OptionError, match="name must be a non-empty string"):
        warriors.loadouts(name=" ")
