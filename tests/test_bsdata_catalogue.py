"""BSData catalogues: read_catalogue on the committed excerpt, the shared snapshot and bad input.

The hand-checked values below were read once from the snapshot's JSON (``Necrons.json``,
``Orks.json``, ``Tyranids.json``, ``Library - Tyranids.json``) and are asserted on both
the excerpt committed in ``tests/data/bsdata`` and, where it stands beside the
repository, the whole snapshot.
"""

from __future__ import annotations

import io
import json
import shutil
import struct
import sys
import time
import warnings
import zipfile
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import mathhammer as mh
from mathhammer.errors import InputFileError, OptionError
from mathhammer.io.bsdata import Catalogue, read_catalogue
from mathhammer.io.bsdata import datasheets as datasheets_module
from mathhammer.io.bsdata import files as files_module
from mathhammer.io.bsdata.links import Book, CatalogueSet
from mathhammer.io.defences import Defences
from mathhammer.units.datasheet import AbilityText, Datasheet

sys.path.insert(0, str(Path(__file__).parent))
from bsdata_helpers import EXCERPT, excerpt, singular, to_xml  # noqa: E402

DATA = Path(__file__).resolve().parent / "data" / "bsdata"
SNAPSHOT = Path("bsdata-11e")


@pytest.fixture(scope="module")
def catalogue() -> Catalogue:
    return read_catalogue(DATA)


@pytest.fixture(scope="module")
def snapshot(shared_data: Path) -> Catalogue:
    return read_catalogue(shared_data / SNAPSHOT)


def copy_excerpt(tmp_path: Path) -> Path:
    folder = tmp_path / "bsdata"
    shutil.copytree(DATA, folder)
    return folder


def edit(path: Path, change: Any) -> None:
    """Rewrite a JSON catalogue after ``change(body)``."""
    document = json.loads(path.read_text("utf-8"))
    change(next(iter(document.values())))
    path.write_text(json.dumps(document), encoding="utf-8")


def shared_entry(body: dict[str, Any], name: str) -> dict[str, Any]:
    return next(e for e in body["sharedSelectionEntries"] if e["name"] == name)


def find(node: Any, name: str) -> dict[str, Any]:
    """The first dict named ``name`` in a tree, depth first."""
    if isinstance(node, dict):
        if node.get("name") == name:
            return node
        node = list(node.values())
    if isinstance(node, list):
        for member in node:
            try:
                return find(member, name)
            except LookupError:
                pass
    raise LookupError(name)


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
        [*catalogue.datasheets, Datasheet("Boyz", boyz.models, boyz.wargear, "Xenos - Other")],
        catalogue.report,
    )
    with pytest.raises(
        OptionError, match=r"'Boyz' is a datasheet of \['Xenos - Orks', 'Xenos - Other'\]"
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


# --------------------------------------------------------------------------- bad input


def test_malformed_json_names_the_file_and_line(tmp_path: Path) -> None:
    folder = copy_excerpt(tmp_path)
    (folder / "Orks.json").write_text('{"catalogue": {"id": "x",\n "name": }}')
    with pytest.raises(InputFileError, match=r"Orks\.json:2: malformed JSON: Expecting value"):
        read_catalogue(folder)


def test_malformed_xml_names_the_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "broken.cat"
    path.write_bytes(b'<catalogue id="c">\n<sharedRules>\n</catalogue>')
    with pytest.raises(InputFileError, match=r"broken\.cat:3: malformed XML: mismatched tag"):
        read_catalogue(path)


def test_xml_entities_are_refused(tmp_path: Path) -> None:
    laughs = (
        b'<?xml version="1.0"?>\n<!DOCTYPE catalogue [\n <!ENTITY lol "lol">\n'
        b' <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">\n]>\n'
        b'<catalogue id="c" name="&lol2;"/>'
    )
    (tmp_path / "laughs.cat").write_bytes(laughs)
    with pytest.raises(
        InputFileError, match=r"laughs\.cat: XML with a forbidden construct \(EntitiesForbidden\)"
    ):
        read_catalogue(tmp_path / "laughs.cat")


def test_a_zip_bomb_is_refused(tmp_path: Path) -> None:
    bomb = tmp_path / "bomb.catz"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("bomb.cat", b"<catalogue>" + b" " * 10_000_000 + b"</catalogue>")
    assert bomb.stat().st_size < 20_000
    with pytest.raises(
        InputFileError, match=r"bomb\.catz: 'bomb\.cat' would expand to 10000023 bytes"
    ):
        read_catalogue(bomb)


def test_a_zip_past_the_size_limit_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(files_module, "MAX_UNCOMPRESSED", 100)
    path = tmp_path / "big.gstz"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as z:
        z.writestr("big.gst", b"<gameSystem>" + bytes(range(200)) + b"</gameSystem>")
    with pytest.raises(InputFileError, match="must expand to at most 100 bytes"):
        read_catalogue(path)


def test_a_zip_whose_header_understates_its_size_stops_at_the_header(tmp_path: Path) -> None:
    raw = io.BytesIO()
    with zipfile.ZipFile(raw, "w", zipfile.ZIP_STORED) as z:
        z.writestr("x.cat", b'<catalogue id="c" name="' + b"x" * 5000 + b'"/>')
    data = bytearray(raw.getvalue())
    # the uncompressed size, in the local header and the central directory
    struct.pack_into("<I", data, 22, 100)
    central = data.index(b"PK\x01\x02")
    struct.pack_into("<I", data, central + 24, 100)
    (tmp_path / "liar.catz").write_bytes(bytes(data))
    with pytest.raises(InputFileError, match=r"liar\.catz: cannot unzip 'x\.cat'"):
        read_catalogue(tmp_path / "liar.catz")


@pytest.mark.parametrize("names", [[], ["a.cat", "b.cat"]])
def test_a_zip_must_hold_one_file(tmp_path: Path, names: list[str]) -> None:
    path = tmp_path / "set.catz"
    with zipfile.ZipFile(path, "w") as z:
        for name in names:
            z.writestr(name, b"<catalogue/>")
    with pytest.raises(
        InputFileError,
        match=rf"must hold exactly one file; got {names!r}".replace("[", r"\[").replace("]", r"\]"),
    ):
        read_catalogue(path)


def test_a_file_that_is_not_a_zip(tmp_path: Path) -> None:
    (tmp_path / "x.gstz").write_bytes(b"not a zip at all")
    with pytest.raises(InputFileError, match=r"x\.gstz: not a readable zip file"):
        read_catalogue(tmp_path / "x.gstz")


def test_a_dangling_target_names_the_file_and_the_entry(tmp_path: Path) -> None:
    folder = copy_excerpt(tmp_path)

    def dangle(body: dict[str, Any]) -> None:
        link = find(shared_entry(body, "Necron Warriors"), "Close combat weapon")
        link["targetId"] = "no-such-id"

    edit(folder / "Necrons.json", dangle)
    with pytest.raises(
        InputFileError,
        match=r"Necrons\.json: selectionEntry link 'Close combat weapon' "
        r"\(id '3918-80f8-a762-a77b'\) in 'Warrior w/ gauss flayer': targetId 'no-such-id' "
        r"matches no entry of "
        r"'Xenos - Necrons', 'Unaligned Forces', 'Warhammer 40,000 11th Edition'",
    ):
        read_catalogue(folder)


def test_a_missing_linked_catalogue(tmp_path: Path) -> None:
    folder = copy_excerpt(tmp_path)
    (folder / "Library - Tyranids.json").unlink()
    with pytest.raises(
        InputFileError,
        match=r"Tyranids\.json: catalogueLink 'Library - Tyranids' names catalogue id '.*', "
        "which is not among the files read",
    ):
        read_catalogue(folder)
    with pytest.raises(InputFileError, match="which is not among the files read"):
        read_catalogue(folder / "Tyranids.json")


def test_a_missing_game_system(tmp_path: Path) -> None:
    folder = copy_excerpt(tmp_path)
    (folder / "Warhammer 40,000.json").unlink()
    with pytest.raises(
        InputFileError,
        match=r"its game system \(id 'sys-352e-adc2-7639-d610'\) is not among the files read",
    ):
        read_catalogue(folder / "Necrons.json")


def test_two_copies_of_a_catalogue(tmp_path: Path) -> None:
    folder = copy_excerpt(tmp_path)
    shutil.copy(folder / "Orks.json", folder / "Orks copy.json")
    with pytest.raises(
        InputFileError, match=r"Orks\.json: catalogue id '.*' is also the id of .*Orks copy\.json"
    ):
        read_catalogue(folder)


def test_files_that_are_not_catalogues(tmp_path: Path) -> None:
    (tmp_path / "army.json").write_text('{"roster": {"id": "r"}}')
    with pytest.raises(
        InputFileError,
        match=r"army\.json: expected a BattleScribe catalogue or game system; got a 'roster' "
        r"document \(rosters are read by read_roster\)",
    ):
        read_catalogue(tmp_path / "army.json")
    (tmp_path / "army.json").write_text("[1, 2]")
    with pytest.raises(InputFileError, match="got a document with several roots"):
        read_catalogue(tmp_path / "army.json")
    (tmp_path / "army.json").write_bytes(b'{"catalogue": "\xff"}')
    with pytest.raises(InputFileError, match="not UTF-8 text"):
        read_catalogue(tmp_path / "army.json")
    (tmp_path / "army.json").unlink()
    with pytest.raises(InputFileError, match="no catalogue files"):
        read_catalogue(tmp_path)
    with pytest.raises(InputFileError, match="no such file or directory"):
        read_catalogue(tmp_path / "nowhere.cat")
    with pytest.raises(InputFileError, match="cannot read the file"):
        files_module.load_tree(tmp_path)


def test_a_dash_where_a_number_is_needed_skips_the_datasheet(tmp_path: Path) -> None:
    folder = copy_excerpt(tmp_path)

    def dash(body: dict[str, Any]) -> None:
        find(shared_entry(body, "Necron Warriors")["profiles"], "T")["$text"] = "-"
        gun = find(shared_entry(body, "Necron Warriors"), "Gauss reaper")
        find(gun["profiles"], "S")["$text"] = "*"

    edit(folder / "Necrons.json", dash)
    read = read_catalogue(folder)
    assert "Necron Warriors" not in [s.name for s in read]
    skipped = {(s.entry, s.reason) for s in read.report.skipped}
    assert ("Necron Warriors", "model 'Warrior w/ gauss flayer': T is '-'") in skipped
    assert read.report.datasheets == 7


def test_a_weapon_that_cannot_be_read_leaves_the_others(tmp_path: Path) -> None:
    folder = copy_excerpt(tmp_path)

    def star(body: dict[str, Any]) -> None:
        gun = find(shared_entry(body, "Necron Warriors"), "Gauss reaper")
        find(gun["profiles"], "S")["$text"] = "*"

    edit(folder / "Necrons.json", star)
    read = read_catalogue(folder)
    sheet = read.get("Necron Warriors")
    assert (
        "Gauss reaper" not in sheet.models[0].options and "Gauss flayer" in sheet.models[0].options
    )
    assert ("Necron Warriors / Gauss reaper", "S is '*'") in {
        (s.entry, s.reason) for s in read.report.skipped
    }


def test_points_that_are_not_a_number_are_reported(tmp_path: Path) -> None:
    folder = copy_excerpt(tmp_path)
    edit(
        folder / "Necrons.json",
        lambda body: shared_entry(body, "Overlord")["costs"][0].update(value="ninety"),
    )
    read = read_catalogue(folder)
    assert read.get("Overlord").points == () and read.get("Overlord").points_for() is None
    assert any(
        s.entry == "Overlord / points" and s.reason == "points must be a number; got 'ninety'"
        for s in read.report.skipped
    )


def test_an_unknown_weapon_ability_is_reported_or_under_strict_an_error(tmp_path: Path) -> None:
    folder = copy_excerpt(tmp_path)

    def invent(body: dict[str, Any]) -> None:
        gun = find(shared_entry(body, "Necron Warriors"), "Gauss flayer")
        find(gun["profiles"], "Keywords")["$text"] = "Lethal Hits, Snagged"

    edit(folder / "Necrons.json", invent)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")  # a warning the reader let through would be caught
        read = read_catalogue(folder)
    assert not any(issubclass(w.category, mh.UnknownAbilityWarning) for w in caught)
    assert read.report.unknown_abilities == {"SNAGGED": ["Necron Warriors / Gauss flayer"]}
    assert read.get("Necron Warriors").gear("Gauss flayer").profiles[0].unknown_abilities == (
        "SNAGGED",
    )
    with pytest.raises(
        InputFileError,
        match=r"Necrons\.json: Necron Warriors / Gauss flayer: weapon ability 'SNAGGED' is "
        r"not one the engine knows \(strict",
    ):
        read_catalogue(folder, strict=True)


def test_a_link_added_after_the_set_was_built_is_checked() -> None:
    system = Book("game.gst", "gameSystem", {"id": "gs", "name": "Game"})
    books = CatalogueSet([system])
    with pytest.raises(
        InputFileError,
        match=r"game\.gst: rule link 'Nope' \(id 'l'\): targetId 'x' matches no entry of 'Game'",
    ):
        books.resolve(system, {"id": "l", "name": "Nope", "type": "rule", "targetId": "x"})
    assert Book("a/b.cat", "catalogue", {}).name == "b"


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
    assert (units, report.weapons) == (319, 841)
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
        "Warhammer 40,000 11th Edition",
        "Xenos - Necrons",
        "Xenos - Orks",
        "Xenos - T'au Empire",
        "Xenos - Tyranids",
        "Unaligned Forces",
    )


def test_loading_the_shared_snapshot_takes_at_most_3_s(shared_data: Path) -> None:
    start = time.perf_counter()
    read = read_catalogue(shared_data / SNAPSHOT)
    elapsed = time.perf_counter() - start
    print(f"\nread_catalogue of the snapshot: {elapsed:.2f} s for {len(read)} datasheets")
    assert elapsed <= 3.0


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


# --------------------------------------------------------------------------- small cases, by hand

GAME = {"gameSystem": {"id": "gs", "name": "Game", "costTypes": [{"id": "pts", "name": "pts"}]}}


def characteristics(**values: str) -> list[dict[str, str]]:
    return [{"name": name, "$text": text} for name, text in values.items()]


def unit_profile(name: str, save: str = "3+", insv: str = "") -> dict[str, Any]:
    values = characteristics(M='6"', T="4", Sv=save, W="2", LD="7+", OC="1", InSv=insv)
    return {"id": f"p-{name}", "name": name, "typeName": "Unit", "characteristics": values}


def gun(name: str, ident: str, **values: str) -> dict[str, Any]:
    stats = {"A": "1", "BS": "3+", "S": "4", "AP": "0", "D": "1", "Keywords": "-", **values}
    return {
        "id": ident,
        "name": name,
        "typeName": "Ranged Weapons",
        "characteristics": characteristics(**stats),
    }


def item(name: str, ident: str, low: int = 1, **values: str) -> dict[str, Any]:
    return {
        "id": f"e-{ident}",
        "name": name,
        "type": "upgrade",
        "profiles": [gun(name, ident, **values)],
        "constraints": limits(low, 1),
    }


def limits(low: int, high: int) -> list[dict[str, Any]]:
    return [
        {"type": "min", "value": low, "field": "selections", "scope": "parent"},
        {"type": "max", "value": high, "field": "selections", "scope": "parent"},
    ]


def write_catalogue(folder: Path, entries: list[dict[str, Any]], root: list[str]) -> Path:
    """A game system and a catalogue offering ``root`` (names) of ``entries``."""
    folder.mkdir(exist_ok=True)
    links = [
        {"id": f"l-{e['id']}", "name": e["name"], "type": "selectionEntry", "targetId": e["id"]}
        for e in entries
        if e["name"] in root
    ]
    body = {
        "id": "cat",
        "name": "Xenos - Test",
        "gameSystemId": "gs",
        "sharedSelectionEntries": entries,
        "entryLinks": links,
    }
    (folder / "Game.json").write_text(json.dumps(GAME))
    (folder / "Test.json").write_text(json.dumps({"catalogue": body}))
    return folder


def test_root_entries_and_units_that_cannot_be_read(tmp_path: Path) -> None:
    lone = {"id": "lone", "name": "Lone", "type": "model", "profiles": [unit_profile("Lone")]}
    empty = {"id": "empty", "name": "Empty", "type": "unit", "profiles": [unit_profile("Empty")]}
    armoured = {
        "id": "odd",
        "name": "Odd",
        "type": "model",
        "profiles": [unit_profile("Odd", "1+")],
    }
    folder = write_catalogue(tmp_path / "c", [empty, armoured], ["Empty", "Odd"])
    edit(folder / "Test.json", lambda body: body.update(selectionEntries=[lone]))
    read = read_catalogue(folder)
    assert [s.name for s in read] == ["Lone"]  # a root entry, not a link
    assert [(s.entry, s.reason) for s in read.report.skipped] == [
        ("Empty", "it has no model entries"),
        ("Odd", "ModelGroup.save must be an integer from 2 to 7; got 1"),
    ]


def test_wargear_with_one_name_and_other_profiles(tmp_path: Path) -> None:
    def drone(ident: str, ballistic: str) -> dict[str, Any]:
        pod = item("Missile pod", ident, low=0, BS=ballistic)
        return {
            "id": f"d-{ident}",
            "name": "Drone",
            "type": "upgrade",
            "selectionEntries": [pod],
            "constraints": limits(0, 2),
        }

    suit = {
        "id": "suit",
        "name": "Suit",
        "type": "model",
        "profiles": [unit_profile("Suit")],
        "selectionEntries": [item("Missile pod", "own"), drone("a", "5+"), drone("b", "6+")],
    }
    sheet = read_catalogue(write_catalogue(tmp_path / "c", [suit], ["Suit"])).get("Suit")
    names = [(g.name, g.profiles[0].skill) for g in sheet.wargear if not g.name.endswith("#2")]
    assert names == [("Missile pod", 3), ("Missile pod (Drone)", 5), ("Missile pod (2)", 6)]
    assert sheet.models[0].weapons == ("Missile pod",)
    assert "Missile pod (2) #2" in sheet.models[0].options  # up to two drones


def test_models_without_a_maximum_and_models_inside_models(tmp_path: Path) -> None:
    rider = {
        "id": "rider",
        "name": "Rider",
        "type": "model",
        "profiles": [unit_profile("Rider")],
        "constraints": limits(1, 1),
    }
    beast = {
        "id": "beast",
        "name": "Beast",
        "type": "model",
        "profiles": [unit_profile("Beast", "4+")],
        "constraints": [
            {"type": "min", "value": 2, "field": "selections", "scope": "parent"},
            {"type": "max", "value": -1, "field": "selections", "scope": "parent"},
        ],
        "selectionEntries": [rider, item("Spear", "spear")],
    }
    herd = {"id": "herd", "name": "Herd", "type": "unit", "selectionEntries": [beast]}
    sheet = read_catalogue(write_catalogue(tmp_path / "c", [herd], ["Herd"])).get("Herd")
    counts = [(m.name, m.min_count, m.max_count, m.weapons) for m in sheet.models]
    # no maximum (-1): the unit is read at its minimum; the rider is a model of its own
    assert counts == [("Beast", 2, 2, ("Spear",)), ("Rider", 2, 2, ())]


def test_names_a_link_changes() -> None:
    from mathhammer.io.bsdata.composition import renamed

    def link(*modifiers: dict[str, Any]) -> dict[str, Any]:
        return {"modifiers": list(modifiers)}

    assert renamed(link({"type": "append", "field": "name", "value": "D3"}), "Deadly Demise") == (
        "Deadly Demise D3"
    )
    assert renamed(link({"type": "set", "field": "name", "value": "Shas'vre"}), "Shas'ui") == (
        "Shas'vre"
    )
    conditional = {
        "type": "set",
        "field": "name",
        "value": "X",
        "conditions": [{"type": "atLeast"}],
    }
    grouped = {"type": "set", "field": "name", "value": "X", "conditionGroups": [{"type": "and"}]}
    other = {"type": "set", "field": "hidden", "value": True}
    assert renamed(link(conditional, grouped, other), "Kept") == "Kept"


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        ({"BS": "-", "Keywords": "Torrent"}, (2, "")),
        ({"BS": "N/A"}, (None, "BS is 'N/A' on a weapon without [TORRENT]")),
        ({"BS": "7+"}, (None, "Weapon.skill must be an integer from 2 to 6; got 7")),
        ({"AP": "\u22122"}, (3, "")),
        ({"D": "*"}, (None, "D is '*'")),
        ({"A": ""}, (None, "A is ''")),
    ],
)
def test_weapon_profiles_as_printed(values: dict[str, str], expected: tuple[Any, str]) -> None:
    from mathhammer.io.bsdata.profiles import read_weapon

    weapon, reason = read_weapon(gun("Gun", "g", **values))
    assert (weapon.skill if weapon else None, reason) == expected
    if weapon is not None and "AP" in values:
        assert weapon.ap == -2


def test_unit_profiles_as_printed() -> None:
    from mathhammer.io.bsdata.profiles import clean_text, read_body

    body, _ = read_body(unit_profile("Makari", "7+", "2+*"))
    assert body is not None and (body.save, body.invuln, body.leadership) == (7, 2, 7)
    assert read_body({"characteristics": characteristics(T="-", Sv="3+", W="2")}) == (
        None,
        "T is '-'",
    )
    assert read_body({"characteristics": characteristics(T="4", Sv="3", W="2+")}) == (
        None,
        "W is '2+'",
    )
    assert clean_text("**Bold**\u00a0and ^^KEYWORD^^ ") == "Bold and KEYWORD"


def size(kind: str, value: int) -> dict[str, Any]:
    return {
        "type": kind,
        "value": value,
        "field": "selections",
        "scope": "self",
        "childId": "model",
    }


@pytest.mark.parametrize(
    ("modifier", "expected"),
    [
        # [cost at 1, 2, 3, 4, 5, 6 models] from a base of 10
        ({"type": "increment", "value": 5}, [15, 15, 15, 15, 15, 15]),
        (
            {"type": "decrement", "value": 1, "conditions": [size("notEqualTo", 2)]},
            [9, 10, 9, 9, 9, 9],
        ),
        (
            {
                "type": "set",
                "value": 50,
                "conditionGroups": [
                    {"type": "or", "conditions": [size("lessThan", 2), size("atLeast", 6)]}
                ],
            },
            [50, 10, 10, 10, 10, 50],
        ),
        (
            {
                "type": "set",
                "value": 7,
                "conditionGroups": [
                    {"type": "and", "conditions": [size("greaterThan", 2), size("atMost", 4)]}
                ],
            },
            [10, 10, 7, 7, 10, 10],
        ),
        (
            {
                "type": "increment",
                "value": 3,
                "repeats": [
                    {
                        "value": 2,
                        "repeats": 1,
                        "field": "selections",
                        "scope": "self",
                        "childId": "model",
                    }
                ],
            },
            [10, 13, 13, 16, 16, 19],
        ),
        # on anything but the unit's size: not applied
        (
            {
                "type": "set",
                "value": 0,
                "conditions": [
                    {
                        "type": "atLeast",
                        "value": 1,
                        "field": "selections",
                        "scope": "force",
                        "childId": "x",
                    }
                ],
            },
            [10] * 6,
        ),
        (
            {
                "type": "set",
                "value": 0,
                "conditionGroups": [{"type": "and", "localConditionGroups": [{}]}],
            },
            [10] * 6,
        ),
        (
            {"type": "set", "value": 0, "conditionGroups": [{"type": "xor", "conditions": []}]},
            [10] * 6,
        ),
        ({"type": "multiply", "value": 2}, [10] * 6),
    ],
)
def test_points_modifiers_by_unit_size(modifier: dict[str, Any], expected: list[int]) -> None:
    from mathhammer.io.bsdata.points import unit_cost

    entry = {
        "id": "u",
        "costs": [{"name": "pts", "typeId": "pts", "value": 10}],
        "modifiers": [{**modifier, "field": "pts"}],
    }
    cost = unit_cost(entry, {"pts"})
    assert [cost(n) for n in range(1, 7)] == expected


def test_a_library_linked_twice_is_seen_once() -> None:
    system = Book("g.gst", "gameSystem", {"id": "gs", "name": "Game"})
    library = Book("l.cat", "catalogue", {"id": "lib", "name": "Library", "gameSystemId": "gs"})
    links = [{"targetId": "lib"}, {"targetId": "mid"}, {"targetId": "gs"}]
    middle = Book(
        "m.cat",
        "catalogue",
        {
            "id": "mid",
            "name": "Middle",
            "gameSystemId": "gs",
            "catalogueLinks": [{"targetId": "lib"}],
        },
    )
    faction = Book(
        "f.cat",
        "catalogue",
        {"id": "f", "name": "Faction", "gameSystemId": "gs", "catalogueLinks": links},
    )
    books = CatalogueSet([system, library, middle, faction])
    assert [b.name for b in books.scopes["f"]] == ["Faction", "Library", "Middle", "Game"]
