"""A rule for some models of a unit (docs/rules.md D41): read with the models it names,
it arms only their weapons, so what looks like one weapon type splits into two pools
(§2.4: a pool holds the attacks with the same rules affecting them)."""

from __future__ import annotations

import numpy as np
import pytest

import mathhammer as mh
from mathhammer.abilities import LethalHits
from mathhammer.io.rules_text import read_rule
from mathhammer.model.effects import Effect
from mathhammer.units.datasheet import guarded
from mathhammer.units.parts import AbilityText

CHOPPA = mh.Weapon("Choppa", 3, 3, 4, -1, 1, melee=True)
NOBZ = AbilityText(
    "Nob Leadership",
    "Melee weapons equipped by **Nob** models in this unit have the **[LETHAL HITS]** ability.",
)


def boyz(effects: tuple[Effect, ...]) -> mh.Datasheet:
    return mh.Datasheet(
        "Boyz",
        (
            mh.ModelProfile("Boy", 5, 5, 1, min_count=9, max_count=9, weapons=("Choppa",)),
            mh.ModelProfile("Boss Nob", 5, 5, 2, weapons=("Choppa",)),
        ),
        (mh.Wargear("Choppa", (CHOPPA,)),),
        effects=effects,
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (NOBZ.text, ["melee: nob models: [LETHAL HITS]"]),
        (
            "Each time a Sisters Repentia model in this unit makes a melee attack, you can "
            "re-roll the Hit roll.",
            ["melee: sisters repentia models: re-roll hit rolls"],
        ),
        (
            "Each time this unit makes a Charge move, until the end of the turn, add 1 to the "
            "Damage characteristic of melee weapons equipped by Paladin Squad models in this "
            "unit.",
            ["melee: paladin squad models: +1 D if charged"],
        ),
        ("Each time a model in this unit makes an attack, add 1 to the Hit roll.", ["+1 to hit"]),
    ],
)
def test_a_subject_naming_some_models_is_read_with_them(text: str, expected: list[str]) -> None:
    reading = read_rule(AbilityText("Rule", text))
    assert [e.text for e in reading.effects] == expected


def test_a_keyword_is_not_read_as_a_name() -> None:
    reading = read_rule(
        AbilityText(
            "Odd",
            "Each time a CHARACTER model in this unit makes an attack, add 1 to the Hit roll.",
        )  # fmt: skip
    )
    assert not any(e.models for e in reading.effects)


def test_the_rule_splits_the_pool_exactly_as_two_weapon_types() -> None:
    effects = read_rule(NOBZ).effects
    sheet = boyz(effects)
    attacker = sheet.attacker()
    boy, nob = attacker.models
    assert boy.weapons[0] == CHOPPA
    assert nob.weapons[0] == CHOPPA.replace(abilities=(LethalHits(),))
    loadout = {x.name: x for x in sheet.loadouts()}["Boyz (melee)"]
    target = mh.targets.get("Line infantry").unit
    melee = mh.Context(melee=True)
    got = mh.attack(list(loadout.weapons), target, context=melee)
    by_hand = [(CHOPPA, 9), (CHOPPA.replace(abilities="[LETHAL HITS]"), 1)]
    want = mh.attack(by_hand, target, context=melee)
    assert len(got.pools) == 2
    assert got.killed.allclose(want.killed, atol=1e-12)
    plain = mh.attack([(CHOPPA, 10)], target, context=melee)
    assert got.damage.mean() > plain.damage.mean()
    rolled = mh.simulate(list(loadout.weapons), target, context=melee, trials=40_000,
                         rng=np.random.default_rng(3))  # fmt: skip
    sd = got.damage.std() / np.sqrt(40_000)
    assert abs(rolled.damage.mean() - got.damage.mean()) < 4 * sd


def test_a_field_for_some_models_goes_to_their_group_only() -> None:
    unit = mh.Unit("Boyz", [mh.ModelGroup(9, 5, 5, 1, name="Boy"),
                            mh.ModelGroup(1, 5, 5, 2, name="Boss Nob")])  # fmt: skip
    led = guarded(unit, [Effect("fnp", 5, scope="led", models="nob")])
    assert [g.fnp for g in led.groups] == [None, 5]
    with pytest.raises(mh.ProfileError, match="Effect.models"):
        Effect("hit", 1, models=3)  # type: ignore[arg-type]


def test_a_leaders_rule_on_this_model_stays_with_the_leader() -> None:
    # D37: "this model" is the models of the datasheet with the rule; attached, the leader's
    # own +1 to hit does not reach the bodyguard, "this unit" does
    from mathhammer.io.roster.army import Roster, RosterUnit

    own = read_rule(AbilityText("Killa", "Each time this model makes an attack, add 1 to the "
                                "Hit roll.")).effects  # fmt: skip
    shared = read_rule(AbilityText("Boss", "This unit's melee attacks have [LETHAL HITS].")).effects
    assert [e.scope for e in own] == ["model"] and [e.scope for e in shared] == ["unit"]
    axe = mh.Weapon("Axe", 4, 2, 6, -2, 2, melee=True)
    boss = mh.Datasheet(
        "Boss", (mh.ModelProfile("Boss", 5, 4, 5, character=True, weapons=("Axe",)),),
        (mh.Wargear("Axe", (axe,)),), points=((1, 60),), effects=(*own, *shared),
    )  # fmt: skip
    army = Roster("Demo", None, (RosterUnit.of(boyz(())), RosterUnit.of(boss)))
    led = army.with_leaders({"Boyz": "Boss"}).attackers()[0]
    boy_choppa = led.models[0].weapons[0]
    boss_axe = led.models[-1].weapons[0]
    assert boy_choppa.rules_text == "" and boy_choppa.abilities_text == "[LETHAL HITS]"
    assert boss_axe.rules_text == "Killa (+1 to hit)"
    assert boss_axe.abilities_text == "[LETHAL HITS]"


def test_damage_re_rolled_or_set_by_a_rule_is_the_same_as_by_hand() -> None:
    from mathhammer.model.effects import Condition, arm

    gun = mh.Weapon("Lascannon", 1, 3, 12, -3, "D6+1")
    tank = mh.targets.get("Vehicle").unit
    hunter = read_rule(AbilityText("Titan Hunter", "Each time a ranged attack made by this "
                       "model is allocated to a MONSTER or VEHICLE model, you can re-roll the "
                       "Damage roll.")).effects  # fmt: skip
    assert [(e.text, e.scope) for e in hunter] == [
        ("ranged: re-roll damage rolls if target MONSTER/VEHICLE", "model")
    ]
    armed = arm(gun, hunter)
    got = mh.attack([(armed, 3)], tank)
    want = mh.attack([(gun, 3)], tank, modifiers=mh.Modifiers(reroll_damage="optimal"))
    assert got.damage.allclose(want.damage, atol=1e-12)
    assert got.damage.mean() > mh.attack([(gun, 3)], tank).damage.mean()
    infantry = mh.targets.get("Line infantry").unit  # not a MONSTER or VEHICLE: no re-roll
    assert mh.attack([(armed, 3)], infantry).damage.allclose(
        mh.attack([(gun, 3)], infantry).damage, atol=1e-12
    )
    choppa = mh.Weapon("'Uge choppa", 4, 2, 10, -2, 2, melee=True)
    brutal = Effect("damage_set", 3, conditions=(Condition("assumed", "waaagh"),),
                    weapon="'uge choppa", source="Dead Brutal")  # fmt: skip
    waaagh = mh.Context(melee=True, assume="waaagh")
    set_by_rule = mh.attack([(arm(choppa, [brutal]), 1)], tank, context=waaagh)
    by_hand = mh.attack([(choppa.replace(damage=3), 1)], tank, context=mh.Context(melee=True))
    assert set_by_rule.damage.allclose(by_hand.damage, atol=1e-12)
    rolled = mh.simulate([(armed, 3)], tank, trials=60_000, rng=np.random.default_rng(9))
    assert abs(rolled.damage.mean() - got.damage.mean()) < 4 * got.damage.std() / np.sqrt(60_000)


def test_every_successful_roll_critical_is_exact() -> None:
    from mathhammer.model.effects import arm

    text = "Each time this model makes a ranged attack, every successful Hit roll scores a "
    dakka = read_rule(AbilityText("Dakkastorm", text + "Critical Hit.")).effects
    assert [e.text for e in dakka] == ["ranged: every successful hit roll is critical"]
    # S1 against T10 wounds on a 6 only; with [LETHAL HITS] every hit (4+, a half) wounds
    gun = mh.Weapon("Gun", 1, 4, 1, 0, 1, "[LETHAL HITS]")
    tank = mh.Unit.of("Tank", 1, 10, 7, 20, keywords="VEHICLE")
    got = mh.attack([(arm(gun, dakka), 12)], tank)
    assert got.pools[0].wounds.mean() == pytest.approx(12 * 1 / 2, abs=1e-12)
    plain = mh.attack([(gun, 12)], tank).pools[0].wounds.mean()
    assert plain == pytest.approx(12 * (1 / 6 + 2 / 6 * 1 / 6), abs=1e-12)
    # every wound critical, with [DEVASTATING WOUNDS]: every wound a mortal wound
    rend = Effect("critical_all", "wound", source="Rend")
    dev = mh.Weapon("Claw", 2, 3, 4, 0, 2, "[DEVASTATING WOUNDS]", melee=True)
    armoured = mh.Unit.of("Armoured", 3, 4, 2, 3, invuln=4)
    melee = mh.Context(melee=True)
    hard = mh.attack([(arm(dev, [rend]), 5)], armoured, context=melee)
    assert hard.pools[0].devastating.mean() == pytest.approx(hard.pools[0].wounds.mean())
    rolled = mh.simulate([(arm(dev, [rend]), 5)], armoured, context=melee, trials=60_000,
                         rng=np.random.default_rng(4))  # fmt: skip
    assert abs(rolled.damage.mean() - hard.damage.mean()) < 4 * hard.damage.std() / np.sqrt(60_000)


def test_penalties_ignored_bonuses_kept() -> None:
    from mathhammer.model.effects import arm, guards

    text = "Each time the bearer makes a ranged attack, you can ignore any or all modifiers"
    support = read_rule(AbilityText("Weapon Support System", text + " to the Hit roll."))
    gun = mh.Weapon("Rail rifle", 1, 4, 10, -4, "D6")
    steady = arm(gun, support.effects)
    crisis = mh.Unit.of("Crisis", 3, 5, 3, 4)
    hidden = mh.Unit("Crisis", crisis.groups, rules=guards([Effect("target_hit", -1, source="X")]))
    plain = mh.attack([(gun, 4)], crisis)
    assert mh.attack([(steady, 4)], hidden).killed.allclose(plain.killed, atol=1e-12)
    assert mh.attack([(gun, 4)], hidden).killed.mean() < plain.killed.mean()
    helped = mh.Modifiers(hit=1)  # a bonus stays
    assert mh.attack([(steady, 4)], crisis, modifiers=helped).killed.allclose(
        mh.attack([(gun, 4)], crisis, modifiers=helped).killed, atol=1e-12
    )
    guardian = read_rule(AbilityText("Sentinels", "Each time a model in this unit makes an "
                         "attack, you can ignore any or all modifiers to the following: that "
                         "attack's Ballistic Skill characteristic; the Wound roll."))  # fmt: skip
    assert [e.value for e in guardian.effects] == ["skill", "wound"]
    worse = mh.Modifiers(skill=1, wound=-1)
    keen = arm(gun, guardian.effects)
    assert mh.attack([(keen, 4)], crisis, modifiers=worse).killed.allclose(plain.killed, atol=1e-12)


def test_a_bodyguards_rule_for_its_leader_goes_to_the_leader_only() -> None:
    from mathhammer.io.roster.army import Roster, RosterUnit

    text = "While a CHARACTER model is leading this unit, that CHARACTER has the Feel No Pain"
    guardian = read_rule(AbilityText("Guardian Organism", text + " 5+ ability")).effects
    assert [(e.text, e.models) for e in guardian] == [
        ("character models: Feel No Pain 5+", "character")
    ]
    guards = mh.Datasheet(
        "Guards", (mh.ModelProfile("Guard", 4, 3, 2, min_count=5, max_count=5),),
        points=((5, 100),), effects=guardian,
    )  # fmt: skip
    boss = mh.Datasheet(
        "Boss", (mh.ModelProfile("Boss", 5, 3, 5, character=True),), points=((1, 80),)
    )
    army = Roster("Demo", None, (RosterUnit.of(guards), RosterUnit.of(boss)))
    alone = {t.name: t for t in army.targets()}["Guards"].unit
    assert [g.fnp for g in alone.groups] == [None]
    led = army.with_leaders({"Guards": "Boss"}).targets()[0].unit
    assert [(g.label, g.fnp) for g in led.groups] == [("Guard", None), ("Boss", 5)]
