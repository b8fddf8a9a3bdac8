"""What an import read and what it did not: counts, unknown abilities, skipped entries."""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["ImportReport", "Skipped"]


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
    """

    source: str
    datasheets: int = 0
    weapons: int = 0
    models: int = 0
    unknown_abilities: dict[str, list[str]] = field(default_factory=dict)
    not_understood: list[tuple[str, str, str]] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
