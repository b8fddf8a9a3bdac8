"""Field validation shared by the value objects: integers, dice, flags, keywords.

Characteristics written as datasheets print them (``"3+"``, ``"N/A"``, ``"6+"``) are
read by :mod:`mathhammer.model.values`.

Every invalid field raises :class:`~mathhammer.errors.ProfileError` (also a
``ValueError``), worded ``"<field> must be <constraint>; got <value>"``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, TypeGuard

import numpy as np

from ..core.dice import Dice, parse_dice
from ..errors import DiceSyntaxError, LimitError, MathhammerError, ProfileError, field_error

__all__ = [
    "NO_SAVE",
    "check_int",
    "dice_field",
    "flag_field",
    "int_field",
    "is_collection",
    "is_integer",
    "items_field",
    "names_field",
    "normalise_keywords",
    "optional_int_field",
    "phrases_field",
    "read_dice",
    "text_field",
]

#: A save characteristic of 7 means "no armour save" (nothing reaches 7+ on a D6).
NO_SAVE = 7
#: What a dice field takes.
_DICE = "an integer or a dice expression like 'D6+1'"


def int_field(
    owner: str, name: str, value: Any, low: int | None = None, high: int | None = None
) -> int:
    """Validate the integer field ``owner.name``, with the range in the message."""
    if type(value) is int and _within(value, low, high):
        return value  # the common case: no message made
    return check_int(f"{owner}.{name}", value, low, high)


def check_int(field: str, value: Any, low: int | None = None, high: int | None = None) -> int:
    """Validate an integer, with the range in the message.

    Examples
    --------
    >>> check_int("count", 3, 1)
    3
    >>> check_int("count", 0, 1)
    Traceback (most recent call last):
    ...
    mathhammer.errors.ProfileError: count must be an integer >= 1; got 0
    >>> check_int("offset", "2")
    Traceback (most recent call last):
    ...
    mathhammer.errors.ProfileError: offset must be an integer; got '2'
    """
    if not is_integer(value) or not _within(value, low, high):
        raise field_error(ProfileError, field, _int_constraint(low, high), value)
    return int(value)


def is_integer(value: object) -> TypeGuard[int | np.integer[Any]]:
    """True for an integer, numpy's too, but not for True or False.

    Examples
    --------
    >>> is_integer(3), is_integer(True), is_integer(3.0)
    (True, False, False)
    """
    return isinstance(value, int | np.integer) and not isinstance(value, bool)


def _within(value: Any, low: int | None, high: int | None) -> bool:
    """True if the number is within the range (None: no bound on that side)."""
    return (low is None or value >= low) and (high is None or value <= high)


def _int_constraint(low: int | None, high: int | None) -> str:
    """The constraint an integer in this range is worded by: ``"an integer >= 1"``."""
    wording = _INT_CONSTRAINTS[low is not None, high is not None]
    return wording.format(low=low, high=high)


#: How an integer's range is worded, by the bounds it has: (a lower one, an upper one).
_INT_CONSTRAINTS = {
    (True, True): "an integer from {low} to {high}",
    (True, False): "an integer >= {low}",
    (False, True): "an integer <= {high}",
    (False, False): "an integer",
}


def dice_field(owner: str, name: str, value: Any, minimum: int) -> Dice:
    """Read an int or a dice expression, at least ``minimum`` on every roll."""
    field = f"{owner}.{name}"
    try:
        dice = read_dice(value, field)
    except DiceSyntaxError as exc:
        raise ProfileError(f"{field}: {exc}", field=field, constraint=_DICE, value=value) from None
    if dice.min < minimum:
        raise field_error(ProfileError, field, f"at least {minimum} on every roll", dice.text)
    return dice


def read_dice(value: Any, field: str) -> Dice:
    """An int or a dice expression (:func:`~mathhammer.core.dice.parse_dice`) for ``field``.

    Only the digits 0-9 are digits here: ``"３D6"`` (full width) and ``"٣"`` (Arabic-Indic)
    are refused rather than read as 3D6 and 3, and a number too long for Python to read
    (over 4,300 digits) is a :class:`~mathhammer.errors.ProfileError` like any other
    misspelt value. A :class:`~mathhammer.errors.DiceSyntaxError` is raised as it is.

    Examples
    --------
    >>> read_dice("D6+1", "Weapon.attacks")
    Dice('D6+1')
    >>> read_dice("\uff13D6", "Weapon.attacks")
    Traceback (most recent call last):
    ...
    mathhammer.errors.ProfileError: Weapon.attacks must be an integer or a dice expression
    like 'D6+1', written with the digits 0-9; got '３D6'
    """
    if _other_digits(value):
        raise field_error(ProfileError, field, f"{_DICE}, written with the digits 0-9", value)
    try:
        return parse_dice(value)
    except ProfileError:
        raise field_error(ProfileError, field, _DICE, value) from None
    except LimitError as exc:  # a size limit, not a misspelt value: named by the field
        raise _named_limit(exc, field) from None
    except MathhammerError:  # a DiceSyntaxError among them
        raise
    except ValueError:  # Python's limit on the digits of an int read from (or shown as) text
        raise field_error(ProfileError, field, _DICE, value, "the number is too long") from None


def _other_digits(value: Any) -> bool:
    """True for text with digits other than 0-9 (``"３"``, ``"٣"``)."""
    return isinstance(value, str) and any(c.isdigit() and not c.isascii() for c in value)


def _named_limit(exc: LimitError, field: str) -> LimitError:
    """A dice expression's size limit, named by the field it was given for."""
    constraint = exc.constraint or "within the limits of a dice expression"
    return field_error(LimitError, field, constraint, exc.value, exc.hint or "")


def normalise_keywords(keywords: str | Iterable[str]) -> tuple[str, ...]:
    """Keywords as an upper-case tuple; a string is split on commas.

    Examples
    --------
    >>> normalise_keywords("Infantry, imperium")
    ('INFANTRY', 'IMPERIUM')
    """
    words = (_keyword(item) for item in _keyword_items(keywords))
    return tuple(dict.fromkeys(word for word in words if word))  # each once, in order


def _keyword_items(keywords: str | Iterable[str]) -> Iterable[str]:
    """The items of ``keywords``: a string split on commas, or the collection's items."""
    if isinstance(keywords, str):
        return keywords.split(",")
    if isinstance(keywords, Iterable):
        return keywords
    raise field_error(ProfileError, "keywords", "a string or a list of strings", keywords)


def _keyword(item: object) -> str:
    """One keyword checked and normalised: upper case, single spaces ("" if blank)."""
    if not isinstance(item, str):
        raise field_error(ProfileError, "keywords", "strings", item)
    return " ".join(item.split()).upper()


def text_field(owner: str, name: str, value: Any) -> str:
    """Validate the text field ``owner.name``.

    Examples
    --------
    >>> text_field("Wargear", "name", 3)
    Traceback (most recent call last):
    ...
    mathhammer.errors.ProfileError: Wargear.name must be a string; got 3
    """
    if not isinstance(value, str):
        raise field_error(ProfileError, f"{owner}.{name}", "a string", value)
    return value


def optional_int_field(owner: str, name: str, value: Any, low: int = 0) -> int | None:
    """Validate an integer field that may be None (a characteristic shown, not used)."""
    return None if value is None else int_field(owner, name, value, low)


def names_field(owner: str, name: str, value: Any) -> tuple[str, ...]:
    """Validate a list of names; one string is one name (not a list of its letters).

    Examples
    --------
    >>> names_field("ModelProfile", "weapons", "Bolt rifle")
    ('Bolt rifle',)
    >>> names_field("ModelProfile", "weapons", 5)
    Traceback (most recent call last):
    ...
    mathhammer.errors.ProfileError: ModelProfile.weapons must be a list of strings; got 5
    """
    if isinstance(value, str):
        return (value,)
    return items_field(f"{owner}.{name}", value, str, "a list of strings")


def is_collection(value: object) -> TypeGuard[Iterable[Any]]:
    """True for a collection of items: anything iterable but a string, bytes or a mapping
    (iterating them gives letters, numbers or keys).

    Examples
    --------
    >>> is_collection(["a"]), is_collection("a"), is_collection({"a": 1})
    (True, False, False)
    """
    return isinstance(value, Iterable) and not isinstance(value, str | bytes | Mapping)


def items_field(
    field: str, value: Any, kind: type | tuple[type, ...], what: str
) -> tuple[Any, ...]:
    """Validate a collection whose items are all of ``kind``; return it as a tuple.

    A string or a mapping is refused (iterating it would give its letters or its keys), and
    so is anything that cannot be iterated.

    Examples
    --------
    >>> items_field("points", [(1, 2)], tuple, "a list of pairs")
    ((1, 2),)
    >>> items_field("points", 12, tuple, "a list of pairs")
    Traceback (most recent call last):
    ...
    mathhammer.errors.ProfileError: points must be a list of pairs; got 12
    """
    if not is_collection(value):
        raise field_error(ProfileError, field, what, value)
    items = tuple(value)
    for item in items:
        if not isinstance(item, kind):
            raise field_error(ProfileError, field, what, item)
    return items


def phrases_field(field: str, value: Any, what: str, example: str, each: str) -> tuple[str, ...]:
    """Validate keywords or keyword phrases: a collection (one string is refused, with
    ``example`` as the hint) of non-empty strings, returned in upper case, single spaces.
    ``what`` and ``each`` word the collection and its items for the error.

    Examples
    --------
    >>> phrases_field("Effect.units", ["orks  infantry"], "a tuple of keyword phrases",
    ...               "e.g. ('ORKS INFANTRY',)", "non-empty keyword phrases")
    ('ORKS INFANTRY',)
    >>> phrases_field("Melta.keywords", ["  "], "a tuple of keywords", "", "non-empty strings")
    Traceback (most recent call last):
    ...
    mathhammer.errors.ProfileError: Melta.keywords must be non-empty strings; got '  '
    """
    if isinstance(value, str) or not isinstance(value, Iterable):
        raise field_error(ProfileError, field, what, value, example)
    return tuple(_phrase(field, phrase, each) for phrase in value)


def _phrase(field: str, phrase: object, each: str) -> str:
    """One keyword or keyword phrase of :func:`phrases_field` checked and normalised."""
    if not isinstance(phrase, str) or not phrase.strip():
        raise field_error(ProfileError, field, each, phrase)
    return " ".join(phrase.split()).upper()


def flag_field(owner: str, name: str, value: Any) -> bool:
    """Validate a True/False field (numpy booleans accepted)."""
    if not isinstance(value, bool | np.bool_):
        raise field_error(ProfileError, f"{owner}.{name}", "True or False", value)
    return bool(value)
