"""The Wahapedia export read into datasheets: the committed slice, the full export, bad input."""

from __future__ import annotations

import shutil
import time
from collections import Counter
from pathlib import Path

import pytest

import mathhammer as mh
from mathhammer.core.dice import parse_dice
from mathhammer.errors import CsvError
from mathhammer.io.library import DatasheetLibrary
from mathhammer.io.wahapedia import group_wargear, read_table, read_wahapedia, weapon_from_row
from mathhammer.io.wahapedia.composition import composition, loadout, points
from mathhammer.io.wahapedia.weapons import WeaponRowError
from mathhammer.units.options import AttackOptions

SLICE = Path(__file__).resolve().parent / "data" / "wahapedia-10e"
"""Invented datasheets in the export's format (see tests/data/README.md)."""


@pytest.fixture(scope="module")
def library() -> DatasheetLibrary:
    return read_wahapedia(SLICE)


def copy_slice(tmp_path: Path) -> Path:
    folder = tmp_path / "export"
    shutil.copytree(SLICE, folder)
    return folder


# --- the file format --------------------------------------------------------------------------


def test_records_with_line_breaks_and_their_lines(tmp_path: Path) -> None:
    path = tmp_path / "Datasheets_abilities.csv"
    path.write_text(
        "\ufeffdatasheet_id|name|description|\r\n"
        "1|Ward|First line,\r\nsecond line.|\r\n"
        "\r\n"
        "2|Plain|One line.|\r\n",
        encoding="utf-8",
    )
    table = read_table(path, ("datasheet_id", "description"))
    assert table.columns == ("datasheet_id", "name", "description")
    assert [(r.line, r["description"]) for r in table.rows] == [
        (2, "First line,\nsecond line."),
        (5, "One line."),
    ]
    assert table.source(table.rows[1]) == f"{path}:5" and table.rows[0].get("nope") == ""


def test_a_file_without_trailing_pipes(tmp_path: Path) -> None:
    path = tmp_path / "Factions.csv"
    path.write_text("id|name\nORK|Orks\nNEC|Necrons\n", encoding="utf-8")
    assert [r["name"] for r in read_table(path, ("id", "name")).rows] == ["Orks", "Necrons"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("id,name\n1,x\n", ":1: the header has no '|'"),
        ("id|nom|\n1|x|\n", ":1: missing columns ['name']; the header has ['id', 'nom']"),
        ("id|name|\n1|x|\n2|y|z|\n", ":3: expected 2 fields; got 3: '2|y|z|'"),
        ("id|name|\n1|x|\n2|unfinished\n", ":3: expected 2 fields; got 1"),
    ],
)
def test_bad_files_name_the_file_and_line(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "Factions.csv"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CsvError) as caught:
        read_table(path, ("id", "name"))
    assert str(caught.value).startswith(str(path)) and message in str(caught.value)


def test_missing_and_unreadable_files(tmp_path: Path) -> None:
    with pytest.raises(CsvError, match=r"Nope\.csv: no such file"):
        read_table(tmp_path / "Nope.csv", ())
    (tmp_path / "Bad.csv").write_bytes(b"id|\n\xff\xfe|\n")
    with pytest.raises(CsvError, match=r"Bad\.csv: cannot read"):
        read_table(tmp_path / "Bad.csv", ())


# --- weapon rows ------------------------------------------------------------------------------

ROW = {"name": "Gun", "type": "Ranged", "A": "2", "BS_WS": "3", "S": "4", "AP": "-1", "D": "1"}


@pytest.mark.parametrize(
    ("change", "column", "problem"),
    [
        ({"S": "x"}, "S", "Weapon.strength"),
        ({"BS_WS": "N/A"}, "BS_WS", "'N/A' is only for [TORRENT] weapons"),
        ({"type": "Psychic"}, "type", "expected Ranged or Melee; got 'Psychic'"),
        ({"D": "D"}, "D", "Weapon.damage"),
        ({"A": "-"}, "A", "Weapon.attacks"),
    ],
)
def test_weapon_rows_that_make_no_weapon(change: dict[str, str], column: str, problem: str) -> None:
    with pytest.raises(WeaponRowError) as caught:
        weapon_from_row({**ROW, "description": "", **change})
    assert caught.value.column == column and problem in str(caught.value)


def test_a_random_strength_is_read() -> None:
    assert str(weapon_from_row({**ROW, "description": "", "S": "2D6"}).strength) == "2D6"


def test_weapon_rows_as_printed() -> None:
    weapon = weapon_from_row({**ROW, "BS_WS": "3+", "AP": "-0", "description": "[SNAGGED]"})
    assert (weapon.skill, weapon.ap, weapon.unknown_abilities) == (3, 0, ("SNAGGED",))
    blade = weapon_from_row({**ROW, "type": "Melee", "A": "D6+1 ", "description": ""})
    assert blade.melee and blade.attacks == parse_dice("D6+1")


def test_wargear_names_stay_distinct() -> None:
    gun = mh.Weapon("Hammer", 1, 3, 8, -1, 2)
    swing = mh.Weapon("Hammer", 4, 3, 8, -1, 2, melee=True)
    first = {"line_in_wargear": "1"}
    gear = group_wargear([(first, gun), (first, swing), (first, gun), (first, swing)])
    assert [g.name for g in gear] == ["Hammer", "Hammer (melee)"]
    odd = mh.Weapon("Hammer", 2, 3, 8, -1, 2, melee=True)
    names = [g.name for g in group_wargear([(first, gun), (first, swing), (first, odd)])]
    assert names == ["Hammer", "Hammer (melee)", "Hammer (melee)'"]


# --- prose: composition, points, loadouts -----------------------------------------------------


def test_composition_alternatives_and_caps() -> None:
    lines = [
        "One of the following:",
        "1 Sergeant and 9 Troopers",
        "1 Sergeant, 7 Troopers and 1 Heavy Weapons Team",
        "10 MODELS MAXIMUM",
    ]
    counts = [(c.name, c.low, c.high, c.default) for c in composition(lines)]
    assert counts == [
        ("Sergeant", 1, 1, 1),
        ("Troopers", 7, 9, 9),
        ("Heavy Weapons Team", 0, 1, 0),
    ]
    guard = composition(["5 Custodian Guard with Adrasite and Pyrithite Spears"])
    assert [(c.name, c.low) for c in guard] == [
        ("Custodian Guard with Adrasite and Pyrithite Spears", 5)
    ]
    assert composition(["OR"]) == [] and composition(["A maximum of 10 models."]) == []
    assert composition(["Attack Bike"]) == []  # no count: not a composition line
    either = composition(["2 Spanners and 1 Grot", "OR", "3 Spanners"])
    assert [(c.name, c.low, c.high, c.default) for c in either] == [
        ("Spanners", 2, 3, 2),
        ("Grot", 0, 1, 1),
    ]


def test_priced_sizes() -> None:
    assert points("10 models") == 10
    assert points("1 Spanner and 4 Burna Boyz") == 5
    assert points("1 model (<ky>AGENTS</ky> Detachment)") == 1
    assert points("Attack Bike") is None


def test_loadout_paragraphs() -> None:
    text = (
        "<b>Every model is equipped with:</b> bolt pistol.<br><br>"
        "<b>The Sergeant and 1 other Trooper are equipped with:</b> 2 power swords, shield."
        "<br><br><b>Designer’s Note:</b> a note."
    )
    assert loadout(text) == [
        ((), [(1, "bolt pistol")]),
        (("Sergeant", "Trooper"), [(2, "power swords"), (1, "shield")]),
    ]


# --- the committed slice ----------------------------------------------------------------------


def test_the_slice_reads_whole(library: DatasheetLibrary) -> None:
    report = library.report
    assert (len(library), report.datasheets, report.weapons, report.models) == (10, 10, 40, 13)
    assert report.source == str(SLICE)
    assert {t: len(e) for t, e in report.unknown_abilities.items()} == {
        "TETHERED": 1,
        "SNARED": 1,
        "ECHOING TOLL": 1,
        "VOID\u2019S HUNGER": 2,
        "STAR-GOD'S WRATH": 1,
    }
    assert report.unknown_abilities["TETHERED"] == ["Harpoon Hulk / Gravity harpoon"]
    assert [(s.entry, s.source.rsplit("/", 1)[1]) for s in report.skipped] == [
        ("Warp Seer / points", "Datasheets_models_cost.csv:7"),
        ("Plasma Skiffs / points", "Datasheets_models_cost.csv:11"),
        ("Wargear Reference", "Datasheets.csv:13"),
    ]
    assert "the datasheet has no model profile" in report.skipped[2].reason
    # a rule on the attacks against the unit is read as a typed effect (docs/rules.md D37)
    assert ("Harpoon Hulk", "Ablative Hull") not in {(d, a) for d, a, _ in report.not_understood}
    assert [e.text for e in library.get("Harpoon Hulk").effects] == [
        "-1 AP to attacks that target it"
    ]
    assert library.factions == ("Adeptus Mechanicus", "Orks", "T\u2019au Empire")


def test_a_squad_with_a_leader_model(library: DatasheetLibrary) -> None:
    mob = library.get("Grot Mob")
    assert [(m.name, m.min_count, m.max_count, m.weapons) for m in mob.models] == [
        ("Grot Boss", 1, 1, ("Twin stubber", "Boss\u2019s hacker")),
        ("Grots", 9, 19, ("Twin stubber", "Great cleaver")),
    ]
    assert mob.points == ((10, 55), (20, 110)) and mob.points_for(15) == 55
    unit = mob.unit(20)
    assert [(g.count, g.toughness, g.save, g.wounds) for g in unit.groups] == [
        (1, 4, 5, 2),
        (19, 2, 7, 1),
    ]
    assert unit.keywords == ("ORKS", "INFANTRY", "GROTS")
    assert [a.name for a in mob.not_understood] == ["Toughness 4*"]


def test_abilities_become_defences(library: DatasheetLibrary) -> None:
    boss = library.get("Squig Boss on Crusher", faction="Orks")
    assert (boss.models[0].fnp, boss.models[0].invuln, boss.models[0].character) == (5, 5, True)
    assert [a.name for a in boss.abilities] == ["Feel No Pain 5+", "Squig Rider"]
    seer = library.get("Warp Seer")
    assert seer.stealth and seer.unit().stealth and seer.models[0].invuln == 4
    # "While this model is within range of an objective marker, it has a 4+ invulnerable
    # save.": a save on a named state, applied when the situation assumes it (D37)
    assert seer.not_understood == ()
    assert [e.text for e in seer.effects] == ["4+ invulnerable save if objective"]
    hulk = library.get("Harpoon Hulk").models[0]
    assert hulk.damage_reduction == 1  # its text wraps onto a second line in the export
    assert library.get("Wheel Engine").unit().groups[0].halve_damage
    hero = library.get("Hero Bodyguard")
    assert [(m.name, m.invuln, m.character) for m in hero.models] == [
        ("Hero", 4, True),
        ("Bodyguards", None, False),
    ]
    assert [a.name for a in hero.abilities] == ["Ward Shield"]  # wargear: not a defence


def test_footnoted_invulnerable_saves(library: DatasheetLibrary) -> None:
    walker = library.get("Rotor Walker")
    assert walker.models[0].invuln is None
    assert [getattr(a, "reason", "") for a in walker.not_understood] == [
        "conditional: ranged attacks only"
    ]
    skiffs = library.get("Plasma Skiffs")
    assert [m.invuln for m in skiffs.models] == [6, 6]
    assert len(skiffs.not_understood) == 1  # listed once for the datasheet


def test_wargear_profiles_and_copies(library: DatasheetLibrary) -> None:
    seer = library.get("Warp Seer")
    assert [(g.name, len(g.profiles)) for g in seer.wargear] == [
        ("Lance of light", 1),
        ("Judgement bolter", 1),
        ("Warp lash", 2),
    ]
    walker = library.get("Rotor Walker")
    assert walker.models[0].weapons == (
        "Heavy rotor cannon",
        "Heavy rotor cannon #2",
        "Hand flamer",
    )
    guns = [w for g in walker.attacker().models for w in g.weapons]
    assert [w.name for w in guns] == ["Heavy rotor cannon", "Heavy rotor cannon #2", "Hand flamer"]
    assert guns[2].skill == 2 and guns[2].abilities_text == "[PISTOL], [TORRENT]"
    wheel = library.get("Wheel Engine")
    assert [w.name for w in wheel.gear("Wheel of fate").profiles][1] == "Wheel of fate \u2013 frost"
    (ranged,) = [lo for lo in wheel.loadouts() if lo.name == "Wheel Engine (ranged)"]
    assert isinstance(ranged, AttackOptions)
    assert any("Wheel of fate: Wheel of fate \u2013 void" in o.name for o in ranged.options)


def test_sizes_alternatives_and_prices(library: DatasheetLibrary) -> None:
    skiffs = library.get("Plasma Skiffs")
    assert [(m.name, m.min_count, m.max_count, m.default_count) for m in skiffs.models] == [
        ("Skiff Captain", 1, 2, 1),
        ("Skiff Riders", 2, 4, 2),
    ]
    assert skiffs.points == ((3, 90), (6, 180)) and skiffs.target(6).points == 180
    hunters = library.get("Stake Hunters")
    assert hunters.sizes == range(5, 11) and hunters.target().points == 60
    seer = library.get("Warp Seer")
    assert seer.points == ((1, 70),) and seer.models[0].name == "Warp Seer"


def test_a_datasheet_repeated_for_another_faction(library: DatasheetLibrary) -> None:
    both = [d for d in library if d.name == "Squig Boss on Crusher"]
    assert [d.faction for d in both] == ["Orks", "T\u2019au Empire"]
    assert both[0].wargear == both[1].wargear  # listed once in the export, shared
    with pytest.raises(mh.OptionError, match="2 datasheets are named"):
        library.get("Squig Boss on Crusher")
    assert library.get("squig boss on crusher", faction="t'au empire") is both[1]


def test_strict_makes_an_unknown_weapon_ability_an_error() -> None:
    with pytest.raises(CsvError, match=r"Datasheets_wargear\.csv:\d+: column 'description': "):
        read_wahapedia(SLICE, strict=True)


# --- bad exports ------------------------------------------------------------------------------


def test_a_missing_folder_or_file(tmp_path: Path) -> None:
    with pytest.raises(CsvError, match="no such folder"):
        read_wahapedia(tmp_path / "nothing")
    folder = copy_slice(tmp_path)
    (folder / "Datasheets_keywords.csv").unlink()
    with pytest.raises(CsvError, match=r"Datasheets_keywords\.csv: no such file"):
        read_wahapedia(folder)
    for optional in ("Factions.csv", "Abilities.csv", "Datasheets_abilities.csv"):
        (folder / optional).unlink()
    (folder / "Datasheets_keywords.csv").write_text("datasheet_id|keyword|model|\n")
    library = read_wahapedia(folder)
    assert library.factions == ("AdM", "ORK", "TAU") and library.get("Warp Seer").abilities == ()


def test_repeated_rows_and_empty_abilities(tmp_path: Path) -> None:
    folder = copy_slice(tmp_path)
    sheets = folder / "Datasheets.csv"
    lines = sheets.read_text(encoding="utf-8").splitlines(keepends=True)
    sheets.write_text("".join([*lines, lines[1]]), encoding="utf-8")  # a datasheet twice
    abilities = folder / "Datasheets_abilities.csv"
    with abilities.open("a", encoding="utf-8") as handle:
        handle.write("000000109|1|000009999||||Core||\n")  # refers to no ability, no name
    library = read_wahapedia(folder)
    assert len(library) == 10 and library.get("Stake Hunters").abilities == ()


def test_a_malformed_row_is_one_error(tmp_path: Path) -> None:
    folder = copy_slice(tmp_path)
    path = folder / "Datasheets_models.csv"
    path.write_text(path.read_text(encoding="utf-8") + '000000109|2|Extra|6"|3|\n')
    with pytest.raises(CsvError, match=r"Datasheets_models\.csv:15: expected 13 fields; got 5"):
        read_wahapedia(folder)


def test_bad_values_skip_the_datasheet_with_the_reason(tmp_path: Path) -> None:
    folder = copy_slice(tmp_path)
    path = folder / "Datasheets_models.csv"
    path.write_text(path.read_text(encoding="utf-8").replace('6"|3|5+|', '6"|-|5+|'))
    library = read_wahapedia(folder)
    assert "Stake Hunters" not in [d.name for d in library]
    (skip,) = [s for s in library.report.skipped if s.entry == "Stake Hunters"]
    assert skip.reason == "Datasheets_models.csv:13: column 'T': expected a whole number; got '-'"
    path.write_text(
        path.read_text(encoding="utf-8").replace('|HERO|6"|4|2+|4|', '|HERO|6"|4|2+|x|')
    )
    (skip,) = [s for s in read_wahapedia(folder).report.skipped if s.entry == "Hero Bodyguard"]
    assert skip.reason.endswith("column 'inv_sv': expected a roll such as '3+'; got 'x'")
    wargear = folder / "Datasheets_wargear.csv"
    text = wargear.read_text(encoding="utf-8")
    wargear.write_text(text.replace("|Melee|Melee|5|2|8|-1|2|", "|Melee|Melee|5|2|*|-1|2|", 1))
    report = read_wahapedia(folder).report
    assert report.weapons == 39
    assert [s.reason for s in report.skipped if "Great cleaver" in s.entry] == [
        "column 'S': Weapon.strength: cannot read dice expression '*' at position 0: unexpected '*'"
    ]


# --- the full export --------------------------------------------------------------------------

#: The datasheet-specific weapon rules of the export, by the number of weapon rows.
UNKNOWN_TOKENS = {
    "CONVERSION": 11,
    "C'TAN POWER": 3,
    "BUBBLECHUKKA": 3,
    "SNAGGED": 2,
    "REVERBERATING SUMMONS": 2,
    "PSYCHIC ASSASSIN": 1,
    "PLASMA WARHEAD": 1,
    "LINKED FIRE": 1,
    "IMPALED": 1,
    "HOOKED": 1,
    "HARPOONED": 1,
    "DEAD CHOPPY": 1,
}


def test_coverage_of_the_full_export(shared_data: Path) -> None:
    """Every weapon row gives a Weapon or a listed reason; every datasheet a target Unit,
    read in under 10 s of this process's CPU (the wall clock counts the machine's other
    work too: a parallel test run's other worker)."""
    start = time.process_time()
    library = read_wahapedia(shared_data / "wahapedia-10e")
    elapsed = time.process_time() - start
    report = library.report
    wargear = [s for s in report.skipped if s.source.split(":")[0].endswith("_wargear.csv")]
    unreadable = [s for s in wargear if s.reason.startswith("column")]
    orphans = [s for s in wargear if s.reason.startswith("no datasheet has the id")]
    assert len(unreadable) + len(orphans) == len(wargear)
    assert report.weapons + len(unreadable) == 6768
    # every row reads: the three with a random Strength (2D6, D6+6) too (docs/rules.md D42)
    assert (report.weapons, len(unreadable), len(orphans)) == (6768, 0, 134)
    assert {t: len(rows) for t, rows in report.unknown_abilities.items()} == UNKNOWN_TOKENS
    skipped_sheets = [s.entry for s in report.skipped if s.source.split(":")[0].endswith("s.csv")]
    assert (len(library), skipped_sheets) == (1623, ["Example Wargear"])
    units = [d.unit() for d in library]  # every datasheet read gives a target unit
    assert len(units) == 1623 and report.models == 2015
    armed = sum(1 for d in library if any(m.weapons for m in d.models))
    assert armed == 1590  # the rest carry nothing or weapons the export does not list
    assert len(library.factions) == 25 and elapsed < 10
    listed = Counter(name for _, name, _ in report.not_understood)
    assert listed["Invulnerable Save (5+*)"] == 42 and sum(listed.values()) == 58
    # halved Attacks while damaged: read now, under the damaged state (D43)
    assert listed["Damaged: 1-6 wounds remaining"] == 0


@pytest.mark.parametrize("items", ["999999999 twin stubbers", "; ".join(["twin stubber"] * 20_000)])
def test_a_loadout_of_absurd_copies_skips_its_datasheet_at_once(tmp_path: Path, items: str) -> None:
    export = tmp_path / "export"
    shutil.copytree(SLICE, export)
    sheets = export / "Datasheets.csv"
    text = sheets.read_text(encoding="utf-8-sig")
    line = "<b>This model is equipped with:</b> kombi-caster; twin stubber; biter squig; great"
    assert line in text
    sheets.write_text(text.replace(line, f"<b>This model is equipped with:</b> {items}; great"))
    started = time.monotonic()
    library = read_wahapedia(export)
    assert time.monotonic() - started < 10
    assert "Squig Boss on Crusher" not in [d.name for d in library.datasheets]
    reasons = {s.entry: s.reason for s in library.report.skipped}
    assert "copies of 'Twin stubber': at most 20" in reasons["Squig Boss on Crusher"]
