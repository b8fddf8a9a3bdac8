"""A registry of named attack scenarios shared by the cross-check and invariant tests.

Each :class:`Scenario` is a list of weapons (in the attacker's declared order) and a
target unit. Together they cover (11th-edition core rules, RULES.md sections 1-2):

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
    """One attack: ``mh.attack(weapons, target)``."""

    name: str
    weapons: Any
    target: mh.Unit
    note: str = ""

    @property
    def mixed(self) -> bool:
        """True when the target has more than one allocation group."""
        return len(self.target.groups) > 1

    def attack(self) -> mh.AttackResult:
        """The exact result."""
        return mh.attack(self.weapons, self.target)

    def simulate(self, trials: int, seed: int) -> mh.SimulationResult:
        """A Monte Carlo estimate."""
        return mh.simulate(self.weapons, self.target, trials=trials, rng=seed)


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
