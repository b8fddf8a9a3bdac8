"""Durability against a real enemy: ``--attackers`` takes any list ``report`` reads (a
roster, a catalogue with ``--attacker-faction``, a profiles CSV) as well as a JSON suite,
each unit attacking with the legal declaration that does the most damage to each target."""

from __future__ import annotations

import csv
from pathlib import Path

import pandas as pd
import pytest

import mathhammer as mh
from mathhammer.cli import main
from mathhammer.units.durability import StandardAttacker, durability
from mathhammer.units.options import choose

DATA = Path(__file__).parent / "data"
ORKS = DATA / "rosters" / "real" / "orks_11e_attached.json"
NECRONS = DATA / "rosters" / "necrons.rosz"
EXAMPLES = Path(mh.__file__).parent / "data" / "example_attackers.csv"

BOLT = mh.Weapon("Bolt rifle", 2, 3, 4, -1, 1)
CHOPPA = mh.Weapon("Choppa", 3, 3, 4, -1, 1, melee=True)


def test_a_loadout_attacks_as_its_best_declaration_with_its_points() -> None:
    squad = mh.Loadout("Intercessors", [(BOLT, 10)], points=160)
    target = mh.targets.get("Line infantry")
    by_hand = StandardAttacker("Intercessors", "shooting", ((BOLT, 10),), 160)
    got = durability(target, [squad])
    want = durability(target, [by_hand])
    pd.testing.assert_frame_equal(got, want)
    assert got.loc[0, "points_lost_per_100"] == pytest.approx(
        100 * got.loc[0, "points_lost"] / 160, rel=1e-12
    )


def test_options_choose_their_declaration_per_target() -> None:
    """A unit with two legal declarations uses the better one against each unit."""
    plasma = mh.Weapon("Plasma", 2, 3, 8, -3, 2)
    options = mh.AttackOptions("Squad", [[(BOLT, 5)], [(plasma, 5)]], phase="shooting")
    marines, tank = mh.targets.get("Elite infantry"), mh.targets.get("Vehicle")
    frame = durability([marines, tank], [options])
    for row, target in zip(frame.itertuples(), (marines, tank), strict=True):
        best = choose(options, target)
        assert row.killed_mean == pytest.approx(best.result.killed.mean(), abs=1e-12)
        assert row.role == "shooting"


def test_a_loadout_without_points_gives_no_per_point_column() -> None:
    frame = durability(mh.targets.get("Line infantry"), [mh.Loadout("Boyz", [(CHOPPA, 10)])])
    assert pd.isna(frame.loc[0, "points_lost_per_100"]) and frame.loc[0, "role"] == "fight"


@pytest.mark.parametrize(
    "attackers",
    [
        ORKS,  # a New Recruit roster (the file that failed with a UTF-8 error as .rosz)
        NECRONS,  # a zipped roster
        EXAMPLES,  # a profiles CSV
    ],
)
def test_the_command_takes_any_list_as_attackers(
    attackers: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "d.csv"
    argv = ["durability", str(ORKS), "--attackers", str(attackers), "-o", str(out)]
    assert main(argv) == 0
    rows = list(csv.DictReader(out.open()))
    army = mh.io.read_army(attackers)
    units = {r["unit"] for r in rows}
    assert len(rows) == len(units) * len(army.loadouts)
    assert {r["attacker"] for r in rows} == {x.name for x in army.loadouts}
    assert {r["role"] for r in rows} <= {"shooting", "fight"}
    assert "Traceback" not in capsys.readouterr().err


def test_a_catalogue_needs_its_faction_named_by_its_own_option(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = DATA / "bsdata"  # several factions
    assert main(["durability", str(ORKS), "--attackers", str(folder)]) == 1
    assert "--attacker-faction for" in capsys.readouterr().err
    out = tmp_path / "d.csv"
    argv = ["durability", str(ORKS), "--attackers", str(folder), "--attacker-faction",
            "Necrons", "-o", str(out)]  # fmt: skip
    assert main(argv) == 0
    necrons = mh.io.read_army(folder, faction="Necrons").loadouts
    assert {r["attacker"] for r in csv.DictReader(out.open())} == {x.name for x in necrons}


def test_the_help_shows_percent_signs_once(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["durability", "--help"])
    text = capsys.readouterr().out
    assert "50% and of 90%" in " ".join(text.split()) and "%%" not in text
