"""Loadouts against targets: every pairing attacked exactly, as one tidy DataFrame.

Examples
--------
>>> import mathhammer as mh
>>> bolt = mh.Weapon("Bolt rifle", attacks=2, skill=3, strength=4, ap=-1, damage=1)
>>> plasma = mh.Weapon("Plasma gun", attacks=1, skill=3, strength=7, ap=-2, damage=2)
>>> frame = mh.compare({"bolters": [(bolt, 10)], "plasma": [(plasma, 10)]},
...                    ["Horde infantry", "Line infantry"])
>>> frame[["loadout", "target", "mean_killed", "p_at_least_half"]].round(3)
   loadout          target  mean_killed  p_at_least_half
0  bolters  Horde infantry        7.407            0.166
1  bolters   Line infantry        1.417            0.001
2   plasma  Horde infantry        5.556            0.003
3   plasma   Line infantry        2.963            0.144
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any, TypeVar

from ..core.heap import settled_heap
from ..errors import ProfileError, field_error
from ..model.context import Context, Modifiers
from ..model.profiles import Unit
from ..results.columns import COLUMNS, columns_frame
from ..rules.registry import RulesetLike
from . import targets as suite
from .entries import check_instance
from .loadout import Loadout, _is_int, ambiguous_pair
from .options import DEFAULT_METRIC, AttackOptions, Metric, check_metric, choose_rows
from .targets import Target

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["COLUMNS", "AttackOptions", "Loadout", "compare"]

#: A loadout or a target: anything :func:`compare` tells apart by name.
N = TypeVar("N", Loadout, Target)


def _loadout(name: str, value: Any) -> Loadout:
    """A dict entry as a loadout named by its key: a Loadout, weapons, or
    ``([weapons], points)``."""
    if isinstance(value, Loadout):
        return value if value.name == name else replace(value, name=name)
    refused = ambiguous_pair(name, value)
    if refused is not None:
        raise refused
    if _is_priced(value):
        return Loadout(name, value[0], value[1])  # ([weapons], points)
    return Loadout(name, value)


def _is_priced(value: Any) -> bool:
    """True for a pair of weapons and their points (an integer)."""
    return isinstance(value, tuple) and len(value) == 2 and _is_int(value[1])


def loadouts_of(loadouts: Any) -> list[Loadout]:
    """The loadouts :func:`compare` takes, as a list (names unique; refused with one clear
    error otherwise)."""
    return _named_apart(_loadout_list(loadouts), "loadout", f"non-empty: {_LOADOUTS}", loadouts)


#: What :func:`compare` takes as its loadouts, in words.
_LOADOUTS = "a dict of name -> weapons, ([weapons], points) or Loadout, or a list of Loadouts"


def _loadout_list(loadouts: Any) -> list[Loadout]:
    """The loadouts given, as a list (perhaps empty)."""
    if isinstance(loadouts, Loadout):
        return [loadouts]
    if isinstance(loadouts, Mapping):
        return [_loadout(str(name), value) for name, value in loadouts.items()]
    return _listed_loadouts(loadouts)


def _listed_loadouts(loadouts: Any) -> list[Loadout]:
    """Loadouts given as a list (any iterable but a string), each item a Loadout."""
    if not isinstance(loadouts, Iterable) or isinstance(loadouts, str):
        raise field_error(ProfileError, "loadouts", _LOADOUTS, loadouts)
    out = list(loadouts)
    for item in out:
        check_instance("loadouts", item, Loadout, _LOADOUTS)
    return out


def _target(value: Any, name: str | None = None) -> Target:
    """A target given as a standard target's name, a Unit or a Target; renamed ``name``."""
    target = _as_target(value)
    if name not in (None, target.name):
        target = replace(target, unit=replace(target.unit, name=name))
    return target


def _as_target(value: Any) -> Target:
    """A standard target's name, a Unit or a Target, as a Target."""
    if isinstance(value, str):
        return suite.get(value)
    if isinstance(value, Unit):
        return Target(value)
    if isinstance(value, Target):
        return value
    raise field_error(ProfileError, "targets", "Units, Targets or standard target names", value)


def targets_of(targets: Any) -> list[Target]:
    """The targets :func:`compare` takes, as a list of :class:`Target` (names unique)."""
    return _named_apart(_target_list(targets), "target", "non-empty", targets)


def _target_list(targets: Any) -> list[Target]:
    """The targets given, as a list (perhaps empty)."""
    if isinstance(targets, Unit | Target | str):
        return [_target(targets)]
    if isinstance(targets, Mapping):
        return [_target(value, str(name)) for name, value in targets.items()]
    if isinstance(targets, Iterable):
        return [_target(value) for value in targets]
    raise field_error(
        ProfileError, "targets", "a Unit, a Target, a name, or a list or dict of them", targets
    )


def _named_apart(out: list[N], kind: str, constraint: str, given: Any) -> list[N]:
    """The loadouts or targets ``out`` read from ``given``; refused (as ``"<kind>s"``) when
    there are none, and when two share a name."""
    if not out:
        raise field_error(ProfileError, f"{kind}s", constraint, given)
    _check_unique(f"{kind} names", [x.name for x in out])
    return out


def _check_unique(what: str, values: list[str]) -> None:
    """Refuse names given twice."""
    duplicates = sorted(v for v, n in Counter(values).items() if n > 1)
    if duplicates:
        raise field_error(ProfileError, what, "unique", duplicates, "give each a distinct name")


def compare(
    loadouts: Any,
    targets: Any,
    *,
    rules: RulesetLike = "11e",
    context: Context | None = None,
    modifiers: Modifiers | None = None,
    metric: Metric = DEFAULT_METRIC,
) -> pd.DataFrame:
    """Attack every target with every loadout; one row per pairing.

    Parameters
    ----------
    loadouts : dict or list
        ``{name: weapons}``, ``{name: ([weapons], points)}`` or ``{name: Loadout}``, or
        a list of :class:`Loadout` (such as what :func:`mathhammer.io.read_attackers`
        and :meth:`mathhammer.Datasheet.loadouts` return). ``weapons`` is anything
        :func:`mathhammer.attack` takes, but a bare ``(weapon, n)`` pair is refused as
        ambiguous (n weapons, or n points?): write ``[(weapon, n)]`` for n weapons and
        ``mh.Loadout(name, [(weapon, 1)], points=n)`` for n points.
    targets : Unit, Target, str, or a list or dict of them
        Units; :class:`~mathhammer.targets.Target` records (with points); names from the
        standard suite; or the suite itself, ``mathhammer.targets.STANDARD``. A dict
        names each target by its key.
    rules, context, modifiers
        As for :func:`mathhammer.attack`, applied to every pairing; a loadout with a
        context of its own is attacked in that context instead.
    metric : str or callable
        For :class:`~mathhammer.units.options.AttackOptions` (a unit's legal
        alternatives in a phase): the column that picks the best option against each
        target, one of :data:`~mathhammer.units.options.CHOICE_METRICS` (or an alias,
        :func:`mathhammer.metric_column`), or a function of the row.
        ``"mean_damage"`` by default.

    Returns
    -------
    pandas.DataFrame
        The columns of :mod:`mathhammer.results.columns`: ``loadout``, ``target``,
        ``mean_killed``, ``sd_killed``, ``p_at_least_1``, ``p_at_least_half`` (P(at
        least half the unit's models, rounded up)), ``p_destroyed`` and
        ``mean_damage``. When loadouts have points: ``loadout_points`` and
        ``killed_per_100_points``. When targets have points:
        ``target_points`` and ``points_destroyed`` (expected, each model at its own
        group's price). When both do: ``points_destroyed_per_100_points``. A missing
        price gives NaN. Under a ruleset with Panic Tests, ``p_panic_test`` and
        ``p_panic_fail`` follow ``mean_damage``. For AttackOptions: ``phase`` and
        ``weapons_used`` (the option chosen); for weapons with ability tokens the
        engine does not know: ``unknown_abilities``.

    Examples
    --------
    >>> import mathhammer as mh
    >>> bolt = mh.Weapon("Bolt rifle", attacks=2, skill=3, strength=4, ap=-1, damage=1)
    >>> frame = mh.compare({"bolters": ([(bolt, 10)], 160)}, mh.targets.STANDARD)
    >>> frame.shape
    (9, 15)
    >>> row = frame.set_index("target").loc["Horde infantry"]
    >>> round(float(row.mean_killed), 3), round(float(row.points_destroyed_per_100_points), 3)
    (7.407, 27.778)
    >>> las = mh.Weapon("Lascannon", attacks=1, skill=3, strength=12, ap=-3, damage="D6+1")
    >>> frame = mh.compare([mh.Loadout("Lascannon team", [(las, 1)], points=120)], "Vehicle")
    >>> float(frame.loadout_points[0])
    120.0
    """
    chosen, against = loadouts_of(loadouts), targets_of(targets)
    metric = check_metric(metric)
    with settled_heap():  # the caches it fills are not garbage: not walked again and again
        rows = [
            row
            for loadout in chosen
            for row, _ in choose_rows(
                loadout, against, rules=rules, context=context, modifiers=modifiers, metric=metric
            )
        ]
    return columns_frame(rows)
