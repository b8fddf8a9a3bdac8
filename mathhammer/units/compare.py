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

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from ..errors import ProfileError, field_error
from ..exact.engine import attack
from ..model.context import Context, Modifiers
from ..model.pools import MortalWounds, weapon_entries
from ..model.profiles import Unit, Weapon
from ..results.columns import COLUMNS, attack_columns, columns_frame
from ..rules import Ruleset
from . import targets as suite
from .targets import Target

__all__ = ["COLUMNS", "Loadout", "compare"]


@dataclass(frozen=True, init=False)
class Loadout:
    """A named set of weapons for one attacking unit, with its points and situation.

    Parameters
    ----------
    name : str
        The row label in a comparison.
    weapons : Weapon, list of Weapon or list of (Weapon, count)
        As for :func:`mathhammer.attack`; stored as ``(Weapon, count)`` pairs and
        :class:`~mathhammer.model.pools.MortalWounds` steps
        (:func:`~mathhammer.model.pools.weapon_entries`).
    points : int, optional
        What the loadout costs: enables the "per 100 points" columns.
    context : Context, optional
        The loadout's own situation (half range, charged, ...): :func:`compare` uses
        it instead of the ``context`` it is given.
    source : str, optional
        Where the loadout was read from, as ``file:line`` (set by
        :func:`mathhammer.io.read_attackers`); not part of its identity.

    Examples
    --------
    >>> import mathhammer as mh
    >>> bolt = mh.Weapon("Bolt rifle", attacks=2, skill=3, strength=4, ap=-1, damage=1)
    >>> Loadout("bolters", [(bolt, 10)], points=160).points
    160
    >>> Loadout("close", [(bolt, 10)], context=mh.Context(half_range=True)).context.half_range
    True
    """

    name: str
    weapons: tuple[tuple[Weapon, int] | MortalWounds, ...]
    points: int | None
    context: Context | None
    source: str | None = field(compare=False)

    def __init__(
        self,
        name: str,
        weapons: Any,
        points: int | None = None,
        context: Context | None = None,
        source: str | None = None,
    ) -> None:
        if not isinstance(name, str) or not name:
            raise field_error(ProfileError, "Loadout.name", "a non-empty string", name)
        if points is not None and (
            isinstance(points, bool) or not isinstance(points, int) or points < 1
        ):
            raise field_error(ProfileError, "Loadout.points", "an integer >= 1", points)
        if context is not None and not isinstance(context, Context):
            raise field_error(ProfileError, "Loadout.context", "a Context or None", context)
        if source is not None and not isinstance(source, str):
            raise field_error(ProfileError, "Loadout.source", "a string or None", source)
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "weapons", weapon_entries(weapons))
        object.__setattr__(self, "points", points)
        object.__setattr__(self, "context", context)
        object.__setattr__(self, "source", source)

    @property
    def weapon_counts(self) -> tuple[tuple[Weapon, int], ...]:
        """The ``(Weapon, count)`` pairs, without the mortal-wound steps."""
        return tuple(entry for entry in self.weapons if not isinstance(entry, MortalWounds))


def _loadout(name: str, value: Any) -> Loadout:
    if isinstance(value, Loadout):
        return value if value.name == name else replace(value, name=name)
    if isinstance(value, tuple) and len(value) == 2:
        if isinstance(value[0], Weapon):
            return Loadout(name, [value])  # one (Weapon, count) pair, as attack() reads it
        if isinstance(value[1], int) and not isinstance(value[1], bool):
            return Loadout(name, value[0], value[1])  # (weapons, points)
    return Loadout(name, value)


def _loadouts(loadouts: Any) -> list[Loadout]:
    expected = "a dict of name -> weapons, (weapons, points) or Loadout, or a list of Loadouts"
    if isinstance(loadouts, Loadout):
        out = [loadouts]
    elif isinstance(loadouts, Mapping):
        out = [_loadout(str(name), value) for name, value in loadouts.items()]
    elif isinstance(loadouts, Iterable) and not isinstance(loadouts, str):
        out = list(loadouts)
        for item in out:
            if not isinstance(item, Loadout):
                raise field_error(ProfileError, "loadouts", expected, item)
    else:
        raise field_error(ProfileError, "loadouts", expected, loadouts)
    if not out:
        raise field_error(ProfileError, "loadouts", f"non-empty: {expected}", loadouts)
    _check_unique("loadout names", [x.name for x in out])
    return out


def _target(value: Any, name: str | None = None) -> Target:
    if isinstance(value, str):
        target = suite.get(value)
    elif isinstance(value, Unit):
        target = Target(value)
    elif isinstance(value, Target):
        target = value
    else:
        raise field_error(ProfileError, "targets", "Units, Targets or standard target names", value)
    if name is not None and name != target.name:
        target = replace(target, unit=replace(target.unit, name=name))
    return target


def _targets(targets: Any) -> list[Target]:
    if isinstance(targets, Unit | Target | str):
        out = [_target(targets)]
    elif isinstance(targets, Mapping):
        out = [_target(value, str(name)) for name, value in targets.items()]
    elif isinstance(targets, Iterable):
        out = [_target(value) for value in targets]
    else:
        raise field_error(
            ProfileError, "targets", "a Unit, a Target, a name, or a list or dict of them", targets
        )
    if not out:
        raise field_error(ProfileError, "targets", "non-empty", targets)
    _check_unique("target names", [t.name for t in out])
    return out


def _check_unique(what: str, values: list[str]) -> None:
    duplicates = sorted({v for v in values if values.count(v) > 1})
    if duplicates:
        raise field_error(ProfileError, what, "unique", duplicates, "give each a distinct name")


def compare(
    loadouts: Any,
    targets: Any,
    *,
    rules: str | Ruleset = "11e",
    context: Context | None = None,
    modifiers: Modifiers | None = None,
) -> Any:
    """Attack every target with every loadout; one row per pairing.

    Parameters
    ----------
    loadouts : dict or list
        ``{name: weapons}``, ``{name: (weapons, points)}`` or ``{name: Loadout}``, or a
        list of :class:`Loadout`. ``weapons`` is anything :func:`mathhammer.attack` takes;
        a ``(Weapon, n)`` pair means n of the weapon, as in ``attack``, so give points
        with a list: ``{name: ([weapon], points)}`` or ``{name: ([(weapon, n)], points)}``.
    targets : Unit, Target, str, or a list or dict of them
        Units; :class:`~mathhammer.targets.Target` records (with points); names from the
        standard suite; or the suite itself, ``mathhammer.targets.STANDARD``. A dict
        names each target by its key.
    rules, context, modifiers
        As for :func:`mathhammer.attack`, applied to every pairing; a loadout with a
        context of its own is attacked in that context instead.

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
        ``p_panic_fail`` follow ``mean_damage``.

    Examples
    --------
    >>> import mathhammer as mh
    >>> bolt = mh.Weapon("Bolt rifle", attacks=2, skill=3, strength=4, ap=-1, damage=1)
    >>> frame = mh.compare({"bolters": ([(bolt, 10)], 160)}, mh.targets.STANDARD)
    >>> frame.shape
    (9, 13)
    >>> row = frame.set_index("target").loc["Horde infantry"]
    >>> round(float(row.mean_killed), 3), round(float(row.points_destroyed_per_100_points), 3)
    (7.407, 27.778)
    """
    chosen, against = _loadouts(loadouts), _targets(targets)
    rows = []
    for loadout in chosen:
        situation = context if loadout.context is None else loadout.context
        for target in against:
            res = attack(
                loadout.weapons, target.unit, rules=rules, context=situation, modifiers=modifiers
            )
            rows.append(attack_columns(res, target=target, loadout=loadout))
    return columns_frame(rows)
