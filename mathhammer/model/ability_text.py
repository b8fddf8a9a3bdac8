"""Ability text as datasheets print it -> typed abilities.

Text is read as datasheets print it: bracketed or not, any case, HTML stripped,
separated by commas (and by the stray full stops of real exports), with numbers
and dice in the token (``"SUSTAINED HITS D3"``, ``"RAPID FIRE D6+1"``) and
keyword restrictions (``"LETHAL HITS: VEHICLE"``, ``"SUSTAINED HITS 1:
INFANTRY/BEASTS"``, ``"ANTI-FLY 2+"``). Every registered ability class
(:func:`~mathhammer.model.abilities.ability_classes`) is asked in turn to read a
token; tokens no class reads (datasheet-specific rules) are returned as unknown and
warn once, naming the token.
"""

from __future__ import annotations

import difflib
import re
import warnings
from collections.abc import Iterable, Sequence

from ..core.caller import outside_stacklevel
from ..errors import MathhammerError, ProfileError, field_error
from .abilities import NO_EFFECT, Ability, ability_classes
from .fields import is_collection

__all__ = [
    "UnknownAbilityWarning",
    "name_restriction",
    "parse_abilities",
    "parse_token",
    "split_abilities",
    "strip_tags",
    "suggest_ability",
    "warn_unknown",
]

_ANTI_WITHOUT_PLUS = re.compile(r"^ANTI-?\s*(.+?)\s+([2-6])$")
# One way to match each value ("D" is not optional between two runs of digits), so a
# long run of digits is matched in linear time, not quadratic.
_TRAILING_VALUE = re.compile(r"^(.*?)(?:\s+((?:[0-9]*D)?[0-9]+(?:\+[0-9]+)?\+?))?$")
_SEPARATORS = re.compile(r"[,.;\n]")
#: A profile name's closing restriction: "Beastchoppa - Hunter (Hunter: MONSTER/VEHICLE)".
_NAME_RESTRICTION = re.compile(r"\s*\(\s*[^():]*:\s*([A-Za-z][A-Za-z /-]*?)\s*\)\s*$")


class UnknownAbilityWarning(UserWarning):
    """An ability token that is not a known weapon ability; it is ignored."""


def split_abilities(text: str | Iterable[object]) -> tuple[str, ...]:
    """Split ability text into normalised tokens (upper case, no brackets, no HTML).

    Examples
    --------
    >>> split_abilities("[ASSAULT], [heavy]")
    ('ASSAULT', 'HEAVY')
    >>> split_abilities("<a href='x'>Pistol</a>. Assault")
    ('PISTOL', 'ASSAULT')
    >>> split_abilities("")
    ()
    """
    if isinstance(text, str):
        parts: Iterable[str] = _SEPARATORS.split(strip_tags(text))
    else:
        parts = (strip_tags(str(t)) for t in text)
    return tuple(filter(None, map(_token, parts)))  # the non-empty tokens


def _token(part: str) -> str:
    """One part of ability text as a token: no brackets, upper case, single spaces, ASCII
    hyphens."""
    token = " ".join(part.replace("[", " ").replace("]", " ").split()).upper()
    return token.replace("\u2011", "-").replace("\u2013", "-")


def strip_tags(text: str) -> str:
    """The text without its HTML tags: each ``<`` up to the next ``>`` is removed.

    A scan rather than the regular expression ``<[^>]*>``, which takes quadratic time on
    text with many ``<`` and no ``>`` (each ``<`` would be matched to the end of the text).

    Examples
    --------
    >>> strip_tags("<b>Lethal</b> hits")
    'Lethal hits'
    >>> strip_tags("S < T, <i>always</i> 6+ < 7")
    'S  always 6+ < 7'
    """
    out = []
    start = 0
    while (opening := text.find("<", start)) >= 0:
        closing = text.find(">", opening)
        if closing < 0:  # no tag can close after here
            break
        out.append(text[start:opening])
        start = closing + 1
    out.append(text[start:])
    return "".join(out)


def _keywords(text: str) -> tuple[str, ...]:
    return tuple(k.strip() for k in text.split("/") if k.strip())


def parse_token(token: str) -> Ability | None:
    """One normalised token -> an ability, or None if no ability class reads it.

    Examples
    --------
    >>> parse_token("SUSTAINED HITS D3")
    SustainedHits(keywords=(), value=Dice('D3'))
    >>> str(parse_token("LETHAL HITS: VEHICLE"))
    '[LETHAL HITS: VEHICLE]'
    >>> str(parse_token("ANTI-FLY 2+"))
    '[ANTI-FLY 2+]'
    """
    if not isinstance(token, str):
        raise field_error(ProfileError, "ability token", "a string", token)
    body, _, restriction = token.partition(":")
    body = body.strip()
    keywords = _keywords(restriction)
    for cls in ability_classes():
        ability = cls.parse(body, keywords)
        if ability is not None:
            return ability
    return None


def parse_abilities(
    abilities: str | Iterable[object],
) -> tuple[tuple[Ability, ...], tuple[str, ...]]:
    """Read ability text (or a list of tokens or typed abilities).

    Returns
    -------
    abilities : tuple of Ability
        The recognised abilities, in the order printed.
    unknown : tuple of str
        Tokens that are not known weapon abilities (datasheet-specific rules).

    Examples
    --------
    >>> found, unknown = parse_abilities("[SUSTAINED HITS 1], [LETHAL HITS], [SNAGGED]")
    >>> [str(a) for a in found], unknown
    (['[SUSTAINED HITS 1]', '[LETHAL HITS]'], ('SNAGGED',))
    """
    if not isinstance(abilities, str):
        return _parse_items(abilities)
    found_list: list[Ability] = []
    unknown_list: list[str] = []
    for token in split_abilities(abilities):
        ability = parse_token(token)
        if ability is None:
            unknown_list.append(token)
        else:
            found_list.append(ability)
    return tuple(found_list), tuple(unknown_list)


def _parse_items(abilities: Iterable[object]) -> tuple[tuple[Ability, ...], tuple[str, ...]]:
    """A list of tokens and typed abilities read as :func:`parse_abilities` reads text: the
    typed abilities first, then those the tokens print."""
    if not is_collection(abilities):  # (a string is read as text before)
        raise field_error(ProfileError, "abilities", "a string or a list of abilities", abilities)
    typed, texts = _typed_and_texts(list(abilities))
    found, unknown = parse_abilities(", ".join(texts))  # no texts: none found, none unknown
    return tuple(typed) + found, unknown


def _typed_and_texts(items: list[object]) -> tuple[list[Ability], list[str]]:
    """The items of a list of abilities sorted: the typed abilities, and the texts."""
    typed: list[Ability] = []
    texts: list[str] = []
    for item in items:
        if isinstance(item, Ability):
            typed.append(item)
        elif isinstance(item, str):
            texts.append(item)
        else:
            raise field_error(ProfileError, "abilities", "text or typed abilities", item)
    return typed, texts


def suggest_ability(token: str) -> str | None:
    """The known ability a mistyped token most likely means, numbers kept; None if none.

    The name is matched with :mod:`difflib` against every registered ability; the value
    and any keyword restriction are kept as typed.

    Examples
    --------
    >>> suggest_ability("SUSTAINED HIT 1")
    'SUSTAINED HITS 1'
    >>> suggest_ability("[devestating wounds]")
    'DEVASTATING WOUNDS'
    >>> suggest_ability("ANTI-INFANTRY 4")
    'ANTI-INFANTRY 4+'
    >>> suggest_ability("LETHAL HIT: VEHICLE")
    'LETHAL HITS: VEHICLE'
    >>> suggest_ability("Waaagh! energy") is None
    True
    """
    normalised = split_abilities([token])
    if not normalised:
        return None
    body, colon, restriction = normalised[0].partition(":")
    body = body.strip()
    suffix = f": {restriction.strip()}" if colon else ""
    anti = _ANTI_WITHOUT_PLUS.match(body)
    if anti is not None:
        return _first_reading([f"ANTI-{anti.group(1)} {anti.group(2)}+{suffix}"])
    return _closest(body, suffix)


def _closest(body: str, suffix: str) -> str | None:
    """The known ability closest to ``body`` by its name, its value kept where the ability
    then reads, with the keyword restriction ``suffix``; None if none is close."""
    match = _TRAILING_VALUE.match(body)
    name, value = (match.group(1), match.group(2)) if match else (body, None)
    close = difflib.get_close_matches(name, _known_names(), n=1, cutoff=0.75)
    if not close:
        return None
    guesses = [f"{close[0]} {value}", close[0]] if value else [close[0]]
    return _first_reading(guess + suffix for guess in guesses)


def _known_names() -> list[str]:
    """The names a mistyped token is matched against: every registered ability's (ANTI
    aside, which has its own guess) and the printed abilities with no effect."""
    names = [c.NAME for c in ability_classes() if c.NAME not in ("ANTI", "NO EFFECT")]
    return [*names, *sorted(NO_EFFECT)]


def _first_reading(guesses: Iterable[str]) -> str | None:
    """The first of the guesses that is a known ability as it stands; None if none is."""
    return next((guess for guess in guesses if _reads(guess)), None)


def _reads(token: str) -> bool:
    """True if the token is a known ability as it stands (a value refused is not)."""
    try:
        return parse_token(token) is not None
    except MathhammerError:
        return False


def unknown_message(token: str) -> str:
    """The token quoted, with a suggestion when one is close: ``'X' (did you mean 'Y'?)``."""
    guess = suggest_ability(token)
    return f"{token!r}" + (f" (did you mean {guess!r}?)" if guess else "")


def warn_unknown(weapon_name: str, unknown: Sequence[str]) -> None:
    """One warning naming the tokens that are not known weapon abilities, with the
    known ability each one most likely means."""
    if unknown:
        warnings.warn(
            f"weapon {weapon_name!r}: ignoring {', '.join(unknown_message(t) for t in unknown)}: "
            "not core weapon abilities",
            UnknownAbilityWarning,
            stacklevel=outside_stacklevel(),
        )


def name_restriction(name: str) -> tuple[str, str]:
    """A weapon profile's name without its closing restriction, and the restriction as a
    printed ability (``""`` when the name has none): the profile may only target units
    with one of the keywords named (docs/rules.md D38).

    Examples
    --------
    >>> name_restriction("Smash Hammer - Hunter (Hunter: MONSTER/VEHICLE)")
    ('Smash Hammer - Hunter', '[ONLY AGAINST: MONSTER/VEHICLE]')
    >>> name_restriction("Kombi-weapon (Rokkit)")
    ('Kombi-weapon (Rokkit)', '')
    """
    found = _NAME_RESTRICTION.search(name)
    if found is None:
        return name, ""
    keywords = "/".join(" ".join(k.split()).upper() for k in found[1].split("/") if k.strip())
    return name[: found.start()].strip(), f"[ONLY AGAINST: {keywords}]"
