"""Weapon rows of the export (``Datasheets_wargear.csv``) -> weapons and wargear.

Values are read as the export prints them: ``A`` and ``D`` as numbers or dice (``"D6 "``
with its stray space), ``BS_WS`` as ``3`` or ``3+``, and ``N/A`` for a [TORRENT] weapon,
which hits automatically and so never rolls its skill (the profile keeps 2+, as the CSV
reader does); ``AP`` as printed (``-1``), and the abilities as HTML links separated by
commas and, in places, full stops. Tokens that are not core weapon abilities (the
datasheet-specific rules) are kept in ``unknown_abilities`` and reported, never dropped.

A row whose values cannot make a weapon is not an error of the file: it is skipped and
listed with the reason. A random Strength such as ``2D6`` is read (docs/rules.md D42).

Examples
--------
>>> row = {"name": "Hand flamer", "type": "Ranged", "A": "D6 ", "BS_WS": "N/A", "S": "4",
...        "AP": "0", "D": "1", "description": '<a href="#Torrent">torrent</a>'}
>>> w = weapon_from_row(row)
>>> (w.attacks.text, w.skill, w.melee, w.abilities_text)
('D6', 2, False, '[TORRENT]')
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Mapping, Sequence

from ...errors import MathhammerError
from ...model.abilities import Torrent
from ...model.ability_text import UnknownAbilityWarning, parse_abilities
from ...model.profiles import Weapon
from ...units.datasheet import Wargear

__all__ = ["WEAPON_COLUMNS", "WeaponRowError", "group_wargear", "weapon_from_row"]

#: The columns of ``Datasheets_wargear.csv`` a weapon is read from.
WEAPON_COLUMNS = ("datasheet_id", "line_in_wargear", "name", "description", "type")
_STATS = ("A", "BS_WS", "S", "AP", "D")
_NONE = {"n/a", "-", ""}
#: The profile name after the wargear's: "Plasma pistol – supercharge".
_PROFILE = re.compile(r"\s+[\u2013\u2014-]\s+")


class WeaponRowError(ValueError):
    """A weapon row whose values make no weapon; ``column`` names the culprit."""

    def __init__(self, column: str, problem: str) -> None:
        super().__init__(f"column {column!r}: {problem}")
        self.column = column


def _int(column: str, raw: str) -> int:
    text = raw.strip().replace("\u2212", "-")
    try:
        return int(text)
    except ValueError:
        raise WeaponRowError(column, f"expected a whole number; got {raw!r}") from None


def _skill(row: Mapping[str, str], torrent: bool) -> int:
    raw = row["BS_WS"].strip()
    if raw.lower() in _NONE:
        if not torrent:
            raise WeaponRowError("BS_WS", f"{raw!r} is only for [TORRENT] weapons")
        return 2  # never rolled: Torrent hits automatically
    return _int("BS_WS", raw.removesuffix("+"))


def weapon_from_row(row: Mapping[str, str]) -> Weapon:
    """One weapon row -> a Weapon (unknown ability tokens kept, without warning).

    Raises
    ------
    WeaponRowError
        The row's values make no weapon; the error names the column.
    """
    kind = row["type"].strip().lower()
    if kind not in ("ranged", "melee"):
        raise WeaponRowError("type", f"expected Ranged or Melee; got {row['type']!r}")
    found, _ = parse_abilities(row["description"])
    torrent = any(isinstance(a, Torrent) for a in found)
    fields = {
        "attacks": row["A"].strip(),
        "skill": _skill(row, torrent),
        "strength": row["S"].strip(),
        "ap": _int("AP", row["AP"]),
        "damage": row["D"].strip(),
    }
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UnknownAbilityWarning)  # reported by the caller
            return Weapon(
                row["name"].strip(),
                abilities=row["description"],
                melee=kind == "melee",
                **fields,  # type: ignore[arg-type]
            )
    except MathhammerError as exc:
        raise _row_error(exc) from None


#: The columns of the fields a weapon's error may name; any other is the Damage.
_ERROR_COLUMNS = {"Weapon.attacks": "A", "Weapon.strength": "S"}


def _row_error(exc: MathhammerError) -> WeaponRowError:
    """A weapon's error as the row's, naming the column of the field it is about."""
    message = str(exc).splitlines()[0]
    named = exc.field or message
    column = next((c for f, c in _ERROR_COLUMNS.items() if named.startswith(f)), "D")
    return WeaponRowError(column, message)


def _base(name: str) -> str:
    return _PROFILE.split(name, maxsplit=1)[0].strip()


def group_wargear(profiles: Sequence[tuple[Mapping[str, str], Weapon]]) -> list[Wargear]:
    """A datasheet's weapon rows (in file order) as wargear with distinct names.

    A row whose ``line_in_wargear`` is above 1 is another profile of the wargear before it
    (a plasma gun's supercharge, a dice-table row); the wargear takes the name its
    profiles share. A ranged and a melee weapon of one name become ``name`` and
    ``name (melee)``.

    Examples
    --------
    >>> std = Weapon("Plasma gun \\u2013 standard", 1, 3, 7, -2, 1)
    >>> sup = Weapon("Plasma gun \\u2013 supercharge", 1, 3, 8, -3, 2)
    >>> blade = Weapon("Plasma gun", 3, 3, 4, 0, 1, melee=True)
    >>> gear = group_wargear([({"line_in_wargear": "1"}, std),
    ...                       ({"line_in_wargear": "2"}, sup), ({"line_in_wargear": "1"}, blade)])
    >>> [(g.name, len(g.profiles)) for g in gear]
    [('Plasma gun', 2), ('Plasma gun (melee)', 1)]
    """
    gear: dict[str, Wargear] = {}
    for weapons in _profile_groups(profiles):
        candidates = _candidates(weapons, gear)
        if _printed_before(weapons, candidates, gear):
            continue
        free = next(c for c in candidates if c not in gear)
        gear[free] = Wargear(free, tuple(weapons))
    return list(gear.values())


def _printed_before(
    weapons: Sequence[Weapon], candidates: Sequence[str], gear: Mapping[str, Wargear]
) -> bool:
    """True if the export prints the same wargear twice: one of its names already holds
    these very profiles."""
    return any(gear[c].profiles == tuple(weapons) for c in candidates if c in gear)


def _profile_groups(profiles: Sequence[tuple[Mapping[str, str], Weapon]]) -> list[list[Weapon]]:
    """The weapons of the rows grouped by wargear: a row whose ``line_in_wargear`` is above
    1 joins the wargear before it."""
    groups: list[list[Weapon]] = []
    for row, weapon in profiles:
        if groups and row["line_in_wargear"].strip() not in ("", "1"):
            groups[-1].append(weapon)
        else:
            groups.append([weapon])
    return groups


def _candidates(weapons: Sequence[Weapon], gear: Mapping[str, Wargear]) -> list[str]:
    """The names a wargear may take, in order of preference: its own, with its kind, then
    with primes until one is free."""
    name = _shared_name(weapons)
    kind = " (melee)" if all(w.melee for w in weapons) else " (ranged)"
    candidates = [name, name + kind]
    while candidates[-1] in gear:
        candidates.append(candidates[-1] + "'")  # a ranged and a melee of one name, again
    return candidates


def _shared_name(weapons: Sequence[Weapon]) -> str:
    """The name the profiles of a wargear share ("Plasma gun"); else the first profile's."""
    names = {_base(w.name) for w in weapons}
    return names.pop() if len(weapons) > 1 and len(names) == 1 else weapons[0].name
