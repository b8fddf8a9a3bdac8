"""Rosters of every edition and game system: read, or refused in one line that names them.

The real exports in ``../shared/data/rosters`` (players' lists, 9th to 11th edition) each
read with the points their file states, or are refused in one line naming the game system;
small hand-made rosters pin each rule: characteristic names as the data spells them, a
unit typed ``upgrade``, other games, a roster that reads nothing, points that do not add up.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import mathhammer as mh
from mathhammer.io.import_report import describe
from mathhammer.io.roster.system import game_system

#: The committed slice of the Wahapedia export (Orks, Adeptus Mechanicus, T'au): the
#: export's edition is that of its format, which the slice shares with the whole export.
WAHAPEDIA = Path(__file__).parent / "data" / "wahapedia-10e"


def _chars(pairs: list[tuple[str, str]]) -> list[dict[str, str]]:
    return [{"name": n, "$text": t} for n, t in pairs]


def _gun() -> dict[str, Any]:
    return {
        "name": "Gauss flayer",
        "type": "upgrade",
        "number": 10,
        "profiles": [
            {
                "name": "Gauss flayer",
                "typeName": "Ranged Weapons",
                "characteristics": _chars(
                    [
                        ("A", "1"),
                        ("BS", "4+"),
                        ("S", "4"),
                        ("AP", "0"),
                        ("D", "1"),
                        ("Keywords", "Lethal Hits"),
                    ]
                ),  # fmt: skip
            }
        ],
    }


def _unit(name: str, save: tuple[str, str], points: int, kind: str = "unit") -> dict[str, Any]:
    body = {"name": name, "typeName": "Unit",
            "characteristics": _chars([("T", "4"), save, ("W", "1")])}  # fmt: skip
    return {"name": name, "type": kind, "number": 1, "costs": [{"name": "pts", "value": points}],
            "profiles": [body],
            "selections": [{"name": "Warrior", "type": "model", "number": 10,
                            "selections": [_gun()]}]}  # fmt: skip


def _roster(tmp_path: Path, units: list[dict[str, Any]], total: int, system: str = "") -> Path:
    force = {"catalogueName": "Xenos - Necrons", "selections": units}
    root: dict[str, Any] = {
        "name": "Demo", "costs": [{"name": "pts", "value": total}], "forces": [force]
    }  # fmt: skip
    if system:
        root |= {"gameSystemName": system, "gameSystemRevision": 7}
    path = tmp_path / "list.json"
    path.write_text(json.dumps({"roster": root}))
    return path


@pytest.mark.parametrize("spelling", ["Sv", "SV", "Save", "save", " S v "])
def test_the_save_column_reads_however_the_data_spells_it(tmp_path: Path, spelling: str) -> None:
    path = _roster(tmp_path, [_unit("Warriors", (spelling, "4+"), 90)], 90)
    army = mh.read_roster(path)
    assert [u.name for u in army.units] == ["Warriors"]
    assert army.units[0].datasheet.unit().groups[0].save == 4


def test_a_unit_typed_upgrade_with_its_own_unit_profile_is_a_unit(tmp_path: Path) -> None:
    # a Daemon Prince typed "upgrade" at the top level of a force: its Unit profile is its own
    prince = _unit("Daemon Prince", ("Sv", "2+"), 180, kind="upgrade")
    prince["selections"] = [_gun() | {"number": 1}]
    army = mh.read_roster(_roster(tmp_path, [_unit("Warriors", ("Sv", "4+"), 90), prince], 270))
    assert [u.name for u in army.units] == ["Warriors", "Daemon Prince"]
    assert army.units[1].points == 180 and army.report is not None
    assert army.report.points == []  # 90 + 180 = 270: they add up


def test_points_that_do_not_add_up_are_listed(tmp_path: Path) -> None:
    broken = _unit("Scarabs", ("Sv", "6+"), 40)
    broken["profiles"][0]["characteristics"] = _chars([("T", "*"), ("Sv", "6+"), ("W", "4")])
    path = _roster(tmp_path, [_unit("Warriors", ("Sv", "4+"), 90), broken], 150)
    army = mh.read_roster(path)
    assert army.report is not None
    assert army.report.points == [
        "Scarabs: 40 pts, not read",
        "the roster states 150 pts; its units cost 130 pts: +20 pts outside them "
        "(enhancements or options the list builder prices apart)",
    ]
    assert "points (2):" in describe(army.report)


def test_a_roster_that_reads_nothing_says_why_in_one_line(tmp_path: Path) -> None:
    units = [_unit(f"Squad {i}", ("Sv", "4+"), 90) for i in range(3)]
    for unit in units:
        unit["profiles"][0]["characteristics"] = _chars([("T", "4"), ("W", "1")])  # no save
    with pytest.raises(mh.InputFileError) as caught:
        mh.read_roster(_roster(tmp_path, units, 270))
    message = str(caught.value)
    assert "\n" not in message
    # each squad's model (no save) and so the squad itself: six entries skipped
    assert message.endswith(
        "nothing read: 0 of 3 units; 6 entries skipped, most often (3): "
        "characteristic 'Sv' is missing"
    )
    with pytest.raises(mh.InputFileError, match="nothing read: no units found"):
        mh.read_roster(_roster(tmp_path, [], 0))


@pytest.mark.parametrize(
    ("system", "game"),
    [
        ("Warhammer 40,000: Kill Team (2021)", "a Kill Team roster"),
        ("Horus Heresy (2022)", "a Horus Heresy roster"),
        ("Age of Sigmar 4.0", "an Age of Sigmar roster"),
        ("Warhammer 40,000 9th Edition", "a 9th-edition roster"),
        ("Warhammer 40,000 8th Edition", "an 8th-edition roster"),
    ],
)
def test_other_games_and_older_editions_are_refused_in_one_line(
    tmp_path: Path, system: str, game: str
) -> None:
    path = _roster(tmp_path, [_unit("Warriors", ("Sv", "4+"), 90)], 90, system)
    with pytest.raises(mh.InputFileError) as caught:
        mh.read_roster(path)
    message = str(caught.value)
    assert "\n" not in message and f"{system!r}, revision 7" in message
    assert game in message and "10th- and 11th-edition 40k rosters are read" in message


@pytest.mark.parametrize(
    ("name", "edition"),
    [
        ("Warhammer 40,000 11th Edition", "11e"),
        ("Warhammer 40,000 10th Edition", "10e"),
        ("WH40k 10th Edition", "10e"),
        ("Warhammer 40,000 9th Edition", "9e"),
        ("", ""),
    ],
)
def test_the_edition_is_read_from_the_game_system_name(name: str, edition: str) -> None:
    system = game_system({"gameSystemName": name})
    assert system.edition == edition
    assert system.read == (edition in ("", "10e", "11e"))


def test_a_roster_names_its_edition(tmp_path: Path) -> None:
    path = _roster(tmp_path, [_unit("Warriors", ("SV", "4+"), 90)], 90, "WH40k 10th Edition")
    army = mh.read_roster(path)
    assert army.system.ruleset == "10e" and repr(army).startswith("<Roster 'Demo' (10e):")
    assert army.report is not None and army.report.system == "'WH40k 10th Edition', revision 7"
    assert "game system: 'WH40k 10th Edition', revision 7" in describe(army.report)


#: The real rosters: (units, models, weapon profiles) read from each, counted by hand from the
#: files (a unit is a top-level selection with models; a model count is the sum of the
#: model selections' numbers); every one's units add up to the points the file states.
REAL = {
    "10e_necron_combat_patrol_playeragent.ros": (4, "10e"),
    "10e_necrons_prettyscribe.rosz": (4, "10e"),
    "10e_ultramarines_prettyscribe.rosz": (10, "10e"),
    "10e_votann_leviathan_prettyscribe.rosz": (8, "10e"),
    "11e_csm_chaos_lords_nr_probhammer.json": (2, "11e"),
    "11e_orks_breaka_boyz_nr_probhammer.json": (3, "11e"),
}


@pytest.mark.parametrize("name", sorted(REAL))
def test_every_real_roster_of_a_read_edition_reads_whole(shared_data: Path, name: str) -> None:
    army = mh.read_roster(shared_data / "rosters" / name)
    units, edition = REAL[name]
    assert len(army.units) == units and army.complete
    assert army.system.edition == edition
    assert sum(u.points or 0 for u in army.units) == army.points
    assert army.report is not None and army.report.points == []
    assert all(u.datasheet.unit().models >= 1 for u in army.units)


def test_the_real_9th_edition_roster_is_refused_naming_its_edition(shared_data: Path) -> None:
    with pytest.raises(mh.InputFileError) as caught:
        mh.read_roster(shared_data / "rosters" / "9e_necrons_prettyscribe.ros")
    message = str(caught.value)
    assert "\n" not in message
    assert "a 9th-edition roster ('Warhammer 40,000 9th Edition', revision 196)" in message


def test_every_shared_roster_reads_or_is_refused_in_one_line(shared_data: Path) -> None:
    # new files arrive in new folders: this holds for whatever the folder holds
    for path in sorted((shared_data / "rosters").iterdir()):
        if path.suffix not in (".ros", ".rosz", ".json"):
            continue
        try:
            army = mh.read_roster(path)
        except mh.InputFileError as exc:
            assert "\n" not in str(exc) and "roster (" in str(exc), path
        else:
            assert army.units, path


# ---------------------------------------------------------------- the ruleset follows the list
def _report(argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[str, str]:
    from mathhammer.cli import main

    assert main(["report", *argv, "-o", str(tmp_path / "out.csv"), "--no-progress"]) == 0
    captured = capsys.readouterr()
    return captured.out, captured.err


def test_a_report_computes_under_the_lists_edition(
    shared_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tenth = str(shared_data / "rosters" / "10e_necrons_prettyscribe.rosz")
    eleventh = str(shared_data / "rosters" / "11e_orks_breaka_boyz_nr_probhammer.json")
    out, err = _report([tenth], tmp_path, capsys)
    assert out.splitlines()[0] == "rules: 10e (Warhammer 40,000, 10th edition)"
    assert "computed under" not in err
    import pandas as pd

    rows = pd.read_csv(tmp_path / "out.csv")
    assert list(rows.columns[3:5]) == ["rules", "context"] and set(rows.rules) == {"10e"}
    out, err = _report([tenth, "--rules", "11e"], tmp_path, capsys)
    assert out.splitlines()[0].startswith("rules: 11e (")
    assert f"{tenth} is a 10e list; computed under --rules 11e as asked" in err
    out, err = _report([tenth, "--targets", eleventh], tmp_path, capsys)
    assert out.splitlines()[0].startswith("rules: 10e (")
    assert f"{tenth} is a 10e list and {eleventh} an 11e list: both computed under 10e" in err


def test_the_wahapedia_export_computes_under_the_tenth_edition(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out, _ = _report([str(WAHAPEDIA), "--faction", "Orks"], tmp_path, capsys)
    assert out.splitlines()[0].startswith("rules: 10e (")


def test_a_csv_report_keeps_the_default_ruleset(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out, err = _report([], tmp_path, capsys)  # the bundled example profiles
    assert out.splitlines()[0].startswith("rules: 11e (") and "computed under" not in err


def test_a_unit_without_weapons_is_named_not_dropped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    unarmed = _unit("Immortals", ("Sv", "3+"), 70)
    unarmed["selections"][0]["selections"] = []  # its models carry no weapon
    path = _roster(tmp_path, [_unit("Warriors", ("Sv", "4+"), 90), unarmed], 160)
    _, err = _report([str(path)], tmp_path, capsys)
    assert f"mathhammer: warning: {path}: Immortals: no weapons read; no rows" in err
    from mathhammer.cli import main

    alone = _roster(tmp_path, [unarmed], 70)
    assert main(["report", str(alone), "-o", str(tmp_path / "o.csv"), "--no-progress"]) == 1
    err = capsys.readouterr().err
    assert "attackers must be a file with weapons; got " in err
    assert err.rstrip().endswith("(1 units read, none with weapons)")


def test_catalogues_and_the_wahapedia_export_name_their_edition(
    shared_catalogue: Callable[[str], mh.io.Catalogue],
) -> None:
    from mathhammer.io.sources import read_army

    catalogue = shared_catalogue("bsdata-11e")
    assert catalogue.edition == "11e" and catalogue.faction("Necrons").edition == "11e"
    export = read_army(WAHAPEDIA, faction="Orks")
    assert export.edition == "10e"


def test_names_that_match_nothing_get_a_suggestion(tmp_path: Path) -> None:
    with pytest.raises(mh.ProfileError, match=r"got 'Horde infantri' \(did you mean 'Horde "):
        mh.targets.get("Horde infantri")
    path = _roster(tmp_path, [_unit("Warriors", ("Sv", "4+"), 90)], 90)
    with pytest.raises(mh.OptionError, match=r"got 'Warrior' \(did you mean 'Warriors'\?\)"):
        mh.read_roster(path, leaders={"Warrior": "Lord"})


def test_durability_and_plan_follow_the_lists_edition(
    shared_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from mathhammer.cli import main

    tenth = str(shared_data / "rosters" / "10e_necron_combat_patrol_playeragent.ros")
    assert main(["durability", tenth, "-o", str(tmp_path / "d.csv"), "--max-copies", "2"]) == 0
    assert capsys.readouterr().out.splitlines()[0].startswith("rules: 10e (")
    assert main(["plan", tenth, "-o", str(tmp_path / "p.csv"), "--no-progress"]) == 0
    assert capsys.readouterr().out.splitlines()[0].startswith("rules: 10e (")


def test_a_catalogue_of_another_game_is_refused_in_one_line(tmp_path: Path) -> None:
    import shutil

    folder = tmp_path / "killteam"
    shutil.copytree(Path(__file__).parent / "data" / "bsdata", folder)
    system = folder / "Warhammer 40,000.json"
    document = json.loads(system.read_text(encoding="utf-8"))
    document["gameSystem"]["name"] = "Warhammer 40,000: Kill Team (2021)"
    system.write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(mh.InputFileError) as caught:
        mh.read_catalogue(folder)
    message = str(caught.value)
    assert "\n" not in message and "a Kill Team catalogue ('Warhammer 40,000: Kill Team" in message
    assert "10th- and 11th-edition 40k catalogues are read" in message
