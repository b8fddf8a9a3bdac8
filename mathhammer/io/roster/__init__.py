"""Internal: army lists from BattleScribe and New Recruit: ``.rosz``, ``.ros`` and roster JSON.

:func:`read_roster` reads a roster into a :class:`Roster` of :class:`RosterUnit` s, each
with the models and wargear taken, its points and its leaders; rosters carry copies of
their profiles, so no catalogue is needed. The modules, in reading order:

- :mod:`.load`: the file (zip, XML through defusedxml, JSON) into one tree;
- :mod:`.tree`: the tree's units, models and wargear;
- :mod:`.profiles`: profile characteristics into weapons and model fields;
- :mod:`.build`: a unit into the datasheet of what was taken;
- :mod:`.army`: the roster as attackers, loadouts and targets.

Its public names are reached through :mod:`mathhammer.io` and the top level; the modules
here may change without notice.
"""

from __future__ import annotations

from .army import Roster, RosterModel, RosterUnit
from .detachments import compare_detachments
from .load import MAX_BYTES, MAX_RATIO
from .read import read_roster

__all__ = [
    "MAX_BYTES",
    "MAX_RATIO",
    "Roster",
    "RosterModel",
    "RosterUnit",
    "compare_detachments",
    "read_roster",
]
