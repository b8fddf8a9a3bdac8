"""A list under each detachment, by the numbers: which one its units score best with.

:func:`compare_detachments` puts a roster under each detachment given
(:meth:`~mathhammer.io.roster.army.Roster.with_detachment`, docs/rules.md D39) and attacks
each target with each of its units, each unit choosing its best legal declaration against
it. A row sums the list's units: each unit attacks a fresh copy of the target, so the sum
measures what the list brings against that kind of target (not a sequence of attacks on one
unit: :func:`mathhammer.plan_army` is that).

Examples
--------
>>> import mathhammer as mh
>>> from mathhammer.units.parts import AbilityText, Detachment
>>> army = mh.read_roster("tests/data/rosters/real/orks_11e_attached.json")
>>> horde = Detachment("War Horde", (AbilityText("Get Stuck In", "Melee weapons equipped "
...     "by ORKS models from your army have the [SUSTAINED HITS 1] ability."),))
>>> table = compare_detachments(army, [None, horde], [mh.targets.get("Line infantry")])
>>> [(row.detachment, round(row.mean_killed, 3)) for row in table.itertuples()]
[('none', 12.19), ('War Horde', 13.9)]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from ...errors import OptionError, field_error
from ...model.context import Context
from ...rules.registry import RulesetLike
from ...units.options import DEFAULT_METRIC, Metric, choose_rows
from ...units.parts import Detachment
from ...units.targets import Target
from .army import Roster

if TYPE_CHECKING:  # pandas is imported where a table is made: import time matters
    import pandas as pd

__all__ = ["DETACHMENT_COLUMNS", "compare_detachments"]

#: The columns of :func:`compare_detachments`, in order.
DETACHMENT_COLUMNS = (
    "detachment",
    "target",
    "mean_killed",
    "mean_damage",
    "points_destroyed",
    "units_armed",
    "rules_applied",
)


def compare_detachments(
    roster: Roster,
    detachments: Iterable[Detachment | None],
    targets: Sequence[Target],
    *,
    rules: RulesetLike = "11e",
    context: Context | None = None,
    metric: Metric = DEFAULT_METRIC,
) -> pd.DataFrame:
    """The list under each detachment against each target, its units' results summed.

    Parameters
    ----------
    roster : Roster
        The list.
    detachments : iterable of Detachment or None
        The detachments to try (None: none), e.g. ``catalogue.faction("Orks").detachments``
        with ``roster.detachment``.
    targets : sequence of Target
        What the list is measured against, e.g. :data:`mathhammer.targets.STANDARD`.
    rules, metric
        As for :func:`mathhammer.compare`: each unit's best declaration against each target
        by ``metric``.
    context : Context, optional
        The situation, e.g. ``Context(assume={"waaagh"})`` for the rules that need it.

    Returns
    -------
    pandas.DataFrame
        One row per detachment and target (:data:`DETACHMENT_COLUMNS`): ``mean_killed``,
        ``mean_damage`` and ``points_destroyed`` (NaN where the target has no points) summed
        over the list's units and phases; ``units_armed`` how many of the list's units the
        detachment's effects reach; ``rules_applied`` the detachment's effects read, "; "
        joined.
    """
    import pandas as pd

    rows = []
    for detachment in _checked(roster, detachments):
        army = roster.with_detachment(detachment)
        totals = _totals(army, targets, rules, context, metric)
        rows += _rows(army, detachment, targets, totals)
    return pd.DataFrame(rows, columns=list(DETACHMENT_COLUMNS))


def _checked(roster: Roster, detachments: Iterable[Detachment | None]) -> list[Detachment | None]:
    """The detachments to try; an error if the roster or one of them is not one."""
    if not isinstance(roster, Roster):
        raise field_error(OptionError, "roster", "a Roster (mathhammer.read_roster)", roster)
    chosen = list(detachments)
    if not chosen:
        raise field_error(OptionError, "detachments", "at least one (None: none)", chosen)
    for detachment in chosen:
        if not isinstance(detachment, Detachment | None):
            raise field_error(OptionError, "detachments", "Detachments or None", detachment)
    return chosen


def _totals(
    army: Roster,
    targets: Sequence[Target],
    rules: RulesetLike,
    context: Context | None,
    metric: Metric,
) -> dict[str, list[float]]:
    """Each target's killed, damage and points destroyed, summed over the army's units and
    phases, each with its best declaration against it (points NaN if it has none)."""
    totals = _zero_totals(targets)
    for loadout in army.loadouts():
        for row, _ in choose_rows(loadout, targets, rules=rules, context=context, metric=metric):
            total = totals[row["target"]]
            total[0] += row["mean_killed"]
            total[1] += row["mean_damage"]
            total[2] += row.get("points_destroyed", float("nan"))
    return totals


def _zero_totals(targets: Sequence[Target]) -> dict[str, list[float]]:
    """Each target's totals before any attack: nothing killed, no damage, no points
    destroyed (NaN for a target without points)."""
    return {t.name: [0.0, 0.0, 0.0 if t.points is not None else float("nan")] for t in targets}


def _rows(
    army: Roster,
    detachment: Detachment | None,
    targets: Sequence[Target],
    totals: dict[str, list[float]],
) -> list[dict[str, Any]]:
    """The table's rows of one detachment, a row per target."""
    shared = _detachment_fields(army, detachment)
    rows = []
    for target in targets:
        killed, damage, points = totals[target.name]
        rows.append(
            {
                "target": target.name,
                "mean_killed": killed,
                "mean_damage": damage,
                "points_destroyed": points,
                **shared,
            }
        )
    return rows


def _detachment_fields(army: Roster, detachment: Detachment | None) -> dict[str, Any]:
    """What every row of a detachment says: its name, how many units its effects reach,
    and the effects read."""
    effects = army.army_rules.effects
    return {
        "detachment": "none" if detachment is None else detachment.name,
        "units_armed": sum(any(e.for_unit(u.keywords) for e in effects) for u in army.units),
        "rules_applied": "; ".join(f"{e.source} ({e.text})" for e in effects),
    }
