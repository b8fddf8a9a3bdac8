"""Internal: the Wahapedia data export read into datasheets.

Wahapedia publishes its datasheets as a set of pipe-delimited files (the "data export").
:func:`read_wahapedia` joins them into :class:`~mathhammer.units.datasheet.Datasheet`
objects, the same ones the BSData reader gives, in a
:class:`~mathhammer.io.library.DatasheetLibrary` with the report of the import.

Modules: :mod:`.tables` (the file format), :mod:`.weapons` (weapon rows),
:mod:`.composition` (unit composition, points and loadout prose), :mod:`.units` (model
types) and :mod:`.reader` (the join).

Its public names are reached through :mod:`mathhammer.io` and the top level; the modules
here may change without notice.
"""

from __future__ import annotations

from .reader import FILES, read_wahapedia
from .tables import Row, Table, read_table
from .weapons import WEAPON_COLUMNS, group_wargear, weapon_from_row

__all__ = [
    "FILES",
    "WEAPON_COLUMNS",
    "Row",
    "Table",
    "group_wargear",
    "read_table",
    "read_wahapedia",
    "weapon_from_row",
]
