"""An army or detachment rule's subject (docs/rules.md D39): "friendly ORKS INFANTRY units'
ranged attacks have ...", "each time an attack targets a BOYZ unit from your army, ..." read
as the unit's own phrasing, with the units it names (:func:`army_subject`).

The grammar (:mod:`.grammar`) then reads the sentence as it reads a unit's own rule.
"""

from __future__ import annotations

import re

from .clauses import keyword_list
from .sentence import Sentence, _leading

__all__ = ["army_subject"]

_KW = r"(?P<kw>[a-z][a-z' -]*?(?:(?:, | or |/)[a-z][a-z' -]*?)*)"
_EXCLUDING = r"(?: \(excluding (?P<ex>[^)]+)\))?"
#: An army or detachment rule's subject: each pattern and the unit's own phrasing it becomes.
_ARMY: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(p), own)
    for p, own in (
        (rf"^friendly {_KW} units{_EXCLUDING}'s? (?P<rest>(?:ranged |melee )?attacks have .+)$",
         "this unit's {rest}"),
        (rf"^friendly {_KW} units{_EXCLUDING} (?:have|gain) (?P<rest>.+)$", "this unit has {rest}"),
        (rf"^(?P<kind>ranged |melee )?weapons equipped by {_KW} models from your army"
         rf"{_EXCLUDING} have (?P<rest>.+)$",
         "{kind}weapons equipped by models in this unit have {rest}"),
        (rf"^each time an? (?P<kind>ranged |melee )?attack targets an? {_KW} unit from your "
         rf"army{_EXCLUDING}, (?P<rest>.+)$",
         "each time an {kind}attack targets this unit, {rest}"),
        (rf"^each time a model in an? {_KW} unit from your army{_EXCLUDING} makes an? "
         r"(?P<rest>.+)$", "each time a model in this unit makes a {rest}"),
        (rf"^each time an? {_KW} model from your army{_EXCLUDING} makes an? (?P<rest>.+)$",
         "each time a model in this unit makes a {rest}"),
        (rf"^(?:when|each time) an? (?:friendly )?{_KW} unit(?: from your army)?{_EXCLUDING} is "
         r"selected to (?P<act>shoot|fight),? (?P<rest>.+)$", "{act}{rest}"),
    )
)  # fmt: skip


#: The attacks of a unit "selected to shoot" or "to fight".
_ACT_ATTACKS = {"shoot": "ranged", "fight": "melee"}
#: Names in a rule's list of units that name no units of the army ("friendly units").
_NO_UNITS = frozenset({"", "UNIT", "UNITS"})


def army_subject(sentence: Sentence) -> bool:
    """Read an army or detachment rule's subject ("friendly ORKS INFANTRY units' ranged
    attacks have ...", "each time an attack targets a BOYZ unit from your army, ...") as
    the unit's own phrasing, with the units it names in ``sentence.units``; False if the
    sentence names no units of the army that way.

    Examples
    --------
    >>> s = Sentence("friendly orks infantry units' ranged attacks have [assault]", "Dakka")
    >>> army_subject(s), s.text, s.units
    (True, "this unit's ranged attacks have [assault]", ('ORKS INFANTRY',))
    >>> s = Sentence("each time an attack targets an orks unit from your army (excluding "
    ...              "grots units), subtract 1 from the wound roll", "Boarders")
    >>> army_subject(s), s.units
    (True, ('ORKS', 'NON-GROTS'))
    >>> s.text
    'each time an attack targets this unit, subtract 1 from the wound roll'
    """
    _leading(sentence)
    for pattern, own in _ARMY:
        found = pattern.match(sentence.text)
        if found is not None:
            return _as_own(sentence, found, own)
    return False


def _as_own(sentence: Sentence, found: re.Match[str], own: str) -> bool:
    """Rewrite an army rule's subject as the unit's ``own`` phrasing, with the units it
    names; False if it names none ("friendly units")."""
    names = _unit_names(found["kw"])
    if names is None:
        return False
    excluded = _excluded(found["ex"])
    parts = found.groupdict()
    rest = _that_unit(parts["rest"], names)
    act = parts.get("act")
    if act:
        sentence.restrict(_ACT_ATTACKS[act])
    sentence.text = own.format(kind=parts.get("kind") or "", rest=rest, act="")
    sentence.units = (*names, *excluded)
    return True


def _unit_names(words: str) -> list[str] | None:
    """The units of the army a rule names, in upper case ("ORKS INFANTRY"); None if it names
    none ("friendly units")."""
    names = [" ".join(n.split()).upper() for n in re.split(r", (?:or )?| or |/", words)]
    return None if _NO_UNITS.intersection(names) else names


def _that_unit(rest: str, names: list[str]) -> str:
    """The rest of an army rule's sentence, "that ORKS unit" in it read as "that unit"."""
    for name in names:
        rest = rest.replace(f"that {name.lower()} unit", "that unit")
    return rest


def _excluded(words: str | None) -> list[str]:
    """The units an army rule leaves out ("(excluding GROTS units)"), as ``NON-`` keywords."""
    if not words:
        return []
    return [f"NON-{n}" for n in keyword_list(re.sub(r" units?$", "", words))]
