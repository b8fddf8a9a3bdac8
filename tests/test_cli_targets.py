"""`mathhammer attack`: target flags build a target or change a named one, never silently."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

import mathhammer as mh
from mathhammer.cli import main

GUN = ["attack", "-A", "2", "--skill", "3+", "-S", "4", "--count", "10"]


def mean_killed(out: str) -> float:
    """The mean models destroyed of the result's one-line headline (3 significant digits)."""
    return float(out.split("killed mean ")[1].split(" ")[0])


def close(printed: float, exact: float) -> bool:
    return printed == pytest.approx(exact, rel=5e-3)


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--target", "Line infantry", "--invuln", "4+"], "--invuln changes --target"),
        (["--target", "Line infantry", "-T", "8"], "-T changes --target 'Line infantry'"),
        (["--models", "3", "-T", "8"], "the target needs --save, -W (or --target NAME)"),
        ([], "the target needs --models, -T, --save, -W (or --target NAME)"),
        (["--models", "10", "-T", "4", "-W", "1"], "give --save - for no armour save"),
        (["--modify", "--invuln", "4+"], "--modify changes a --target NAME; none given"),
        (["--target", "Vehicle", "--modify"], "--modify needs the characteristics to change"),
    ],
)
def test_target_flags_that_would_be_ignored_or_invented_are_usage_errors(
    flags: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as info:
        main([*GUN, *flags])
    assert info.value.code == 2
    assert message in capsys.readouterr().err


def test_a_named_target_changed_explicitly(capsys: pytest.CaptureFixture[str]) -> None:
    flags = ["--target", "Line infantry", "--modify", "--invuln", "4+", "--fnp", "6+"]
    assert main([*GUN, *flags]) == 0
    line = mh.targets.get("Line infantry").unit
    changed = mh.Unit("x", [mh.ModelGroup(10, 4, 3, 2, invuln=4, fnp=6)], keywords=line.keywords)
    bolt = mh.Weapon("weapon", 2, 3, 4, 0, 1)
    assert mean_killed(capsys.readouterr().out) == pytest.approx(
        mh.attack([(bolt, 10)], changed).killed.mean(), abs=5e-4
    )


def test_a_described_target_uses_every_characteristic(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*GUN, "--models", "5", "-T", "4", "--save", "3+", "-W", "2"]) == 0
    unit = mh.Unit.of("t", 5, 4, 3, 2)
    want = mh.attack([(mh.Weapon("w", 2, 3, 4, 0, 1), 10)], unit).killed.mean()
    assert mean_killed(capsys.readouterr().out) == pytest.approx(want, abs=5e-4)


def test_models_cannot_change_a_target_of_several_groups(
    capsys: pytest.CaptureFixture[str],
) -> None:
    flags = ["--target", "Character-led unit", "--modify", "--models", "3"]
    assert main([*GUN, *flags]) == 1
    assert "--models must be used with a one-group target" in capsys.readouterr().err


def test_the_suite_listing_has_a_header_and_counts_models(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["targets"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[:4] == ["target", "models", "points", "keywords"]
    assert any(" 1 model " in line for line in lines)  # not "1 models"
    assert not any("1 models" in line for line in lines)


def test_the_demo_prints_damage_as_dice(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--trials", "0"]) == 0
    out = capsys.readouterr().out
    assert "DD6" not in out and "damage D6" in out
    assert "horde" not in out.lower()  # 200 T4 Sv3+ W3 models are no horde


@pytest.mark.system
def test_a_warning_is_one_line_without_a_source_path() -> None:
    import subprocess
    import sys

    argv = [*GUN, "--abilities", "[SUSTAINED HIT 1]", "--target", "Line infantry"]
    out = subprocess.run(
        [sys.executable, "-m", "mathhammer", *argv], capture_output=True, text=True, check=True
    )
    (line,) = out.stderr.splitlines()
    assert line.startswith("mathhammer: warning: weapon 'weapon': ignoring 'SUSTAINED HIT 1'")
    assert "(did you mean 'SUSTAINED HITS 1'?)" in line
    assert ".py" not in line and "site-packages" not in line


def test_too_many_dice_names_the_command_line_remedy(capsys: pytest.CaptureFixture[str]) -> None:
    big = ["attack", "-A", "2D6", "--skill", "3+", "-S", "4", "--count", "500"]
    assert main([*big, "--target", "Line infantry"]) == 1
    err = capsys.readouterr().err
    assert "must be at most 5000; got 6000" in err and "add --trials N" in err
    assert "mathhammer.simulate" not in err
    assert main([*big, "--target", "Line infantry", "--trials", "200"]) == 0
    out = capsys.readouterr().out
    assert "Monte Carlo only" in out and "Monte Carlo (200 trials): mean killed" in out


def test_the_command_line_reads_values_as_python_and_csv_do(
    capsys: pytest.CaptureFixture[str],
) -> None:
    def killed(argv: list[str]) -> float:
        assert main(argv) == 0
        return mean_killed(capsys.readouterr().out)

    flamer = ["attack", "-A", "D6", "-S", "5", "--abilities", "[TORRENT]", "--count", "2"]
    horde = ["--target", "Horde infantry"]
    torrent = killed([*flamer, "--skill", "N/A", *horde])
    gun = mh.Weapon("Flamer", "D6", skill="N/A", strength=5, abilities="[TORRENT]")
    assert close(
        torrent, mh.attack([(gun, 2)], mh.targets.get("Horde infantry").unit).killed.mean()
    )
    assert killed([*GUN, "--skill", "3", *horde]) == killed([*GUN, *horde])  # GUN says 3+
    classic = ["attack", "--rules", "classic", "-A", "1", "--skill", "3", "-S", "3"]
    troops = ["--count", "10", "--models", "10", "-T", "3", "--save", "5+", "-W", "1"]
    assert killed([*classic, *troops, "--leadership", "6+"]) == killed(
        [*classic, *troops, "--leadership", "8"]
    )
    with pytest.raises(SystemExit) as info:
        main(["attack", "-A", "D6", "-S", "5", "--skill", "N/A", *horde])
    assert info.value.code == 2
    assert "only for [TORRENT] weapons" in capsys.readouterr().err


def test_a_classic_report_runs_with_no_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "r.csv"
    assert main(["report", "--rules", "classic", "-o", str(out), "--no-progress"]) == 0
    err = capsys.readouterr().err
    assert "skipped Vehicle" in err and "skipped Character-led unit" in err
    frame = pd.read_csv(out)
    assert "Horde infantry" in set(frame.target) and "p_panic_fail" in frame.columns


def test_mc_z_is_explained_and_the_default_report_is_ignored_by_git(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        main(["report", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "mc_z, the Monte Carlo mean's distance from the exact mean" in help_text
    root = Path(__file__).resolve().parents[1]
    assert "mathhammer-report.csv" in (root / ".gitignore").read_text().split()
    assert "mc_z" in (root / "README.md").read_text()
