"""A registry of named attack scenarios shared by the cross-check and invariant tests.

Each :class:`Scenario` is a list of weapons (in the attacker's declared order) and a
target unit. Together they cover (11th-edition core rules, docs/rules.md §1-§2):

* homogeneous units: GEQ-like (T3 W1 Sv5+), MEQ (T4 W2 Sv3+), TEQ (T5 W3 Sv2+ InSv4+),
  a vehicle (T10 W12 Sv3+), models with no armour save (``save=7``);
* mixed units: a bodyguard with a CHARACTER, two bodyguard groups (different Sv and W)
  with a CHARACTER, a lone CHARACTER;
* units starting with a wounded model (bodyguard and CHARACTER);
* Feel No Pain 5+ and 6+ against damage greater than W;
* random attacks (D6, 2D6, D3+3) and random damage (D3, D6, D6+1, 2D6);
* several pools in order (two and three different weapons against one unit);
* hit rolls on 2+ and 6+, every wound rung (2+ .. 6+), AP 0 to -4;
* leftover attacks (big weapons against a few small models).

Ability scenarios (docs/rules.md §3-§4) add an optional :class:`mathhammer.Context` and
:class:`mathhammer.Modifiers`:

* Sustained Hits 1, 2 and D3 (and a keyword-restricted duplicate), Lethal Hits, both together;
* Devastating Wounds with Anti-X, with D3 damage against W2, against Feel No Pain, with
  Precision, and with Lethal Hits automatic or rolled (``lethal_hits="roll"``);
* Anti-X applying and not applying by keyword; Twin-linked re-rolling failures and every
  non-critical result; critical hits on 5+ with non-critical re-rolls; Lance with re-rolls;
* Torrent (in cover), Blast against 10 and 20 models, Rapid Fire within and beyond half range,
  Cleave; Melta within half range (and with -1 damage: Melta is part of the add step); Heavy
  while stationary against cover; Ignores Cover against cover and Stealth (and Stealth
  without it); Indirect Fire with and without a spotter;
* Precision against a bodyguard with a CHARACTER (alone, then followed by a normal pool);
* Hazardous weapons on a MONSTER attacker;
* roll modifiers and their cap, BS/S/AP changes, damage set/multiply/add, halved damage and
  damage reduction; mortal-wound steps before and after a pool against Feel No Pain.

Every scenario runs the exact engine (``unsaved`` included) in a few milliseconds,
well under 50 ms.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import mathhammer as mh

__all__ = ["SCENARIOS", "Scenario", "scenario_ids", "scenarios"]


@dataclass(frozen=True)
class Scenario:
    """One attack: ``mh.attack(weapons, target, context=..., modifiers=...)``."""

    name: str
    weapons: Any
    target: mh.Unit
    note: str = ""
    context: mh.Context | None = None
    modifiers: mh.Modifiers | None = None
    rules: str = "11e"

    @property
    def classic(self) -> bool:
        """True for the classic ruleset (docs/rules.md §5)."""
        return self.rules == "classic"

    @property
    def mixed(self) -> bool:
        """True when the target has more than one allocation group."""
        return len(self.target.groups) > 1

    @property
    def steps(self) -> tuple[mh.Pool | mh.MortalWounds, ...]:
        """The pools (and mortal-wound steps) in resolution order."""
        return mh.gather_pools(self.weapons)

    def kinds(self, step: int) -> frozenset[str]:
        """The ability kinds of one step's weapon that apply against the target, read
        from the profiles (not from the engine's result); ``{"MORTAL WOUNDS"}`` for a
        mortal-wound step. Context conditions (half range, charged, ...) are not applied."""
        pool = self.steps[step]
        if isinstance(pool, mh.MortalWounds):
            return frozenset({"MORTAL WOUNDS"})
        chosen = mh.abilities.choose(pool.weapon.abilities, self.target.keywords)
        return frozenset(a.kind for a in chosen)

    def uses(self, kind: str) -> bool:
        """True if some step has the ability kind (see :meth:`kinds`)."""
        return any(kind in self.kinds(j) for j in range(len(self.steps)))

    @property
    def plain(self) -> bool:
        """The core attack sequence only (docs/rules.md §1-§2): no weapon ability with an
        effect (whether or not it applies to the target), no mortal-wound step, no context,
        no modifiers, and no defensive rule (Stealth, halved or reduced damage)."""
        weapons_plain = all(
            isinstance(p, mh.Pool) and all(a.kind in _NO_MATHS for a in p.weapon.abilities)
            for p in self.steps
        )
        defence = self.target.stealth or any(
            g.halve_damage or g.damage_reduction for g in self.target.groups
        )
        no_context = self.context is None and self.modifiers is None
        return weapons_plain and not defence and no_context and not self.classic

    def attack(self) -> mh.AttackResult:
        """The exact result."""
        return mh.attack(
            self.weapons,
            self.target,
            rules=self.rules,
            context=self.context,
            modifiers=self.modifiers,
        )

    def simulate(self, trials: int, seed: int) -> mh.SimulationResult:
        """A Monte Carlo estimate."""
        return mh.simulate(
            self.weapons,
            self.target,
            trials=trials,
            rng=seed,
            context=self.context,
            modifiers=self.modifiers,
            rules=self.rules,
        )


#: Ability kinds with no effect on the maths (selection rules only).
_NO_MATHS = frozenset(mh.abilities.NO_EFFECT | {"EXTRA ATTACKS"})


# --------------------------------------------------------------------------- weapons
LASGUN = mh.Weapon("Lasgun", attacks=1, skill=4, strength=3, ap=0, damage=1)
BOLT_RIFLE = mh.Weapon("Bolt rifle", attacks=2, skill=3, strength=4, ap=-1, damage=1)
SARGE_BOLT_RIFLE = mh.Weapon(
    "Sergeant's bolt rifle", attacks=3, skill=3, strength=4, ap=-1, damage=1
)
BOLT_PISTOL = mh.Weapon("Bolt pistol", attacks=1, skill=3, strength=4, ap=0, damage=1)
HEAVY_BOLTER = mh.Weapon("Heavy bolter", attacks=3, skill=4, strength=5, ap=-1, damage=2)
PLASMA = mh.Weapon("Plasma gun (supercharge)", attacks=1, skill=3, strength=8, ap=-3, damage=2)
LASCANNON = mh.Weapon("Lascannon", attacks=1, skill=3, strength=12, ap=-3, damage="D6+1")
KRAK = mh.Weapon("Krak missile", attacks=1, skill=4, strength=9, ap=-2, damage="D6")
MULTI_MELTA = mh.Weapon("Multi-melta", attacks=2, skill=4, strength=9, ap=-4, damage="D6")
VOLCANO_LANCE = mh.Weapon("Volcano lance", attacks=1, skill=3, strength=20, ap=-4, damage="2D6")
SNIPER = mh.Weapon("Sniper rifle", attacks=1, skill=2, strength=5, ap=-2, damage="D3")
SNAP_SHOTS = mh.Weapon("Snap-firing autogun", attacks=3, skill=6, strength=4, ap=0, damage=1)
FLAMER = mh.Weapon("Flamer (no torrent)", attacks="D6", skill=2, strength=4, ap=0, damage=1)
BATTLE_CANNON = mh.Weapon("Battle cannon", attacks="2D6", skill=4, strength=10, ap=-1, damage="D3")
FRAG = mh.Weapon("Frag launcher", attacks="D3+3", skill=4, strength=4, ap=0, damage=1)
PLAGUE_SPEWER = mh.Weapon("Heavy blight gun", attacks=2, skill=3, strength=6, ap=-1, damage="D3")
POWER_FIST = mh.Weapon("Power fist", attacks=3, skill=3, strength=8, ap=-2, damage=2)
AUTOCANNON = mh.Weapon("Autocannon", attacks=2, skill=4, strength=9, ap=-1, damage=3)

# --------------------------------------------------------------------------- targets
GEQ = mh.Unit.of("Guardsmen", models=10, toughness=3, save=5, wounds=1, keywords="INFANTRY")
MEQ = mh.Unit.of("Intercessors", models=5, toughness=4, save=3, wounds=2, keywords="INFANTRY")
TEQ = mh.Unit.of("Terminators", models=5, toughness=5, save=2, wounds=3, invuln=4)
VEHICLE = mh.Unit.of("Battle tank", models=1, toughness=10, save=3, wounds=12, keywords="VEHICLE")
VEHICLE_INV = mh.Unit.of("Shielded tank", models=1, toughness=10, save=3, wounds=12, invuln=4)
CULTISTS = mh.Unit.of("Gretchin", models=10, toughness=2, save=7, wounds=1)
OGRYNS = mh.Unit.of("Ogryns", models=4, toughness=6, save=4, wounds=3)
PLAGUE_MARINES = mh.Unit.of("Plague marines", models=6, toughness=5, save=4, wounds=2, fnp=5)
WARDENS = mh.Unit(
    "Wardens",
    [mh.ModelGroup(4, toughness=4, save=3, wounds=2, fnp=6, fnp_mortal=4)],
    keywords="INFANTRY",
)
ZOMBIES = mh.Unit.of("Poxwalkers", models=10, toughness=3, save=6, wounds=1, fnp=6)
MEQ_WOUNDED = mh.Unit(
    "Wounded intercessors",
    [mh.ModelGroup(5, toughness=4, save=3, wounds=2, wounds_lost=1, name="Intercessors")],
)
CAPTAIN = mh.ModelGroup(1, toughness=4, save=2, wounds=5, invuln=4, character=True, name="Captain")
COMMAND_SQUAD = mh.Unit(
    "Command squad",
    [mh.ModelGroup(4, toughness=4, save=3, wounds=2, name="Bodyguard"), CAPTAIN],
    keywords="INFANTRY",
)
RETINUE = mh.Unit(
    "Retinue",
    [
        mh.ModelGroup(3, toughness=4, save=4, wounds=1, name="Guards"),
        mh.ModelGroup(2, toughness=5, save=2, wounds=3, name="Veterans"),
        mh.ModelGroup(1, toughness=4, save=3, wounds=4, invuln=4, character=True, name="Lord"),
    ],
    keywords="INFANTRY",
)
WOUNDED_COMMAND = mh.Unit(
    "Wounded command",
    [
        mh.ModelGroup(4, toughness=5, save=3, wounds=3, wounds_lost=2, name="Bodyguard"),
        mh.ModelGroup(
            1,
            toughness=5,
            save=2,
            wounds=5,
            invuln=4,
            character=True,
            name="Lord",
            wounds_lost=3,
        ),
    ],
)
FNP_BODYGUARD = mh.Unit(
    "Deathshroud and lord",
    [
        mh.ModelGroup(3, toughness=6, save=3, wounds=2, fnp=5, name="Deathshroud"),
        mh.ModelGroup(
            1, toughness=6, save=2, wounds=4, invuln=4, fnp=6, character=True, name="Lord"
        ),
    ],
)
SQUAD_WITH_SERGEANT = mh.Unit(
    "Squad with sergeant",
    [
        mh.ModelGroup(9, toughness=3, save=5, wounds=1, name="Troopers"),
        mh.ModelGroup(1, toughness=3, save=4, wounds=2, name="Sergeant"),
        mh.ModelGroup(1, toughness=3, save=4, wounds=3, invuln=5, character=True, name="Commissar"),
    ],
)
LONE_CHARACTER = mh.Unit("Lone captain", [CAPTAIN])
FEW_GEQ = mh.Unit.of("Three guardsmen", models=3, toughness=3, save=5, wounds=1)
TWO_MEQ = mh.Unit.of("Two intercessors", models=2, toughness=4, save=3, wounds=2)

# --------------------------------------------------------------------------- ability weapons
SH1_BOLT = mh.Weapon(
    "Bolt rifle (sustained)",
    attacks=2,
    skill=3,
    strength=4,
    ap=-1,
    damage=1,
    abilities="[SUSTAINED HITS 1]",
)
SH2_HEAVY_BOLTER = mh.Weapon(
    "Heavy bolter (sustained 2)",
    attacks=3,
    skill=4,
    strength=5,
    ap=-1,
    damage=2,
    abilities="[SUSTAINED HITS 2]",
)
SHD3_STORM_BOLTER = mh.Weapon(
    "Storm bolter (sustained D3)",
    attacks=2,
    skill=3,
    strength=4,
    ap=0,
    damage=1,
    abilities="[SUSTAINED HITS D3]",
)
LETHAL_AUTOCANNON = mh.Weapon(
    "Autocannon (lethal)",
    attacks=2,
    skill=4,
    strength=9,
    ap=-1,
    damage=3,
    abilities="[LETHAL HITS]",
)
GAUSS_FLAYER = mh.Weapon(
    "Gauss flayer",
    attacks=3,
    skill=3,
    strength=5,
    ap=-1,
    damage=1,
    abilities="[SUSTAINED HITS 1], [LETHAL HITS]",
)
ANTI_INFANTRY_DW = mh.Weapon(
    "Toxin rifle",
    attacks=2,
    skill=3,
    strength=4,
    ap=-1,
    damage=2,
    abilities="[ANTI-INFANTRY 4+], [DEVASTATING WOUNDS]",
)
DW_SNIPER = mh.Weapon(
    "Exitus rifle",
    attacks=1,
    skill=2,
    strength=5,
    ap=-2,
    damage="D3",
    abilities="[DEVASTATING WOUNDS]",
)
DW_BLIGHT = mh.Weapon(
    "Blight launcher (devastating)",
    attacks=2,
    skill=3,
    strength=6,
    ap=-1,
    damage="D3",
    abilities="[DEVASTATING WOUNDS]",
)
HAYWIRE = mh.Weapon(
    "Haywire blaster",
    attacks=2,
    skill=3,
    strength=5,
    ap=0,
    damage=2,
    abilities="[ANTI-VEHICLE 2+]",
)
TWIN_HEAVY_BOLTER = mh.Weapon(
    "Twin heavy bolter",
    attacks=3,
    skill=3,
    strength=5,
    ap=-1,
    damage=2,
    abilities="[TWIN-LINKED]",
)
TWIN_DW_LASCANNON = mh.Weapon(
    "Twin lascannon (devastating)",
    attacks=2,
    skill=3,
    strength=8,
    ap=-2,
    damage=2,
    abilities="[TWIN-LINKED], [DEVASTATING WOUNDS]",
)
TORRENT_FLAMER = mh.Weapon(
    "Flamer",
    attacks="D6",
    skill=4,
    strength=4,
    ap=0,
    damage=1,
    abilities="[TORRENT], [SUSTAINED HITS 1]",
)
BLAST_FRAG = mh.Weapon(
    "Frag missile", attacks="D6", skill=4, strength=4, ap=0, damage=1, abilities="[BLAST]"
)
RAPID_FIRE_BOLTER = mh.Weapon(
    "Boltgun (rapid fire D3)",
    attacks=1,
    skill=3,
    strength=4,
    ap=0,
    damage=1,
    abilities="[RAPID FIRE D3]",
)
MELTAGUN = mh.Weapon(
    "Meltagun", attacks=1, skill=3, strength=9, ap=-4, damage="D6", abilities="[MELTA 2]"
)
HEAVY_LASCANNON = mh.Weapon(
    "Lascannon (heavy)",
    attacks=1,
    skill=4,
    strength=12,
    ap=-3,
    damage="D6+1",
    abilities="[HEAVY]",
)
LANCE = mh.Weapon(
    "Power lance", attacks=3, skill=3, strength=6, ap=-2, damage=2, abilities="[LANCE]"
)
IGNORES_COVER_RIFLE = mh.Weapon(
    "Burst cannon (ignores cover)",
    attacks=3,
    skill=4,
    strength=5,
    ap=0,
    damage=1,
    abilities="[IGNORES COVER]",
)
BURST_CANNON = mh.Weapon("Burst cannon", attacks=3, skill=4, strength=5, ap=0, damage=1)
MORTAR = mh.Weapon(
    "Mortar",
    attacks="D6",
    skill=4,
    strength=5,
    ap=0,
    damage=1,
    abilities="[INDIRECT FIRE], [BLAST]",
)
PRECISION_SNIPER = mh.Weapon(
    "Sniper rifle (precision)",
    attacks=1,
    skill=2,
    strength=5,
    ap=-2,
    damage=3,
    abilities="[PRECISION]",
)
PRECISION_DW = mh.Weapon(
    "Assassin's pistol",
    attacks=2,
    skill=2,
    strength=4,
    ap=-1,
    damage=2,
    abilities="[PRECISION], [DEVASTATING WOUNDS]",
)
HAZARDOUS_PLASMA = mh.Weapon(
    "Plasma cannon (hazardous)",
    attacks=1,
    skill=3,
    strength=8,
    ap=-3,
    damage=2,
    abilities="[HAZARDOUS]",
)
LETHAL_DW_GAUSS = mh.Weapon(
    "Gauss cannon",
    attacks=2,
    skill=3,
    strength=5,
    ap=-1,
    damage=2,
    abilities="[LETHAL HITS], [DEVASTATING WOUNDS]",
)
CLEAVE_AXE = mh.Weapon(
    "Great axe", attacks=3, skill=3, strength=5, ap=-1, damage=1, abilities="[CLEAVE 1]"
)
KEYWORD_SUSTAINED = mh.Weapon(
    "Tank hunter bolter",
    attacks=3,
    skill=3,
    strength=6,
    ap=-1,
    damage=2,
    abilities="[SUSTAINED HITS 1], [SUSTAINED HITS 2: VEHICLE]",
)
HEAVY_BOLTER_HEAVY = mh.Weapon(
    "Heavy bolter (heavy)",
    attacks=3,
    skill=4,
    strength=5,
    ap=-1,
    damage=2,
    abilities="[HEAVY]",
)
AUTOCANNON_D3 = mh.Weapon("Autocannon (D3)", attacks=2, skill=3, strength=9, ap=-1, damage="D3")

# --------------------------------------------------------------------------- ability targets
CONSCRIPTS = mh.Unit.of("Conscripts", models=20, toughness=3, save=5, wounds=1, keywords="INFANTRY")
LIGHT_TANKS = mh.Unit.of(
    "Light tanks", models=2, toughness=10, save=3, wounds=6, keywords="VEHICLE"
)
MONSTERS = mh.Unit.of("Monsters", models=2, toughness=9, save=3, wounds=6, keywords="MONSTER")
MEQ_STEALTH = mh.Unit.of(
    "Infiltrators", models=5, toughness=4, save=3, wounds=2, keywords="INFANTRY", stealth=True
)
HALVING_VEHICLE = mh.Unit(
    "Ceramite walker", mh.ModelGroup(1, 10, 3, 6, halve_damage=True), keywords="VEHICLE"
)
GRAVIS = mh.Unit(
    "Gravis (-1 damage)", mh.ModelGroup(3, 6, 3, 3, damage_reduction=1), keywords="INFANTRY"
)
ARMOURED_OGRYNS = mh.Unit(
    "Bullgryns (halve, -1 damage)", mh.ModelGroup(3, 6, 2, 3, damage_reduction=1, halve_damage=True)
)
PLAGUE_MARINES_INF = mh.Unit.of(
    "Plague marines (infantry)",
    models=6,
    toughness=5,
    save=4,
    wounds=2,
    fnp=5,
    keywords="INFANTRY",
)

RANGED_STATIONARY = mh.Context(remained_stationary=True)


_ALL = [
    # ---------------------------------------------------------------- homogeneous units
    Scenario("geq_lasguns", [(LASGUN, 20)], GEQ, "GEQ; hit 4+, wound 4+, AP 0, Sv 5+"),
    Scenario("meq_bolt_rifles", [(BOLT_RIFLE, 10)], MEQ, "MEQ W2; wound 4+, AP -1"),
    Scenario("teq_plasma", [(PLASMA, 5)], TEQ, "TEQ InSv4+ beats AP -3; wound 3+; D2 on W3"),
    Scenario("teq_power_fists", [(POWER_FIST, 4)], TEQ, "AP -2 vs Sv2+ (needs 4) and InSv4+"),
    Scenario("vehicle_lascannons", [(LASCANNON, 4)], VEHICLE, "T10 W12; wound 3+; D6+1"),
    Scenario("vehicle_krak_5up", [(KRAK, 6)], VEHICLE, "wound 5+ (S9 vs T10); random D6"),
    Scenario(
        "vehicle_volcano_2d6",
        [(VOLCANO_LANCE, 3)],
        VEHICLE,
        "wound 2+ (S20 vs T10); AP -4 leaves no save; D 2D6",
    ),
    Scenario(
        "vehicle_invuln_melta",
        [(MULTI_MELTA, 3)],
        VEHICLE_INV,
        "AP -4 vs Sv3+ InSv4+: the invulnerable save is used",
    ),
    Scenario(
        "no_save_bolt_pistols",
        [(BOLT_PISTOL, 12)],
        CULTISTS,
        "Sv 7 (no armour save); wound 2+ (S4 vs T2)",
    ),
    Scenario("ogryns_lasguns_6up", [(LASGUN, 30)], OGRYNS, "wound 6+ (2S <= T: S3 vs T6)"),
    Scenario("meq_sniper_2up", [(SNIPER, 6)], MEQ, "hit 2+; wound 3+; AP -2; D3 on W2"),
    Scenario("geq_snap_shots_6up", [(SNAP_SHOTS, 10)], GEQ, "hit 6+; wound 3+"),
    Scenario("geq_autocannon_overkill", [(AUTOCANNON, 3)], GEQ, "D3 on W1: excess is lost"),
    # ---------------------------------------------------------------- wounded models
    Scenario(
        "meq_wounded_start", [(BOLT_RIFLE, 6)], MEQ_WOUNDED, "one model starts with 1 wound lost"
    ),
    Scenario(
        "wounded_bodyguard_and_lord",
        [(HEAVY_BOLTER, 4)],
        WOUNDED_COMMAND,
        "wounded bodyguard first, wounded CHARACTER; D2",
    ),
    # ---------------------------------------------------------------- Feel No Pain
    Scenario("fnp5_d3_on_w2", [(PLAGUE_SPEWER, 6)], PLAGUE_MARINES, "FNP 5+; D3 on W2"),
    Scenario("fnp6_d6_on_w1", [(KRAK, 6)], ZOMBIES, "FNP 6+; D6 on W1; wound 2+"),
    Scenario(
        "fnp_mixed_groups",
        [(POWER_FIST, 3), (MULTI_MELTA, 2)],
        FNP_BODYGUARD,
        "FNP 5+ bodyguard, FNP 6+ CHARACTER; two pools",
    ),
    # ---------------------------------------------------------------- random attacks
    Scenario("geq_flamers_d6_attacks", [(FLAMER, 3)], GEQ, "A D6 per weapon; hit 2+"),
    Scenario("meq_battle_cannon_2d6", [(BATTLE_CANNON, 2)], MEQ, "A 2D6; D D3; wound 2+"),
    Scenario("geq_frag_d3p3_attacks", [(FRAG, 3)], GEQ, "A D3+3"),
    # ---------------------------------------------------------------- mixed units
    Scenario(
        "command_squad_heavy_bolters",
        [(HEAVY_BOLTER, 5)],
        COMMAND_SQUAD,
        "bodyguard Sv3+ W2, then Captain Sv2+ InSv4+ W5",
    ),
    Scenario(
        "retinue_bolt_rifles",
        [(BOLT_RIFLE, 12)],
        RETINUE,
        "two bodyguard groups (Sv4+ W1, Sv2+ W3) + CHARACTER; wound 5+",
    ),
    Scenario(
        "retinue_three_pools",
        [(PLASMA, 3), (BOLT_RIFLE, 8), (LASGUN, 10)],
        RETINUE,
        "three pools in order against a mixed unit",
    ),
    Scenario(
        "sergeant_commissar_frag",
        [(FRAG, 2), (SNIPER, 2)],
        SQUAD_WITH_SERGEANT,
        "W1 Sv5+ troopers, W2 Sv4+ sergeant, CHARACTER InSv5+; two pools",
    ),
    Scenario("lone_character_bolts", [(BOLT_RIFLE, 8)], LONE_CHARACTER, "a lone CHARACTER"),
    # ---------------------------------------------------------------- several pools
    Scenario(
        "meq_two_pools",
        [(HEAVY_BOLTER, 2), (BOLT_RIFLE, 5)],
        MEQ,
        "a D2 pool, then a D1 pool finishing wounded models",
    ),
    Scenario(
        "meq_named_pooling",
        [(BOLT_RIFLE, 4), SARGE_BOLT_RIFLE],
        MEQ,
        "different names, identical profile: one pool of 11 dice",
    ),
    # ---------------------------------------------------------------- leftover attacks
    Scenario(
        "few_geq_lascannons",
        [(LASCANNON, 6)],
        FEW_GEQ,
        "6 D6+1 attacks vs 3 W1 models: leftover attacks are lost",
    ),
    Scenario("two_meq_multi_melta", [(MULTI_MELTA, 4)], TWO_MEQ, "8 D6 attacks vs 2 W2 models"),
    # ================================================================ abilities (docs/rules.md §3)
    # ---------------------------------------------------------------- Sustained / Lethal
    Scenario("sustained_1_geq", [(SH1_BOLT, 10)], GEQ, "[SUSTAINED HITS 1]: a 6 scores 2 hits"),
    Scenario("sustained_2_meq", [(SH2_HEAVY_BOLTER, 4)], MEQ, "[SUSTAINED HITS 2]; D2 on W2"),
    Scenario(
        "sustained_d3_meq",
        [(SHD3_STORM_BOLTER, 5)],
        MEQ,
        "[SUSTAINED HITS D3]: the extra hits are random; wound 4+",
    ),
    Scenario(
        "sustained_keyword_vehicle",
        [(KEYWORD_SUSTAINED, 4)],
        LIGHT_TANKS,
        "[SUSTAINED HITS 1] and [SUSTAINED HITS 2: VEHICLE] vs a VEHICLE: the best (2) applies",
    ),
    Scenario(
        "sustained_keyword_infantry",
        [(KEYWORD_SUSTAINED, 4)],
        GEQ,
        "the same weapon vs INFANTRY: only [SUSTAINED HITS 1] applies",
    ),
    Scenario(
        "lethal_hits_vehicle",
        [(LETHAL_AUTOCANNON, 5)],
        LIGHT_TANKS,
        "[LETHAL HITS]: a 6 to hit skips the 5+ wound roll",
    ),
    Scenario(
        "sustained_lethal_meq",
        [(GAUSS_FLAYER, 5)],
        MEQ,
        "[SUSTAINED HITS 1] + [LETHAL HITS]: a 6 auto-wounds and scores an extra hit",
    ),
    # ---------------------------------------------------------------- Devastating / Anti
    Scenario(
        "devastating_anti_infantry_meq",
        [(ANTI_INFANTRY_DW, 5)],
        MEQ,
        "[ANTI-INFANTRY 4+] + [DEVASTATING WOUNDS] on S4 vs T4: every wound is devastating",
    ),
    Scenario(
        "devastating_d3_vs_w2",
        [(DW_SNIPER, 6)],
        MEQ,
        "[DEVASTATING WOUNDS] D3 vs W2: a 3 damages one model only",
    ),
    Scenario(
        "devastating_vs_fnp",
        [(DW_BLIGHT, 4)],
        PLAGUE_MARINES,
        "[DEVASTATING WOUNDS] D3 vs FNP 5+ W2: FNP is rolled for each mortal wound",
    ),
    Scenario(
        "anti_vehicle_applies",
        [(HAYWIRE, 6)],
        LIGHT_TANKS,
        "[ANTI-VEHICLE 2+] vs a VEHICLE: S5 vs T10 wounds on 2+ (critical)",
    ),
    Scenario(
        "anti_vehicle_does_not_apply",
        [(HAYWIRE, 6)],
        MONSTERS,
        "[ANTI-VEHICLE 2+] vs a MONSTER: not applied, S5 vs T9 wounds on 5+",
    ),
    # ---------------------------------------------------------------- re-rolls
    Scenario(
        "twin_linked_failures",
        [(TWIN_HEAVY_BOLTER, 3)],
        MEQ,
        "[TWIN-LINKED]: failed wound rolls are re-rolled",
    ),
    Scenario(
        "twin_linked_non_critical_devastating",
        [(TWIN_DW_LASCANNON, 3)],
        TEQ,
        "[TWIN-LINKED] re-rolling every non-critical wound, fishing for [DEVASTATING WOUNDS]",
        context=mh.Context(reroll_policy="non_critical"),
    ),
    Scenario(
        "crit_5_non_critical_rerolls",
        [(SH1_BOLT, 5)],
        GEQ,
        "critical hits on 5+, every non-critical hit re-rolled, [SUSTAINED HITS 1]",
        modifiers=mh.Modifiers(critical_hit=5, reroll_hits="non_critical"),
    ),
    Scenario(
        "lance_charged_melee_rerolls",
        [(LANCE, 3)],
        TEQ,
        "[LANCE] charged: +1 to wound (3+ -> 2+); re-roll hit and wound 1s",
        context=mh.Context(melee=True, charged=True),
        modifiers=mh.Modifiers(reroll_hits="ones", reroll_wounds="ones"),
    ),
    # ---------------------------------------------------------------- attack count
    Scenario(
        "torrent_flamers_in_cover",
        [(TORRENT_FLAMER, 3)],
        GEQ,
        "[TORRENT]: every attack hits, never critically (no sustained hits); cover is moot",
        context=mh.Context(target_in_cover=True),
    ),
    Scenario("blast_vs_10", [(BLAST_FRAG, 2)], GEQ, "[BLAST] vs 10 models: +2 attacks each"),
    Scenario("blast_vs_20", [(BLAST_FRAG, 2)], CONSCRIPTS, "[BLAST] vs 20 models: +4 attacks each"),
    Scenario(
        "rapid_fire_half_range",
        [(RAPID_FIRE_BOLTER, 5)],
        GEQ,
        "[RAPID FIRE D3] within half range: +D3 attacks per weapon",
        context=mh.Context(half_range=True),
    ),
    Scenario(
        "rapid_fire_long_range",
        [(RAPID_FIRE_BOLTER, 5)],
        GEQ,
        "[RAPID FIRE D3] beyond half range: no bonus",
    ),
    Scenario(
        "cleave_melee_geq",
        [(CLEAVE_AXE, 2)],
        GEQ,
        "[CLEAVE 1] in melee vs 10 models: +2 attacks each",
        context=mh.Context(melee=True),
    ),
    # ---------------------------------------------------------------- range, movement, cover
    Scenario(
        "melta_half_range_vehicle",
        [(MELTAGUN, 3)],
        VEHICLE,
        "[MELTA 2] within half range: D6+2 damage on W12",
        context=mh.Context(half_range=True),
    ),
    Scenario(
        "melta_minus_1_damage",
        [(MELTAGUN, 3)],
        VEHICLE,
        "[MELTA 2] is part of the add step: D6 - 1 + 2 = D6 + 1 (D >= 1 only at the end)",
        context=mh.Context(half_range=True),
        modifiers=mh.Modifiers(damage_add=-1),
    ),
    Scenario(
        "heavy_stationary_in_cover",
        [(HEAVY_LASCANNON, 4)],
        VEHICLE,
        "[HEAVY] stationary (+1 to hit) vs cover (BS 4+ -> 5+): hits on a natural 4+",
        context=mh.Context(remained_stationary=True, target_in_cover=True),
    ),
    Scenario(
        "ignores_cover_vs_cover",
        [(IGNORES_COVER_RIFLE, 4)],
        MEQ,
        "[IGNORES COVER] vs a target in cover: BS stays 4+",
        context=mh.Context(target_in_cover=True),
    ),
    Scenario(
        "ignores_cover_vs_stealth",
        [(IGNORES_COVER_RIFLE, 4)],
        MEQ_STEALTH,
        "[IGNORES COVER] vs Stealth: BS stays 4+",
    ),
    Scenario(
        "stealth_without_ignores_cover",
        [(BURST_CANNON, 4)],
        MEQ_STEALTH,
        "Stealth gives cover: BS 4+ -> 5+",
    ),
    Scenario(
        "indirect_fire_unspotted",
        [(MORTAR, 3)],
        GEQ,
        "[INDIRECT FIRE] + [BLAST]: cover (BS 5+) and natural 1-5 fail: only 6s hit",
    ),
    Scenario(
        "indirect_fire_spotted",
        [(MORTAR, 3)],
        GEQ,
        "[INDIRECT FIRE] stationary and spotted: 1-3 fail; BS 5+ from cover: 5s and 6s hit",
        context=mh.Context(remained_stationary=True, spotted=True),
        modifiers=mh.Modifiers(reroll_hits="failures"),
    ),
    # ---------------------------------------------------------------- Precision
    Scenario(
        "precision_vs_command_squad",
        [(PRECISION_SNIPER, 5)],
        COMMAND_SQUAD,
        "[PRECISION]: the Captain is the current model while he lives",
    ),
    Scenario(
        "precision_then_normal_pool",
        [(PRECISION_SNIPER, 3), (BOLT_RIFLE, 10)],
        COMMAND_SQUAD,
        "a [PRECISION] pool wounds the Captain, then bolt rifles go to the bodyguard first",
    ),
    Scenario(
        "precision_devastating_wounded_lord",
        [(PRECISION_DW, 3)],
        WOUNDED_COMMAND,
        "[PRECISION] + [DEVASTATING WOUNDS] vs a wounded Lord behind a wounded bodyguard",
    ),
    # ---------------------------------------------------------------- Hazardous
    Scenario(
        "hazardous_monster_attacker",
        [(HAZARDOUS_PLASMA, 3)],
        MEQ,
        "[HAZARDOUS] x3 weapons: each roll of 1-2 deals 3 mortal wounds to a MONSTER",
        context=mh.Context(attacker_monster_or_vehicle=True),
    ),
    # ---------------------------------------------------------------- modifiers
    Scenario(
        "hit_minus_1_in_cover",
        [(BOLT_RIFLE, 10)],
        MEQ,
        "cover (BS 3+ -> 4+) and -1 to hit: natural 5+ hits",
        context=mh.Context(target_in_cover=True),
        modifiers=mh.Modifiers(hit=-1),
    ),
    Scenario(
        "modifier_caps_heavy_wound_plus_1",
        [(HEAVY_BOLTER_HEAVY, 4)],
        OGRYNS,
        "+1 to hit and [HEAVY] capped at +1; +1 to wound (5+ -> 4+)",
        context=RANGED_STATIONARY,
        modifiers=mh.Modifiers(hit=1, wound=1),
    ),
    Scenario(
        "strength_ap_skill_changes",
        [(BOLT_RIFLE, 8)],
        MEQ,
        "BS 3+ -> 2+, S4 -> S6 (wound 3+), AP -1 -> -2 (a 3+ save needs a 5)",
        modifiers=mh.Modifiers(skill=-1, strength=2, ap=-1),
    ),
    Scenario(
        "halve_damage_vehicle",
        [(MULTI_MELTA, 5)],
        HALVING_VEHICLE,
        "halved damage: D6 -> 1,1,2,2,3,3 on W6",
    ),
    Scenario(
        "damage_reduction_gravis",
        [(AUTOCANNON_D3, 4)],
        GRAVIS,
        "-1 damage: D3 -> 1,1,2 on W3",
    ),
    Scenario(
        "damage_set_and_add",
        [(HEAVY_BOLTER, 4)],
        TEQ,
        "damage set to D3, then +1: 2-4 on W3",
        modifiers=mh.Modifiers(damage_set="D3", damage_add=1),
    ),
    Scenario(
        "damage_multiply_halve_reduce",
        [(AUTOCANNON_D3, 4)],
        ARMOURED_OGRYNS,
        "D3 x2 -> 2,4,6, halved -> 1,2,3, -1 -> 1,1,2 on W3",
        modifiers=mh.Modifiers(damage_multiply=2),
    ),
    # ---------------------------------------------------------------- mortal wounds
    Scenario(
        "mortal_wounds_around_a_pool_fnp",
        [mh.MortalWounds("D3"), (BOLT_RIFLE, 5), mh.MortalWounds(2, name="Psychic")],
        PLAGUE_MARINES,
        "D3 mortal wounds, a pool, then 2 mortal wounds; FNP 5+ on each; spill-over",
    ),
    Scenario(
        "fnp_against_mortal_wounds_only",
        [mh.MortalWounds("D3"), (ANTI_INFANTRY_DW, 5)],
        WARDENS,
        "FNP 6+ and 4+ against mortal wounds: mortal and devastating wounds roll 4+",
    ),
    Scenario(
        "fnp_mortal_not_against_attacks",
        [(BOLT_RIFLE, 5)],
        WARDENS,
        "FNP 6+ and 4+ against mortal wounds: an attack's damage rolls 6+",
    ),
    Scenario(
        "fnp_mortal_worse_than_fnp",
        [(DW_BLIGHT, 3), mh.MortalWounds(2)],
        mh.Unit("Ironclad", [mh.ModelGroup(3, toughness=5, save=4, wounds=2, fnp=4, fnp_mortal=6)]),
        "an FNP against mortal wounds worse than the unit's FNP changes nothing",
    ),
    Scenario(
        "lethal_roll_devastating",
        [(LETHAL_DW_GAUSS, 4)],
        MEQ,
        "[LETHAL HITS] rolled (lethal_hits='roll') with [DEVASTATING WOUNDS]",
        context=mh.Context(lethal_hits="roll"),
    ),
    Scenario(
        "lethal_auto_devastating",
        [(LETHAL_DW_GAUSS, 4)],
        MEQ,
        "[LETHAL HITS] automatic: a 6 to hit wounds but is not a Critical Wound",
    ),
]

# --------------------------------------------------------------------------- classic
C_LASGUN = mh.Weapon("Lasgun", attacks=1, bs=3, strength=3)
C_BOLTER = mh.Weapon("Bolter", attacks=2, bs=4, strength=4)
C_VETERAN = mh.Weapon("Veteran's pistol", attacks=2, bs=7, strength=4)
C_TWIN = mh.Weapon("Twin heavy stubber", attacks=3, bs=4, strength=4, abilities="[LINKED]")
C_HERO = mh.Weapon("Hero's linked rifle", attacks=2, bs=8, strength=5, abilities="[LINKED]")
C_HEAVY = mh.Weapon("Heavy gun", attacks="D6", bs=5, strength=6)
C_STORM = mh.Weapon("Storm gun", attacks="2D6", bs=2, strength=8)
C_PEASHOOTER = mh.Weapon("Peashooter", attacks=4, bs=10, strength=2)

C_TROOPS = mh.Unit.of("Troops", 10, 3, 5, 1, keywords="INFANTRY", leadership=7)
C_ELITES = mh.Unit.of("Elites", 5, 4, 3, 1, keywords="INFANTRY", leadership=8)
C_BRUTES = mh.Unit.of("Brutes", 5, 4, 4, 2, keywords="INFANTRY", leadership=8)
C_MIXED = mh.Unit(
    "Mob with nobs",
    [mh.ModelGroup(5, 4, 4, 1, name="Boys"), mh.ModelGroup(2, 4, 4, 3, name="Nobs")],
    keywords="INFANTRY",
    leadership=9,
)
C_LED = mh.Unit(
    "Squad with a hero",
    [
        mh.ModelGroup(4, 4, 3, 1, name="Squad"),
        mh.ModelGroup(1, 4, 3, 3, character=True, name="Hero"),
    ],
    keywords="INFANTRY",
    leadership=9,
)
C_WOUNDED = mh.Unit(
    "Hurt brutes", [mh.ModelGroup(3, 4, 4, 3, wounds_lost=2)], keywords="INFANTRY", leadership=6
)
C_TOUGH = mh.Unit.of("Tough ones", 4, 6, 2, 2, keywords="INFANTRY", leadership=10)

_ALL += [
    Scenario(
        "classic_lasguns", [(C_LASGUN, 20)], C_TROOPS, "classic: BS3 hits on 4+", rules="classic"
    ),
    Scenario(
        "classic_bs7_reroll",
        [(C_VETERAN, 3)],
        C_ELITES,
        "classic: BS7 re-rolls a 1, hitting on 5+",
        rules="classic",
    ),
    Scenario(
        "classic_linked",
        [(C_TWIN, 2)],
        C_BRUTES,
        "classic: [LINKED] re-rolls misses",
        rules="classic",
    ),
    Scenario(
        "classic_linked_bs8",
        [(C_HERO, 2)],
        C_ELITES,
        "classic: [LINKED] takes precedence at BS8: the re-roll hits on 2+",
        rules="classic",
    ),
    Scenario(
        "classic_strict_save",
        [(C_BOLTER, 5)],
        C_BRUTES,
        "classic: the literal save, higher than Sv",
        rules="classic",
        context=mh.Context(strict_save=True),
    ),
    Scenario(
        "classic_mixed_wounds",
        [(C_HEAVY, 3)],
        C_MIXED,
        "classic: one wound per unsaved wound across groups of W1 and W3",
        rules="classic",
    ),
    Scenario(
        "classic_character",
        [(C_BOLTER, 4)],
        C_LED,
        "classic: bodyguard then a CHARACTER",
        rules="classic",
    ),
    Scenario(
        "classic_random_attacks", [C_STORM], C_TROOPS, "classic: 2D6 shots at 2+", rules="classic"
    ),
    Scenario(
        "classic_wounded_first",
        [(C_BOLTER, 2), (C_LASGUN, 4)],
        C_WOUNDED,
        "classic: a wounded model takes the next wound; two pools",
        rules="classic",
    ),
    Scenario(
        "classic_weak_shots",
        [(C_PEASHOOTER, 3)],
        C_TOUGH,
        "classic: S2 vs T6 wounds only on 6s; BS10 re-roll on 2+",
        rules="classic",
    ),
]

#: Scenarios by name, in a stable order.
SCENARIOS: dict[str, Scenario] = {s.name: s for s in _ALL}
assert len(SCENARIOS) == len(_ALL), "scenario names must be unique"


def scenario_ids(*, mixed: bool | None = None) -> list[str]:
    """The scenario names (test ids); ``mixed=True/False`` keeps mixed or homogeneous units."""
    return [n for n, s in SCENARIOS.items() if mixed is None or s.mixed == mixed]


def scenarios(*, mixed: bool | None = None) -> list[Scenario]:
    """The scenarios themselves, in the order of :func:`scenario_ids`."""
    return [SCENARIOS[n] for n in scenario_ids(mixed=mixed)]
