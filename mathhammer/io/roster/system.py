"""Internal: the game system a roster was written for, read from its ``gameSystemName``.

A roster names its game and edition (``gameSystemName="Warhammer 40,000 10th Edition"``,
``gameSystemRevision="7"``). The 10th and 11th editions print the same profiles (``Unit``,
``Ranged Weapons``, ``Melee Weapons``) and are read; an older edition (weapon profiles of
type ``Weapon``: ``Range Type S AP D``) and other games (Kill Team, Horus Heresy, Age of
Sigmar) are refused in one line that says what was found, what is read, and what to do. A
roster that names no game system is read as the edition its profiles are written in.

Examples
--------
>>> system = game_system({"gameSystemName": "WH40k 10th Edition", "gameSystemRevision": 7})
>>> system.edition, system.ruleset, str(system)
('10e', '10e', "'WH40k 10th Edition', revision 7")
>>> game_system({"gameSystemName": "Warhammer 40,000: Kill Team (2021)"}).game
'Kill Team'
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ...errors import InputFileError

__all__ = ["READ_EDITIONS", "GameSystem", "article", "check_readable", "game_system"]

#: The editions of Warhammer 40,000 whose rosters are read, each computed under the ruleset
#: of the same name.
READ_EDITIONS = ("10e", "11e")
#: Other games, by a pattern of their names (checked before the 40k edition: a Kill Team
#: roster's game system is called "Warhammer 40,000: Kill Team").
_OTHER_GAMES = (
    ("Kill Team", re.compile(r"kill\s*team", re.IGNORECASE)),
    ("Horus Heresy", re.compile(r"horus\s*heresy|\b30k\b", re.IGNORECASE)),
    ("Age of Sigmar", re.compile(r"age\s*of\s*sigmar|\baos\b", re.IGNORECASE)),
    ("Necromunda", re.compile(r"necromunda", re.IGNORECASE)),
)
_OTHER_GAME_NAMES = frozenset(game for game, _ in _OTHER_GAMES)
_EDITION = re.compile(r"\b(\d{1,2})(?:\s*(?:st|nd|rd|th)?\s*ed(?:ition|\.)?|e)\b", re.I)
_FORTY_K = re.compile(r"40\s*,?\s*000|40\s*k|\bwh40k\b", re.IGNORECASE)
#: What a user whose list is not read can do, in one clause.
_WHAT_TO_DO = "export it from a 10th- or 11th-edition data set, or give a profiles CSV"


@dataclass(frozen=True)
class GameSystem:
    """The game and edition a roster names.

    ``game`` is ``"Warhammer 40,000"``, another game's name, or ``""`` when the roster names
    none; ``edition`` is ``"11e"``, ``"10e"``, ``"9e"``... for Warhammer 40,000.
    """

    name: str = ""
    revision: str = ""
    game: str = ""
    edition: str = ""

    @property
    def ruleset(self) -> str | None:
        """The ruleset the roster's units are computed under, None when none fits."""
        return self.edition if self.edition in READ_EDITIONS else None

    @property
    def read(self) -> bool:
        """Whether the file's profiles are read: all but another game's (Kill Team, Horus
        Heresy, Age of Sigmar...) and an edition of Warhammer 40,000 before the 10th; a
        file that names no game system, or one not known here, is read as it is."""
        known_other = self.game in _OTHER_GAME_NAMES
        return not known_other and (not self.edition or self.edition in READ_EDITIONS)

    def __str__(self) -> str:
        if not self.name:
            return "no game system named"
        revision = f", revision {self.revision}" if self.revision else ""
        return f"{self.name!r}{revision}"


def game_system(roster: Mapping[str, Any]) -> GameSystem:
    """The game system a roster's root names (``gameSystemName``, ``gameSystemRevision``)."""
    name = " ".join(str(roster.get("gameSystemName") or "").split())
    revision = str(roster.get("gameSystemRevision") or "").strip()
    return GameSystem(name, revision, *_game_and_edition(name))


def _game_and_edition(name: str) -> tuple[str, str]:
    """The game a game system's name is of, and the edition of Warhammer 40,000 it names
    (none for an empty name)."""
    other = next((game for game, pattern in _OTHER_GAMES if pattern.search(name)), None)
    if other is not None:
        return other, ""
    match = _EDITION.search(name)
    edition = f"{match.group(1)}e" if match else ""
    forty_k = bool(edition or _FORTY_K.search(name))
    return ("Warhammer 40,000" if forty_k else name), edition


def check_readable(system: GameSystem, file: str, what: str = "roster") -> None:
    """Refuse a ``what`` (a roster, a catalogue) of another game, or of an edition whose
    profiles are not read, in one line: what the file is, what is read, what to do.

    Examples
    --------
    >>> check_readable(game_system({"gameSystemName": "Warhammer 40,000 9th Edition"}), "a.ros")
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputFileError: a.ros: a 9th-edition roster ('Warhammer 40,000 9th ...
    """
    if system.read:
        return
    if system.game == "Warhammer 40,000":
        found = f"{_ordinal(system.edition)}-edition {what} ({system})"
        why = "its weapon profiles (type 'Weapon') are not read"
    else:
        found = f"{system.game} {what} ({system})"
        why = "not Warhammer 40,000"
    raise InputFileError.at(
        file, None, None, f"{article(found)} {found}, {why}: 10th- and 11th-edition 40k "
        f"{what}s are read; {_WHAT_TO_DO}",
    )  # fmt: skip


def article(phrase: str) -> str:
    """ "an" before a vowel's sound ("an 8th", "an 11th", "an Age"), else "a"."""
    spoken = re.match(r"(?:8|11|18)\D|[aeiou]", phrase, re.IGNORECASE)
    return "an" if spoken else "a"


def _ordinal(edition: str) -> str:
    """``"9e"`` as ``"9th"`` (an edition not known: as it is)."""
    number = edition.rstrip("e")
    if not number.isdigit():
        return edition or "unknown"
    teens = number[-2:] in ("11", "12", "13")
    return number + ("th" if teens else _SUFFIXES.get(number[-1], "th"))


#: The ordinal suffixes other than "th".
_SUFFIXES = {"1": "st", "2": "nd", "3": "rd"}
