"""Any army file, by what it holds: attackers and targets for comparisons and reports.

One entry point for the command line and for scripts that take a path from a user:
:func:`read_army` looks at the path (a roster, a BSData catalogue or a folder of them, the
Wahapedia export, a profiles CSV, a target-suite JSON) and reads it with its reader; the
:class:`Army` it returns gives the loadouts to compare and the targets to attack, with the
:class:`~mathhammer.io.import_report.ImportReport` of what was and was not read.

Examples
--------
>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> _ = (folder / "army.csv").write_text(
...     "unit,weapon,count,A,BS/WS,S,AP,D,abilities,points\\n"
...     "Squad,Bolt rifle,5,2,3+,4,-1,1,,90\\n")
>>> army = read_army(folder / "army.csv")
>>> army.kind, [x.name for x in army.loadouts]
('attackers CSV', ['Squad'])
"""

from __future__ import annotations

import warnings
import zipfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import InputFileError, OptionError, field_error
from ..model.ability_text import UnknownAbilityWarning
from ..rules.registry import RulesetLike
from ..units.datasheet import Datasheet
from ..units.loadout import Loadout
from ..units.options import UnknownAbility
from ..units.targets import Target
from .files import input_kind, read_input_json
from .import_report import ImportReport, nothing_read

__all__ = ["Army", "read_army"]

_ROSTER_SUFFIXES = (".ros", ".rosz")
_CATALOGUE_SUFFIXES = (".cat", ".catz", ".gst", ".gstz")
#: What a file holds by its name ending alone.
_SUFFIX_KINDS = {
    **dict.fromkeys(_ROSTER_SUFFIXES, "roster"),
    **dict.fromkeys(_CATALOGUE_SUFFIXES, "catalogue"),
}


@dataclass(frozen=True)
class Army:
    """What one army file gave: loadouts to attack with and targets to attack.

    Attributes
    ----------
    source : str
        The path read.
    kind : str
        What it was: ``"roster"``, ``"catalogue"``, ``"Wahapedia export"``,
        ``"attackers CSV"``, ``"targets CSV"`` or ``"target suite"``.
    loadouts : list of Loadout
        The attacks of every unit, per phase: each an
        :class:`~mathhammer.units.options.AttackOptions` holding the unit's legal
        declarations in that phase, which a comparison or report chooses among.
    targets : list of Target
        Every unit as a target (datasheets at their default size).
    datasheets : tuple of Datasheet
        The datasheets read (rosters and catalogues), narrowed to ``faction``.
    report : ImportReport, optional
        What was and was not read (rosters, catalogues and the Wahapedia export).
    unknown_abilities : tuple of UnknownAbility
        Attackers CSV: each weapon-ability token the engine does not know, with its
        ``file:line`` (``str()`` of one is a line to show the user), in file order.
        :func:`read_army` collects them instead of warning.
    edition : str, optional
        The ruleset of the edition the file is written for (``"10e"``, ``"11e"``): a
        roster's game system, the Wahapedia export's 10th edition; None where the file
        does not say (a CSV file, a target suite).
    """

    source: str
    kind: str
    loadouts: list[Loadout] = field(default_factory=list)
    targets: list[Target] = field(default_factory=list)
    datasheets: tuple[Datasheet, ...] = ()
    report: ImportReport | None = None
    unknown_abilities: tuple[UnknownAbility, ...] = ()
    edition: str | None = None


def read_army(
    path: str | Path,
    *,
    faction: str | None = None,
    rules: RulesetLike = "11e",
    strict: bool = False,
    csv_kind: str = "attackers",
    leaders: Mapping[str, str | Sequence[str]] | None = None,
    faction_option: str = "--faction",
) -> Army:
    """Read any army file into loadouts and targets.

    Parameters
    ----------
    path : str or Path
        A roster (``.ros``, ``.rosz``, roster JSON), a BSData catalogue (``.cat``,
        ``.catz``, ``.gst``, ``.gstz``, catalogue JSON) or a folder of them, a folder holding
        the Wahapedia export (``Datasheets.csv`` ...), a profiles CSV or a target suite JSON.
    faction : str, optional
        Only the datasheets of this faction (catalogues and the Wahapedia export); required
        when the source holds several factions.
    rules : str or Ruleset
        For the profiles CSV: the ruleset whose characteristics it gives.
    strict : bool
        A weapon ability the engine does not know is an error rather than a reported skip
        (listed in :attr:`Army.report` or, for an attackers CSV,
        :attr:`Army.unknown_abilities`).
    csv_kind : {"attackers", "targets"}
        How to read a CSV file: as attackers or as targets.
    leaders : mapping of unit name to leader name(s), optional
        For a roster: which CHARACTER units lead which units (rosters do not record it);
        see :meth:`~mathhammer.io.roster.Roster.with_leaders`.
    faction_option : str
        How an error names the faction asked for (the command-line option that gives it).

    Raises
    ------
    InputFileError
        For a path that is none of these, or a file its reader refuses.
    OptionError
        For a faction the source does not have, or none given where one is needed.
    """
    where = Path(path)
    kind = _kind(where, csv_kind)
    if kind == "roster":
        return _from_roster(where, strict, leaders)
    if leaders:
        raise field_error(OptionError, "leaders", f"given for a roster, not a {kind}", leaders)
    if kind in ("catalogue", "Wahapedia export"):
        return _from_library(where, kind, faction, strict, faction_option)
    if kind == "attackers CSV":
        return _from_attackers_csv(where, rules, strict)
    return _from_targets(where, kind)


def _from_targets(path: Path, kind: str) -> Army:
    """A targets CSV or a target suite JSON: targets only."""
    if kind == "targets CSV":
        from .targets_csv import read_targets

        return Army(str(path), kind, targets=read_targets(path))
    from .targets_json import load

    return Army(str(path), kind, targets=list(load(path)))


def _from_attackers_csv(path: Path, rules: RulesetLike, strict: bool) -> Army:
    from .attackers_csv import read_attackers, unknown_abilities

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UnknownAbilityWarning)  # returned, to be listed
        loadouts: list[Loadout] = [*read_attackers(path, rules=rules, strict=strict)]
    found = tuple(unknown_abilities(loadouts))
    return Army(str(path), "attackers CSV", loadouts=loadouts, unknown_abilities=found)


def _kind(path: Path, csv_kind: str) -> str:
    """What a path holds, from its name and, for JSON, its top-level key."""
    if csv_kind not in ("attackers", "targets"):
        raise field_error(OptionError, "csv_kind", "'attackers' or 'targets'", csv_kind)
    if input_kind(path) == "folder":  # refuses a device, a FIFO: they would never end
        return "Wahapedia export" if (path / "Datasheets.csv").is_file() else "catalogue"
    kind = _file_kind(path, csv_kind)
    if kind is not None:
        return kind
    raise InputFileError(
        f"{path}: not an army file; expected a roster (.ros, .rosz, roster JSON), a BSData "
        "catalogue (.cat, .catz, .gst, .gstz, catalogue JSON, or a folder of them), a folder "
        "with the Wahapedia export, a profiles CSV or a target suite JSON",
        file=str(path),
    )


def _file_kind(path: Path, csv_kind: str) -> str | None:
    """What a file holds, from its name ending (and for JSON, its top-level key); None if
    it is no army file."""
    suffix = path.suffix.lower()
    if suffix == ".csv":
        return f"{csv_kind} CSV"
    if suffix == ".json":
        return _json_kind(path)
    if suffix == ".zip" and _zip_holds(path, _ROSTER_SUFFIXES):
        return "roster"
    return _SUFFIX_KINDS.get(suffix)


def _json_kind(path: Path) -> str:
    """What a JSON file holds; a file that is not JSON (or nests too deeply, or holds a
    number of thousands of digits) refused in one line (:func:`read_input_json`)."""
    return _json_holds(read_input_json(path))


def _json_holds(data: Any) -> str:
    """What a JSON document holds, by its top-level key: a roster, a catalogue (or game
    system), else a target suite."""
    if not isinstance(data, dict):
        return "target suite"
    if "roster" in data:
        return "roster"
    if {"catalogue", "gameSystem"} & set(data):
        return "catalogue"
    return "target suite"


def _zip_holds(path: Path, suffixes: tuple[str, ...]) -> bool:
    try:
        with zipfile.ZipFile(path) as archive:
            return any(name.lower().endswith(suffixes) for name in archive.namelist())
    except zipfile.BadZipFile:
        return False


def _from_roster(
    path: Path, strict: bool, leaders: Mapping[str, str | Sequence[str]] | None
) -> Army:
    from .roster import read_roster

    roster = read_roster(path, strict=strict, leaders=leaders)
    sheets = tuple(unit.datasheet for unit in roster.units)
    return Army(
        str(path),
        "roster",
        loadouts=roster.loadouts(),
        targets=roster.targets(),
        datasheets=sheets,
        report=roster.report,
        edition=roster.system.ruleset,
    )


def _from_library(
    path: Path, kind: str, faction: str | None, strict: bool, option: str = "--faction"
) -> Army:
    library = _library(path, kind, strict)
    sheets = _of_faction(library, faction, path, option)
    loadouts = [loadout for sheet in sheets for loadout in sheet.loadouts()]
    targets = [sheet.target() for sheet in sheets]
    return Army(str(path), kind, loadouts, targets, sheets, library.report, edition=library.edition)


def _library(path: Path, kind: str, strict: bool) -> Any:
    if kind == "catalogue":
        from .bsdata import read_catalogue

        return read_catalogue(path, strict=strict)
    from .wahapedia import read_wahapedia

    return read_wahapedia(path, strict=strict)


def _of_faction(
    library: Any, faction: str | None, path: Path, option: str = "--faction"
) -> tuple[Datasheet, ...]:
    factions = tuple(library.factions)
    if not factions:  # every entry skipped: say why, not that no faction matches
        found = len(library.report.skipped)
        problem = nothing_read(library.report, found, "datasheets")
        raise InputFileError.at(str(path), None, None, problem)
    if faction is not None:
        return tuple(library.faction(faction))
    if len(factions) > 1:
        raise field_error(
            OptionError,
            f"{option} for {path}",
            f"one of {list(factions)}",
            None,
            "the source holds several factions: choose one",
        )
    return tuple(library.datasheets)
