"""``read_roster``: a BattleScribe or New Recruit roster file into a :class:`Roster`."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from pathlib import Path

from ...errors import InputFileError, OptionError
from ...units.parts import AbilityText, Detachment
from ..import_report import ImportReport, Skipped, nothing_read
from .army import Roster, RosterUnit, leader_names
from .build import Reading, build_unit
from .load import load_tree
from .system import check_readable, game_system
from .tree import RosterEntry, UnitEntry, read_tree

__all__ = ["ROLES", "read_roster", "recorded_leaders"]


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
        ``{"bodyguard unit": "leader unit"}`` (or a list of leaders). New Recruit's
        exports record which CHARACTER leads or supports which unit, and those units are
        attached as the file says; BattleScribe's and older files record none. A unit
        named here takes the leaders given here instead of the file's, and a leader named
        here leaves the unit the file attached it to (docs/rules.md D35). An attached unit
        is one target (its leaders as CHARACTER groups) and one attacking unit.
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
        count that is not a number; a roster of another game or of an edition before the
        10th (:mod:`~mathhammer.io.roster.system`); under ``strict``, anything that would
        be skipped.

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
    tree = load_tree(path)
    system = game_system(tree)
    check_readable(system, file)
    entry = read_tree(tree, file)
    reading.report.system = str(system) if system.name else ""
    units, labels, skipped_units = _read_units(entry.units, reading)
    if not units:
        raise InputFileError.at(file, None, None, nothing_read(reading.report, len(entry.units)))
    reading.report.points = points_lines(entry, labels.keys())
    roster = Roster(
        entry.name,
        entry.points,
        tuple(units),
        tuple(entry.factions),
        tuple(skipped_units),
        file,
        reading.report,
        _detachment(entry.detachments, entry.factions, reading),
        tuple(entry.rules),
        system,
    )
    _list_unapplied(roster, reading)
    attached = _with_given(recorded_leaders(entry.units, labels, reading), leaders, reading)
    return _attach(roster, attached, leaders, file)


def _read_units(
    entries: Sequence[UnitEntry], reading: Reading
) -> tuple[list[RosterUnit], dict[int, str], list[Skipped]]:
    """The units read, each unit entry's name in the roster (by ``id``), and the units
    skipped (said in the report)."""
    units: list[RosterUnit] = []
    labels: dict[int, str] = {}  # each unit entry read: its name in the roster
    skipped_units = []
    taken: set[str] = set()
    for unit in entries:
        label = _free_label(unit.label, taken)
        taken.add(label)
        built = build_unit(unit, label, reading)
        if built is None:
            skipped_units.append(reading.report.skipped[-1])
            continue
        sheet, models = built
        units.append(RosterUnit(label, unit.name, sheet, models, unit.points))
        labels[id(unit)] = label
    return units, labels, skipped_units


def points_lines(entry: RosterEntry, read: Collection[int]) -> list[str]:
    """Where the points read differ from the roster's own total: each unit not read, and
    the points outside every unit (none when they add up).

    ``read`` holds the ``id`` of each unit entry read.
    """
    priced = [u for u in entry.units if u.points]
    lines = [f"{u.label}: {u.points} pts, not read" for u in priced if id(u) not in read]
    units = sum(u.points for u in priced if u.points)
    if entry.points in (None, units):
        return lines
    return [
        *lines,
        f"the roster states {entry.points} pts; its units cost {units} pts: "
        f"{entry.points - units:+d} pts outside them (enhancements or options the list "
        "builder prices apart)",
    ]


def _free_label(label: str, taken: set[str]) -> str:
    """The unit's name in the roster: its label, numbered if another unit has it."""
    name, copy = label, 1
    while name in taken:  # a second unit of one datasheet: "Boyz (2)"
        copy += 1
        name = f"{label} ({copy})"
    return name


def _list_unapplied(roster: Roster, reading: Reading) -> None:
    """List the army's rules that are not applied in the report, as a unit's rules are."""
    where = f"army ({roster.detachment.name})" if roster.detachment else "army"
    for rule in roster.army_rules.unapplied:
        reading.report.not_understood.append((where, rule.name, rule.text))


def _with_given(
    attached: dict[str, tuple[str, ...]],
    leaders: Mapping[str, str | Sequence[str]] | None,
    reading: Reading,
) -> dict[str, tuple[str, ...]]:
    """The attachments, with the caller's instead of the file's where it gives them: its
    bodyguard takes the leaders given, who leave the units the file attached them to."""
    for bodyguard, given in dict(leaders or {}).items():  # the caller's word wins
        chosen = leader_names(given)
        attached = _without(attached, chosen)
        attached[bodyguard] = chosen
        _report_given(reading.report, bodyguard, chosen)
    return attached


def _report_given(report: ImportReport, bodyguard: str, chosen: tuple[str, ...]) -> None:
    """Say in the report which leaders the caller gave a bodyguard, if the file recorded
    attachments (the caller's replace them)."""
    if report.attachments:
        named = ", ".join(chosen) or "none"
        report.attachments.append(f"{bodyguard}: {named} (given in leaders=)")


def _without(
    attached: dict[str, tuple[str, ...]], leaders: tuple[str, ...]
) -> dict[str, tuple[str, ...]]:
    """The attachments with these leaders taken out of every unit."""
    return {b: tuple(n for n in ls if n not in leaders) for b, ls in attached.items()}


def _attach(
    roster: Roster,
    attached: dict[str, tuple[str, ...]],
    leaders: Mapping[str, str | Sequence[str]] | None,
    file: str,
) -> Roster:
    """The roster with its leaders attached; an error in the file's attachments is the
    file's, one in the caller's ``leaders`` is the caller's."""
    attached = {b: ls for b, ls in attached.items() if ls}
    if not attached:
        return roster
    try:
        return roster.with_leaders(attached)
    except OptionError as error:
        if leaders:  # the caller's mapping: said as the caller gave it
            raise
        raise InputFileError.at(file, None, None, f"its attachments: {error}") from None


def _detachment(
    chosen: list[tuple[str, list[AbilityText]]], factions: list[str], reading: Reading
) -> Detachment | None:
    """The detachment the roster chose; with several (one per force), the first, and the
    others said in the report."""
    if not chosen:
        return None
    name, rules = chosen[0]
    for other, _ in chosen[1:]:
        reading.report.skipped.append(
            Skipped(f"detachment {other}", f"a second detachment: only {name!r} is applied")
        )
    return Detachment(name, tuple(rules), factions[0] if factions else "")


def recorded_leaders(
    entries: Sequence[UnitEntry], labels: Mapping[int, str], reading: Reading
) -> dict[str, tuple[str, ...]]:
    """The attachments the file records: each bodyguard's leading and supporting units,
    by the names the roster gives them. An attachment to a unit the roster does not hold
    (or could not read) is listed in the report, the leader left a unit of its own; a
    bodyguard with two leading or two supporting units is attached as recorded, and the
    report says so (the core rules allow one of each unless a datasheet says otherwise)."""
    by_id = _labels_by_id(entries, labels)
    attached: dict[str, list[tuple[str, str]]] = {}
    for entry in entries:
        if id(entry) in labels:
            _add_recorded(attached, labels[id(entry)], entry, by_id, reading)
    _report_attachments(attached, reading.report)
    return {b: tuple(n for n, _ in pairs) for b, pairs in attached.items()}


def _labels_by_id(entries: Sequence[UnitEntry], labels: Mapping[int, str]) -> dict[str, str]:
    """The roster's name of each unit read, by its selection id (which attachments name)."""
    return {e.id: labels[id(e)] for e in entries if e.id and id(e) in labels}


def _add_recorded(
    attached: dict[str, list[tuple[str, str]]],
    leader: str,
    entry: UnitEntry,
    by_id: dict[str, str],
    reading: Reading,
) -> None:
    """Add a leader's recorded attachments (with their roles) to its bodyguards'; one to a
    unit the roster does not hold is listed in the report."""
    for role, to in entry.attached_to:
        if role not in ROLES:
            continue  # another kind of association: nothing the attack reads
        bodyguard = by_id.get(to)
        if bodyguard is None:
            reason = (
                f"{role.lower()} a unit that is not in the list (selection id {to!r}): "
                "left a unit of its own"
            )
            reading.skip(f"{leader} ({role})", reason)
            continue
        attached.setdefault(bodyguard, []).append((leader, role))


def _report_attachments(attached: dict[str, list[tuple[str, str]]], report: ImportReport) -> None:
    """Say each bodyguard's attachments in the report, and any role it has twice."""
    for bodyguard, pairs in attached.items():
        names = ", ".join(f"{n} ({ROLES[r]})" for n, r in pairs)
        report.attachments.append(f"{bodyguard}: {names}")
        report.attachments.extend(_doubled_roles(bodyguard, [role for _, role in pairs]))


def _doubled_roles(bodyguard: str, roles: list[str]) -> list[str]:
    """A note for each role a bodyguard's attached units have more than once."""
    return [
        f"{bodyguard}: {roles.count(role)} {ROLES[role]} units; the core rules "
        "allow one leader and one support unit per bodyguard unless a datasheet "
        "says otherwise: attached as the file records them"
        for role in ROLES
        if roles.count(role) > 1
    ]


#: The associations that attach a CHARACTER unit to a bodyguard, and what they make it.
ROLES = {"Leading": "leading", "Supporting": "supporting"}
