"""Durability against the standard attackers: ``mh.durability``, its suite, its plot and
``mathhammer durability``.

The copies needed are checked against hand-derived values on units where each copy's
outcome is a coin: with the state carried, a W2 model that loses a wound on each head
needs two heads, not "an average of 1 wound per two copies".
"""

from __future__ import annotations

import csv
import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import mathhammer as mh
from mathhammer.cli import main
from mathhammer.units.durability import MAX_COPIES, StandardAttacker, parse_attackers

#: One automatic hit, S4 against T4 (a wound on 4+: a coin), no save, damage 1.
COIN = mh.Weapon("Coin", 1, 2, 4, 0, 1, "[TORRENT]")
ONE_COIN = StandardAttacker("Coin", "test", ((COIN, 1),), points=10)


def copies_needed(p_each: float, q: float) -> int:
    """Copies, each destroying the unit with probability ``p_each`` independently."""
    return math.ceil(math.log(1 - q) / math.log(1 - p_each))


def test_a_w1_model_falls_to_the_first_head() -> None:
    unit = mh.Unit.of("One", 1, 4, 7, 1)
    row = mh.durability(unit, [ONE_COIN]).iloc[0]
    assert row["p_destroyed"] == pytest.approx(0.5)
    assert row["copies_50"] == copies_needed(0.5, 0.5) == 1
    assert row["copies_90"] == copies_needed(0.5, 0.9) == 4  # 1 - 1/16 >= 0.9 > 1 - 1/8


def test_a_w2_model_needs_two_heads_the_state_carried() -> None:
    # destroyed after k copies when at least two of k coins land: 1 - (k + 1) / 2**k;
    # k = 3 gives 1/2 exactly, k = 6 gives 57/64 < 0.9, k = 7 gives 120/128
    unit = mh.Unit.of("Two", 1, 4, 7, 2)
    row = mh.durability(unit, [ONE_COIN]).iloc[0]
    chances = [1 - (k + 1) / 2**k for k in range(1, 9)]
    assert row["copies_50"] == next(k for k, p in enumerate(chances, 1) if p >= 0.5) == 3
    assert row["copies_90"] == next(k for k, p in enumerate(chances, 1) if p >= 0.9) == 7
    # the sequence behind it, step by step
    turn = mh.sequence([[(COIN, 1)]] * 7, unit)
    np.testing.assert_allclose(turn.p_destroyed, chances[:7], atol=1e-15)


def test_points_and_effective_wounds_by_hand() -> None:
    # four lascannons at ten W2 marines in 3+ armour, 180 points: 4 * 2/3 * 5/6 wounds of
    # D6+1 (mean 4.5) carry 10 wounds of damage; each wound fails its 6+ save on 1-5 and
    # takes 2: 40/9 * 5/6 * ... = 3.7037 lost, so 20 * 10 / 3.7037 = 54 effective wounds
    line = mh.targets.get("Line infantry")
    lascannons = next(a for a in mh.standard_attackers() if a.role == "anti-tank")
    row = mh.durability(line, [lascannons]).iloc[0]
    wounds = 4 * (2 / 3) * (5 / 6)
    assert row["killed_mean"] == pytest.approx(wounds * 5 / 6, abs=1e-12)
    assert row["points_lost"] == pytest.approx(18 * wounds * 5 / 6, abs=1e-9)
    assert row["points_lost_per_100"] == pytest.approx(row["points_lost"] / 2, abs=1e-12)
    assert row["effective_wounds"] == pytest.approx(54.0, abs=1e-9)
    assert row["effective_wounds_per_100_points"] == pytest.approx(30.0, abs=1e-9)


def test_the_bundled_suite_covers_every_role_with_points() -> None:
    suite = mh.standard_attackers()
    roles = [a.role for a in suite]
    assert roles == [
        "anti-horde",
        "general purpose",
        "anti-elite",
        "anti-tank",
        "melee",
        "mortal wounds",
    ]
    assert all(a.points is not None and a.points > 0 for a in suite)
    melee = suite[roles.index("melee")]
    swords = [entry for entry in melee.weapons if isinstance(entry, tuple)]
    assert melee.context.melee and swords and all(w.melee for w, _ in swords)
    assert any(isinstance(w, mh.MortalWounds) for w in suite[-1].weapons)


def test_several_units_and_the_columns() -> None:
    frame = mh.durability([mh.targets.get("Vehicle"), mh.Unit.of("Bare", 5, 4, 3, 1)])
    assert list(frame["unit"].unique()) == ["Vehicle", "Bare"]
    assert len(frame) == 2 * len(mh.standard_attackers())
    bare = frame[frame["unit"] == "Bare"]
    assert bare["points_lost"].isna().all() and bare["effective_wounds_per_100_points"].isna().all()
    vehicle = frame[frame["unit"] == "Vehicle"].set_index("role")
    # anti-tank beats anti-horde against the vehicle, and every copies_90 >= copies_50
    assert vehicle.loc["anti-tank", "copies_90"] < vehicle.loc["anti-horde", "copies_90"]
    assert (frame["copies_90"] >= frame["copies_50"]).all()


def test_a_unit_standing_past_the_most_copies_gets_no_count() -> None:
    one = mh.Unit.of("One", 1, 4, 7, 1)  # 4 coins for 90 %: past 3, within 4
    short = mh.durability(one, [ONE_COIN], max_copies=3).iloc[0]
    assert short["copies_50"] == 1 and short["copies_90"] is pd.NA
    enough = mh.durability(one, [ONE_COIN], max_copies=4).iloc[0]
    assert enough["copies_90"] == 4
    assert MAX_COPIES == 60


def test_bad_suites_and_arguments_are_clear_errors() -> None:
    with pytest.raises(mh.ProfileError, match=r"attackers\[0\] \('Free'\): points is required"):
        parse_attackers({"attackers": [{"name": "Free", "role": "x", "weapons": []}]})
    with pytest.raises(mh.ProfileError, match="weapons must be a non-empty list"):
        parse_attackers({"attackers": [{"name": "A", "role": "x", "points": 5, "weapons": []}]})
    with pytest.raises(mh.ProfileError, match="count must be an integer >= 1"):
        parse_attackers(
            {
                "attackers": [
                    {
                        "name": "A",
                        "role": "x",
                        "points": 5,
                        "weapons": [{"name": "G", "count": 0, "attacks": 1, "skill": 3}],
                    }
                ]
            }
        )
    with pytest.raises(mh.ProfileError, match="context"):
        parse_attackers(
            {
                "attackers": [
                    {
                        "name": "A",
                        "role": "x",
                        "points": 5,
                        "context": {"nope": 1},
                        "weapons": [{"mortal": 1}],
                    }
                ]
            }
        )
    with pytest.raises(mh.OptionError, match="attackers must be at least one"):
        mh.durability(mh.Unit.of("U", 1, 4, 4, 1), [])
    with pytest.raises(mh.OptionError, match="max_copies must be an integer from 1 to 1000"):
        mh.durability(mh.Unit.of("U", 1, 4, 4, 1), max_copies=0)
    with pytest.raises(mh.OptionError, match="max_copies must be an integer from 1 to 1000"):
        mh.durability(mh.Unit.of("U", 1, 4, 4, 1), max_copies=10**9)
    with pytest.raises(mh.OptionError, match="units must be a Unit or Target"):
        mh.durability("Marines")  # type: ignore[arg-type]


def test_load_attackers_reads_a_suite_file(tmp_path: Path) -> None:
    path = tmp_path / "mine.json"
    path.write_text(
        json.dumps(
            {
                "attackers": [
                    {
                        "name": "Guns",
                        "role": "mine",
                        "points": 50,
                        "weapons": [
                            {
                                "name": "Gun",
                                "count": 3,
                                "attacks": 2,
                                "skill": 3,
                                "strength": 5,
                                "ap": -1,
                            }
                        ],
                    }
                ]
            }
        )
    )
    (guns,) = mh.load_attackers(path)
    assert guns.points == 50 and guns.weapons[0][1] == 3  # type: ignore[index]
    (tmp_path / "broken.json").write_text("{")
    with pytest.raises(mh.InputFileError, match="not valid JSON"):
        mh.load_attackers(tmp_path / "broken.json")
    with pytest.raises(mh.InputFileError, match="none.json"):
        mh.load_attackers(tmp_path / "none.json")


def test_the_plot_shows_each_units_bars() -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    frame = mh.durability([mh.targets.get("Vehicle"), mh.targets.get("Monster")])
    ax = mh.plot_durability(frame, "copies_50")
    heights = [p.get_height() for p in ax.patches]
    assert heights == [
        float(v)
        for v in frame.sort_values(
            ["unit"], key=lambda s: s.map({"Vehicle": 0, "Monster": 1}), kind="stable"
        )["copies_50"]
    ]
    with pytest.raises(mh.OptionError, match="metric must be one of"):
        mh.plot_durability(frame, "nonsense")
    plt.close("all")


def test_the_command_prints_and_writes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    threats = tmp_path / "threats.csv"
    threats.write_text("unit,models,T,Sv,W,points\nGuard,10,3,5+,1,60\nTank,1,10,3+,12,150\n")
    out, plot = tmp_path / "d.csv", tmp_path / "d.png"
    assert main(["durability", str(threats), "-o", str(out), "--plot", str(plot)]) == 0
    printed = capsys.readouterr().out
    assert "Guard:" in printed and "Tank:" in printed and "copies 90%" in printed
    rows = list(csv.DictReader(out.open()))
    assert len(rows) == 12 and rows[0]["unit"] == "Guard"
    frame = mh.durability(mh.read_targets(threats))
    assert [int(r["copies_90"]) for r in rows] == frame["copies_90"].tolist()
    assert plot.read_bytes()[:4] == b"\x89PNG"
    assert main(["durability", str(threats), "--max-copies", "1"]) == 0
    assert "more" in capsys.readouterr().out  # the Guard still stands after one lascannon team
    assert main(["durability", str(tmp_path / "none.csv")]) == 1
    assert "none.csv" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["durability", "--max-copies", "0"])
