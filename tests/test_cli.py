"""The command line, in-process (``main([...])``) and as the installed console script."""

from __future__ import annotations

import csv
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import mathhammer as mh
from mathhammer.cli import main
from mathhammer.examples import EXAMPLES

ATTACKERS = """unit,weapon,count,A,BS/WS,S,AP,D,abilities,points,type,half_range
Squad,Bolt rifle,9,2,3+,4,-1,1,[HEAVY],90,Ranged,no
Squad,Plasma gun,1,1,3+,7,-2,2,[RAPID FIRE 1],,Ranged,no
Flamers,Flamer,3,D6,N/A,4,0,1,[TORRENT],60,Ranged,yes
"""
TARGETS = """unit,group,models,T,Sv,InSv,W,FNP,keywords,CHARACTER,Ld,points
Marines,Guard,4,4,3+,-,2,-,INFANTRY,no,7,100
Marines,Captain,1,4,2+,4+,5,-,,yes,,
Horde,,20,3,6+,,1,6+,INFANTRY,no,6,120
"""


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path]:
    attackers, targets = tmp_path / "army.csv", tmp_path / "threats.csv"
    attackers.write_text(ATTACKERS)
    targets.write_text(TARGETS)
    return attackers, targets


def read(path: Path) -> list[dict[str, str]]:
    with path.open(newline="") as handle:
        return list(csv.DictReader(handle))


def test_report_golden_values(
    files: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    attackers, targets = files
    out = tmp_path / "out.csv"
    assert (
        main(["report", str(attackers), "--targets", str(targets), "-o", str(out), "--no-progress"])
        == 0
    )
    rows = read(out)
    assert [(r["loadout"], r["target"]) for r in rows] == [
        ("Squad", "Marines"),
        ("Squad", "Horde"),
        ("Flamers", "Marines"),
        ("Flamers", "Horde"),
    ]
    marines = mh.Unit(
        "Marines",
        [
            mh.ModelGroup(4, 4, 3, 2, name="Guard"),
            mh.ModelGroup(1, 4, 2, 5, invuln=4, character=True, name="Captain"),
        ],
        "INFANTRY",
        leadership=7,
    )
    squad = [
        (mh.Weapon("Bolt rifle", 2, 3, 4, -1, 1, "[HEAVY]"), 9),
        (mh.Weapon("Plasma gun", 1, 3, 7, -2, 2, "[RAPID FIRE 1]"), 1),
    ]
    exact = mh.attack(squad, marines)
    first = rows[0]
    assert float(first["mean_killed"]) == pytest.approx(exact.killed.mean(), rel=1e-5)
    assert float(first["p_destroyed"]) == pytest.approx(exact.p_destroyed, rel=1e-5, abs=1e-12)
    assert float(first["loadout_points"]) == 90 and float(first["target_points"]) == 100
    flamers = mh.attack(
        [(mh.Weapon("Flamer", "D6", 2, 4, 0, 1, "[TORRENT]"), 3)],
        mh.Unit.of("Horde", 20, 3, 6, 1, fnp=6, keywords="INFANTRY"),
        context=mh.Context(half_range=True),
    )
    assert float(rows[3]["mean_killed"]) == pytest.approx(flamers.killed.mean(), rel=1e-5)
    printed = capsys.readouterr().out
    assert "4 rows written to" in printed and "Flamers" in printed


def test_report_without_arguments_uses_the_bundled_examples(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["report", "--no-progress"]) == 0
    rows = read(tmp_path / "mathhammer-report.csv")
    assert len(rows) == 8 * len(mh.targets.STANDARD)
    assert {r["target"] for r in rows} == set(mh.targets.names())


@pytest.mark.system
def test_jobs_give_identical_reports(files: tuple[Path, Path], tmp_path: Path) -> None:
    attackers, targets = files
    serial, parallel = tmp_path / "serial.csv", tmp_path / "parallel.csv"
    main(
        [
            "report",
            str(attackers),
            "--targets",
            str(targets),
            "-o",
            str(serial),
            "--check-trials",
            "2000",
            "--no-progress",
        ]
    )
    main(
        [
            "report",
            str(attackers),
            "--targets",
            str(targets),
            "-o",
            str(parallel),
            "--check-trials",
            "2000",
            "--jobs",
            "2",
            "--no-progress",
        ]
    )
    assert serial.read_bytes() == parallel.read_bytes()
    rows = read(serial)
    assert all(abs(float(r["mc_z"])) < 5 for r in rows)


def test_plot_writes_a_heatmap(files: tuple[Path, Path], tmp_path: Path) -> None:
    attackers, targets = files
    png = tmp_path / "heat.png"
    assert (
        main(
            [
                "report",
                str(attackers),
                "--targets",
                str(targets),
                "-o",
                str(tmp_path / "o.csv"),
                "--plot",
                str(png),
                "--no-progress",
            ]
        )
        == 0
    )
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (
            "unit,weapon,count,A,BS/WS,S,AP,D,abilities,points\nX,Gun,1,2,3+,x,0,1,,\n",
            ":2: column 'S': Weapon.strength: cannot read dice expression 'x' at position 0",
        ),
        ("", ": the file is empty; expected a header row"),
        ("unit;weapon;count\n", ":1: missing columns"),  # semicolons are read (a spreadsheet)
        ("unit|weapon|count\n", ":1: the header is one column containing '|'"),
        ("unit,weapon\nX,Gun\n", ":1: missing columns"),
        (
            "unit,weapon,count,A,BS/WS,S,AP,D,abilities,points,Points\nX,G,1,1,3+,4,0,1,,,\n",
            ":1: column 'points': given twice, as 'points' and 'Points'",
        ),
        (
            "unit,weapon,count,A,BS/WS,S,AP,D,abilities,points\nX,G,1,1,3+,4,0,1,,10\n"
            "X,H,1,1,3+,4,0,1,,20\n",
            ":3: column 'points': unit 'X' has 10 on an earlier row",
        ),
        (
            "unit,weapon,count,A,BS/WS,S,AP,D,abilities,points\nX,G,1,1,9+,4,0,1,,\n",
            ":2: column 'BS/WS': Weapon.skill must be an integer from 2 to 6; got 9",
        ),
    ],
)
def test_bad_input_is_one_line_and_leaves_the_output_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, message: str
) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text(content)
    out = tmp_path / "out.csv"
    out.write_text("precious\n")
    assert main(["report", str(bad), "-o", str(out), "--no-progress"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("mathhammer: error: ") and message in err[0]
    assert out.read_text() == "precious\n"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".out.csv")] == []


def test_missing_file_and_debug(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", str(tmp_path / "none.csv")]) == 1
    assert "none.csv: no such file" in capsys.readouterr().err
    with pytest.raises(mh.MathhammerError):
        main(["--debug", "report", str(tmp_path / "none.csv")])


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (
        ["nonsense"],
        ["report", "--jobs", "0"],
        ["attack", "-A", "2"],
        ["report", "--rules", "9e"],
    ):
        with pytest.raises(SystemExit) as info:
            main(argv)
        assert info.value.code == 2


def test_attack_prints_the_distribution(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    png = tmp_path / "a.png"
    assert (
        main(
            [
                "attack",
                "-A",
                "2",
                "--skill",
                "3+",
                "-S",
                "4",
                "--ap",
                "-1",
                "-D",
                "1",
                "--count",
                "10",
                "--target",
                "Line infantry",
                "--plot",
                str(png),
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    exact = mh.attack(
        [(mh.Weapon("weapon", 2, 3, 4, -1, 1), 10)], mh.targets.get("Line infantry").unit
    )
    for k in range(4):
        assert (
            f"{k:2d}  {exact.killed.probabilities[k]:13.4f}  {exact.killed.at_least(k):14.4f}"
            in out
        )
    assert png.exists()


def test_attack_classic_and_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(
            [
                "attack",
                "--rules",
                "classic",
                "-A",
                "1",
                "--skill",
                "3",
                "-S",
                "3",
                "--count",
                "10",
                "--models",
                "10",
                "-T",
                "3",
                "--save",
                "5+",
                "-W",
                "1",
                "--leadership",
                "7",
            ]
        )
        == 0
    )
    assert "P(panic test)" in capsys.readouterr().out
    assert main(["attack", "-A", "1", "--skill", "3+", "-S", "4", "--target", "Nobody"]) == 1
    assert "target must be one of" in capsys.readouterr().err


def test_targets_lists_the_suite(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["targets"]) == 0
    out = capsys.readouterr().out
    for name in mh.targets.names():
        assert name in out


def test_demo(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--trials", "2000", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    for example in EXAMPLES:
        exact = mh.attack(example.weapons, example.target)
        assert f"killed mean {exact.killed.mean():.3g}" in out
    assert out.count("Monte Carlo (2000 trials)") == len(EXAMPLES)


def test_help_has_examples_on_every_subcommand(capsys: pytest.CaptureFixture[str]) -> None:
    for command in ("report", "attack", "targets", "demo"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        assert "example" in capsys.readouterr().out


@pytest.mark.system
def test_console_script_and_module(
    tmp_path: Path, files: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    # Each subprocess pays the package import, so each checks something only a real process
    # can: that the entry point runs `main`, that its status reaches the shell, and that a
    # pipe gets no progress bar. The version string is argparse's, checked in-process.
    with pytest.raises(SystemExit) as version:
        main(["--version"])
    assert version.value.code == 0
    assert capsys.readouterr().out.strip() == f"mathhammer {mh.__version__}"
    module = [sys.executable, "-m", "mathhammer"]
    script = shutil.which("mathhammer")
    attackers, targets = files
    out = tmp_path / "sub.csv"
    done = subprocess.run(
        [*([script] if script else module), "report", str(attackers), "--targets", str(targets)]
        + ["-o", str(out)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0 and done.stderr == ""  # no progress bar when piped
    assert len(read(out)) == 4
    # `python -m mathhammer` must pass main's non-zero status on, not drop it
    bad = subprocess.run(
        [*module, "report", str(tmp_path / "missing.csv")], capture_output=True, text=True
    )
    assert bad.returncode == 1 and bad.stderr.count("\n") == 1


def test_report_file_has_ordinary_permissions(files: tuple[Path, Path], tmp_path: Path) -> None:
    import os

    attackers, targets = files
    out = tmp_path / "perm.csv"
    main(["report", str(attackers), "--targets", str(targets), "-o", str(out), "--no-progress"])
    umask = os.umask(0)
    os.umask(umask)
    assert out.stat().st_mode & 0o777 == 0o666 & ~umask
