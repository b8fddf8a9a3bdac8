"""Target suites from JSON files, in the format of the bundled suite."""

from __future__ import annotations

import json
from pathlib import Path

from ..errors import InputFileError
from ..units.targets import Target, parse_suite
from .files import read_input_text

__all__ = ["load"]


def load(path: str | Path) -> tuple[Target, ...]:
    """Read a target suite from a JSON file in the format of the bundled one.

    Raises
    ------
    InputFileError
        For a file that cannot be read or is not JSON, naming the file and line; JSON
        nested too deeply for Python or with a number of thousands of digits cannot be read.
    ProfileError
        For an invalid entry, naming the file and the entry.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = pathlib.Path(folder, "deep.json")
    ...     _ = path.write_text("[" * 100_000 + "]" * 100_000)
    ...     load(path)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputFileError: ...deep.json: cannot read: nested too deeply
    """
    name = str(path)
    text = read_input_text(path)  # a FIFO or device is refused, not read
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputFileError.at(name, exc.lineno, None, f"not valid JSON: {exc.msg}") from None
    except RecursionError:
        raise InputFileError.at(name, None, None, "cannot read: nested too deeply") from None
    except ValueError:  # Python's limit on the digits of an int read from text
        problem = "cannot read: a number has too many digits"
        raise InputFileError.at(name, None, None, problem) from None
    return parse_suite(data, name)
