"""``read_roster``: a BattleScribe or New Recruit roster file into a :class:`Roster`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from ..import_report import ImportReport
from .army import Roster, RosterUnit
from .build import Reading, build_unit
from .load import load_tree
from .tree import read_tree

__all__ = ["read_roster"]


def read_roster(
    path: str | Path,
    *,
    leaders: Mapping[str, str | Sequence[str]] | None = None,
    strict: bool = False,
) -> Roster:
    """Read an army list: a ``.rosz``, a ``.ros`` or the roster JSON of a list builder.

    Rosters carry copies of their profiles, so they read without the catalogues. Each unit
    becomes a :class:`RosterUnit` whose datasheet holds the models and wargear taken;
    ``roster.attackers()``, ``roster.loadouts()`` and ``roster.targets()`` feed
    :func:`~mathhammer.compare`, :func:`~mathhammer.resolve` and reports.

    Parameters
    ----------
    path : str or Path
        The roster file.
    leaders : mapping, optional
        ``{"bodyguard unit": "leader unit"}`` (or a list of leaders): roster files do not
        record which CHARACTER leads which unit, so it is stated here; a led unit is one
        target with its leaders as CHARACTER groups.
    strict : bool
        Refuse the file if a weapon has an ability the engine does not know, or if any
        weapon, model or unit cannot be read (by default these are listed in
        ``roster.report``).

    Returns
    -------
    Roster
        With ``report``, the :class:`~mathhammer.io.import_report.ImportReport` of the
        import; ``roster.complete`` is False if a whole unit could not be read.

    Raises
    ------
    InputFileError
        The file is missing, malformed, not a roster, a zip bomb, or has a cost or a
        count that is not a number; under ``strict``, anything that would be skipped.

    Examples
    --------
    >>> import json, pathlib, tempfile
    >>> gun = {"name": "Gauss flayer", "typeName": "Ranged Weapons", "characteristics": [
    ...     {"name": n, "$text": t} for n, t in
    ...     [("A", "1"), ("BS", "4+"), ("S", "4"), ("AP", "0"), ("D", "1"),
    ...      ("Keywords", "Lethal Hits, Rapid Fire 1")]]}
    >>> body = {"name": "Necron Warriors", "typeName": "Unit", "characteristics": [
    ...     {"name": n, "$text": t} for n, t in [("T", "4"), ("Sv", "4+"), ("W", "1")]]}
    >>> warriors = {"name": "Necron Warriors", "type": "unit", "number": 1,
    ...             "costs": [{"name": "pts", "value": 80}], "profiles": [body],
    ...             "selections": [{"name": "Warrior", "type": "model", "number": 10,
    ...                 "selections": [{"name": "Gauss flayer", "type": "upgrade",
    ...                                 "number": 10, "profiles": [gun]}]}]}
    >>> tree = {"roster": {"name": "Demo", "costs": [{"name": "pts", "value": 80}],
    ...                    "forces": [{"catalogueName": "Necrons", "selections": [warriors]}]}}
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = pathlib.Path(folder, "demo.json")
    ...     _ = path.write_text(json.dumps(tree))
    ...     army = read_roster(path)
    >>> army
    <Roster 'Demo': 1 units, 80 pts>
    >>> army.units[0].models
    (RosterModel(name='Warrior', count=10, weapons=('Gauss flayer',)),)
    >>> [(w.name, n) for w, n in army.loadouts()[0].weapons]
    [('Gauss flayer', 10)]
    """
    file = str(path)
    reading = Reading(file, ImportReport(file), strict)
    entry = read_tree(load_tree(path), file)
    units: list[RosterUnit] = []
    skipped_units = []
    taken: set[str] = set()
    for unit in entry.units:
        label, copy = unit.label, 1
        while label in taken:  # a second unit of one datasheet: "Boyz (2)"
            copy += 1
            label = f"{unit.label} ({copy})"
        taken.add(label)
        built = build_unit(unit, label, reading)
        if built is None:
            skipped_units.append(reading.report.skipped[-1])
            continue
        sheet, models = built
        units.append(RosterUnit(label, unit.name, sheet, models, unit.points))
    roster = Roster(
        entry.name,
        entry.points,
        tuple(units),
        tuple(entry.factions),
        tuple(skipped_units),
        file,
        reading.report,
    )
    return roster.with_leaders(leaders) if leaders else roster
