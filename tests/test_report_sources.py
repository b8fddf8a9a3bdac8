"""Every report row names where its loadout and its target were read from."""

from __future__ import annotations

from pathlib import Path

import mathhammer as mh
from mathhammer.io import read_attackers, read_targets
from mathhammer.io.report import build_report

ATTACKERS = (
    "unit,weapon,count,A,BS/WS,S,AP,D,abilities,points\nSquad,Bolt rifle,5,2,3+,4,-1,1,,90\n"
)
TARGETS = (
    "unit,group,models,T,Sv,W,InSv,FNP,CHARACTER,keywords,Ld,points\n"
    "Mob,Boyz,10,5,5+,1,,,,INFANTRY,,85\n"
)


def test_report_rows_carry_the_sources(tmp_path: Path) -> None:
    (tmp_path / "a.csv").write_text(ATTACKERS)
    (tmp_path / "t.csv").write_text(TARGETS)
    loadouts = read_attackers(tmp_path / "a.csv")
    targets = read_targets(tmp_path / "t.csv")
    frame = build_report(loadouts, [*targets, mh.targets.get("Vehicle")])
    assert list(frame.columns[-2:]) == ["loadout_source", "target_source"]
    assert frame.loadout_source.tolist() == [f"{tmp_path / 'a.csv'}:2"] * 2
    assert frame.target_source[0] == f"{tmp_path / 't.csv'}:2"
    # the bundled suite has no file behind it
    assert frame.target_source.isna().tolist() == [False, True]


def test_no_source_columns_without_sources() -> None:
    bolt = mh.Weapon("Bolt rifle", 2, 3, 4, -1, 1)
    frame = mh.compare({"bolters": [(bolt, 5)]}, ["Line infantry"])
    assert "loadout_source" not in frame.columns and "target_source" not in frame.columns
