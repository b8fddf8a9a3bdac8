"""Attackers and targets from CSV files, with values as datasheets print them.

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

Targets: one row per allocation group; rows with the same ``unit`` form one mixed
unit in allocation order, a :class:`~mathhammer.Target`. Columns: unit, group, models,
T, Sv, InSv, W, FNP, keywords, CHARACTER, Ld, points ("-" or empty for none).

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

import csv
import io
import warnings
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TypeVar

from ..core.dice import Dice, parse_dice
from ..errors import CsvError, DiceSyntaxError, MathhammerError
from ..model.abilities import Torrent
from ..model.ability_text import parse_abilities
from ..model.context import Context
from ..model.profiles import ModelGroup, Unit, Weapon
from ..rules import Ruleset, get_ruleset
from ..units.compare import Loadout
from ..units.targets import Target

T = TypeVar("T")

__all__ = [
    "ATTACKER_COLUMNS",
    "CsvError",
    "TARGET_COLUMNS",
    "read_attackers",
    "read_targets",
]

ATTACKER_COLUMNS = ("unit", "weapon", "count", "A", "BS/WS", "S", "AP", "D", "abilities", "points")
ATTACKER_OPTIONAL = ("type", "half_range", "stationary", "charged", "in_cover")
TARGET_COLUMNS = (
    "unit", "group", "models", "T", "Sv", "InSv", "W", "FNP", "keywords", "CHARACTER", "Ld",
    "points",
)  # fmt: skip
#: The column each field of a profile is read from, to place a profile's error in the file.
ATTACKER_FIELDS = {
    "Loadout.name": "unit", "Loadout.points": "points", "Weapon.name": "weapon",
    "Weapon.attacks": "A", "Weapon.skill": "BS/WS", "Weapon.bs": "BS/WS", "Weapon.strength": "S",
    "Weapon.ap": "AP", "Weapon.damage": "D", "Weapon.abilities": "abilities",
    "Weapon.melee": "type",
}  # fmt: skip
TARGET_FIELDS = {
    "Unit.name": "unit", "ModelGroup.name": "group", "ModelGroup.count": "models",
    "ModelGroup.toughness": "T", "ModelGroup.save": "Sv", "ModelGroup.invuln": "InSv",
    "ModelGroup.wounds": "W", "ModelGroup.fnp": "FNP", "ModelGroup.character": "CHARACTER",
    "keywords": "keywords", "Unit.leadership": "Ld", "Target.points": "points",
}  # fmt: skip
_NONE = {"", "-", "n/a", "none"}
_YES = {"yes", "y", "true", "1"}
_NO = {"no", "n", "false", "0", ""}


class _Reader:
    """Reads one CSV file's rows; builds located errors."""

    def __init__(self, path: str | Path, required: tuple[str, ...], optional: tuple[str, ...]):
        self.path = Path(path)
        self.name = str(path)
        try:
            text = self.path.read_text(encoding="utf-8-sig")
        except FileNotFoundError:
            raise self.error(None, None, "no such file") from None
        except (OSError, UnicodeDecodeError) as exc:
            raise self.error(None, None, f"cannot read: {exc}") from None
        if not text.strip():
            raise self.error(None, None, "the file is empty; expected a header row")
        reader = csv.reader(io.StringIO(text))
        header = [h.strip() for h in next(reader)]
        if len(header) == 1:
            for sep in (";", "|", "\t"):
                if sep in header[0]:
                    raise self.error(
                        1,
                        None,
                        f"the header is one column containing {sep!r}; "
                        "expected comma-separated values",
                    )
        missing = [c for c in required if c not in header]
        if missing:
            raise self.error(1, None, f"missing columns {missing}; expected {list(required)}")
        unknown = [c for c in header if c and c not in required + optional]
        if unknown:
            raise self.error(
                1, None, f"unknown columns {unknown}; expected {list(required + optional)}"
            )
        self.rows: list[tuple[int, dict[str, str]]] = []
        for number, values in enumerate(reader, start=2):
            if not any(v.strip() for v in values):
                continue
            if len(values) != len(header):
                raise self.error(number, None, f"expected {len(header)} values; got {len(values)}")
            self.rows.append((number, {h: v.strip() for h, v in zip(header, values, strict=True)}))
        if not self.rows:
            raise self.error(None, None, "no rows after the header")

    def error(
        self,
        line: int | None,
        column: str | None,
        problem: str,
        cause: BaseException | None = None,
    ) -> CsvError:
        return CsvError.at(self.name, line, column, problem, cause)

    def value(
        self, line: int, row: dict[str, str], column: str, parse: Callable[[str], Any]
    ) -> Any:
        """The column's value, read by ``parse``; any error is placed at the column."""
        try:
            return parse(row.get(column, ""))
        except (ValueError, MathhammerError) as exc:
            raise self.error(line, column, str(exc), exc) from None

    def build(self, line: int, columns: Mapping[str, str], make: Callable[[], T]) -> T:
        """``make()``; a profile's error is placed at the column its field is read from."""
        try:
            return make()
        except MathhammerError as exc:
            column = columns.get(exc.field) if exc.field else None
            raise self.error(line, column, str(exc), exc) from None

    def source(self, line: int) -> str:
        return f"{self.name}:{line}"


def _int(raw: str) -> int:
    try:
        return int(raw)
    except ValueError:
        raise ValueError(f"expected an integer; got {raw!r}") from None


def _optional_int(raw: str) -> int | None:
    return None if raw.strip().lower() in _NONE else _int(raw)


def _threshold(raw: str) -> int | None:
    """ "3+" -> 3; "-" or empty -> None."""
    text = raw.strip()
    if text.lower() in _NONE:
        return None
    if not text.endswith("+"):
        raise ValueError(f"expected a roll such as '3+'; got {raw!r}")
    return _int(text[:-1])


def _flag(raw: str) -> bool:
    text = raw.strip().lower()
    if text in _YES:
        return True
    if text in _NO:
        return False
    raise ValueError(f"expected yes or no; got {raw!r}")


def _optional_flag(raw: str) -> bool | None:
    return None if not raw.strip() else _flag(raw)


def _dice(field: str) -> Callable[[str], Dice]:
    """A reader of a dice column; its syntax errors name the field it feeds."""

    def parse(raw: str) -> Dice:
        if not raw.strip():
            raise ValueError("expected a number or dice such as 'D6+1'; got ''")
        try:
            return parse_dice(raw)
        except DiceSyntaxError as exc:
            raise exc.prefixed(field, field=field) from None

    return parse


def _agree(reader: _Reader, line: int, unit: str, column: str, first: Any, value: Any) -> None:
    if first is not None and value is not None and first != value:
        raise reader.error(
            line, column, f"unit {unit!r} has {first!r} on an earlier row but {value!r} here"
        )


#: The context flags of an attacking unit: Context field -> column.
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
    reader = _Reader(path, ATTACKER_COLUMNS, ATTACKER_OPTIONAL)
    units: dict[str, dict[str, Any]] = {}
    for line, row in reader.rows:
        name = row["unit"]
        if not name:
            raise reader.error(line, "unit", "expected a unit name; got ''")
        weapon = _weapon(reader, line, row, rules)
        count = reader.value(line, row, "count", _int)
        if count < 1:
            raise reader.error(line, "count", f"expected an integer >= 1; got {count}")
        points = reader.value(line, row, "points", _optional_int)
        flags = {  # blank: not given on this row (like points, a flag may be on one row)
            key: reader.value(line, row, column, _optional_flag) if column in row else None
            for key, column in _FLAGS.items()
        }
        entry = units.setdefault(
            name, {"weapons": [], "points": None, "flags": flags, "line": line}
        )
        _agree(reader, line, name, "points", entry["points"], points)
        for key, value in flags.items():
            _agree(reader, line, name, _FLAGS[key], entry["flags"][key], value)
            if value is not None:
                entry["flags"][key] = value
        entry["points"] = entry["points"] if points is None else points
        entry["weapons"].append((weapon, count))
    return [_loadout(reader, name, entry) for name, entry in units.items()]


def _loadout(reader: _Reader, name: str, entry: dict[str, Any]) -> Loadout:
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


def _weapon(reader: _Reader, line: int, row: dict[str, str], rules: str | Ruleset) -> Weapon:
    kind = row.get("type", "").strip().lower() or "ranged"
    if kind not in ("ranged", "melee"):
        raise reader.error(line, "type", f"expected Ranged or Melee; got {row['type']!r}")
    skill_text = row["BS/WS"].strip()
    fields: dict[str, Any] = {
        "name": row["weapon"] or "weapon",
        "attacks": reader.value(line, row, "A", _dice("Weapon.attacks")),
        "strength": reader.value(line, row, "S", _int),
        "ap": reader.value(line, row, "AP", lambda s: _int(s.replace("\u2212", "-"))),
        "damage": reader.value(line, row, "D", _dice("Weapon.damage")),
        "melee": kind == "melee",
    }
    found, unknown = reader.value(line, row, "abilities", _abilities)
    fields["abilities"] = list(found) + list(unknown)
    if get_ruleset(rules).skill_field == "bs":  # a characteristic, 1 to 10
        fields["bs"] = reader.value(line, row, "BS/WS", _int)
    elif skill_text.lower() in _NONE:
        if not any(isinstance(a, Torrent) for a in found):
            raise reader.error(line, "BS/WS", f"{skill_text!r} is only for [TORRENT] weapons")
        fields["skill"] = 2  # never rolled: Torrent hits automatically
    else:
        fields["skill"] = reader.value(line, row, "BS/WS", _threshold)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # unknown abilities are kept, as printed
        return reader.build(line, ATTACKER_FIELDS, lambda: Weapon(**fields))


def _abilities(raw: str) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # unknown abilities are kept, as printed
        return parse_abilities(raw)


def read_targets(path: str | Path) -> list[Target]:
    """Read targets: rows with the same ``unit`` form one unit, groups in row order.

    Each :class:`~mathhammer.Target` carries the unit's points and its ``source``,
    the file and line of its first row.

    Raises
    ------
    CsvError
        As for :func:`read_attackers`.
    """
    reader = _Reader(path, TARGET_COLUMNS, ())
    units: dict[str, dict[str, Any]] = {}
    for line, row in reader.rows:
        name = row["unit"]
        if not name:
            raise reader.error(line, "unit", "expected a unit name; got ''")
        group = _group(reader, line, row)
        keywords = row["keywords"]
        leadership = reader.value(line, row, "Ld", _optional_int)
        points = reader.value(line, row, "points", _optional_int)
        entry = units.setdefault(
            name,
            {"groups": [], "keywords": keywords, "ld": leadership, "points": points, "line": line},
        )
        if entry["groups"]:
            _agree(reader, line, name, "keywords", entry["keywords"] or None, keywords or None)
            _agree(reader, line, name, "Ld", entry["ld"], leadership)
            _agree(reader, line, name, "points", entry["points"], points)
            entry["keywords"] = entry["keywords"] or keywords
            entry["ld"] = entry["ld"] if leadership is None else leadership
            entry["points"] = entry["points"] if points is None else points
        entry["groups"].append(group)
    return [_target(reader, name, entry) for name, entry in units.items()]


def _group(reader: _Reader, line: int, row: dict[str, str]) -> ModelGroup:
    save = reader.value(line, row, "Sv", _threshold)
    fields = {
        "count": reader.value(line, row, "models", _int),
        "toughness": reader.value(line, row, "T", _int),
        "save": 7 if save is None else save,
        "wounds": reader.value(line, row, "W", _int),
        "invuln": reader.value(line, row, "InSv", _threshold),
        "fnp": reader.value(line, row, "FNP", _threshold),
        "character": reader.value(line, row, "CHARACTER", _flag),
        "name": row["group"],
    }
    return reader.build(line, TARGET_FIELDS, lambda: ModelGroup(**fields))


def _target(reader: _Reader, name: str, entry: dict[str, Any]) -> Target:
    line = entry["line"]
    try:
        unit = Unit(name, entry["groups"], entry["keywords"], leadership=entry["ld"])
        return Target(unit, entry["points"], source=reader.source(line))
    except MathhammerError as exc:
        column = TARGET_FIELDS.get(exc.field) if exc.field else None
        raise reader.error(line, column, f"unit {name!r}: {exc}", exc) from None
