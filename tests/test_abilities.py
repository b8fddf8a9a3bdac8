"""The ability parser: datasheet text as printed -> typed abilities; duplicates; keywords."""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterable
from pathlib import Path

import pytest

import mathhammer as mh
from mathhammer.abilities import (
    Anti,
    Blast,
    Cleave,
    DevastatingWounds,
    ExtraAttacks,
    Hazardous,
    Heavy,
    IgnoresCover,
    IndirectFire,
    Lance,
    LethalHits,
    Melta,
    NoEffect,
    Precision,
    RapidFire,
    SustainedHits,
    Torrent,
    TwinLinked,
    choose,
    parse_abilities,
)
from mathhammer.io.wahapedia import WEAPON_COLUMNS, read_table

WARGEAR = Path("wahapedia-10e") / "Datasheets_wargear.csv"
"""The weapon profiles of the Wahapedia export, under the shared data or the test data."""
TEST_DATA = Path(__file__).resolve().parent / "data"


def one(text: str) -> mh.abilities.Ability:
    found, unknown = parse_abilities(text)
    assert unknown == () and len(found) == 1, (found, unknown)
    return found[0]


# A dice-valued ability converts an int or dice text with parse_dice in __post_init__; its
# field is annotated with the stored Dice, hence the ignores where a test passes either.
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("[SUSTAINED HITS 1]", SustainedHits.of(1)),
        ("sustained hits 2", SustainedHits.of(2)),
        ("[SUSTAINED HITS D3]", SustainedHits.of("D3")),
        ("[LETHAL HITS]", LethalHits()),
        ("[DEVASTATING WOUNDS]", DevastatingWounds()),
        ("[ANTI-INFANTRY 4+]", Anti(keyword="INFANTRY", threshold=4)),
        ("anti-fly 2+", Anti(keyword="FLY", threshold=2)),
        ("[ANTI-EPIC HERO 4+]", Anti(keyword="EPIC HERO", threshold=4)),
        ("[TWIN-LINKED]", TwinLinked()),
        ("[TORRENT]", Torrent()),
        ("[BLAST]", Blast(value=1)),
        ("[BLAST 2]", Blast(value=2)),
        ("[CLEAVE 1]", Cleave(value=1)),
        ("[RAPID FIRE 1]", RapidFire.of(1)),
        ("[RAPID FIRE D6]", RapidFire.of("D6")),
        ("[RAPID FIRE D6+3]", RapidFire.of("D6+3")),
        ("[MELTA 2]", Melta.of(2)),
        ("[MELTA D3]", Melta.of("D3")),
        ("[HEAVY]", Heavy()),
        ("[LANCE]", Lance()),
        ("[IGNORES COVER]", IgnoresCover()),
        ("[PRECISION]", Precision()),
        ("[HAZARDOUS]", Hazardous()),
        ("[INDIRECT FIRE]", IndirectFire()),
        ("[EXTRA ATTACKS]", ExtraAttacks()),
        ("[ASSAULT]", NoEffect(name="ASSAULT")),
        ("[PISTOL]", NoEffect(name="PISTOL")),
        ("[CLOSE-QUARTERS]", NoEffect(name="CLOSE-QUARTERS")),
        ("[PSYCHIC]", NoEffect(name="PSYCHIC")),
        ("[ONE SHOT]", NoEffect(name="ONE SHOT")),
        ("[LETHAL HITS: VEHICLE]", LethalHits(keywords=("VEHICLE",))),
        (
            "[SUSTAINED HITS 1: INFANTRY/BEASTS]",
            SustainedHits.of(1, keywords=("INFANTRY", "BEASTS")),
        ),
        ('<a href="/rules#Anti">anti-vehicle 4+</a>', Anti(keyword="VEHICLE", threshold=4)),
        ("  [ twin-linked ] ", TwinLinked()),
    ],
)
def test_tokens(text: str, expected: mh.abilities.Ability) -> None:
    assert one(text) == expected


def test_printing_round_trips() -> None:
    text = (
        "[SUSTAINED HITS D3], [LETHAL HITS: VEHICLE], [ANTI-FLY 2+], [BLAST], [RAPID FIRE D6+1], "
        "[MELTA 2], [ASSAULT]"
    )
    found, _ = parse_abilities(text)
    assert ", ".join(str(a) for a in found) == text
    assert (
        parse_abilities(text)[0]
        == parse_abilities(text.lower().replace("[", "").replace("]", ""))[0]
    )


def test_separators_html_and_stray_full_stops() -> None:
    text = '<a href="x">assault</a>, <a href="y">heavy</a>. <a href="z">lethal hits</a>;\n[TORRENT]'
    found, unknown = parse_abilities(text)
    assert [str(a) for a in found] == ["[ASSAULT]", "[HEAVY]", "[LETHAL HITS]", "[TORRENT]"]
    assert unknown == ()


def test_unknown_tokens_are_reported_not_raised() -> None:
    found, unknown = parse_abilities("[SNAGGED], [LETHAL HITS], [RAPID FIRE X], [BLAST D3]")
    assert [str(a) for a in found] == ["[LETHAL HITS]"]
    assert unknown == ("SNAGGED", "RAPID FIRE X", "BLAST D3")


def test_typed_abilities_for_programmatic_use() -> None:
    sustained = SustainedHits.of("D3")
    w = mh.Weapon("w", 2, 3, 4, 0, 1, abilities=[sustained, "lethal hits"])
    assert w.abilities_text == "[SUSTAINED HITS D3], [LETHAL HITS]"
    assert w == mh.Weapon("w", 2, 3, 4, 0, 1, abilities="[SUSTAINED HITS D3], [LETHAL HITS]")
    assert mh.Weapon("w", 2, 3, 4, 0, 1, abilities=Torrent()).abilities == (Torrent(),)


def test_invalid_typed_abilities() -> None:
    with pytest.raises(mh.ProfileError, match="Anti.threshold must be from 2 to 6; got 7"):
        Anti(keyword="INFANTRY", threshold=7)
    with pytest.raises(mh.DiceSyntaxError):
        SustainedHits.of("D")


def resolve(found: Iterable[mh.abilities.Ability], keywords: list[str]) -> dict[str, object]:
    """The chosen abilities by kind."""
    return {a.kind: a for a in choose(found, keywords)}


def test_duplicates_resolve_to_the_best_applicable() -> None:
    found, _ = parse_abilities(
        "[SUSTAINED HITS 1], [SUSTAINED HITS D3], [SUSTAINED HITS 2: VEHICLE], "
        "[ANTI-INFANTRY 4+], [ANTI-VEHICLE 2+], [ANTI-INFANTRY 3+: CHARACTER], [BLAST], [BLAST 2]"
    )
    infantry = resolve(found, ["INFANTRY"])
    assert {k: str(a) for k, a in infantry.items()} == {
        "SUSTAINED HITS": "[SUSTAINED HITS D3]",  # mean 2 beats 1; D3 ties 2 on mean, wins on max
        "ANTI": "[ANTI-INFANTRY 4+]",
        "BLAST": "[BLAST 2]",
    }
    vehicle = resolve(found, ["VEHICLE"])
    assert str(vehicle["ANTI"]) == "[ANTI-VEHICLE 2+]"
    assert str(vehicle["SUSTAINED HITS"]) == "[SUSTAINED HITS D3]"
    character = resolve(found, ["INFANTRY", "CHARACTER"])
    assert str(character["ANTI"]) == "[ANTI-INFANTRY 3+: CHARACTER]"


def test_keyword_restriction() -> None:
    lethal_vs_vehicles = LethalHits(keywords=("VEHICLE",))
    assert lethal_vs_vehicles.applies_to(["VEHICLE", "WALKER"])
    assert not lethal_vs_vehicles.applies_to(["INFANTRY"])
    assert resolve([lethal_vs_vehicles], ["INFANTRY"]) == {}
    assert not Anti(keyword="FLY", threshold=2).applies_to(["INFANTRY"])


def test_result_says_which_instance_was_used() -> None:
    w = mh.Weapon("w", 4, 3, 4, 0, 1, "[SUSTAINED HITS 1], [SUSTAINED HITS 2: VEHICLE], [ASSAULT]")
    infantry = mh.Unit.of("i", 5, 4, 3, 1, keywords="INFANTRY")
    tank = mh.Unit.of("t", 1, 10, 3, 10, keywords="VEHICLE")
    assert mh.attack(w, infantry).pools[0].abilities == ("[SUSTAINED HITS 1]",)
    assert mh.attack(w, tank).pools[0].abilities == ("[SUSTAINED HITS 2: VEHICLE]",)


#: Datasheet-specific rules in the export: not core weapon abilities, so they are ignored
#: with one warning naming them. [CONVERSION] is a 10th-edition core ability that the 11th
#: edition dropped.
DATASHEET_SPECIFIC = {
    "BUBBLECHUKKA",
    "C'TAN POWER",
    "CONVERSION",
    "DEAD CHOPPY",
    "HARPOONED",
    "HOOKED",
    "IMPALED",
    "LINKED FIRE",
    "PLASMA WARHEAD",
    "PSYCHIC ASSASSIN",
    "REVERBERATING SUMMONS",
    "SNAGGED",
}


# The committed slice: rows in the export's format (invented weapons, real markup) with its
# quirks: a byte-order mark, a trailing "|" on every line, HTML links, stray full stops,
# repeated profiles, "N/A" BS, Unicode apostrophes and datasheet-specific rules.
SLICE_UNKNOWN = {"ECHOING TOLL", "SNARED", "STAR-GOD'S WRATH", "TETHERED", "VOID\u2019S HUNGER"}


def read_weapon_rows(path: Path) -> tuple[list[dict[str, str]], set[str]]:
    """Every weapon row of a Wahapedia wargear export, checked, and the unknown tokens."""
    rows = [row.values for row in read_table(path, WEAPON_COLUMNS).rows]
    unknown: set[str] = set()
    for row in rows:
        found, tokens = parse_abilities(row["description"])
        unknown.update(tokens)
        # every printed token is either recognised or reported, none is lost
        pieces = re.split(r"[,.]", re.sub(r"<[^>]*>", "", row["description"]))
        assert len(found) + len(tokens) == sum(1 for p in pieces if p.strip()), row
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", mh.UnknownAbilityWarning)
            weapon = mh.Weapon(row["name"], 1, 3, 4, 0, 1, abilities=row["description"])
        assert weapon.abilities == found and weapon.unknown_abilities == tokens
    return rows, unknown


def test_the_committed_slice_keeps_the_export_quirks() -> None:
    raw = (TEST_DATA / WARGEAR).read_bytes()
    assert raw.startswith("\ufeff".encode())
    lines = raw.decode("utf-8-sig").splitlines()
    assert all(line.endswith("|") for line in lines)
    bodies = [line.split("|", 2)[2] for line in lines[1:]]  # without datasheet_id and line
    assert len(set(bodies)) < len(bodies)
    text = "\n".join(lines)
    assert all(mark in text for mark in ('<a href="', "</a>. ", "|N/A|", "\u2019", "|D6 |"))


def test_every_weapon_row_of_the_committed_slice() -> None:
    rows, unknown = read_weapon_rows(TEST_DATA / WARGEAR)
    assert len(rows) == 40
    assert unknown == SLICE_UNKNOWN


def test_every_weapon_row_of_the_wahapedia_export(shared_data: Path) -> None:
    rows, unknown = read_weapon_rows(shared_data / WARGEAR)
    assert len(rows) == 6768
    assert unknown == DATASHEET_SPECIFIC


@pytest.mark.parametrize("value", ["2", 1.5, 0, -3, True])
def test_numbered_abilities_need_a_positive_integer(value: object) -> None:
    with pytest.raises(mh.ProfileError, match="Blast.value must be an integer >= 1"):
        Blast(value=value)  # type: ignore[arg-type]


def test_a_profile_only_against_some_targets_makes_no_attack_against_others() -> None:
    # docs/rules.md D38: the pool is not declared against a target its keywords rule
    # out, in either engine; against one they allow it is the plain profile
    hunter = mh.Weapon("Hammer - Hunter", 3, 3, 12, -2, 3, "[ONLY AGAINST: MONSTER/VEHICLE]")
    plain = hunter.replace(abilities=())
    standard = mh.Weapon("Hammer - Standard", 3, 3, 7, -2, 2)
    boyz = mh.Unit.of("Boyz", 10, 5, 5, 1, keywords="INFANTRY")
    truck = mh.Unit.of("Truck", 1, 9, 4, 10, keywords="VEHICLE")
    assert mh.attack([(hunter, 5)], boyz).killed.pmf(0) == 1.0
    assert mh.simulate([(hunter, 5)], boyz, trials=500, rng=1).killed.mean() == 0.0
    both = mh.attack([(hunter, 5), (standard, 5)], boyz)
    assert both.killed.allclose(mh.attack([(standard, 5)], boyz).killed)
    assert [p.label for p in both.pools] == ["Hammer - Standard x5"]
    assert mh.attack([(hunter, 5)], truck).damage.allclose(mh.attack([(plain, 5)], truck).damage)
    assert str(mh.abilities.parse_token("ONLY AGAINST: MONSTER/VEHICLE")) == str(
        hunter.abilities[0]
    )
    with pytest.raises(mh.ProfileError, match="OnlyAgainst.keywords"):
        mh.abilities.OnlyAgainst()
