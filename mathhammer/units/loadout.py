"""A loadout: the weapons one attacking unit uses, with its points and its situation.

A loadout is explicit: its weapons are ``(Weapon, count)`` pairs, its points a keyword.
The shape ``(weapon, n)`` given where a loadout is expected is refused, because a reader
cannot tell whether ``n`` counts weapons or points (:func:`ambiguous_pair`).

Examples
--------
>>> import mathhammer as mh
>>> las = mh.Weapon("Lascannon", attacks=1, skill=3, strength=12, ap=-3, damage="D6+1")
>>> Loadout("Lascannon team", [(las, 1)], points=120).points
120
>>> Loadout("Lascannon team", (las, 120))
Traceback (most recent call last):
...
mathhammer.errors.ProfileError: loadout 'Lascannon team' must be weapons or a Loadout; \
got (Weapon 'Lascannon', 120) (a (weapon, number) pair is ambiguous: write \
mh.Loadout('Lascannon team', [(weapon, 1)], points=120) for 120 points, or \
{'Lascannon team': [(weapon, 120)]} for 120 weapons)
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Self, TypeGuard

from ..errors import ProfileError, field_error
from ..model.context import Context
from ..model.pools import MortalWounds, WeaponsLike, weapon_entries
from ..model.profiles import Weapon

__all__ = ["Loadout", "ambiguous_pair", "describe_weapons"]


def ambiguous_pair(name: str, value: Any) -> ProfileError | None:
    """The error for a ``(Weapon, int)`` pair given as a whole loadout, else None.

    ``{"Lascannon team": (las, 120)}`` reads as 120 lascannons to the engine and as
    120 points to most people: the error shows both unambiguous forms.
    """
    if not _is_weapon_and_number(value):
        return None
    n = value[1]
    shown = f"(Weapon {value[0].name!r}, {n})"
    return ProfileError(
        f"loadout {name!r} must be weapons or a Loadout; got {shown} (a (weapon, number) "
        f"pair is ambiguous: write mh.Loadout({name!r}, [(weapon, 1)], points={n}) for {n} "
        f"points, or {{{name!r}: [(weapon, {n})]}} for {n} weapons)",
        field=f"loadout {name!r}",
        constraint="weapons or a Loadout",
        value=shown,
        hint=f"mh.Loadout({name!r}, [(weapon, 1)], points={n}) or {{{name!r}: [(weapon, {n})]}}",
    )


def _is_weapon_and_number(value: Any) -> bool:
    """True for a pair of a Weapon and an integer (not a bool)."""
    if not (isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], Weapon)):
        return False
    return _is_int(value[1])


def describe_weapons(entries: Iterable[tuple[Weapon, int] | MortalWounds]) -> str:
    """What an attack uses, for a table: ``"9x Bolt rifle, 1x Plasma gun"``.

    Weapons of the same name are counted together, in the order first seen.

    Examples
    --------
    >>> from mathhammer import Weapon
    >>> rifle, fist = Weapon("Rifle", 2, 3, 4, 0, 1), Weapon("Fist", 3, 3, 8, -2, 2, melee=True)
    >>> describe_weapons([(rifle, 4), (fist, 1), (rifle, 5)])
    '9x Rifle, 1x Fist'
    """
    counts: dict[str, int] = {}
    others = []
    for entry in entries:
        if isinstance(entry, MortalWounds):
            others.append("mortal wounds")
            continue
        weapon, n = entry
        counts[weapon.name] = counts.get(weapon.name, 0) + n
    return ", ".join([f"{n}x {name}" for name, n in counts.items()] + others)


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
        (:func:`~mathhammer.model.pools.weapon_entries`). A bare ``(Weapon, n)`` pair
        is refused as ambiguous: give ``[(weapon, n)]``.
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
        weapons: WeaponsLike,
        points: int | None = None,
        context: Context | None = None,
        source: str | None = None,
    ) -> None:
        self._set_common(name, points, context, source)
        refused = ambiguous_pair(name, weapons)
        if refused is not None:
            raise refused
        object.__setattr__(self, "weapons", weapon_entries(weapons))

    def _set_common(
        self, name: str, points: int | None, context: Context | None, source: str | None
    ) -> None:
        """Check and set the fields every loadout has (its weapons aside)."""
        if not isinstance(name, str) or not name:
            raise field_error(ProfileError, "Loadout.name", "a non-empty string", name)
        if points is not None and not _is_price(points):
            raise field_error(ProfileError, "Loadout.points", "an integer >= 1", points)
        _check_optional("Loadout.context", context, Context, "a Context or None")
        _check_optional("Loadout.source", source, str, "a string or None")
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "points", points)
        object.__setattr__(self, "context", context)
        object.__setattr__(self, "source", source)

    def in_context(self, context: Context | None) -> Self:
        """This loadout attacked in ``context`` with its own context's changes on top (the
        states assumed by either): a report's situation given to every unit.

        Examples
        --------
        >>> import mathhammer as mh
        >>> close = Loadout("close", [(mh.Weapon("Gun", 1, 3, 4), 5)],
        ...                 context=mh.Context(half_range=True))
        >>> close.in_context(mh.Context(assume="riled up")).context.changes()
        ['half_range', 'assume riled up']
        """
        if context is None:
            return self
        out = copy.copy(self)
        own = context if self.context is None else self.context.combined(context)
        object.__setattr__(out, "context", own)
        return out

    @property
    def weapon_counts(self) -> tuple[tuple[Weapon, int], ...]:
        """The ``(Weapon, count)`` pairs, without the mortal-wound steps."""
        return tuple(entry for entry in self.weapons if not isinstance(entry, MortalWounds))

    @cached_property
    def unknown_tokens(self) -> tuple[str, ...]:
        """The ability tokens of its weapons that the engine does not know, each once
        (read for each target a table attacks: found once)."""
        tokens = (t for weapon, _ in self.weapon_counts for t in weapon.unknown_abilities)
        return tuple(dict.fromkeys(tokens))


def _is_int(value: object) -> TypeGuard[int]:
    """True for an integer that is not a bool."""
    return isinstance(value, int) and not isinstance(value, bool)


def _is_price(points: object) -> bool:
    """True for an integer (not a bool) >= 1."""
    return _is_int(points) and points >= 1


def _check_optional(field: str, value: object, kind: type, constraint: str) -> None:
    """Refuse a value that is neither None nor of ``kind``."""
    if value is not None and not isinstance(value, kind):
        raise field_error(ProfileError, field, constraint, value)
