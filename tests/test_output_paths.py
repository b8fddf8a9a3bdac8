"""Output paths are written without harming what they are (issue 13, points 5 and 7).

A FIFO or a character device is written in place, never replaced; a symbolic link's target
is replaced, not the link; a read-only file is refused without ``--force``; and everything
that can fail (the metric, the plot's format, the folders, matplotlib itself) fails before
any output is replaced. ``/dev/null`` is only looked at (os.stat), never written by a
test: the old code replaced the device node with a regular file when run as root.
"""

from __future__ import annotations

import os
import shutil
import stat
import threading
import time
from pathlib import Path

import pandas as pd
import pytest

import mathhammer as mh
from mathhammer.cli import main
from mathhammer.io.outputs import TEMPORARY_MARK, OutputPath, check_output, write_outputs

ARMY = "unit,weapon,count,A,BS/WS,S,AP,D,abilities,points\nSquad,Bolt rifle,5,2,3+,4,-1,1,,90\n"
OLD = "precious\n"


@pytest.fixture
def army(tmp_path: Path) -> Path:
    path = tmp_path / "army.csv"
    path.write_text(ARMY)
    return path


def report(army: Path, *options: str) -> int:
    return main(["report", str(army), "--no-progress", *options])


def debris(*folders: Path) -> list[str]:
    """Our temporary files left in ``folders``."""
    return [p.name for folder in folders for p in folder.iterdir() if TEMPORARY_MARK in p.name]


def one_error(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith("mathhammer: error: "), err
    return err[0]


class FifoReader(threading.Thread):
    """Reads a FIFO to the end without ever blocking (opened non-blocking, polled), so a
    test against code that never opens the FIFO cannot hang."""

    def __init__(self, path: Path, timeout: float = 60) -> None:
        super().__init__(daemon=True)
        self.handle = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        self.deadline = time.monotonic() + timeout
        self.data = b""

    def run(self) -> None:
        started = False
        while time.monotonic() < self.deadline:
            try:
                part = os.read(self.handle, 65536)
            except BlockingIOError:  # a writer, with nothing written yet
                started = True
                time.sleep(0.01)
                continue
            if part:
                started = True
                self.data += part
            elif started:
                break  # the writer closed it
            else:
                time.sleep(0.01)  # no writer yet
        os.close(self.handle)


# --------------------------------------------------------------------------- point 5
def test_a_fifo_is_written_in_place(army: Path, tmp_path: Path) -> None:
    fifo = tmp_path / "out.csv"
    os.mkfifo(fifo)
    reader = FifoReader(fifo)
    reader.start()
    assert report(army, "-o", str(fifo)) == 0
    reader.join(60)
    assert reader.data.decode().startswith("loadout,phase,weapons_used,rules,context,target,")
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)  # the old code renamed a file over it
    assert debris(tmp_path) == []


@pytest.mark.parametrize("path", ["/dev/null", "/dev/zero"])
def test_a_character_device_is_chosen_for_writing_in_place(path: str, tmp_path: Path) -> None:
    if not os.path.exists(path):
        pytest.skip(f"no {path} here")
    assert stat.S_ISCHR(os.stat(path).st_mode)
    assert check_output(path) == OutputPath(path, Path(path), direct=True)
    link = tmp_path / "null.csv"
    link.symlink_to(path)
    assert check_output(link) == OutputPath(str(link), Path(path), direct=True)


def test_a_direct_output_is_never_renamed_over(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fifo = tmp_path / "out.csv"
    os.mkfifo(fifo)
    reader = FifoReader(fifo)
    reader.start()

    def no_replace(*args: object) -> None:
        raise AssertionError("a device or FIFO must never be replaced")

    monkeypatch.setattr(os, "replace", no_replace)
    write_outputs([(check_output(fifo), lambda out: out.write("a\n"), False)])
    reader.join(60)
    assert reader.data == b"a\n"


def test_a_symbolic_link_is_followed_and_its_target_replaced(army: Path, tmp_path: Path) -> None:
    here, there = tmp_path / "here", tmp_path / "there"
    here.mkdir()
    there.mkdir()
    target = there / "report.csv"
    target.write_text(OLD)
    link = here / "out.csv"
    link.symlink_to(target)
    assert report(army, "-o", str(link)) == 0
    assert link.is_symlink() and link.readlink() == target  # the link itself is unchanged
    assert target.read_text().startswith("loadout,")
    assert debris(here, there) == []
    dangling = here / "new.csv"
    dangling.symlink_to(there / "made.csv")
    assert report(army, "-o", str(dangling)) == 0
    assert dangling.is_symlink() and (there / "made.csv").read_text().startswith("loadout,")


@pytest.mark.parametrize("flag", ["-o", "--plot", "--html"])
def test_a_read_only_output_is_refused_without_force(
    army: Path, tmp_path: Path, flag: str, capsys: pytest.CaptureFixture[str]
) -> None:
    names = {"-o": "r.csv", "--plot": "h.png", "--html": "r.html"}
    paths = {f: tmp_path / name for f, name in names.items()}
    kept = paths[flag]
    kept.write_text(OLD)
    kept.chmod(0o444)
    argv = [x for f, p in paths.items() for x in (f, str(p))]
    assert report(army, *argv) == 1
    flag_name = "--output" if flag == "-o" else flag
    assert one_error(capsys) == (
        f"mathhammer: error: {flag_name} must be a writable file; got '{kept}' "
        "(it is read-only: add --force to replace it)"
    )
    assert kept.read_text() == OLD
    assert sorted(p.name for p in tmp_path.iterdir()) == ["army.csv", names[flag]]
    assert report(army, *argv, "--force") == 0
    assert kept.read_bytes() != OLD.encode() and stat.S_IMODE(kept.stat().st_mode) == 0o444
    assert debris(tmp_path) == []


def test_outputs_that_cannot_be_written_are_refused(
    army: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = str(tmp_path / "r.csv")
    assert report(army, "-o", str(tmp_path)) == 1
    assert "--output must be a file name, not a folder" in one_error(capsys)
    assert report(army, "-o", out, "--html", out) == 1
    assert "--html must be a different file from --output" in one_error(capsys)
    assert report(army, "-o", out, "--plot", str(tmp_path / "none" / "h.png")) == 1
    assert "--plot must be in an existing folder" in one_error(capsys)
    assert report(army, "-o", "") == 1
    assert "--output must be a file name; got ''" in one_error(capsys)
    assert report(army, "-o", "bad\0name") == 1
    assert "--output must be a file that can be written" in one_error(capsys)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["army.csv"]


def test_a_socket_is_refused(tmp_path: Path) -> None:
    import socket

    path = tmp_path / "s.sock"
    with socket.socket(socket.AF_UNIX) as server:
        server.bind(str(path))
        with pytest.raises(mh.OptionError, match="a file, a FIFO or a character device"):
            check_output(path)


def test_a_folder_that_cannot_be_written_to_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # as root every folder can be written to: the permission check is what is tested
    real_access = os.access

    def access(path: object, mode: int) -> bool:
        return Path(str(path)) != tmp_path and real_access(path, mode)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "access", access)
    with pytest.raises(mh.OptionError, match="in a folder that can be written to"):
        check_output(tmp_path / "r.csv")


def test_all_outputs_or_none(tmp_path: Path) -> None:
    first, second = tmp_path / "a.csv", tmp_path / "b.csv"
    first.write_text(OLD)

    def fail(out: object) -> None:
        raise RuntimeError("drawing failed")

    with pytest.raises(RuntimeError):
        write_outputs(
            [
                (check_output(first), lambda out: out.write("new"), False),
                (check_output(second), fail, False),
            ]
        )
    assert first.read_text() == OLD and not second.exists() and debris(tmp_path) == []


# --------------------------------------------------------------------------- point 7
def test_a_bad_plot_format_is_refused_before_any_work(
    army: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "r.csv"
    out.write_text(OLD)
    assert report(army, "-o", str(out), "--plot", str(tmp_path / "heat.xyz")) == 1
    line = one_error(capsys)
    assert line.startswith(
        "mathhammer: error: --plot must be a file name ending in an image format matplotlib "
        "writes (."
    )
    assert ".png, " in line and line.endswith(f"; got '{tmp_path / 'heat.xyz'}'")
    assert out.read_text() == OLD and debris(tmp_path) == []
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
                "--target",
                "Vehicle",
                "--plot",
                str(tmp_path / "a.txt"),
            ]
        )
        == 1
    )
    assert "--plot must be a file name ending in an image format" in one_error(capsys)


def test_a_metric_the_report_lacks_replaces_nothing(
    army: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "r.csv"
    out.write_text(OLD)
    assert report(army, "-o", str(out), "--metric", "mc_z") == 1  # no --check-trials
    assert "--metric must be one of [" in one_error(capsys)
    assert out.read_text() == OLD and debris(tmp_path) == []


def test_a_failing_heatmap_is_one_line_and_replaces_nothing(
    army: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out, html, png = tmp_path / "r.csv", tmp_path / "r.html", tmp_path / "h.png"
    out.write_text(OLD)

    def broken(*args: object, **kwargs: object) -> None:
        raise ValueError("Image size of 100000x120 pixels is too large.\nIt must be less")

    monkeypatch.setattr("mathhammer.views.plots.plot_compare", broken)
    assert report(army, "-o", str(out), "--html", str(html), "--plot", str(png)) == 1
    assert one_error(capsys) == (
        f"mathhammer: error: --plot must be an image matplotlib can draw; got '{png}' "
        "(Image size of 100000x120 pixels is too large.)"
    )
    assert out.read_text() == OLD and not html.exists() and not png.exists()
    assert debris(tmp_path) == []


@pytest.mark.system
@pytest.mark.skipif(shutil.which("xelatex") is not None, reason="LaTeX draws .pgf here")
def test_a_format_whose_writer_is_missing_is_one_line(
    army: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "r.csv"
    out.write_text(OLD)
    assert report(army, "-o", str(out), "--plot", str(tmp_path / "h.pgf")) == 1
    assert "--plot must be an image matplotlib can draw; got" in one_error(capsys)
    assert out.read_text() == OLD


def test_the_plot_is_written_in_the_format_its_name_says(
    army: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "r.csv"
    assert (
        report(army, "-o", str(out), "--plot", str(tmp_path / "h.svg"), "--metric", "mean_killed")
        == 0
    )
    assert f"heatmap of mean_killed written to {tmp_path / 'h.svg'}" in capsys.readouterr().out
    assert (tmp_path / "h.svg").read_text().lstrip().startswith("<?xml")
    assert len(pd.read_csv(out)) == 9


def test_an_error_of_ours_while_drawing_is_shown_as_it_is(
    army: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise mh.OptionError("metric 'x' must be numeric; got text")

    monkeypatch.setattr("mathhammer.views.plots.plot_compare", refuse)
    assert report(army, "-o", str(tmp_path / "r.csv"), "--plot", str(tmp_path / "h.png")) == 1
    assert one_error(capsys) == "mathhammer: error: metric 'x' must be numeric; got text"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["army.csv"]


def test_the_library_writer_refuses_a_read_only_file(tmp_path: Path) -> None:
    from mathhammer.io.report import write_csv_atomic

    out = tmp_path / "r.csv"
    out.write_text(OLD)
    out.chmod(0o444)
    with pytest.raises(mh.OptionError, match="pass force=True to replace it"):
        write_csv_atomic(pd.DataFrame({"a": [1]}), out)
    write_csv_atomic(pd.DataFrame({"a": [1]}), out, force=True)
    assert out.read_text() == "a\n1\n"


def test_an_input_file_is_never_the_output(
    army: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # the report replaced the army it was read from
    link = tmp_path / "link.csv"
    link.symlink_to(army)
    suite = tmp_path / "t.csv"
    suite.write_text("unit,models,T,Sv,W\nT0,10,4,3+,1\n")
    assert report(army, "-o", str(army)) == 1
    assert "--output must be a file other than ATTACKERS" in one_error(capsys)
    assert report(army, "-o", str(link)) == 1  # the same file by another name
    assert "--output must be a file other than ATTACKERS" in one_error(capsys)
    assert report(army, "--targets", str(suite), "--html", str(suite)) == 1
    assert "--html must be a file other than --targets" in one_error(capsys)
    assert army.read_text() == ARMY and "T0,10" in suite.read_text()
    assert debris(tmp_path) == []


def test_an_empty_input_name_is_an_error_not_the_examples(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["report", "", "-o", str(tmp_path / "r.csv")]) == 1
    assert one_error(capsys).endswith("ATTACKERS must be a file or folder; got ''")
    assert main(["report", "--targets", "", "-o", str(tmp_path / "r.csv")]) == 1
    assert one_error(capsys).endswith("--targets must be a file or folder; got ''")
    assert not (tmp_path / "r.csv").exists()
