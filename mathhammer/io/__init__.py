"""Reading and writing profiles, armies and reports.

Profiles CSVs (:func:`read_attackers`, :func:`read_targets`); real armies: rosters from
BattleScribe and New Recruit (:func:`read_roster`), BSData catalogues
(:func:`read_catalogue`), the Wahapedia export (:func:`read_wahapedia`), and any of them
by what the path holds (:func:`read_army`). Every army import carries an
:class:`ImportReport` of what was and was not read.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from ..errors import CsvError, InputFileError
from .attackers_csv import ATTACKER_COLUMNS, read_attackers
from .targets_csv import TARGET_COLUMNS, read_targets

if TYPE_CHECKING:  # imported on first use (see __getattr__)
    from .bsdata import Catalogue, read_catalogue
    from .defences import Defences, read_defences
    from .import_report import ImportReport, Skipped, describe
    from .library import DatasheetLibrary
    from .roster import Roster, RosterUnit, compare_detachments, read_roster
    from .sources import Army, read_army
    from .wahapedia import read_wahapedia

#: The army readers by module: loaded on first use, so that the profile readers (and
#: ``import mathhammer``) do not load the XML and zip machinery.
_LAZY = {
    "Catalogue": ".bsdata",
    "read_catalogue": ".bsdata",
    "Defences": ".defences",
    "read_defences": ".defences",
    "ImportReport": ".import_report",
    "Skipped": ".import_report",
    "describe": ".import_report",
    "DatasheetLibrary": ".library",
    "Roster": ".roster",
    "RosterUnit": ".roster",
    "read_roster": ".roster",
    "compare_detachments": ".roster",
    "Army": ".sources",
    "read_army": ".sources",
    "read_wahapedia": ".wahapedia",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(import_module(_LAZY[name], __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "ATTACKER_COLUMNS",
    "TARGET_COLUMNS",
    "Army",
    "Catalogue",
    "CsvError",
    "DatasheetLibrary",
    "Defences",
    "ImportReport",
    "InputFileError",
    "Roster",
    "RosterUnit",
    "Skipped",
    "compare_detachments",
    "describe",
    "read_army",
    "read_attackers",
    "read_catalogue",
    "read_defences",
    "read_roster",
    "read_targets",
    "read_wahapedia",
]
