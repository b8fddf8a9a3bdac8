"""The command line on real armies: rosters as attackers and targets, the datasheet listing."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

import mathhammer as mh
from mathhammer.cli import main
from mathhammer.io.roster import read_roster
from mathhammer.io.sources import read_army

ROSTERS = Path(__file__).parent / "data" / "rosters"
NECRONS = ROSTERS / "necrons.rosz"
ORKS = ROSTERS / "orks.rosz"


def test_a_roster_against_a_roster(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "report.csv"
    args = ["report", str(NECRONS), "--targets", str(ORKS), "-o", str(out), "--no-progress"]
    assert main(args) == 0
    frame = pd.read_csv(out)
    mine, theirs = read_roster(NECRONS), read_roster(ORKS)
    assert len(frame) == len(mine.loadouts()) * len(theirs.targets())
    assert set(frame.loadout) == {x.name for x in mine.loadouts()}
    assert {"Necron Warriors (ranged)", "Necron Warriors (melee)"} <= set(frame.loadout)
    assert set(frame.target) == {t.name for t in theirs.targets()}
    # every row names the unit it came from, in which file
    assert frame.loadout_source.str.startswith(f"{NECRONS}: ").all()
    assert frame.target_source.str.startswith(f"{ORKS}: ").all()
    # an unknown weapon ability of the targets' list is reported, not silently ignored
    err = capsys.readouterr().err
    assert "weapon ability 'BUBBLECHUKKA' is not known, ignored in 3 profiles" in err


def test_the_report_numbers_are_the_attacks_of_the_roster(tmp_path: Path) -> None:
    out = tmp_path / "report.csv"
    main(["report", str(NECRONS), "--targets", str(ORKS), "-o", str(out), "--no-progress"])
    frame = pd.read_csv(out).set_index(["loadout", "target"])
    loadout = {x.name: x for x in read_roster(NECRONS).loadouts()}["Necron Warriors (ranged)"]
    target = {t.name: t for t in read_roster(ORKS).targets()}["Boyz"]
    exact = mh.attack(loadout.weapons, target.unit)
    row = frame.loc[("Necron Warriors (ranged)", "Boyz")]
    assert row.mean_killed == pytest.approx(exact.killed.mean(), rel=1e-5)
    assert row.loadout_points == loadout.points and row.target_points == target.points


def test_strict_makes_an_unknown_ability_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["report", str(ORKS), "--strict", "-o", str(tmp_path / "r.csv"), "--no-progress"]
    assert main(args) == 1
    err = capsys.readouterr().err
    assert "unknown weapon ability 'BUBBLECHUKKA'" in err and str(ORKS) in err
    assert not (tmp_path / "r.csv").exists()


def test_the_import_report_on_request(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["report", str(ORKS), "--import-report", "-o", str(tmp_path / "r.csv")]
    assert main([*args, "--no-progress"]) == 0
    err = capsys.readouterr().err
    assert f"{ORKS}: " in err and "datasheets" in err
    assert "skipped (" not in err  # the Zzap gun's random Strength is read (D42)
    rows = (tmp_path / "r.csv").read_text(encoding="utf-8")
    assert "Zzap gun" in rows  # the Battlewagon's rows use it


def test_the_datasheet_listing(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["datasheets", str(NECRONS)]) == 0
    out = capsys.readouterr().out
    assert "6 of 6 datasheets (roster)" in out
    warriors = next(line for line in out.splitlines() if line.startswith("Necron Warriors"))
    assert "10 models" in warriors and "T4 Sv4+ W1" in warriors and "80 pts" in warriors
    assert main(["datasheets", str(NECRONS), "--search", "WARRIOR"]) == 0
    assert "1 of 6 datasheets" in capsys.readouterr().out


def test_what_is_not_an_army_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    odd = tmp_path / "list.txt"
    odd.write_text("10 boyz")
    assert main(["report", str(odd), "-o", str(tmp_path / "r.csv")]) == 1
    assert "not an army file" in capsys.readouterr().err
    assert main(["datasheets", str(tmp_path / "missing.rosz")]) == 1
    assert "no such file or folder" in capsys.readouterr().err


@pytest.mark.parametrize("name", ["necrons.json", "necrons.ros", "necrons.rosz"])
def test_every_roster_form_reads_alike(name: str) -> None:
    army = read_army(ROSTERS / name)
    assert army.kind == "roster"
    assert [x.name for x in army.loadouts] == [x.name for x in read_army(NECRONS).loadouts]


def test_a_json_target_suite_and_a_targets_csv(tmp_path: Path) -> None:
    suite = tmp_path / "suite.json"
    suite.write_text(
        '{"targets": [{"name": "Blob", "keywords": ["INFANTRY"], '
        '"groups": [{"count": 10, "toughness": 3, "save": 5, "wounds": 1, "points": 60}]}]}'
    )
    army = read_army(suite)
    assert army.kind == "target suite" and [t.name for t in army.targets] == ["Blob"]
    csv = tmp_path / "t.csv"
    csv.write_text("unit,group,models,T,Sv,W,InSv,FNP,CHARACTER,keywords,Ld,points\n")
    with pytest.raises(mh.InputFileError):
        read_army(csv, csv_kind="targets")
    with pytest.raises(mh.OptionError, match="csv_kind must be"):
        read_army(csv, csv_kind="weapons")


@pytest.mark.system
def test_the_readers_are_public_and_loaded_on_first_use() -> None:
    import subprocess
    import sys

    import mathhammer.io

    for name in ("read_army", "read_roster", "read_catalogue", "read_wahapedia"):
        assert getattr(mh, name) is getattr(mathhammer.io, name)
    with pytest.raises(AttributeError, match="has no attribute 'read_nothing'"):
        mh.read_nothing  # noqa: B018
    code = "import sys, mathhammer; print('defusedxml' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_a_list_against_every_datasheet_of_a_faction(
    shared_data: Path, shared_catalogue: Callable[[str], mh.io.Catalogue], tmp_path: Path
) -> None:
    # the faction's file, with the files it links (a faction of its own among them)
    catalogues = shared_data / "bsdata-11e" / "Orks.json"
    out = tmp_path / "report.csv"
    args = ["report", str(NECRONS), "--targets", str(catalogues), "--faction", "Orks"]
    assert main([*args, "-o", str(out), "--no-progress"]) == 0
    frame = pd.read_csv(out)
    orks = shared_catalogue("bsdata-11e").faction("Orks")
    assert frame.target.nunique() == len(orks) >= 90
    assert len(frame) == len(read_roster(NECRONS).loadouts()) * len(orks)
    assert frame.target_source.str.startswith("Orks.json: ").all()
    # a catalogue of several factions needs one named
    assert main(["report", str(NECRONS), "--targets", str(catalogues), "-o", str(out)]) == 1


def test_leaders_of_the_targets_roster(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "report.csv"
    args = ["report", str(ORKS), "--targets", str(NECRONS), "-o", str(out), "--no-progress"]
    assert main([*args, "--lead", "Necron Warriors=Overlord"]) == 0
    targets = set(pd.read_csv(out).target)
    assert "Necron Warriors led by Overlord" in targets and "Overlord" not in targets
    assert main([*args, "--lead", "Necron Warriors=Nobody"]) == 1
    assert "leaders must be unit names among" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main([*args, "--lead", "Necron Warriors"])
    assert main(["report", str(ORKS), "--lead", "A=B", "-o", str(out)]) == 1
    with pytest.raises(mh.OptionError, match="leaders must be given for a roster"):
        read_army(ROSTERS.parent / "bsdata", leaders={"A": "B"})


def test_faction_picks_the_attackers_and_never_turns_them_on_themselves(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`report CATALOGUE --faction Necrons --targets CATALOGUE` attacked Necrons with Necrons;
    now the targets need their own --target-faction (a roster's --faction still names them)."""
    folder = Path(__file__).parent / "data" / "bsdata"
    out = tmp_path / "r.csv"
    argv = ["report", str(folder), "--faction", "Necrons", "--targets", str(folder), "-o",
            str(out), "--no-progress"]  # fmt: skip
    assert main(argv) == 1
    assert "--target-faction for" in capsys.readouterr().err
    assert main([*argv, "--target-faction", "Orks"]) == 0
    orks = {t.name for t in mh.read_army(folder, faction="Orks", csv_kind="targets").targets}
    assert set(pd.read_csv(out).target) <= orks


def _weapon_keywords(node: Any) -> list[dict[str, Any]]:
    """The Keywords characteristic of every weapon profile in a catalogue's tree."""
    found: list[dict[str, Any]] = []
    pending = [node]
    while pending:
        item = pending.pop()
        if isinstance(item, list):
            pending.extend(item)
        elif isinstance(item, dict):
            if str(item.get("typeName", "")).endswith("Weapons"):
                found += [c for c in item.get("characteristics", []) if c["name"] == "Keywords"]
            pending.extend(item.values())
    return found


def test_warnings_once_and_for_the_factions_used_in_a_small_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """As below, on the committed excerpt with a token the engine does not know added to
    every Ork weapon ('Snagged') and every Tyranid one ('Hive Defences'): one folder as
    attackers and targets warns once per line, and only of the factions asked for."""
    folder = tmp_path / "catalogues"
    shutil.copytree(Path(__file__).parent / "data" / "bsdata", folder)
    for name, token in (("Orks.json", "Snagged"), ("Tyranids.json", "Hive Defences")):
        document = json.loads((folder / name).read_text(encoding="utf-8"))
        keywords = _weapon_keywords(document)
        assert keywords, name
        for characteristic in keywords:
            text = str(characteristic.get("$text", "")).strip()
            characteristic["$text"] = token if text in ("", "-") else f"{text}, {token}"
        (folder / name).write_text(json.dumps(document), encoding="utf-8")
    argv = ["report", str(folder), "--faction", "Necrons", "--targets", str(folder),
            "--target-faction", "Orks", "-o", os.devnull, "--no-progress"]  # fmt: skip
    assert main(argv) == 0
    warned = [x for x in capsys.readouterr().err.splitlines() if "warning" in x]
    assert warned and len(warned) == len(set(warned))
    assert any("'SNAGGED'" in x for x in warned)  # the Orks': the targets are Orks
    assert not any("'HIVE DEFENCES'" in x for x in warned)  # no Tyranid was asked for
    assert main([*argv[:-5], "--target-faction", "Tyranids", *argv[-3:]]) == 0
    warned = [x for x in capsys.readouterr().err.splitlines() if "warning" in x]
    assert any("'HIVE DEFENCES'" in x for x in warned)  # asked for: warned of
    assert not any("'SNAGGED'" in x for x in warned)


@pytest.mark.slow
def test_warnings_once_and_for_the_factions_used(
    shared_data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """One folder as attackers and targets warned each line twice, and about factions not
    asked for (a T'au weapon's 'HOOKED' for Necrons against Orks). The whole shared
    snapshot: a long test (the small folder's above runs by default)."""
    catalogues = str(shared_data / "bsdata-11e")
    argv = ["report", catalogues, "--faction", "Necrons", "--targets", catalogues,
            "--target-faction", "Orks", "-o", os.devnull, "--no-progress"]  # fmt: skip
    assert main(argv) == 0
    warned = [x for x in capsys.readouterr().err.splitlines() if "warning" in x]
    assert warned and len(warned) == len(set(warned))
    assert not any("'HOOKED'" in x or "'HIVE DEFENCES'" in x for x in warned)
    assert any("'SNAGGED'" in x for x in warned)  # an Orks weapon's: the targets are Orks
    listing = ["datasheets", catalogues, "--faction", "Necrons", "--search", "warriors"]
    assert main(listing) == 0
    assert "abilities not understood" not in capsys.readouterr().err  # the report on demand
    assert main([*listing, "--import-report"]) == 0
    assert "abilities not understood" in capsys.readouterr().err
