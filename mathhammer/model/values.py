"""One grammar for characteristics as datasheets print them, shared by Python, CSV and CLI.

The profiles (:class:`~mathhammer.model.profiles.Weapon`,
:class:`~mathhammer.model.unit.ModelGroup`, :class:`~mathhammer.model.unit.Unit`), the
CSV readers and the command line all read a characteristic with the functions here, so
that ``3+`` means the same everywhere:

==================  ============================================  ==============
characteristic      accepted forms                                stored as
==================  ============================================  ==============
a roll (BS/WS,      ``3+`` or ``3`` (or the int ``3``)            ``3``
InSv, FNP)
BS of a TORRENT     ``N/A`` or ``-`` (only where the weapon is    ``2`` (never
weapon              known to have [TORRENT])                      rolled)
Sv                  a roll, or ``-`` / ``N/A`` / ``none``         ``7``: no save
                    for no save
InSv, FNP           a roll, or ``-`` / ``N/A`` / ``none`` / empty  None
Ld                  ``6+`` (11th edition: 2D6 >= 6 passes), or    the classic
                    ``8`` (classic: 2D6 <= 8 passes)              characteristic
classic BS          the characteristic ``1`` to ``10``            ``4``
==================  ============================================  ==============

Leadership is stored as the classic characteristic, the only form the engine reads (the
classic Panic Test passes on 2D6 <= Ld). An 11th-edition ``N+`` is converted to the
characteristic with the same chance of passing: 2D6 is symmetric about 7, so
P(2D6 >= N) = P(2D6 <= 14 - N) and ``6+`` is stored as 8, ``7+`` as 7.

A number is written with the digits 0-9: ``"٣"`` (an Arabic-Indic 3) and ``"３+"`` (a full
width 3) are refused, though Python's ``int`` reads them.

Every function takes the text (or an int) and the name of the field it feeds, used in
its error: a :class:`~mathhammer.errors.ProfileError` (also a ``ValueError``) worded
``"<field> must be <accepted forms>; got <value>"``. An int keeps the message of
:func:`~mathhammer.model.fields.int_field`.

Examples
--------
>>> parse_roll("3+"), parse_roll("3"), parse_roll(" 4+ ")
(3, 3, 4)
>>> parse_skill("N/A", torrent_ok=True)
2
>>> parse_leadership("6+"), parse_leadership("7+"), parse_leadership("8")
(8, 7, 8)
>>> parse_save("-"), parse_optional_roll("-")
(7, None)
>>> parse_roll("3++", "--skill")
Traceback (most recent call last):
...
mathhammer.errors.ProfileError: --skill must be a roll from 2+ to 6+, written '3+' or '3';
got '3++'
"""

from __future__ import annotations

import re

from ..errors import ProfileError, field_error
from .fields import NO_SAVE, check_int

__all__ = [
    "NOT_ROLLED",
    "NO_VALUE",
    "RollInput",
    "best_roll",
    "parse_bs",
    "parse_leadership",
    "parse_optional_roll",
    "parse_roll",
    "parse_save",
    "parse_skill",
    "roll_text",
]

#: What a characteristic given in Python, a CSV cell or a command-line flag may be.
RollInput = int | str

#: Written for a value that is not there: an InSv, a FNP, or a Sv of "no save".
NO_VALUE = frozenset({"", "-", "\u2013", "\u2014", "n/a", "none"})
#: Written for the BS/WS of a TORRENT weapon, which hits without a roll.
NOT_ROLLED = frozenset({"-", "\u2013", "\u2014", "n/a"})

# Only the digits 0-9, and few of them: "٣" or "３+" is not a roll, and a number of
# thousands of digits is refused here rather than by Python's limit on reading one.
_NUMBER = re.compile(r"([0-9]{1,9})\s*(\+?)")
_TORRENT_HINT = "'N/A' and '-' are only for [TORRENT] weapons, which hit without a roll"


def _roll_constraint(low: int, high: int) -> str:
    return f"a roll from {low}+ to {high}+, written '3+' or '3'"


def _number(text: str) -> tuple[int, bool] | None:
    """The number of ``"3+"`` or ``"3"`` and whether it had the ``+``; None otherwise."""
    match = _NUMBER.fullmatch(text.strip())
    return None if match is None else (int(match.group(1)), bool(match.group(2)))


def _roll_in(text: str, low: int, high: int) -> int | None:
    """The number of ``"3+"`` or ``"3"`` when it is from ``low`` to ``high``; None otherwise."""
    found = _number(text)
    return found[0] if found is not None and low <= found[0] <= high else None


def _roll_or_error(value: str, field: str, low: int, high: int, constraint: str) -> int:
    """The roll ``value`` writes, from ``low``+ to ``high``+; else a ProfileError naming
    the field and the forms it takes (``constraint``)."""
    number = _roll_in(value, low, high)
    if number is None:
        raise field_error(ProfileError, field, constraint, value)
    return number


def parse_roll(value: RollInput, field: str = "roll", *, low: int = 2, high: int = 6) -> int:
    """A roll written ``"3+"`` or ``"3"`` (or the int 3), from ``low``+ to ``high``+.

    Parameters
    ----------
    value : int or str
        The value as given: ``3``, ``"3"``, ``"3+"``; spaces around it do not matter.
    field : str
        The field it feeds, named in the error: ``"Weapon.skill"``, ``"--skill"``.
    low, high : int
        The range of the field.

    Raises
    ------
    ProfileError
        Naming the accepted forms.

    Examples
    --------
    >>> parse_roll("5+", "ModelGroup.fnp")
    5
    >>> parse_roll("1+", "ModelGroup.fnp")
    Traceback (most recent call last):
    ...
    mathhammer.errors.ProfileError: ModelGroup.fnp must be a roll from 2+ to 6+, written '3+'
    or '3'; got '1+'
    """
    if not isinstance(value, str):
        return check_int(field, value, low, high)
    return _roll_or_error(value, field, low, high, _roll_constraint(low, high))


def parse_optional_roll(value: RollInput | None, field: str = "roll") -> int | None:
    """An InSv or a FNP: a roll from 2+ to 6+, or None when there is none.

    None, ``""``, ``"-"``, ``"N/A"`` and ``"none"`` mean there is none.

    Examples
    --------
    >>> parse_optional_roll("4+"), parse_optional_roll(None), parse_optional_roll("N/A")
    (4, None, None)
    """
    if value is None:
        return None
    if not isinstance(value, str):
        return check_int(field, value, 2, 6)
    if value.strip().lower() in NO_VALUE:
        return None
    return _roll_or_error(value, field, 2, 6, _roll_constraint(2, 6) + ", or '-' for none")


def parse_save(value: RollInput, field: str = "save") -> int:
    """A save: a roll from 2+ to 6+; ``"-"``, ``"N/A"``, ``"none"`` or 7 for no save (7).

    Examples
    --------
    >>> parse_save("3+"), parse_save("3"), parse_save("none"), parse_save(7)
    (3, 3, 7, 7)
    """
    if not isinstance(value, str):
        return check_int(field, value, 2, NO_SAVE)
    text = value.strip().lower()
    if text and text in NO_VALUE:
        return NO_SAVE
    constraint = _roll_constraint(2, 6) + ", or '-' for no save"
    return _roll_or_error(value, field, 2, NO_SAVE, constraint)


def parse_skill(value: RollInput, torrent_ok: bool = False, field: str = "skill") -> int:
    """An 11th-edition BS or WS: a roll from 2+ to 6+, or ``"N/A"`` for a TORRENT weapon.

    Parameters
    ----------
    value : int or str
        ``3``, ``"3"``, ``"3+"``; ``"N/A"`` or ``"-"`` where ``torrent_ok``.
    torrent_ok : bool
        The weapon is known to have [TORRENT]: it hits without a roll, so ``"N/A"`` is
        its printed BS and is stored as 2 (never rolled).
    field : str
        The field it feeds, named in the error.

    Examples
    --------
    >>> parse_skill("3+"), parse_skill("N/A", torrent_ok=True)
    (3, 2)
    >>> parse_skill("N/A", field="Weapon.skill")
    Traceback (most recent call last):
    ...
    mathhammer.errors.ProfileError: Weapon.skill must be a roll from 2+ to 6+, written '3+'
    or '3', or 'N/A' for a [TORRENT] weapon; got 'N/A' ('N/A' and '-' are only for
    [TORRENT] weapons, which hit without a roll)
    """
    if isinstance(value, str) and value.strip().lower() in NOT_ROLLED:
        if torrent_ok:
            return 2  # never rolled: Torrent hits automatically
        constraint = _roll_constraint(2, 6) + ", or 'N/A' for a [TORRENT] weapon"
        raise field_error(ProfileError, field, constraint, value, _TORRENT_HINT)
    return parse_roll(value, field)


def parse_bs(value: RollInput, field: str = "bs") -> int:
    """The classic ruleset's Ballistic Skill characteristic, 1 to 10 (BS 4 hits on 3+).

    Examples
    --------
    >>> parse_bs("4"), parse_bs(4)
    (4, 4)
    >>> parse_bs("3+")
    Traceback (most recent call last):
    ...
    mathhammer.errors.ProfileError: bs must be the classic BS characteristic, 1 to 10,
    written '4'; got '3+' (a roll 'N+' is an 11th-edition skill: give skill= instead)
    """
    if not isinstance(value, str):
        return check_int(field, value, 1, 10)
    found = _number(value)
    number = _CLASSIC_BS.get(found)
    if number is None:
        constraint = "the classic BS characteristic, 1 to 10, written '4'"
        raise field_error(ProfileError, field, constraint, value, _roll_hint(found))
    return number


#: A classic BS as :func:`_number` reads it -> the characteristic: ``"4"``, 1 to 10.
_CLASSIC_BS: dict[tuple[int, bool] | None, int] = {(n, False): n for n in range(1, 11)}


def _roll_hint(found: tuple[int, bool] | None) -> str:
    """The hint for a classic BS written as a roll ``"N+"`` (as :func:`_number` reads it);
    "" for any other."""
    return "a roll 'N+' is an 11th-edition skill: give skill= instead" if found and found[1] else ""


def parse_leadership(value: RollInput, field: str = "leadership") -> int:
    """Leadership as either edition prints it, stored as the classic characteristic.

    ``"N+"`` (11th edition: the test passes on 2D6 >= N, N from 2 to 12) is stored as
    ``14 - N``, the classic characteristic with the same chance of passing; ``"N"`` or
    the int N (classic: passes on 2D6 <= N) is stored as N, from 1 to 12.

    Examples
    --------
    >>> parse_leadership("6+"), parse_leadership("6"), parse_leadership(7)
    (8, 6, 7)
    >>> parse_leadership("Ld6")
    Traceback (most recent call last):
    ...
    mathhammer.errors.ProfileError: leadership must be '6+' (11th edition: 2D6 >= 6 passes;
    2+ to 12+) or the classic characteristic '8' (2D6 <= 8 passes; 1 to 12); got 'Ld6'
    """
    if not isinstance(value, str):
        return check_int(field, value, 1, 12)
    number = _LEADERSHIP.get(_number(value))
    if number is not None:
        return number
    constraint = (
        "'6+' (11th edition: 2D6 >= 6 passes; 2+ to 12+) or the classic characteristic "
        "'8' (2D6 <= 8 passes; 1 to 12)"
    )
    raise field_error(ProfileError, field, constraint, value)


#: Leadership as :func:`_number` reads it -> the classic characteristic: ``"N+"`` (11th
#: edition, passes on 2D6 >= N; 2+ to 12+) as ``14 - N``, ``"N"`` (1 to 12) as N.
_LEADERSHIP: dict[tuple[int, bool] | None, int] = {
    **{(n, True): 14 - n for n in range(2, 13)},
    **{(n, False): n for n in range(1, 13)},
}


def best_roll(*rolls: int | None) -> int | None:
    """The best of the rolls ``N+`` given (the lowest N); None where none is given.

    Examples
    --------
    >>> best_roll(5, None, 4), best_roll(None, None)
    (4, None)
    """
    best = None
    for roll in rolls:  # a loop, not min() over a generator: every save asks (S3)
        if roll is not None and (best is None or roll < best):
            best = roll
    return best


def roll_text(value: int | None) -> str:
    """A roll as printed: ``3`` -> ``"3+"``, None -> ``"-"``.

    Examples
    --------
    >>> roll_text(3), roll_text(None)
    ('3+', '-')
    """
    return "-" if value is None else f"{value}+"
