"""The Wahapedia export -> datasheets: the files joined by datasheet id."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ...errors import CsvError, MathhammerError
from ...model.profiles import Weapon
from ...units.datasheet import AbilityText, Datasheet
from ..defences import read_defences
from ..import_report import ImportReport, Skipped
from ..library import DatasheetLibrary
from ..rules_text import sheet_rules
from .tables import Row, Table, read_table
from .units import model_profiles, points_brackets, row_abilities
from .weapons import WEAPON_COLUMNS, WeaponRowError, group_wargear, weapon_from_row

__all__ = ["FILES", "read_wahapedia"]

#: The files read, with the columns each must have; the last three are optional.
FILES: dict[str, tuple[str, ...]] = {
    "Datasheets.csv": ("id", "name", "faction_id", "loadout"),
    "Datasheets_models.csv": ("datasheet_id", "name", "M", "T", "Sv", "inv_sv", "W", "Ld", "OC"),
    "Datasheets_wargear.csv": (*WEAPON_COLUMNS, "A", "BS_WS", "S", "AP", "D"),
    "Datasheets_unit_composition.csv": ("datasheet_id", "description"),
    "Datasheets_models_cost.csv": ("datasheet_id", "description", "cost"),
    "Datasheets_keywords.csv": ("datasheet_id", "keyword", "model"),
    "Factions.csv": ("id", "name"),
    "Datasheets_abilities.csv": ("datasheet_id", "ability_id", "name", "description"),
    "Abilities.csv": ("id", "name", "description"),
}
_OPTIONAL = ("Factions.csv", "Datasheets_abilities.csv", "Abilities.csv")


def _by_datasheet(table: Table | None) -> dict[str, list[Row]]:
    """The rows of a per-datasheet table by datasheet id, exact repeats dropped."""
    grouped: dict[str, list[Row]] = defaultdict(list)
    seen: set[tuple[str, ...]] = set()
    for row in table.rows if table else ():
        key = tuple(row.values.values())
        if key not in seen:
            seen.add(key)
            grouped[row["datasheet_id"].strip()].append(row)
    return grouped


@dataclass
class _Export:
    """The tables of one export, grouped for assembling datasheets."""

    tables: dict[str, Table | None]
    report: ImportReport
    strict: bool
    weapons: dict[str, list[tuple[Row, Weapon]]] = field(default_factory=dict)

    def rows(self, name: str) -> dict[str, list[Row]]:
        return _by_datasheet(self.tables[name])

    def table(self, name: str) -> Table:
        """A table the export must have."""
        table = self.tables[name]
        assert table is not None, name  # only the optional tables may be absent
        return table

    def source(self, name: str, row: Row) -> str:
        return self.table(name).source(row)

    def skip(self, entry: str, reason: str, source: str) -> None:
        self.report.skipped.append(Skipped(entry, reason, source))


def _read_tables(folder: Path) -> dict[str, Table | None]:
    """Every table of the export by file name (None for an optional file that is absent)."""
    _check_folder(folder)
    tables: dict[str, Table | None] = {}
    for name, columns in FILES.items():
        if name in _OPTIONAL and not (folder / name).is_file():
            tables[name] = None
        else:
            tables[name] = read_table(folder / name, columns)
    return tables


def _check_folder(folder: Path) -> None:
    """Refuse a path that is not a folder that can be read."""
    try:
        is_folder = folder.is_dir()
    except (OSError, ValueError) as exc:  # a name too long, a folder that cannot be read
        raise CsvError.at(str(folder), None, None, f"cannot read: {exc}") from None
    if not is_folder:
        raise CsvError.at(str(folder), None, None, "no such folder (the Wahapedia export)")


def _read_weapons(export: _Export, names: Mapping[str, str]) -> None:
    """Every weapon row -> a Weapon, or a skip with its reason; unknown tokens reported."""
    table = export.table("Datasheets_wargear.csv")
    for row in table.rows:
        sheet = row["datasheet_id"].strip()
        entry = f"{names.get(sheet, sheet)} / {row['name'].strip()}"
        try:
            weapon = weapon_from_row(row.values)
        except WeaponRowError as exc:
            export.skip(entry, str(exc), table.source(row))
            continue
        _report_unknown(export, table, row, weapon, entry)
        export.report.weapons += 1
        if sheet not in names:
            export.skip(entry, f"no datasheet has the id {sheet!r}", table.source(row))
            continue
        export.weapons.setdefault(sheet, []).append((row, weapon))


def _report_unknown(export: _Export, table: Table, row: Row, weapon: Weapon, entry: str) -> None:
    """Report the ability tokens of a weapon row that are not core weapon abilities (an
    error under ``strict``)."""
    if weapon.unknown_abilities and export.strict:
        tokens = list(weapon.unknown_abilities)
        raise table.error(row.line, "description", f"unknown weapon abilities {tokens} (strict)")
    for token in weapon.unknown_abilities:
        export.report.unknown_abilities.setdefault(token, []).append(entry)


def _share_wargear(export: _Export) -> None:
    """Give a datasheet without weapon rows those of its namesake in another faction.

    The export repeats a datasheet for each faction that fields it (a Rhino, a Termite),
    but lists the weapons under only one of the copies.
    """
    rows = export.table("Datasheets.csv").rows
    armed = _armed(rows, export.weapons)
    for row in rows:
        sheet, name = row["id"].strip(), row["name"].strip().casefold()
        if sheet not in export.weapons and name in armed:
            export.weapons[sheet] = export.weapons[armed[name]]


def _armed(rows: Sequence[Row], weapons: Mapping[str, object]) -> dict[str, str]:
    """The id of the first datasheet of each name (case-folded) that has weapon rows."""
    armed: dict[str, str] = {}
    for row in rows:
        if row["id"].strip() in weapons:
            armed.setdefault(row["name"].strip().casefold(), row["id"].strip())
    return armed


def _abilities(export: _Export) -> dict[str, tuple[list[AbilityText], list[AbilityText]]]:
    """(the unit's, its wargear's) abilities of every datasheet, where the export has them."""
    shared = export.tables["Abilities.csv"]
    texts = {r["id"].strip(): (r["name"], r["description"]) for r in shared.rows} if shared else {}
    return {
        sheet: row_abilities(rows, texts)
        for sheet, rows in export.rows("Datasheets_abilities.csv").items()
    }


def _datasheet(
    export: _Export,
    row: Row,
    parts: Mapping[str, Sequence[Row]],
    abilities: tuple[list[AbilityText], list[AbilityText]],
    faction: str,
) -> Datasheet:
    """One datasheet from its rows in every table.

    Its own abilities (not those of wargear a model may take) give the defences of every
    model type.
    """
    sheet, name = row["id"].strip(), row["name"].strip()
    gear = group_wargear([(r.values, w) for r, w in export.weapons.get(sheet, [])])
    own = [*abilities[0], *_damaged(row)]
    defences = read_defences(own)
    rules = sheet_rules(own, defences.not_understood, fields=defences.understood)
    models, gear, unread = model_profiles(
        parts["Datasheets_models.csv"],
        [r["description"] for r in parts["Datasheets_unit_composition.csv"]],
        parts["Datasheets_keywords.csv"],
        row["loadout"],
        gear,
    )
    costs = _points(export, name, parts[_COSTS])
    return Datasheet(
        name,
        tuple(defences.apply(m) for m in models),
        tuple(gear),
        faction=faction,
        keywords=_keywords(parts["Datasheets_keywords.csv"]),
        abilities=(*own, *abilities[1]),
        not_understood=(*rules.listed(defences.not_understood), *unread),
        effects=rules.effects,
        stealth=defences.stealth,
        points=tuple(costs),
        source=export.source("Datasheets.csv", row),
    )


def _points(export: _Export, name: str, rows: Sequence[Row]) -> list[tuple[int, int]]:
    """The (models, points) brackets of a datasheet; its priced lines that are not one are
    skipped, with why."""
    costs, skipped = points_brackets(rows)
    for reason, source_row in skipped:
        export.skip(f"{name} / points", reason, export.source(_COSTS, source_row))
    return costs


def _keywords(rows: Sequence[Row]) -> tuple[str, ...]:
    """A datasheet's keywords, in file order, each once."""
    return tuple(dict.fromkeys(r["keyword"].strip() for r in rows if r["keyword"].strip()))


def _damaged(row: Row) -> list[AbilityText]:
    """The datasheet's "Damaged" rule, an ability like the others."""
    text = row.get("damaged_description").strip()
    if not text:
        return []
    return [AbilityText(f"Damaged: {row.get('damaged_w').strip()} wounds remaining", text)]


_COSTS = "Datasheets_models_cost.csv"
_PER_SHEET = (
    "Datasheets_models.csv",
    "Datasheets_unit_composition.csv",
    _COSTS,
    "Datasheets_keywords.csv",
)


def _assemble(export: _Export) -> list[Datasheet]:
    table = export.table("Datasheets.csv")
    grouped = {name: export.rows(name) for name in _PER_SHEET}
    factions = _factions(export.tables["Factions.csv"])
    abilities = _abilities(export)
    sheets: list[Datasheet] = []
    for row in _once_per_faction(table.rows):
        try:
            sheets.append(_row_datasheet(export, row, grouped, factions, abilities))
        except (MathhammerError, ValueError) as exc:
            export.skip(row["name"].strip(), str(exc).splitlines()[0], table.source(row))
    return sheets


def _row_datasheet(
    export: _Export,
    row: Row,
    grouped: Mapping[str, Mapping[str, Sequence[Row]]],
    factions: Mapping[str, str],
    abilities: Mapping[str, tuple[list[AbilityText], list[AbilityText]]],
) -> Datasheet:
    """The datasheet of one row of ``Datasheets.csv``: with its rows of the other files, its
    abilities and its faction's name."""
    sheet, faction_id = row["id"].strip(), row["faction_id"].strip()
    parts = {name: rows.get(sheet, []) for name, rows in grouped.items()}
    own = abilities.get(sheet, ([], []))
    return _datasheet(export, row, parts, own, factions.get(faction_id, faction_id))


def _once_per_faction(rows: Sequence[Row]) -> list[Row]:
    """The datasheet rows without repeats of a datasheet for the same faction (the first
    is kept)."""
    first: dict[tuple[str, str], Row] = {}
    for row in rows:
        first.setdefault((row["id"].strip(), row["faction_id"].strip()), row)
    return list(first.values())


def _factions(table: Table | None) -> dict[str, str]:
    """The faction names by id ({} without ``Factions.csv``)."""
    return {r["id"].strip(): r["name"].strip() for r in (table.rows if table else ())}


def _fill(report: ImportReport, sheets: Iterable[Datasheet]) -> None:
    for sheet in sheets:
        report.datasheets += 1
        report.models += len(sheet.models)
        report.not_understood.extend((sheet.name, a.name, a.text) for a in sheet.not_understood)


def read_wahapedia(folder: str | Path, *, strict: bool = False) -> DatasheetLibrary:
    """Read the Wahapedia data export into datasheets.

    Parameters
    ----------
    folder : str or Path
        The folder of the export's files: ``Datasheets.csv``, ``Datasheets_models.csv``,
        ``Datasheets_wargear.csv``, ``Datasheets_unit_composition.csv``,
        ``Datasheets_models_cost.csv`` and ``Datasheets_keywords.csv``; ``Factions.csv``
        (faction names), ``Datasheets_abilities.csv`` and ``Abilities.csv`` (abilities
        text) are read where present.
    strict : bool
        Make a weapon ability the engine does not know an error instead of a report entry.

    Returns
    -------
    DatasheetLibrary
        The datasheets, and the report of what was read and what was not: weapon rows
        that make no weapon, datasheets that make no unit, priced lines that are not a
        points bracket, unknown weapon abilities and abilities not understood.

    Raises
    ------
    CsvError
        A missing folder, file or column, or a malformed record, located as
        ``file:line: problem``; under ``strict``, an unknown weapon ability.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> export = pathlib.Path(tempfile.mkdtemp())
    >>> for name, lines in {
    ...     "Datasheets.csv": ["id|name|faction_id|loadout|",
    ...                        "1|Boyz|ORK|<b>Every model is equipped with:</b> choppa.|"],
    ...     "Datasheets_models.csv": ["datasheet_id|name|M|T|Sv|inv_sv|W|Ld|OC|",
    ...                               '1|BOY|6"|5|5+|-|1|7+|2|'],
    ...     "Datasheets_wargear.csv": ["datasheet_id|line_in_wargear|name|description|type|"
    ...                                "A|BS_WS|S|AP|D|", "1|1|Choppa||Melee|3|3|4|-1|1|"],
    ...     "Datasheets_unit_composition.csv": ["datasheet_id|description|", "1|10-20 Boyz|"],
    ...     "Datasheets_models_cost.csv": ["datasheet_id|description|cost|", "1|10 models|85|"],
    ...     "Datasheets_keywords.csv": ["datasheet_id|keyword|model|", "1|Infantry||"],
    ... }.items():
    ...     _ = (export / name).write_text("\\ufeff" + "\\n".join(lines) + "\\n", encoding="utf-8")
    >>> library = read_wahapedia(export)
    >>> boyz = library.get("Boyz")
    >>> boyz.sizes, boyz.points_for(20), boyz.models[0].weapons
    (range(10, 21), 85, ('Choppa',))
    >>> library.report.datasheets, library.report.weapons, library.report.skipped
    (1, 1, [])
    """
    path = Path(folder)
    export = _Export(_read_tables(path), ImportReport(source=str(path)), strict)
    names = {r["id"].strip(): r["name"].strip() for r in export.table("Datasheets.csv").rows}
    _read_weapons(export, names)
    _share_wargear(export)
    sheets = _assemble(export)
    _fill(export.report, sheets)
    return DatasheetLibrary(tuple(sheets), export.report, edition="10e")  # a 10e export
