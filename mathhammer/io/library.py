"""A library of datasheets read from one source, whatever the importer.

Every importer of datasheets (the Wahapedia export, BSData catalogues) returns a
:class:`DatasheetLibrary`: the datasheets in the order read, looked up by name (with a
suggestion when the name is not there), searched, narrowed to a faction, and the
:class:`~mathhammer.io.import_report.ImportReport` of what was and was not read.

Examples
--------
>>> from mathhammer.units.datasheet import Datasheet, ModelProfile
>>> def sheet(name, faction):
...     return Datasheet(name, (ModelProfile(name, toughness=4, save=3, wounds=2),),
...                      faction=faction)
>>> library = DatasheetLibrary((sheet("Intercessors", "Space Marines"),
...                             sheet("Boyz", "Orks"), sheet("Nobz", "Orks")))
>>> len(library), library.factions
(3, ('Orks', 'Space Marines'))
>>> library.get("boyz").faction, [d.name for d in library.faction("orks")]
('Orks', ['Boyz', 'Nobz'])
>>> library.get("Nobs")
Traceback (most recent call last):
...
mathhammer.errors.OptionError: datasheet must be one of the 3 ... (did you mean 'Nobz'?)
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator
from dataclasses import dataclass, field

from ..errors import OptionError, field_error
from ..units.datasheet import Datasheet
from ..units.parts import Detachment
from .import_report import ImportReport

__all__ = ["DatasheetLibrary"]


def _key(name: str) -> str:
    return " ".join(name.replace("\u2019", "'").casefold().split())


def _faction_keys(faction: str) -> tuple[str, str]:
    """A faction is named in full or by its last part: ``"Xenos - Necrons"``, ``"Necrons"``."""
    return _key(faction), _key(faction.rsplit(" - ", 1)[-1])


def _suggest(name: str, known: list[str]) -> str:
    close = difflib.get_close_matches(_key(name), [_key(k) for k in known], n=1, cutoff=0.6)
    if not close:
        return ""
    return "did you mean " + repr(next(k for k in known if _key(k) == close[0])) + "?"


@dataclass(frozen=True)
class DatasheetLibrary:
    """The datasheets read from one source, and the report of the import.

    Parameters
    ----------
    datasheets : tuple of Datasheet
        In the order read.
    report : ImportReport
        What was read and what was not.
    detachments : tuple of Detachment
        The detachments of the factions read.
    edition : str, optional
        The ruleset of the edition the data is written for (``"11e"``, ``"10e"``): the
        game system a BSData catalogue names, the Wahapedia export's 10th edition.
    """

    datasheets: tuple[Datasheet, ...]
    report: ImportReport = field(default_factory=lambda: ImportReport(source=""))
    detachments: tuple[Detachment, ...] = ()
    edition: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "datasheets", tuple(self.datasheets))
        object.__setattr__(self, "detachments", tuple(self.detachments))

    def detachment(self, name: str) -> Detachment:
        """The detachment of this name (case and apostrophes aside).

        Raises
        ------
        OptionError
            No detachment has the name (the error suggests the closest).
        """
        for detachment in self.detachments:
            if _key(detachment.name) == _key(name):
                return detachment
        known = [d.name for d in self.detachments]
        raise field_error(
            OptionError, "detachment", f"one of the {len(known)} detachments read", name,
            _suggest(name, known),
        )  # fmt: skip

    def __len__(self) -> int:
        return len(self.datasheets)

    def __iter__(self) -> Iterator[Datasheet]:
        return iter(self.datasheets)

    @property
    def factions(self) -> tuple[str, ...]:
        """The factions of the datasheets, sorted."""
        return tuple(sorted({d.faction for d in self.datasheets if d.faction}))

    def get(self, name: str, faction: str | None = None) -> Datasheet:
        """The datasheet of this name (case and apostrophes aside).

        A name that several factions share needs ``faction``.

        Raises
        ------
        OptionError
            No datasheet has the name (the error suggests the closest), or several do.
        """
        pool = self.faction(faction).datasheets if faction is not None else self.datasheets
        found = [d for d in pool if _key(d.name) == _key(name)]
        if len(found) == 1:
            return found[0]
        raise _not_one(name, faction, found, pool)

    def search(self, text: str) -> list[Datasheet]:
        """The datasheets whose name contains ``text`` (case and apostrophes aside)."""
        return [d for d in self.datasheets if _key(text) in _key(d.name)]

    def faction(self, name: str) -> DatasheetLibrary:
        """The datasheets of one faction (case aside; a BSData faction such as
        ``"Xenos - Necrons"`` also by its last part, ``"Necrons"``), with the same report.

        Raises
        ------
        OptionError
            No datasheet belongs to the faction (the error suggests the closest).
        """
        chosen = tuple(d for d in self.datasheets if _key(name) in _faction_keys(d.faction))
        if not chosen:
            raise field_error(
                OptionError,
                "faction",
                f"one of {list(self.factions)}",
                name,
                _suggest(name, list(self.factions)),
            )
        return DatasheetLibrary(chosen, self.report, self._detachments_of(chosen), self.edition)

    def _detachments_of(self, chosen: tuple[Datasheet, ...]) -> tuple[Detachment, ...]:
        """The detachments of the factions of these datasheets."""
        keys = {_faction_keys(d.faction)[1] for d in chosen}  # "Library - Tyranids" too
        return tuple(d for d in self.detachments if _faction_keys(d.faction)[1] in keys)


def _not_one(
    name: str, faction: str | None, found: list[Datasheet], pool: tuple[Datasheet, ...]
) -> OptionError:
    """The error of a name that no datasheet of ``pool`` has, or several (then a faction
    is needed)."""
    if found:
        factions = sorted({d.faction for d in found})
        return field_error(
            OptionError,
            "faction",
            f"given: {len(found)} datasheets are named {name!r}",
            faction,
            f"one of {factions}",
        )
    known = [d.name for d in pool]
    return field_error(
        OptionError,
        "datasheet",
        f"one of the {len(known)} datasheets read",
        name,
        _suggest(name, known),
    )
