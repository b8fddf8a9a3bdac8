"""The error hierarchy.

Every error mathhammer raises for bad input derives from :class:`MathhammerError`
and from the builtin a caller would naturally catch (``ValueError``), so both
``except mathhammer.MathhammerError`` and ``except ValueError`` work.

Messages follow one pattern: ``"<field> must be <constraint>; got <value>"``,
followed by a hint where one exists.
"""

from __future__ import annotations

__all__ = [
    "AllocationOrderError",
    "DiceSyntaxError",
    "DistributionError",
    "LimitError",
    "MathhammerError",
    "ProfileError",
    "RulesError",
    "field_error",
]


class MathhammerError(Exception):
    """Base class of every error raised by mathhammer."""


class ProfileError(MathhammerError, ValueError):
    """An invalid weapon, model group or unit characteristic."""


class AllocationOrderError(ProfileError):
    """A unit's allocation groups are in an order the rules forbid."""


class DiceSyntaxError(MathhammerError, ValueError):
    """A dice expression such as ``"2D6+1"`` could not be read.

    Attributes
    ----------
    text : str
        The text that was being read.
    position : int
        The 0-based index of the first character that could not be read.
    """

    def __init__(self, text: str, position: int, reason: str) -> None:
        self.text = text
        self.position = position
        pointer = " " * position + "^"
        super().__init__(
            f"cannot read dice expression {text!r} at position {position}: {reason}\n"
            f"  {text}\n  {pointer}\n"
            "expected an integer or [N]D<sides>[+M], e.g. '3', 'D6', '2D6', 'D3+3'"
        )


class DistributionError(MathhammerError, ValueError):
    """An invalid probability distribution or distribution argument."""


class LimitError(MathhammerError, ValueError):
    """An input beyond the sizes the exact engine handles (the Monte Carlo has no such limit)."""


class RulesError(MathhammerError, ValueError):
    """An unknown ruleset, or a request the chosen ruleset does not support."""


def field_error(
    cls: type[MathhammerError], field: str, constraint: str, value: object, hint: str = ""
) -> MathhammerError:
    """Build an error in the house pattern ``"<field> must be <constraint>; got <value>"``.

    Examples
    --------
    >>> str(field_error(ProfileError, "toughness", "an integer >= 1", 0))
    'toughness must be an integer >= 1; got 0'
    """
    message = f"{field} must be {constraint}; got {value!r}"
    if hint:
        message += f" ({hint})"
    return cls(message)
