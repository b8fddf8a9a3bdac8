"""Target suites from JSON files, in the format of the bundled suite."""

from __future__ import annotations

from pathlib import Path

from ..units.targets import Target, parse_suite
from .files import read_input_json

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
    >>> import json, pathlib, tempfile
    >>> squad = {"name": "Squad", "groups": [{"count": 5, "toughness": 4, "save": 3,
    ...                                       "wounds": 2, "points": 90}]}
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = pathlib.Path(folder, "mine.json")
    ...     _ = path.write_text(json.dumps({"targets": [squad]}))
    ...     (target,) = load(path)
    >>> target.unit, target.points
    (Unit('Squad', 5 models: 5x T4 Sv3+ W2), 90)
    """
    data = read_input_json(path)  # a FIFO or device is refused, not read
    return parse_suite(data, str(path))
