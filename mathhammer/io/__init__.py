"""Reading and writing profiles, armies and reports: ``mathhammer.io``.

The readers a user starts from are at the top level: profiles CSVs
(``mh.read_attackers``, ``mh.read_targets``) and real armies, rosters from BattleScribe
and New Recruit (``mh.read_roster``), BSData catalogues (``mh.read_catalogue``), the
Wahapedia export (``mh.read_wahapedia``) and any of them by what the path holds
(``mh.read_army``). This namespace holds what they return (:class:`Roster`,
:class:`Catalogue`, :class:`Army`, the :class:`ImportReport` of what was and was not
read), the lesser readers (:func:`read_defences`), the report writers
(:func:`build_report`, :func:`write_html_report`) and the rules-text reader
(:mod:`~mathhammer.io.rules_text`).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from .attackers_csv import ATTACKER_COLUMNS
from .targets_csv import TARGET_COLUMNS

if TYPE_CHECKING:  # imported on first use (see __getattr__)
    from .attackers_csv import read_attackers as read_attackers
    from .bsdata import Catalogue
    from .bsdata import read_catalogue as read_catalogue
    from .defences import Defences, read_defences
    from .import_report import ImportReport, Skipped, describe
    from .library import DatasheetLibrary
    from .report import build_report
    from .report_html import write_html_report
    from .roster import Roster, RosterUnit, compare_detachments
    from .roster import read_roster as read_roster
    from .sources import Army
    from .sources import read_army as read_army
    from .targets_csv import read_targets as read_targets
    from .wahapedia import read_wahapedia as read_wahapedia

#: The army readers by module: loaded on first use, so that the profile readers (and
#: ``import mathhammer``) do not load the XML and zip machinery.
_LAZY = {
    "read_attackers": ".attackers_csv",
    "read_targets": ".targets_csv",
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
    "build_report": ".report",
    "write_html_report": ".report_html",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(import_module(_LAZY[name], __name__), name)
    if name == "rules_text":
        return import_module(".rules_text", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "ATTACKER_COLUMNS",
    "TARGET_COLUMNS",
    "Army",
    "Catalogue",
    "DatasheetLibrary",
    "Defences",
    "ImportReport",
    "Roster",
    "RosterUnit",
    "Skipped",
    "build_report",
    "compare_detachments",
    "describe",
    "read_defences",
    "rules_text",
    "write_html_report",
]


def __dir__() -> list[str]:
    """The public names, ``__all__``: what ``dir()`` and completion offer."""
    return sorted(__all__)
