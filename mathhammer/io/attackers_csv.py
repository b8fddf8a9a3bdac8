"""Attackers from CSV files, with values as datasheets print them.

Attackers: one row per weapon line; rows with the same ``unit`` form one attacking
unit, a :class:`~mathhammer.Loadout` whose pools resolve in row order.

==============  ===========================================================  =========
column          meaning                                                      example
==============  ===========================================================  =========
unit            the attacking unit (rows with the same name form one unit)   Squad
weapon          the weapon's name                                            Bolt rifle
count           how many of the weapon fire                                  10
A               attacks: a number or dice                                    2, D6+1
BS/WS           "N+" (11e; "N/A" for [TORRENT]) or the classic BS 1-10       3+, N/A, 4
S, AP, D        strength, AP as printed, damage                              4, -1, D3
abilities       as printed                                                   [HEAVY]
points          the unit's points (on one row or repeated identically)       90
type            optional: Ranged (default) or Melee                          Melee
half_range,     optional context of the unit's attack: yes/no                yes
stationary,
charged,
in_cover
==============  ===========================================================  =========

Every problem is a :class:`~mathhammer.errors.CsvError` of one line, ``file:line:
column 'S': expected an integer; got 'x'``, with ``file``, ``line`` and ``column`` as
attributes. A value the profiles refuse is placed by the ``field`` of their error
(:data:`ATTACKER_FIELDS`, :data:`TARGET_FIELDS`), whose ``field``, ``constraint``,
``value`` and ``hint`` the CsvError keeps.

Examples
--------
>>> import pathlib, tempfile
>>> header = ",".join(ATTACKER_COLUMNS) + "\\n"
>>> with tempfile.TemporaryDirectory() as folder:
...     good, bad = pathlib.Path(folder, "army.csv"), pathlib.Path(folder, "bad.csv")
...     _ = good.write_text(header + "Squad,Bolt rifle,10,2,3+,4,-1,1,,160\\n")
...     _ = bad.write_text(header + "Squad,Bolt rifle,10,2,3+,0,-1,1,,160\\n")
...     (squad,) = read_attackers(good)
...     print(squad.name, squad.points, squad.source == f"{good}:2")
...     try:
...         read_attackers(bad)
...     except CsvError as error:
...         print(error.line, error.column, error.field, error.value)
Squad 160 True
2 S Weapon.strength 0
"""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

from ..errors import CsvError
from ..model.abilities import Torrent
from ..model.ability_text import parse_abilities
from ..model.context import Context
from ..model.profiles import Weapon
from ..rules import Ruleset, get_ruleset
from ..units.compare import Loadout
from .csv_reader import (
    NONE,
    CsvReader,
    agree,
    dice_reader,
    integer,
    optional_flag,
    optional_integer,
    threshold,
)

__all__ = ["ATTACKER_COLUMNS", "ATTACKER_FIELDS", "ATTACKER_OPTIONAL", "CsvError", "read_attackers"]

ATTACKER_COLUMNS = ("unit", "weapon", "count", "A", "BS/WS", "S", "AP", "D", "abilities", "points")
ATTACKER_OPTIONAL = ("type", "half_range", "stationary", "charged", "in_cover")
#: The column each field of a profile is read from, to place a profile's error in the file.
ATTACKER_FIELDS = {
    "Loadout.name": "unit", "Loadout.points": "points", "Weapon.name": "weapon",
    "Weapon.attacks": "A", "Weapon.skill": "BS/WS", "Weapon.bs": "BS/WS", "Weapon.strength": "S",
    "Weapon.ap": "AP", "Weapon.damage": "D", "Weapon.abilities": "abilities",
    "Weapon.melee": "type",
}  # fmt: skip
#: The context flags an attacking unit may set, by the column that sets them.
_FLAGS = {
    "half_range": "half_range",
    "remained_stationary": "stationary",
    "charged": "charged",
    "target_in_cover": "in_cover",
}


def read_attackers(path: str | Path, *, rules: str | Ruleset = "11e") -> list[Loadout]:
    """Read attacking units: rows with the same ``unit`` form one loadout, in row order.

    Each :class:`~mathhammer.Loadout` carries its points, its context (melee when all
    its weapons are, and the flags of the optional columns) and its ``source``, the
    file and line of its first row.

    Raises
    ------
    CsvError
        Located as ``file:line: column 'x': problem``; an invalid value keeps the
        ``field``, ``constraint``, ``value`` and ``hint`` of the error it caused.
    """
    reader = CsvReader(path, ATTACKER_COLUMNS, ATTACKER_OPTIONAL)
    units: dict[str, dict[str, Any]] = {}
    for line, row in reader.rows:
        name = row["unit"]
        if not name:
            raise reader.error(line, "unit", "expected a unit name; got ''")
        weapon = _weapon(reader, line, row, rules)
        count = reader.value(line, row, "count", integer)
        if count < 1:
            raise reader.error(line, "count", f"expected an integer >= 1; got {count}")
        points = reader.value(line, row, "points", optional_integer)
        flags = {  # blank: not given on this row (like points, a flag may be on one row)
            key: reader.value(line, row, column, optional_flag) if column in row else None
            for key, column in _FLAGS.items()
        }
        entry = units.setdefault(
            name, {"weapons": [], "points": None, "flags": flags, "line": line}
        )
        agree(reader, line, name, "points", entry["points"], points)
        for key, value in flags.items():
            agree(reader, line, name, _FLAGS[key], entry["flags"][key], value)
            if value is not None:
                entry["flags"][key] = value
        entry["points"] = entry["points"] if points is None else points
        entry["weapons"].append((weapon, count))
    return [_loadout(reader, name, entry) for name, entry in units.items()]


def _loadout(reader: CsvReader, name: str, entry: dict[str, Any]) -> Loadout:
    melee = {w.melee for w, _ in entry["weapons"]}
    given: dict[str, Any] = {k: bool(v) for k, v in entry["flags"].items()}
    line = entry["line"]
    return reader.build(
        line,
        ATTACKER_FIELDS,
        lambda: Loadout(
            name,
            tuple(entry["weapons"]),
            entry["points"],
            Context(melee=melee == {True}, **given),
            source=reader.source(line),
        ),
    )


def _weapon(reader: CsvReader, line: int, row: dict[str, str], rules: str | Ruleset) -> Weapon:
    kind = row.get("type", "").strip().lower() or "ranged"
    if kind not in ("ranged", "melee"):
        raise reader.error(line, "type", f"expected Ranged or Melee; got {row['type']!r}")
    skill_text = row["BS/WS"].strip()
    fields: dict[str, Any] = {
        "name": row["weapon"] or "weapon",
        "attacks": reader.value(line, row, "A", dice_reader("Weapon.attacks")),
        "strength": reader.value(line, row, "S", integer),
        "ap": reader.value(line, row, "AP", lambda s: integer(s.replace("\u2212", "-"))),
        "damage": reader.value(line, row, "D", dice_reader("Weapon.damage")),
        "melee": kind == "melee",
    }
    found, unknown = reader.value(line, row, "abilities", _abilities)
    fields["abilities"] = list(found) + list(unknown)
    if get_ruleset(rules).skill_field == "bs":  # a characteristic, 1 to 10
        fields["bs"] = reader.value(line, row, "BS/WS", integer)
    elif skill_text.lower() in NONE:
        if not any(isinstance(a, Torrent) for a in found):
            raise reader.error(line, "BS/WS", f"{skill_text!r} is only for [TORRENT] weapons")
        fields["skill"] = 2  # never rolled: Torrent hits automatically
    else:
        fields["skill"] = reader.value(line, row, "BS/WS", threshold)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # unknown abilities are kept, as printed
        return reader.build(line, ATTACKER_FIELDS, lambda: Weapon(**fields))


def _abilities(raw: str) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # unknown abilities are kept, as printed
        return parse_abilities(raw)
