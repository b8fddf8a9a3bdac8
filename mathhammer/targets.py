"""The standard target suite and target files: ``mathhammer.targets``.

The bundled suite (horde, line, elite and heavy elite infantry, cavalry, a monster, a
vehicle, a super-heavy vehicle and a CHARACTER-led unit) is package data, read on first
use of :data:`STANDARD`; :func:`load` reads a suite of your own, from a JSON file in the
format of the bundled one or from a targets CSV.

Examples
--------
>>> from mathhammer import targets
>>> [t.name for t in targets.STANDARD][:3]
['Horde infantry', 'Line infantry', 'Elite infantry']
>>> marines = targets.get("line infantry")
>>> marines.unit.models, marines.points
(10, 180)
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from .io.targets_csv import read_targets
from .io.targets_json import load as load_json
from .units.targets import Target, get, names, parse_suite, standard

if TYPE_CHECKING:  # read on first use (see __getattr__)
    STANDARD: tuple[Target, ...]

__all__ = ["STANDARD", "get", "load", "names", "parse_suite", "standard"]


def load(path: str | Path) -> tuple[Target, ...]:
    """Read targets from a file: a CSV (by its ``.csv`` suffix) or a JSON suite.

    A ``.csv`` file is read by :func:`mathhammer.io.read_targets` (one row per
    allocation group); any other file as a JSON suite in the format of the bundled one
    (:func:`mathhammer.io.targets_json.load`).

    Raises
    ------
    InputFileError
        For a file that cannot be read, located by file and line (a
        :class:`~mathhammer.errors.CsvError` for a CSV file).
    ProfileError
        For an invalid entry of a JSON suite, naming the file and the entry.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = pathlib.Path(folder, "threats.csv")
    ...     _ = path.write_text("unit,models,T,Sv,W,points\\nGuard,10,3,5+,1,60\\n")
    ...     (guard,) = load(path)
    >>> guard.unit, guard.points
    (Unit('Guard', 10 models: 10x T3 Sv5+ W1), 60)
    """
    if Path(path).suffix.lower() == ".csv":
        return tuple(read_targets(path))
    return load_json(path)


def __getattr__(name: str) -> Any:
    if name == "STANDARD":
        return standard()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    """The public names, ``__all__``: what ``dir()`` and completion offer."""
    return sorted(__all__)
