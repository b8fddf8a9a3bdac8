"""Attackers from CSV files, with values as datasheets print them.

Attackers: one row per weapon line; rows with the same ``unit`` form one attacking unit.
Its ranged and its melee rows are attacks of different phases, never made together: a
unit gives one :class:`~mathhammer.units.options.AttackOptions` per phase it has rows
for (named ``"<unit> (ranged)"`` and ``"<unit> (melee)"`` when it has both), the legal
declarations of its weapons in that phase (see :mod:`mathhammer.units.alternatives`):
a model that is not a MONSTER or VEHICLE fires its [PISTOL]/[CLOSE-QUARTERS] weapons or
its other guns, and fights with one melee weapon plus its [EXTRA ATTACKS] weapons. A
comparison or a report attacks each target with the best of them.

==============  ===========================================================  =========
column          meaning                                                      example
==============  ===========================================================  =========
unit            the attacking unit (rows with the same name form one unit)   Squad
weapon          the weapon's name                                            Bolt rifle
count           how many of the weapon the unit has                          10
A               attacks: a number or dice                                    2, D6+1
BS/WS           "N+" (11e; "N/A" for [TORRENT]) or the classic BS 1-10       3+, N/A, 4
S, AP, D        strength, AP as printed, damage                              4, -1, D3
abilities       as printed                                                   [HEAVY]
points          optional: the unit's points (on one row or repeated)         90
type            optional: Ranged (default) or Melee                          Melee
models          optional: the unit's models (else its largest count)         10
keywords        optional: the unit's keywords (MONSTER and VEHICLE fire      VEHICLE
                every gun)
use             optional: yes (always used), no (never), empty (as the       yes
                rules allow), or a name: the unit uses one named
                alternative (with its yes and empty rows) in that phase
half_range,     optional context of the unit's attack: yes/no                yes
stationary,
charged,
in_cover
modifiers       optional: a buff on this row's attacks alone, items          hit+1
                separated by ``;`` (``hit+1; reroll_wounds=ones;
                half_range``: :func:`~mathhammer.model.context.parse_buff`)
==============  ===========================================================  =========

Every problem is a :class:`~mathhammer.errors.CsvError` of one line, ``file:line:
column 'S': expected an integer; got 'x'``, with ``file``, ``line`` and ``column`` as
attributes. A value the profiles refuse is placed by the ``field`` of their error
(:data:`ATTACKER_FIELDS`), whose ``field``, ``constraint``, ``value`` and ``hint`` the
CsvError keeps. An ability token the engine does not know warns (an
:class:`~mathhammer.UnknownAbilityWarning` naming ``file:line``, the token and the
ability it most likely means) and is listed in the ``unknown_abilities`` of the unit;
with ``strict=True`` it is an error.

Examples
--------
>>> import pathlib, tempfile
>>> header = ",".join(ATTACKER_COLUMNS) + ",points\\n"
>>> with tempfile.TemporaryDirectory() as folder:
...     good, bad = pathlib.Path(folder, "army.csv"), pathlib.Path(folder, "bad.csv")
...     _ = good.write_text(header + "Squad,Bolt rifle,10,2,3+,4,-1,1,,160\\n")
...     _ = bad.write_text(header + "Squad,Bolt rifle,10,2,3+,0,-1,1,,160\\n")
...     (squad,) = read_attackers(good)
...     print(squad.name, squad.points, squad.phase, squad.source == f"{good}:2")
...     try:
...         read_attackers(bad)
...     except CsvError as error:
...         print(error.line, error.column, error.field, error.value)
Squad 160 shooting True
2 S Weapon.strength 0
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import partial
from importlib import resources
from pathlib import Path
from typing import Any

from ..core.caller import outside_stacklevel
from ..errors import CsvError, ProfileError, field_error
from ..model.abilities import Torrent
from ..model.ability_text import UnknownAbilityWarning, parse_abilities, suggest_ability
from ..model.context import Context, parse_buff
from ..model.profiles import Weapon, normalise_keywords
from ..rules import get_ruleset
from ..rules.registry import RulesetLike
from ..units.alternatives import pooled_fight, pooled_shooting
from ..units.loadout import Loadout, describe_weapons
from ..units.options import AttackOptions, UnknownAbility
from .csv_reader import (
    NO,
    NONE,
    YES,
    CsvReader,
    agree,
    dice_reader,
    integer,
    optional_flag,
    optional_integer,
    threshold,
)

__all__ = [
    "ATTACKER_COLUMNS",
    "ATTACKER_FIELDS",
    "ATTACKER_OPTIONAL",
    "CsvError",
    "example_attackers",
    "read_attackers",
    "unknown_abilities",
]

ATTACKER_COLUMNS = ("unit", "weapon", "count", "A", "BS/WS", "S", "AP", "D", "abilities")
ATTACKER_OPTIONAL = (
    "points", "type", "models", "keywords", "use",
    "half_range", "stationary", "charged", "in_cover", "modifiers",
)  # fmt: skip
#: The column each field of a profile is read from, to place a profile's error in the file.
ATTACKER_FIELDS = {
    "Loadout.name": "unit", "Loadout.points": "points", "Weapon.name": "weapon",
    "Weapon.attacks": "A", "Weapon.skill": "BS/WS", "Weapon.bs": "BS/WS", "Weapon.strength": "S",
    "Weapon.ap": "AP", "Weapon.damage": "D", "Weapon.abilities": "abilities",
    "Weapon.melee": "type", "Weapon.modifiers": "modifiers", "Weapon.context": "modifiers",
    "modifiers": "modifiers",
}  # fmt: skip
#: The context flags an attacking unit may set, by the column that sets them.
_FLAGS = {
    "half_range": "half_range",
    "remained_stationary": "stationary",
    "charged": "charged",
    "target_in_cover": "in_cover",
}
#: What the rows of a phase are called in a unit's name when it has both.
_LABELS = {"shooting": "ranged", "fight": "melee"}


@dataclass
class _Row:
    line: int
    weapon: Weapon
    count: int
    use: str | None  # "yes", "no", an alternative's name, or None: as the rules allow
    unknown: tuple[UnknownAbility, ...]

    @property
    def phase(self) -> str:
        return "fight" if self.weapon.melee else "shooting"


@dataclass
class _Unit:
    line: int
    values: dict[str, Any]  # points, models, keywords and the context flags, once given
    rows: list[_Row] = field(default_factory=list)

    def merge(self, reader: CsvReader, line: int, name: str, values: dict[str, Any]) -> None:
        """Take what a row says of the unit, refusing a value that contradicts an earlier one."""
        for key, value in values.items():
            agree(reader, line, name, key, self.values.get(key), value)
            if value is not None:
                self.values[key] = value

    def models(self) -> int:
        """The unit's models as given, else its largest count."""
        return self.values.get("models") or max(r.count for r in self.rows)

    def rows_in(self, phase: str) -> list[_Row]:
        """The unit's rows of weapons used in ``phase``."""
        return [r for r in self.rows if r.phase == phase]

    def usable_in(self, phase: str) -> list[_Row]:
        """The unit's rows of ``phase`` it may use (not marked no)."""
        return [r for r in self.rows_in(phase) if r.use != "no"]

    def context(self) -> Context:
        """The context of the unit's attacks, from its flag columns."""
        flags: dict[str, Any] = {k: bool(self.values.get(c)) for k, c in _FLAGS.items()}
        return Context(**flags)


def example_attackers(rules: str = "11e") -> Path:
    """The bundled example loadouts for a ruleset: ``example_attackers_<rules>.csv`` when the
    package has one (the classic profiles), else the 11th-edition ``example_attackers.csv``.

    Examples
    --------
    >>> example_attackers().name, example_attackers("classic").name
    ('example_attackers.csv', 'example_attackers_classic.csv')
    """
    data = resources.files("mathhammer") / "data"
    own = data / f"example_attackers_{rules}.csv"
    return Path(str(own if own.is_file() else data / "example_attackers.csv"))


def read_attackers(
    path: str | Path, *, rules: RulesetLike = "11e", strict: bool = False
) -> list[AttackOptions]:
    """Read attacking units: per unit and phase, the legal declarations of its rows.

    Each :class:`~mathhammer.units.options.AttackOptions` (a
    :class:`~mathhammer.Loadout`) carries its phase, its options, its points, its
    context (the flags of the optional columns; melee in the fight phase), its
    ``source`` (the file and line of its first row) and the ``unknown_abilities`` of its
    rows. They feed :func:`mathhammer.compare` and the batch report as they are.

    Parameters
    ----------
    path : str or Path
        The CSV file.
    rules : str or Ruleset
        The ruleset whose characteristics the file gives (BS/WS as "N+" or 1-10).
    strict : bool
        An ability token the engine does not know is a CsvError rather than a warning.

    Raises
    ------
    CsvError
        Located as ``file:line: column 'x': problem``; an invalid value keeps the
        ``field``, ``constraint``, ``value`` and ``hint`` of the error it caused.
    """
    reader = CsvReader(path, ATTACKER_COLUMNS, ATTACKER_OPTIONAL)
    units: dict[str, _Unit] = {}
    for line, row in reader.rows:
        _add_row(reader, units, line, row, rules, strict)
    out = [options for name, unit in units.items() for options in _unit(reader, name, unit)]
    for found in unknown_abilities(out):
        warnings.warn(found.message, UnknownAbilityWarning, stacklevel=outside_stacklevel())
    return out


def unknown_abilities(loadouts: Sequence[Loadout]) -> list[UnknownAbility]:
    """Every unknown ability token read, with its ``file:line``, in file order.

    Examples
    --------
    >>> unknown_abilities([])
    []
    """
    found = [u for x in loadouts if isinstance(x, AttackOptions) for u in x.unknown_abilities]
    return sorted(found, key=lambda u: int(u.source.rpartition(":")[2] or 0))


def _add_row(
    reader: CsvReader,
    units: dict[str, _Unit],
    line: int,
    row: dict[str, str],
    rules: RulesetLike,
    strict: bool,
) -> None:
    """Read one row into the unit it names, created at its first row."""
    name = reader.unit_name(line, row)
    read = _row(reader, line, row, rules, strict)
    values = _unit_values(reader, line, row)
    unit = units.setdefault(name, _Unit(line, {}))
    unit.merge(reader, line, name, values)
    unit.rows.append(read)


def _unit_values(reader: CsvReader, line: int, row: dict[str, str]) -> dict[str, Any]:
    """What a row says of its whole unit; None where it leaves it blank."""
    keywords = normalise_keywords(row.get("keywords", ""))
    values: dict[str, Any] = {
        "points": reader.value(line, row, "points", optional_integer),
        "models": _count(reader, line, row, "models", optional_integer),
        "keywords": keywords or None,
    }
    values.update(_flag_values(reader, line, row))
    return values


def _count(
    reader: CsvReader,
    line: int,
    row: dict[str, str],
    column: str,
    parse: Callable[[str], int | None],
) -> Any:
    """A count column's value, read by ``parse``: at least 1 when given."""
    number = reader.value(line, row, column, parse)
    if number is not None and number < 1:
        raise reader.error(line, column, f"expected an integer >= 1; got {number}")
    return number


def _flag_values(reader: CsvReader, line: int, row: dict[str, str]) -> dict[str, bool | None]:
    """The context flags a row gives, by column; None where its file has no such column."""
    return {
        column: reader.value(line, row, column, optional_flag) if column in row else None
        for column in _FLAGS.values()
    }


def _row(
    reader: CsvReader, line: int, row: dict[str, str], rules: RulesetLike, strict: bool
) -> _Row:
    weapon = _weapon(reader, line, row, rules)
    count = _count(reader, line, row, "count", integer)
    if strict and weapon.unknown_abilities:
        raise _unknown_error(reader, line, weapon.unknown_abilities[0])
    unknown = tuple(
        UnknownAbility(t, weapon.name, reader.source(line)) for t in weapon.unknown_abilities
    )
    return _Row(line, weapon, count, _use(row.get("use", "")), unknown)


def _unknown_error(reader: CsvReader, line: int, token: str) -> CsvError:
    """The error of an ability token the engine does not know, with a likely meaning."""
    guess = suggest_ability(token)
    hint = f"did you mean {guess!r}?" if guess else "not a core weapon ability"
    cause = field_error(ProfileError, "Weapon.abilities", "a known ability", token, hint)
    return reader.error(line, "abilities", str(cause), cause)


#: The ``use`` column's yes and no, in each spelling of :data:`YES` and :data:`NO`.
_USE = {**dict.fromkeys(YES, "yes"), **dict.fromkeys(NO - {""}, "no")}


def _use(raw: str) -> str | None:
    """A row's ``use``: "yes", "no", an alternative's name, or None (blank)."""
    text = raw.strip()
    return _USE.get(text.lower(), text or None)


def _unit(reader: CsvReader, name: str, unit: _Unit) -> list[AttackOptions]:
    """The unit's AttackOptions, one per phase it has rows to use in."""
    phases = _used_phases(reader, name, unit)
    # the tokens of rows never used still reach the user, with the unit's first phase
    unused = _unknown(r for r in unit.rows if r.phase not in phases)
    out = []
    for phase in phases:
        label = f"{name} ({_LABELS[phase]})" if len(phases) > 1 else name
        extra = unused if phase == phases[0] else []
        out.append(_phase_attack(reader, unit, phase, label, extra))
    return out


def _used_phases(reader: CsvReader, name: str, unit: _Unit) -> list[str]:
    """The phases in which the unit has a row it may use; an error if it has none."""
    phases = [p for p in _LABELS if unit.usable_in(p)]
    if not phases:
        raise reader.error(
            unit.line, "use", f"unit {name!r} marks every row no; expected a row to use"
        )
    return phases


def _phase_attack(
    reader: CsvReader, unit: _Unit, phase: str, label: str, unused: list[UnknownAbility]
) -> AttackOptions:
    """The unit's AttackOptions in one phase, located at its first row used in it."""
    rows = unit.rows_in(phase)
    first = min(r.line for r in unit.usable_in(phase))
    make = partial(
        AttackOptions,
        label,
        _phase_options(rows, unit.models(), unit.values.get("keywords", ())),
        phase,
        unit.values.get("points"),
        unit.context(),
        source=reader.source(first),
        unknown_abilities=_unknown(rows) + unused,
    )
    return reader.build(first, ATTACKER_FIELDS, make)


def _unknown(rows: Iterable[_Row]) -> list[UnknownAbility]:
    """The unknown ability tokens of the rows, in order."""
    return [u for r in rows for u in r.unknown]


def _phase_options(rows: list[_Row], models: int, keywords: Sequence[str]) -> list[Loadout]:
    """The declarations of one phase: the named alternatives, or the rules' choices."""
    line_of = {id(r.weapon): r.line for r in rows}
    names = _alternatives(rows)
    if names:
        always = _entries(rows, None) + _entries(rows, "yes")
        return [Loadout(n, _in_order(_entries(rows, n) + always, line_of)) for n in names]
    return _rules_options(rows, models, keywords, line_of)


def _alternatives(rows: list[_Row]) -> list[str]:
    """The names of the alternatives the rows' ``use`` gives, each once, in file order."""
    return list(dict.fromkeys(r.use for r in rows if r.use not in (None, "yes", "no")))


def _rules_options(
    rows: list[_Row], models: int, keywords: Sequence[str], line_of: dict[int, int]
) -> list[Loadout]:
    """The declarations the rules allow of the rows without a named alternative."""
    free, forced = _entries(rows, None), _entries(rows, "yes")
    if rows[0].phase == "fight":
        chosen = pooled_fight(free, models)
    else:
        chosen = pooled_shooting(free, models, keywords)
    options = [_in_order(option + forced, line_of) for option in chosen or [[]]]
    return [Loadout(describe_weapons(o), o) for o in options if o]


def _entries(rows: list[_Row], use: str | None) -> list[tuple[Weapon, int]]:
    """The (weapon, count) of the rows marked ``use`` (None: as the rules allow)."""
    return [(r.weapon, r.count) for r in rows if r.use == use]


def _in_order(entries: list[tuple[Weapon, int]], line_of: dict[int, int]) -> list[Any]:
    return sorted(entries, key=lambda entry: line_of[id(entry[0])])


def _strength(text: str) -> Any:
    """S as printed: an integer, or dice for a random Strength (docs/rules.md D42)."""
    if re.fullmatch(r"\s*[+-]?\d+\s*", text):
        return integer(text)
    return dice_reader("Weapon.strength")(text)


def _weapon(reader: CsvReader, line: int, row: dict[str, str], rules: RulesetLike) -> Weapon:
    kind = _kind(reader, line, row)
    fields: dict[str, Any] = {
        "name": row["weapon"] or "weapon",
        "attacks": reader.value(line, row, "A", dice_reader("Weapon.attacks")),
        "strength": reader.value(line, row, "S", _strength),
        "ap": reader.value(line, row, "AP", lambda s: integer(s.replace("\u2212", "-"))),
        "damage": reader.value(line, row, "D", dice_reader("Weapon.damage")),
        "melee": kind == "melee",
    }
    found, unknown = reader.value(line, row, "abilities", parse_abilities)
    fields["abilities"] = list(found) + list(unknown)
    fields["modifiers"], fields["context"] = reader.value(line, row, "modifiers", parse_buff)
    fields.update(_skill(reader, line, row, rules, found))
    with warnings.catch_warnings():
        # kept in weapon.unknown_abilities; read_attackers warns with the file and line
        warnings.simplefilter("ignore", UnknownAbilityWarning)
        return reader.build(line, ATTACKER_FIELDS, lambda: Weapon(**fields))


def _kind(reader: CsvReader, line: int, row: dict[str, str]) -> str:
    """The weapon's type column: "ranged" (also when blank) or "melee"."""
    kind = row.get("type", "").strip().lower() or "ranged"
    if kind not in ("ranged", "melee"):
        raise reader.error(line, "type", f"expected Ranged or Melee; got {row['type']!r}")
    return kind


def _skill(
    reader: CsvReader, line: int, row: dict[str, str], rules: RulesetLike, found: Sequence[Any]
) -> dict[str, int]:
    """The weapon's BS/WS field: the ruleset's characteristic, or N+ (none for [TORRENT])."""
    skill_text = row["BS/WS"].strip()
    if get_ruleset(rules).skill_field == "bs":  # a characteristic, 1 to 10
        return {"bs": reader.value(line, row, "BS/WS", integer)}
    if skill_text.lower() not in NONE:
        return {"skill": reader.value(line, row, "BS/WS", threshold)}
    if not any(isinstance(a, Torrent) for a in found):
        raise reader.error(line, "BS/WS", f"{skill_text!r} is only for [TORRENT] weapons")
    return {"skill": 2}  # never rolled: Torrent hits automatically
