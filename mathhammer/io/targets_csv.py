"""Targets from CSV files, with values as datasheets print them.

Targets: one row per allocation group; rows with the same ``unit`` form one mixed
unit in allocation order, a :class:`~mathhammer.Target`.

==========  ==================================================================  ==========
column      meaning                                                             example
==========  ==================================================================  ==========
unit        the target unit (rows with the same name form one unit)             Boyz
models      models in the group                                                 10
T, W        toughness, wounds                                                   5, 1
Sv          save: ``3+`` or ``3``; ``-`` for none                               5+
group       optional: the group's name (default: a description)                 Warboss
InSv, FNP   optional: ``4+`` or ``4``; ``-`` or empty for none                  5+
keywords    optional: the unit's keywords (on one row or repeated identically)  INFANTRY
CHARACTER   optional: ``yes`` for a CHARACTER model's group (default ``no``)    yes
Ld          optional: ``6+`` (11th edition) or ``8`` (classic; see below)       6+
points      optional: each group's points on every row, or the unit's on one    85
worsen AP   optional: worsen the AP of attacks on the unit by this (0 to 6)     1
re-roll     optional, the column ``re-roll saves``: the unit re-rolls save       ones
            rolls of 1 (``ones``), failed saves (``failures``) or one failed
            save of each pool (``command``); ``-`` or empty for none
==========  ==================================================================  ==========

Headers are read in any case and with spaces around them; a column not in the table is
warned about (:class:`~mathhammer.errors.InputFileWarning`) and not read. Ld is stored
as the classic characteristic: ``6+`` (the test passes on 2D6 >= 6) becomes 8, which
passes as often (:func:`~mathhammer.model.values.parse_leadership`).

Points: with points on every row of a unit, each row's points are its group's (a
Warboss's on his row, the Boyz' on theirs), and points destroyed credit each model at
its own group's price; with points on one row only, they are the whole unit's, spread
evenly over its models. A unit of several rows that repeats one value on every row is
read as each group's points, with a warning.

Examples
--------
>>> import pathlib, tempfile
>>> text = '''unit,group,models,T,Sv,W,CHARACTER,points
... Boyz,Boyz,10,5,5+,1,no,85
... Boyz,Warboss,1,6,4+,6,yes,65
... '''
>>> with tempfile.TemporaryDirectory() as folder:
...     path = pathlib.Path(folder, "targets.csv")
...     _ = path.write_text(text)
...     (boyz,) = read_targets(path)
>>> boyz.points, boyz.group_points, boyz.model_points
(150, (85, 65), (8.5, 65.0))
"""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

from ..core.caller import outside_stacklevel
from ..errors import CsvError, InputFileWarning, MathhammerError
from ..model.profiles import ModelGroup, Unit
from ..units.targets import Target
from .csv_reader import CsvReader, agree, flag, integer, leadership, optional_integer, threshold

__all__ = ["CsvError", "TARGET_COLUMNS", "TARGET_FIELDS", "TARGET_OPTIONAL", "read_targets"]

#: The columns a targets file must have.
TARGET_REQUIRED = ("unit", "models", "T", "Sv", "W")
#: The columns it may have; each has a default.
TARGET_OPTIONAL = (
    "group", "InSv", "FNP", "keywords", "CHARACTER", "Ld", "points", "worsen AP",
    "re-roll saves",
)  # fmt: skip
#: Every column, in the order of the documentation.
TARGET_COLUMNS = (
    "unit", "group", "models", "T", "Sv", "InSv", "W", "FNP", "keywords", "CHARACTER", "Ld",
    "points", "worsen AP", "re-roll saves",
)  # fmt: skip
#: The column each field of a profile is read from, to place a profile's error in the file.
TARGET_FIELDS = {
    "Unit.name": "unit", "ModelGroup.name": "group", "ModelGroup.count": "models",
    "ModelGroup.toughness": "T", "ModelGroup.save": "Sv", "ModelGroup.invuln": "InSv",
    "ModelGroup.wounds": "W", "ModelGroup.fnp": "FNP", "ModelGroup.character": "CHARACTER",
    "keywords": "keywords", "Unit.leadership": "Ld", "Target.points": "points",
    "Target.group_points": "points", "Unit.worsen_ap": "worsen AP",
    "Unit.reroll_saves": "re-roll saves",
}  # fmt: skip


def read_targets(path: str | Path) -> list[Target]:
    """Read targets: rows with the same ``unit`` form one unit, groups in row order.

    Each :class:`~mathhammer.Target` carries its points (per group when every row gives
    them; see the module's documentation) and its ``source``, the file and line of its
    first row.

    Raises
    ------
    CsvError
        Located as ``file:line: column 'x': problem``; an invalid value keeps the
        ``field``, ``constraint``, ``value`` and ``hint`` of the error it caused.
    """
    reader = CsvReader(path, TARGET_REQUIRED, TARGET_OPTIONAL)
    units: dict[str, dict[str, Any]] = {}
    for line, row in reader.rows:
        _add_row(reader, units, line, row)
    return [_target(reader, name, entry) for name, entry in units.items()]


def _add_row(
    reader: CsvReader, units: dict[str, dict[str, Any]], line: int, row: dict[str, str]
) -> None:
    """Read one row into the entry of the unit it names, created at its first row."""
    name = reader.unit_name(line, row)
    group = _group(reader, line, row)
    values = _unit_values(reader, line, row)
    entry = units.setdefault(
        name,
        {
            "groups": [], "keywords": values["keywords"], "ld": values["ld"], "points": [],
            "line": line, "ap": None, "reroll": None,
        },
    )  # fmt: skip
    if entry["groups"]:
        _merge(reader, line, name, entry, values)
    _keep_given(entry, values, ("ap", "reroll"))
    entry["groups"].append(group)
    entry["points"].append((line, values["points"]))


def _unit_values(reader: CsvReader, line: int, row: dict[str, str]) -> dict[str, Any]:
    """What a row says of its whole unit: keywords, Ld, points, worsen AP, re-roll saves."""
    return {
        "keywords": row.get("keywords", ""),
        "ld": reader.value(line, row, "Ld", leadership),
        "points": reader.value(line, row, "points", optional_integer),
        "ap": reader.value(line, row, "worsen AP", optional_integer),
        "reroll": row.get("re-roll saves", "").lower().strip("-") or None,
    }


def _merge(
    reader: CsvReader, line: int, name: str, entry: dict[str, Any], values: dict[str, Any]
) -> None:
    """Check a later row's unit values against its unit's; keep its keywords and Ld if new."""
    keywords = values["keywords"]
    agree(reader, line, name, "keywords", entry["keywords"] or None, keywords or None)
    agree(reader, line, name, "Ld", entry["ld"], values["ld"])
    agree(reader, line, name, "worsen AP", entry["ap"], values["ap"])
    agree(reader, line, name, "re-roll saves", entry["reroll"], values["reroll"])
    entry["keywords"] = entry["keywords"] or keywords
    _keep_given(entry, values, ("ld",))


def _keep_given(entry: dict[str, Any], values: dict[str, Any], keys: tuple[str, ...]) -> None:
    """Set the unit's values of ``keys`` to the row's, where the row gives them."""
    entry.update({key: values[key] for key in keys if values[key] is not None})


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
        "name": row.get("group", ""),
    }
    return reader.build(line, TARGET_FIELDS, lambda: ModelGroup(**fields))


def _points(
    reader: CsvReader, name: str, rows: list[tuple[int, int | None]]
) -> tuple[int | None, tuple[int, ...] | None]:
    """The unit's points and each group's: every row priced, one row, or none."""
    given = [p for _, p in rows if p is not None]
    if len(given) <= 1:  # also for a unit of one row
        return next(iter(given), None), None
    return None, _group_points(reader, name, rows, given)


def _group_points(
    reader: CsvReader, name: str, rows: list[tuple[int, int | None]], given: list[int]
) -> tuple[int, ...]:
    """Each group's points, when the unit has several rows: an error unless all are given."""
    if len(given) < len(rows):
        line = next(line for line, p in rows if p is None)
        raise reader.error(
            line,
            "points",
            f"unit {name!r} has points on {len(given)} of its {len(rows)} rows; give each "
            "group's points on every row, or the whole unit's on one row",
        )
    if len(set(given)) == 1:
        warnings.warn(_same_points(reader, name, rows, given), stacklevel=outside_stacklevel())
    return tuple(given)


def _same_points(
    reader: CsvReader, name: str, rows: list[tuple[int, int | None]], given: list[int]
) -> InputFileWarning:
    """The warning that every row gives the same points, which are read as each group's."""
    return InputFileWarning(
        f"{reader.source(rows[0][0])}: column 'points': unit {name!r} gives "
        f"{given[0]} on each of its {len(rows)} rows: read as each group's points "
        f"({sum(given)} in all); give the unit's points on one row if "
        f"{given[0]} is the whole unit's",
        reader.name,
        rows[0][0],
        "points",
    )


def _target(reader: CsvReader, name: str, entry: dict[str, Any]) -> Target:
    line = entry["line"]
    points, group_points = _points(reader, name, entry["points"])
    try:
        unit = Unit(
            name,
            entry["groups"],
            entry["keywords"],
            leadership=entry["ld"],
            worsen_ap=entry["ap"] or 0,
            reroll_saves=entry["reroll"],
        )
        return Target(unit, points, group_points=group_points, source=reader.source(line))
    except MathhammerError as exc:
        column = TARGET_FIELDS.get(exc.field.split("[")[0]) if exc.field else None
        raise reader.error(line, column, f"unit {name!r}: {exc}", exc) from None
