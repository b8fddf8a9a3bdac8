"""Writing the files a user names without harming what the path already is.

An output is checked before any work (:func:`check_output`) and written so that a reader
never sees half a file and a failure leaves the old one as it was:

- a regular file (or a new one) is written to a temporary file beside it and renamed over
  it; a symbolic link is followed, and its target is replaced, not the link;
- a character device (``/dev/null``) or a FIFO is written in place, never replaced;
- a folder, a block device or a socket is refused, and so is a read-only file unless
  ``force`` is given (it is then replaced, keeping its permissions).

The temporary files are named ``.<name>.mathhammer-tmp-<pid>-<random>``: those whose
process is gone (killed during a write) are removed the next time an output is written
in their folder (:func:`remove_stale_temporaries`).

Examples
--------
>>> import tempfile, pathlib
>>> out = pathlib.Path(tempfile.mkdtemp()) / "report.csv"
>>> write_output(check_output(out), lambda handle: handle.write("a,b\\n1,2\\n"))
>>> out.read_text()
'a,b\\n1,2\\n'
>>> check_output("/dev/null").direct
True
"""

from __future__ import annotations

import os
import re
import secrets
import stat
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from ..errors import OptionError, field_error

__all__ = [
    "OutputPath",
    "TEMPORARY_MARK",
    "check_output",
    "process_running",
    "remove_stale_temporaries",
    "write_output",
    "write_outputs",
]

#: What the name of every temporary file written here contains.
TEMPORARY_MARK = ".mathhammer-tmp-"
_TEMPORARY = re.compile(r"\..+\.mathhammer-tmp-(\d{1,10})-[0-9a-f]+")
_REFUSED = ((stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


@dataclass(frozen=True)
class OutputPath:
    """Where an output goes and how it is written (see :func:`check_output`).

    Attributes
    ----------
    given : str
        The path as the user gave it.
    path : Path
        Where the bytes go: the final target of a symbolic link, else ``given``.
    direct : bool
        True for a character device or a FIFO: written in place, never replaced.
    mode : int or None
        The permission bits of the regular file replaced, kept on the new one; None for a
        new file (created with the usual permissions, ``0o666`` less the umask).
    """

    given: str
    path: Path
    direct: bool = False
    mode: int | None = None


def check_output(
    path: str | os.PathLike[str], *, force: bool = False, what: str = "output", hint: str = ""
) -> OutputPath:
    """Check that ``path`` can be written, before any work; say how it will be.

    Parameters
    ----------
    path : str or path-like
        The output file.
    force : bool
        Replace a read-only file rather than refuse it.
    what : str
        The output's name in messages, e.g. ``"--output"``.
    hint : str
        How to replace a read-only file anyway (e.g. ``"add --force to replace it"``).

    Raises
    ------
    OptionError
        For an empty path, a folder, a block device or a socket, a path whose folder does
        not exist or cannot be written to, or a read-only file without ``force``.
    """
    given = os.fspath(path)
    if not given:
        raise field_error(OptionError, what, "a file name", given)
    real, info = _target(given, what)
    if info is not None and not stat.S_ISREG(info.st_mode):
        return _special(given, real, info.st_mode, what)
    _check_folder(given, real.parent, what)
    return _regular(given, real, info, force=force, what=what, hint=hint)


def _regular(
    given: str, real: Path, info: os.stat_result | None, *, force: bool, what: str, hint: str
) -> OutputPath:
    """A new file, or a regular file to replace keeping its permissions (a read-only one
    only with ``force``)."""
    if info is None:
        return OutputPath(given, real)
    if not force and _read_only(real, info):
        raise field_error(OptionError, what, "a writable file", given, hint or "it is read-only")
    return OutputPath(given, real, mode=stat.S_IMODE(info.st_mode))


def _target(given: str, what: str) -> tuple[Path, os.stat_result | None]:
    """Where a path's bytes go (a link's final target, a dangling one's too), and what is
    there now (None: nothing)."""
    try:
        real = Path(os.path.realpath(given))
        return real, os.stat(real)
    except FileNotFoundError:
        return real, None
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the name
        problem = str(exc)
        raise field_error(OptionError, what, "a file that can be written", given, problem) from None


def _read_only(real: Path, info: os.stat_result) -> bool:
    """Whether a file is not to be replaced: not writable by us, or without write bits."""
    # the write bits too: root may write any file, but a read-only one says "keep me"
    return not os.access(real, os.W_OK) or not info.st_mode & 0o222


def _special(given: str, real: Path, mode: int, what: str) -> OutputPath:
    """A path that is not a regular file: written in place, or refused."""
    if stat.S_ISDIR(mode):
        raise field_error(OptionError, what, "a file name, not a folder", given)
    for test, name in _REFUSED:
        if test(mode):
            raise field_error(
                OptionError, what, "a file, a FIFO or a character device", given, f"{name}"
            )
    return OutputPath(given, real, direct=True)


def _check_folder(given: str, folder: Path, what: str) -> None:
    if not folder.is_dir():
        raise field_error(
            OptionError, what, "in an existing folder", given, f"create {str(folder)!r} first"
        )
    if not os.access(folder, os.W_OK | os.X_OK):
        raise field_error(OptionError, what, "in a folder that can be written to", given)


Writer = Callable[[IO[Any]], object]


def write_output(target: OutputPath, write: Writer, *, binary: bool = False) -> None:
    """Write one output: ``write(handle)`` into a temporary file, renamed over the target
    (or into a device or FIFO in place); on any failure the old file is left as it was.

    Parameters
    ----------
    target : OutputPath
        From :func:`check_output`.
    write : callable
        Writes the content to the open handle it is given.
    binary : bool
        Open the handle in binary mode (for images); else UTF-8 text, with no newline
        translation.
    """
    write_outputs([(target, write, binary)])


def write_outputs(outputs: Sequence[tuple[OutputPath, Writer, bool]]) -> None:
    """Write several outputs, all or none: every one is written to its temporary file
    before any is renamed into place, so a failure in one replaces none.

    Parameters
    ----------
    outputs : sequence of (OutputPath, callable, bool)
        Each output's target, its writer and whether it is binary (see :func:`write_output`).
        Devices and FIFOs are written last, once the others are complete; they cannot be
        taken back.
    """
    ordered = sorted(outputs, key=lambda item: item[0].direct)
    written: list[tuple[str, Path]] = []
    try:
        for target, write, binary in ordered:
            _write_one(target, write, binary, written)
        for temporary, final in written:
            os.replace(temporary, final)
    except BaseException:
        for temporary, _ in written:
            Path(temporary).unlink(missing_ok=True)
        raise


def _write_one(
    target: OutputPath, write: Writer, binary: bool, written: list[tuple[str, Path]]
) -> None:
    """Write one output: a device or FIFO in place, else to its temporary file (noted in
    ``written``)."""
    if target.direct:
        with _opened(str(target.path), binary) as handle:
            write(handle)
    else:
        _write_temporary(target, write, binary, written)


def _write_temporary(
    target: OutputPath, write: Writer, binary: bool, written: list[tuple[str, Path]]
) -> None:
    """Write one output to a new temporary file beside its target, with the target's
    permissions; the file is noted in ``written`` before it is created."""
    temporary = _temporary_name(target.path)
    written.append((temporary, target.path))
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(temporary, flags, 0o666)  # less the umask, as any new file
    with _opened(fd, binary, sync=True) as handle:
        write(handle)
    if target.mode is not None:
        os.chmod(temporary, target.mode)


def _temporary_name(path: Path) -> str:
    """A temporary file's name beside ``path``, recognisable as ours (and stale ones gone)."""
    remove_stale_temporaries(path.parent)
    return str(path.parent / f".{path.name}{TEMPORARY_MARK}{os.getpid()}-{secrets.token_hex(4)}")


@contextmanager
def _opened(file: str | int, binary: bool, sync: bool = False) -> Iterator[IO[Any]]:
    """The file (a path, or a descriptor it takes over) opened for writing."""
    if binary:
        handle: IO[Any] = open(file, "wb")  # noqa: SIM115 (closed below, after the fsync)
    else:
        handle = open(file, "w", encoding="utf-8", newline="")  # noqa: SIM115
    with handle:
        yield handle
        handle.flush()
        if sync:
            os.fsync(handle.fileno())  # on disk before the rename makes it the file


def remove_stale_temporaries(folder: str | Path) -> list[Path]:
    """Remove the temporary files of writes whose process has gone; return them.

    A write killed outright (``SIGKILL``, a power cut) cannot remove its temporary file;
    it is recognised by its name, ``.<name>.mathhammer-tmp-<pid>-<random>``, and its
    process id, which no running process has.

    Examples
    --------
    >>> import tempfile, pathlib, subprocess, sys
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
    ...                       capture_output=True, text=True).stdout.strip()
    >>> _ = (folder / f".r.csv.mathhammer-tmp-{gone}-0a1b").write_text("")
    >>> [p.name for p in remove_stale_temporaries(folder)] == [f".r.csv.mathhammer-tmp-{gone}-0a1b"]
    True
    """
    removed: list[Path] = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    for entry in entries:
        if not _stale(entry):
            continue
        try:
            os.unlink(entry.path)
        except OSError:
            continue  # another run removed it first, or the folder is not ours to change
        removed.append(Path(entry.path))
    return removed


def _stale(entry: os.DirEntry[str]) -> bool:
    """Whether a folder's entry is the temporary file of a write whose process has gone."""
    match = _TEMPORARY.fullmatch(entry.name)
    if match is None or not entry.is_file(follow_symlinks=False):
        return False
    return int(match[1]) != os.getpid() and not process_running(int(match[1]))


def process_running(pid: int) -> bool:
    """Whether a process with this id runs (one of another user's counts as running, and
    so does an id this system cannot have).

    Examples
    --------
    >>> process_running(os.getpid())
    True
    """
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True
    return True
