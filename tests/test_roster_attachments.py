"""Attached units as a New Recruit export records them (docs/rules.md D35): a leader's
``Leading`` or ``Supporting`` association to its bodyguard makes one target and one
attacking unit, ``leaders=`` replaces what the file records, and what is unusual or wrong
about an attachment is said.

The committed excerpt ``tests/data/rosters/real/orks_11e_attached.json`` is the real export
``11e_orks_breaka_boyz_nr_probhammer.json`` (``../shared/data/rosters``) cut down to its
Bigboss supporting Breaka Boyz, and its Beastboss on Squigosaur; the full-data test checks
that it is that cut.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

import mathhammer as mh
from mathhammer.cli import main
from mathhammer.errors import InputFileError, OptionError
from mathhammer.io import describe
from mathhammer.model.effects import arm

DATA = Path(__file__).parent / "data" / "rosters"
EXCERPT = DATA / "real" / "orks_11e_attached.json"
SOURCE = "rosters/11e_orks_breaka_boyz_nr_probhammer.json"
KEPT = ("Bigboss", "Breaka Boyz", "Beastboss on Squigosaur")


def cut_down(tree: dict[str, Any]) -> dict[str, Any]:
    """The export with only the units :data:`KEPT` in its force."""
    out = copy.deepcopy(tree)
    force = out["roster"]["forces"][0]
    force["selections"] = [s for s in force["selections"] if s["name"] in KEPT]
    return out


def load() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(EXCERPT.read_text(encoding="utf-8"))
    return data


def write(tmp_path: Path, tree: dict[str, Any]) -> Path:
    path = tmp_path / "army.json"
    path.write_text(json.dumps(tree), encoding="utf-8")
    return path


def selection(tree: dict[str, Any], name: str) -> dict[str, Any]:
    found: dict[str, Any] = next(
        s for s in tree["roster"]["forces"][0]["selections"] if s["name"] == name
    )
    return found


def test_the_excerpt_is_the_real_export_cut_down(shared_data: Path) -> None:
    tree = json.loads((shared_data / SOURCE).read_text(encoding="utf-8"))
    assert load() == cut_down(tree)


def test_a_supporting_bigboss_is_one_target_with_his_boyz() -> None:
    army = mh.read_roster(EXCERPT)
    assert army.unit("Breaka Boyz").leaders == ("Bigboss",)
    targets = {t.name: t for t in army.targets()}
    assert list(targets) == ["Beastboss on Squigosaur", "Breaka Boyz led by Bigboss"]
    led = targets["Breaka Boyz led by Bigboss"]
    boyz, boss = army.unit("Breaka Boyz"), army.unit("Bigboss")
    # the bodyguard's groups first, the Bigboss a CHARACTER group of his own; the points
    # of both; every keyword of both (SUPPORT and CHARACTER are the Bigboss's)
    assert [g.character for g in led.unit.groups] == [False, False, True]
    assert led.unit.groups[-1].wounds == boss.unit().groups[0].wounds
    assert (led.points, sum(led.group_points or ())) == (135 + 50, 185)
    assert {"SUPPORT", "CHARACTER", "BREAKA BOYZ"} <= set(led.unit.keywords)
    assert led.unit == mh.attach_leaders(boyz.unit(), boss.unit())
    assert army.report is not None
    assert army.report.attachments == ["Breaka Boyz: Bigboss (supporting)"]
    assert "attached as the file records (1):\n  Breaka Boyz: Bigboss (supporting)" in describe(
        army.report
    )


def test_an_attached_unit_attacks_as_one() -> None:
    army = mh.read_roster(EXCERPT)
    attackers = {a.name: a for a in army.attackers()}
    assert list(attackers) == ["Beastboss on Squigosaur", "Breaka Boyz led by Bigboss"]
    led = attackers["Breaka Boyz led by Bigboss"]
    # one unit: every part's rules on "this unit" arm every part (docs/rules.md D37)
    sheets = [army.unit(n).datasheet for n in ("Breaka Boyz", "Bigboss")]
    shared = list(dict.fromkeys(e for sheet in sheets for e in sheet.effects))
    alone = [sheet.attacker(effects=shared) for sheet in sheets]
    assert led.models == (*alone[0].models, *alone[1].models)
    choppa = led.models[0].weapons[0]
    assert choppa.rules_text == "Sumfin' to Prove (melee: +1 to hit)"
    assert sheets[0].attacker().models[0].weapons[0].rules_text == ""  # the Boyz alone
    loadouts = {x.name: x for x in army.loadouts()}
    assert set(loadouts) == {
        "Beastboss on Squigosaur (ranged)",
        "Beastboss on Squigosaur (melee)",
        "Breaka Boyz led by Bigboss (ranged)",
        "Breaka Boyz led by Bigboss (melee)",
    }
    melee = loadouts["Breaka Boyz led by Bigboss (melee)"]
    assert melee.points == 185
    # its default melee attacks are the Boyz' and the Bigboss's together, the Boyz' armed
    # with the Bigboss's "Sumfin' to Prove": the same distribution as the two attacking one
    # after the other in one attack
    target = mh.Unit.of("Guard", 10, 4, 3, 1)
    parts = {x.name: x for x in army.unit("Breaka Boyz").loadouts()}
    parts |= {x.name: x for x in army.unit("Bigboss").loadouts()}
    boss = army.unit("Bigboss").datasheet.effects
    boyz = [
        (arm(entry[0], boss), entry[1])
        for entry in parts["Breaka Boyz (melee)"].weapons
        if isinstance(entry, tuple)
    ]
    together = [*boyz, *parts["Bigboss (melee)"].weapons]
    context = mh.Context(melee=True)
    got = mh.attack(list(melee.weapons), target, context=context)
    want = mh.attack(together, target, context=context)
    assert got.killed.allclose(want.killed)
    assert len(melee.weapons) == len(together)


def test_leaders_given_replace_what_the_file_records() -> None:
    moved = mh.read_roster(EXCERPT, leaders={"Beastboss on Squigosaur": "Bigboss"})
    assert moved.unit("Breaka Boyz").leaders == ()
    assert moved.unit("Beastboss on Squigosaur").leaders == ("Bigboss",)
    assert moved.report is not None
    assert moved.report.attachments == [
        "Breaka Boyz: Bigboss (supporting)",
        "Beastboss on Squigosaur: Bigboss (given in leaders=)",
    ]
    alone = mh.read_roster(EXCERPT, leaders={"Breaka Boyz": []})
    names = [t.name for t in alone.targets()]
    assert names == ["Beastboss on Squigosaur", "Bigboss", "Breaka Boyz"]


def test_an_attachment_to_a_unit_not_in_the_list_is_said(tmp_path: Path) -> None:
    tree = load()
    selection(tree, "Bigboss")["associations"][0]["to"] = "nowhere"
    army = mh.read_roster(write(tmp_path, tree))
    assert army.unit("Breaka Boyz").leaders == ()
    assert army.report is not None
    (skipped,) = army.report.skipped
    assert skipped.entry == "Bigboss (Supporting)"
    assert "not in the list (selection id 'nowhere'): left a unit of its own" in skipped.reason
    with pytest.raises(InputFileError, match="nowhere.*strict"):
        mh.read_roster(write(tmp_path, tree), strict=True)


def test_two_supporting_units_are_attached_and_said(tmp_path: Path) -> None:
    tree = load()
    second = copy.deepcopy(selection(tree, "Bigboss"))
    second["id"], second["customName"] = "second-boss", "Other Bigboss"
    tree["roster"]["forces"][0]["selections"].append(second)
    army = mh.read_roster(write(tmp_path, tree))
    assert army.unit("Breaka Boyz").leaders == ("Bigboss", "Other Bigboss")
    assert army.report is not None
    assert army.report.attachments[1].startswith("Breaka Boyz: 2 supporting units; the core rules")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"to": None}, "an association must have a 'name' and the id it goes 'to'"),
        ({"name": 3}, "an association must have a 'name'"),
    ],
)
def test_a_malformed_association_is_refused(
    tmp_path: Path, change: dict[str, Any], message: str
) -> None:
    tree = load()
    selection(tree, "Bigboss")["associations"][0].update(change)
    with pytest.raises(InputFileError, match=message):
        mh.read_roster(write(tmp_path, tree))


def test_a_leader_that_is_led_itself_is_refused(tmp_path: Path) -> None:
    tree = load()
    beast = selection(tree, "Beastboss on Squigosaur")
    beast["associations"] = [{"type": "outgoing", "to": selection(tree, "Bigboss")["id"],
                              "name": "Leading"}]  # fmt: skip
    with pytest.raises(InputFileError, match="its attachments: .*lead one other unit"):
        mh.read_roster(write(tmp_path, tree))
    with pytest.raises(OptionError, match="lead one other unit"):  # a caller's own mapping
        mh.read_roster(EXCERPT, leaders={"Bigboss": "Beastboss on Squigosaur"})


def test_the_command_line_reads_the_attachment(tmp_path: Path) -> None:
    out = tmp_path / "report.csv"
    args = ["report", str(EXCERPT), "--targets", str(EXCERPT), "-o", str(out), "--no-progress"]
    assert main(args) == 0
    text = out.read_text(encoding="utf-8")
    assert "Breaka Boyz led by Bigboss (melee)" in text  # the attacking unit
    assert ",Breaka Boyz led by Bigboss," in text  # the target
    replaced = tmp_path / "replaced.csv"
    lead = ["--lead", "Breaka Boyz=Beastboss on Squigosaur"]
    assert main([*args[:-3], "-o", str(replaced), "--no-progress", *lead]) == 0
    assert ",Breaka Boyz led by Beastboss on Squigosaur," in replaced.read_text(encoding="utf-8")


def test_a_profile_restricted_by_its_name_is_chosen_only_where_it_may_be() -> None:
    # docs/rules.md D38: "Smash Hammer - Hunter (Hunter: MONSTER/VEHICLE)" may only
    # target MONSTER or VEHICLE units; against infantry the Standard profile attacks
    army = mh.read_roster(EXCERPT)
    melee = {x.name: x for x in army.loadouts()}["Breaka Boyz led by Bigboss (melee)"]
    names = {
        w.name: w
        for option in getattr(melee, "options", [melee])
        for entry in option.weapons
        for w in [entry[0] if isinstance(entry, tuple) else entry]
    }
    hunter = names["Smash Hammer: Smash Hammer - Hunter"]
    assert str(hunter.abilities[0]) == "[ONLY AGAINST: MONSTER/VEHICLE]"
    infantry, vehicle = mh.targets.get("Line infantry"), mh.targets.get("Vehicle")
    used = {
        t.name: mh.units.options.choose(melee, t).row["weapons_used"] for t in (infantry, vehicle)
    }
    assert "Smash Hammer - Standard" in used["Line infantry"]
    assert "Hunter" not in used["Line infantry"]
    assert "Smash Hammer - Hunter" in used["Vehicle"]
