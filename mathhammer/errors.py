"""The error hierarchy.

Every error mathhammer raises for bad input derives from :class:`MathhammerError`
and from the builtin a caller would naturally catch (``ValueError``), so both
``except mathhammer.MathhammerError`` and ``except ValueError`` work. There is one
class per kind of problem:

=====================  ====================================================================
class                  raised for
=====================  ====================================================================
ProfileError           a weapon, model group, unit, target or loadout characteristic
AllocationOrderError   a unit's groups in an order the rules forbid (a ProfileError)
DiceSyntaxError        a dice expression such as ``"2D"`` that cannot be read
DistributionError      a probability distribution or one of its arguments
LimitError             an input beyond the sizes the exact engine handles
RulesError             an unknown ruleset, or a request the ruleset does not support
OptionError            an option of a computation, not of a profile: ``rng``, ``trials``,
                       ``phase``, ``metric``, ``jobs``
InputFileError         a problem in an input file, located by file, line and column
CsvError               the same, in a CSV file (an InputFileError)
InputFileWarning       not an error: something in an input file read past (a UserWarning)
=====================  ====================================================================

Messages follow one pattern, ``"<field> must be <constraint>; got <value>"``, with a
hint in brackets where one exists, and the parts travel with the error as attributes
(:attr:`~MathhammerError.field`, :attr:`~MathhammerError.constraint`,
:attr:`~MathhammerError.value`, :attr:`~MathhammerError.hint`), so a caller never needs
to parse the text. Errors survive a pickle round trip with their class, message and
attributes: one raised in a worker process reaches the caller intact.

Examples
--------
>>> import pickle
>>> error = field_error(ProfileError, "Weapon.strength", "an integer >= 1", 0)
>>> error.field, error.constraint, error.value
('Weapon.strength', 'an integer >= 1', 0)
>>> again = pickle.loads(pickle.dumps(error))
>>> type(again).__name__, str(again) == str(error), again.details == error.details
('ProfileError', True, True)
"""

from __future__ import annotations

import copy
import pickle
from typing import Any, ClassVar, TypeVar

__all__ = [
    "AllocationOrderError",
    "CsvError",
    "DiceSyntaxError",
    "DistributionError",
    "InputFileError",
    "InputFileWarning",
    "LimitError",
    "MathhammerError",
    "OptionError",
    "ProfileError",
    "RulesError",
    "field_error",
    "shorten",
    "shown",
]

E = TypeVar("E", bound="MathhammerError")


class MathhammerError(Exception):
    """Base class of every error raised by mathhammer.

    Parameters
    ----------
    message : str
        The whole message, as ``str(error)`` shows it.
    field, constraint, value, hint
        The parts of a ``"<field> must be <constraint>; got <value>"`` message, where
        the error has them: what was wrong, what it must be, what was given and how to
        fix it. :func:`field_error` builds the message from them.

    Attributes
    ----------
    field : str or None
        The offending field, e.g. ``"Weapon.strength"`` or ``"trials"``.
    constraint : str or None
        What the field must be, e.g. ``"an integer >= 1"``.
    value : object
        The value given (its ``repr`` if the value could not be pickled).
    hint : str
        How to fix it, or ``""``.
    """

    #: The attributes that describe the error, beyond its message.
    FIELDS: ClassVar[tuple[str, ...]] = ("field", "constraint", "value", "hint")

    def __init__(
        self,
        message: str = "",
        *,
        field: str | None = None,
        constraint: str | None = None,
        value: object = None,
        hint: str = "",
    ) -> None:
        super().__init__(message)
        self.field = field
        self.constraint = constraint
        self.value = value
        self.hint = hint

    @property
    def details(self) -> dict[str, Any]:
        """The attributes named by :attr:`FIELDS`, as a dict."""
        return {name: getattr(self, name) for name in self.FIELDS}

    def prefixed(self: E, prefix: str, *, field: str | None = None) -> E:
        """A copy of the error whose message starts ``"<prefix>: "``.

        For an error re-raised where more is known: the entry of a file it came from,
        or (``field=``) the field a value was given for.

        Examples
        --------
        >>> error = field_error(ProfileError, "count", "an integer >= 1", 0)
        >>> located = error.prefixed("suite: targets[2]")
        >>> str(located), located.field
        ('suite: targets[2]: count must be an integer >= 1; got 0', 'count')
        """
        out = copy.copy(self)
        out.args = (f"{prefix}: {self}",)
        if field is not None:
            out.field = field
        return out

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuilt without calling __init__, so subclasses whose __init__ takes other
        # arguments (DiceSyntaxError) still round-trip; values that cannot be pickled
        # travel as their repr rather than losing the whole error.
        return (_rebuild, (type(self), self.args, _portable(self.__dict__)))


def _portable(state: dict[str, Any]) -> dict[str, Any]:
    out = {}
    for name, value in state.items():
        try:
            pickle.dumps(value)
        except Exception:  # any failure to pickle: keep what the value looked like
            value = repr(value)
        out[name] = value
    return out


def _rebuild(cls: type[E], args: tuple[Any, ...], state: dict[str, Any]) -> E:
    error = cls.__new__(cls, *args)
    error.args = args
    error.__dict__.update(state)
    return error


class ProfileError(MathhammerError, ValueError):
    """An invalid weapon, model group, unit, target or loadout characteristic."""


class AllocationOrderError(ProfileError):
    """A unit's allocation groups are in an order the rules forbid."""


class DiceSyntaxError(MathhammerError, ValueError):
    """A dice expression such as ``"2D6+1"`` could not be read.

    Parameters
    ----------
    text : str
        The text that was being read.
    position : int
        The 0-based index of the first character that could not be read.
    reason : str
        What is wrong there.

    Examples
    --------
    >>> error = DiceSyntaxError("2D", 2, "expected the number of sides after 'D'")
    >>> print(error)
    cannot read dice expression '2D' at position 2: expected the number of sides after 'D'
      2D
        ^
    expected an integer or [N]D<sides>[+M], e.g. '3', 'D6', '2D6', 'D3+3'
    >>> error.text, error.position, error.value
    ('2D', 2, '2D')
    """

    FIELDS = (*MathhammerError.FIELDS, "text", "position", "reason")

    def __init__(self, text: str, position: int, reason: str) -> None:
        constraint = "an integer or [N]D<sides>[+M]"
        examples = "e.g. '3', 'D6', '2D6', 'D3+3'"
        pointer = " " * position + "^"
        super().__init__(
            f"cannot read dice expression {text!r} at position {position}: {reason}\n"
            f"  {text}\n  {pointer}\n"
            f"expected {constraint}, {examples}",
            field="dice",
            constraint=constraint,
            value=text,
            hint=examples,
        )
        self.text = text
        self.position = position
        self.reason = reason


class DistributionError(MathhammerError, ValueError):
    """An invalid probability distribution or distribution argument."""


class LimitError(MathhammerError, ValueError):
    """An input beyond the sizes the exact engine handles (the Monte Carlo has no such limit)."""


class RulesError(MathhammerError, ValueError):
    """An unknown ruleset, or a request the chosen ruleset does not support."""


class OptionError(MathhammerError, ValueError):
    """An invalid option of a computation rather than of a profile.

    For example ``rng``, ``trials``, ``phase``, a ``metric`` to plot, or a report's
    ``jobs`` and ``check_trials``.
    """


class InputFileError(MathhammerError, ValueError):
    """A problem in an input file, located as ``file:line: column 'x': problem``.

    When the problem is an invalid value, the error it caused lends its ``field``,
    ``constraint``, ``value`` and ``hint``.

    Attributes
    ----------
    file : str
        The file, as it was named.
    line : int or None
        The 1-based line (the header is line 1), or None for the file as a whole.
    column : str or None
        The column, or None when the problem is not in one column.
    """

    FIELDS = (*MathhammerError.FIELDS, "file", "line", "column")

    def __init__(
        self,
        message: str = "",
        *,
        file: str = "",
        line: int | None = None,
        column: str | None = None,
        **fields: Any,
    ) -> None:
        super().__init__(message, **fields)
        self.file = file
        self.line = line
        self.column = column

    @classmethod
    def at(
        cls: type[E],
        file: str,
        line: int | None,
        column: str | None,
        problem: str,
        cause: BaseException | None = None,
    ) -> E:
        """The error for ``problem`` at a place in a file (only the problem's first line).

        Examples
        --------
        >>> cause = field_error(ProfileError, "Weapon.strength", "an integer >= 1", 0)
        >>> error = CsvError.at("army.csv", 3, "S", str(cause), cause)
        >>> str(error)
        "army.csv:3: column 'S': Weapon.strength must be an integer >= 1; got 0"
        >>> error.line, error.column, error.field, error.value
        (3, 'S', 'Weapon.strength', 0)
        """
        where = shorten(file, MAX_LINE // 2) + (f":{line}" if line is not None else "") + ": "
        if column is not None:
            where += f"column {shown(column)}: "
        lines = problem.splitlines()
        inherited = cause.details if isinstance(cause, MathhammerError) else {}
        shared = {k: v for k, v in inherited.items() if k in MathhammerError.FIELDS}
        message = shorten(where + (lines[0] if lines else ""), MAX_LINE)
        return cls(  # type: ignore[call-arg]
            message, file=file, line=line, column=column, **shared
        )


class CsvError(InputFileError):
    """A problem in a CSV file, located as ``file:line: column 'x': problem``."""


class InputFileWarning(UserWarning):
    """Something in an input file that is read past rather than refused, such as a column
    the reader does not know; located like :class:`InputFileError`.

    Examples
    --------
    >>> warning = InputFileWarning("army.csv:1: column 'colour': not read", "army.csv", 1, "colour")
    >>> str(warning), warning.column
    ("army.csv:1: column 'colour': not read", 'colour')
    """

    def __init__(
        self, message: str, file: str = "", line: int | None = None, column: str | None = None
    ) -> None:
        super().__init__(message)
        self.file = file
        self.line = line
        self.column = column


#: The most characters of a value a message shows; a longer repr is cut short with "...".
MAX_SHOWN = 120
#: The most characters of one line of a message: a file's error names its place, the
#: problem and the value, and never runs to megabytes whatever the input held.
MAX_LINE = 1000


def shorten(text: str, limit: int = MAX_SHOWN) -> str:
    """The text on one line, at most ``limit`` characters: a longer one is cut short with
    ``" ..."``. For labels and names a message quotes, which a file may make any length.

    Examples
    --------
    >>> shorten("Bolt rifle x10")
    'Bolt rifle x10'
    >>> shorten(" + ".join(["Gun"] * 100), 20)
    'Gun + Gun + Gun ...'
    >>> shorten("two\\nlines")
    'two ...'
    """
    first, *more = text.splitlines() or [""]
    if len(first) <= limit and not more:
        return first
    return first[: max(limit - 4, 0)] + " ..."


def shown(value: object) -> str:
    """The value as a message shows it: its repr, on one line, at most :data:`MAX_SHOWN`
    characters (profiles have short reprs: ``Weapon('Bolt rifle', A2 BS3+ S4 AP-1 D=1)``).

    An integer too long for Python to write in digits (over 4,300 of them) is described
    by its size; a value whose repr fails is described by its type.

    Examples
    --------
    >>> shown("3+")
    "'3+'"
    >>> long = shown(list(range(100)))
    >>> len(long), long[-8:]
    (120, '0, 3 ...')
    >>> shown(-(10**5000))
    '-<an integer of 5001 digits>'
    """
    try:
        text = repr(value)
    except Exception:  # a message is built whatever the value: it must not raise itself
        if isinstance(value, int):
            sign = "-" if value < 0 else ""
            text = f"{sign}<an integer of {_digits(abs(value))} digits>"
        else:
            text = f"<{type(value).__name__} object>"
    return shorten(text)


def _digits(number: int) -> int:
    """The decimal digits of a non-negative int, without writing it out."""
    estimate = max(int(number.bit_length() * 0.30102999566398120), 1)
    return estimate + int(number >= 10**estimate)


def field_error(cls: type[E], field: str, constraint: str, value: object, hint: str = "") -> E:
    """Build an error in the house pattern ``"<field> must be <constraint>; got <value>"``.

    The parts are kept on the error as attributes of the same names; the message shows
    the value by :func:`shown`, so a long value never floods it.

    Examples
    --------
    >>> error = field_error(ProfileError, "toughness", "an integer >= 1", 0)
    >>> str(error)
    'toughness must be an integer >= 1; got 0'
    >>> str(field_error(OptionError, "jobs", "an integer >= 1", 0, "one per core at most"))
    'jobs must be an integer >= 1; got 0 (one per core at most)'
    """
    message = f"{shorten(field, MAX_LINE // 2)} must be {constraint}; got {shown(value)}"
    if hint:
        message += f" ({hint})"
    return cls(message, field=field, constraint=constraint, value=value, hint=hint)
