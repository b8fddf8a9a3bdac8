"""Rules text read into attacks characteristics (D43), defences against PSYCHIC attacks
(D44), the roll Fire Overwatch hits on (D45), and rolls on a table made before the attacks
(D37): the catalogue text in, the typed effects out; then each in an attack, exactly the
attack built by hand, and the Monte Carlo agreeing where a die decides."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from statcheck import assert_matches, seed_for

import mathhammer as mh
from mathhammer.errors import OptionError
from mathhammer.io.rules_text import read_rule
from mathhammer.model.effects import Effect, arm, guards
from mathhammer.units.assume import check_assumed
from mathhammer.units.parts import AbilityText

#: (name, text as the catalogue prints it, [effect text, ...]).
READ = [
    (
        "Transient Madness",
        "While this model is leading a unit, at the start of your Command phase, roll one D6: "
        "until the start of your next Command phase, weapons equipped by models in that unit "
        "gain the ability below that corresponds with that roll:\n■ 1-2: [SUSTAINED HITS 1]\n"
        "■ 3-4: [LETHAL HITS]\n■ 5-6: [DEVASTATING WOUNDS]",
        [
            "[SUSTAINED HITS 1] if transient madness: 1-2",
            "[LETHAL HITS] if transient madness: 3-4",
            "[DEVASTATING WOUNDS] if transient madness: 5-6",
        ],
    ),
    (
        "Shooty Power Trip",
        "Each time this unit is selected to shoot, you can roll one D6:\n- On a 1\u20112, this "
        "unit suffers D3 mortal wounds.\n- On a 3\u20114, until the end of the phase, add 1 to "
        "the Strength characteristic of ranged weapons equipped by models in this unit.\n- On a "
        "5\u20116, until the end of the phase, add 1 to the Attacks characteristic of ranged "
        "weapons equipped by models in this unit.",
        ["ranged: +1 S if shooty power trip: 3-4", "ranged: +1 A if shooty power trip: 5-6"],
    ),
    (
        "Martial Warrior",
        "Each time this model is selected to fight, select one of the following abilities to be "
        "active while resolving those attacks:\n- Direct Grace: Fidelity has the [PRECISION] "
        "ability.\n- Forceful Strike: Fidelity has the [DEVASTATING WOUNDS] ability.\n- Whirling "
        "Stance: Fidelity has the [SUSTAINED HITS 2] ability instead of [SUSTAINED HITS 1].",
        [
            "fidelity: [PRECISION] if martial warrior: direct grace",
            "fidelity: [DEVASTATING WOUNDS] if martial warrior: forceful strike",
            "fidelity: [SUSTAINED HITS 2] if martial warrior: whirling stance",
        ],
    ),
    (
        "Gun-crazy Show-offs",
        "Each time a model in this unit targets the closest eligible target with its snazzgun, "
        "until the end of the phase, that weapon has an Attacks characteristic of 4.",
        ["snazzgun: A set to 4 if the closest eligible target"],
    ),
    (
        "Dakkablitz",
        "In your Shooting phase, while making attacks with this unit, if its blitzkannon "
        "targeted a non\u2011MONSTER/VEHICLE unit, that weapon has +6 A.",
        ["ranged: blitzkannon: +6 A if target NON-MONSTER/VEHICLE"],
    ),
    (
        "Extremis Trigger Word",
        "Each time this unit is selected to fight, you can choose to invoke its extremis trigger "
        "word. If you do, then until the end of the phase, arco-flails equipped by models in "
        "this unit have an Attacks characteristic of 6 and the HAZARDOUS ability.",
        [
            "arco-flail: A set to 6 if used: extremis trigger word",
            "arco-flail: [HAZARDOUS] if used: extremis trigger word",
        ],
    ),
    (
        "Righteous Repugnance",
        "Each time this model's unit is selected to shoot or fight, you can discard 1 Miracle "
        "dice. If you do, until the end of the phase, add 3 to the Attacks characteristic of "
        "Fidelis and the Lance of Illumination. Each time an enemy unit is destroyed by this "
        "model, you gain 1 Miracle dice.",
        [
            "fidelis: +3 A if used: righteous repugnance",
            "lance of illumination: +3 A if used: righteous repugnance",
        ],
    ),
    (
        "Damaged: 1-6 wounds remaining",
        "While this unit\u2019s Szarekh model has 1-6 wounds remaining, halve the Attacks "
        "characteristic of that model\u2019s weapons, and each time this unit makes an attack, "
        "subtract 1 from the Hit roll.",
        [
            "szarekh models: A halved if this unit's szarekh model has 1-6 wounds remaining",
            "-1 to hit if this unit's szarekh model has 1-6 wounds remaining",
        ],
    ),
    (
        "Damaged: 1-6 Wounds Remaining",
        "While this model has 1-6 wounds remaining, the Attacks characteristics of all of its "
        "weapons are halved, and you can only select one ability when using its Relics of the "
        "Matriarchs ability, instead of up to two.",
        ["A halved if this model has 1-6 wounds remaining"],
    ),
    (
        "Malus Codicium",
        "While this model is leading a unit, double the Attacks characteristic of weapons "
        "equipped by Daemonhost models in that unit.",
        ["daemonhost models: A doubled"],
    ),
    (
        "Impetuous Glory",
        "Each time this model makes a charge move, until the end of the turn, add 1 to the "
        "Attacks characteristic of this model's reaper chain-cleaver - strike profile, and add "
        "2 to the Attacks characteristic of this model's reaper chain-cleaver - sweep profile.",
        [
            "reaper chain-cleaver - strike: +1 A if charged",
            "reaper chain-cleaver - sweep: +2 A if charged",
        ],
    ),
    (
        "Abomination",
        "This model has the Feel No Pain 2+ ability against Psychic Attacks.",
        ["Feel No Pain 2+ if the attack is PSYCHIC"],
    ),
    (
        "Ward Against the Malefic Arts",
        "While this unit is leading a unit, each time a Psychic Attack targets that unit, "
        "subtract 1 from the Hit roll and subtract 1 from the Wound roll.",
        [
            "-1 to hit rolls that target it if the attack is PSYCHIC",
            "-1 to wound rolls that target it if the attack is PSYCHIC",
        ],
    ),
    (
        "Red Skull Kommandos",
        "This unit has +1 Sv against ranged attacks.",
        ["ranged: +1 Sv against attacks that target it"],
    ),
    (
        "Defensive Stance",
        "Each time you target this unit with the Fire Overwatch Stratagem, while resolving that "
        "Stratagem, hits are scored on unmodified Hit rolls of 5+, or unmodified Hit rolls of 4+ "
        "instead if this unit is within range of an objective marker that you control.",
        [
            "ranged: hits on unmodified 5+ if fire overwatch",
            "ranged: hits on unmodified 4+ if fire overwatch and objective",
        ],
    ),
    (
        "Inescapable Death",
        "Once per turn, one unit from your army with this ability can be targeted with the Fire "
        "Overwatch Stratagem for 0CP, even if you have already used that Stratagem on a "
        "different unit this phase. In addition, each time you target this unit with the Fire "
        "Overwatch Stratagem, while resolving that Stratagem, hits are scored on unmodified Hit "
        "rolls of 2+.",
        ["ranged: hits on unmodified 2+ if fire overwatch"],
    ),
    (
        "Sentinel Protocols",
        "Each time you select this FORTIFICATION for the Fire Overwatch Stratagem, hits are "
        "scored on unmodified Hit rolls of 5+ when resolving that Stratagem.",
        ["ranged: hits on unmodified 5+ if fire overwatch"],
    ),
]


@pytest.mark.parametrize("name, text, expected", READ, ids=[n for n, _, _ in READ])
def test_each_phrasing_reads_in_full(name: str, text: str, expected: list[str]) -> None:
    reading = read_rule(AbilityText(name, text))
    assert reading.status == "understood", reading.reason
    assert [e.text for e in reading.effects] == expected


def test_a_weapon_named_with_a_dash_is_not_a_bulleted_list() -> None:
    """ "reaper chain-cleaver - strike profile" is one name; "[ASSAULT]. - In your ..." and
    "can: - re-roll ..." are bullets run into one line."""
    reading = read_rule(AbilityText(*READ[10][:2]))
    assert [e.weapon for e in reading.effects] == [
        "reaper chain-cleaver - strike",
        "reaper chain-cleaver - sweep",
    ]
    armed = arm(mh.Weapon("Reaper chain-cleaver - sweep", 4, 3, 12, -2, 3, melee=True),
                reading.effects)  # fmt: skip
    assert armed.rules_text == "Impetuous Glory (reaper chain-cleaver - sweep: +2 A if charged)"


@pytest.mark.parametrize(
    "text",
    [
        # a roll for another unit: the roll and its results are that unit's
        'At the start of the Fight phase, you can select one enemy unit within 12" of this '
        "model and roll one D6: on a 1, this PSYKER suffers D3 mortal wounds; on a 2+, until "
        "the end of the phase, subtract 1 from the Attacks characteristic of weapons equipped by "
        "models in that unit.",
        # a roll whose results change no attack
        'Once per battle, at the start of any phase, select one enemy unit within 3" of this '
        "model and roll one D6: on a 4+, that enemy unit suffers D6 mortal wounds.",
    ],
)
def test_a_roll_for_another_unit_is_not_this_units_table(text: str) -> None:
    reading = read_rule(AbilityText("Rule", text))
    assert reading.effects == () and reading.status in ("other units", "not relevant")


# --- in an attack ---------------------------------------------------------------------------

BOYZ = mh.Unit.of("Boyz", 10, 5, 5, 1, keywords="INFANTRY")
SHOOTA = mh.Weapon("Shoota", 2, 5, 4, 0, 1)


def same(a: mh.AttackResult, b: mh.AttackResult) -> None:
    np.testing.assert_allclose(a.killed.probabilities, b.killed.probabilities, rtol=0, atol=1e-12)
    np.testing.assert_allclose(a.damage.probabilities, b.damage.probabilities, rtol=0, atol=1e-12)


def effects(name: str) -> tuple[Effect, ...]:
    (found,) = [row for row in READ if row[0] == name]
    return read_rule(AbilityText(*found[:2])).effects


@pytest.mark.parametrize(
    "result, by_hand",
    [
        ("3-4", SHOOTA.replace(strength=5)),
        ("5-6", SHOOTA.replace(attacks=3)),
        ("1-2", SHOOTA),
    ],
)
def test_each_result_of_a_roll_is_its_own_situation(result: str, by_hand: mh.Weapon) -> None:
    armed = arm(SHOOTA, effects("Shooty Power Trip"))
    rolled = mh.Context(assume=(f"shooty power trip: {result}",))
    same(mh.attack([(armed, 10)], BOYZ, context=rolled), mh.attack([(by_hand, 10)], BOYZ))
    same(mh.attack([(armed, 10)], BOYZ), mh.attack([(SHOOTA, 10)], BOYZ))


def test_fire_overwatch_hits_on_an_unmodified_six_whatever_the_skill() -> None:
    """A BS2+ gun with +1 to hit hits on a 6 only: its hits are a sixth of its dice."""
    gun = mh.Weapon("Gun", 6, 2, 4, 0, 1)
    overwatch = mh.Context(assume=("fire overwatch",))
    shot = mh.attack([(gun, 5)], BOYZ, context=overwatch, modifiers=mh.Modifiers(hit=1))
    assert shot.pools[0].hits.mean() == pytest.approx(30 / 6, abs=1e-12)
    by_hand = gun.replace(skill=6)  # 6+ with no modifier: the same roll
    same(shot, mh.attack([(by_hand, 5)], BOYZ))
    axe = mh.Weapon("Axe", 3, 3, 4, 0, 1, melee=True)  # melee attacks are not overwatch
    same(mh.attack([(axe, 5)], BOYZ, context=overwatch), mh.attack([(axe, 5)], BOYZ))


def test_a_units_overwatch_rule_widens_the_roll_and_a_penalty_does_not_change_it() -> None:
    gun = mh.Weapon("Gun", 6, 4, 4, 0, 1)
    armed = arm(gun, effects("Defensive Stance"))
    overwatch = mh.Context(assume=("fire overwatch",))
    penalty = mh.Modifiers(hit=-1)
    on_five = mh.attack([(armed, 5)], BOYZ, context=overwatch, modifiers=penalty)
    same(on_five, mh.attack([(gun.replace(skill=5), 5)], BOYZ))
    held = mh.Context(assume=("fire overwatch", "objective"))
    on_four = mh.attack([(armed, 5)], BOYZ, context=held, modifiers=penalty)
    same(on_four, mh.attack([(gun, 5)], BOYZ))  # 4+ unmodified: the BS4+ roll unmodified
    # without the stratagem the rule changes nothing
    same(mh.attack([(armed, 5)], BOYZ), mh.attack([(gun, 5)], BOYZ))


def test_fire_overwatch_is_always_a_state_to_assume() -> None:
    assert check_assumed(["Fire Overwatch"]) == frozenset({"fire overwatch"})
    with pytest.raises(OptionError, match="did you mean 'fire overwatch'"):
        check_assumed(["fire overwach"])


def test_fire_overwatch_in_the_monte_carlo() -> None:
    gun = arm(mh.Weapon("Gun", "D6", 3, 4, 0, 1), effects("Sentinel Protocols"))
    overwatch = mh.Context(assume=("fire overwatch",))
    exact = mh.attack([(gun, 6)], BOYZ, context=overwatch)
    mc = mh.simulate([(gun, 6)], BOYZ, trials=100_000, context=overwatch,
                     rng=seed_for("overwatch"))  # fmt: skip
    assert_matches("hits", exact.pools[0].hits, mc.pools[0].hits, 100_000)
    assert_matches("killed", exact.killed, mc.killed, 100_000)


def test_a_psychic_ward_led_by_its_leader_acts_on_psychic_attacks_only() -> None:
    ward = effects("Ward Against the Malefic Arts")
    guarded = replace(BOYZ, rules=guards(ward))
    smite = mh.Weapon("Smite", 6, 3, 5, -1, 2, "[PSYCHIC]")
    same(
        mh.attack([(smite, 1)], guarded),
        mh.attack([(smite, 1)], BOYZ, modifiers=mh.Modifiers(hit=-1, wound=-1)),
    )
    same(mh.attack([(SHOOTA, 10)], guarded), mh.attack([(SHOOTA, 10)], BOYZ))
