"""A choice of the page's or a cell's controls, checked: one line naming what it must be.

Examples
--------
>>> among("hit", 1, [-1, 0, 1])
>>> among("hit", True, [-1, 0, 1])  # a flag is not a modifier, though True == 1
Traceback (most recent call last):
...
mathhammer.errors.OptionError: hit must be one of -1, 0, 1; got True
"""

from __future__ import annotations

from typing import Any

from ..errors import OptionError, field_error

__all__ = ["among"]


def among(field: str, value: object, allowed: list[Any], what: str = "") -> None:
    """Refuse ``value`` unless it is one of ``allowed`` (a bool only where a bool is): one
    :class:`~mathhammer.errors.OptionError` naming ``field`` and ``what`` it must be (by
    default, one of the values allowed)."""
    if value not in allowed or type(value) not in {type(a) for a in allowed}:
        wanted = what or "one of " + ", ".join(map(repr, allowed))
        raise field_error(OptionError, field, wanted, value)
