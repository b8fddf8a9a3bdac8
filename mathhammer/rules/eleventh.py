"""The 11th-edition attack sequence (seed 000) as literal, vectorised checks.

Every function takes natural die results (an int or a numpy array of ints) and
returns categories or booleans of the same shape, reading the rule's list of
conditions top to bottom and stopping at the first that matches.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.dice import Dice, parse_dice
from ..errors import ProfileError, RulesError, field_error
from ..model.abilities import resolve
from ..model.context import Context, Modifiers
from ..model.profiles import Unit, Weapon
from .base import CRITICAL, FAIL, SUCCESS, PoolRules, RollCheck, reroll_mask

__all__ = [
    "NAME",
    "PoolRules",
    "check_target",
    "fnp_outcome",
    "hit_outcome",
    "modified_damage",
    "resolve_pool",
    "save_outcome",
    "wound_needed",
    "wound_outcome",
]

NAME = "11e"
#: The 11th edition has no Panic Tests.
PANIC_TESTS = False
#: The natural roll that is a Critical Hit / Critical Wound unless a rule widens it.
CRITICAL_ROLL = 6


def hit_outcome(
    natural: Any,
    skill: int,
    modifier: int = 0,
    critical: int = CRITICAL_ROLL,
    fail_at_most: int = 1,
) -> Any:
    """Categorise hit rolls: FAIL, SUCCESS (a hit) or CRITICAL (a Critical Hit).

    First match: an unmodified 1 fails (1 to ``fail_at_most``: [INDIRECT FIRE] fails
    unmodified 1-5, or 1-3 when spotted); an unmodified roll of ``critical`` or more
    (6 by default) is a Critical Hit; a modified result >= BS/WS hits; else it fails.
    A 5 modified to 6 is a hit, not a Critical Hit.

    Examples
    --------
    >>> hit_outcome(np.arange(1, 7), skill=3).tolist()
    [0, 0, 1, 1, 1, 2]
    >>> int(hit_outcome(5, skill=6, modifier=1))  # a hit, not a crit
    1
    """
    roll = np.asarray(natural)
    modifier = max(-1, min(1, modifier))  # the net hit-roll modifier is capped at +/-1
    out = np.where(roll + modifier >= skill, SUCCESS, FAIL)
    out = np.where(roll >= critical, CRITICAL, out)
    out = np.where(roll <= fail_at_most, FAIL, out)
    return out


def wound_needed(strength: int, toughness: int) -> int:
    """The wound roll needed for S against T (the five-rung ladder).

    S >= 2T: 2+; S > T: 3+; S == T: 4+; 2S <= T: 6+; otherwise S < T: 5+. The 6+
    rung is checked before the 5+ rung, so S4 vs T8 is 6+ and S4 vs T7 is 5+.

    Examples
    --------
    >>> [wound_needed(8, 4), wound_needed(7, 4), wound_needed(4, 4), wound_needed(4, 7),
    ...  wound_needed(4, 8)]
    [2, 3, 4, 5, 6]
    """
    if strength >= 2 * toughness:
        return 2
    if strength > toughness:
        return 3
    if strength == toughness:
        return 4
    if 2 * strength <= toughness:
        return 6
    return 5


def wound_outcome(
    natural: Any, needed: int, modifier: int = 0, critical: int = CRITICAL_ROLL
) -> Any:
    """Categorise wound rolls: FAIL, SUCCESS (a wound) or CRITICAL (a Critical Wound).

    First match: a natural 1 fails whatever the modifiers; a natural ``critical``
    or more (6 by default) is a Critical Wound; a modified result >= the needed
    roll wounds; else it fails.

    Examples
    --------
    >>> wound_outcome(np.arange(1, 7), needed=5).tolist()
    [0, 0, 0, 0, 1, 2]
    """
    roll = np.asarray(natural)
    modifier = max(-1, min(1, modifier))  # the net wound-roll modifier is capped at +/-1
    out = np.where(roll + modifier >= needed, SUCCESS, FAIL)
    out = np.where(roll >= critical, CRITICAL, out)
    out = np.where(roll == 1, FAIL, out)
    return out


def save_outcome(natural: Any, ap: int, save: int, invuln: int | None = None) -> Any:
    """True where the save roll saves (the attack fails), False where it inflicts damage.

    First match: a natural 1 never saves; with an invulnerable save, a result >= InSv
    saves (AP never modifies it); the result modified by AP >= Sv saves; anything
    else inflicts damage. There is no "6 always saves": a Sv7 (no save) model hit at
    AP -1 fails on every die.

    Examples
    --------
    >>> save_outcome(np.arange(1, 7), ap=-1, save=3).tolist()  # a 3+ save needs a natural 4
    [False, False, False, True, True, True]
    >>> save_outcome(np.arange(1, 7), ap=-3, save=2, invuln=4).tolist()
    [False, False, False, True, True, True]
    """
    roll = np.asarray(natural)
    saved = roll + ap >= save
    if invuln is not None:
        saved = saved | (roll >= invuln)
    return saved & (roll != 1)


def fnp_outcome(natural: Any, fnp: int) -> Any:
    """True where a Feel No Pain roll prevents the wound: a result >= FNP.

    Examples
    --------
    >>> fnp_outcome(np.arange(1, 7), fnp=5).tolist()
    [False, False, False, False, True, True]
    """
    return np.asarray(natural) >= fnp


def modified_damage(
    damage: Any,
    multiply: int = 1,
    add: Any = 0,
    halve: bool = False,
    subtract: int = 0,
) -> Any:
    """Apply damage modifiers in the 11e order: set, multiply, add, halve, subtract.

    ``damage`` is the (already set) Damage value; ``add`` includes [MELTA]'s X;
    fractions round up; only the final result is raised to at least 1.

    Examples
    --------
    >>> modified_damage(np.array([1, 2, 3, 6]), halve=True, subtract=1).tolist()
    [1, 1, 1, 2]
    >>> int(modified_damage(3, multiply=2, add=1, halve=True))  # ceil(7 / 2)
    4
    """
    value = np.asarray(damage) * multiply + np.asarray(add)
    if halve:
        value = -(-value // 2)
    return np.maximum(value - subtract, 1)


def check_target(target: Unit) -> None:
    """Every unit can be attacked under the 11th edition."""


def _precision_group(target: Unit, context: Context) -> int | None:
    """The CHARACTER group [PRECISION] makes current: the one the context names, or the
    first CHARACTER group; None when the target has no CHARACTER."""
    characters = [i for i, g in enumerate(target.groups) if g.character]
    if context.precision_group is None:
        return characters[0] if characters else None
    index = target.group_index(context.precision_group)
    if index not in characters:
        raise field_error(
            ProfileError,
            "Context.precision_group",
            "a CHARACTER group of the target",
            context.precision_group,
        )
    return index


def _stronger_reroll(a: str | None, b: str | None) -> str | None:
    order = (None, "ones", "failures", "non_critical")
    return a if order.index(a) >= order.index(b) else b


def resolve_pool(weapon: Weapon, target: Unit, context: Context, modifiers: Modifiers) -> PoolRules:
    """Resolve a pool's abilities, context and modifiers into thresholds and switches.

    Duplicated abilities are resolved to the best instance that applies against the
    target; ``used`` lists the instances applied, as printed.
    """
    found = resolve(weapon.abilities, target.keywords)  # type: ignore[arg-type]
    has = found.__contains__
    melee = context.melee or weapon.melee  # a melee weapon is melee whatever the context
    ranged = not melee
    models = target.models
    bonus: list[Dice] = []
    if has("BLAST"):
        bonus.append(parse_dice(found["BLAST"].value * (models // 5)))  # type: ignore[attr-defined]
    if has("CLEAVE") and melee and context.single_target:
        bonus.append(parse_dice(found["CLEAVE"].value * (models // 5)))  # type: ignore[attr-defined]
    if has("RAPID FIRE") and context.half_range:
        bonus.append(found["RAPID FIRE"].value)  # type: ignore[attr-defined]

    indirect = has("INDIRECT FIRE") and ranged
    cover = (
        ranged
        and not has("IGNORES COVER")
        and (context.target_in_cover or target.stealth or indirect)
    )
    if weapon.skill is None:
        raise RulesError(
            f"rules='11e' needs Weapon(skill=...), BS/WS as N+ from 2 to 6; weapon "
            f"{weapon.name!r} has bs={weapon.bs}, the classic Ballistic Skill characteristic "
            "(use rules='classic')"
        )
    if context.strict_save:
        raise RulesError("Context.strict_save applies to rules='classic' only")
    # characteristic changes, not roll modifiers: outside the +/-1 cap, BS/WS 2+..6+
    skill = min(6, max(2, weapon.skill + modifiers.skill + (1 if cover else 0)))
    hit_mod = modifiers.hit + (1 if has("HEAVY") and ranged and context.heavy_eligible else 0)
    reroll_hits = None if indirect else modifiers.reroll_hits
    fail_at_most = 1
    if indirect:
        fail_at_most = 3 if context.remained_stationary and context.spotted else 5

    strength = max(1, int(weapon.strength or 1) + modifiers.strength)
    wound_mod = modifiers.wound + (1 if has("LANCE") and context.charged else 0)
    critical_wound = modifiers.critical_wound
    if has("ANTI"):
        critical_wound = min(critical_wound, found["ANTI"].threshold)  # type: ignore[attr-defined]
    reroll_wounds = modifiers.reroll_wounds
    if has("TWIN-LINKED"):
        reroll_wounds = _stronger_reroll(reroll_wounds, context.reroll_policy)

    melta = found["MELTA"].value if has("MELTA") and context.half_range else None  # type: ignore[attr-defined]
    base = modifiers.damage_set if modifiers.damage_set is not None else weapon.damage
    effective = {
        "BLAST": True,
        "CLEAVE": melee and context.single_target,
        "RAPID FIRE": context.half_range,
        "MELTA": context.half_range,
        "HEAVY": ranged and context.heavy_eligible and not has("TORRENT"),
        "LANCE": context.charged,
        "INDIRECT FIRE": ranged and not has("TORRENT"),
        "LETHAL HITS": not has("TORRENT") and context.lethal_hits == "auto",
        "SUSTAINED HITS": not has("TORRENT"),
        "PRECISION": any(g.character for g in target.groups),
    }
    used = tuple(str(a) for k, a in found.items() if effective.get(k, True) and k in _MATHS)
    hit_modifier = max(-1, min(1, hit_mod))
    hit = RollCheck(
        first=lambda f: hit_outcome(f, skill, hit_modifier, modifiers.critical_hit, fail_at_most),
        reroll=None if reroll_hits is None else lambda f, c: reroll_mask(f, c, reroll_hits),
    )
    needed = wound_needed(strength, target.toughness)
    wound_modifier = max(-1, min(1, wound_mod))
    wound = RollCheck(
        first=lambda f: wound_outcome(f, needed, wound_modifier, critical_wound),
        reroll=None if reroll_wounds is None else lambda f, c: reroll_mask(f, c, reroll_wounds),
    )
    ap = min(0, weapon.ap + modifiers.ap)
    return PoolRules(
        bonus_attacks=tuple(bonus),
        hit=None if has("TORRENT") else hit,
        sustained=found["SUSTAINED HITS"].value if has("SUSTAINED HITS") else None,  # type: ignore[attr-defined]
        lethal=has("LETHAL HITS") and context.lethal_hits == "auto",
        wound=wound,
        saves=lambda f, g: save_outcome(f, ap, g.save, g.invuln),
        devastating=has("DEVASTATING WOUNDS"),
        ap=ap,
        damage=base,  # type: ignore[arg-type]
        damage_multiply=modifiers.damage_multiply,
        damage_add=modifiers.damage_add,
        melta=melta,
        precision_group=_precision_group(target, context) if has("PRECISION") else None,
        hazardous=has("HAZARDOUS"),
        used=used,
    )


#: Ability kinds that change the attack maths (the rest are selection rules).
_MATHS = frozenset(
    {
        "SUSTAINED HITS",
        "LETHAL HITS",
        "DEVASTATING WOUNDS",
        "ANTI",
        "TWIN-LINKED",
        "TORRENT",
        "BLAST",
        "CLEAVE",
        "RAPID FIRE",
        "MELTA",
        "HEAVY",
        "LANCE",
        "IGNORES COVER",
        "PRECISION",
        "HAZARDOUS",
        "INDIRECT FIRE",
    }
)


def hazard_fails(natural: Any) -> Any:
    """True where a [HAZARDOUS] roll fails: a 1 or 2.

    Examples
    --------
    >>> hazard_fails(np.arange(1, 7)).tolist()
    [True, True, False, False, False, False]
    """
    return np.asarray(natural) <= 2
