"""BSData catalogues: read_catalogue on the committed excerpt and the shared snapshot.

The hand-checked values below were read once from the snapshot's JSON (``Necrons.json``,
``Orks.json``, ``Tyranids.json``, ``Library - Tyranids.json``) and are asserted on both
the excerpt committed in ``tests/data/bsdata`` and, where it stands beside the
repository, the whole snapshot. Bad input and the reader's rules on small hand-written
catalogues are in ``test_bsdata_input.py``.
"""

from __future__ import annotations

import json
import shutil
import sys
import zipfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from mathhammer.errors import OptionError
from mathhammer.io.bsdata import Catalogue, read_catalogue
from mathhammer.io.bsdata import datasheets as datasheets_module
from mathhammer.io.bsdata import files as files_module
from mathhammer.io.defences import Defences
from mathhammer.units.datasheet import AbilityText, Datasheet

sys.path.insert(0, str(Path(__file__).parent))
from bsdata_helpers import DATA, EXCERPT, copy_excerpt, excerpt, singular, to_xml  # noqa: E402
from guarded import GIB, run_capped  # noqa: E402

SNAPSHOT = Path("bsdata-11e")


@pytest.fixture(scope="module")
def catalogue() -> Catalogue:
    return read_catalogue(DATA)


@pytest.fixture(scope="module")
def snapshot(shared_catalogue: Callable[[str], Catalogue]) -> Catalogue:
    return shared_catalogue(str(SNAPSHOT))


def weapon_summary(sheet: Datasheet, gear: str) -> list[tuple[Any, ...]]:
    return [
        (str(w.attacks), w.skill, w.strength, w.ap, str(w.damage), w.abilities_text, w.melee)
        for w in sheet.gear(gear).profiles
    ]


# --------------------------------------------------------------------------- real datasheets


@pytest.fixture(params=["excerpt", "snapshot"])
def sheets(request: pytest.FixtureRequest) -> Catalogue:
    name = "catalogue" if request.param == "excerpt" else "snapshot"
    found: Catalogue = request.getfixturevalue(name)
    return found


def test_necron_warriors_as_the_data_gives_them(sheets: Catalogue) -> None:
    sheet = sheets.get("Necron Warriors")
    assert sheet.faction == "Xenos - Necrons"
    assert {"INFANTRY", "BATTLELINE", "FACTION: NECRONS"} <= set(sheet.keywords)
    (warrior,) = sheet.models
    assert (warrior.toughness, warrior.save, warrior.wounds, warrior.invuln) == (4, 4, 1, None)
    assert (warrior.leadership, warrior.oc, warrior.movement) == (7, 2, '5"')
    assert (warrior.min_count, warrior.max_count, warrior.default_count) == (10, 20, 10)
    assert warrior.weapons == ("Gauss flayer", "Close combat weapon")
    assert "Gauss reaper" in warrior.options and not warrior.character
    assert weapon_summary(sheet, "Gauss flayer") == [
        ("1", 4, 4, 0, "1", "[LETHAL HITS], [RAPID FIRE 1]", False)
    ]
    assert weapon_summary(sheet, "Gauss reaper") == [("2", 4, 4, -1, "1", "[LETHAL HITS]", False)]
    # pts 80, and a modifier setting it to 190 from 11 models on
    assert (sheet.points_for(10), sheet.points_for(11), sheet.points_for(20)) == (80, 190, 190)
    unit = sheet.unit(models=20)
    assert (unit.models, unit.toughness, unit.groups[0].save) == (20, 4, 4)
    assert [a.name for a in sheet.abilities] == ["Their Number is Legion", "Reanimation Protocols"]
    attacker = sheet.attacker(models=10, wargear={"Necron Warriors": ["Gauss reaper"]})
    assert [(w.name, m.count) for m in attacker.models for w in m.weapons] == [("Gauss reaper", 10)]


def test_a_character_with_a_choice_of_weapons(sheets: Catalogue) -> None:
    sheet = sheets.get("Overlord")
    (lord,) = sheet.models
    assert lord.character and "CHARACTER" in sheet.keywords
    assert (lord.toughness, lord.save, lord.wounds, lord.invuln) == (5, 2, 6, 4)
    # the weapons group's default entry bundles two weapons
    assert lord.weapons == ("Overlord's blade", "Tachyon arrow")
    # a staff with a ranged and a melee profile is two pieces of wargear
    assert weapon_summary(sheet, "Staff of light") == [("3", 2, 5, -2, "1", "", False)]
    assert weapon_summary(sheet, "Staff of light (melee)") == [("4", 2, 5, -2, "1", "", True)]
    assert {"Voidscythe", "Staff of light", "Staff of light (melee)"} <= set(lord.options)
    assert sheet.points == ((1, 90),)
    assert sheet.unit().groups[0].character


def test_models_in_bundles_and_a_torrent_weapon(sheets: Catalogue) -> None:
    sheet = sheets.get("Burna Boyz")
    # "1 Spanner and 4 Burna Boyz" (the default) or "2 Spanners and 8 Burna Boyz"
    counts = [(m.name, m.min_count, m.max_count, m.default_count) for m in sheet.models]
    assert counts == [("Burna Boyz", 4, 8, 4), ("Spanner", 1, 2, 1)]
    assert (sheet.sizes, sheet.points_for(5), sheet.points_for(10)) == (range(5, 11), 60, 120)
    # BS "N/A" on a Torrent weapon: never rolled
    assert weapon_summary(sheet, "Burna") == [
        ("D6", 2, 4, 0, "1", "[IGNORES COVER], [TORRENT]", False)
    ]
    assert sheet.counts(10) == {"Burna Boyz": 8, "Spanner": 2}


def test_loadout_entries_share_their_model_type(sheets: Catalogue) -> None:
    sheet = sheets.get("Boyz")
    counts = [(m.name, m.min_count, m.max_count, m.default_count) for m in sheet.models]
    assert counts == [("Boy", 9, 19, 9), ("Boss Nob", 1, 1, 1)]
    boy = sheet.models[0]
    assert boy.weapons == ("Choppa", "Slugga")
    assert {"Shoota", "Big shoota", "Rokkit launcha"} <= set(boy.options)
    assert (sheet.points_for(10), sheet.points_for(11)) == (75, 150)
    assert [g.label for g in sheet.unit().groups] == ["Boy", "Boss Nob"]


def test_a_library_datasheet_with_a_model_of_its_own(sheets: Catalogue) -> None:
    sheet = sheets.get("Hyperadapted Raveners")
    assert sheet.faction == "Xenos - Tyranids"  # offered by the faction, kept in its library
    counts = [(m.name, m.default_count, m.character) for m in sheet.models]
    assert counts == [
        ("Ravener", 3, False),
        ("Ravener w/ Venom bolt", 1, False),
        ("Ravener Prime", 1, True),
    ]
    assert sheet.models[1].weapons == ("Venom bolt", "Ravener heavy claws and talons")
    assert weapon_summary(sheet, "Venom bolt")[0][:2] == ("D6+3", 2)
    assert sheet.points == ((5, 165),)
    termagants = sheets.get("termagants")
    assert termagants.points == ((10, 60), (11, 110))
    assert (termagants.models[0].min_count, termagants.models[0].max_count) == (10, 20)


def test_an_unreadable_weapon_profile_is_listed_not_guessed(sheets: Catalogue) -> None:
    sheet = sheets.get("The Red Terror")
    assert [g.name for g in sheet.wargear] == ["Scything talons"]
    skipped = {(s.entry, s.reason) for s in sheets.report.skipped}
    assert ("The Red Terror / Gaping maw", "AP is '-'") in skipped


def test_points_by_size_steps(sheets: Catalogue) -> None:
    sheet = sheets.get("Lokhust Destroyers")
    assert sheet.points == ((1, 40), (2, 55), (3, 80), (4, 160))
    assert [sheet.points_for(n) for n in sheet.sizes] == [40, 55, 80, 160, 160, 160]


def test_every_datasheet_is_a_unit_a_target_and_loadouts(catalogue: Catalogue) -> None:
    for sheet in catalogue:
        assert sheet.unit().models == sheet.default_size
        assert sheet.target().points == sheet.points_for()
        assert sheet.loadouts() and sheet.attacker().models
        assert sheet.source.endswith(f": {sheet.name}")
    report = catalogue.report
    assert (report.datasheets, report.models) == (8, 12)
    assert report.weapons == 35 and report.unknown_abilities == {}


def test_the_excerpt_is_the_snapshot_cut_down(shared_data: Path, tmp_path: Path) -> None:
    written = excerpt(shared_data / SNAPSHOT)
    for name, document in written.items():
        committed = json.loads((DATA / name).read_text("utf-8"))
        assert committed == document, name


def test_the_excerpt_reads_as_the_snapshot_does(catalogue: Catalogue, snapshot: Catalogue) -> None:
    for sheet in catalogue:
        full = snapshot.get(sheet.name, sheet.faction)
        assert (sheet.models, sheet.wargear, sheet.points) == (
            full.models,
            full.wargear,
            full.points,
        )
        assert [a.name for a in sheet.abilities] == [a.name for a in full.abilities]
    assert sorted(s.name for s in catalogue) == sorted(
        n for names in EXCERPT.values() for n in names
    )


# --------------------------------------------------------------------------- forms and lookups


def write_xml(source: Path, target: Path, zipped: bool) -> None:
    target.mkdir()
    for path in source.glob("*.json"):
        ((kind, body),) = json.loads(path.read_text("utf-8")).items()
        suffix = (".gst" if kind == "gameSystem" else ".cat") + ("z" if zipped else "")
        xml = to_xml(kind, body)
        if zipped:
            with zipfile.ZipFile(target / f"{path.stem}{suffix}", "w", zipfile.ZIP_DEFLATED) as z:
                z.writestr(f"{path.stem}{suffix[:-1]}", xml)
        else:
            (target / f"{path.stem}{suffix}").write_bytes(xml)


@pytest.mark.parametrize("zipped", [False, True])
def test_xml_and_zipped_xml_read_as_json_does(
    catalogue: Catalogue, tmp_path: Path, zipped: bool
) -> None:
    write_xml(DATA, tmp_path / "xml", zipped)
    assert {p.suffix for p in (tmp_path / "xml").iterdir()} == (
        {".catz", ".gstz"} if zipped else {".cat", ".gst"}
    )
    again = read_catalogue(tmp_path / "xml")
    assert again.datasheets == catalogue.datasheets
    assert again.report.skipped[0].entry == catalogue.report.skipped[0].entry


def test_the_xml_form_as_battlescribe_writes_it() -> None:
    body = {
        "id": "c",
        "name": "X",
        "library": False,
        "sharedRules": [
            {"id": "r", "name": "Stealth", "alias": ["A", "B"], "description": "Hard to hit."}
        ],
    }
    xml = to_xml("catalogue", body)
    assert b'<sharedRules><rule id="r" name="Stealth"><alias>A</alias><alias>B</alias>' in xml
    assert files_module.read_tree(xml, "x.cat") == ("catalogue", body)
    assert [singular(k) for k in ("sharedSelectionEntries", "costs", "categoryEntries")] == [
        "selectionEntry",
        "cost",
        "categoryEntry",
    ]


def test_one_file_brings_the_files_it_links(tmp_path: Path) -> None:
    folder = copy_excerpt(tmp_path)
    (folder / "Library - Tyranids.json").rename(folder / "tyranid library.json")
    read = read_catalogue(folder / "Tyranids.json")
    # the faction, its library (found by id under another name) and the game system
    assert sorted(s.name for s in read) == ["Hyperadapted Raveners", "Termagants", "The Red Terror"]
    mixed = tmp_path / "mixed"
    write_xml(folder, mixed, zipped=False)
    (mixed / "Warhammer 40,000.gst").unlink()
    shutil.copy(folder / "Warhammer 40,000.json", mixed)
    assert len(read_catalogue(mixed / "Necrons.cat")) == 3


def test_lookups(catalogue: Catalogue) -> None:
    assert repr(catalogue) == "Catalogue(8 datasheets of 3 factions)"
    assert len(catalogue) == 8 and len(list(catalogue)) == 8
    assert catalogue.factions == ("Xenos - Necrons", "Xenos - Orks", "Xenos - Tyranids")
    assert [s.name for s in catalogue.faction("necrons")][:1] == ["Overlord"]
    assert catalogue.faction("Xenos - Orks") == catalogue.faction("ORKS")
    assert [s.name for s in catalogue.search("boyz")] == ["Boyz", "Burna Boyz"]
    assert catalogue.get("OVERLORD", faction="Necrons").name == "Overlord"
    with pytest.raises(
        OptionError, match=r"datasheet must be .*; got 'Overlrd' \(did you mean 'Overlord'\?\)"
    ):
        catalogue.get("Overlrd")
    with pytest.raises(OptionError, match="faction must be one of"):
        catalogue.faction("Space Marines")


def test_a_name_in_two_factions_needs_the_faction(catalogue: Catalogue) -> None:
    boyz = catalogue.get("Boyz")
    two = Catalogue(
        (*catalogue.datasheets, Datasheet("Boyz", boyz.models, boyz.wargear, "Xenos - Other")),
        catalogue.report,
    )
    with pytest.raises(
        OptionError, match=r"2 datasheets are named 'Boyz'.*\['Xenos - Orks', 'Xenos - Other'\]"
    ):
        two.get("Boyz")
    assert two.get("Boyz", faction="Other").faction == "Xenos - Other"


def test_defences_from_abilities_reach_the_profiles(monkeypatch: pytest.MonkeyPatch) -> None:
    unclear = AbilityText("Odd", "Something about saves.")

    def fake(abilities: Any) -> Defences:
        return Defences(
            invuln=5,
            fnp=6,
            fnp_mortal=5,
            damage_reduction=1,
            stealth=True,
            not_understood=(unclear,),
        )

    monkeypatch.setattr(datasheets_module, "read_defences", fake)
    read = read_catalogue(DATA)
    warrior = read.get("Necron Warriors").models[0]
    assert (warrior.invuln, warrior.fnp, warrior.fnp_mortal, warrior.damage_reduction) == (
        5,
        6,
        5,
        1,
    )
    assert read.get("Overlord").models[0].invuln == 4  # the InSv column comes first
    assert read.get("Necron Warriors").stealth and read.get("Necron Warriors").unit().stealth
    assert read.get("Overlord").not_understood == (unclear,)
    assert ("Overlord", "Odd", "Something about saves.") in read.report.not_understood


# --------------------------------------------------------------------------- the shared snapshot


def test_coverage_over_the_shared_snapshot(snapshot: Catalogue) -> None:
    report = snapshot.report
    misses = [s for s in report.skipped if not s.entry.endswith(" / points")]
    sheet_misses = [s for s in misses if " / " not in s.entry]
    weapon_misses = [s for s in misses if " / " in s.entry]
    units = 0
    for sheet in snapshot:
        sheet.unit()  # raises if a datasheet does not give a target unit
        units += 1
    sheets_rate = units / (units + len(sheet_misses))
    weapons_rate = report.weapons / (report.weapons + len(weapon_misses))
    tokens = Counter({token: len(rows) for token, rows in report.unknown_abilities.items()})
    print(
        f"\nBSData snapshot: {units} of {units + len(sheet_misses)} datasheets give a target "
        f"unit ({sheets_rate:.1%}); {report.weapons} of {report.weapons + len(weapon_misses)} "
        f"weapon profiles give a Weapon ({weapons_rate:.1%}); {report.models} model types"
    )
    for miss in misses:
        print(f"  skipped {miss.entry}: {miss.reason}")
    print(f"  unknown weapon abilities: {tokens.most_common(20)}")
    assert sheets_rate >= 0.98 and weapons_rate >= 0.98
    assert all(m.reason for m in misses)
    assert (units, report.weapons) == (319, 844)  # the Zzap guns' random S read (D42)
    assert {(m.entry, m.reason) for m in sheet_misses} == {
        ("Searchlight", "model 'Searchlight' has no Unit profile")
    }
    assert tokens == Counter(
        {
            "BUBBLECHUKKA": 3,
            "SNAGGED": 2,
            "HOOKED": 1,
            "HIVE DEFENCES": 1,
            "HARPOONED": 1,
            "DEAD CHOPPY": 1,
        }
    )
    assert snapshot.factions == (
        "Unaligned Forces",
        "Warhammer 40,000 11th Edition",
        "Xenos - Necrons",
        "Xenos - Orks",
        "Xenos - T'au Empire",
        "Xenos - Tyranids",
    )


@pytest.mark.system
def test_loading_the_shared_snapshot_takes_at_most_3_s(shared_data: Path) -> None:
    """Timed in a fresh interpreter, by its own CPU time: the budget is the reader's, not
    that of coverage's tracer (which doubles it), of a process whose caches earlier tests
    filled, nor of the machine's other work (a parallel run's other worker)."""
    report = run_capped(
        f"""
        from mathhammer.io.bsdata import read_catalogue
        read = []
        outcome = timed(lambda: read.extend(read_catalogue({str(shared_data / SNAPSHOT)!r})))
        print(json.dumps({{**outcome, "sheets": len(read)}}))
        """,
        memory=4 * GIB,
    )
    print(f"\nread_catalogue of the snapshot: {report['cpu']:.2f} s for {report['sheets']}")
    assert report["error"] is None, report
    assert report["sheets"] == 319
    assert report["cpu"] <= 3.0


def test_every_datasheet_of_the_snapshot_attacks_and_is_attacked(snapshot: Catalogue) -> None:
    weaponless = []
    for sheet in snapshot:
        assert sheet.target().unit.models == sheet.default_size
        assert min(sheet.sizes) >= 1 and len(sheet.sizes) <= 20
        if any(m.weapons for m in sheet.models):
            assert sheet.attacker().models and sheet.loadouts()
        else:
            weaponless.append(sheet.name)
    # buildings and spore mines: no weapon by default
    assert len(weaponless) == 15 and "Spore Mines" in weaponless
