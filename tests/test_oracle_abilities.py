"""Abilities, context and modifiers: the exact engine against the brute-force oracle.

The oracle (``tests/oracle.py``) reads the public inputs only and applies its own reading
of docs/rules.md §3-§4 and of its decisions (§6), face by face with exact fractions.
On tiny cases the engine must agree to 1e-12 on every distribution it reports: models
killed (overall and per group), wounds lost, P(destroyed), mortal wounds suffered by the
attacker ([HAZARDOUS]), each pool's attacks, hits, wounds, unsaved, devastating wounds
and cumulative kills, and the abilities each pool reports as used.

A few hand-derived cases check the oracle itself, and a few "wrong reading" variants
of the oracle (devastating wounds before the saves) show that a case is sensitive to
the rule it is about.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from math import comb
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import mathhammer as mh
from mathhammer import Context, ModelGroup, Modifiers, MortalWounds, Unit, Weapon

sys.path.insert(0, str(Path(__file__).parent))
from oracle import ATOL, OracleResult, assert_pmf, exact, oracle_attack, pmf_close, total  # noqa: E402

STAGES = ("attacks", "hits", "wounds", "unsaved", "devastating", "killed")


# --------------------------------------------------------------------------- helpers


def gun(
    attacks: int | str = 1,
    skill: int = 3,
    strength: int = 4,
    ap: int = 0,
    damage: int | str = 1,
    abilities: str = "",
    name: str = "gun",
) -> Weapon:
    return Weapon(name, attacks, skill, strength, ap, damage, abilities)


def models(count: int, save: int, wounds: int, **kw: Any) -> ModelGroup:
    kw.setdefault("toughness", 4)
    return ModelGroup(count, save=save, wounds=wounds, **kw)


def unit(*groups: ModelGroup, keywords: Any = (), stealth: bool = False) -> Unit:
    return Unit("target", groups, keywords=keywords, stealth=stealth)


def hero(name: str = "Captain", save: int = 3, wounds: int = 3, **kw: Any) -> ModelGroup:
    kw.setdefault("toughness", 4)
    return ModelGroup(1, save=save, wounds=wounds, character=True, name=name, **kw)


INFANTRY = ("INFANTRY",)
VEHICLE = ("VEHICLE",)
STATIONARY = Context(remained_stationary=True)
HALF = Context(half_range=True)


@dataclass(frozen=True)
class Case:
    id: str
    weapons: Any
    target: Unit
    context: Context = field(default_factory=Context)
    modifiers: Modifiers = field(default_factory=Modifiers)
    xfail: str = ""


def case(
    id: str,
    weapons: Any,
    target: Unit,
    context: Context | None = None,
    modifiers: Modifiers | None = None,
    **kw: Any,
) -> Case:
    return Case(id, weapons, target, context or Context(), modifiers or Modifiers(), **kw)


# --------------------------------------------------------------------------- cases

W1x3 = unit(models(3, 4, 1))  # three W1 Sv4+ T4 models
W1x3_SV3 = unit(models(3, 3, 1))

ALONE = [
    case("sustained-1", gun(3, abilities="[SUSTAINED HITS 1]"), W1x3),
    case("sustained-D3-rolled-per-crit", gun(2, abilities="[SUSTAINED HITS D3]"), W1x3),
    case("lethal-S3vT4", gun(3, strength=3, abilities="[LETHAL HITS]"), W1x3),
    case(
        "lethal-roll-choice",
        gun(3, strength=3, abilities="[LETHAL HITS]"),
        W1x3,
        Context(lethal_hits="roll"),
    ),
    case(
        "devastating-D2", gun(3, damage=2, abilities="[DEVASTATING WOUNDS]"), unit(models(2, 3, 2))
    ),
    case(
        "anti-infantry-4-alone",
        gun(3, abilities="[ANTI-INFANTRY 4+]"),
        unit(models(3, 4, 1), keywords=INFANTRY),
    ),
    case("twin-linked", gun(3, abilities="[TWIN-LINKED]"), W1x3),
    case(
        "twin-linked-non-critical-policy",
        gun(3, abilities="[TWIN-LINKED], [DEVASTATING WOUNDS]"),
        W1x3_SV3,
        Context(reroll_policy="non_critical"),
    ),
    case("torrent-D3", gun("D3", strength=3, abilities="[TORRENT]"), W1x3),
    case("blast-vs-4-no-bonus", gun(1, abilities="[BLAST]"), unit(models(4, 4, 1))),
    case("blast-vs-5", gun(1, abilities="[BLAST]"), unit(models(5, 4, 1))),
    case("blast-2-vs-10", gun(1, abilities="[BLAST 2]"), unit(models(10, 4, 1))),
    case(
        "blast-per-weapon-vs-4+char",
        [(gun("D3", abilities="[BLAST]"), 2)],
        unit(models(4, 4, 1), hero(wounds=2)),
    ),
    case(
        "cleave-melee", gun(2, abilities="[CLEAVE 1]"), unit(models(5, 4, 1)), Context(melee=True)
    ),
    case(
        "cleave-split-attacks",
        gun(2, abilities="[CLEAVE 1]"),
        unit(models(5, 4, 1)),
        Context(melee=True, single_target=False),
    ),
    case("cleave-ranged-nothing", gun(2, abilities="[CLEAVE 1]"), unit(models(5, 4, 1))),
    case("rapid-fire-1-half", gun(1, abilities="[RAPID FIRE 1]"), unit(models(2, 4, 1)), HALF),
    case(
        "rapid-fire-D3-per-weapon",
        [(gun(1, abilities="[RAPID FIRE D3]"), 2)],
        unit(models(3, 4, 1)),
        HALF,
    ),
    case("rapid-fire-out-of-half", gun(1, abilities="[RAPID FIRE 1]"), unit(models(2, 4, 1))),
    case(
        "melta-2-half",
        gun(2, strength=8, ap=-4, damage="D3", abilities="[MELTA 2]"),
        unit(models(2, 3, 4)),
        HALF,
    ),
    case(
        "melta-out-of-half",
        gun(2, strength=8, ap=-4, damage="D3", abilities="[MELTA 2]"),
        unit(models(2, 3, 4)),
    ),
    case("heavy-stationary", gun(3, skill=4, abilities="[HEAVY]"), W1x3, STATIONARY),
    case(
        "heavy-moved-3-plus-1-capped",
        gun(3, skill=4, abilities="[HEAVY]"),
        W1x3,
        Context(moved_at_most_3=True),
        Modifiers(hit=1),
    ),
    case(
        "heavy-engaged-nothing",
        gun(3, skill=4, abilities="[HEAVY]"),
        W1x3,
        Context(remained_stationary=True, engaged=True),
    ),
    case(
        "heavy-set-up-nothing",
        gun(3, skill=4, abilities="[HEAVY]"),
        W1x3,
        Context(remained_stationary=True, set_up_this_turn=True),
    ),
    case(
        "heavy-melee-nothing",
        gun(3, skill=4, abilities="[HEAVY]"),
        W1x3,
        Context(remained_stationary=True, melee=True),
    ),
    case("lance-charged", gun(3, abilities="[LANCE]"), W1x3, Context(charged=True)),
    case("lance-not-charged", gun(3, abilities="[LANCE]"), W1x3),
    case(
        "lance-plus-1-capped",
        gun(3, abilities="[LANCE]"),
        W1x3,
        Context(charged=True),
        Modifiers(wound=1),
    ),
    case(
        "lance-minus-1-cancels",
        gun(3, abilities="[LANCE]"),
        W1x3,
        Context(charged=True),
        Modifiers(wound=-1),
    ),
    case("cover", gun(3), W1x3, Context(target_in_cover=True)),
    case("cover-melee-nothing", gun(3), W1x3, Context(target_in_cover=True, melee=True)),
    case("stealth", gun(3), unit(models(3, 4, 1), stealth=True)),
    case("stealth-melee-nothing", gun(3), unit(models(3, 4, 1), stealth=True), Context(melee=True)),
    case(
        "ignores-cover-in-cover",
        gun(3, abilities="[IGNORES COVER]"),
        W1x3,
        Context(target_in_cover=True),
    ),
    case(
        "ignores-cover-vs-stealth",
        gun(3, abilities="[IGNORES COVER]"),
        unit(models(3, 4, 1), stealth=True),
    ),
    case("indirect-fails-1-5", gun(4, skill=3, abilities="[INDIRECT FIRE]"), W1x3),
    case(
        "indirect-spotted-stationary-no-rerolls",
        gun(4, skill=3, abilities="[INDIRECT FIRE]"),
        W1x3,
        Context(remained_stationary=True, spotted=True),
        Modifiers(reroll_hits="failures"),
    ),
    case(
        "indirect-spotted-moved",
        gun(4, skill=3, abilities="[INDIRECT FIRE]"),
        W1x3,
        Context(moved_at_most_3=True, spotted=True),
    ),
    case(
        "indirect-ignores-cover",
        gun(4, skill=3, abilities="[INDIRECT FIRE], [IGNORES COVER]"),
        W1x3,
        Context(remained_stationary=True, spotted=True),
    ),
    case(
        "precision-alone",
        gun(3, strength=5, ap=-1, abilities="[PRECISION]"),
        unit(models(2, 3, 1), hero()),
    ),
    case(
        "precision-no-character",
        gun(3, strength=5, ap=-1, abilities="[PRECISION]"),
        unit(models(3, 3, 1)),
    ),
    case("hazardous-x3", [(gun(1, abilities="[HAZARDOUS]"), 3)], W1x3),
    case(
        "hazardous-monster-two-pools",
        [(gun(1, abilities="[HAZARDOUS]"), 2), gun(1, strength=5, abilities="[HAZARDOUS]")],
        W1x3,
        Context(attacker_monster_or_vehicle=True),
    ),
    case(
        "selection-only-abilities",
        [(gun(2, abilities="[ASSAULT], [PISTOL], [EXTRA ATTACKS], [ONE SHOT]"), 2)],
        W1x3,
    ),
]

INTERACTIONS = [
    case(
        "sustained+lethal-extra-hits-roll",
        gun(3, strength=3, abilities="[SUSTAINED HITS 1], [LETHAL HITS]"),
        W1x3,
    ),
    case(
        "sustained-2+lethal+devastating",
        gun(2, strength=3, abilities="[SUSTAINED HITS 2], [LETHAL HITS], [DEVASTATING WOUNDS]"),
        W1x3_SV3,
    ),
    case(
        "lethal+devastating-auto-wound-saves",
        gun(3, strength=3, abilities="[LETHAL HITS], [DEVASTATING WOUNDS]"),
        W1x3_SV3,
    ),
    case(
        "lethal+twin-linked",
        gun(3, strength=3, abilities="[LETHAL HITS], [TWIN-LINKED]"),
        W1x3,
    ),
    case(
        "lethal+twin-linked-non-critical",
        gun(3, strength=3, abilities="[LETHAL HITS], [TWIN-LINKED], [DEVASTATING WOUNDS]"),
        W1x3_SV3,
        Context(reroll_policy="non_critical"),
    ),
    case(
        "lethal-roll+twin+devastating",
        gun(3, strength=3, abilities="[LETHAL HITS], [DEVASTATING WOUNDS], [TWIN-LINKED]"),
        W1x3_SV3,
        Context(lethal_hits="roll", reroll_policy="non_critical"),
        Modifiers(critical_hit=5),
    ),
    case(
        "anti-infantry-4+devastating-vs-infantry",
        gun(3, abilities="[ANTI-INFANTRY 4+], [DEVASTATING WOUNDS]"),
        unit(models(3, 3, 1), keywords=INFANTRY),
    ),
    case(
        "anti-infantry-4+devastating-vs-vehicle",
        gun(3, abilities="[ANTI-INFANTRY 4+], [DEVASTATING WOUNDS]"),
        unit(models(3, 3, 1), keywords=VEHICLE),
    ),
    case(
        "anti-2+devastating-minus-1-wound",
        gun(3, strength=3, abilities="[ANTI-INFANTRY 2+], [DEVASTATING WOUNDS]"),
        unit(models(3, 3, 1), keywords=INFANTRY),
        modifiers=Modifiers(wound=-1),
    ),
    case(
        "torrent+sustained+lethal-no-crits",
        gun("D3", strength=3, abilities="[TORRENT], [SUSTAINED HITS 1], [LETHAL HITS]"),
        W1x3,
    ),
    case(
        "torrent-ignores-hit-mods-and-crit-5",
        gun(3, strength=3, abilities="[TORRENT], [SUSTAINED HITS 1]"),
        W1x3,
        Context(target_in_cover=True),
        Modifiers(reroll_hits="non_critical", critical_hit=5, hit=-1),
    ),
    case("cover+minus-1-hit", gun(3), W1x3, Context(target_in_cover=True), Modifiers(hit=-1)),
    case(
        "stealth+heavy",
        gun(3, abilities="[HEAVY]"),
        unit(models(3, 4, 1), stealth=True),
        STATIONARY,
    ),
    case(
        "cover+BS6-clamped+crit-5",
        gun(3, skill=6),
        W1x3,
        Context(target_in_cover=True),
        Modifiers(skill=1, hit=1, critical_hit=5),
    ),
    case("minus-2-hit-capped", gun(3, skill=3), W1x3, modifiers=Modifiers(hit=-2)),
    case("skill-improved-clamped-2", gun(3, skill=2), W1x3, modifiers=Modifiers(skill=-2, hit=-1)),
    case(
        "indirect+crit-5-fails-first",
        gun(3, skill=3, abilities="[INDIRECT FIRE], [SUSTAINED HITS 1]"),
        W1x3,
        modifiers=Modifiers(critical_hit=5),
    ),
    case(
        "indirect-spotted+crit-3",
        gun(3, skill=3, abilities="[INDIRECT FIRE], [SUSTAINED HITS 1]"),
        W1x3,
        Context(remained_stationary=True, spotted=True),
        Modifiers(critical_hit=3),
    ),
    case(
        "heavy+indirect-cover",
        gun(3, skill=3, abilities="[HEAVY], [INDIRECT FIRE]"),
        W1x3,
        Context(remained_stationary=True, spotted=True),
    ),
]

DUPLICATES = [
    case("dup-sustained-1-and-2", gun(3, abilities="[SUSTAINED HITS 1], [SUSTAINED HITS 2]"), W1x3),
    case(
        "dup-anti-vs-infantry",
        gun(3, abilities="[ANTI-VEHICLE 4+], [ANTI-INFANTRY 2+], [DEVASTATING WOUNDS]"),
        unit(models(3, 3, 1), keywords=INFANTRY),
    ),
    case(
        "dup-anti-vs-vehicle",
        gun(3, abilities="[ANTI-VEHICLE 4+], [ANTI-INFANTRY 2+], [DEVASTATING WOUNDS]"),
        unit(models(3, 3, 1), keywords=VEHICLE),
    ),
    case(
        "dup-anti-vs-both",
        gun(3, abilities="[ANTI-VEHICLE 4+], [ANTI-INFANTRY 2+], [DEVASTATING WOUNDS]"),
        unit(models(3, 3, 1), keywords=VEHICLE + INFANTRY),
    ),
    case(
        "dup-sustained-restricted-vs-infantry",
        gun(3, abilities="[SUSTAINED HITS 1], [SUSTAINED HITS 2: VEHICLE]"),
        unit(models(3, 4, 1), keywords=INFANTRY),
    ),
    case(
        "dup-sustained-restricted-vs-vehicle",
        gun(3, abilities="[SUSTAINED HITS 1], [SUSTAINED HITS 2: VEHICLE]"),
        unit(models(3, 4, 1), keywords=VEHICLE),
    ),
    case(
        "dup-rapid-fire-1-and-D3",
        gun(1, abilities="[RAPID FIRE 1], [RAPID FIRE D3]"),
        unit(models(2, 4, 1)),
        HALF,
    ),
    case(
        "dup-melta-D3-and-1",
        gun(2, strength=8, damage="D3", abilities="[MELTA D3], [MELTA 1]"),
        unit(models(2, 4, 4)),
        HALF,
    ),
    case("dup-blast-2-and-1", gun(1, abilities="[BLAST 2], [BLAST]"), unit(models(5, 4, 1))),
    case(
        "dup-cleave-1-and-2",
        gun(1, abilities="[CLEAVE 1], [CLEAVE 2]"),
        unit(models(5, 4, 1)),
        Context(melee=True),
    ),
]

KEYWORDS = [
    case(
        "kw-lethal-infantry-vs-infantry",
        gun(3, strength=3, abilities="[LETHAL HITS: INFANTRY]"),
        unit(models(3, 4, 1), keywords=INFANTRY),
    ),
    case(
        "kw-lethal-infantry-vs-vehicle",
        gun(3, strength=3, abilities="[LETHAL HITS: INFANTRY]"),
        unit(models(3, 4, 1), keywords=VEHICLE),
    ),
    case(
        "kw-sustained-infantry-or-beasts-vs-beasts",
        gun(3, abilities="[SUSTAINED HITS 1: INFANTRY/BEASTS]"),
        unit(models(3, 4, 1), keywords=("BEASTS",)),
    ),
    case(
        "kw-devastating-vehicle-vs-infantry",
        gun(3, abilities="[DEVASTATING WOUNDS: VEHICLE]"),
        unit(models(3, 3, 1), keywords=INFANTRY),
    ),
]

DEVASTATING = [
    case(
        "dev-one-model-cap-D3-vs-W1",
        gun(3, skill=2, strength=8, damage="D3", abilities="[DEVASTATING WOUNDS]"),
        unit(models(3, 2, 1)),
        modifiers=Modifiers(critical_wound=4),
    ),
    case(
        "dev-one-model-cap-D6-vs-W2",
        gun(2, skill=2, strength=8, damage="D6", abilities="[DEVASTATING WOUNDS]"),
        unit(models(2, 2, 2)),
    ),
    case(
        "dev-after-saves-wounded-model-finished-first",
        gun(2, skill=2, strength=8, damage=3, abilities="[DEVASTATING WOUNDS]"),
        unit(models(1, 2, 2, wounds_lost=1), models(1, 6, 3)),
        modifiers=Modifiers(critical_wound=4),
    ),
    case(
        "dev-after-saves-good-save-first",
        gun(3, skill=2, strength=8, abilities="[DEVASTATING WOUNDS]"),
        unit(models(1, 2, 1), models(2, 6, 1)),
        modifiers=Modifiers(critical_wound=5),
    ),
    case(
        "dev-fnp-per-mortal-wound",
        gun(3, damage="D3", abilities="[DEVASTATING WOUNDS]"),
        unit(models(2, 3, 3, fnp=5)),
    ),
    case(
        "dev-mortal-ignores-halve-and-reduction",
        gun(2, strength=8, damage=4, abilities="[DEVASTATING WOUNDS]"),
        unit(models(2, 3, 4, halve_damage=True, damage_reduction=1)),
        modifiers=Modifiers(critical_wound=4),
    ),
    case(
        "dev-mortal-takes-attacker-mods-and-melta",
        gun(2, strength=8, damage=1, abilities="[DEVASTATING WOUNDS], [MELTA 1]"),
        unit(models(2, 4, 4, halve_damage=True, damage_reduction=1)),
        HALF,
        Modifiers(damage_multiply=2),
    ),
    case(
        "dev-crit-wound-5",
        gun(3, abilities="[DEVASTATING WOUNDS]"),
        W1x3_SV3,
        modifiers=Modifiers(critical_wound=5),
    ),
    case(
        "dev-anti-3-vs-crit-5",
        gun(3, abilities="[ANTI-INFANTRY 3+], [DEVASTATING WOUNDS]"),
        unit(models(3, 3, 1), keywords=INFANTRY),
        modifiers=Modifiers(critical_wound=5),
    ),
]

DAMAGE = [
    case(
        "dmg-halve-then-subtract-D4",
        gun(3, strength=8, damage=4),
        unit(models(2, 4, 2, halve_damage=True, damage_reduction=1)),
    ),
    case(
        "dmg-halve-D1-min-1",
        gun(3, strength=8, damage=1),
        unit(models(2, 4, 1, halve_damage=True, damage_reduction=1)),
    ),
    case(
        "dmg-set-multiply-add",
        gun(2, strength=8),
        unit(models(2, 4, 6)),
        modifiers=Modifiers(damage_set=2, damage_multiply=2, damage_add=1),
    ),
    case(
        "dmg-set-dice-plus-1",
        gun(3, strength=5),
        unit(models(2, 4, 3)),
        modifiers=Modifiers(damage_set="D3", damage_add=1),
    ),
    case(
        "dmg-melta-then-halve",
        gun(2, strength=8, damage="D3", abilities="[MELTA 2]"),
        unit(models(2, 4, 3, halve_damage=True)),
        HALF,
    ),
    case(
        "dmg-add-minus-1-then-melta",
        gun(2, strength=8, damage=1, abilities="[MELTA 2]"),
        unit(models(2, 4, 3)),
        HALF,
        Modifiers(damage_add=-1),
    ),
    case(
        "dmg-add-minus-2-floor-1",
        gun(3, strength=8, damage=2),
        unit(models(2, 4, 2, halve_damage=True), models(1, 4, 3)),
        modifiers=Modifiers(damage_add=-2),
    ),
    case(
        "dmg-add-minus-2-floor-1-devastating",
        gun(3, strength=8, damage=2, abilities="[DEVASTATING WOUNDS]"),
        unit(models(2, 3, 2)),
        modifiers=Modifiers(damage_add=-2, critical_wound=4),
    ),
    case(
        "dmg-mods-only-groups-that-have-them",
        gun(3, strength=8, ap=-1, damage=3),
        unit(models(1, 3, 3), hero(wounds=4, halve_damage=True, damage_reduction=1)),
    ),
]

REROLLS = []
for _policy in ("ones", "failures", "non_critical"):
    REROLLS += [
        case(
            f"reroll-hits-{_policy}+sustained",
            gun(3, skill=4, abilities="[SUSTAINED HITS 1]"),
            W1x3,
            modifiers=Modifiers(reroll_hits=_policy),
        ),
        case(
            f"reroll-hits-{_policy}-minus-1",
            gun(3, skill=3),
            W1x3,
            modifiers=Modifiers(reroll_hits=_policy, hit=-1),
        ),
        case(
            f"reroll-wounds-{_policy}+devastating",
            gun(3, strength=3, abilities="[DEVASTATING WOUNDS]"),
            W1x3_SV3,
            modifiers=Modifiers(reroll_wounds=_policy),
        ),
    ]
REROLLS += [
    case(
        "reroll-wounds-failures-after-lance",
        gun(3, strength=3, abilities="[LANCE]"),
        W1x3,
        Context(charged=True),
        Modifiers(reroll_wounds="failures"),
    ),
    case(
        "reroll-wounds-ones-with-anti",
        gun(3, abilities="[ANTI-INFANTRY 5+], [DEVASTATING WOUNDS]"),
        unit(models(3, 3, 1), keywords=INFANTRY),
        modifiers=Modifiers(reroll_wounds="ones"),
    ),
    case(
        "reroll-twin-failures-beats-mod-ones",
        gun(3, abilities="[TWIN-LINKED]"),
        W1x3,
        modifiers=Modifiers(reroll_wounds="ones"),
    ),
    case(
        "reroll-mod-non-critical-beats-twin-failures",
        gun(3, abilities="[TWIN-LINKED], [DEVASTATING WOUNDS]"),
        W1x3_SV3,
        modifiers=Modifiers(reroll_wounds="non_critical"),
    ),
    case(
        "reroll-twin-non-critical-beats-mod-ones",
        gun(3, abilities="[TWIN-LINKED], [DEVASTATING WOUNDS]"),
        W1x3_SV3,
        Context(reroll_policy="non_critical"),
        Modifiers(reroll_wounds="ones"),
    ),
    case(
        "reroll-indirect-forbids-ones",
        gun(3, skill=3, abilities="[INDIRECT FIRE]"),
        W1x3,
        modifiers=Modifiers(reroll_hits="ones"),
    ),
]

CRIT5 = [
    case(
        "crit-hit-5+sustained+lethal",
        gun(3, strength=3, abilities="[SUSTAINED HITS 2], [LETHAL HITS]"),
        W1x3,
        modifiers=Modifiers(critical_hit=5),
    ),
    case(
        "crit-hit-2-sustained",
        gun(3, skill=4, abilities="[SUSTAINED HITS 1]"),
        W1x3,
        modifiers=Modifiers(critical_hit=2),
    ),
    case(
        "crit-hit-5-over-BS6",
        gun(3, skill=6, abilities="[LETHAL HITS]"),
        W1x3,
        modifiers=Modifiers(critical_hit=5, hit=-1),
    ),
]

BODYGUARD = models(2, 4, 1)
CAPTAIN = hero(save=2, invuln=4)
LIEUTENANT = hero("Lieutenant", save=4, wounds=2)

PRECISION = [
    case(
        "precision-char-better-save",
        gun(3, strength=5, ap=-2, abilities="[PRECISION]"),
        unit(BODYGUARD, CAPTAIN),
    ),
    case(
        "precision-then-normal-pool",
        [gun(3, strength=5, ap=-1, abilities="[PRECISION]"), gun(4, strength=5, ap=-1, damage=2)],
        unit(models(1, 3, 1), hero(), LIEUTENANT),
    ),
    case(
        "precision-label-wounded-char-first-later",
        [gun(3, strength=5, ap=-1, abilities="[PRECISION]"), gun(4, strength=5, ap=-1, damage=2)],
        unit(models(1, 3, 1), hero(), LIEUTENANT),
        Context(precision_group="Lieutenant"),
    ),
    case(
        "precision-index-already-wounded-captain",
        [gun(3, strength=5, ap=-2, abilities="[PRECISION]"), gun(4, strength=5, ap=-1, damage=2)],
        unit(models(1, 3, 1), hero(wounds_lost=1), LIEUTENANT),
        Context(precision_group=2),
    ),
    case(
        "precision+devastating",
        gun(3, strength=5, damage="D3", abilities="[PRECISION], [DEVASTATING WOUNDS]"),
        unit(models(2, 3, 1), hero()),
        modifiers=Modifiers(critical_wound=5),
    ),
    case(
        "precision+devastating-fnp-char",
        gun(3, strength=5, damage=2, abilities="[PRECISION], [DEVASTATING WOUNDS]"),
        unit(models(1, 4, 2), hero(fnp=4)),
        modifiers=Modifiers(critical_wound=4),
    ),
    case(
        "precision-only-characters",
        gun(3, strength=5, ap=-1, abilities="[PRECISION]"),
        unit(hero(), LIEUTENANT),
    ),
    case(
        "char-higher-T-not-used",
        gun(3, strength=5, ap=-1, damage=2),
        unit(models(2, 3, 2), hero(toughness=6)),
    ),
]

MORTAL = [
    case("mortal-spill-fnp", [MortalWounds(4)], unit(models(2, 4, 2, fnp=5), hero())),
    case(
        "mortal-D3-then-pool",
        [MortalWounds("D3"), gun(2)],
        unit(models(2, 4, 2, fnp=5)),
    ),
    case(
        "pool-then-mortal-3",
        [gun(2), MortalWounds(3)],
        unit(models(2, 4, 2, fnp=5), models(1, 3, 1)),
    ),
    case(
        "mortal-precision-mortal",
        [MortalWounds("D3"), gun(3, strength=5, abilities="[PRECISION]"), MortalWounds(2)],
        unit(models(1, 4, 2, fnp=6), hero()),
    ),
    case(
        "mortal-onto-wounded-model",
        [MortalWounds(2), gun(2, damage=2)],
        unit(models(2, 4, 3, wounds_lost=2, fnp=6)),
    ),
]

MODIFIERS = [
    case(
        "mods-strength-ap-skill",
        gun(3, skill=4, strength=3, damage="D3"),
        unit(models(2, 3, 2)),
        modifiers=Modifiers(strength=1, ap=-1, skill=-1),
    ),
    case(
        "mods-strength-floor-1",
        gun(3, strength=2),
        unit(models(2, 5, 1, toughness=1)),
        modifiers=Modifiers(strength=-3),
    ),
    case(
        "mods-ap-capped-at-0",
        gun(3, strength=5, ap=-1),
        W1x3_SV3,
        modifiers=Modifiers(ap=2),
    ),
    case(
        "mods-everything",
        [
            (
                gun(1, strength=5, ap=-1, damage="D3", abilities="[SUSTAINED HITS 1], [HAZARDOUS]"),
                2,
            ),
            MortalWounds(1),
            gun(2, strength=8, ap=-2, damage=2, abilities="[DEVASTATING WOUNDS], [TWIN-LINKED]"),
        ],
        unit(models(2, 3, 2, fnp=6), hero()),
        Context(reroll_policy="non_critical", attacker_monster_or_vehicle=True),
        Modifiers(critical_hit=5, hit=1),
    ),
]

_ABILITY_TEXTS = [
    "[SUSTAINED HITS 1]",
    "[SUSTAINED HITS D3]",
    "[LETHAL HITS]",
    "[DEVASTATING WOUNDS]",
    "[ANTI-INFANTRY 4+]",
    "[TWIN-LINKED]",
    "[TORRENT]",
    "[BLAST]",
    "[RAPID FIRE 1]",
    "[MELTA 1]",
    "[HEAVY]",
    "[LANCE]",
    "[IGNORES COVER]",
    "[PRECISION]",
    "[HAZARDOUS]",
    "[INDIRECT FIRE]",
    "[LETHAL HITS: VEHICLE]",
    "[SUSTAINED HITS 2: INFANTRY]",
]


def _random_cases(n: int, seed: int = 20260620) -> list[Case]:
    """Small random combinations (fixed seed): one or two pools of at most 3 attacks,
    one or two abilities each, a random context and random modifiers, against
    bodyguards (optionally with a CHARACTER), INFANTRY or VEHICLE.
    """
    rng = np.random.default_rng(seed)
    out = []
    for k in range(n):
        weapons = []
        for _ in range(int(rng.integers(1, 3))):
            picks = rng.choice(len(_ABILITY_TEXTS), size=int(rng.integers(1, 3)), replace=False)
            text = ", ".join(_ABILITY_TEXTS[i] for i in sorted(picks))
            weapons.append(
                gun(
                    str(rng.choice(["1", "2", "D3"])) if "SUSTAINED" not in text else "2",
                    skill=int(rng.integers(2, 6)),
                    strength=int(rng.choice([3, 4, 5, 8])),
                    ap=-int(rng.integers(0, 3)),
                    damage=str(rng.choice(["1", "2", "D3"])),
                    abilities=text,
                )
            )
        groups = [models(int(rng.integers(1, 4)), int(rng.integers(3, 6)), int(rng.integers(1, 3)))]
        if rng.random() < 0.5:
            groups.append(
                hero(wounds=int(rng.integers(2, 4)), fnp=[None, 5][int(rng.random() < 0.3)])
            )
        keywords = [INFANTRY, VEHICLE][int(rng.integers(0, 2))]
        flags: dict[str, Any] = {
            name: bool(rng.random() < 0.3)
            for name in (
                "half_range",
                "remained_stationary",
                "charged",
                "target_in_cover",
                "spotted",
                "melee",
            )
        }
        context = Context(
            **flags,
            reroll_policy=str(rng.choice(["failures", "non_critical"])),
            lethal_hits=str(rng.choice(["auto", "auto", "roll"])),
        )
        modifiers = Modifiers(
            hit=int(rng.integers(-1, 2)),
            wound=int(rng.integers(-1, 2)),
            critical_hit=int(rng.choice([5, 6, 6])),
            critical_wound=int(rng.choice([5, 6, 6])),
            reroll_hits=[None, "ones", "failures", "non_critical"][int(rng.integers(0, 4))],
            damage_add=int(rng.integers(0, 2)),
        )
        desc = "+".join(
            w.abilities_text.replace("[", "").replace("]", "").replace(", ", ",").replace(" ", "")
            for w in weapons
        )
        out.append(
            case(
                f"rand{k:02d}-{desc}-vs-{keywords[0]}{'+char' if len(groups) > 1 else ''}",
                weapons,
                unit(*groups, keywords=keywords),
                context,
                modifiers,
            )
        )
    return out


CASES = (
    ALONE
    + INTERACTIONS
    + DUPLICATES
    + KEYWORDS
    + DEVASTATING
    + DAMAGE
    + REROLLS
    + CRIT5
    + PRECISION
    + MORTAL
    + MODIFIERS
    + _random_cases(30)
)
BY_ID = {c.id: c for c in CASES}
assert len(BY_ID) == len(CASES), "case ids must be unique"


@cache
def _engine(case_id: str) -> mh.AttackResult:
    c = BY_ID[case_id]
    return mh.attack(c.weapons, c.target, context=c.context, modifiers=c.modifiers)


@cache
def _oracle(case_id: str) -> OracleResult:
    c = BY_ID[case_id]
    return oracle_attack(c.weapons, c.target, context=c.context, modifiers=c.modifiers)


def _params() -> list[Any]:
    out = []
    for c in CASES:
        marks = [pytest.mark.xfail(strict=True, reason=c.xfail)] if c.xfail else []
        out.append(pytest.param(c.id, id=c.id, marks=marks))
    return out


# --------------------------------------------------------------------------- engine vs oracle


@pytest.mark.parametrize("case_id", _params())
def test_outcome_matches_oracle(case_id: str) -> None:
    """Killed, damage, per-group kills, P(destroyed) and the attacker's hazard wounds."""
    got, want = _engine(case_id), _oracle(case_id)
    target = BY_ID[case_id].target
    assert_pmf(got.killed.probabilities, want.killed, "killed")
    assert_pmf(got.damage.probabilities, want.damage, "damage")
    assert got.p_destroyed == pytest.approx(float(want.p_destroyed), rel=0, abs=ATOL)
    assert len(got.groups) == len(want.groups)
    for i, g in enumerate(target.groups):
        assert_pmf(got.groups[i].killed.probabilities, want.groups[i], f"group {i} ({g.label})")
    assert_pmf(got.hazardous.probabilities, want.hazardous, "hazardous")


@pytest.mark.parametrize("case_id", _params())
def test_pool_stages_match_oracle(case_id: str) -> None:
    """Each pool's attacks, hits, wounds, unsaved, devastating and cumulative kills."""
    got, want = _engine(case_id), _oracle(case_id)
    assert len(got.pools) == len(want.pools)
    for j, (g, w) in enumerate(zip(got.pools, want.pools, strict=True)):
        for stage in STAGES:
            assert_pmf(getattr(g, stage).probabilities, getattr(w, stage), f"pool {j} {stage}")


@pytest.mark.parametrize("case_id", _params())
def test_pool_abilities_match_oracle(case_id: str) -> None:
    """The abilities each pool reports as used: the best applying instance of each kind
    whose condition holds in the context, as printed, in printed order."""
    got, want = _engine(case_id), _oracle(case_id)
    assert [p.abilities for p in got.pools] == [p.abilities for p in want.pools]


@pytest.mark.parametrize("case_id", [pytest.param(c.id, id=c.id) for c in CASES])
def test_oracle_is_a_distribution(case_id: str) -> None:
    """Every oracle pmf sums to exactly 1 and stays within the unit's models."""
    want = _oracle(case_id)
    target = BY_ID[case_id].target
    for pmf in (want.killed, want.damage, want.hazardous, *want.groups):
        assert total(pmf) == 1
    assert max(want.killed) <= target.models
    for pool in want.pools:
        for stage in STAGES:
            assert total(getattr(pool, stage)) == 1
        assert max(pool.unsaved) <= max(pool.wounds)
        assert max(pool.devastating) <= max(pool.wounds)


# --------------------------------------------------------------------------- what is reported

#: The oracle's own account of which instance applies, spelled out by hand.
USED = {
    "dup-sustained-1-and-2": ("[SUSTAINED HITS 2]",),
    "dup-anti-vs-infantry": ("[ANTI-INFANTRY 2+]", "[DEVASTATING WOUNDS]"),
    "dup-anti-vs-vehicle": ("[ANTI-VEHICLE 4+]", "[DEVASTATING WOUNDS]"),
    "dup-anti-vs-both": ("[ANTI-INFANTRY 2+]", "[DEVASTATING WOUNDS]"),
    "dup-sustained-restricted-vs-infantry": ("[SUSTAINED HITS 1]",),
    "dup-sustained-restricted-vs-vehicle": ("[SUSTAINED HITS 2: VEHICLE]",),
    "dup-rapid-fire-1-and-D3": ("[RAPID FIRE D3]",),
    "dup-melta-D3-and-1": ("[MELTA D3]",),
    "dup-blast-2-and-1": ("[BLAST 2]",),
    "dup-cleave-1-and-2": ("[CLEAVE 2]",),
    "kw-lethal-infantry-vs-infantry": ("[LETHAL HITS: INFANTRY]",),
    "kw-lethal-infantry-vs-vehicle": (),
    "kw-devastating-vehicle-vs-infantry": (),
    "torrent+sustained+lethal-no-crits": ("[TORRENT]",),
    "anti-infantry-4+devastating-vs-vehicle": ("[DEVASTATING WOUNDS]",),
    "heavy-stationary": ("[HEAVY]",),
    "heavy-engaged-nothing": (),
    "lethal-roll-choice": (),
    "rapid-fire-out-of-half": (),
    "cleave-ranged-nothing": (),
    "precision-no-character": (),
    "selection-only-abilities": (),
}


@pytest.mark.parametrize(("case_id", "used"), USED.items(), ids=list(USED))
def test_abilities_reported_by_hand(case_id: str, used: tuple[str, ...]) -> None:
    assert _oracle(case_id).pools[0].abilities == used
    assert _engine(case_id).pools[0].abilities == used


# --------------------------------------------------------------------------- no-effect cases


NO_EFFECT = [
    ("torrent+sustained+lethal-no-crits", gun("D3", strength=3, abilities="[TORRENT]"), W1x3),
    (
        "kw-lethal-infantry-vs-vehicle",
        gun(3, strength=3),
        unit(models(3, 4, 1), keywords=VEHICLE),
    ),
    ("lethal-roll-choice", gun(3, strength=3), W1x3),
    ("heavy-engaged-nothing", gun(3, skill=4), W1x3),
    ("heavy-melee-nothing", gun(3, skill=4), W1x3),
    ("cover-melee-nothing", gun(3), W1x3),
    ("cleave-ranged-nothing", gun(2), unit(models(5, 4, 1))),
    ("blast-vs-4-no-bonus", gun(1), unit(models(4, 4, 1))),
    ("rapid-fire-out-of-half", gun(1), unit(models(2, 4, 1))),
    ("selection-only-abilities", [(gun(2), 2)], W1x3),
    (
        "anti-infantry-4+devastating-vs-vehicle",
        gun(3, abilities="[DEVASTATING WOUNDS]"),
        unit(models(3, 3, 1), keywords=VEHICLE),
    ),
]


@pytest.mark.parametrize(
    ("case_id", "plain", "target"), NO_EFFECT, ids=[n for n, _, _ in NO_EFFECT]
)
def test_ability_without_effect_equals_the_plain_weapon(
    case_id: str, plain: Any, target: Unit
) -> None:
    """An ability that cannot trigger here leaves every distribution unchanged."""
    c = BY_ID[case_id]
    base = mh.attack(plain, target, context=c.context, modifiers=c.modifiers)
    got = _engine(case_id)
    assert_pmf(got.killed.probabilities, exact(_oracle(case_id).killed), "killed")
    np.testing.assert_allclose(
        got.killed.probabilities, base.killed.probabilities, rtol=0, atol=ATOL
    )
    for stage in ("attacks", "hits", "wounds", "unsaved", "devastating"):
        np.testing.assert_allclose(
            getattr(got.pools[0], stage).probabilities,
            getattr(base.pools[0], stage).probabilities,
            rtol=0,
            atol=ATOL,
            err_msg=stage,
        )


# --------------------------------------------------------------------------- hand-derived


ONE_W1 = unit(models(1, 7, 1))  # one W1 model without a save


def _pool(weapons: Any, target: Unit = ONE_W1, **kw: Any) -> Any:
    return oracle_attack(weapons, target, **kw).pools[0]


def test_hand_sustained_extra_hits_are_not_critical_and_never_lethal() -> None:
    """A1 BS3+, S3 vs T4 (5+), [SUSTAINED HITS 1] [LETHAL HITS] [DEVASTATING WOUNDS].

    A natural 6 (1/6) auto-wounds (a normal wound) and scores one extra hit that rolls
    to wound: 5+ (1/3), a Critical Wound on a 6 (1/6). A 3-5 (1/2) rolls to wound too.
    Wounds: P(2) = 1/6 * 1/3; P(1) = 1/6 * 2/3 + 1/2 * 1/3.
    Devastating: only rolled wounds can be critical: P(1) = (1/6 + 1/2) * 1/6.
    """
    weapon = gun(1, strength=3, abilities="[SUSTAINED HITS 1], [LETHAL HITS], [DEVASTATING WOUNDS]")
    pool = _pool(weapon)
    sixth, third, half = Fraction(1, 6), Fraction(1, 3), Fraction(1, 2)
    assert exact(pool.hits) == {0: third, 1: half, 2: sixth}
    two, one = sixth * third, sixth * 2 * third + half * third
    assert exact(pool.wounds) == {0: 1 - one - two, 1: one, 2: two}
    dev = (sixth + half) * sixth
    assert exact(pool.devastating) == {0: 1 - dev, 1: dev}


def test_hand_lethal_and_twin_linked() -> None:
    """A1 BS3+, S3 vs T4 (5+), [LETHAL HITS] [TWIN-LINKED] (re-roll failed wounds).

    A 6 wounds automatically (1/6); a 3-5 (1/2) wounds on 5+ re-rolled once:
    1/3 + 2/3 * 1/3 = 5/9. P(wound) = 1/6 + 1/2 * 5/9 = 4/9.
    """
    pool = _pool(gun(1, strength=3, abilities="[LETHAL HITS], [TWIN-LINKED]"))
    assert exact(pool.wounds) == {0: Fraction(5, 9), 1: Fraction(4, 9)}


def test_hand_anti_feeds_devastating_wounds() -> None:
    """A1 BS2+ S4 vs T4, [ANTI-INFANTRY 4+] [DEVASTATING WOUNDS] vs INFANTRY: a hit
    (5/6) wounds on 4+, and every 4+ is a Critical Wound, so P(devastating) = 5/6 * 1/2;
    against VEHICLE only a 6 is critical: 5/6 * 1/6."""
    weapon = gun(1, skill=2, abilities="[ANTI-INFANTRY 4+], [DEVASTATING WOUNDS]")
    vs_infantry = _pool(weapon, unit(models(1, 7, 1), keywords=INFANTRY))
    vs_vehicle = _pool(weapon, unit(models(1, 7, 1), keywords=VEHICLE))
    assert vs_infantry.devastating[1] == Fraction(5, 12)
    assert vs_vehicle.devastating[1] == Fraction(5, 36)


def test_hand_torrent_never_crits() -> None:
    """[TORRENT] with [SUSTAINED HITS 1] [LETHAL HITS]: hits are exactly the attacks."""
    pool = _pool(gun("D3", abilities="[TORRENT], [SUSTAINED HITS 1], [LETHAL HITS]"))
    third = Fraction(1, 3)
    assert exact(pool.attacks) == exact(pool.hits) == {1: third, 2: third, 3: third}


@pytest.mark.parametrize(
    ("context", "modifiers", "abilities", "p_hit"),
    [
        (Context(target_in_cover=True), Modifiers(hit=-1), "", Fraction(2, 6)),
        (Context(target_in_cover=True), Modifiers(hit=-2), "", Fraction(2, 6)),
        (
            Context(target_in_cover=True, remained_stationary=True),
            Modifiers(),
            "[HEAVY]",
            Fraction(4, 6),
        ),
        (Context(remained_stationary=True), Modifiers(hit=-1), "[HEAVY]", Fraction(4, 6)),
        (Context(target_in_cover=True), Modifiers(hit=-1), "[IGNORES COVER]", Fraction(3, 6)),
    ],
    ids=["cover+minus1", "cover+minus2-capped", "cover+heavy", "heavy+minus1", "ignores-cover"],
)
def test_hand_cover_is_outside_the_modifier_cap(
    context: Context, modifiers: Modifiers, abilities: str, p_hit: Fraction
) -> None:
    """BS 3+: cover worsens it to 4+ (a characteristic change), then the net roll
    modifier, capped at +/-1, applies: in cover at -1 (or -2) a natural 5+ hits."""
    pool = _pool(gun(1, abilities=abilities), context=context, modifiers=modifiers)
    assert pool.hits[1] == p_hit
    got = mh.attack(gun(1, abilities=abilities), ONE_W1, context=context, modifiers=modifiers)
    assert got.pools[0].hits.probabilities[1] == pytest.approx(float(p_hit), abs=ATOL)


def test_hand_devastating_one_model_cap() -> None:
    """A1 BS2+ S8 vs T4 (2+), D6 [DEVASTATING WOUNDS] vs 2x W2 Sv2+: a Critical Wound
    (1/6) deals D6 mortal wounds to one model, killing it unless the D6 is a 1; a normal
    wound (4/6) fails its save on a 1 and deals D6 to one model (no spill-over either).
    P(killed = 2) = 0 and P(killed = 1) = 5/6 * (1/6 + 4/6 * 1/6) * 5/6."""
    weapon = gun(1, skill=2, strength=8, damage="D6", abilities="[DEVASTATING WOUNDS]")
    target = unit(models(2, 2, 2))
    want = oracle_attack(weapon, target)
    p = Fraction(5, 6) * (Fraction(1, 6) + Fraction(4, 6) * Fraction(1, 6)) * Fraction(5, 6)
    assert exact(want.killed) == {0: 1 - p, 1: p}
    assert_pmf(mh.attack(weapon, target).killed.probabilities, want.killed)


@pytest.mark.parametrize(
    "case_id", ["dev-after-saves-wounded-model-finished-first", "dev-after-saves-good-save-first"]
)
def test_devastating_wounds_resolve_after_the_saves(case_id: str) -> None:
    """Devastating wounds come after the pool's save dice, and the order matters.

    First case: a wounded W2 Sv2+ model (1 wound left) before a W3 Sv6+ model; A2 BS2+
    S8 D3 [DEVASTATING WOUNDS], critical wounds on 4+. With one normal and one critical
    wound: after the saves (the rule), the normal wound meets the wounded model's 2+
    save and the mortal wounds then kill whichever model is current, so both die only
    if the 2+ save fails (1/6). Were the mortal wounds first, they would finish the
    wounded model and the normal wound would meet the 6+ save (both die with 5/6).
    The engine matches the after-the-saves reading, not the other.
    """
    c = BY_ID[case_id]
    after = _oracle(case_id)
    before = oracle_attack(c.weapons, c.target, modifiers=c.modifiers, devastating_first=True)
    assert exact(after.killed) != exact(before.killed)
    got = _engine(case_id)
    assert_pmf(got.killed.probabilities, after.killed, "after the saves")
    assert not pmf_close(got.killed.probabilities, before.killed)


def test_hand_damage_halve_then_subtract() -> None:
    """D4 against halve-damage and -1 damage: 4 -> 2 -> 1 (subtracting first gives
    3 -> 2). A1 BS2+ S8 (2+) vs one W2 model without a save: it never dies."""
    weapon = gun(1, skill=2, strength=8, damage=4)
    target = unit(models(1, 7, 2, halve_damage=True, damage_reduction=1))
    want = oracle_attack(weapon, target)
    assert exact(want.killed) == {0: Fraction(1)}
    assert exact(want.damage) == {0: Fraction(11, 36), 1: Fraction(25, 36)}
    assert_pmf(mh.attack(weapon, target).damage.probabilities, want.damage)


@pytest.mark.parametrize(("wounds", "dies"), [(5, True), (6, False)], ids=["W5", "W6"])
def test_hand_damage_set_multiply_add(wounds: int, dies: bool) -> None:
    """Set 2, x2, +1 = 5 damage (adding before multiplying would give 6)."""
    weapon = gun(1, skill=2, strength=8)
    target = unit(models(1, 7, wounds))
    mods = Modifiers(damage_set=2, damage_multiply=2, damage_add=1)
    want = oracle_attack(weapon, target, modifiers=mods)
    assert want.damage.get(5, 0) == Fraction(25, 36)
    assert want.killed.get(1, 0) == (Fraction(25, 36) if dies else 0)
    assert_pmf(mh.attack(weapon, target, modifiers=mods).damage.probabilities, want.damage)


def test_hand_precision() -> None:
    """A1 BS2+ S8 AP-4 [PRECISION] vs a W1 Sv3+ bodyguard and a W1 Sv3+ CHARACTER:
    the save always fails, and the character dies with 5/6 * 5/6; the bodyguard never."""
    weapon = gun(1, skill=2, strength=8, ap=-4, abilities="[PRECISION]")
    target = unit(models(1, 3, 1), hero(wounds=1))
    want = oracle_attack(weapon, target)
    assert exact(want.groups[0]) == {0: Fraction(1)}
    assert exact(want.groups[1]) == {0: Fraction(11, 36), 1: Fraction(25, 36)}
    assert_pmf(mh.attack(weapon, target).groups[1].killed.probabilities, want.groups[1])


@pytest.mark.parametrize("monster", [False, True], ids=["infantry", "monster"])
def test_hand_hazardous(monster: bool) -> None:
    """Three [HAZARDOUS] weapons: Binomial(3, 1/3) failed rolls, 1 or 3 mortal wounds each."""
    weapons = [(gun(1, abilities="[HAZARDOUS]"), 3)]
    context = Context(attacker_monster_or_vehicle=monster)
    want = oracle_attack(weapons, W1x3, context=context)
    per = 3 if monster else 1
    third = Fraction(1, 3)
    binom = {k: comb(3, k) * third**k * (1 - third) ** (3 - k) for k in range(4)}
    assert exact(want.hazardous) == {k * per: p for k, p in binom.items()}
    assert_pmf(mh.attack(weapons, W1x3, context=context).hazardous.probabilities, want.hazardous)


def test_hand_mortal_wounds_spill_over_with_fnp() -> None:
    """Three mortal wounds into 2x W2 with FNP 5+: each is lost with 2/3, one at a time,
    spilling over: wounds lost ~ Binomial(3, 2/3), killed = lost // 2."""
    target = unit(models(2, 4, 2, fnp=5))
    want = oracle_attack([MortalWounds(3)], target)
    lose = Fraction(2, 3)
    binom = {k: comb(3, k) * lose**k * (1 - lose) ** (3 - k) for k in range(4)}
    assert exact(want.damage) == binom
    assert exact(want.killed) == {0: binom[0] + binom[1], 1: binom[2] + binom[3]}
    got = mh.attack([MortalWounds(3)], target)
    assert_pmf(got.damage.probabilities, want.damage)
    assert_pmf(got.killed.probabilities, want.killed)


def test_hand_fnp_against_devastating_mortal_wounds() -> None:
    """A1 BS2+ S8 D2 [DEVASTATING WOUNDS] vs one W2 Sv2+ model with FNP 5+. A Critical
    Wound (5/6 * 1/6) kills only if both mortal wounds get through (2/3)^2; a normal
    wound (5/6 * 4/6) needs a failed save (1/6) and the same."""
    weapon = gun(1, skill=2, strength=8, damage=2, abilities="[DEVASTATING WOUNDS]")
    target = unit(models(1, 2, 2, fnp=5))
    through = Fraction(2, 3) ** 2
    p = Fraction(5, 6) * (Fraction(1, 6) + Fraction(4, 6) * Fraction(1, 6)) * through
    want = oracle_attack(weapon, target)
    assert want.killed[1] == p
    assert_pmf(mh.attack(weapon, target).killed.probabilities, want.killed)


@pytest.mark.parametrize(
    ("keywords", "lethal"),
    [("INFANTRY", True), ("VEHICLE", False), ("MONSTER, TITANIC", False), ("", True)],
)
def test_a_non_keyword_restriction_excludes_every_keyword_listed(
    keywords: str, lethal: bool
) -> None:
    # docs/rules.md D36: the Ork slugga's [LETHAL HITS: non-MONSTER/VEHICLE] is lethal
    # against a target that is neither; S4 against T4 wounds on a 4+, so a lethal hit's
    # 1/6 of automatic wounds is what the case turns on
    slugga = mh.Weapon("Slugga", 1, 3, 4, 0, 1, "[LETHAL HITS: non-MONSTER/VEHICLE]")
    target = mh.Unit.of("Target", 3, 4, 7, 1, keywords=keywords)
    got = mh.attack([(slugga, 2)], target)
    want = oracle_attack([(slugga, 2)], target)
    assert_pmf(got.killed.probabilities, want.killed)
    assert got.pools[0].abilities == (("[LETHAL HITS: NON-MONSTER/VEHICLE]",) if lethal else ())
    # per die: hit on 3+; a 6 wounds by itself when lethal, else a 4+ to wound; no save
    p = (
        Fraction(1, 6) + Fraction(3, 6) * Fraction(1, 2)
        if lethal
        else Fraction(4, 6) * Fraction(1, 2)
    )
    assert got.killed.mean() == pytest.approx(float(2 * p), abs=1e-12)
