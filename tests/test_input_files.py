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

READ_ATTACKERS = "import sys, mathhammer as mh\nmh.read_attackers(sys.argv[1])"


def one_error_line(done: subprocess.CompletedProcess[str]) -> str:
    """The one line a refused input gives, as an error of mathhammer."""
    lines = done.stderr.splitlines()
    assert done.returncode == 1 and len(lines) == 1, done.stderr[-2000:]
    return lines[0]


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


def test_an_endless_stdin_is_refused(tmp_path: Path) -> None:
    # `yes` never stops writing: the old reader ended in a MemoryError
    with subprocess.Popen(["yes", "unit,weapon"], stdout=subprocess.PIPE) as endless:
        done = run_limited(
            [sys.executable, "-c", READ_ATTACKERS, "/dev/stdin"], stdin=endless.stdout, timeout=60
        )
        endless.kill()
    assert "/dev/stdin: not a regular file (a FIFO or pipe)" in done.stderr.splitlines()[-1]


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
