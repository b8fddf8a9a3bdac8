"""The standard target suite: bundled data, every entry valid, lookup, custom suites."""

from __future__ import annotations

import json
import tomllib
from importlib import resources
from pathlib import Path

import pytest

import mathhammer as mh
from mathhammer import targets
from mathhammer.errors import InputFileError
from mathhammer.units.targets import Target

ROOT = Path(__file__).resolve().parents[1]

EXPECTED = [
    "Horde infantry",
    "Line infantry",
    "Elite infantry",
    "Heavy elite infantry",
    "Cavalry",
    "Monster",
    "Vehicle",
    "Super-heavy vehicle",
    "Character-led unit",
]

#: Names from published games that a generic suite must not use.
TRADEMARKS = (
    "marine",
    "intercessor",
    "terminator",
    "custode",
    "ork",
    "necron",
    "eldar",
    "aeldari",
    "tyranid",
    "gaunt",
    "guardsm",
    "knight",
    "astartes",
    "warhammer",
    "land raider",
)


def test_the_suite_is_package_data_shipped_by_pip() -> None:
    data = resources.files("mathhammer").joinpath("data", "targets.json")
    assert data.is_file()
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    shipped = pyproject["tool"]["setuptools"]["package-data"]["mathhammer"]
    assert "data/*.json" in shipped


def test_the_suite_has_the_standard_targets_in_order() -> None:
    assert targets.names() == EXPECTED
    assert [t.name for t in targets.STANDARD] == EXPECTED
    assert all(isinstance(t, Target) for t in targets.STANDARD)


@pytest.mark.parametrize("target", targets.STANDARD, ids=lambda t: t.name)
def test_every_entry_is_valid(target: Target) -> None:
    assert isinstance(target.unit, mh.Unit)
    assert target.unit.keywords, "every target has keywords"
    assert isinstance(target.points, int) and target.points > 0
    assert target.group_points is not None and sum(target.group_points) == target.points
    assert all(p > 0 for p in target.group_points)
    text = target.description
    assert text and "\n" not in text and len(text) <= 120 and text.endswith(".")
    words = f"{target.name} {text} {' '.join(target.unit.keywords)}".lower()
    assert not [w for w in TRADEMARKS if w in words]
    # every entry can be attacked by the exact engine
    gun = mh.Weapon("Gun", attacks=10, skill=3, strength=5, ap=-1, damage="D3")
    res = mh.attack(gun, target.unit)
    assert abs(float(res.killed.probabilities.sum()) - 1.0) < 1e-12


def test_the_suite_covers_the_archetypes() -> None:
    get = targets.get
    horde, line = get("Horde infantry").unit, get("Line infantry").unit
    assert horde.models >= 20 and horde.groups[0].wounds == 1
    assert line.groups[0].save == 3 and line.has_keyword("INFANTRY")
    assert get("Elite infantry").unit.groups[0].invuln is not None
    heavy = get("Heavy elite infantry").unit.groups[0]
    assert heavy.save == 2 and heavy.invuln is not None
    assert get("Cavalry").unit.has_keyword("MOUNTED")
    assert get("Monster").unit.has_keyword("MONSTER")
    assert get("Vehicle").unit.has_keyword("VEHICLE")
    super_heavy = get("Super-heavy vehicle").unit
    assert super_heavy.has_keyword("VEHICLE") and super_heavy.total_wounds > 20
    led = get("Character-led unit")
    body, leader = led.unit.groups
    assert not body.character and leader.character
    assert (leader.save, leader.invuln) != (body.save, body.invuln), "its own save"
    assert led.model_points is not None and led.model_points[1] > led.model_points[0]


def test_lookup_ignores_case_hyphens_and_underscores() -> None:
    assert targets.get("SUPER HEAVY_vehicle") is targets.get("Super-heavy vehicle")
    assert targets.get("  line   infantry ").name == "Line infantry"


def test_an_unknown_name_lists_the_names() -> None:
    with pytest.raises(mh.ProfileError) as info:
        targets.get("Tank")
    message = str(info.value)
    assert message.startswith("target must be one of ['Horde infantry', ")
    assert message.endswith("; got 'Tank'")
    assert all(repr(name) in message for name in EXPECTED)
    with pytest.raises(ValueError, match="got 3"):
        targets.get(3)  # type: ignore[arg-type]


def test_target_records_validate_themselves() -> None:
    unit = targets.get("Character-led unit").unit
    with pytest.raises(mh.ProfileError, match=r"group_points must be one entry per group \(2\)"):
        Target(unit, 180, group_points=(180,))
    with pytest.raises(mh.ProfileError, match=r"must be summing to points \(100\)"):
        Target(unit, 100, group_points=(50, 40))
    with pytest.raises(mh.ProfileError, match=r"Target.points must be an integer >= 0; got -5"):
        Target(unit, -5)
    with pytest.raises(mh.ProfileError, match="Target.unit must be a Unit"):
        Target("Squad")  # type: ignore[arg-type]
    assert Target(unit, group_points=(100, 80)).points == 180
    assert Target(unit).model_points is None


def test_points_destroyed_prices_each_group() -> None:
    led = targets.get("Character-led unit")
    gun = mh.Weapon("Heavy gun", attacks=1, skill=3, strength=5, ap=-1, damage="D6")
    res = mh.attack([(gun, 20)], led.unit)
    expected = 100 / 5 * res.killed_in("Bodyguard").mean() + 80 * res.killed_in("Leader").mean()
    assert led.points_destroyed(res) == pytest.approx(expected, abs=1e-12)
    assert Target(led.unit).points_destroyed(res) is None


def _write(tmp_path: Path, data: object) -> Path:
    path = tmp_path / "suite.json"
    path.write_text(json.dumps(data))
    return path


def test_load_reads_a_suite_of_your_own(tmp_path: Path) -> None:
    entry = {
        "name": "Squad",
        "description": "Five W2 troops.",
        "keywords": ["INFANTRY"],
        "stealth": True,
        "groups": [{"count": 5, "toughness": 4, "save": 3, "wounds": 2, "fnp": 6}],
    }
    (squad,) = targets.load(_write(tmp_path, {"targets": [entry]}))
    assert squad.name == "Squad" and squad.points is None and squad.unit.stealth
    assert squad.unit.groups[0].fnp == 6
    assert targets.get("squad", [squad]) is squad


def _group(**fields: object) -> dict[str, object]:
    return {"count": 1, "toughness": 4, "save": 3, "wounds": 1} | fields


def _entry(*groups: dict[str, object], **fields: object) -> dict[str, object]:
    return {"name": "A", "groups": list(groups)} | fields


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"targets": []}, r"suite.json: targets must be a non-empty list; got \[\]"),
        ({"targets": [1]}, r"suite.json: targets\[0\] must be an object; got 1"),
        ({"targets": [_entry(_group(wounds=0))]}, r"targets\[0\] \('A'\): .*wounds"),
        (
            {"targets": [_entry(_group(), colour="red")]},
            r"targets\[0\] \('A'\): fields must be among .*; got \['colour'\]",
        ),
        (
            {"targets": [_entry(_group(armour=2))]},
            r"groups\[0\] fields must be among .*; got \['armour'\]",
        ),
        (
            {"targets": [_entry(_group(count=2, points=20), _group(character=True))]},
            "points must be given for every group or for none",
        ),
        (
            {"targets": [_entry(_group()), _entry(_group())]},
            r"target names must be unique; got \['A'\]",
        ),
    ],
)
def test_a_bad_suite_names_the_entry(tmp_path: Path, data: object, message: str) -> None:
    with pytest.raises(mh.ProfileError, match=message):
        targets.load(_write(tmp_path, data))


def test_a_bad_entry_keeps_its_class_and_fields() -> None:
    order = {"targets": [_entry(_group(character=True), _group())]}
    with pytest.raises(mh.AllocationOrderError, match=r"^suite: targets\[0\] \('A'\): "):
        targets.parse_suite(order)
    with pytest.raises(mh.ProfileError) as info:
        targets.parse_suite({"targets": [_entry(_group(wounds=0))]})
    error = info.value
    assert (error.field, error.constraint, error.value) == (
        "ModelGroup.wounds",
        "an integer >= 1",
        0,
    )


def test_a_target_may_say_where_it_was_read_and_stays_equal() -> None:
    unit = targets.get("Line infantry").unit
    assert Target(unit, 180, source="t.csv:2") == Target(unit, 180)
    with pytest.raises(mh.ProfileError, match="Target.source must be a string or None; got 2"):
        Target(unit, source=2)  # type: ignore[arg-type]


def test_a_suite_that_is_not_json_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "suite.json"
    path.write_text('{"targets": [\n  {"name": }\n]}')
    with pytest.raises(InputFileError, match=r"suite.json:2: not valid JSON") as info:
        targets.load(path)
    assert info.value.file == str(path) and info.value.line == 2 and info.value.column is None
    with pytest.raises(InputFileError, match=r"absent.json: no such file"):
        targets.load(tmp_path / "absent.json")
