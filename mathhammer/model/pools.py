"""Pools: identical attacks gathered into one pool of dice, and mortal-wound steps.

A weapons list (``[(weapon, count), ...]``) becomes a sequence of steps in the order
first declared: a :class:`Pool` per set of identical attacks (docs/rules.md §2.4: same BS/WS, S,
AP, D and abilities), and each :class:`MortalWounds` entry where it stands.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..core.dice import Dice
from ..core.frozen import fast_init
from ..errors import MAX_SHOWN, ProfileError, field_error, shorten
from .fields import dice_field, int_field
from .profiles import Weapon

__all__ = [
    "weapon_entries",
    "MortalWounds",
    "Pool",
    "WeaponEntry",
    "WeaponsLike",
    "gather_pools",
]


@fast_init
@dataclass(frozen=True)
class Pool:
    """Identical attacks gathered into one pool of dice (docs/rules.md §2.4).

    ``weapons`` holds ``(weapon, count)`` pairs sharing one :attr:`Weapon.pool_key`;
    each weapon rolls its own attacks, then the dice are resolved together.

    Examples
    --------
    >>> pool = Pool(((Weapon("Gun", "D3", 3, 4), 2), (Weapon("Rifle", 2, 3, 4), 1)))
    >>> pool.weapon.name, pool.dice, pool.label
    ('Gun', ((Dice('D3'), 2), (Dice('2'), 1)), 'Gun x2 + Rifle')
    >>> guns = [(Weapon(f"Gun {i}", 1, 3, 4), 1) for i in range(100)]
    >>> Pool(tuple(guns)).label  # doctest: +ELLIPSIS
    'Gun 0 + Gun 1 + ... + Gun 13 + 86 more'
    """

    weapons: tuple[tuple[Weapon, int], ...]
    #: The profile every attack of the pool shares (the first weapon gathered).
    weapon: Weapon = field(init=False, repr=False, compare=False)
    #: Each weapon's attacks characteristic and count: the dice the pool rolls.
    dice: tuple[tuple[Dice, int], ...] = field(init=False, repr=False, compare=False)
    #: E.g. ``"Bolt rifle x10"`` or ``"Bolt rifle x9 + Sergeant's bolt rifle"``: at most
    #: about :data:`~mathhammer.errors.MAX_SHOWN` characters, so that tables and messages
    #: stay readable whatever a file holds (the weapons that do not fit are counted).
    label: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # made with the pool, not on first read: every attack reads them, and a first
        # read through a descriptor calls Python from C (S1-S6)
        dice = []
        for weapon, count in self.weapons:
            dice.append((weapon.attacks, count))
        first = self.weapons[0][0]
        self.__dict__.update(weapon=first, dice=tuple(dice), label=_label(self.weapons))


def _label(weapons: tuple[tuple[Weapon, int], ...]) -> str:
    """:attr:`Pool.label` of these weapons."""
    first, count = weapons[0]
    if len(weapons) == 1 and first.modifiers is None and first.context is None:
        return shorten(_counted(first.name, count))  # one weapon without a buff
    parts = [_counted(w.name, n) for w, n in weapons]
    buff = first.buff_text  # every weapon of a pool shares its buff
    if buff:
        parts[-1] += f" ({buff})"
    return _joined(parts)


def _counted(name: str, count: int) -> str:
    """A weapon's name and count, ``"Bolt rifle x4"``: the name alone for one."""
    return name + (f" x{count}" if count != 1 else "")


def _joined(parts: list[str]) -> str:
    """The parts joined by ``" + "``, each shortened; those past about
    :data:`~mathhammer.errors.MAX_SHOWN` characters counted, not shown."""
    out: list[str] = []
    size = 0
    for i, part in enumerate(parts):
        part = shorten(part)
        if out and size + len(part) > MAX_SHOWN:
            out.append(f"{len(parts) - i:,} more")
            break
        out.append(part)
        size += len(part) + 3
    return " + ".join(out)


@dataclass(frozen=True, init=False)
class MortalWounds:
    """Mortal wounds from a source other than a weapon's attacks, resolved in sequence.

    Put it in a weapons list where it happens; mortal wounds are allocated one at a
    time, Feel No Pain is rolled for each, and they spill over to the next model.
    ``amount`` takes an int or a dice expression and is stored as a
    :class:`~mathhammer.core.dice.Dice`.

    Examples
    --------
    >>> MortalWounds("D3").amount.max
    3
    """

    amount: Dice
    name: str

    def __init__(self, amount: Dice | int | str, name: str = "Mortal wounds") -> None:
        if not isinstance(name, str):
            raise field_error(ProfileError, "MortalWounds.name", "a string", name)
        object.__setattr__(self, "amount", dice_field("MortalWounds", "amount", amount, 0))
        object.__setattr__(self, "name", name)

    @property
    def label(self) -> str:
        """E.g. ``"Mortal wounds D3"``."""
        return f"{self.name} {self.amount}"


#: One entry of a weapons list: a Weapon (counted once), a ``(Weapon, count)`` pair, or a
#: :class:`MortalWounds` step.
WeaponEntry = Weapon | tuple[Weapon, int] | MortalWounds

#: The weapons of an attack, as every entry point reads them: one entry, a sequence of
#: entries, or a ``{Weapon: count}`` mapping.
WeaponsLike = WeaponEntry | Iterable[WeaponEntry] | Mapping[Weapon, int]


def weapon_entries(weapons: WeaponsLike) -> tuple[tuple[Weapon, int] | MortalWounds, ...]:
    """The weapons of an attack as ``(Weapon, count)`` pairs and :class:`MortalWounds` steps.

    Accepts a Weapon, a MortalWounds, a ``{Weapon: count}`` mapping, or a list of
    Weapons, ``(Weapon, count)`` pairs and MortalWounds.

    Examples
    --------
    >>> bolt = Weapon("Bolt rifle", 2, 3, 4, -1, 1)
    >>> [(w.name, n) for w, n in weapon_entries([bolt, (bolt, 4)])]
    [('Bolt rifle', 1), ('Bolt rifle', 4)]
    """
    items = _weapon_items(weapons)
    entries = [_entry(item, i) for i, item in enumerate(items)]
    if not entries:
        raise field_error(ProfileError, "weapons", f"non-empty: {_EXPECTED}", items)
    return tuple(entries)


#: What a weapons list may be, for its errors.
_EXPECTED = "a Weapon, a list of Weapons, or a list of (Weapon, count) pairs"


def _weapon_items(weapons: Any) -> Iterable[Any]:
    """The entries of a weapons list, one Weapon or MortalWounds as a list of one, a
    ``{Weapon: count}`` mapping as its pairs."""
    if isinstance(weapons, Weapon | MortalWounds):
        return [weapons]
    if isinstance(weapons, list | tuple):
        return weapons
    if isinstance(weapons, Mapping):  # {Weapon: count}
        weapons = list(weapons.items())
    if isinstance(weapons, str | bytes) or not isinstance(weapons, Iterable):
        raise field_error(ProfileError, "weapons", _EXPECTED, weapons)
    return weapons


def _entry(item: Any, index: int) -> tuple[Weapon, int] | MortalWounds:
    """Entry ``index`` of a weapons list checked: a MortalWounds step, or a
    ``(Weapon, count)`` pair (a Weapon alone counts once)."""
    if isinstance(item, MortalWounds):
        return item
    if isinstance(item, Weapon):
        return (item, 1)
    if isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], Weapon):
        count = item[1]
        if type(count) is not int or count < 1:  # checked (and named) where not plain
            count = int_field(f"weapons[{index}]", "count", count, 1)
        return (item[0], count)
    raise field_error(ProfileError, f"weapons[{index}]", _EXPECTED, item)


def gather_pools(weapons: WeaponsLike) -> tuple[Pool | MortalWounds, ...]:
    """Gather weapons into pools of identical attacks, in the order first declared.

    :class:`MortalWounds` entries stay where they are, as steps of their own.

    Examples
    --------
    >>> bolt = Weapon("Bolt rifle", 2, 3, 4, -1, 1)
    >>> sarge = Weapon("Sergeant's bolt rifle", 3, 3, 4, -1, 1)
    >>> plasma = Weapon("Plasma", 1, 3, 7, -2, 2)
    >>> [p.label for p in gather_pools([(bolt, 4), plasma, sarge])]
    ["Bolt rifle x4 + Sergeant's bolt rifle", 'Plasma']
    """
    order: list[Any] = []  # pools' weapons and mortal-wound steps, in the order first declared
    pools: dict[Any, list[tuple[Weapon, int]]] = {}  # the weapons of each pool, by its key
    for entry in weapon_entries(weapons):
        if isinstance(entry, MortalWounds):
            order.append(entry)
            continue
        same = pools.setdefault(entry[0].pool_key, [])  # the key hashed once
        if not same:  # the pool's first weapon
            order.append(same)
        same.append(entry)
    gathered: list[Pool | MortalWounds] = []  # a loop, not a generator: every attack (S3)
    for step in order:
        gathered.append(step if isinstance(step, MortalWounds) else Pool(tuple(step)))
    return tuple(gathered)
