"""Durability suites of attackers from JSON files, in the format of the bundled suite."""

from __future__ import annotations

import json
from pathlib import Path

from ..errors import InputFileError
from ..units.durability import StandardAttacker, parse_attackers
from .files import read_input_text

__all__ = ["load"]


def load(path: str | Path) -> tuple[StandardAttacker, ...]:
    """Read a suite of attackers from a JSON file in the format of the bundled one
    (``mathhammer/data/attackers.json``; see
    :func:`~mathhammer.units.durability.parse_attackers`).

    Raises
    ------
    InputFileError
        For a file that cannot be read or is not JSON, naming the file and line.
    ProfileError
        For an invalid entry, naming the file and the entry (an attacker without points
        among them).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = pathlib.Path(folder, "mine.json")
    ...     _ = path.write_text('{"attackers": [{"name": "Guns", "role": "mine", '
    ...         '"weapons": [{"name": "Gun", "attacks": 2, "skill": 3, "strength": 4}]}]}')
    ...     load(path)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mathhammer.errors.ProfileError: ...mine.json: attackers[0] ('Guns'): points is required: ...
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
    return parse_attackers(data, name)
