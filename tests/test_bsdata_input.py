"""BSData catalogues: bad input, and the reader's rules on small catalogues written by hand.

Every problem with a file is one InputFileError naming the file (and the entry); what a
reader cannot read inside a readable file is skipped with its reason in the import report.
The hand-written catalogues pin down one rule each: wargear names, model counts, link
modifiers, weapon and unit characteristics as printed, points modifiers by unit size.
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
from pathlib import Path
from typing import Any

import pytest

import mathhammer as mh
from mathhammer.errors import InputFileError
from mathhammer.io.bsdata import files as files_module
from mathhammer.io.bsdata import read_catalogue, tree
from mathhammer.io.bsdata.composition import renamed
from mathhammer.io.bsdata.links import Book, CatalogueSet
from mathhammer.io.bsdata.points import unit_cost
from mathhammer.io.bsdata.profiles import clean_text, read_body, read_weapon

sys.path.insert(0, str(Path(__file__).parent))
from bsdata_helpers import copy_excerpt, edit, find, shared_entry  # noqa: E402

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


def _tampered_catz(path: Path, how: str) -> Path:
    """A zipped catalogue whose member is corrupt, compressed by Deflate64 (method 9, which
    zipfile cannot read) or flagged encrypted; its text does not compress well, so the size
    and ratio checks pass and the member is opened."""
    text = b'<catalogue id="c" name="' + bytes(range(48, 123)) * 80 + b'"/>'
    raw = io.BytesIO()
    with zipfile.ZipFile(raw, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("x.cat", text)
    data = bytearray(raw.getvalue())
    central = data.index(b"PK\x01\x02")
    if how == "corrupt":
        data[40:80] = bytes(40)  # inside the compressed data, after the local header
    elif how == "deflate64":
        struct.pack_into("<H", data, 8, 9)
        struct.pack_into("<H", data, central + 10, 9)
    else:  # encrypted: bit 0 of the general purpose flags
        struct.pack_into("<H", data, 6, 1)
        struct.pack_into("<H", data, central + 8, 1)
    path.write_bytes(bytes(data))
    return path


@pytest.mark.parametrize(
    ("how", "why"),
    [
        ("corrupt", "Error -3 while decompressing"),
        ("deflate64", "That compression method is not supported"),
        ("encrypted", "it is encrypted; give it unzipped"),
    ],
)
def test_a_zip_that_cannot_be_unzipped_is_one_error(tmp_path: Path, how: str, why: str) -> None:
    path = _tampered_catz(tmp_path / f"{how}.catz", how)
    with pytest.raises(InputFileError, match=rf"{how}\.catz: cannot unzip 'x\.cat': {why}"):
        read_catalogue(path)


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
    with pytest.raises(InputFileError, match="no such file or folder"):
        read_catalogue(tmp_path / "nowhere.cat")
    with pytest.raises(InputFileError, match="cannot read: a folder; expected a file"):
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
    weapon, reason = read_weapon(gun("Gun", "g", **values))
    assert (weapon.skill if weapon else None, reason) == expected
    if weapon is not None and "AP" in values:
        assert weapon.ap == -2


def test_unit_profiles_as_printed() -> None:
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


def test_links_that_expand_exponentially_skip_the_unit_within_seconds(tmp_path: Path) -> None:
    # twenty levels of shared entries, each linking twice to the next: 2**20 paths
    folder = tmp_path / "wide"
    shutil.copytree(Path(__file__).parent / "data" / "bsdata", folder)
    necrons = folder / "Necrons.json"
    document = json.loads(necrons.read_text(encoding="utf-8"))
    catalogue = document["catalogue"]
    levels: list[dict[str, Any]] = [
        {"id": f"level-{i}", "name": f"Level {i}", "type": "upgrade"} for i in range(21)
    ]
    for i, level in enumerate(levels[:-1]):
        level["entryLinks"] = [
            {"id": f"link-{i}-{side}", "name": "next", "targetId": f"level-{i + 1}",
             "type": "selectionEntry"}
            for side in "ab"
        ]  # fmt: skip
    catalogue["sharedSelectionEntries"].extend(levels)
    shared = catalogue["sharedSelectionEntries"]
    warriors = next(e for e in shared if e["name"] == "Necron Warriors")
    warriors.setdefault("entryLinks", []).append(
        {"id": "link-root", "name": "wide", "targetId": "level-0", "type": "selectionEntry"}
    )
    necrons.write_text(json.dumps(document), encoding="utf-8")
    started = time.monotonic()
    catalogue_read = read_catalogue(folder)
    assert time.monotonic() - started < 20
    assert "Necron Warriors" not in [d.name for d in catalogue_read.datasheets]
    skipped = {s.entry: s.reason for s in catalogue_read.report.skipped}
    assert any("selection tree expands past 20000 entries" in r for r in skipped.values())


def _levels(count: int, width: int, prefix: str = "e") -> dict[str, dict[str, Any]]:
    """Shared entries by id: each links ``width`` times to the next, ``count`` levels."""
    entries: dict[str, dict[str, Any]] = {
        f"{prefix}{i}": {"id": f"{prefix}{i}", "name": f"{prefix}{i}", "type": "upgrade"}
        for i in range(count)
    }
    for i in range(count - 1):
        entries[f"{prefix}{i}"]["entryLinks"] = [
            {"id": f"{prefix}{i}-{n}", "name": "next", "targetId": f"{prefix}{i + 1}"}
            for n in range(width)
        ]
    return entries


def _counting_resolver(entries: dict[str, dict[str, Any]]) -> tuple[Any, list[int]]:
    calls = [0]

    def resolve(owner: object, link: dict[str, Any]) -> tuple[object, dict[str, Any]]:
        calls[0] += 1
        return owner, entries[link["targetId"]]

    return resolve, calls


def test_the_size_check_walks_each_shared_entry_once() -> None:
    # 2 ** 26 paths through 26 entries: sized in as many steps as it has links, then refused
    entries = _levels(26, 2)
    resolve, calls = _counting_resolver(entries)
    with pytest.raises(tree.TreeTooLarge, match="expands past 20000 entries"):
        tree.check_expansion(resolve, None, entries["e0"])
    assert calls[0] == 2 * 25
    # 14 levels: 2 ** 14 - 2 entries below the top, within the limit, sized exactly
    entries = _levels(14, 2)
    resolve, calls = _counting_resolver(entries)
    tree.check_expansion(resolve, None, entries["e0"])
    assert calls[0] == 2 * 13
    assert len(_flatten(tree.build(resolve, None, entries["e0"]))) == 2**14 - 2


def _flatten(slot: tree.Slot) -> list[tree.Slot]:
    out = []
    pending = list(slot.children)
    while pending:
        child = pending.pop()
        out.append(child)
        pending.extend(child.children)
    return out


@pytest.mark.parametrize("depth, refused", [(50, False), (51, True), (5000, True)])
def test_a_chain_of_links_nests_at_most_fifty_levels(depth: int, refused: bool) -> None:
    # a chain of `depth` entries below the top: the deepest `depth` levels down
    entries = _levels(depth + 1, 1)
    resolve, _ = _counting_resolver(entries)
    if refused:
        with pytest.raises(tree.TreeTooLarge, match="nests past 50 levels"):
            tree.build(resolve, None, entries["e0"])
    else:
        assert len(_flatten(tree.build(resolve, None, entries["e0"]))) == depth


def test_a_shared_entry_deeper_than_first_met_counts_its_whole_height() -> None:
    # e0 reaches e1 directly and through a chain of 49 others: sized once (where first met,
    # one level down), its height still counts where it stands deepest, 50 levels down
    entries = _levels(3, 1)
    chain = _levels(49, 1, prefix="c")
    chain["c48"]["entryLinks"] = [{"id": "to-e1", "name": "e1", "targetId": "e1"}]
    entries.update(chain)
    entries["e0"]["entryLinks"].append({"id": "to-chain", "name": "chain", "targetId": "c0"})
    resolve, _ = _counting_resolver(entries)
    with pytest.raises(tree.TreeTooLarge, match="nests past 50 levels"):
        tree.check_expansion(resolve, None, entries["e0"])
    with pytest.raises(tree.TreeTooLarge, match="nests past 50 levels"):
        tree.build(resolve, None, entries["e0"])
