"""Targets from CSV files, with values as datasheets print them.

Targets: one row per allocation group; rows with the same ``unit`` form one mixed
unit in allocation order, a :class:`~mathhammer.Target`. Columns: unit, group, models,
T, Sv, InSv, W, FNP, keywords, CHARACTER, Ld, points ("-" or empty for none).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..errors import CsvError, MathhammerError
from ..model.profiles import ModelGroup, Unit
from ..units.targets import Target
from .csv_reader import CsvReader, agree, flag, integer, optional_integer, threshold

__all__ = ["CsvError", "TARGET_COLUMNS", "TARGET_FIELDS", "read_targets"]

TARGET_COLUMNS = (
    "unit", "group", "models", "T", "Sv", "InSv", "W", "FNP", "keywords", "CHARACTER", "Ld",
    "points",
)  # fmt: skip
#: The column each field of a profile is read from, to place a profile's error in the file.
TARGET_FIELDS = {
    "Unit.name": "unit", "ModelGroup.name": "group", "ModelGroup.count": "models",
    "ModelGroup.toughness": "T", "ModelGroup.save": "Sv", "ModelGroup.invuln": "InSv",
    "ModelGroup.wounds": "W", "ModelGroup.fnp": "FNP", "ModelGroup.character": "CHARACTER",
    "keywords": "keywords", "Unit.leadership": "Ld", "Target.points": "points",
}  # fmt: skip


def read_targets(path: str | Path) -> list[Target]:
    """Read targets: rows with the same ``unit`` form one unit, groups in row order.

    Each :class:`~mathhammer.Target` carries the unit's points and its ``source``,
    the file and line of its first row.

    Raises
    ------
    CsvError
        As for :func:`read_attackers`.
    """
    reader = CsvReader(path, TARGET_COLUMNS, ())
    units: dict[str, dict[str, Any]] = {}
    for line, row in reader.rows:
        name = row["unit"]
        if not name:
            raise reader.error(line, "unit", "expected a unit name; got ''")
        group = _group(reader, line, row)
        keywords = row["keywords"]
        leadership = reader.value(line, row, "Ld", optional_integer)
        points = reader.value(line, row, "points", optional_integer)
        entry = units.setdefault(
            name,
            {"groups": [], "keywords": keywords, "ld": leadership, "points": points, "line": line},
        )
        if entry["groups"]:
            agree(reader, line, name, "keywords", entry["keywords"] or None, keywords or None)
            agree(reader, line, name, "Ld", entry["ld"], leadership)
            agree(reader, line, name, "points", entry["points"], points)
            entry["keywords"] = entry["keywords"] or keywords
            entry["ld"] = entry["ld"] if leadership is None else leadership
            entry["points"] = entry["points"] if points is None else points
        entry["groups"].append(group)
    return [_target(reader, name, entry) for name, entry in units.items()]


def _group(reader: CsvReader, line: int, row: dict[str, str]) -> ModelGroup:
    save = reader.value(line, row, "Sv", threshold)
    fields = {
        "count": reader.value(line, row, "models", integer),
        "toughness": reader.value(line, row, "T", integer),
        "save": 7 if save is None else save,
        "wounds": reader.value(line, row, "W", integer),
        "invuln": reader.value(line, row, "InSv", threshold),
        "fnp": reader.value(line, row, "FNP", threshold),
        "character": reader.value(line, row, "CHARACTER", flag),
        "name": row["group"],
    }
    return reader.build(line, TARGET_FIELDS, lambda: ModelGroup(**fields))


def _target(reader: CsvReader, name: str, entry: dict[str, Any]) -> Target:
    line = entry["line"]
    try:
        unit = Unit(name, entry["groups"], entry["keywords"], leadership=entry["ld"])
        return Target(unit, entry["points"], source=reader.source(line))
    except MathhammerError as exc:
        column = TARGET_FIELDS.get(exc.field) if exc.field else None
        raise reader.error(line, column, f"unit {name!r}: {exc}", exc) from None
