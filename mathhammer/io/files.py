"""Opening the files a user names: regular files only, and never more than a size cap.

Every reader of user files reads them through :func:`read_input_bytes`,
:func:`read_input_text` or :func:`read_input_json`, so that a path naming a device
(``/dev/zero``), a FIFO, a terminal or a socket is one
:class:`~mathhammer.errors.InputFileError` instead of a read that blocks for ever or fills
the memory, and so is a file past :data:`MAX_INPUT_BYTES`.
:func:`input_kind` says whether a path is a file or a folder in the same terms, for the
readers that accept both.

Examples
--------
>>> import tempfile, pathlib
>>> army = pathlib.Path(tempfile.mkdtemp()) / "army.csv"
>>> _ = army.write_text("unit,weapon\\nSquad,Bolt rifle\\n")
>>> read_input_text(army).splitlines()[1]
'Squad,Bolt rifle'
>>> input_kind(army), input_kind(army.parent)
('file', 'folder')
>>> read_input_text("/dev/zero")
Traceback (most recent call last):
...
mathhammer.errors.InputFileError: /dev/zero: not a regular file (a character device); \
expected a file saved on disk
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ..errors import InputFileError

__all__ = [
    "MAX_DEPTH",
    "MAX_INPUT_BYTES",
    "check_depth",
    "input_kind",
    "read_input_bytes",
    "read_input_text",
]

#: The largest input file read, in bytes (64 MiB): the largest real army file, a BSData
#: catalogue, is about 4 MB; a profiles CSV of 100,000 weapon lines is about 5 MB.
MAX_INPUT_BYTES = 64 * 2**20

#: The deepest nesting read from an army file, in levels of its tree: real rosters and
#: catalogues nest at most 21 (JSON) or 15 (XML); the readers walk their trees recursively.
MAX_DEPTH = 100

_KINDS = (
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISFIFO, "a FIFO or pipe"),
    (stat.S_ISSOCK, "a socket"),
)


def _not_regular(error: type[InputFileError], name: str, mode: int) -> InputFileError:
    """The error for a device, FIFO or socket: what it is, in words."""
    kind = next((what for test, what in _KINDS if test(mode)), "not a file")
    return error.at(name, None, None, f"not a regular file ({kind}); expected a file saved on disk")


def input_kind(path: str | Path, error: type[InputFileError] = InputFileError) -> str:
    """``"file"`` for a regular file, ``"folder"`` for a folder; anything else is refused.

    Parameters
    ----------
    path : str or Path
        The path a user gave (a symbolic link is followed).
    error : type, optional
        The :class:`~mathhammer.errors.InputFileError` class to raise (e.g. ``CsvError``).

    Raises
    ------
    InputFileError
        For a path that does not exist or cannot be looked at, or names a device, FIFO
        or socket, naming the path.
    """
    name = str(path)
    with _path_errors(name, "no such file or folder", error):
        mode = os.stat(path).st_mode
    if stat.S_ISDIR(mode):
        return "folder"
    if stat.S_ISREG(mode):
        return "file"
    raise _not_regular(error, name, mode)


def read_input_bytes(
    path: str | Path,
    *,
    limit: int = MAX_INPUT_BYTES,
    error: type[InputFileError] = InputFileError,
) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes.

    The file is checked after it is opened (without blocking, so a FIFO cannot hang the
    open) and read to at most ``limit + 1`` bytes, so a file that grows while it is read,
    or one of ``/proc`` whose size is not known, cannot exceed the cap either.

    Parameters
    ----------
    path : str or Path
        The file.
    limit : int
        The most bytes accepted (default :data:`MAX_INPUT_BYTES`).
    error : type, optional
        The :class:`~mathhammer.errors.InputFileError` class to raise.

    Raises
    ------
    InputFileError
        ``file: no such file``, ``file: not a regular file (...)``, ``file: larger than
        the limit ...`` or ``file: cannot read: ...``.
    """
    name = str(path)
    handle = _open(path, error)
    try:
        _check_file(os.fstat(handle), name, limit, error)
        data = _read_at_most(handle, limit + 1)
    except OSError as exc:
        raise error.at(name, None, None, f"cannot read: {_reason(exc)}") from None
    finally:
        os.close(handle)
    if len(data) > limit:
        raise _too_large(error, name, limit, None)
    return data


def _open(path: str | Path, error: type[InputFileError]) -> int:
    """The file opened for reading, without blocking (a FIFO cannot hang the open)."""
    with _path_errors(str(path), "no such file", error):
        return os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))


@contextmanager
def _path_errors(name: str, missing: str, error: type[InputFileError]) -> Iterator[None]:
    """Turn the failure to look at or open a path into ``error``: ``missing`` if it does
    not exist, else what the system says."""
    try:
        yield
    except FileNotFoundError:
        raise error.at(name, None, None, missing) from None
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the path
        raise error.at(name, None, None, f"cannot read: {_reason(exc)}") from None


def _check_file(info: os.stat_result, name: str, limit: int, error: type[InputFileError]) -> None:
    """Refuse an open file that is not a regular file of at most ``limit`` bytes."""
    if stat.S_ISDIR(info.st_mode):
        raise error.at(name, None, None, "cannot read: a folder; expected a file")
    if not stat.S_ISREG(info.st_mode):
        raise _not_regular(error, name, info.st_mode)
    if info.st_size > limit:
        raise _too_large(error, name, limit, info.st_size)


def read_input_text(
    path: str | Path,
    *,
    limit: int = MAX_INPUT_BYTES,
    encoding: str = "utf-8-sig",
    error: type[InputFileError] = InputFileError,
) -> str:
    """The text of a regular file of at most ``limit`` bytes (see :func:`read_input_bytes`).

    ``utf-8-sig`` by default: UTF-8, with the byte-order mark spreadsheets write removed.

    Raises
    ------
    InputFileError
        As :func:`read_input_bytes`, and ``file: cannot read: not UTF-8 text ...``.
    """
    data = read_input_bytes(path, limit=limit, error=error)
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as exc:
        raise error.at(str(path), None, None, f"cannot read: {exc}") from None


_REAL_DEPTH = "real army files nest a few dozen at most"


def _json_level(level: list[Any]) -> list[Any]:
    """The objects and arrays one level below ``level`` (scalars hold nothing below)."""
    below = []
    for node in level:
        values = node.values() if type(node) is dict else node if type(node) is list else ()
        below += [v for v in values if type(v) is dict or type(v) is list]
    return below


def check_depth(
    root: Any, name: str, children: Callable[[Any], Iterable[Any]] | None = None
) -> None:
    """Refuse a tree nested past :data:`MAX_DEPTH` levels, walked a level at a time without
    recursion: a parsed JSON value by default (its objects and arrays), or the nodes that
    ``children`` gives (an XML element's: ``list``).

    Examples
    --------
    >>> check_depth({"a": [1, {"b": 2}]}, "army.json")
    >>> deep: list[object] = []
    >>> for _ in range(150):
    ...     deep = [deep]
    >>> check_depth(deep, "army.json")
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputFileError: army.json: nested more than 100 levels deep; real army \
files nest a few dozen at most
    """
    level = [root]
    for _ in range(MAX_DEPTH):
        if children is None:
            level = _json_level(level)
        else:
            level = [child for node in level for child in children(node)]
        if not level:
            return
    problem = f"nested more than {MAX_DEPTH} levels deep"
    raise InputFileError.at(name, None, None, f"{problem}; {_REAL_DEPTH}")


def read_input_json(path: str | Path) -> Any:
    """The parsed JSON of a regular file (:func:`read_input_text`: a FIFO or device is
    refused, not read).

    Raises
    ------
    InputFileError
        Naming the file (and the line) for text that is not JSON, JSON nested too deeply
        for Python, or a number of thousands of digits.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = pathlib.Path(folder, "deep.json")
    ...     _ = path.write_text("[" * 100_000 + "]" * 100_000)
    ...     read_input_json(path)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputFileError: ...deep.json: cannot read: nested too deeply
    """
    name = str(path)
    text = read_input_text(path)
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputFileError.at(name, exc.lineno, None, f"not valid JSON: {exc.msg}") from None
    except RecursionError:
        raise InputFileError.at(name, None, None, "cannot read: nested too deeply") from None
    except ValueError:  # Python's limit on the digits of an int read from text
        problem = "cannot read: a number has too many digits"
        raise InputFileError.at(name, None, None, problem) from None


def _read_at_most(handle: int, size: int) -> bytes:
    """Up to ``size`` bytes of an open file, fewer at its end."""
    parts = []
    while size > 0 and (part := os.read(handle, min(size, 2**20))):
        parts.append(part)
        size -= len(part)
    return b"".join(parts)


def _too_large(error: type[InputFileError], name: str, limit: int, size: int | None) -> Exception:
    found = "more" if size is None else f"{size:,} bytes"
    return error.at(
        name,
        None,
        None,
        f"larger than the limit of {limit:,} bytes ({found}); expected an army file: split it",
    )


def _reason(exc: BaseException) -> str:
    """An OS error's reason without the path (the message names the file already)."""
    reason: str | None = getattr(exc, "strerror", None)  # an OSError's
    return reason or str(exc)
