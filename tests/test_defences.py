"""Defensive abilities from datasheet text: real phrasings, read by hand and by the reader."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mathhammer.io.defences import Defences, UnreadAbility, read_ability, read_defences
from mathhammer.units.datasheet import AbilityText, ModelProfile

EXCERPTS = Path(__file__).resolve().parent / "data" / "defences" / "abilities.json"
"""Real abilities quoted from the shared data (BSData catalogues and the Wahapedia export)."""

READ, PARTLY, UNREAD, NONE = "read", "partly", "unread", "none"

#: What each excerpt says, worked out by reading it: (name, status, fields, reason fragment).
#: "read": every defensive sentence is a field; "partly": some are, the rest is listed;
#: "unread": listed with the reason; "none": it cannot change an attack against the unit.
EXPECTED: list[tuple[str, str, dict[str, int | bool], str]] = [
    ("Advanced Armour", READ, {"fnp_mortal": 4}, ""),
    ("Auto-medicae", READ, {"fnp": 5}, ""),
    ("Bad Reputation", READ, {"invuln": 5}, ""),
    ("Battle-scarred Resistance", READ, {"fnp": 6}, ""),
    ("Blessed Hull", READ, {"invuln": 5}, ""),
    ("Blur of Speed", READ, {"stealth": True}, ""),
    ("Enaegic Dermal Bond", READ, {"fnp": 4}, ""),
    ("Exorcist's Thurible", READ, {"fnp_mortal": 5}, ""),
    ("Godpyre Mantle", READ, {"stealth": True}, ""),
    ("Implacable Resilience", READ, {"damage_reduction": 1}, ""),
    ("Inviolable Bastion", READ, {"damage_reduction": 1}, ""),
    ("Invulnerable Save (4+)", READ, {"invuln": 4}, ""),
    ("Invulnerable Save (2+*)", READ, {"invuln": 2}, ""),
    ("Necrodermis", READ, {"damage_reduction": 1}, ""),
    ("Reinforced Carapace", READ, {"damage_reduction": 1}, ""),
    ("Slippery Git", READ, {"stealth": True}, ""),
    ("Synaptic Control", READ, {"damage_reduction": 1}, ""),
    ("Tartarine Cuirass", READ, {"damage_reduction": 1}, ""),
    ("Unnatural Resistance", READ, {"fnp_mortal": 4}, ""),
    ("Stealth", READ, {"stealth": True}, ""),
    ("Feel No Pain", UNREAD, {}, "without its value"),
    ("Shadow Stalker", READ, {"stealth": True}, ""),
    ("Synaptoprescience", READ, {"invuln": 4}, ""),
    ("Waaagh! Banner", PARTLY, {"invuln": 5}, "while the waaagh! is active"),
    ("Bizarrely Resilient", UNREAD, {}, "AP of an attack is not expressible"),
    ("Ramshackle but Rugged", UNREAD, {}, "AP of an attack is not expressible"),
    ("Ded 'Ard Armour", UNREAD, {}, "AP of an attack is not expressible"),
    ("Claim Stalker", UNREAD, {}, "while this unit is within range of an objective marker"),
    ("Kustom Force Field", UNREAD, {}, "while this model is leading a unit"),
    ("Invulnerable Save (5+*)", UNREAD, {}, "ranged attacks only"),
    ("Invulnerable Save (4+*)", UNREAD, {}, "melee attacks only"),
    ("Noctilith Sigil", UNREAD, {}, "psychic attacks only"),
    ("Adaptive Biology", PARTLY, {"fnp": 5}, "if the bearer has fewer than"),
    ("Fortune's Favoured", PARTLY, {"invuln": 6}, "while this unit has one or more warp"),
    ("Warding Inscriptions", PARTLY, {"fnp_mortal": 6}, "while this unit has one or more warp"),
    ("Resilient Organism", UNREAD, {}, "once per battle"),
    ("Agile Dogfighter", UNREAD, {}, "Hit, Wound or save roll modifier"),
    ("Bio-acid Burns", UNREAD, {}, "character models in this unit"),
    ("Armoured Biomorph", UNREAD, {}, "change of a characteristic"),
    ("Gloom Prism (Aura)", UNREAD, {}, "while a friendly necrons unit is within 6"),
    ("Nimble Defence", UNREAD, {}, "monster or vehicle unit makes an attack"),
    ("Reinforced Armour", UNREAD, {}, "with a damage characteristic of 1"),
    ("Duality Shield", UNREAD, {}, "once per battle"),
    ("Acquisitive Opportunist", UNREAD, {}, "a choice among effects"),
    ("Waaagh!", UNREAD, {}, "if you do"),
    ("Painful Lessons", UNREAD, {}, "monster or vehicle unit makes an attack"),
    ("Rites of Feasting", UNREAD, {}, "while this model is leading a unit"),
    ("Stealthy Arrival", UNREAD, {}, "until the end of your next turn"),
    ("Damaged: 1-10 Wounds Remaining", NONE, {}, ""),
    ("Null-field Disruptor", NONE, {}, ""),
    ("Crippling Damage", NONE, {}, ""),
    ("Da Bigger Dey Iz\u2026", NONE, {}, ""),
    ("Titan Slayer", NONE, {}, ""),
    ("Leader", NONE, {}, ""),
    ("Ignores Cover", NONE, {}, ""),
    # Wahapedia: the footnote (inv_sv_descr) of a model's invulnerable save
    ("Invulnerable Save (2+*)", READ, {"invuln": 2}, ""),
    ("Invulnerable Save (5+*)", UNREAD, {}, "ranged attacks only"),
    ("Invulnerable Save (5+*)", UNREAD, {}, "ranged attacks only"),
    ("Invulnerable Save (5+*)", PARTLY, {"invuln": 5}, "melee attacks only"),
    ("Invulnerable Save (4+*)", UNREAD, {}, "ranged attacks only"),
    ("Invulnerable Save (2+*)", UNREAD, {}, "until the end of the battle"),
    ("Invulnerable Save (6+*)", PARTLY, {"invuln": 6}, "melee attacks only"),
    ("Invulnerable Save (5+*)", UNREAD, {}, "ranged attacks only"),
    ("Invulnerable Save (5+*)", UNREAD, {}, "ranged attacks only"),
    ("Invulnerable Save (5+*)", UNREAD, {}, "phrasing not recognised"),
    ("Invulnerable Save (5+*)", UNREAD, {}, "phrasing not recognised"),
    ("Invulnerable Save (4+*)", UNREAD, {}, "phrasing not recognised"),
    ("Invulnerable Save (5+*)", UNREAD, {}, "ranged attacks only"),
    ("Invulnerable Save (4+*)", UNREAD, {}, "melee attacks only"),
    ("Invulnerable Save (4+*)", UNREAD, {}, "phrasing not recognised"),
    ("Invulnerable Save (2+*)", UNREAD, {}, "phrasing not recognised"),
    ("Invulnerable Save (6+*)", UNREAD, {}, "melee attacks only"),
]


def excerpts() -> list[dict[str, str]]:
    entries: list[dict[str, str]] = json.loads(EXCERPTS.read_text(encoding="utf-8"))
    return entries


def test_the_excerpts_are_the_expected_ones() -> None:
    assert [e["name"] for e in excerpts()] == [name for name, *_ in EXPECTED]
    sources = {e["source"].split("/")[0] for e in excerpts()}
    assert sources == {"bsdata-11e", "wahapedia-10e"}


@pytest.mark.parametrize(("entry", "expected"), list(zip(excerpts(), EXPECTED, strict=True)))
def test_real_phrasings(entry: dict[str, str], expected: tuple[Any, ...]) -> None:
    name, status, fields, reason_part = expected
    given, reason, relevant = read_ability(AbilityText(entry["name"], entry["text"]))
    assert given == fields
    assert relevant == (status != NONE)
    if status in (READ, NONE):
        assert reason is None
    else:
        assert reason is not None and reason_part in reason
        assert reason.startswith("partly read") == (status == PARTLY)


def test_a_datasheet_takes_the_best_of_its_abilities_and_lists_the_rest() -> None:
    by_name = {e["name"]: e for e in excerpts()}
    abilities = [
        AbilityText(by_name[n]["name"], by_name[n]["text"])
        for n in ("Battle-scarred Resistance", "Adaptive Biology", "Necrodermis")
    ]
    abilities += [AbilityText("Feel No Pain 4+"), AbilityText("Deep Strike", "Set up later.")]
    found = read_defences(abilities)
    assert (found.fnp, found.damage_reduction, found.invuln, found.stealth) == (4, 1, None, False)
    assert [a.name for a in found.understood] == [
        "Battle-scarred Resistance",
        "Necrodermis",
        "Feel No Pain 4+",
    ]
    (partly,) = found.not_understood
    assert isinstance(partly, UnreadAbility) and partly.name == "Adaptive Biology"
    assert partly.text == by_name["Adaptive Biology"]["text"]
    assert partly.reason.startswith("partly read (fnp); not read: conditional: if the bearer")


@pytest.mark.parametrize(
    ("ability", "fields"),
    [
        (AbilityText("Feel No Pain 5+"), {"fnp": 5}),
        (AbilityText("Feel No Pain (6+)", "Each time a model would lose a wound..."), {"fnp": 6}),
        (AbilityText("Feel No Pain", "4+"), {"fnp": 4}),
        (AbilityText("FNP 5+"), {"fnp": 5}),
        (AbilityText("Invulnerable Save", "4+"), {"invuln": 4}),
        (AbilityText("Invulnerable Save", "Invulnerable Save: 5+"), {"invuln": 5}),
        (AbilityText("Invulnerable Save: 3+"), {"invuln": 3}),
        (AbilityText("Stealth"), {"stealth": True}),
        (AbilityText("Mirage", "<b>This unit</b> has the Stealth ability."), {"stealth": True}),
        (
            AbilityText(
                "Hulk",
                "Each time an attack is allocated to this model, halve the Damage "
                "characteristic of that attack.",
            ),
            {"halve_damage": True},
        ),
        (
            AbilityText(
                "Shield",
                'This model has the Lone Operative, Scouts 6" and Stealth '
                "abilities and a 4+ invulnerable save.",
            ),
            {"stealth": True, "invuln": 4},
        ),
        (AbilityText("Cloak", "The bearer has the Stealth ability and a cloak."), {}),
    ],
)
def test_names_and_phrasings(ability: AbilityText, fields: dict[str, int | bool]) -> None:
    given, reason, relevant = read_ability(ability)
    assert relevant and given == fields
    assert reason == (None if fields else "phrasing not recognised")


def test_repeated_values_keep_the_best() -> None:
    twice = "This unit has the Feel No Pain 6+ ability. This model has the Feel No Pain 5+ ability."
    assert read_ability(AbilityText("Twice", twice)) == ({"fnp": 5}, None, True)
    allocated = "Each time an attack is allocated to this model, "
    halve = AbilityText("Halve", allocated + "halve the Damage characteristic of that attack.")
    minus = AbilityText("Minus", allocated + "subtract 1 from that attack's Damage characteristic.")
    found = read_defences([minus, halve, minus])
    assert (found.damage_reduction, found.halve_damage, len(found.understood)) == (1, True, 3)


def test_a_bulleted_list_keeps_its_condition() -> None:
    text = (
        "While this model is leading a unit:\n- Models in that unit have the Stealth ability.\n"
        "- Models in this unit have a 4+ invulnerable save."
    )
    given, reason, _ = read_ability(AbilityText("Led", text))
    assert given == {} and reason == "conditional: while this model is leading a unit"


def test_defences_apply_the_better_value() -> None:
    model = ModelProfile("Boss", toughness=5, save=4, wounds=6, invuln=5, fnp=6)
    better = Defences(invuln=4, fnp=None, fnp_mortal=5, damage_reduction=1, halve_damage=True)
    applied = better.apply(model)
    assert (applied.invuln, applied.fnp, applied.fnp_mortal) == (4, 6, 5)
    assert (applied.damage_reduction, applied.halve_damage) == (1, True)
    assert Defences(invuln=6).apply(model).invuln == 5
    assert read_defences([]) == Defences()


# --- the measurement over the shared data ---------------------------------------------------

_MENTIONS = re.compile(
    r"feel no pain|invulnerable|\binsv\b|damage characteristic of (?:that|the) attack|"
    r"that attack.s damage",
    re.IGNORECASE,
)


def _abilities(node: object) -> Iterator[AbilityText]:
    """Every ability profile of a BSData catalogue tree (name and Description)."""
    if isinstance(node, dict):
        if node.get("typeName") == "Abilities":
            text = " ".join(c.get("$text", "") for c in node.get("characteristics", []))
            yield AbilityText(str(node.get("name", "")), text)
        for value in node.values():
            yield from _abilities(value)
    elif isinstance(node, list):
        for value in node:
            yield from _abilities(value)


def test_coverage_of_the_bsdata_abilities(shared_data: Path) -> None:
    """How many distinct abilities mention a Feel No Pain, an invulnerable save or a damage
    reduction, and how many of those give a field (fully or partly read)."""
    found = {
        ability
        for path in sorted((shared_data / "bsdata-11e").glob("*.json"))
        for ability in _abilities(json.loads(path.read_text(encoding="utf-8")))
    }
    mentioning = [a for a in found if _MENTIONS.search(f"{a.name} {a.text}")]
    readings = [read_ability(a) for a in mentioning]
    gave = sum(1 for fields, _, _ in readings if fields)
    whole = sum(1 for fields, reason, _ in readings if fields and reason is None)
    listed = sum(1 for _, reason, _ in readings if reason is not None)
    assert (len(found), len(mentioning)) == (1163, 86)
    assert (gave, whole, listed) == (31, 26, 58)
    # the rest mention those words about the unit's own attacks
    silent = {
        a.name for a, (_, _, relevant) in zip(mentioning, readings, strict=True) if not relevant
    }
    assert silent == {"Null-field Disruptor", "Da Bigger Dey Iz\u2026"}
    assert whole + listed + len(silent) == len(mentioning)
