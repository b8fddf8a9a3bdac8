"""How durable a unit is: what the standard attackers do to it, and how many it takes.

The standard attackers (``mathhammer/data/attackers.json``) are generic units, one for
each job a list asks of its guns: anti-horde, general purpose, anti-elite, anti-tank,
melee and mortal wounds, each with its points. :func:`durability` attacks a unit with
each, exactly, and counts how many copies of the attacker, one after another with the
unit's state carried from each to the next (:func:`mathhammer.sequence`), destroy it
with a chance of at least 50 % and 90 %.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from ..decisions.attack import attack
from ..errors import OptionError, ProfileError, field_error, shown
from ..model.context import Context
from ..model.pools import MortalWounds
from ..model.profiles import Unit, Weapon
from ..results.attack import AttackResult
from ..rules.registry import RulesetLike
from .entries import an_object, built, is_int, non_empty_list
from .loadout import Loadout
from .options import choose
from .targets import MAX_POINTS, Target

if TYPE_CHECKING:  # pandas is imported where a table is made: import time matters
    import pandas as pd

    from ..results.state import UnitState

__all__ = [
    "MAX_COPIES",
    "MOST_COPIES",
    "StandardAttacker",
    "durability",
    "parse_attackers",
    "standard_attackers",
]

#: The most copies of an attacker :func:`durability` sends before it says "more".
MAX_COPIES = 60
#: The largest ``max_copies`` it takes: each copy is an attack, and a unit that shrugs an
#: attacker off would otherwise keep it attacking for minutes.
MOST_COPIES = 1000
_ENTRY_FIELDS = {"name", "role", "description", "points", "weapons", "context"}
_WEAPON_FIELDS = {"name", "count", "attacks", "skill", "strength", "ap", "damage"}
_WEAPON_FIELDS |= {"abilities", "melee"}
#: The types of the table's columns that may be empty (a count past ``max_copies``, or
#: the points of a unit or an attacker without them).
_DTYPES: dict[str, Any] = {
    "copies_50": "Int64",
    "copies_90": "Int64",
    "points_lost": float,
    "points_lost_per_100": float,
    "effective_wounds_per_100_points": float,
}


@dataclass(frozen=True)
class StandardAttacker:
    """An attacking unit of a durability suite: its weapons, context and points.

    Examples
    --------
    >>> rifles = standard_attackers()[1]
    >>> rifles.name, rifles.role, rifles.points
    ('Rifle squad', 'general purpose', 160)
    """

    name: str
    role: str
    weapons: tuple[tuple[Weapon, int] | MortalWounds, ...]
    points: int | None
    context: Context = field(default_factory=Context)
    description: str = ""

    def attack(
        self, unit: Unit, rules: RulesetLike = "11e", start: AttackResult | UnitState | None = None
    ) -> AttackResult:
        """This attacker's attacks on ``unit`` (carrying on from ``start``, if given)."""
        return attack(list(self.weapons), unit, rules=rules, context=self.context, start=start)


def _weapon(entry: Any, where: str) -> tuple[Weapon, int] | MortalWounds:
    """One weapon entry of an attacker: a weapon and its count, or mortal wounds."""
    entry = an_object(entry, where)
    if "mortal" in entry:
        return _mortal(entry, where)
    _check_fields(entry, _WEAPON_FIELDS, where)
    fields = dict(entry)
    count = fields.pop("count", 1)
    if not is_int(count, 1):
        raise field_error(ProfileError, f"{where}.count", "an integer >= 1", count)
    return built(where, lambda: (Weapon(**fields), count))


def _check_fields(entry: dict[str, Any], known: set[str], where: str) -> None:
    """Refuse the fields of an entry that are not ``known``."""
    unknown = set(entry) - known
    if unknown:
        raise field_error(ProfileError, where, f"fields of {sorted(known)}", unknown)


def _mortal(entry: dict[str, Any], where: str) -> MortalWounds:
    """A mortal-wound entry, ``{"mortal": "D6"}``, with nothing beside it."""
    if set(entry) != {"mortal"}:
        raise field_error(ProfileError, where, "only 'mortal' beside mortal wounds", entry)
    return MortalWounds(entry["mortal"])


def parse_attackers(data: Any, source: str = "suite") -> tuple[StandardAttacker, ...]:
    """Build a durability suite from its parsed JSON: ``{"attackers": [{...}, ...]}``.

    Each attacker has ``name``, ``role``, ``points`` (required: durability is measured
    per point), ``weapons`` (:class:`~mathhammer.model.profiles.Weapon` fields plus a
    ``count``, or ``{"mortal": "D6"}`` for mortal wounds), and optionally
    ``description`` and ``context`` (:class:`~mathhammer.model.context.Context` fields).

    Examples
    --------
    >>> suite = parse_attackers({"attackers": [{"name": "Guns", "role": "test", "points": 50,
    ...     "weapons": [{"name": "Gun", "count": 5, "attacks": 2, "skill": 3, "strength": 4}]}]})
    >>> suite[0].weapons[0][1], suite[0].points
    (5, 50)
    >>> parse_attackers({"attackers": [{"name": "Free", "role": "test", "weapons": []}]})
    Traceback (most recent call last):
    ...
    mathhammer.errors.ProfileError: suite: attackers[0] ('Free'): points is required: a
    durability suite prices every attacker
    """
    entries = data.get("attackers") if isinstance(data, dict) else None
    listed = non_empty_list(entries, f"{source}: attackers")
    return tuple(_attacker(entry, f"{source}: attackers[{i}]") for i, entry in enumerate(listed))


def _attacker(entry: Any, where: str) -> StandardAttacker:
    """One attacker of a suite from its JSON object, every field checked."""
    entry = an_object(entry, where)
    where += f" ({shown(entry.get('name'))})"
    _check_fields(entry, _ENTRY_FIELDS, where)
    points = _attacker_points(entry, where)
    name, role = _name_and_role(entry, where)
    weapons = non_empty_list(entry.get("weapons"), f"{where}: weapons")
    made = _context(entry.get("context", {}), where)
    return StandardAttacker(
        name,
        role,
        tuple(_weapon(w, f"{where}: weapons[{j}]") for j, w in enumerate(weapons)),
        points,
        made,
        str(entry.get("description", "")),
    )


def _attacker_points(entry: dict[str, Any], where: str) -> int:
    """An attacker's points: required, an integer from 1 to :data:`MAX_POINTS`."""
    if "points" not in entry:
        raise ProfileError(f"{where}: points is required: a durability suite prices every attacker")
    points: int = entry["points"]
    if not is_int(points, 1, MAX_POINTS):
        raise field_error(
            ProfileError, f"{where}: points", f"an integer from 1 to {MAX_POINTS:,}", points
        )
    return points


def _name_and_role(entry: dict[str, Any], where: str) -> tuple[str, str]:
    """An attacker's name (not blank) and its role (empty by default)."""
    name, role = entry.get("name"), entry.get("role", "")
    if not isinstance(name, str) or not name.strip() or not isinstance(role, str):
        raise field_error(ProfileError, f"{where}: name and role", "strings", (name, role))
    return name, role


def _context(context: Any, where: str) -> Context:
    """An attacker's context from its object of :class:`Context` fields."""
    if not isinstance(context, dict):
        raise field_error(ProfileError, f"{where}: context", "an object", context)
    try:
        return Context(**context)
    except (TypeError, ValueError) as exc:
        raise ProfileError(f"{where}: context: {exc}") from None


@lru_cache(maxsize=1)
def standard_attackers() -> tuple[StandardAttacker, ...]:
    """The bundled standard attackers, read from package data on first use.

    Examples
    --------
    >>> [a.role for a in standard_attackers()]
    ['anti-horde', 'general purpose', 'anti-elite', 'anti-tank', 'melee', 'mortal wounds']
    """
    text = resources.files("mathhammer").joinpath("data", "attackers.json").read_text("utf-8")
    return parse_attackers(json.loads(text), "mathhammer/data/attackers.json")


def _raw_damage(result: AttackResult) -> float:
    """The damage the attacker's wounds carry before saves, Feel No Pain and overkill:
    per pool, its expected wounds times the mean of its weapon's Damage; mortal wounds
    at their expected amount."""
    total = 0.0
    for pool in result.pools:
        if not pool.weapons:  # a mortal-wound step
            total += pool.attacks.mean()
            continue
        weapon = pool.weapons[0][0]
        total += pool.wounds.mean() * weapon.damage.mean
    return total


def _copies(
    unit: Unit, attacker: StandardAttacker, rules: RulesetLike, first: AttackResult, most: int
) -> tuple[int | None, int | None]:
    """The fewest copies of the attacker, one after another, that destroy the unit with a
    chance of at least 50 % and of at least 90 % (None past ``most``)."""
    chances = _chances(unit, attacker, rules, first, most)
    return _fewest(chances, 0.5), _fewest(chances, 0.9)


def _chances(
    unit: Unit, attacker: StandardAttacker, rules: RulesetLike, first: AttackResult, most: int
) -> list[float]:
    """The chance that 1, 2, ... copies of the attacker, one after another, destroy the
    unit: until one reaches 90 % or there are ``most``."""
    result, chances = first, [first.p_destroyed]
    while chances[-1] < 0.9 and len(chances) < most:
        result = attacker.attack(unit, rules, start=result)
        chances.append(result.p_destroyed)
    return chances


def _fewest(chances: list[float], least: float) -> int | None:
    """The fewest copies whose chance (``chances[0]`` for one) is at least ``least``."""
    return next((copies for copies, p in enumerate(chances, 1) if p >= least), None)


def _against(
    attacker: StandardAttacker | Loadout, target: Target, rules: RulesetLike
) -> StandardAttacker:
    """A suite's attacker as it is; a list's unit (a :class:`~mathhammer.Loadout` or its
    :class:`~mathhammer.AttackOptions` in one phase) as the legal declaration that does the
    most damage to ``target`` (as a report chooses it), with its points."""
    if isinstance(attacker, StandardAttacker):
        return attacker
    choice = choose(attacker, target, rules=rules)
    return StandardAttacker(
        name=attacker.name,
        role=getattr(attacker, "phase", "") or ("fight" if _melee(attacker) else "shooting"),
        weapons=tuple(choice.declaration.weapons),
        points=attacker.points,
        context=choice.context or Context(),
    )


def _melee(loadout: Loadout) -> bool:
    weapons = [w for w, _ in loadout.weapon_counts]
    return bool(weapons) and all(w.melee for w in weapons)


def durability(
    units: Unit | Target | Iterable[Unit | Target],
    attackers: Sequence[StandardAttacker | Loadout] | None = None,
    *,
    rules: RulesetLike = "11e",
    max_copies: int = MAX_COPIES,
) -> pd.DataFrame:
    """How durable units are against the standard attackers, exactly.

    Parameters
    ----------
    units : Unit, Target, or an iterable of them
        The units measured; a :class:`~mathhammer.units.targets.Target` brings its
        points (the per-point columns are empty for a bare Unit).
    attackers : sequence of StandardAttacker or Loadout, optional
        The suite (:func:`standard_attackers` by default;
        :func:`mathhammer.load_attackers` reads one of your own), or a list's units
        (the loadouts of :func:`mathhammer.io.read_army`, one per unit and phase): each
        attacks with the legal declaration that does the most damage to each unit, as a
        report chooses it, and a unit without points gives no per-point columns.
    rules : str or Ruleset
        The ruleset.
    max_copies : int
        The most copies of an attacker sent one after another (60); a unit still
        standing past it gets an empty ``copies_50``/``copies_90``.

    Returns
    -------
    pandas.DataFrame
        One row per unit and attacker: ``unit``, ``attacker``, ``role``,
        ``attacker_points``, then for one copy of the attacker ``killed_mean`` (models
        destroyed), ``points_lost`` (their points), ``p_destroyed``, and
        ``points_lost_per_100`` (points destroyed per 100 points of the attacker); then
        ``copies_50`` and ``copies_90``, the fewest copies, each carrying on from the
        state the ones before left, that destroy the unit with a chance of at least 50 %
        and 90 % (exact, not from averages); ``effective_wounds``, the wounds of damage
        the attacker's wound rolls must carry to destroy the unit (its wounds, scaled by
        the attacker's damage after its wound rolls over the wounds the unit loses: saves,
        Feel No Pain, damage reduction and damage lost past a model's wounds all raise
        it), and ``effective_wounds_per_100_points`` of the unit.

    Examples
    --------
    >>> import mathhammer as mh
    >>> table = mh.durability(mh.targets.get("Line infantry"))
    >>> table.loc[0, ["attacker", "role"]].tolist()
    ['Flamer squad', 'anti-horde']
    >>> int(table.loc[3, "copies_90"])  # lascannons against ten W2 marines in 3+ armour
    7
    """
    suite = _suite(attackers)
    _check_max_copies(max_copies)
    targets = _measured(units)
    import pandas as pd

    rows = [_row(target, entry, rules, max_copies) for target in targets for entry in suite]
    return pd.DataFrame(rows).astype(_DTYPES)


def _suite(
    attackers: Sequence[StandardAttacker | Loadout] | None,
) -> tuple[StandardAttacker | Loadout, ...]:
    """The attackers given (the standard ones by default), checked."""
    suite = standard_attackers() if attackers is None else tuple(attackers)
    if not suite:
        raise field_error(OptionError, "attackers", "at least one StandardAttacker", suite)
    if not all(isinstance(a, StandardAttacker | Loadout) for a in suite):
        raise field_error(OptionError, "attackers", "StandardAttacker or Loadout entries", suite)
    return suite


def _check_max_copies(max_copies: object) -> None:
    """Refuse a ``max_copies`` that is not an integer from 1 to :data:`MOST_COPIES`."""
    if isinstance(max_copies, bool) or not isinstance(max_copies, int):
        raise field_error(OptionError, "max_copies", "an integer >= 1", max_copies)
    if not 1 <= max_copies <= MOST_COPIES:
        wanted = f"an integer from 1 to {MOST_COPIES}"
        raise field_error(OptionError, "max_copies", wanted, max_copies)


def _measured(units: Unit | Target | Iterable[Unit | Target]) -> list[Target]:
    """The units measured, each as a :class:`Target` (a bare unit without points)."""
    measured = [units] if isinstance(units, Unit | Target) else list(units)
    if not measured or not all(isinstance(u, Unit | Target) for u in measured):
        raise field_error(OptionError, "units", "a Unit or Target, or a list of them", units)
    return [item if isinstance(item, Target) else Target(item) for item in measured]


def _row(
    target: Target, entry: StandardAttacker | Loadout, rules: RulesetLike, max_copies: int
) -> dict[str, Any]:
    """The durability row of one unit against one attacker."""
    unit = target.unit
    attacker = _against(entry, target, rules)
    first = attacker.attack(unit, rules)
    half, most = _copies(unit, attacker, rules, first, max_copies)
    lost = target.points_destroyed(first)
    effective = _effective_wounds(unit, first)
    return {
        "unit": unit.name,
        "attacker": attacker.name,
        "role": attacker.role,
        "attacker_points": attacker.points,
        "killed_mean": first.killed.mean(),
        "points_lost": lost,
        "p_destroyed": first.p_destroyed,
        "points_lost_per_100": _per_100(lost, attacker.points),
        "copies_50": half,
        "copies_90": most,
        "effective_wounds": effective,
        "effective_wounds_per_100_points": _per_100(effective, target.points),
    }


def _effective_wounds(unit: Unit, first: AttackResult) -> float:
    """The unit's wounds scaled by the attacker's damage after its wound rolls over the
    wounds the unit loses (infinite when it loses none)."""
    raw, taken = _raw_damage(first), first.damage.mean()
    return unit.total_wounds * raw / taken if taken > 0 else math.inf


def _per_100(value: float | None, points: int | None) -> float | None:
    """``value`` per 100 points (None without either)."""
    return None if value is None or not points else 100 * value / points
