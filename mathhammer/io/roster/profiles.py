"""Profile copies of a roster into weapons and model characteristics.

A roster copies each profile from the catalogue as ``typeName`` and a list of
``characteristics`` (``name`` and ``$text``): the 10th/11th-edition profile types ``Unit``
(M, T, Sv, W, LD, OC, InSv), ``Ranged Weapons`` (Range, A, BS, S, AP, D, Keywords) and
``Melee Weapons`` (Range, A, WS, S, AP, D, Keywords). A value the engine cannot take
(``-``, ``*``) makes that one weapon or model :class:`Unreadable`, with the reason, for
the importer to list as skipped; a random Strength such as ``2D6`` is read (D42).

Examples
--------
>>> flayer = {"name": "Gauss flayer", "typeName": "Ranged Weapons", "characteristics": [
...     {"name": "Range", "$text": '24"'}, {"name": "A", "$text": "1"},
...     {"name": "BS", "$text": "4+"}, {"name": "S", "$text": "4"},
...     {"name": "AP", "$text": "0"}, {"name": "D", "$text": "1"},
...     {"name": "Keywords", "$text": "Lethal Hits, Rapid Fire 1"}]}
>>> gun = read_weapon(flayer)
>>> gun.skill, gun.strength, [type(a).__name__ for a in gun.abilities]
(4, 4, ['LethalHits', 'RapidFire'])
>>> flayer["characteristics"][3]["$text"] = "2D6"
>>> read_weapon(flayer).strength
Dice('2D6')
>>> flayer["characteristics"][3]["$text"] = "*"
>>> read_weapon(flayer)
Traceback (most recent call last):
...
mathhammer.io.roster.profiles.Unreadable: characteristic 'S' must be a number or dice; got '*'
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ...errors import MathhammerError
from ...model.abilities import Torrent
from ...model.ability_text import name_restriction, parse_abilities
from ...model.profiles import Weapon
from ...units.datasheet import AbilityText
from ..spellings import characteristic_name

__all__ = ["Unreadable", "characteristics", "is_weapon", "read_model", "read_weapon"]

#: The profile types of a weapon, and whether it is a melee weapon.
WEAPON_TYPES = {"ranged weapons": False, "melee weapons": True}
#: The profile type of a model's characteristics.
UNIT_TYPE = "unit"

_THRESHOLD = re.compile(r"(\d+)\s*\+?")
_NO_VALUE = {"", "-", "n/a", "none"}


class Unreadable(Exception):
    """A weapon or model profile the engine cannot take; the message says why."""


def characteristics(profile: Mapping[str, Any]) -> dict[str, str]:
    """A profile's characteristics by name, as printed (non-breaking spaces made plain).

    Names are matched as data sets spell them: ``Sv``, ``SV`` and ``Save`` are all ``Sv``,
    in any case and spacing (:data:`~mathhammer.io.spellings.SPELLINGS`); a name not
    listed there is kept as it is.

    Examples
    --------
    >>> characteristics({"characteristics": [{"name": "SV", "$text": "3+"},
    ...                                      {"name": "Ld", "$text": "6+"}]})
    {'Sv': '3+', 'LD': '6+'}
    """
    items = profile.get("characteristics") or []
    if not isinstance(items, list):
        raise Unreadable(f"'characteristics' must be a list; got {type(items).__name__}")
    return {
        characteristic_name(item["name"]): _text(item)
        for item in items
        if isinstance(item, Mapping) and isinstance(item.get("name"), str)
    }


def _text(item: Mapping[str, Any]) -> str:
    """A characteristic's text, its spaces made plain (none if it has none)."""
    text = item.get("$text", "")
    return " ".join(str("" if text is None else text).split())


def profile_type(profile: Mapping[str, Any]) -> str:
    """The profile's type name, lower case."""
    return str(profile.get("typeName", "")).strip().lower()


def is_weapon(profile: Mapping[str, Any]) -> bool:
    """A ranged or melee weapon profile."""
    return profile_type(profile) in WEAPON_TYPES


def _printed(chars: Mapping[str, str], name: str) -> str:
    """A characteristic's text; Unreadable if the profile does not print it."""
    text = chars.get(name)
    if text is None:
        raise Unreadable(f"characteristic {name!r} is missing")
    return text


def _int(chars: Mapping[str, str], name: str) -> int:
    text = _printed(chars, name)
    try:
        return int(text.replace("\u2212", "-"))
    except ValueError:
        raise Unreadable(f"characteristic {name!r} must be an integer; got {text!r}") from None


def _threshold(chars: Mapping[str, str], name: str) -> int:
    text = _printed(chars, name)
    match = _THRESHOLD.fullmatch(text)
    if match is None:
        raise Unreadable(f"characteristic {name!r} must be 'N+'; got {text!r}")
    return int(match.group(1))


def _dice(chars: Mapping[str, str], name: str) -> str:
    text = _printed(chars, name)
    if text.lower() in _NO_VALUE or "*" in text:
        raise Unreadable(f"characteristic {name!r} must be a number or dice; got {text!r}")
    return text


def _skill_name(chars: Mapping[str, str], melee: bool) -> str:
    """The column of the weapon's skill: WS for a melee weapon and BS for a ranged one,
    else the other if only it is printed."""
    names = ("WS", "BS") if melee else ("BS", "WS")
    return next((n for n in names if n in chars), "BS")


def _skill(chars: Mapping[str, str], name: str, found: Sequence[Any]) -> int:
    """The weapon's skill, "N+"; 2 for a [TORRENT] weapon that has none."""
    text = chars.get(name, "")
    if text.lower() not in _NO_VALUE:
        return _threshold(chars, name)
    if not any(isinstance(a, Torrent) for a in found):
        raise Unreadable(f"characteristic {name!r} {text!r} is only for [TORRENT]")
    return 2  # never rolled: Torrent hits automatically


def read_weapon(profile: Mapping[str, Any]) -> Weapon:
    """A weapon profile as a :class:`~mathhammer.Weapon` (its Keywords as abilities).

    A weapon with no BS ("N/A") must be a [TORRENT] weapon, which hits automatically: its
    skill is never rolled, so it is set to 2+ only to make a valid profile.

    Raises
    ------
    Unreadable
        A characteristic the engine cannot take, with the reason.
    """
    chars = characteristics(profile)
    melee = WEAPON_TYPES.get(profile_type(profile), False) or chars.get("Range") == "Melee"
    keywords = _keywords(chars)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # unknown tokens are kept on the weapon and reported
        found, _ = parse_abilities(keywords)
    skill = _skill(chars, _skill_name(chars, melee), found)
    fields: dict[str, Any] = {
        "attacks": _dice(chars, "A"),
        "skill": skill,
        "strength": _dice(chars, "S"),
        "ap": _int(chars, "AP"),
        "damage": _dice(chars, "D"),
    }
    name, restriction = _weapon_name(profile)
    keywords = ", ".join(k for k in (keywords, restriction) if k)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return Weapon(name, abilities=keywords, melee=melee, **fields)
    except MathhammerError as exc:
        raise Unreadable(str(exc).splitlines()[0]) from None


def _keywords(chars: Mapping[str, str]) -> str:
    """A weapon's Keywords as printed; none for "-" or "N/A"."""
    keywords = chars.get("Keywords", "")
    return "" if keywords.lower() in _NO_VALUE else keywords


def _weapon_name(profile: Mapping[str, Any]) -> tuple[str, str]:
    """A weapon's name, and the restriction its name carries as a keyword
    ("(Hunter: MONSTER/VEHICLE)": D38)."""
    name = str(profile.get("name", "")).lstrip("\u27a4 ").strip() or "weapon"
    return name_restriction(name)


def read_model(profile: Mapping[str, Any]) -> tuple[dict[str, Any], list[AbilityText]]:
    """The fields of a :class:`~mathhammer.units.datasheet.ModelProfile` from a Unit profile.

    Returns the fields (toughness, save, wounds, invuln, leadership, oc, movement) and what
    could not be read but is worth listing: an InSv printed with a condition (``2+*``) is
    not applied and is returned as not understood.

    Raises
    ------
    Unreadable
        T, Sv or W the engine cannot take, with the reason.
    """
    chars = characteristics(profile)
    fields: dict[str, Any] = {
        "toughness": _int(chars, "T"),
        "save": _threshold(chars, "Sv"),
        "wounds": _int(chars, "W"),
        "movement": chars.get("M", ""),
    }
    invuln, notes = _invuln(chars.get("InSv", ""))
    fields |= invuln
    fields["leadership"] = _shown_only(_threshold, chars, "LD")
    fields["oc"] = _shown_only(_int, chars, "OC")
    return fields, notes


def _invuln(text: str) -> tuple[dict[str, int], list[AbilityText]]:
    """The field of an invulnerable save printed ``N+`` (none if none is printed), or, for
    one printed with a condition (``2+*``), a note that it is not applied."""
    if text.lower() in _NO_VALUE:
        return {}, []
    match = re.fullmatch(r"(\d)\+", text)
    if match:
        return {"invuln": int(match.group(1))}, []
    return {}, [AbilityText("InSv", f"invulnerable save printed as {text!r}")]


def _shown_only(
    read: Callable[[Mapping[str, str], str], int], chars: Mapping[str, str], name: str
) -> int | None:
    """A characteristic shown, never used by an attack (LD, OC): None if it cannot be read."""
    try:
        return read(chars, name)
    except Unreadable:
        return None
