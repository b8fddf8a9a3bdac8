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
import math
from collections.abc import Iterable, Sequence
from typing import TypeVar

from ..model.profiles import Weapon
from .loadout import describe_weapons
from .selection import _BIG, _partition, is_extra_attacks, is_sidearm

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

T = TypeVar("T")
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
    guns, sidearms = _partition([i for i in items if i], _has_sidearm)
    groups = [guns, sidearms] if _either(guns, sidearms, keywords) else _whole(items)
    return [chosen for group in groups for chosen in _expand(group)]


def _has_sidearm(item: Item) -> bool:
    """True if a profile of the item is a sidearm ([PISTOL], [CLOSE-QUARTERS])."""
    return any(is_sidearm(w) for w in item)


def _either(guns: Sequence[object], sidearms: Sequence[object], keywords: Sequence[str]) -> bool:
    """True if a model fires its guns or its sidearms, not both: it has both, and is no
    MONSTER or VEHICLE."""
    return bool(guns) and bool(sidearms) and not _BIG & set(keywords)


def _whole(items: Sequence[T]) -> list[list[T]]:
    """All the items as one option (no option without items)."""
    return [list(items)] if items else []


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
    others, extra_items = _partition(items, _has_extra_attacks)
    main = [w for i in others for w in i]  # the one melee weapon: any profile of any piece
    used = [main, *extra_items] if main else extra_items
    return _expand(used) if used else []  # no set without weapons


def _has_extra_attacks(item: Item) -> bool:
    """True if a profile of the item has [EXTRA ATTACKS] (used besides the main weapon)."""
    return any(is_extra_attacks(w) for w in item)


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
    picks = _picks([len(sets) for _, sets in present])
    return _distinct(_picked(present, pick) for pick in picks)


def _picked(types: Sequence[tuple[int, list[list[Weapon]]]], pick: Sequence[int]) -> list[Entry]:
    """One option: every weapon of the set each model type picks, for all its models."""
    return [(w, n) for (n, sets), k in zip(types, pick, strict=True) for w in sets[k]]


def _picks(sizes: Sequence[int]) -> list[tuple[int, ...]]:
    """Which set each type uses in each option, from the number of sets of each: every
    combination up to :data:`MAX_OPTIONS`, else for each k every type's k-th set (its last
    when it has fewer)."""
    if math.prod(sizes) <= MAX_OPTIONS:
        return list(itertools.product(*(range(n) for n in sizes)))
    return [tuple(min(k, n - 1) for n in sizes) for k in range(max(sizes))]


def _distinct(options: Iterable[list[Entry]]) -> list[list[Entry]]:
    """The options that are not empty, each once, in order."""
    out: list[list[Entry]] = []
    for option in options:
        if option and option not in out:
            out.append(option)
    return out


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
    guns, sidearms = _partition(rows, lambda row: is_sidearm(row[0]))
    if _either(guns, sidearms, keywords) and sum(n for _, n in rows) > models:
        return [guns, sidearms]
    return _whole(rows)


def pooled_fight(rows: Sequence[Entry], models: int) -> list[list[Entry]]:
    """A unit's fight options from its weapon counts alone.

    Every [EXTRA ATTACKS] weapon is used; the other melee weapons are handed out one per
    model, a row at a time, until every model has one. Each order of the rows gives an
    option (every order for up to four rows; else the rows in order and each row first),
    so that whichever weapon is best against a target is first in one of them.
    """
    main, extras = _partition(rows, lambda row: is_extra_attacks(row[0]))
    return _distinct(_handed_out(main, order, models) + extras for order in _orders(len(main)))


def _orders(rows: int) -> list[Sequence[int]]:
    """The orders of the rows tried: every order for up to :data:`_ALL_ORDERS` rows, else
    the rows in order and each row first."""
    if rows <= _ALL_ORDERS:
        return list(itertools.permutations(range(rows)))
    return [range(rows), *([k, *range(k), *range(k + 1, rows)] for k in range(rows))]


def _handed_out(main: Sequence[Entry], order: Sequence[int], models: int) -> list[Entry]:
    """The weapons one per model, row by row in ``order`` until every model has one; in
    the rows' own order, the rows that no model took left out."""
    left, used = models, {}
    for k in order:
        used[k] = min(main[k][1], left)
        left -= used[k]
    return [(main[k][0], used[k]) for k in range(len(main)) if used.get(k)]
