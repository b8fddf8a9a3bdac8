"""What an import read and what it did not: counts, unknown abilities, skipped entries."""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field

from ..model.ability_text import unknown_message

__all__ = [
    "ImportReport",
    "Skipped",
    "describe",
    "nothing_read",
    "unapplied_lines",
    "unknown_lines",
]


@dataclass(frozen=True)
class Skipped:
    """An entry an importer did not read, and why."""

    entry: str
    reason: str
    source: str = ""


@dataclass
class ImportReport:
    """The account of one import, filled in by the importer as it reads.

    Attributes
    ----------
    source : str
        The file or directory read.
    datasheets, weapons, models : int
        How many of each were read.
    unknown_abilities : dict of str to list of str
        Each weapon-ability token the engine does not know, with the entries (datasheet and
        weapon) it came from.
    not_understood : list of (str, str, str)
        (datasheet, ability name, text) of the defensive abilities not turned into fields.
    skipped : list of Skipped
        Entries not read, with the reason.
    attachments : list of str
        The CHARACTER units a roster attaches to a bodyguard (leading or supporting), one
        line per bodyguard, and anything unusual about them.
    system : str
        The game system and edition the file names, as a phrase ("" if it names none).
    points : list of str
        Where the points read differ from the total the file states: one line per unit
        not read, and one for points outside the units.
    """

    source: str
    datasheets: int = 0
    weapons: int = 0
    models: int = 0
    unknown_abilities: dict[str, list[str]] = field(default_factory=dict)
    not_understood: list[tuple[str, str, str]] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    attachments: list[str] = field(default_factory=list)
    system: str = ""
    points: list[str] = field(default_factory=list)


def _entries(entries: list[str], shown: int = 3) -> str:
    more = f", and {len(entries) - shown} more" if len(entries) > shown else ""
    return ", ".join(entries[:shown]) + more


def unknown_lines(report: ImportReport, sheets: Collection[str] | None = None) -> list[str]:
    """One line per unknown weapon-ability token: how often, where, and what it may mean;
    with ``sheets``, only in the profiles of those datasheets (the ones used).

    Examples
    --------
    >>> report = ImportReport("army.rosz", unknown_abilities={"SUSTAINED HIT 1": ["Boyz / Slugga"]})
    >>> unknown_lines(report)  # doctest: +NORMALIZE_WHITESPACE
    ["army.rosz: weapon ability 'SUSTAINED HIT 1' (did you mean 'SUSTAINED HITS 1'?) is not
      known, ignored in 1 profile: Boyz / Slugga"]
    >>> unknown_lines(report, sheets={"Gretchin"})
    []
    """
    lines = []
    found = report.unknown_abilities.items()
    if sheets is not None:
        found = _in_sheets(report.unknown_abilities, set(sheets)).items()
    for token, entries in sorted(found, key=lambda kv: -len(kv[1])):
        profiles = "profile" if len(entries) == 1 else "profiles"
        lines.append(
            f"{report.source}: weapon ability {unknown_message(token)} is not known, ignored "
            f"in {len(entries)} {profiles}: {_entries(entries)}"
        )
    return lines


def _in_sheets(unknown: dict[str, list[str]], wanted: set[str]) -> dict[str, list[str]]:
    """The unknown tokens of the profiles of these datasheets, with those profiles."""
    kept = {t: [e for e in rows if e.split(" / ")[0] in wanted] for t, rows in unknown.items()}
    return {t: rows for t, rows in kept.items() if rows}


def unapplied_lines(
    report: ImportReport, shown: int = 20, sheets: Collection[str] | None = None
) -> list[str]:
    """One line per unit (datasheet) whose rules could change an attack and were not all
    applied, naming them; past ``shown`` units, one line with how many more; with
    ``sheets``, only those datasheets (the ones used).

    Examples
    --------
    >>> report = ImportReport("army.json", not_understood=[
    ...     ("Gretchin", "Runtherd", "..."), ("Gretchin", "Grot Shield", "..."),
    ...     ("Battlewagon", "Zzap gun", "...")])
    >>> for line in unapplied_lines(report):
    ...     print(line)
    army.json: Gretchin: rules not applied: Runtherd, Grot Shield (--import-report says why)
    army.json: Battlewagon: rules not applied: Zzap gun (--import-report says why)
    """
    names = _unapplied(report, sheets)
    lines = [
        f"{report.source}: {sheet}: rules not applied: {', '.join(rules)} "
        "(--import-report says why)"
        for sheet, rules in list(names.items())[:shown]
    ]
    if len(names) > shown:
        lines.append(
            f"{report.source}: and {len(names) - shown} more units with rules not applied "
            "(--import-report lists them)"
        )
    return lines


def _unapplied(report: ImportReport, sheets: Collection[str] | None) -> dict[str, list[str]]:
    """The names of each datasheet's rules not applied (of these datasheets), each once."""
    names: dict[str, list[str]] = {}
    for sheet, name, _ in report.not_understood:
        if sheets is not None and sheet not in sheets:
            continue
        found = names.setdefault(sheet, [])
        if name not in found:
            found.append(name)
    return names


def describe(report: ImportReport, width: int = 100) -> str:
    """The import report as text: counts, unknown abilities, abilities not understood,
    skipped entries.

    Examples
    --------
    >>> report = ImportReport("Orks.json", datasheets=2, weapons=5, models=3,
    ...                       skipped=[Skipped("Zzap gun", "S is D6+6: a random Strength")])
    >>> print(describe(report))
    Orks.json: 2 datasheets, 5 weapon profiles, 3 model profiles read
    skipped (1):
      Zzap gun: S is D6+6: a random Strength
    """
    lines = [
        f"{report.source}: {report.datasheets} datasheets, {report.weapons} weapon profiles, "
        f"{report.models} model profiles read"
    ]
    lines += [f"game system: {report.system}"] if report.system else []
    lines += _section(f"points ({len(report.points)}):", _indented(report.points))
    lines += _section(
        f"unknown weapon abilities ({len(report.unknown_abilities)} tokens):",
        _indented(line.partition(": ")[2] for line in unknown_lines(report)),
    )
    lines += _section(
        f"abilities not understood ({len(report.not_understood)}):",
        [
            _shorten(f"  {sheet}: {name}: {' '.join(text.split())}", width)
            for sheet, name, text in report.not_understood
        ],
    )
    lines += _section(
        f"attached as the file records ({len(report.attachments)}):",
        _indented(report.attachments),
    )
    lines += _section(
        f"skipped ({len(report.skipped)}):",
        _indented(f"{s.entry}: {s.reason}" for s in report.skipped),
    )
    return "\n".join(lines)


def nothing_read(report: ImportReport, found: int, what: str = "units") -> str:
    """The line of an import that read nothing: how many entries were found and skipped,
    and the most common reason.

    Examples
    --------
    >>> report = ImportReport("list.ros", skipped=[
    ...     Skipped("Warriors", "characteristic 'Sv' is missing"),
    ...     Skipped("Scarabs", "characteristic 'Sv' is missing"),
    ...     Skipped("Lord", "characteristic 'T' is missing")])
    >>> nothing_read(report, 3)
    "nothing read: 0 of 3 units; 3 entries skipped, most often (2): characteristic 'Sv' is missing"
    """
    if not found:
        return f"nothing read: no {what} found"
    reasons = Counter(s.reason for s in report.skipped)
    common = ""
    if reasons:
        reason, times = reasons.most_common(1)[0]
        common = f", most often ({times}): {reason}"
    return f"nothing read: 0 of {found} {what}; {len(report.skipped)} entries skipped{common}"


def _shorten(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 3] + "..."


def _indented(lines: Iterable[str]) -> list[str]:
    """The lines of a section, indented under its title."""
    return [f"  {line}" for line in lines]


def _section(title: str, items: list[str]) -> list[str]:
    """A section of the report: its title and its lines; nothing if it has none."""
    return [title, *items] if items else []
