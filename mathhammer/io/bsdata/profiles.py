"""BSData profiles as mathhammer reads them: unit characteristics, weapons and text.

A profile holds its characteristics as text (``"4+"``, ``"D6+1"``, ``"-"``). A unit
profile (typeName ``Unit``) needs T, Sv and W to be numbers; M, LD, OC and InSv may be
``-`` or empty. A weapon profile (``Ranged Weapons``/``Melee Weapons``) needs A, BS/WS,
S, AP and D, with its Keywords column parsed as weapon abilities; BS ``N/A`` is read
for a [TORRENT] weapon, which never rolls to hit. A profile that cannot be read gives
the reason instead, for the import report: ``-`` or ``*`` where a number is needed is
not guessed at.

Examples
--------
>>> gun = {"name": "Gauss flayer", "typeName": "Ranged Weapons", "characteristics": [
...     {"name": "A", "$text": "1"}, {"name": "BS", "$text": "4+"},
...     {"name": "S", "$text": "4"}, {"name": "AP", "$text": "0"},
...     {"name": "D", "$text": "1"}, {"name": "Keywords", "$text": "Lethal Hits, Rapid Fire 1"}]}
>>> weapon, reason = read_weapon(gun)
>>> weapon.skill, weapon.abilities_text, reason
(4, '[LETHAL HITS], [RAPID FIRE 1]', '')
>>> read_weapon({**gun, "characteristics": [{"name": "A", "$text": "*"}]})[1]
"A is '*'"
"""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass
from typing import Any

from ...errors import MathhammerError
from ...model.abilities import Torrent
from ...model.ability_text import name_restriction, parse_abilities
from ...model.profiles import Weapon
from ..spellings import characteristic_name
from .links import nodes

__all__ = [
    "MELEE",
    "RANGED",
    "UNIT",
    "Body",
    "characteristics",
    "clean_text",
    "profile_name",
    "read_body",
    "read_weapon",
]

UNIT = "Unit"
RANGED = "Ranged Weapons"
MELEE = "Melee Weapons"

_THRESHOLD = re.compile(r"(\d+)\+?\*?")
_INTEGER = re.compile(r"[-\u2212]?\d+")
_NONE = ("", "-", "\u2013", "n/a")


def clean_text(text: Any) -> str:
    """Text as printed: without the ``**bold**`` and ``^^keyword^^`` markup, spaces plain.

    Examples
    --------
    >>> clean_text("Each **^^Character^^** model\\u00a0here.")
    'Each Character model here.'
    """
    text = str(text or "").replace("\u00a0", " ").replace("**", "").replace("^^", "")
    return " ".join(text.split(" ")).strip()


def profile_name(profile: dict[str, Any]) -> str:
    """A profile's name without the ``➤`` that marks one of several profiles."""
    return " ".join(str(profile.get("name", "")).replace("\u27a4", " ").split())


def characteristics(profile: dict[str, Any]) -> dict[str, str]:
    """A profile's characteristics by name (:func:`~mathhammer.io.spellings.characteristic_name`),
    as printed (stripped)."""
    return {
        characteristic_name(str(c.get("name", ""))): str(c.get("$text", "")).strip()
        for c in nodes(profile, "characteristics")
    }


@dataclass(frozen=True)
class Body:
    """The characteristics of a unit profile that a model profile takes."""

    name: str
    toughness: int
    save: int
    wounds: int
    invuln: int | None
    leadership: int | None
    oc: int | None
    movement: str


def read_body(profile: dict[str, Any]) -> tuple[Body | None, str]:
    """A unit profile's characteristics, or the reason it cannot be read.

    An InSv printed ``2+*`` is read as 2+: the asterisk points at an ability (that the
    save cannot be re-rolled), which the datasheet lists with its other abilities.
    """
    values = characteristics(profile)
    numbers: dict[str, int] = {}
    for name in ("T", "Sv", "W"):
        text = values.get(name, "")
        match = _THRESHOLD.fullmatch(text)
        if match is None or (name != "Sv" and not text.isdigit()):
            return None, f"{name} is {text!r}"
        numbers[name] = int(match.group(1))
    return (
        Body(
            profile_name(profile),
            numbers["T"],
            numbers["Sv"],
            numbers["W"],
            _optional(values.get("InSv", "")),
            _optional(values.get("LD", "")),
            _optional(values.get("OC", "")),
            values.get("M", ""),
        ),
        "",
    )


def _optional(text: str) -> int | None:
    match = _THRESHOLD.fullmatch(text)
    return int(match.group(1)) if match else None


def read_weapon(profile: dict[str, Any]) -> tuple[Weapon | None, str]:
    """A weapon profile as a Weapon, or None and the reason it cannot be read.

    Unknown ability tokens do not warn here: they stay in ``weapon.unknown_abilities``
    for the import report.
    """
    values = characteristics(profile)
    melee = profile.get("typeName") == MELEE
    skill_column = "WS" if melee else "BS"
    reason = _unreadable(values, skill_column)
    if reason:
        return None, reason
    keywords = values.get("Keywords", "")
    text = "" if keywords.lower() in _NONE else keywords
    skill, reason = _skill(values, skill_column, text)
    if reason:
        return None, reason
    if not _INTEGER.fullmatch(values["AP"]):
        return None, f"AP is {values['AP']!r}: the engine takes a fixed AP"
    return _weapon(profile, values, skill, text, melee)


def _unreadable(values: dict[str, str], skill_column: str) -> str:
    """Why the weapon's characteristics cannot be read (``"A is '*'"``), or ""."""
    for column in ("A", skill_column, "S", "AP", "D"):
        text = values.get(column, "")
        # N/A or '-' to hit is allowed for Torrent, checked below
        missing = text.lower() in _NONE[:3] and column != skill_column
        if missing or "*" in text:
            return f"{column} is {text!r}"
    return ""


def _skill(values: dict[str, str], skill_column: str, text: str) -> tuple[Any, str]:
    """The weapon's BS or WS as printed without its "+" (2 for a [TORRENT] weapon without
    one), or None and the reason it cannot be read."""
    skill_text = values.get(skill_column, "")
    if skill_text.lower() not in _NONE:
        return skill_text.rstrip("+"), ""
    found, _ = parse_abilities(text)
    if not any(isinstance(a, Torrent) for a in found):
        return None, f"{skill_column} is {skill_text!r} on a weapon without [TORRENT]"
    return 2, ""  # never rolled: Torrent hits automatically


def _weapon(
    profile: dict[str, Any], values: dict[str, str], skill: Any, text: str, melee: bool
) -> tuple[Weapon | None, str]:
    """The Weapon of characteristics that read, or None and the reason the profile refuses
    them."""
    name, restriction = name_restriction(profile_name(profile))  # D38
    text = ", ".join(k for k in (text, restriction) if k)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # unknown abilities go to the import report
            weapon = Weapon(
                name,
                values["A"],
                int(skill) if str(skill).isdigit() else skill,
                values["S"],  # a random Strength (2D6) too: D42
                int(values["AP"].replace("\u2212", "-")),
                values["D"],
                text,
                melee=melee,
            )
    except MathhammerError as exc:
        return None, str(exc).splitlines()[0]
    return weapon, ""
