"""Rules text -> typed effects (mathhammer/io/rules_text.py) and the effects in an attack
(mathhammer/model/effects.py, docs/rules.md D37).

Golden readings per phrasing pattern, in both phrasings (the July 2026 catalogues' and the
newer exports'): the text in, the typed effects out. Then an exact test per effect kind: a
weapon armed with the effect, or a target guarded by it, gives exactly the result of the
same attack built by hand with the modifier the effect stands for. Then conditions, the
attached unit of a real roster, and the Monte Carlo on a led unit with conditional rules.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

import mathhammer as mh
from mathhammer.errors import ProfileError
from mathhammer.io.rules_text import read_rule, sheet_rules
from mathhammer.model.effects import Condition, Effect, arm, guards
from mathhammer.units.parts import AbilityText

EXCERPT = Path(__file__).parent / "data" / "rosters" / "real" / "orks_11e_attached.json"

#: (text, [(effect text, scope), ...]): one row per phrasing pattern.
GOLDEN = [
    # the newer phrasing (New Recruit exports, 2026)
    ("This unit's attacks have +1 to **hit rolls**.", [("+1 to hit", "unit")]),
    ("This unit's melee attacks have +1 to **hit rolls**.", [("melee: +1 to hit", "unit")]),
    ("That unit's ranged attacks have **[ASSAULT]**.", [("ranged: [ASSAULT]", "unit")]),
    (
        "Attacks that target this unit have -1 **AP**.",
        [("-1 AP to attacks that target it", "unit")],
    ),
    (
        "Ranged attacks that target this unit have -1 **D**.",
        [("ranged: -1 D to attacks that target it", "unit")],
    ),
    (
        "Attacks that target this unit have -1 to **wound rolls**.",
        [("-1 to wound rolls that target it", "unit")],
    ),
    (
        "This unit's melee attacks have +2 **S** and +1 **AP**.",
        [("melee: +2 S", "unit"), ("melee: +1 AP", "unit")],
    ),
    ("This unit can re-roll **hit rolls** of 1.", [("re-roll hit rolls of 1", "unit")]),
    (
        "Waaagh! ... While a unit is **riled up**:\n- That unit has 5+ **InSv**.",
        [("5+ invulnerable save if riled up", "unit")],
    ),
    (
        "In the Fight phase, if this unit is **riled up**, this unit's attacks have +1 to "
        "**hit rolls**.",
        [("melee: +1 to hit if riled up", "unit")],
    ),
    (
        "While this unit is within range of an objective marker, this unit's ranged attacks "
        "have +1 **AP**.",
        [("ranged: +1 AP if objective", "unit")],
    ),
    # the earlier phrasing (BSData July 2026)
    (
        "Each time a model in this unit makes an attack, add 1 to the Hit roll.",
        [("+1 to hit", "unit")],
    ),
    (
        "While this model is leading a unit, each time a model in that unit makes a melee "
        "attack, add 1 to the Hit roll.",
        [("melee: +1 to hit", "led")],
    ),
    (
        "Each time a model in this unit makes an attack that targets a MONSTER or VEHICLE unit,"
        " add 1 to the Hit roll and add 1 to the Wound roll.",
        [
            ("+1 to hit if target MONSTER/VEHICLE", "unit"),
            ("+1 to wound if target MONSTER/VEHICLE", "unit"),
        ],
    ),
    (
        "Each time a model in this unit makes a ranged attack (excluding attacks that target "
        "MONSTERS and VEHICLES), improve the Armour Penetration characteristic of that attack "
        "by 1.",
        [("ranged: +1 AP if target NON-MONSTER/VEHICLE", "unit")],
    ),
    (
        "Each time this model makes a ranged attack that targets a unit within half range, add "
        "1 to the Hit roll.",
        [("ranged: +1 to hit if half range", "model")],
    ),
    (
        "Each time a model in this unit makes a melee attack, re-roll a Hit roll of 1. If this "
        "unit made a Charge move this turn, you can re-roll the Hit roll instead.",
        [
            ("melee: re-roll hit rolls of 1", "unit"),
            ("melee: re-roll hit rolls if charged", "unit"),
        ],
    ),
    (
        "Each time a model in this unit makes a ranged attack with a burna that targets an enemy "
        'unit within 6", re-roll a Wound roll of 1.',
        [('ranged: burna: re-roll wound rolls of 1 if target within 6"', "unit")],
    ),
    (
        "While this model is leading a unit, each time a model in that unit makes a ranged "
        "attack, a successful unmodifed Hit roll of 5+ scores a Critical Hit.",
        [("ranged: Critical Hits on 5+", "led")],
    ),
    (
        "While this model is leading a unit, melee weapons equipped by models in that unit "
        "have the [LETHAL HITS] ability.",
        [("melee: [LETHAL HITS]", "led")],
    ),
    (
        "Each time this model makes a Charge move, until the end of the turn, melee weapons it "
        "is equipped with have the [DEVASTATING WOUNDS] ability.",
        [("melee: [DEVASTATING WOUNDS] if charged", "model")],
    ),
    (
        "While the Waaagh! is active for your army, add 4 to the Attacks characteristic of this "
        "model's melee weapons.",
        [("melee: +4 A if waaagh", "model")],
    ),
    (
        "Each time an attack targets this unit, subtract 1 from the Hit roll.",
        [("-1 to hit rolls that target it", "unit")],
    ),
    (
        "Each time an attack targets this model, if the Strength characteristic of that attack "
        "is greater than this model's Toughness characteristic, subtract 1 from the Wound roll.",
        [("-1 to wound rolls that target it if S > T", "unit")],
    ),
    (
        "Each time an attack targets this model, worsen the Armour Penetration characteristic "
        "of that attack by 1.",
        [("-1 AP to attacks that target it", "unit")],
    ),
    (
        "While this model is leading a unit, models in that unit have a 5+ invulnerable save "
        "against ranged attacks.",
        [("ranged: 5+ invulnerable save", "led")],
    ),
    (
        "While this model is leading a unit, models in that unit have the Feel No Pain 5+ ability.",
        [("Feel No Pain 5+", "led")],
    ),
    (
        "While this model has 1-5 wounds remaining, each time this model makes an attack, "
        "subtract 1 from the Hit roll.",
        [("-1 to hit if this model has 1-5 wounds remaining", "model")],
    ),
    (
        "Once per battle, at the start of the Fight phase, this model can use this ability. If "
        "it does, until the end of the phase, improve the Strength and Attacks characteristics "
        "of melee weapons equipped by this model by 3.",
        [
            ("melee: +3 S if once per battle: rule", "model"),
            ("melee: +3 A if once per battle: rule", "model"),
        ],
    ),
    (
        "Each time this model makes a melee attack that targets a MONSTER or VEHICLE unit, you "
        "can re-roll the Hit roll, you can re-roll the Wound roll and you can re-roll the "
        "Damage roll.",
        [
            ("melee: re-roll hit rolls if target MONSTER/VEHICLE", "model"),
            ("melee: re-roll wound rolls if target MONSTER/VEHICLE", "model"),
            ("melee: re-roll damage rolls if target MONSTER/VEHICLE", "model"),
        ],
    ),
    (
        "While the Waaagh! is active for your army, this model's 'uge choppa has a Damage "
        "characteristic of 3.",
        [("'uge choppa: D set to 3 if waaagh", "model")],
    ),
    (
        "Each time this model makes a ranged attack, every successful Hit roll scores a "
        "Critical Hit.",
        [("ranged: every successful hit roll is critical", "model")],
    ),
    (
        "While this model is leading a unit, each time a model in that unit makes an attack, "
        "you can ignore any or all modifiers to that attack's Ballistic Skill or Weapon Skill "
        "characteristics and/or all modifiers to the Hit roll.",
        [("ignore penalties to BS/WS", "led"), ("ignore penalties to hit rolls", "led")],
    ),
    (
        "This model's twin heavy rail cannon and seeker missiles have the [ANTI-TITANIC 3+] "
        "ability while targeting a unit within half range.",
        [
            ("twin heavy rail cannon: [ANTI-TITANIC 3+] if half range", "model"),
            ("seeker missile: [ANTI-TITANIC 3+] if half range", "model"),
        ],
    ),
    (
        "When damaged, subtract 1 from Hit rolls when it makes attacks.",
        [("-1 to hit if damaged", "model")],
    ),
    (
        "This model does not suffer the penalty to its hit rolls for making ranged attacks "
        "while enemy units are within Engagement Range of it.",
        [
            (
                "ranged: ignore penalties to hit rolls if enemy units are within engagement range "
                "of it",
                "model",
            )
        ],  # fmt: skip
    ),
    (
        "Each time a model in this unit makes an attack that targets their spotted unit, improve "
        "the Ballistic Skill characteristic of that attack by 1 and that attack has the "
        "[IGNORES COVER] ability.",
        [
            ("BS/WS improved by 1 if target their spotted unit", "unit"),
            ("[IGNORES COVER] if target their spotted unit", "unit"),
        ],
    ),
    (
        "Each time an attack with this model's gaping maw targets an INFANTRY, MOUNTED or BEASTS "
        "unit, each successful unmodified Wound roll is a Critical Wound.",
        [
            (
                "gaping maw: every successful wound roll is critical if target "
                "INFANTRY/MOUNTED/BEASTS",
                "model",
            )
        ],  # fmt: skip
    ),
]


def test_a_rule_read_into_the_models_fields_is_understood() -> None:
    # the Runtherd's Toughness is a field of its group (docs/rules.md D40), not an effect
    reading = read_rule(AbilityText("Runtherd", "Each time an attack targets this unit, if it "
        "contains one or more Gretchin models, until that attack is resolved, Runtherd models "
        "in this unit have a Toughness characteristic of 2."))  # fmt: skip
    assert (reading.status, reading.effects, reading.reason) == ("understood", (), "")


@pytest.mark.parametrize("text, expected", GOLDEN, ids=[t[:48] for t, _ in GOLDEN])
def test_each_phrasing_reads_into_its_typed_effects(
    text: str, expected: list[tuple[str, str]]
) -> None:
    reading = read_rule(AbilityText("Rule", text))
    assert reading.status == "understood", reading.reason
    assert [(e.text, e.scope) for e in reading.effects] == expected


@pytest.mark.parametrize(
    "text, status, reason",
    [
        # a trigger the grammar does not know: listed, with the sentence
        (
            "Each time this unit is selected to shoot, add 1 to the Hit roll.",
            "not understood",
            "not read: 'each time this unit is selected to shoot, add 1 to the hit roll'",
        ),
        # an effect the engine cannot express
        (
            "Each time this model makes a ranged attack, you can change the result of one Hit "
            "roll to an unmodified 6.",
            "not understood",
            "an effect 'you can change the result of one hit roll to an unmodified 6'",
        ),
        # an aura on other units: not this unit's rule
        (
            'While a friendly ORKS unit is within 6" of this model, each time a model in that '
            "unit makes an attack, add 1 to the Hit roll.",
            "other units",
            "",
        ),
        # movement: nothing to do with attacks
        ("This unit has +1 to **charge rolls**.", "not relevant", ""),
    ],
)
def test_what_is_not_read_is_said(text: str, status: str, reason: str) -> None:
    reading = read_rule(AbilityText("Rule", text))
    assert (reading.status, reading.reason) == (status, reason)
    assert reading.effects == ()


def test_a_rule_partly_read_keeps_what_it_read_and_says_what_it_did_not() -> None:
    reading = read_rule(
        AbilityText(
            "Support Systems",
            "Each time a model in this unit makes an attack, re-roll a Hit roll of 1. Each time "
            "this model makes a ranged attack, you can change the result of one Hit roll to an "
            "unmodified 6.",
        )
    )
    assert reading.status == "partly"
    assert [e.text for e in reading.effects] == ["re-roll hit rolls of 1"]
    assert "change the result of one hit roll" in reading.reason


def test_an_improved_save_once_per_battle_is_the_save_read_before_under_that_state() -> None:
    # the Kustom Force Field was "partly" read until its last sentence was read
    reading = read_rule(
        AbilityText(
            "Kustom Force Field",
            (
                "While this model is leading a unit, models in that unit have a 5+ invulnerable "
                "save against ranged attacks. Once per battle, at the start of any phase, this "
                "model can "
                "overcharge its kustom force field. If it does, until the end of the phase, this "
                "invulnerable save is improved to 4+."
            ),
        )
    )
    assert reading.status == "understood", reading.reason
    assert [(e.text, e.scope) for e in reading.effects] == [
        ("ranged: 5+ invulnerable save", "led"),
        ("ranged: 4+ invulnerable save if once per battle: kustom force field", "led"),
    ]


#: (name, text, effect texts): phrasings of the 11th-edition catalogues, read in full.
READ = [
    (
        "Instrument of the Emperor's Wrath",
        "Once per battle, at the start of the Fight phase, this model can use this ability. If "
        "it does, until the end of the phase, add 3 to the Attacks characteristic of melee "
        "weapons equipped by this model and those weapons have the [DEVASTATING WOUNDS] ability.",
        [
            "melee: +3 A if once per battle: instrument of the emperor's wrath",
            "melee: [DEVASTATING WOUNDS] if once per battle: instrument of the emperor's wrath",
        ],
    ),
    (
        "Disintegration Beams",
        "Once per battle, at the start of your Shooting phase, this unit can use this ability. If "
        "it does, until the end of the phase, ranged weapons equipped by models in this unit have "
        "the Devastating Wounds ability.",
        ["ranged: [DEVASTATING WOUNDS] if once per battle: disintegration beams"],
    ),
    (
        "No Foe Shall Stand",
        "Once per battle, at the start of your Shooting phase, this unit can use this ability. If "
        "it does, until the end of the phase, ranged weapons equipped by models in this unit have "
        "the [LETHAL HITS] and [IGNORES COVER abilities].",
        [
            "ranged: [LETHAL HITS] if once per battle: no foe shall stand",
            "ranged: [IGNORES COVER] if once per battle: no foe shall stand",
        ],
    ),
    (
        "CAT Unit",
        "Once per battle, when this unit is selected to shoot, until the end of the phase, ranged "
        "weapons equipped by this unit gain the [IGNORES COVER] ability.",
        ["ranged: [IGNORES COVER] if once per battle: cat unit"],
    ),
    (
        "Defend the Divine Work",
        "Once per battle, at the start of any phase, this model can use this ability. If it does, "
        "until the end of the phase, all models in this model's unit have a 4+ invulnerable save.",
        ["4+ invulnerable save if once per battle: defend the divine work"],
    ),
    (
        "Duality Shield",
        "Once per battle, each time an attack targets this unit, it can use this ability. If it "
        "does, until the end of the phase, models in this unit have a 2+ invulnerable save.",
        ["2+ invulnerable save if once per battle: duality shield"],
    ),
    (
        "Overkill",
        "Once per battle, in your Movement phase, this model can use this ability before it makes "
        "a Normal move. If it does, until the end of the turn, add 6\" to this model's Movement "
        "characteristic and add 3 to the Attacks characteristic of this model's melee weapons.",
        ["melee: +3 A if once per battle: overkill"],
    ),
    (
        "Chance for Glory",
        "Once per battle, at the start of the Fight phase, this model can use this ability. If it "
        "does, until the end of the phase, improve the Strength, Attacks, Armour Penetration and "
        "Damage characteristics of melee weapons equipped by this model by 1.",
        [
            "melee: +1 S if once per battle: chance for glory",
            "melee: +1 A if once per battle: chance for glory",
            "melee: +1 AP if once per battle: chance for glory",
            "melee: +1 D if once per battle: chance for glory",
        ],
    ),
    (
        "Waaagh!",
        "If your Army Faction is ORKS, once per battle, at the start of your Command phase, you "
        "can call a Waaagh!. If you do, until the start of your next Command phase, the Waaagh! "
        "is active for your army and:\n- Units from your army with this ability are eligible to "
        "declare a charge in a turn in which they Advanced.\n- Add 1 to the Strength and Attacks "
        "characteristics of melee weapons equipped by models from your army with this ability.\n"
        "- Models from your army with this ability have a 5+ invulnerable save.",
        ["melee: +1 S if waaagh", "melee: +1 A if waaagh", "5+ invulnerable save if waaagh"],
    ),
    (
        "Threat Level Rising",
        "Each time a model in this unit makes an attack, add 1 to the Hit roll if this unit is "
        "below its Starting Strength, and add 1 to the Wound roll as well if this unit is below "
        "Half-strength.",
        ["+1 to hit if below starting strength", "+1 to wound if below half-strength"],
    ),
    (
        "Holy Hatred",
        "While this model is leading a unit, melee weapons equipped by that unit have the "
        "[SUSTAINED HITS 1] ability.",
        ["melee: [SUSTAINED HITS 1]"],
    ),
    (
        "Champion of the Order of Purifiers",
        "While this model is leading a unit, add 1 to the Attacks characteristic of Purifying "
        "Flame weapons equipped by that unit.",
        ["purifying flame: +1 A"],
    ),
    (
        "Coldstar Commander",
        'While this model is leading a unit, models in that unit have a Move characteristic of 12"'
        " and ranged weapons equipped by models in that unit have the [ASSAULT] ability.",
        ["ranged: [ASSAULT]"],
    ),
    (
        "Inviolable Bastion",
        "Each time an attack is allocated to this FORTIFICATION, subtract 1 from the Damage "
        "characteristic of that attack.",
        ["-1 Damage per attack allocated"],
    ),
    (
        "Slayers of Tyrants",
        "Each time a model in this unit makes an attack that targets a CHARACTER, MONSTER or "
        "VEHICLE unit, you can re-roll the Wound roll.",
        ["re-roll wound rolls if target CHARACTER/MONSTER/VEHICLE"],
    ),
    (
        "Stand Vigil",
        "Each time a model in this unit makes an attack, re-roll a Wound roll of 1. While this "
        "unit is within range of an objective marker you control, you can re-roll the Wound roll "
        "instead.",
        ["re-roll wound rolls of 1", "re-roll wound rolls if objective"],
    ),
    (
        "Impetuous Fervour",
        "Impetuous Fervour: Each time a model in this unit makes an attack, re-roll a Hit roll of "
        "1. If the target of that attack is an enemy unit within range of an objective marker, "
        "you can re-roll the Hit roll instead.",
        ["re-roll hit rolls of 1", "re-roll hit rolls if objective"],
    ),
    (
        "Da Bigger Dey Iz…",
        "Each time this model makes an attack that targets a MONSTER or VEHICLE unit, add 1 to "
        "the Damage characteristic of that attack. Each time this model makes an attack that "
        "targets a TITANIC unit, add 2 to the Damage characteristic of that attack instead.",
        ["+1 D if target MONSTER/VEHICLE and target NON-TITANIC", "+2 D if target TITANIC"],
    ),
    (
        "Sunderer of Fortresses",
        "Each time this model makes an attack that targets a VEHICLE, improve the Strength and "
        "Damage characteristics of that attack by 1. If that attack targets a FORTIFICATION, "
        "improve the Strength and Damage characteristics of that attack by 2 instead.",
        [
            "+1 S if target VEHICLE and target NON-FORTIFICATION",
            "+1 D if target VEHICLE and target NON-FORTIFICATION",
            "+2 S if target VEHICLE and target FORTIFICATION",
            "+2 D if target VEHICLE and target FORTIFICATION",
        ],
    ),
    (
        "Focused Hunters",
        "At the start of the battle, select one unit from your opponent's army. Until the end of "
        "the battle, each time a model in this unit makes an attack that targets that unit, you "
        "can re-roll the Hit roll.",
        ["re-roll hit rolls if target selected: focused hunters"],
    ),
    (
        "Lord of the Machine Cult",
        "While this model is leading a unit, models in that unit have the Feel No Pain 5+ "
        "ability. If that unit has the ELECTRO-PRIESTS keyword, models in that unit have the Feel "
        "No Pain 4+ ability instead.",
        ["Feel No Pain 5+", "Feel No Pain 4+ if that unit has the electro-priests keyword"],
    ),
    (
        "Dead Rippy",
        "If this model is equipped with 2 dread killsaws, those weapons have the [TWIN-LINKED] "
        "ability.",
        ["dread killsaw: [TWIN-LINKED] if equipped with 2 dread killsaws"],
    ),
    (
        "Devoted to Destruction",
        "If this model is equipped with 2 telemon caestus weapons in addition to its armoured "
        "feet weapon, add 2 to the Attacks characteristic of those telemon caestus weapons.",
        ["telemon caestus: +2 A if equipped with 2 telemon caestus"],
    ),
]


@pytest.mark.parametrize("name, text, expected", READ, ids=[n for n, _, _ in READ])
def test_each_catalogue_phrasing_reads_in_full(name: str, text: str, expected: list[str]) -> None:
    reading = read_rule(AbilityText(name, text))
    assert reading.status == "understood", reading.reason
    assert [e.text for e in reading.effects] == expected


def test_a_leaders_later_sentence_on_that_unit_is_for_the_unit_it_leads() -> None:
    name, text, _ = next(r for r in READ if r[0] == "Lord of the Machine Cult")
    reading = read_rule(AbilityText(name, text))
    assert [e.scope for e in reading.effects] == ["led", "led"]


def test_a_target_named_only_as_that_unit_is_never_a_keyword() -> None:
    # without a unit selected before, "that unit" is no target the grammar knows
    reading = read_rule(
        AbilityText(
            "Rule",
            "Each time a model in this unit makes an attack that targets that unit, add 1 to the "
            "Hit roll.",
        )
    )
    assert reading.status == "not understood"
    assert reading.reason == "a target 'that unit'"


@pytest.mark.parametrize(
    "text, status",
    [
        # cover for the models behind a fortification or a big model: other models' rule
        (
            "Each time a ranged attack is allocated to a model, if that model is not fully visible "
            "to every model in the attacking unit because of this FORTIFICATION, that model has "
            "the Benefit of Cover against that attack.",
            "other units",
        ),
        (
            'When this FORTIFICATION is set up, all parts of it must be set up within 1" of '
            "another part. While an INFANTRY model has the Benefit of Cover as a result of this "
            "FORTIFICATION (see below), that model has a 4+ invulnerable save.",
            "other units",
        ),
        # a unit selected: what follows is about it
        (
            "In your Shooting phase, after this model has shot, select one enemy unit hit by one "
            "or more of those attacks. Until the end of the phase, that unit cannot have the "
            "Benefit of Cover.",
            "other units",
        ),
        (
            "At the end of your Movement phase, you can select one friendly ORKS VEHICLE model "
            'within 3" of this model. That VEHICLE model regains up to D3 lost wounds, and, until '
            "the start of your next Movement phase, each time that VEHICLE model makes an attack, "
            "add 1 to the Hit roll. Each model can only be selected for this ability once per "
            "turn.",
            "other units",
        ),
        (
            "At the start of your opponent's Shooting phase, select one enemy VEHICLE unit within "
            '12" of and visible to this model. That unit must take a Leadership test. If that test '
            "is passed, until the end of the phase, each time a model in that unit makes an "
            "attack, subtract 1 from the Hit roll; if that test is failed, that unit is not "
            "eligible to shoot this phase.",
            "other units",
        ),
        (
            "Each time this unit is an Observer unit, until the end of the phase, each time a "
            "model in its Guided unit makes an attack that targets their Spotted unit, you can "
            "re-roll the Hit roll.",
            "other units",
        ),
        # movement and transport: no attack changes
        (
            'The bearer has a Move characteristic of 12" and can move over models and terrain '
            "features as if they were not there.",
            "not relevant",
        ),
        ("This model has a transport capacity of 12 DEATHWATCH INFANTRY models.", "not relevant"),
        (
            "In your Movement phase, if this unit is unengaged, you can use this ability. If you "
            "do:\n- Place this unit in Strategic Reserves.\n- This unit has Deep Strike until the "
            "end of the phase.",
            "not relevant",
        ),
    ],
)
def test_rules_of_other_units_and_movement_are_told_apart(text: str, status: str) -> None:
    reading = read_rule(AbilityText("Rule", text))
    assert (reading.status, reading.effects) == (status, ())


@pytest.mark.parametrize(
    "text, reason",
    [
        # a save against the attacks of some attackers: the attacker's keywords are not known
        (
            "Models in this unit have a 4+ invulnerable save against Psychic Attacks and attacks "
            "made by DAEMON models.",
            "against psychic attacks and attacks made by daemon models",
        ),
        # an AP set on a critical wound only: no kind for it
        (
            "Each time this model makes a ranged attack, on a Critical Wound, that attack has an "
            "Armour Penetration characteristic of -3.",
            "an effect 'on a critical wound, that attack has an armour penetration characteristic "
            "of -3'",
        ),
    ],
)
def test_what_has_no_kind_stays_unread(text: str, reason: str) -> None:
    reading = read_rule(AbilityText("Rule", text))
    assert (reading.status, reading.reason) == ("not understood", reason)


def test_the_profile_fields_are_not_read_twice_and_conditions_on_them_are_listed() -> None:
    rules = sheet_rules(
        [
            AbilityText("Feel No Pain 5+"),
            AbilityText(
                "Krumpin' Time",
                "While the Waaagh! is active for your army, models in "
                "this unit have the Feel No Pain 5+ ability.",
            ),
            AbilityText(
                "Dok's Toolz",
                "While this model is leading a unit, models in that unit "
                "have the Feel No Pain 5+ ability.",
            ),
            AbilityText(
                "Sneaky",
                "While this unit is within range of an objective marker, models in this unit "
                "have the Stealth ability.",
            ),
        ]
    )
    # a conditional Feel No Pain of the whole unit is judged per pool; Stealth is not
    assert [(e.kind, e.scope, e.conditional) for e in rules.effects] == [
        ("fnp", "unit", True),
        ("fnp", "led", False),
    ]
    assert [u.name for u in rules.unapplied] == ["Sneaky"]
    assert rules.applied == {"Feel No Pain 5+", "Krumpin' Time", "Dok's Toolz"}


# --- the effects in an attack: exactly the modifier they stand for -------------------------

GUN = mh.Weapon("Gun", 3, 4, 5, -1, 2)
AXE = mh.Weapon("Axe", 3, 3, 6, -1, 1, melee=True)
BOYZ = mh.Unit.of("Boyz", 6, 5, 5, 2, keywords="INFANTRY")


def same(a: mh.AttackResult, b: mh.AttackResult) -> None:
    np.testing.assert_allclose(a.killed.probabilities, b.killed.probabilities, rtol=0, atol=1e-12)
    np.testing.assert_allclose(a.damage.probabilities, b.damage.probabilities, rtol=0, atol=1e-12)


@pytest.mark.parametrize(
    "effect, modifiers",
    [
        (Effect("hit", 1), mh.Modifiers(hit=1)),
        (Effect("hit", -1), mh.Modifiers(hit=-1)),
        (Effect("wound", 1), mh.Modifiers(wound=1)),
        (Effect("strength", 2), mh.Modifiers(strength=2)),
        (Effect("ap", 1), mh.Modifiers(ap=-1)),
        (Effect("damage", 1), mh.Modifiers(damage_add=1)),
        (Effect("reroll_hits", "ones"), mh.Modifiers(reroll_hits="ones")),
        (Effect("reroll_wounds", "failures"), mh.Modifiers(reroll_wounds="failures")),
        (Effect("critical_hit", 5), mh.Modifiers(critical_hit=5)),
        (Effect("critical_wound", 5), mh.Modifiers(critical_wound=5)),
    ],
    ids=lambda v: v.kind if isinstance(v, Effect) else "",
)
def test_an_offence_effect_is_the_modifier_it_stands_for(
    effect: Effect, modifiers: mh.Modifiers
) -> None:
    same(
        mh.attack([(arm(GUN, [effect]), 4)], BOYZ), mh.attack([(GUN, 4)], BOYZ, modifiers=modifiers)
    )


def test_an_attacks_effect_adds_to_each_models_attacks() -> None:
    armed = arm(GUN, [Effect("attacks", 1)])
    same(mh.attack([(armed, 4)], BOYZ), mh.attack([(GUN.replace(attacks=4), 4)], BOYZ))


def test_a_granted_ability_is_the_weapons_own() -> None:
    armed = arm(GUN, [Effect("ability", "SUSTAINED HITS 1")])
    printed = GUN.replace(abilities="[SUSTAINED HITS 1]")
    same(mh.attack([(armed, 4)], BOYZ), mh.attack([(printed, 4)], BOYZ))
    # a conditional grant acts only when its condition holds
    on_charge = arm(AXE, [Effect("ability", "LETHAL HITS", conditions=(Condition("charged"),))])
    lethal = AXE.replace(abilities="[LETHAL HITS]")
    charged = mh.Context(charged=True, melee=True)
    same(
        mh.attack([(on_charge, 4)], BOYZ, context=charged),
        mh.attack([(lethal, 4)], BOYZ, context=charged),
    )
    same(mh.attack([(on_charge, 4)], BOYZ), mh.attack([(AXE, 4)], BOYZ))


@pytest.mark.parametrize(
    "effect, target, modifiers",
    [
        (Effect("target_hit", -1), BOYZ, mh.Modifiers(hit=-1)),
        (Effect("target_wound", -1), BOYZ, mh.Modifiers(wound=-1)),
        (Effect("target_ap", 1), BOYZ, mh.Modifiers(ap=1)),
        (Effect("target_damage", -1), BOYZ, mh.Modifiers(damage_add=-1)),
        (Effect("invuln", 4, "ranged"), mh.Unit.of("Boyz", 6, 5, 5, 2, invuln=4), None),
    ],
    ids=lambda v: v.kind if isinstance(v, Effect) else "",
)
def test_a_defence_effect_is_the_modifier_it_stands_for(
    effect: Effect, target: mh.Unit, modifiers: mh.Modifiers | None
) -> None:
    guarded = mh.Unit("Boyz", BOYZ.groups, BOYZ.keywords, rules=guards([effect]))
    same(mh.attack([(GUN, 4)], guarded), mh.attack([(GUN, 4)], target, modifiers=modifiers))


def test_the_target_side_modifiers_share_the_one_cap() -> None:
    # +1 from the attacker and -1 from the target cancel; two -1s stay -1
    guarded = mh.Unit("Boyz", BOYZ.groups, rules=guards([Effect("target_hit", -1)]))
    armed = arm(GUN, [Effect("hit", 1)])
    same(mh.attack([(armed, 4)], guarded), mh.attack([(GUN, 4)], BOYZ))
    twice = mh.Unit(
        "Boyz",
        BOYZ.groups,
        rules=guards([Effect("target_hit", -1, source="a"), Effect("target_hit", -1, source="b")]),
    )
    same(mh.attack([(GUN, 4)], twice), mh.attack([(GUN, 4)], BOYZ, modifiers=mh.Modifiers(hit=-1)))


def test_strength_over_toughness_is_judged_on_the_attack() -> None:
    barge = guards([Effect("target_wound", -1, conditions=(Condition("strength_over_toughness"),))])
    target = mh.Unit("Barge", BOYZ.groups, rules=barge)  # T5
    weak = GUN.replace(strength=5)
    same(mh.attack([(weak, 4)], target), mh.attack([(weak, 4)], BOYZ))
    same(
        mh.attack([(GUN.replace(strength=6), 4)], target),
        mh.attack([(GUN.replace(strength=6), 4)], BOYZ, modifiers=mh.Modifiers(wound=-1)),
    )


def test_ranged_only_rules_leave_melee_attacks_alone() -> None:
    target = mh.Unit("Wagon", BOYZ.groups, rules=guards([Effect("target_damage", -1, "ranged")]))
    melee = mh.Context(melee=True)
    same(mh.attack([(AXE, 4)], target, context=melee), mh.attack([(AXE, 4)], BOYZ, context=melee))


@pytest.mark.parametrize(
    "condition, context, holds",
    [
        (Condition("charged"), mh.Context(charged=True), True),
        (Condition("charged"), mh.Context(), False),
        (Condition("stationary"), mh.Context(remained_stationary=True), True),
        (Condition("half_range"), mh.Context(half_range=True), True),
        (Condition("target", "MONSTER/VEHICLE"), mh.Context(), False),
        (Condition("target", "NON-MONSTER/VEHICLE"), mh.Context(), True),
        (Condition("target", "INFANTRY"), mh.Context(), True),
        (Condition("assumed", "Riled up"), mh.Context(assume={"riled up"}), True),
        (Condition("assumed", "riled up"), mh.Context(assume="waaagh"), False),
    ],
)
def test_conditions_are_read_from_the_situation(
    condition: Condition, context: mh.Context, holds: bool
) -> None:
    armed = arm(GUN, [Effect("hit", 1, conditions=(condition,))])
    result = mh.attack([(armed, 4)], BOYZ, context=context)
    expected = mh.attack(
        [(GUN, 4)], BOYZ, context=context, modifiers=mh.Modifiers(hit=1) if holds else None
    )
    same(result, expected)
    used = [u for p in result.pools for u in p.abilities]
    assert any("+1 to hit" in u for u in used) == holds


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: Effect("speed", 1), "Effect.kind must be one of"),
        (lambda: Effect("hit", 2), "a non-zero integer from -1 to 1"),
        (lambda: Effect("reroll_hits", "sometimes"), "'ones', 'failures' or 'non_critical'"),
        (lambda: Effect("ability", "FLYING CHAIRS"), "a weapon ability as printed"),
        (lambda: Condition("moon phase"), "Condition.kind must be one of"),
        (
            lambda: mh.Context(assume=3),  # type: ignore[arg-type]
            "Context.assume must be a name or a set of names",
        ),
        (lambda: mh.Context(assume={" "}), "non-empty names"),
    ],
)
def test_bad_effects_are_refused_with_a_clear_message(make: object, message: str) -> None:
    with pytest.raises(ProfileError, match=message.replace("(", r"\(").replace(")", r"\)")):
        make()  # type: ignore[operator]


# --- a real attached unit -------------------------------------------------------------------


def test_a_supporting_leaders_rule_arms_the_whole_attached_unit() -> None:
    roster = mh.io.read_roster(EXCERPT)
    led = next(a for a in roster.attackers() if a.name == "Breaka Boyz led by Bigboss")
    melee = [w for m in led.models for w in m.weapons if w.melee]
    assert melee and all(w.rules_text == "Sumfin' to Prove (melee: +1 to hit)" for w in melee)
    # the same unit built by hand: the bare profiles with +1 to hit on every melee attack
    target = mh.Unit.of("Marines", 5, 4, 3, 2)
    fight = mh.Context(melee=True)
    bare = [(_bare(w), n) for m in led.models for w in m.weapons if w.melee for n in [m.count]]
    armed = [(w, m.count) for m in led.models for w in m.weapons if w.melee]
    same(
        mh.attack(armed, target, context=fight),
        mh.attack(bare, target, context=fight, modifiers=mh.Modifiers(hit=1)),
    )


def _bare(weapon: mh.Weapon) -> mh.Weapon:
    kept = [a for a in weapon.abilities if type(a).__name__ != "EffectRule"]
    return weapon.replace(abilities=kept)


def test_a_rosters_conditional_defence_applies_when_assumed() -> None:
    roster = mh.io.read_roster(EXCERPT)
    target = next(t for t in roster.targets() if t.unit.name == "Breaka Boyz led by Bigboss")
    gun = mh.Weapon("Bolter", 10, 3, 4, -3, 1)
    plain = mh.attack([(gun, 1)], target.unit)
    riled = mh.attack([(gun, 1)], target.unit, context=mh.Context(assume={"riled up"}))
    # the Waaagh!'s 5+ InSv while riled up against AP-3 (4+ Sv -> none): kills fall
    assert riled.killed.mean() < plain.killed.mean()
    by_hand = mh.Unit(target.unit.name, [replace(g, invuln=5) for g in target.unit.groups])
    same(riled, mh.attack([(gun, 1)], by_hand))


def test_the_monte_carlo_agrees_on_a_led_unit_with_conditional_rules() -> None:
    roster = mh.io.read_roster(EXCERPT)
    led = next(a for a in roster.attackers() if a.name == "Breaka Boyz led by Bigboss")
    weapons = [(w, m.count) for m in led.models for w in m.weapons if w.melee][:3]
    target = mh.Unit(
        "Wagon",
        mh.Unit.of("Wagon", 3, 6, 4, 3).groups,
        keywords="VEHICLE",
        rules=guards(
            [
                Effect("target_ap", 1),
                Effect("target_wound", -1, conditions=(Condition("strength_over_toughness"),)),
            ]
        ),
    )
    context = mh.Context(melee=True, assume={"riled up"})
    exact = mh.attack(weapons, target, context=context)
    sim = mh.simulate(weapons, target, context=context, trials=100_000, rng=20261205)
    for name in ("killed", "damage"):
        dist = getattr(exact, name)
        sigma = float(np.sqrt(dist.var() / 100_000))
        assert abs(getattr(sim, name).mean() - dist.mean()) < 5 * sigma


DARK_PACTS = (
    "If your Army Faction is ^^**Heretic Astartes**^^, each time a unit with this ability is "
    "selected to shoot or fight, it can make a Dark Pact. If it does, it must first take a "
    "Leadership test before any effects of the Dark Pact are resolved; if that test is failed, "
    "that unit suffers D3 mortal wounds. Then, select one of the following abilities for that "
    "unit\u2019s weapons to gain until the end of the phase: \u25a0 [LETHAL HITS] \u25a0 "
    "[SUSTAINED HITS 1]"
)
KATAH = (
    "Each time a unit with this ability is selected to fight, select one of the Ka'tah stances "
    "below. Until that unit has finished making its attacks, the selected stance is active for "
    "it and it gains the relevant ability.\n\u25a0 Dacatarai Stance: Melee weapons equipped by "
    "models in this unit have the [SUSTAINED HITS 1] ability.\n\u25a0 Rendax Stance: Melee "
    "weapons equipped by models in this unit have the [LETHAL HITS] ability."
)


@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        (
            "Dark Pacts",
            DARK_PACTS,
            [
                "[LETHAL HITS] if dark pacts: lethal hits",
                "[SUSTAINED HITS 1] if dark pacts: sustained hits 1",
            ],
        ),
        (
            "Martial Ka'tah",
            KATAH,
            [
                "melee: [SUSTAINED HITS 1] if martial ka'tah: dacatarai stance",
                "melee: [LETHAL HITS] if martial ka'tah: rendax stance",
            ],
        ),
    ],
)
def test_a_choice_is_read_as_its_options_each_under_its_state(
    name: str, text: str, expected: list[str]
) -> None:
    # the player chooses: each option applies when its state is assumed (docs/rules.md D37)
    reading = read_rule(AbilityText(name, text))
    assert reading.status == "understood", reading.reason
    assert [e.text for e in reading.effects] == expected


def test_a_chosen_option_applies_only_when_assumed() -> None:
    from mathhammer.model.effects import arm

    effects = read_rule(AbilityText("Dark Pacts", DARK_PACTS)).effects
    bolter = arm(mh.Weapon("Bolter", 2, 3, 4, 0, 1), effects)
    guard = mh.Unit.of("Guard", 10, 3, 5, 1)
    lethal = mh.attack([(bolter, 10)], guard, context=mh.Context(assume="dark pacts: lethal hits"))
    by_hand = mh.attack([(mh.Weapon("Bolter", 2, 3, 4, 0, 1, "[LETHAL HITS]"), 10)], guard)
    assert lethal.killed.allclose(by_hand.killed, atol=1e-12)
    plain = mh.attack([(mh.Weapon("Bolter", 2, 3, 4, 0, 1), 10)], guard)
    assert mh.attack([(bolter, 10)], guard).killed.allclose(plain.killed, atol=1e-12)


def test_a_choice_listed_one_bullet_a_sentence_and_damage_on_the_attacker() -> None:
    prey = read_rule(AbilityText("Prey Adaptation", "Each time this model's unit is selected to "
        "fight, select one of the following abilities to apply to all melee weapons equipped by "
        "models in that unit until the end of the phase:\n\u25a0 [SUSTAINED HITS 1]\n\u25a0 "
        "[LANCE]"))  # fmt: skip
    assert [e.text for e in prey.effects] == [
        "melee: [SUSTAINED HITS 1] if prey adaptation: sustained hits 1",
        "melee: [LANCE] if prey adaptation: lance",
    ]
    grid = read_rule(AbilityText("Repulsor Grid", "Each time a ranged attack is allocated to a "
        "Kastelan Robot model in this unit, on an unmodified saving throw of 6, the attacking "
        "unit suffers 1 mortal wound after it has finished making its attacks."))  # fmt: skip
    assert grid.status == "other units"  # it harms the attacker, not this unit's attacks


def test_a_skill_improved_by_a_rule_is_the_better_profile() -> None:
    from mathhammer.model.effects import Effect, arm

    gun = mh.Weapon("Burst cannon", 4, 4, 5, 0, 1)
    sharper = arm(gun, [Effect("skill", 1, source="Target Uploaded")])
    crisis = mh.Unit.of("Crisis", 3, 5, 3, 4)
    got = mh.attack([(sharper, 3)], crisis, modifiers=mh.Modifiers(hit=-1))
    want = mh.attack([(gun.replace(skill=3), 3)], crisis, modifiers=mh.Modifiers(hit=-1))
    assert got.killed.allclose(want.killed, atol=1e-12)  # a characteristic: outside the cap
