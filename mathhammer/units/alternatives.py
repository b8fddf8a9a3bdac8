"""Building a unit's legal declarations in one phase, as :class:`AttackOptions` options.

Two sources know a unit differently. A datasheet knows each model type and what it
carries (:func:`model_options`): each type fires its sidearms or its other guns, and
fights with one of its melee weapons plus its [EXTRA ATTACKS] weapons, the types
choosing independently (every combination up to :data:`MAX_OPTIONS`). A CSV knows only
how many of each weapon the unit has (:func:`pooled_shooting`, :func:`pooled_fight`):
its melee weapons are handed out to its models best first, for a few orders of "best",
since which weapon is best depends on the target.

Examples
--------
>>> from mathhammer import Weapon
>>> sword = Weapon("Chainsword", 3, 3, 4, -1, 1, melee=True)
>>> fist = Weapon("Power fist", 3, 4, 8, -2, 2, melee=True)
>>> [describe_weapons(o) for o in pooled_fight([(sword, 10), (fist, 1)], models=10)]
['10x Chainsword', '9x Chainsword, 1x Power fist']
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from ..model.profiles import Weapon
from .loadout import describe_weapons
from .selection import is_extra_attacks, is_sidearm

__all__ = [
    "MAX_OPTIONS",
    "describe_weapons",
    "fight_sets",
    "model_options",
    "pooled_fight",
    "pooled_shooting",
    "shooting_sets",
]

#: The most options a unit gets in one phase: beyond it, model types choose together.
MAX_OPTIONS = 32
#: Rows whose every order is tried when handing out melee weapons (4! = 24 orders).
_ALL_ORDERS = 4
_BIG = frozenset({"MONSTER", "VEHICLE"})

Entry = tuple[Weapon, int]
#: A piece of wargear as the alternative profiles a model uses one of.
Item = Sequence[Weapon]


def _expand(items: Sequence[Item]) -> list[list[Weapon]]:
    """Every way to use one profile of each item (most items have one)."""
    return [list(choice) for choice in itertools.product(*items)]


def shooting_sets(items: Sequence[Item], keywords: Sequence[str] = ()) -> list[list[Weapon]]:
    """What one model may fire: its other guns, or its sidearms (a MONSTER or VEHICLE
    fires both), each with one profile of each piece of wargear.

    Examples
    --------
    >>> from mathhammer import Weapon
    >>> rifle, pistol = Weapon("Rifle", 2, 3, 4, 0, 1), Weapon("Pistol", 1, 3, 4, 0, 1, "PISTOL")
    >>> [[w.name for w in s] for s in shooting_sets([[rifle], [pistol]])]
    [['Rifle'], ['Pistol']]
    >>> [[w.name for w in s] for s in shooting_sets([[rifle], [pistol]], ["VEHICLE"])]
    [['Rifle', 'Pistol']]
    """
    guns = [i for i in items if i and not any(is_sidearm(w) for w in i)]
    sidearms = [i for i in items if i and any(is_sidearm(w) for w in i)]
    if not guns or not sidearms or _BIG & set(keywords):
        groups = [list(items)] if items else []
    else:
        groups = [guns, sidearms]
    return [chosen for group in groups for chosen in _expand(group)]


def fight_sets(items: Sequence[Item]) -> list[list[Weapon]]:
    """What one model may fight with: one melee weapon (any profile of any piece) plus
    every [EXTRA ATTACKS] weapon.

    Examples
    --------
    >>> from mathhammer import Weapon
    >>> axe, bite = Weapon("Axe", 3, 3, 5, -1, 1, melee=True), Weapon("Bite", 1, 3, 4, 0, 1,
    ...                                                             "[EXTRA ATTACKS]", melee=True)
    >>> [[w.name for w in s] for s in fight_sets([[axe], [bite]])]
    [['Axe', 'Bite']]
    """
    extra = [bool(i) and any(is_extra_attacks(w) for w in i) for i in items]
    main = [w for i, e in zip(items, extra, strict=True) if not e for w in i]
    extras = _expand([i for i, e in zip(items, extra, strict=True) if e])
    if not main:
        return [e for e in extras if e]
    return [[weapon, *e] for weapon in main for e in extras]


def model_options(types: Sequence[tuple[int, list[list[Weapon]]]]) -> list[list[Entry]]:
    """The unit's options from each model type's ``(count, sets)``: every combination of
    one set per type, or, past :data:`MAX_OPTIONS`, the types' first sets together, their
    second sets together, and so on.

    Examples
    --------
    >>> from mathhammer import Weapon
    >>> a, b = Weapon("A", 1, 3, 4, 0, 1), Weapon("B", 1, 3, 4, 0, 1)
    >>> [describe_weapons(o) for o in model_options([(4, [[a], [b]]), (1, [[b]])])]
    ['4x A, 1x B', '5x B']
    """
    present = [(n, sets) for n, sets in types if sets]
    combinations = 1
    for _, sets in present:
        combinations *= len(sets)
    if combinations <= MAX_OPTIONS:
        picks = list(itertools.product(*(range(len(sets)) for _, sets in present)))
    else:
        longest = max(len(sets) for _, sets in present)
        picks = [tuple(min(k, len(sets) - 1) for _, sets in present) for k in range(longest)]
    options = []
    for pick in picks:
        entries = [(w, n) for (n, sets), k in zip(present, pick, strict=True) for w in sets[k]]
        if entries and entries not in options:
            options.append(entries)
    return options


def pooled_shooting(
    rows: Sequence[Entry], models: int, keywords: Sequence[str] = ()
) -> list[list[Entry]]:
    """A unit's shooting options from its weapon counts alone.

    Its other guns, or its sidearms; all of them together when the unit is a MONSTER or
    VEHICLE, or has a model for every weapon (so no model need carry two).

    Examples
    --------
    >>> from mathhammer import Weapon
    >>> rifle, pistol = Weapon("Rifle", 2, 3, 4, 0, 1), Weapon("Pistol", 1, 3, 4, 0, 1, "PISTOL")
    >>> [describe_weapons(o) for o in pooled_shooting([(rifle, 5), (pistol, 5)], models=5)]
    ['5x Rifle', '5x Pistol']
    >>> [describe_weapons(o) for o in pooled_shooting([(rifle, 4), (pistol, 1)], models=5)]
    ['4x Rifle, 1x Pistol']
    """
    guns = [r for r in rows if not is_sidearm(r[0])]
    sidearms = [r for r in rows if is_sidearm(r[0])]
    together = sum(n for _, n in rows) <= models or bool(_BIG & set(keywords))
    if not guns or not sidearms or together:
        return [list(rows)] if rows else []
    return [guns, sidearms]


def pooled_fight(rows: Sequence[Entry], models: int) -> list[list[Entry]]:
    """A unit's fight options from its weapon counts alone.

    Every [EXTRA ATTACKS] weapon is used; the other melee weapons are handed out one per
    model, a row at a time, until every model has one. Each order of the rows gives an
    option (every order for up to four rows; else the rows in order and each row first),
    so that whichever weapon is best against a target is first in one of them.
    """
    extras = [r for r in rows if is_extra_attacks(r[0])]
    main = [r for r in rows if not is_extra_attacks(r[0])]
    if len(main) <= _ALL_ORDERS:
        orders: list[Sequence[int]] = list(itertools.permutations(range(len(main))))
    else:
        orders = [range(len(main))]
        orders += [[k, *(j for j in range(len(main)) if j != k)] for k in range(len(main))]
    options: list[list[Entry]] = []
    for order in orders:
        left, used = models, {}
        for k in order:
            used[k] = min(main[k][1], left)
            left -= used[k]
        entries = [(main[k][0], used[k]) for k in range(len(main)) if used.get(k)] + extras
        if entries and entries not in options:
            options.append(entries)
    return options
