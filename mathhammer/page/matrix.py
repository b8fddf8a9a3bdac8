"""Every unit of one list against every unit of another: the page's matrix.

One row per attacking unit, one column per target, in one phase (ranged or melee), each
cell a metric of the exact attack (each unit's best option against that target, as
:func:`mathhammer.compare` chooses it).

Examples
--------
>>> import mathhammer as mh
>>> bolt = mh.Weapon("Bolt rifle", 2, 3, 4, -1, 1)
>>> squad = mh.Loadout("Squad (ranged)", [(bolt, 10)], points=90)
>>> frame = matrix([squad], mh.targets.STANDARD[:2], metric="mean_killed")
>>> frame.columns.tolist(), frame.round(3).loc["Squad (ranged)"].tolist()
(['Horde infantry', 'Line infantry'], [7.407, 1.417])
>>> round(mh.attack([(bolt, 10)], mh.targets.get("Line infantry").unit).killed.mean(), 3)
1.417
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..errors import OptionError, field_error
from ..model.context import Context
from ..rules.registry import RulesetLike
from ..units.compare import compare
from ..units.loadout import Loadout
from ..units.targets import Target

if TYPE_CHECKING:  # pandas is imported where a table is made: import time matters
    import pandas as pd

__all__ = ["METRICS", "PHASES", "matrix", "of_phase", "pairs"]

#: What a cell can show: the column of :func:`mathhammer.compare`, in words.
METRICS = {
    "mean_killed": "expected models destroyed",
    "points_destroyed": "expected points destroyed",
    "p_destroyed": "P(destroyed)",
    "damage_per_100_points": "expected wounds per 100 points",
}
#: The phases of the matrix, and the loadouts' phase in each.
PHASES = {"ranged": "shooting", "melee": "fight"}


def of_phase(loadouts: Sequence[Loadout], phase: str) -> list[Loadout]:
    """The loadouts that attack in ``phase`` (``"ranged"`` or ``"melee"``); a loadout
    without a phase (a profiles CSV's) is ranged unless its weapons are all melee."""
    if phase not in PHASES:
        raise field_error(OptionError, "phase", f"one of {list(PHASES)}", phase)
    return [loadout for loadout in loadouts if _phase(loadout) == PHASES[phase]]


def _phase(loadout: Loadout) -> str:
    phase = getattr(loadout, "phase", None)
    if phase is not None:
        return str(phase)
    return "fight" if all(w.melee for w, _ in loadout.weapon_counts) else "shooting"


def matrix(
    loadouts: Sequence[Loadout],
    targets: Sequence[Target],
    *,
    metric: str = "mean_killed",
    rules: RulesetLike = "11e",
    context: Context | None = None,
) -> pd.DataFrame:
    """The metric of every loadout against every target: rows by unit, columns by target,
    in the order given (NaN where a price the metric needs is missing)."""
    if metric not in METRICS:
        raise field_error(OptionError, "metric", f"one of {list(METRICS)}", metric)
    import pandas as pd

    if not loadouts or not targets:
        return pd.DataFrame(index=pd.Index([], name="unit"), columns=pd.Index([], name="target"))
    frame = pairs(loadouts, targets, rules=rules, context=context)
    table = frame.pivot(index="loadout", columns="target", values=metric)
    table = table.reindex(index=[x.name for x in loadouts], columns=[t.name for t in targets])
    return table.rename_axis(index="unit", columns="target")


def pairs(
    loadouts: Sequence[Loadout],
    targets: Sequence[Target],
    *,
    rules: RulesetLike = "11e",
    context: Context | None = None,
) -> pd.DataFrame:
    """The matrix's cells as :func:`mathhammer.compare`'s rows (one per unit and target),
    with every metric of :data:`METRICS` (NaN where a price it needs is missing)."""
    frame = compare(list(loadouts), list(targets), rules=rules, context=context)
    frame["damage_per_100_points"] = 100 * frame["mean_damage"] / frame["loadout_points"]
    if "points_destroyed" not in frame:
        frame["points_destroyed"] = float("nan")
    return frame
