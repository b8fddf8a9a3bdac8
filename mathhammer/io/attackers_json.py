"""Durability suites of attackers from JSON files, in the format of the bundled suite."""

from __future__ import annotations

from pathlib import Path

from ..units.durability import StandardAttacker, parse_attackers
from .files import read_input_json

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
    data = read_input_json(path)  # a FIFO or device is refused, not read
    return parse_attackers(data, str(path))
