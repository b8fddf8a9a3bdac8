"""Reading a sweep: the best attackers by a metric, over the targets and context asked for."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ..errors import OptionError, field_error
from ..results.columns import metric_column
from ..views.sweep import one_context
from .options import check_least

if TYPE_CHECKING:
    import pandas as pd


__all__ = ["sweep_top"]


def sweep_top(
    frame: pd.DataFrame,
    metric: str = "points_destroyed_per_100_points",
    *,
    n: int = 10,
    targets: Iterable[str] | None = None,
    context: str | None = None,
) -> pd.DataFrame:
    """The ``n`` attackers with the highest mean ``metric`` over ``targets`` (every target
    by default) in one context: one line of a question such as "the best anti-tank per 100
    points against their vehicles".

    Parameters
    ----------
    frame : pandas.DataFrame
        A :func:`mathhammer.sweep` frame.
    metric : str
        A numeric column of the sweep, or its alias
        (:func:`mathhammer.metric_column`).
    n : int
        How many attackers.
    targets : iterable of str, optional
        The targets to average over (e.g. the names of the VEHICLE units).
    context : str, optional
        The context, required when the frame has several.

    Returns
    -------
    pandas.DataFrame
        ``loadout``, the mean ``metric`` over the targets, and the number of targets;
        best first (ties by loadout name).

    Examples
    --------
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"loadout": ["a", "a", "b", "b"], "target": ["x", "y", "x", "y"],
    ...                       "context": "default", "mean_killed": [1.0, 3.0, 2.5, 0.5]})
    >>> sweep_top(frame, "mean_killed", n=1)
      loadout  mean_killed  targets
    0       a          2.0        2
    >>> sweep_top(frame, "mean_killed", targets=["x"])["loadout"].tolist()
    ['b', 'a']
    """
    metric = metric_column(metric, among=[str(c) for c in frame.columns])
    check_least("n", n, 1)
    rows = _against(one_context(frame, context), targets)
    grouped = rows.groupby("loadout", sort=True)[metric]
    table = grouped.mean().to_frame(metric)
    table["targets"] = grouped.count()
    table = table.reset_index().sort_values([metric, "loadout"], ascending=[False, True])
    return table.head(n).reset_index(drop=True)


def _against(rows: Any, targets: Iterable[str] | None) -> Any:
    """The rows against ``targets`` (all of them for None); targets not there are refused."""
    if targets is None:
        return rows
    wanted = list(targets)
    missing = sorted(set(wanted) - set(rows["target"]))
    if missing:
        raise field_error(OptionError, "targets", "targets of the sweep", missing)
    return rows[rows["target"].isin(wanted)]
