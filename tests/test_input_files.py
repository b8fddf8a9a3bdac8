"""Input files are regular files of at most 64 MiB: a device, a FIFO, an endless stdin or a
huge file is one clean line, never a read that fills the memory or never ends (issue 13,
point 4). Every read that could run away runs in a subprocess with a memory limit."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from faults import MATHHAMMER, run_limited

import mathhammer as mh
from mathhammer.errors import CsvError, InputFileError
from mathhammer.io.files import MAX_INPUT_BYTES, input_kind, read_input_bytes, read_input_text

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/dev, /proc")

DATA = Path(__file__).resolve().parent / "data"
READ_ATTACKERS = "import sys, mathhammer as mh\nmh.read_attackers(sys.argv[1])"


def one_error_line(done: subprocess.CompletedProcess[str]) -> str:
    """The one line a refused input gives, as an error of mathhammer."""
    lines = done.stderr.splitlines()
    assert done.returncode == 1 and len(lines) == 1, done.stderr[-2000:]
    return lines[0]


@pytest.mark.system
def test_a_device_is_refused_by_the_command_line_and_the_library() -> None:
    done = run_limited([*MATHHAMMER, "report", "/dev/zero"], memory=2**30, timeout=60)
    assert one_error_line(done) == (
        "mathhammer: error: /dev/zero: not a regular file (a character device); "
        "expected a file saved on disk"
    )
    # the library read /dev/zero until the memory ran out
    done = run_limited([sys.executable, "-c", READ_ATTACKERS, "/dev/zero"], timeout=60)
    assert done.returncode == 1
    assert done.stderr.splitlines()[-1].startswith(
        "mathhammer.errors.CsvError: /dev/zero: not a regular file (a character device)"
    )


@pytest.mark.system
def test_an_endless_stdin_is_refused(tmp_path: Path) -> None:
    # `yes` never stops writing: the old reader ended in a MemoryError
    with subprocess.Popen(["yes", "unit,weapon"], stdout=subprocess.PIPE) as endless:
        done = run_limited(
            [sys.executable, "-c", READ_ATTACKERS, "/dev/stdin"], stdin=endless.stdout, timeout=60
        )
        endless.kill()
    assert "/dev/stdin: not a regular file (a FIFO or pipe)" in done.stderr.splitlines()[-1]


@pytest.mark.system
def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    fifo = tmp_path / "army.csv"
    os.mkfifo(fifo)
    done = run_limited([*MATHHAMMER, "report", str(fifo), "-o", str(tmp_path / "r.csv")])
    assert one_error_line(done).endswith(
        f"{fifo}: not a regular file (a FIFO or pipe); expected a file saved on disk"
    )
    # the library too: the old reader blocked in open() until a writer came
    done = run_limited([sys.executable, "-c", READ_ATTACKERS, str(fifo)], timeout=30)
    assert f"CsvError: {fifo}: not a regular file (a FIFO or pipe)" in done.stderr
    assert not (tmp_path / "r.csv").exists()


def test_a_file_past_the_size_limit_is_refused_before_it_is_read(tmp_path: Path) -> None:
    huge = tmp_path / "army.csv"
    with huge.open("wb") as handle:
        handle.truncate(MAX_INPUT_BYTES + 1)  # sparse: no disk space, no memory
    with pytest.raises(CsvError) as refused:
        mh.read_attackers(huge)
    assert str(refused.value) == (
        f"{huge}: larger than the limit of 67,108,864 bytes (67,108,865 bytes); "
        "expected an army file: split it"
    )
    assert refused.value.file == str(huge)


def test_a_file_of_unknown_size_is_read_to_the_limit_only() -> None:
    # /proc files say they are empty; the cap holds by the bytes actually read
    with pytest.raises(InputFileError, match=r"larger than the limit of 10 bytes \(more\)"):
        read_input_bytes("/proc/self/status", limit=10)
    assert read_input_bytes("/proc/self/status").startswith(b"Name:")


def test_folders_missing_paths_and_bad_names(tmp_path: Path) -> None:
    assert input_kind(tmp_path) == "folder"
    with pytest.raises(InputFileError, match="no such file or folder"):
        input_kind(tmp_path / "none")
    with pytest.raises(InputFileError, match="cannot read: "):
        input_kind("bad\0name")
    with pytest.raises(InputFileError, match="not a regular file"):
        input_kind("/dev/null")
    with pytest.raises(InputFileError, match="cannot read: a folder; expected a file"):
        read_input_text(tmp_path)
    with pytest.raises(InputFileError, match="no such file$"):
        read_input_text(tmp_path / "none.csv")
    with pytest.raises(InputFileError, match="cannot read: "):
        read_input_text("bad\0name")


def test_a_read_error_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    army = tmp_path / "army.csv"
    army.write_text("unit\n")

    def fail(handle: int, size: int) -> bytes:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "read", fail)
    with pytest.raises(InputFileError) as failed:
        read_input_text(army)
    assert str(failed.value) == f"{army}: cannot read: Input/output error"


def test_read_army_refuses_a_device_and_reads_json_through_the_cap(tmp_path: Path) -> None:
    with pytest.raises(InputFileError, match="a character device"):
        mh.read_army("/dev/null")
    suite = tmp_path / "suite.json"
    suite.write_text("[1, 2")
    with pytest.raises(InputFileError, match="not valid JSON"):
        mh.read_army(suite)


@pytest.mark.parametrize(
    "text",
    [
        '{"roster": {"name": "x", "costs": [{"name": "pts", "value": %s}]}}' % ("9" * 5000),
        '[{"name": "T", "groups": [{"count": %s}]}]' % ("9" * 5000),
        "[" * 100_000 + "]" * 100_000,
    ],
    ids=["roster", "suite", "deep"],
)
def test_any_json_army_file_past_pythons_limits_is_one_clear_error(
    tmp_path: Path, text: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from mathhammer.cli import main

    path = tmp_path / "army.json"
    path.write_text(text)
    with pytest.raises(InputFileError, match=r"cannot read: (a number has too many digits|nested)"):
        mh.read_army(path)
    out = str(tmp_path / "d.csv")
    for argv in (["datasheets", str(path)], ["durability", str(path), "-o", out]):
        assert main(argv) == 1
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and err[0].startswith(f"mathhammer: error: {path}: cannot read"), err


# ---------------------------------------------------------------- the importers' files
IMPORTERS = """
import sys, mathhammer as mh
from mathhammer.errors import MathhammerError
from mathhammer.io.targets_json import load
read = {"army": mh.read_army, "catalogue": mh.read_catalogue, "roster": mh.read_roster,
        "targets": load}[sys.argv[1]]
try:
    found = read(sys.argv[2])
    print("read", type(found).__name__)
except MathhammerError as exc:
    print("refused", str(exc).splitlines()[0])
"""


def read_in_child(kind: str, path: Path) -> str:
    """What ``kind``'s reader made of ``path``, read in a capped child that cannot hang."""
    done = run_limited([sys.executable, "-c", IMPORTERS, kind, str(path)], timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.strip()


def copy_data(source: Path, folder: Path) -> Path:
    folder.mkdir()
    for file in source.iterdir():
        if file.is_file() and file.suffix in (".json", ".csv"):
            (folder / file.name).write_bytes(file.read_bytes())
    return folder


@pytest.mark.system
def test_a_fifo_named_like_a_catalogue_is_passed_over_in_a_folder(tmp_path: Path) -> None:
    # the folder reader took every name ending .json; a FIFO's open() blocked for ever
    folder = copy_data(DATA / "bsdata", tmp_path / "bsdata")
    os.mkfifo(folder / "Aeldari.json")
    assert read_in_child("catalogue", folder) == "read Catalogue"
    # read_army lists the folder's factions the same way, and asks for one of them
    assert read_in_child("army", folder).startswith("refused --faction for")
    # named itself, it is refused in one line
    assert read_in_child("catalogue", folder / "Aeldari.json") == (
        f"refused {folder / 'Aeldari.json'}: not a regular file (a FIFO or pipe); "
        "expected a file saved on disk"
    )


@pytest.mark.system
def test_a_fifo_beside_a_linked_catalogue_is_passed_over(tmp_path: Path) -> None:
    folder = copy_data(DATA / "bsdata", tmp_path / "bsdata")
    os.mkfifo(folder / "Library - Orks.json")  # a name a link would be looked for under
    assert read_in_child("catalogue", folder / "Orks.json") == "read Catalogue"


@pytest.mark.system
def test_a_fifo_in_place_of_a_roster_or_a_wahapedia_table_is_refused(tmp_path: Path) -> None:
    roster = tmp_path / "list.ros"
    os.mkfifo(roster)
    assert read_in_child("roster", roster) == (
        f"refused {roster}: not a regular file (a FIFO or pipe); expected a file saved on disk"
    )
    export = copy_data(DATA / "wahapedia-10e", tmp_path / "export")
    (export / "Datasheets_wargear.csv").unlink()
    os.mkfifo(export / "Datasheets_wargear.csv")
    assert read_in_child("army", export) == (
        f"refused {export / 'Datasheets_wargear.csv'}: not a regular file (a FIFO or pipe); "
        "expected a file saved on disk"
    )
    suite = tmp_path / "suite.json"
    os.mkfifo(suite)
    assert read_in_child("targets", suite).startswith(f"refused {suite}: not a regular file")


@pytest.mark.system
def test_the_importers_refuse_a_device_and_a_file_past_their_cap(tmp_path: Path) -> None:
    for kind in ("catalogue", "roster", "targets"):
        assert read_in_child(kind, Path("/dev/zero")) == (
            "refused /dev/zero: not a regular file (a character device); "
            "expected a file saved on disk"
        )
    roster = tmp_path / "big.ros"
    with roster.open("wb") as handle:
        handle.truncate(32 * 2**20 + 1)
    assert read_in_child("roster", roster) == (
        f"refused {roster}: larger than the limit of 33,554,432 bytes (33,554,433 bytes); "
        "expected an army file: split it"
    )


@pytest.mark.system
@pytest.mark.parametrize("kind", ["roster", "catalogue"])
def test_json_too_deep_or_with_a_huge_number_is_one_error(kind: str, tmp_path: Path) -> None:
    path = tmp_path / "army.json"
    path.write_text('{"roster": {"costs": ' + "9" * 5000 + "}}")
    assert read_in_child(kind, path) == f"refused {path}: cannot read: a number has too many digits"
    path.write_text('{"roster": ' + "[" * 100_000 + "]" * 100_000 + "}")
    assert read_in_child(kind, path) == f"refused {path}: cannot read: nested too deeply"
