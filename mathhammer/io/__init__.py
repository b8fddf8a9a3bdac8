"""Reading and writing profiles, armies and reports.

Profiles CSVs (:func:`read_attackers`, :func:`read_targets`); real armies: rosters from
BattleScribe and New Recruit (:func:`read_roster`), BSData catalogues
(:func:`read_catalogue`), the Wahapedia export (:func:`read_wahapedia`), and any of them
by what the path holds (:func:`read_army`). Every army import carries an
:class:`ImportReport` of what was and was not read.
"""

from __future__ import annotations

from ..errors import CsvError, InputFileError
from .bsdata import Catalogue, read_catalogue
from .defences import Defences, read_defences
from .import_report import ImportReport, Skipped, describe
from .library import DatasheetLibrary
from .profiles_csv import ATTACKER_COLUMNS, TARGET_COLUMNS, read_attackers, read_targets
from .roster import Roster, RosterUnit, read_roster
from .sources import Army, read_army
from .wahapedia import read_wahapedia

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
    "describe",
    "read_army",
    "read_attackers",
    "read_catalogue",
    "read_defences",
    "read_roster",
    "read_targets",
    "read_wahapedia",
]
