"""The standard target suite: generic units to compare loadouts against, with their points.

The suite is package data (``mathhammer/data/targets.json``), not code: horde, line,
elite and heavy elite infantry, cavalry, a monster, a vehicle, a super-heavy vehicle
and a CHARACTER-led unit, each with keywords, points, a Leadership for the classic
rules' Panic Test (which refuses the vehicles and the CHARACTER-led unit, whose
models have different saves) and a one-line description.
:func:`mathhammer.targets.load` reads a suite of your own in the same format.

Examples
--------
>>> from mathhammer import targets
>>> [t.name for t in targets.STANDARD][:3]
['Horde infantry', 'Line infantry', 'Elite infantry']
>>> marines = targets.get("line infantry")
>>> marines.unit.models, marines.points
(10, 180)
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from ..core.frozen import HASHED, hash_once
from ..core.suggest import did_you_mean
from ..errors import ProfileError, field_error, shown
from ..model.fields import text_field
from ..model.profiles import ModelGroup, Unit
from .entries import an_object, built, check_instance, is_int, non_empty_list

if TYPE_CHECKING:
    from ..results.attack import AttackResult

__all__ = ["MAX_POINTS", "Target", "get", "names", "parse_suite", "standard"]

_GROUP_FIELDS = {
    "count",
    "toughness",
    "save",
    "wounds",
    "invuln",
    "fnp",
    "character",
    "name",
    "wounds_lost",
    "damage_reduction",
    "halve_damage",
    "reduce_mortal",
}
_UNIT_FIELDS = {
    "name", "description", "keywords", "stealth", "leadership", "groups", "worsen_ap",
    "reroll_saves",
}  # fmt: skip


#: The most points a target or one of its groups is worth: far beyond any army, and
#: small enough for every points column (a float) to be computed.
MAX_POINTS = 1_000_000_000


def _points(name: str, value: Any) -> int:
    """Points: an integer from 0 to :data:`MAX_POINTS`."""
    if not is_int(value, 0):
        raise field_error(ProfileError, name, "an integer >= 0", value)
    if value > MAX_POINTS:
        raise field_error(ProfileError, name, f"an integer from 0 to {MAX_POINTS:,}", value)
    return int(value)


@hash_once
@dataclass(frozen=True)
class Target:
    """A target unit with its points and a one-line description.

    Parameters
    ----------
    unit : Unit
        The unit, its groups in allocation order.
    points : int, optional
        What the whole unit costs.
    description : str
        One line saying what the target stands for.
    group_points : tuple of int, optional
        The points of each group (summing to ``points``), so that a CHARACTER is worth
        more than a bodyguard; by default the points are spread evenly over the models.
    source : str, optional
        Where the target was read from, as ``file:line`` (set by
        :func:`mathhammer.io.read_targets`); not part of its identity.

    Examples
    --------
    >>> from mathhammer import ModelGroup, Unit
    >>> unit = Unit("Led", [ModelGroup(4, 4, 3, 2, name="Guard"),
    ...                     ModelGroup(1, 4, 2, 5, character=True, name="Boss")])
    >>> Target(unit, points=100, group_points=(60, 40)).model_points
    (15.0, 40.0)
    >>> Target(unit, points=100).model_points
    (20.0, 20.0)
    """

    hashed = HASHED  # the value as a part of a cache key (core.frozen.HASHED)

    unit: Unit
    points: int | None = None
    description: str = ""
    group_points: tuple[int, ...] | None = None
    source: str | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        check_instance("Target.unit", self.unit, Unit, "a Unit")
        check_instance("Target.source", self.source, str | None, "a string or None")
        if self.points is not None:
            object.__setattr__(self, "points", _points("Target.points", self.points))
        text_field("Target", "description", self.description)
        if self.group_points is not None:
            self._settle_group_points(self.group_points)

    def _settle_group_points(self, group_points: tuple[int, ...]) -> None:
        """Check the points of each group (one per group, summing to ``points``), and
        take their sum as ``points`` when it is not given."""
        per_group = tuple(
            _points(f"Target.group_points[{i}]", p) for i, p in enumerate(group_points)
        )
        if len(per_group) != len(self.unit.groups):
            raise field_error(
                ProfileError,
                "Target.group_points",
                f"one entry per group ({len(self.unit.groups)})",
                group_points,
            )
        if self.points is None:
            object.__setattr__(self, "points", sum(per_group))
        elif sum(per_group) != self.points:
            raise field_error(
                ProfileError, "Target.group_points", f"summing to points ({self.points})", per_group
            )
        object.__setattr__(self, "group_points", per_group)

    @property
    def name(self) -> str:
        """The unit's name."""
        return self.unit.name

    @cached_property
    def model_points(self) -> tuple[float, ...] | None:
        """The points of one model of each group (None without points)."""
        if self.points is None:
            return None
        if self.group_points is None:
            return (self.points / self.unit.models,) * len(self.unit.groups)
        return tuple(p / g.count for p, g in zip(self.group_points, self.unit.groups, strict=True))

    def points_destroyed(self, result: AttackResult) -> float | None:
        """The expected points of the models an attack on this target destroys.

        Parameters
        ----------
        result : AttackResult
            An attack on :attr:`unit`.

        Examples
        --------
        >>> import mathhammer as mh
        >>> gun = mh.Weapon("Gun", attacks=6, skill=2, strength=8, ap=-4, damage=1)
        >>> horde = get("Horde infantry")
        >>> round(horde.points_destroyed(mh.attack(gun, horde.unit)), 3)
        25.0
        """
        prices = self.model_points
        if prices is None:
            return None
        total = 0.0
        for price, group in zip(prices, result.groups, strict=True):
            total += price * group.killed.mean()
        return total

    def points_of_damage(self, result: AttackResult) -> float | None:
        """The expected points of the wounds an attack on this target takes.

        Each model's points are spread evenly over its wounds, so a wound lost is worth
        the model's points divided by its W, and a destroyed model its points (damage
        beyond a model's wounds is lost). Damage to a vehicle or a monster earns points
        before it dies; a destroyed model earns what :meth:`points_destroyed` gives it.

        Parameters
        ----------
        result : AttackResult
            An attack on :attr:`unit`.

        Returns
        -------
        float or None
            None without points, or when the result does not say how many wounds each
            group lost (see :attr:`GroupResult.damage
            <mathhammer.results.attack.GroupResult.damage>`).

        Examples
        --------
        Two automatic hits of damage 6 on a W12 vehicle of 160 points, wounding on a 6
        (S6 against T12) and saved on a 3+: each takes 6 of its 12 wounds, 80 points, with
        P = 1/6 * 2/3.

        >>> import mathhammer as mh
        >>> gun = mh.Weapon("Gun", attacks=1, skill=2, strength=6, ap=0, damage=6,
        ...                 abilities="[TORRENT]")
        >>> tank = get("Vehicle")
        >>> result = mh.attack([(gun, 2)], tank.unit)
        >>> round(tank.points_of_damage(result), 12), round(2 * 80 / 9, 12)
        (17.777777777778, 17.777777777778)
        >>> round(tank.points_destroyed(result), 12)  # both wounds needed to destroy it
        1.975308641975
        """
        prices = self.model_points
        if prices is None:
            return None
        total = 0.0
        for price, group in zip(prices, result.groups, strict=True):
            if group.damage is None:  # by identity (``None in`` would call Dist.__eq__)
                return None
            total += price / group.group.wounds * group.damage.mean()
        return total


def _read_target(entry: dict[str, Any]) -> Target:
    """The target a suite's entry describes (its errors not yet located)."""
    _check_fields(entry, _UNIT_FIELDS, "fields")
    raw_groups = non_empty_list(entry.get("groups"), "groups")
    groups = [_group(raw, f"groups[{i}]") for i, raw in enumerate(raw_groups)]
    points = _group_points(raw_groups)
    unit = Unit(
        entry.get("name", ""),
        groups,
        keywords=entry.get("keywords", ()),
        stealth=entry.get("stealth", False),
        leadership=entry.get("leadership"),
        worsen_ap=entry.get("worsen_ap", 0),
        reroll_saves=entry.get("reroll_saves"),
    )
    return Target(unit, sum(points) if points else None, entry.get("description", ""), points)


def _group_points(raw_groups: list[dict[str, Any]]) -> tuple[Any, ...] | None:
    """The points of each group of a target entry, None when no group gives them."""
    points = [raw["points"] for raw in raw_groups if "points" in raw]
    if 0 < len(points) < len(raw_groups):
        raise field_error(ProfileError, "points", "given for every group or for none", points)
    return tuple(points) or None


def _group(raw: Any, where: str) -> ModelGroup:
    """One group of a target entry: its ModelGroup fields (its points read apart)."""
    fields = {k: v for k, v in an_object(raw, where).items() if k != "points"}
    _check_fields(fields, _GROUP_FIELDS, f"{where} fields")
    return ModelGroup(**fields)


def _check_fields(given: Mapping[str, Any], known: set[str], field: str) -> None:
    """Refuse the fields of an entry that are not ``known``."""
    unknown = set(given) - known
    if unknown:
        raise field_error(ProfileError, field, f"among {sorted(known)}", sorted(unknown))


def parse_suite(data: Any, source: str = "suite") -> tuple[Target, ...]:
    """Build targets from a suite's parsed JSON: ``{"targets": [{...}, ...]}``.

    Each target has ``name``, ``description``, ``keywords``, optional ``stealth``,
    ``leadership``, ``worsen_ap`` and ``reroll_saves``, and ``groups``:
    :class:`~mathhammer.model.profiles.ModelGroup` fields plus the ``points`` of the whole
    group. Errors name the entry: ``"suite: targets[2]
    ('Elite infantry'): ..."``.

    Examples
    --------
    >>> suite = parse_suite({"targets": [{"name": "Squad", "description": "Five marines",
    ...     "groups": [{"count": 5, "toughness": 4, "save": 3, "wounds": 2, "points": 90}]}]})
    >>> suite[0].name, suite[0].points
    ('Squad', 90)
    >>> parse_suite({"targets": [{"name": "Bad", "groups": [{"count": 0, "toughness": 4,
    ...     "save": 3, "wounds": 1}]}]})
    Traceback (most recent call last):
    ...
    mathhammer.errors.ProfileError: suite: targets[0] ('Bad'): ModelGroup.count must be an
    integer >= 1; got 0
    """
    entries = data.get("targets") if isinstance(data, dict) else None
    listed = non_empty_list(entries, f"{source}: targets")
    out = [_target(entry, f"{source}: targets[{i}]") for i, entry in enumerate(listed)]
    _check_unique(names(out), f"{source}: target names")
    return tuple(out)


def _check_unique(seen: list[str], field: str) -> None:
    """Refuse target names given twice."""
    duplicates = sorted({n for n in seen if seen.count(n) > 1})
    if duplicates:
        raise field_error(ProfileError, field, "unique", duplicates)


def _target(entry: Any, where: str) -> Target:
    """One target of a suite; its errors name the entry."""
    entry = an_object(entry, where)
    return built(f"{where} ({shown(entry.get('name'))})", lambda: _read_target(entry))


@lru_cache(maxsize=1)
def standard() -> tuple[Target, ...]:
    """The bundled standard target suite, read from package data on first use.

    Examples
    --------
    >>> len(standard())
    9
    """
    text = resources.files("mathhammer").joinpath("data", "targets.json").read_text("utf-8")
    return parse_suite(json.loads(text), "mathhammer/data/targets.json")


def names(suite: Iterable[Target] | None = None) -> list[str]:
    """The target names of a suite, in order.

    Examples
    --------
    >>> names()[-1]
    'Character-led unit'
    """
    return [t.name for t in (standard() if suite is None else suite)]


def _key(name: str) -> str:
    """A name as it is looked up: lower case, hyphens and underscores as spaces."""
    return " ".join(name.replace("-", " ").replace("_", " ").lower().split())


def get(name: str, suite: Iterable[Target] | None = None) -> Target:
    """The target called ``name``; case, hyphens and underscores do not matter.

    Examples
    --------
    >>> get("super_heavy vehicle").name
    'Super-heavy vehicle'
    >>> get("Tank")
    Traceback (most recent call last):
    ...
    mathhammer.errors.ProfileError: target must be one of ['Horde infantry', 'Line infantry',
    'Elite infantry', 'Heavy elite infantry', 'Cavalry', 'Monster', 'Vehicle',
    'Super-heavy vehicle', 'Character-led unit']; got 'Tank'
    """
    suite = standard() if suite is None else tuple(suite)
    if isinstance(name, str):
        for target in suite:
            if _key(target.name) == _key(name):
                return target
    known = names(suite)
    raise field_error(ProfileError, "target", f"one of {known}", name, did_you_mean(name, known))


def __getattr__(name: str) -> Any:
    # ``STANDARD`` is read on first use, so that importing the package parses no JSON
    if name == "STANDARD":
        return standard()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
