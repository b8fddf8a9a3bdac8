"""Attackers and targets from CSV files, with values as datasheets print them.

Attackers: one row per weapon line; rows with the same ``unit`` form one attacking
unit whose pools resolve in row order.

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
unit in allocation order. Columns: unit, group, models, T, Sv, InSv, W, FNP,
keywords, CHARACTER, Ld, points ("-" or empty for none).

Every problem is reported as one line: ``file:line: column 'S': expected an integer;
got 'x'``.
"""

from __future__ import annotations

import csv
import io
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import DiceSyntaxError, MathhammerError, ProfileError
from ..model.abilities import Torrent
from ..model.ability_text import parse_abilities
from ..model.context import Context
from ..model.profiles import ModelGroup, Unit, Weapon

__all__ = [
    "ATTACKER_COLUMNS",
    "AttackingUnit",
    "CsvError",
    "TARGET_COLUMNS",
    "TargetUnit",
    "read_attackers",
    "read_targets",
]

ATTACKER_COLUMNS = ("unit", "weapon", "count", "A", "BS/WS", "S", "AP", "D", "abilities", "points")
ATTACKER_OPTIONAL = ("type", "half_range", "stationary", "charged", "in_cover")
TARGET_COLUMNS = (
    "unit", "group", "models", "T", "Sv", "InSv", "W", "FNP", "keywords", "CHARACTER", "Ld",
    "points",
)  # fmt: skip
_NONE = {"", "-", "n/a", "none"}
_YES = {"yes", "y", "true", "1"}
_NO = {"no", "n", "false", "0", ""}


class CsvError(MathhammerError, ValueError):
    """A problem in an input file, located as ``file:line: column 'x': problem``."""


@dataclass(frozen=True)
class AttackingUnit:
    """An attacking unit read from CSV: its weapon lines in order, points and context."""

    name: str
    weapons: tuple[tuple[Weapon, int], ...]
    points: int | None = None
    context: Context = field(default_factory=Context)
    line: int = 0


@dataclass(frozen=True)
class TargetUnit:
    """A target read from CSV, with its points."""

    unit: Unit
    points: int | None = None
    line: int = 0


class _Reader:
    """Reads one CSV file's rows; builds located errors."""

    def __init__(self, path: str | Path, required: tuple[str, ...], optional: tuple[str, ...]):
        self.path = Path(path)
        self.name = str(path)
        try:
            text = self.path.read_text(encoding="utf-8-sig")
        except FileNotFoundError:
            raise CsvError(f"{self.name}: no such file") from None
        except (OSError, UnicodeDecodeError) as exc:
            raise CsvError(f"{self.name}: cannot read: {exc}") from None
        if not text.strip():
            raise CsvError(f"{self.name}: the file is empty; expected a header row")
        reader = csv.reader(io.StringIO(text))
        header = [h.strip() for h in next(reader)]
        if len(header) == 1:
            for sep in (";", "|", "\t"):
                if sep in header[0]:
                    raise CsvError(
                        f"{self.name}:1: the header is one column containing {sep!r}; "
                        "expected comma-separated values"
                    )
        missing = [c for c in required if c not in header]
        if missing:
            raise CsvError(f"{self.name}:1: missing columns {missing}; expected {list(required)}")
        unknown = [c for c in header if c and c not in required + optional]
        if unknown:
            raise CsvError(
                f"{self.name}:1: unknown columns {unknown}; expected {list(required + optional)}"
            )
        self.rows: list[tuple[int, dict[str, str]]] = []
        for number, values in enumerate(reader, start=2):
            if not any(v.strip() for v in values):
                continue
            if len(values) != len(header):
                raise CsvError(
                    f"{self.name}:{number}: expected {len(header)} values; got {len(values)}"
                )
            self.rows.append((number, {h: v.strip() for h, v in zip(header, values, strict=True)}))
        if not self.rows:
            raise CsvError(f"{self.name}: no rows after the header")

    def error(self, line: int, column: str | None, problem: str) -> CsvError:
        where = f"{self.name}:{line}: " + (f"column {column!r}: " if column else "")
        return CsvError(where + problem.splitlines()[0])  # one line, always

    def value(
        self, line: int, row: dict[str, str], column: str, parse: Callable[[str], Any]
    ) -> Any:
        raw = row.get(column, "")
        try:
            return parse(raw)
        except (ValueError, MathhammerError) as exc:
            raise self.error(line, column, str(exc)) from None


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


def _dice_text(raw: str) -> str:
    if not raw.strip():
        raise ValueError("expected a number or dice such as 'D6+1'; got ''")
    return raw.strip()


def _agree(reader: _Reader, line: int, unit: str, column: str, first: Any, value: Any) -> None:
    if first is not None and value is not None and first != value:
        raise reader.error(
            line, column, f"unit {unit!r} has {first!r} on an earlier row but {value!r} here"
        )


def read_attackers(path: str | Path, *, rules: str = "11e") -> list[AttackingUnit]:
    """Read attacking units: rows with the same ``unit`` form one unit, in row order."""
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
            for key, column in (
                ("half_range", "half_range"),
                ("remained_stationary", "stationary"),
                ("charged", "charged"),
                ("target_in_cover", "in_cover"),
            )
        }
        entry = units.setdefault(
            name, {"weapons": [], "points": None, "flags": flags, "line": line}
        )
        _agree(reader, line, name, "points", entry["points"], points)
        for key, value in flags.items():
            _agree(reader, line, name, key, entry["flags"][key], value)
            if value is not None:
                entry["flags"][key] = value
        entry["points"] = entry["points"] if points is None else points
        entry["weapons"].append((weapon, count))
    out = []
    for name, entry in units.items():
        melee = {w.melee for w, _ in entry["weapons"]}
        given: dict[str, Any] = {k: bool(v) for k, v in entry["flags"].items()}
        context = Context(melee=melee == {True}, **given)
        out.append(
            AttackingUnit(name, tuple(entry["weapons"]), entry["points"], context, entry["line"])
        )
    return out


def _weapon(reader: _Reader, line: int, row: dict[str, str], rules: str) -> Weapon:
    kind = row.get("type", "").strip().lower() or "ranged"
    if kind not in ("ranged", "melee"):
        raise reader.error(line, "type", f"expected Ranged or Melee; got {row['type']!r}")
    skill_text = row["BS/WS"].strip()
    fields: dict[str, Any] = {
        "name": row["weapon"] or "weapon",
        "attacks": reader.value(line, row, "A", _dice_text),
        "strength": reader.value(line, row, "S", _int),
        "ap": reader.value(line, row, "AP", lambda s: _int(s.replace("\u2212", "-"))),
        "damage": reader.value(line, row, "D", _dice_text),
        "melee": kind == "melee",
    }
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        found, unknown = parse_abilities(row["abilities"])
    fields["abilities"] = list(found) + list(unknown)
    if rules == "classic":
        fields["bs"] = reader.value(line, row, "BS/WS", _int)
    elif skill_text.lower() in _NONE:
        if not any(isinstance(a, Torrent) for a in found):
            raise reader.error(line, "BS/WS", f"{skill_text!r} is only for [TORRENT] weapons")
        fields["skill"] = 2  # never rolled: Torrent hits automatically
    else:
        fields["skill"] = reader.value(line, row, "BS/WS", _threshold)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return Weapon(**fields)
    except DiceSyntaxError as exc:
        raise reader.error(line, None, str(exc).splitlines()[0]) from None
    except ProfileError as exc:
        column = _COLUMN_OF.get(str(exc).split(" ", 1)[0])
        raise reader.error(line, column, str(exc)) from None


_COLUMN_OF = {
    "Weapon.attacks": "A", "Weapon.attacks:": "A", "Weapon.skill": "BS/WS", "Weapon.bs": "BS/WS",
    "Weapon.strength": "S", "Weapon.ap": "AP", "Weapon.damage": "D", "Weapon.damage:": "D",
    "ModelGroup.count": "models", "ModelGroup.toughness": "T", "ModelGroup.save": "Sv",
    "ModelGroup.invuln": "InSv", "ModelGroup.wounds": "W", "ModelGroup.fnp": "FNP",
    "Unit.leadership": "Ld",
}  # fmt: skip


def read_targets(path: str | Path) -> list[TargetUnit]:
    """Read targets: rows with the same ``unit`` form one unit, groups in row order."""
    reader = _Reader(path, TARGET_COLUMNS, ())
    units: dict[str, dict[str, Any]] = {}
    for line, row in reader.rows:
        name = row["unit"]
        if not name:
            raise reader.error(line, "unit", "expected a unit name; got ''")
        save = reader.value(line, row, "Sv", _threshold)
        try:
            group = ModelGroup(
                count=reader.value(line, row, "models", _int),
                toughness=reader.value(line, row, "T", _int),
                save=7 if save is None else save,
                wounds=reader.value(line, row, "W", _int),
                invuln=reader.value(line, row, "InSv", _threshold),
                fnp=reader.value(line, row, "FNP", _threshold),
                character=reader.value(line, row, "CHARACTER", _flag),
                name=row["group"],
            )
        except ProfileError as exc:
            column = _COLUMN_OF.get(str(exc).split(" ", 1)[0])
            raise reader.error(line, column, str(exc)) from None
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
    out = []
    for name, entry in units.items():
        try:
            unit = Unit(name, entry["groups"], entry["keywords"], leadership=entry["ld"])
        except ProfileError as exc:
            raise reader.error(entry["line"], None, f"unit {name!r}: {exc}") from None
        out.append(TargetUnit(unit, entry["points"], entry["line"]))
    return out
