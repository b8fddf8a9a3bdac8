"""Rosters: the committed army lists in their three forms, built units, leaders, bad files.

The fixtures under ``tests/data/rosters`` were built by ``build_fixtures.py`` from the real
BSData 11th-edition catalogues (the test at the end rebuilds them when the shared data is
beside the repository). Every figure asserted below was read off those catalogue entries:
the Necron Warriors entry costs 80 points for 10 models of T4 Sv4+ W1 with a gauss flayer
(A1 BS4+ S4 AP0 D1, Lethal Hits, Rapid Fire 1), and so on.
"""

from __future__ import annotations

import importlib.util
import io
import json
import sys
import zipfile
from fractions import Fraction
from math import comb
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import mathhammer as mh
from mathhammer.errors import InputFileError, OptionError
from mathhammer.io.defences import Defences, read_defences
from mathhammer.io.roster import MAX_RATIO, Roster, RosterUnit, read_roster
from mathhammer.io.roster import build as build_module
from mathhammer.io.roster import load as load_module
from mathhammer.model.abilities import Torrent
from mathhammer.units.datasheet import AbilityText, Datasheet, ModelProfile

DATA = Path(__file__).parent / "data" / "rosters"
NECRONS = [DATA / "necrons.ros", DATA / "necrons.rosz", DATA / "necrons.json"]
Node = dict[str, Any]


# --- the committed Necron list, in its three forms -------------------------------------


@pytest.fixture(scope="module")
def necrons() -> Roster:
    return read_roster(DATA / "necrons.rosz")


@pytest.fixture(scope="module")
def orks() -> Roster:
    return read_roster(DATA / "orks.rosz")


def test_the_three_forms_read_to_the_same_army() -> None:
    ros, rosz, data = (read_roster(path) for path in NECRONS)
    assert ros.units == rosz.units == data.units
    assert (ros.name, ros.points, ros.factions) == (data.name, data.points, data.factions)
    assert (ros.name, ros.points) == ("Awakened Dynasty patrol", 585)
    assert ros.factions == ("Xenos - Necrons",)
    assert [u.source for u in (ros, rosz, data)] == [str(p) for p in NECRONS]


def test_units_entries_and_points(necrons: Roster) -> None:
    got = [(u.name, u.entry, u.points, u.size) for u in necrons.units]
    assert got == [
        ("Overlord", "Overlord", 90, 1),
        ("Necron Warriors", "Necron Warriors", 80, 10),
        ("Royal Warden", "Royal Warden", 50, 1),
        ("Immortals", "Immortals", 70, 5),
        ("Canoptek Wraiths", "Canoptek Wraiths", 95, 3),
        ("Doomsday Ark", "Doomsday Ark", 200, 1),
    ]
    assert sum(u.points or 0 for u in necrons.units) == necrons.points
    assert necrons.complete and "INCOMPLETE" not in repr(necrons)
    assert repr(necrons) == "<Roster 'Awakened Dynasty patrol' (11e): 6 units, 585 pts>"


def test_models_and_the_weapons_each_took(necrons: Roster) -> None:
    models = {u.name: [(m.name, m.count, m.weapons) for m in u.models] for u in necrons.units}
    assert models["Necron Warriors"] == [
        ("Warrior w/ gauss flayer", 10, ("Gauss flayer", "Close combat weapon"))
    ]
    assert models["Overlord"] == [("Overlord", 1, ("Overlord's blade", "Tachyon arrow"))]
    assert models["Canoptek Wraiths"] == [
        ("Wraith w/ claws and beamer", 1, ("Vicious claws", "Transdimensional beamer")),
        ("Wraith w/ claws and particle caster", 1, ("Vicious claws", "Particle caster")),
        ("Wraith w/ coils", 1, ("Whip coils",)),
    ]
    # two gauss flayer arrays on one model: the selection's number is 2
    assert models["Doomsday Ark"] == [
        (
            "Doomsday Ark",
            1,
            ("Doomsday cannon", "Gauss flayer array", "Gauss flayer array", "Armoured bulk"),
        )
    ]


def test_profiles_as_the_catalogue_prints_them(necrons: Roster) -> None:
    warrior = necrons.unit("Necron Warriors").datasheet.models[0]
    assert (warrior.toughness, warrior.save, warrior.wounds, warrior.invuln) == (4, 4, 1, None)
    assert (warrior.leadership, warrior.oc, warrior.movement) == (7, 2, '5"')
    assert (warrior.min_count, warrior.max_count, warrior.default_count) == (10, 10, 10)
    lord = necrons.unit("Overlord").datasheet.models[0]
    assert (lord.toughness, lord.save, lord.wounds, lord.invuln, lord.character) == (
        5,
        2,
        6,
        4,
        True,
    )
    flayer = necrons.unit("Necron Warriors").datasheet.gear("Gauss flayer").profiles[0]
    assert flayer == mh.Weapon("Gauss flayer", 1, 4, 4, 0, 1, "[LETHAL HITS], [RAPID FIRE 1]")
    arrow = necrons.unit("Overlord").datasheet.gear("Tachyon arrow").profiles[0]
    assert arrow == mh.Weapon("Tachyon arrow", 1, 2, 16, -5, "D6+2", "[ONE SHOT]")
    blade = necrons.unit("Overlord").datasheet.gear("Overlord's blade").profiles[0]
    assert blade.melee and (blade.strength, blade.ap) == (8, -3)
    cannon = necrons.unit("Doomsday Ark").datasheet.gear("Doomsday cannon").profiles[0]
    assert cannon == mh.Weapon("Doomsday cannon", "D6+1", 3, 18, -4, 4, "[BLAST], [HEAVY]")


def test_keywords_abilities_and_the_report(necrons: Roster) -> None:
    warriors = necrons.unit("Necron Warriors")
    assert warriors.keywords == ("NECRONS", "INFANTRY", "BATTLELINE", "NECRON WARRIORS")
    assert "CHARACTER" in necrons.unit("Overlord").keywords
    resilience = AbilityText(
        "Implacable Resilience",
        "Each time an attack is allocated to this model, subtract 1 from that attack\u2019s "
        "Damage characteristic.",
    )
    assert resilience in necrons.unit("Overlord").abilities
    # a weapon's rules explain its keywords and are not the unit's abilities
    assert "Lethal Hits" not in [a.name for a in warriors.abilities]
    report = necrons.report
    assert report is not None
    assert (report.datasheets, report.models, report.weapons) == (6, 21, 15)
    assert report.unknown_abilities == {} and report.skipped == []
    for unit in necrons.units:  # whatever read_defences understands, the rest is listed
        left = read_defences(unit.abilities).not_understood
        assert unit.datasheet.not_understood == left
        listed = [(name, text) for sheet, name, text in report.not_understood if sheet == unit.name]
        assert listed == [(a.name, a.text) for a in left]


def test_loadouts_ranged_and_melee_per_unit(necrons: Roster) -> None:
    loadouts = {lo.name: lo for lo in necrons.loadouts()}
    assert len(loadouts) == 12
    assert [(w.name, n) for w, n in loadouts["Necron Warriors (ranged)"].weapon_counts] == [
        ("Gauss flayer", 10)
    ]
    melee = [(w.name, n) for w, n in loadouts["Canoptek Wraiths (melee)"].weapon_counts]
    assert melee == [("Vicious claws", 1), ("Vicious claws", 1), ("Whip coils", 1)]
    ark = loadouts["Doomsday Ark (ranged)"]
    assert sorted((w.name, n) for w, n in ark.weapon_counts) == [
        ("Doomsday cannon", 1), ("Gauss flayer array", 1), ("Gauss flayer array", 1)]  # fmt: skip
    assert (ark.points, ark.source) == (200, f"{DATA / 'necrons.rosz'}: Doomsday Ark")
    attackers = necrons.attackers()
    assert [a.name for a in attackers] == [u.name for u in necrons.units]
    warriors = attackers[[a.name for a in attackers].index("Necron Warriors")]
    assert [(m.count, [w.name for w in m.weapons]) for m in warriors.models][0][0] == 10


def test_a_roster_loadout_attacks_exactly(necrons: Roster) -> None:
    # 5 Immortals, 10 gauss blaster shots (BS3+ S5 AP-1, Lethal Hits) at 5 T5 Sv5+ W1 models,
    # with their Implacable Eradication (re-roll a wound roll of 1; the re-roll of every failed
    # wound roll needs the target on an objective, not assumed here): a 6 wounds outright
    # (1/6), a 3-5 hits (1/2) and wounds on 4+ or on a re-rolled 1 (1/2 + 1/6 * 1/2 = 7/12);
    # the 5+ save becomes 6+ (fails 5/6): each shot kills with (1/6 + 7/24) * 5/6 = 55/144,
    # and at most 5 die.
    (immortals,) = [lo for lo in necrons.loadouts() if lo.name == "Immortals (ranged)"]
    p = Fraction(55, 144)
    expected = sum(min(k, 5) * comb(10, k) * p**k * (1 - p) ** (10 - k) for k in range(11))
    frame = mh.compare([immortals], [mh.Unit.of("Boyz", 5, 5, 5, 1)])
    assert abs(frame["mean_killed"].iloc[0] - float(expected)) < 1e-12


def test_leaders_join_their_bodyguard_as_one_target(necrons: Roster) -> None:
    led = necrons.with_leaders({"Necron Warriors": "Overlord", "Immortals": ["Royal Warden"]})
    assert led.unit("Necron Warriors").leaders == ("Overlord",)
    targets = {t.name: t for t in led.targets()}
    assert list(targets) == [
        "Necron Warriors led by Overlord",
        "Immortals led by Royal Warden",
        "Canoptek Wraiths",
        "Doomsday Ark",
    ]
    warriors = targets["Necron Warriors led by Overlord"]
    assert (warriors.points, warriors.group_points) == (170, (80, 90))
    body, lord = warriors.unit.groups
    assert (body.count, body.wounds, body.character) == (10, 1, False)
    assert (lord.count, lord.wounds, lord.save, lord.character) == (1, 6, 2, True)
    # every keyword of every part (docs/rules.md D35): the Overlord's CHARACTER too
    guard, overlord = led.unit("Necron Warriors").keywords, led.unit("Overlord").keywords
    assert warriors.unit.keywords == tuple(dict.fromkeys([*guard, *overlord]))
    assert "CHARACTER" in warriors.unit.keywords and "CHARACTER" not in guard
    # the Wraiths' three model types share W, Sv and InSv: one allocation group
    wraiths = targets["Canoptek Wraiths"]
    assert [g.count for g in wraiths.unit.groups] == [3] and wraiths.points == 95
    again = read_roster(DATA / "necrons.json", leaders={"Necron Warriors": "Overlord"})
    assert again.targets()[0] == warriors


@pytest.mark.parametrize(
    ("leaders", "message"),
    [
        ({"Necron Warriors": "Lord Nobody"}, "leaders must be unit names"),
        ({"Necron Warriors": "Overlord", "Immortals": "Overlord"}, "lead one other unit"),
        ({"Necron Warriors": "Necron Warriors"}, "lead one other unit"),
        ({"Necron Warriors": "Overlord", "Overlord": "Royal Warden"}, "lead one other unit"),
    ],
)
def test_leaders_that_cannot_be(necrons: Roster, leaders: Node, message: str) -> None:
    with pytest.raises(OptionError, match=message):
        necrons.with_leaders(leaders)


def test_lookups_and_a_roster_of_duplicate_names(necrons: Roster) -> None:
    with pytest.raises(OptionError, match="unit must be one of"):
        necrons.unit("Monolith")
    overlord = necrons.unit("Overlord")
    with pytest.raises(OptionError, match="distinct unit names"):
        Roster("Twins", None, (overlord, overlord))


def test_leaders_without_points_give_a_target_without_points() -> None:
    lord = Datasheet("Lord", (ModelProfile("Lord", 5, 2, 6, character=True),))
    guard = Datasheet("Guard", (ModelProfile("Guard", 4, 4, 1, min_count=5, max_count=5),))
    army = Roster("Demo", None, (RosterUnit.of(lord), RosterUnit.of(guard)))
    (target,) = army.with_leaders({"Guard": "Lord"}).targets()
    assert target.points is None and [g.count for g in target.unit.groups] == [5, 1]
    assert army.attackers() == [] and army.loadouts() == []


# --- the committed Ork list: real quirks of the catalogues --------------------------------


def test_a_random_strength_weapon_is_read(orks: Roster) -> None:
    # docs/rules.md D42: the Zzap gun's D6+6 is rolled for each attack, not skipped
    assert orks.report is not None
    assert orks.report.skipped == []
    wagon = orks.unit("Battlewagon")
    assert wagon.models[0].weapons == ("Zzap gun", "Deff rolla", "Big shoota", "Big shoota")
    zzap = wagon.datasheet.gear("Zzap gun").profiles[0]
    assert str(zzap.strength) == "D6+6"
    assert orks.complete and orks.points == 415 == sum(u.points or 0 for u in orks.units)


def test_torrent_weapons_without_a_skill_and_unknown_abilities(orks: Roster) -> None:
    burna = orks.unit("Burna Boyz").datasheet.gear("Burna").profiles[0]
    assert burna == mh.Weapon("Burna", "D6", 2, 4, 0, 1, "[IGNORES COVER], [TORRENT]")
    assert Torrent() in burna.abilities  # so its skill, set to 2+, is never rolled
    assert orks.report is not None
    assert orks.report.unknown_abilities == {
        "BUBBLECHUKKA": [
            "Mek Gunz / 1-2 Bubblechukka - big bubble",
            "Mek Gunz / 3-4 Bubblechukka - wobbly bubble",
            "Mek Gunz / 5-6 Bubblechukka - dense bubble",
        ]
    }
    with pytest.raises(InputFileError, match="Mek Gunz / .*'BUBBLECHUKKA' \\(strict\\)"):
        read_roster(DATA / "orks.rosz", strict=True)


def test_models_under_an_upgrade_and_a_unit_wide_profile(orks: Roster) -> None:
    burnas = orks.unit("Burna Boyz")
    assert [(m.name, m.count) for m in burnas.models] == [("Burna Boy", 4), ("Spanner", 1)]
    assert {m.wounds for m in burnas.datasheet.models} == {1}  # the unit's own profile
    boyz = orks.with_leaders({"Boyz": "Warboss"}).targets()[0]
    assert boyz.name == "Boyz led by Warboss"
    assert [(g.count, g.wounds, g.character) for g in boyz.unit.groups] == [
        (9, 1, False), (1, 2, False), (1, 6, True)]  # fmt: skip
    assert boyz.group_points == (68, 7, 75)  # 67.5 and 7.5: the tie goes to the first group


# --- built units, from small rosters written here ---------------------------------------


def stats(**values: str) -> list[Node]:
    return [{"name": name, "$text": text} for name, text in values.items()]


def body(name: str, **values: str) -> Node:
    base = {"T": "4", "Sv": "3+", "W": "1", "LD": "6+", "OC": "1", "InSv": "", "M": '6"'}
    return {"name": name, "typeName": "Unit", "characteristics": stats(**{**base, **values})}


def gun(name: str, melee: bool = False, **values: str) -> Node:
    skill = "WS" if melee else "BS"
    base = {"Range": "Melee" if melee else '24"', "A": "2", skill: "3+", "S": "4", "AP": "0"}
    base |= {"D": "1", "Keywords": "-"}
    kind = "Melee Weapons" if melee else "Ranged Weapons"
    return {"name": name, "typeName": kind, "characteristics": stats(**{**base, **values})}


def sel(name: str, kind: str = "upgrade", number: int = 1, **parts: Any) -> Node:
    return {"name": name, "type": kind, "number": number, **parts}


def write(folder: Path, *units: Node, name: str = "List.json", **roster: Any) -> Path:
    tree = {"roster": {"name": "Test", **roster, "forces": [{"selections": list(units)}]}}
    path = folder / name
    path.write_text(json.dumps(tree))
    return path


def squad(*models: Node, pts: Any = 100, **parts: Any) -> Node:
    costs = [{"name": "CP", "value": 1}, {"name": "pts", "value": pts}]  # only pts are points
    return sel("Squad", "unit", costs=costs, selections=list(models), **parts)


def test_uneven_wargear_splits_a_model_type(tmp_path: Path) -> None:
    rifles = sel("Rifle", number=3, profiles=[gun("Rifle")])
    path = write(
        tmp_path, squad(sel("Trooper", "model", 5, profiles=[body("Trooper")], selections=[rifles]))
    )
    (unit,) = read_roster(path).units
    assert [(m.name, m.count, m.weapons) for m in unit.models] == [
        ("Trooper", 3, ("Rifle",)), ("Trooper (no weapons)", 2, ())]  # fmt: skip
    assert unit.datasheet.points == ((5, 100),)


def test_wargear_with_ranged_and_melee_profiles_is_split(tmp_path: Path) -> None:
    staff = sel("Staff", profiles=[gun("Staff"), gun("Staff", melee=True)])
    path = write(tmp_path, sel("Lord", "model", profiles=[body("Lord")], selections=[staff]))
    (unit,) = read_roster(path).units
    assert unit.models[0].weapons == ("Staff (ranged)", "Staff (melee)")
    assert [lo.name for lo in unit.loadouts()] == ["Lord (ranged)", "Lord (melee)"]


def test_same_named_wargear_with_other_stats_gets_its_own_name(tmp_path: Path) -> None:
    weak, strong = gun("Club", melee=True), gun("Club", melee=True, S="6")
    huge = gun("Club", melee=True, S="9")
    clubs = [sel("Club", number=4, profiles=[weak])]
    boy = sel("Boy", "model", 4, profiles=[body("Boy")], selections=clubs)
    nob_clubs = [sel("Club", profiles=[strong]), sel("Club", profiles=[huge])]
    nob = sel("Nob", "model", profiles=[body("Nob", W="2")], selections=nob_clubs)
    (unit,) = read_roster(write(tmp_path, squad(boy, nob))).units
    assert [m.weapons for m in unit.models] == [("Club",), ("Club (Nob)", "Club #2")]
    strengths = [
        unit.datasheet.gear(n).profiles[0].strength for n in ("Club", "Club (Nob)", "Club #2")
    ]
    assert strengths == [4, 6, 9]


def test_an_unknown_ability_is_listed_once_per_unit_and_weapon(tmp_path: Path) -> None:
    odd = [sel("Zapper", profiles=[gun("Zapper", Keywords="Zzap, Heavy")])]
    models = [sel(n, "model", profiles=[body(n)], selections=odd) for n in ("A", "B")]
    army = read_roster(write(tmp_path, squad(*models), squad(*models)))
    assert army.report is not None
    assert army.report.unknown_abilities == {"ZZAP": ["Squad / Zapper", "Squad (2) / Zapper"]}


def test_wargear_taken_by_the_unit(tmp_path: Path) -> None:
    grenade = sel("Grenades", number=5, profiles=[gun("Grenades")])
    one = squad(sel("Trooper", "model", 5), grenade, profiles=[body("Squad")])
    two = squad(sel("A", "model", 2), sel("B", "model", 3), grenade, profiles=[body("Squad")])
    flag = sel("Flag", number=2, profiles=[gun("Flag")])
    odd = squad(sel("A", "model", 2), sel("B", "model", 3), flag, profiles=[body("Squad")])
    army = read_roster(write(tmp_path, one, two, odd))
    assert [[(m.name, m.weapons) for m in u.models] for u in army.units] == [
        [("Trooper", ("Grenades",))],
        [("A", ("Grenades",)), ("B", ("Grenades",))],
        [("A", ()), ("B", ())],
    ]
    assert [u.name for u in army.units] == ["Squad", "Squad (2)", "Squad (3)"]
    assert army.report is not None
    (skip,) = army.report.skipped
    assert (
        skip.entry == "Squad (3) / Flag" and "taken 2 times by the unit of 5 models" in skip.reason
    )


def test_which_unit_profile_a_model_takes(tmp_path: Path) -> None:
    two = [body("Szarekh", W="16"), body("Menhir", W="5")]
    king = squad(sel("Szarekh", "model"), sel("Menhir", "model", 2), profiles=two)
    lost = squad(sel("Guard", "model", 2), profiles=two)
    bare = squad(sel("Ghost", "model"))
    army = read_roster(write(tmp_path, king, lost, bare))
    assert [(m.name, m.wounds) for m in army.units[0].datasheet.models] == [
        ("Szarekh", 16),
        ("Menhir", 5),
    ]
    assert army.report is not None
    reasons = {s.entry: s.reason for s in army.report.skipped}
    assert (
        "2 Unit profiles (['Szarekh', 'Menhir']) and none named 'Guard'"
        in reasons["Squad (2) / Guard"]
    )
    assert "no Unit profile" in reasons["Squad (3) / Ghost"]
    assert not army.complete and [s.entry for s in army.skipped] == ["Squad (2)", "Squad (3)"]
    assert repr(army).endswith("INCOMPLETE: 2 unit(s) not read>")
    with pytest.raises(InputFileError, match="Squad \\(2\\) / Guard: .*strict"):
        read_roster(write(tmp_path, king, lost), strict=True)


def test_unit_selections_that_are_their_own_models(tmp_path: Path) -> None:
    blob = sel(
        "Blob",
        "unit",
        3,
        profiles=[body("Blob")],
        selections=[sel("Claw", number=3, profiles=[gun("Claw", True)])],
    )
    custom = sel("Lord", "model", customName="Lord Vex", profiles=[body("Lord")])
    config = sel(
        "Detachment", selections=[sel("Doctrine", rules=[{"name": "Rule", "description": "x"}])]
    )
    hidden = sel("Regiment", selections=[sel("Trooper", "model", 2, profiles=[body("Trooper")])])
    none = sel("Spare", "model", 0, profiles=[body("Spare")])
    army = read_roster(
        write(tmp_path, blob, custom, config, hidden, sel("Empty", "unit", selections=[none]))
    )
    got = [(u.name, u.entry, [(m.name, m.count, m.weapons) for m in u.models]) for u in army.units]
    assert got == [
        ("Blob", "Blob", [("Blob", 3, ("Claw",))]),
        ("Lord Vex", "Lord", [("Lord", 1, ())]),
        ("Regiment", "Regiment", [("Trooper", 2, ())]),
    ]
    assert [s.entry for s in army.skipped] == ["Empty"] and army.points is None


def test_forces_within_forces_and_their_factions(tmp_path: Path) -> None:
    inner = {"catalogueName": "Orks", "selections": [sel("Grot", "model", profiles=[body("Grot")])]}
    tree = {"roster": {"name": "Allies", "forces": [
        {"catalogueName": "Necrons", "forces": [inner],
         "selections": [sel("Lord", "model", profiles=[body("Lord")])]}]}}  # fmt: skip
    path = tmp_path / "allies.json"
    path.write_text(json.dumps(tree))
    army = read_roster(path)
    assert [u.name for u in army.units] == ["Lord", "Grot"] and army.factions == ("Necrons", "Orks")
    assert army.units[1].datasheet.faction == "Orks"


def test_defensive_abilities_reach_the_model_profiles(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    odd = AbilityText("Odd", "something else")
    found = Defences(invuln=5, fnp=5, fnp_mortal=4, damage_reduction=1, halve_damage=True,
                     stealth=True, not_understood=(odd,))  # fmt: skip
    monkeypatch.setattr(build_module, "read_defences", lambda abilities: found)
    ward = body("Ward", InSv="4+")
    path = write(
        tmp_path,
        sel("Ward", "model", profiles=[ward]),
        sel("Plain", "model", profiles=[body("Plain")]),
    )
    army = read_roster(path)
    ward_model, plain_model = (u.datasheet.models[0] for u in army.units)
    assert ward_model.invuln == 4 and plain_model.invuln == 5  # the better of the two
    assert (plain_model.fnp, plain_model.fnp_mortal, plain_model.damage_reduction) == (5, 4, 1)
    assert plain_model.halve_damage and army.units[1].datasheet.stealth
    assert army.units[0].datasheet.not_understood == (odd,)
    assert (
        army.report is not None and ("Ward", "Odd", "something else") in army.report.not_understood
    )


@pytest.mark.parametrize(
    ("values", "reason"),
    [
        ({"AP": "-"}, "characteristic 'AP' must be an integer; got '-'"),
        ({"A": "*"}, "characteristic 'A' must be a number or dice; got '*'"),
        ({"D": "-"}, "characteristic 'D' must be a number or dice; got '-'"),
        ({"BS": "N/A"}, "characteristic 'BS' 'N/A' is only for [TORRENT]"),
        ({"BS": "*"}, "characteristic 'BS' must be 'N+'; got '*'"),
        ({"BS": "7+"}, "Weapon.skill must be an integer from 2 to 6; got 7"),
        ({"A": "2X"}, "cannot read dice expression '2X'"),
    ],
)
def test_unreadable_weapons_are_listed(tmp_path: Path, values: dict[str, str], reason: str) -> None:
    odd = gun("Odd gun")
    odd["characteristics"] = [
        {**c, "$text": values.get(c["name"], c["$text"])} for c in odd["characteristics"]
    ]
    bad = sel("Odd gun", profiles=[odd])
    path = write(
        tmp_path,
        sel(
            "Lord",
            "model",
            profiles=[body("Lord")],
            selections=[bad, sel("Pistol", profiles=[gun("Pistol")])],
        ),
    )
    army = read_roster(path)
    assert army.units[0].models[0].weapons == ("Pistol",) and army.complete
    assert army.report is not None
    (skip,) = army.report.skipped
    assert (skip.entry, skip.source) == ("Lord / Odd gun", str(path)) and reason in skip.reason
    with pytest.raises(InputFileError, match="Lord / Odd gun: .*strict"):
        read_roster(path, strict=True)


@pytest.mark.parametrize(
    ("values", "reason"),
    [
        ({"T": "*"}, "characteristic 'T' must be an integer; got '*'"),
        ({"Sv": "-"}, "characteristic 'Sv' must be 'N+'; got '-'"),
        ({"W": "0"}, "wounds must be"),
    ],
)
def test_unreadable_models_are_listed(tmp_path: Path, values: dict[str, str], reason: str) -> None:
    odd = sel("Odd", "model", profiles=[body("Odd", **values)])
    path = write(tmp_path, squad(odd, sel("Fine", "model", 2, profiles=[body("Fine")])))
    army = read_roster(path)
    assert [m.name for m in army.units[0].models] == ["Fine"]
    assert army.report is not None and army.report.skipped[0].entry == "Squad / Odd"
    assert reason in army.report.skipped[0].reason


def test_profiles_that_are_not_profiles(tmp_path: Path) -> None:
    flat = {"name": "Flat", "typeName": "Unit", "characteristics": "T4 Sv3+"}
    noisy = body("Noisy")
    noisy["characteristics"] = ["T4", {"$text": "5"}, *noisy["characteristics"]]
    short = gun("Short")
    short["characteristics"] = [c for c in short["characteristics"] if c["name"] != "D"]
    shorts = [sel("Short", profiles=[short])]
    units = [
        sel("Flat", "model", profiles=[flat]),
        sel("Noisy", "model", profiles=[noisy], selections=shorts),
    ]
    army = read_roster(write(tmp_path, *units))
    assert army.report is not None
    assert [(s.entry, s.reason) for s in army.report.skipped] == [
        ("Flat / Flat", "'characteristics' must be a list; got str"),
        ("Flat", "no model of the unit could be read"),
        ("Noisy / Short", "characteristic 'D' is missing"),
    ]
    assert army.units[0].datasheet.models[0].toughness == 4


def test_characteristics_shown_but_not_used(tmp_path: Path) -> None:
    jet = body("Jet", LD="-", OC="-", InSv="2+*")
    army = read_roster(write(tmp_path, sel("Jet", "model", profiles=[jet])))
    model = army.units[0].datasheet.models[0]
    assert (model.leadership, model.oc, model.invuln) == (None, None, None)
    note = AbilityText("InSv", "invulnerable save printed as '2+*'")
    assert note in army.units[0].datasheet.not_understood


# --- bad files: one clear error naming the file -----------------------------------------


def error_for(path: Path) -> InputFileError:
    with pytest.raises(InputFileError) as caught:
        read_roster(path)
    assert caught.value.file == str(path) and str(caught.value).startswith(str(path))
    return caught.value


def zipped(folder: Path, name: str, members: dict[str, bytes]) -> Path:
    path = folder / name
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for member, data in members.items():
            archive.writestr(member, data)
    return path


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("list.json", b'{"roster": {"name": "x",', "malformed JSON at column 25"),
        ("list.json", b"\xff\xfe{}", "not UTF-8 text"),
        ("list.json", b"[1, 2]", "expected an object with a 'roster' entry; got list"),
        ("list.json", b'{"name": "x", "forces": []}', "expected an object with a 'roster' entry"),
        ("list.json", b'{"roster": []}', "'roster' must be an object; got list"),
        ("list.json", b'{"catalogue": {}}', "this is a catalogue, not a roster"),
        ("list.ros", b"<roster><forces></roster>", "malformed XML at column"),
        ("list.ros", b'<gameSystem name="x"/>', "this is a gameSystem, not a roster"),
        ("list.ros", b"<army/>", "expected a roster (a 'roster' element); got 'army'"),
        ("list.rosz", b"not a zip", "not a readable zip file"),
        ("list", b'{"roster": {"forces": 3}}', "'forces' must be a list of entries; got 3"),
    ],
)
def test_malformed_files(tmp_path: Path, name: str, content: bytes, message: str) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    assert message in str(error_for(path))


def test_xml_entities_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "list.ros"
    path.write_text('<!DOCTYPE roster [<!ENTITY lol "lol">]><roster name="&lol;"/>')
    assert "refused: the XML declares EntitiesForbidden" in str(error_for(path))


def test_a_missing_file_or_a_folder(tmp_path: Path) -> None:
    assert "no such file" in str(error_for(tmp_path / "gone.rosz"))
    assert "cannot read" in str(error_for(tmp_path))


@pytest.mark.parametrize(
    ("members", "message"),
    [
        ({"readme.txt": b"hello"}, "must hold exactly one .ros roster; it holds 0"),
        ({"a.ros": b"<roster/>", "b.ros": b"<roster/>"}, "it holds 2: ['a.ros', 'b.ros']"),
    ],
)
def test_a_zip_must_hold_one_roster(
    tmp_path: Path, members: dict[str, bytes], message: str
) -> None:
    assert message in str(error_for(zipped(tmp_path, "list.rosz", members)))


def test_a_zip_bomb_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bomb = zipped(
        tmp_path, "bomb.rosz", {"bomb.ros": b"<roster>" + b" " * 4_000_000 + b"</roster>"}
    )
    info = zipfile.ZipFile(bomb).infolist()[0]
    assert info.file_size > MAX_RATIO * info.compress_size  # packs far more than a roster
    assert "refused as a zip bomb" in str(error_for(bomb))
    # a roster past the size cap is refused however well it packs, zipped or not
    monkeypatch.setattr(load_module, "MAX_BYTES", 20_000)  # the .rosz is 10 kB, its .ros 68 kB
    assert "unpacks to more than 20000 bytes" in str(error_for(DATA / "necrons.rosz"))
    assert "larger than the limit of 20,000 bytes (67,548 bytes)" in str(
        error_for(DATA / "necrons.ros")
    )


def test_a_zip_with_an_encrypted_roster(tmp_path: Path) -> None:
    raw = bytearray(zipped(tmp_path, "plain.rosz", {"list.ros": b"<roster/>"}).read_bytes())
    for signature, offset in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):  # set "encrypted"
        at = raw.index(signature) + offset
        raw[at] |= 1
    path = tmp_path / "locked.rosz"
    path.write_bytes(bytes(raw))
    assert "cannot open the roster in the zip" in str(error_for(path))


@pytest.mark.parametrize(
    ("parts", "message"),
    [
        (
            {"costs": [{"name": "pts", "value": "eighty"}]},
            "Squad: cost 'pts' must be a whole number; got 'eighty'",
        ),
        (
            {"costs": [{"name": "pts", "value": 12.5}]},
            "cost 'pts' must be a whole number; got 12.5",
        ),
        (
            {"costs": [{"name": "pts", "value": True}]},
            "cost 'pts' must be a whole number; got True",
        ),
        ({"number": "ten"}, "Squad: 'number' must be a whole number from 0 to 10000; got 'ten'"),
        ({"number": -2}, "'number' must be a whole number from 0 to 10000; got -2"),
        # counts past any unit, refused before a model is built (they took minutes and GBs)
        ({"number": 10**9}, "'number' must be a whole number from 0 to 10000; got 1000000000"),
        ({"number": 1e308}, "'number' must be a whole number from 0 to 10000; got 1e+308"),
        ({"number": "1e15"}, "'number' must be a whole number from 0 to 10000; got '1e15'"),
        ({"selections": {"selection": []}}, "Squad: 'selections' must be a list of entries"),
    ],
)
def test_numbers_that_are_not(tmp_path: Path, parts: Node, message: str) -> None:
    unit = {**sel("Squad", "unit", profiles=[body("Squad")]), **parts}
    assert message in str(error_for(write(tmp_path, unit)))


def test_a_bad_cost_deep_in_a_unit_and_in_the_total(tmp_path: Path) -> None:
    rifle = sel(
        "Rifle", profiles=[gun("Rifle")], costs=[{"name": "pts", "typeId": "points", "value": "x"}]
    )
    deep = squad(sel("Trooper", "model", profiles=[body("T")], selections=[rifle]))
    assert "Squad > Trooper > Rifle: cost 'pts'" in str(error_for(write(tmp_path, deep)))
    total = write(tmp_path, squad(), name="total.json", costs=[{"name": "pts", "value": "lots"}])
    assert "roster: cost 'pts' must be a whole number; got 'lots'" in str(error_for(total))


def test_xml_with_and_without_the_namespace_reads_alike(tmp_path: Path) -> None:
    plain = (
        (DATA / "necrons.ros")
        .read_text()
        .replace(' xmlns="http://www.battlescribe.net/schema/rosterSchema"', "")
    )
    # elements the roster does not need are passed over
    plain = plain.replace(
        "<forces>", "<customNotes>mine</customNotes><extra><x/></extra><forces>", 1
    )
    path = tmp_path / "plain.xml"  # an unknown suffix: told by the content
    path.write_text(plain)
    assert read_roster(path).units == read_roster(DATA / "necrons.ros").units
    for name in ("list.zip", "misnamed.ros"):  # a zip is read as one whatever its name
        path = tmp_path / name
        path.write_bytes((DATA / "necrons.rosz").read_bytes())
        assert read_roster(path).units == read_roster(DATA / "necrons.ros").units
    bom = tmp_path / "bom.txt"
    bom.write_bytes(b"\xef\xbb\xbf" + (DATA / "necrons.ros").read_bytes())
    assert read_roster(bom).name == "Awakened Dynasty patrol"


# --- the fixtures are what the builder makes of the real catalogues ---------------------


def builder(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    spec = importlib.util.spec_from_file_location("build_fixtures", DATA / "build_fixtures.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)  # its dataclasses look themselves up
    spec.loader.exec_module(module)
    return module


def test_the_fixtures_are_built_from_the_bsdata_catalogues(
    shared_data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    module = builder(monkeypatch)
    monkeypatch.setattr(module, "HERE", tmp_path)
    assert module.main(["build_fixtures.py", str(shared_data / "bsdata-11e")]) == 0
    for path in sorted(DATA.glob("*.ros*")) + sorted(DATA.glob("*.json")):
        fresh = tmp_path / path.name
        if path.suffix == ".rosz":
            assert _member(fresh) == _member(path)
        else:
            assert fresh.read_bytes() == path.read_bytes(), path.name


def _member(path: Path) -> bytes:
    with zipfile.ZipFile(io.BytesIO(path.read_bytes())) as archive:
        (name,) = archive.namelist()
        return archive.read(name)
