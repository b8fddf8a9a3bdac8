"""Internal: reading the entries of a JSON suite (the targets, the standard attackers).

A suite is a list of objects, each read field by field; an error in one names the entry
it came from (``"suite: targets[2] ('Elite infantry'): ..."``).

Examples
--------
>>> non_empty_list([], "suite: targets")
Traceback (most recent call last):
...
mathhammer.errors.ProfileError: suite: targets must be a non-empty list; got []
"""

from __future__ import annotations

import math
from collections.abc import Callable
from types import UnionType
from typing import Any, TypeVar

from ..errors import ProfileError, field_error

__all__ = ["an_object", "built", "check_instance", "is_int", "non_empty_list"]

T = TypeVar("T")


def is_int(value: Any, least: int, most: float = math.inf) -> bool:
    """True for an integer (not a bool) from ``least`` to ``most``."""
    return isinstance(value, int) and not isinstance(value, bool) and least <= value <= most


def check_instance(field: str, value: Any, kind: type | UnionType, what: str) -> None:
    """Refuse a ``value`` of ``field`` that is not an instance of ``kind`` (``what``, in words)."""
    if not isinstance(value, kind):
        raise field_error(ProfileError, field, what, value)


def an_object(value: Any, where: str) -> dict[str, Any]:
    """The entry ``value`` at ``where``, refused unless it is a JSON object (a dict)."""
    if not isinstance(value, dict):
        raise field_error(ProfileError, where, "an object", value)
    return value


def non_empty_list(value: Any, field: str) -> list[Any]:
    """The list ``value`` of ``field``, refused unless it is a list with an item."""
    if not isinstance(value, list) or not value:
        raise field_error(ProfileError, field, "a non-empty list", value)
    return value


def built(where: str, make: Callable[[], T]) -> T:
    """What ``make()`` builds from an entry, its errors located at ``where``.

    A :class:`~mathhammer.errors.ProfileError` is prefixed by ``where``; a ``TypeError``
    (a profile built from the entry's fields without a required one) becomes one.

    Examples
    --------
    >>> from mathhammer import ModelGroup
    >>> built("targets[0]", lambda: ModelGroup(count=5))
    Traceback (most recent call last):
    ...
    mathhammer.errors.ProfileError: targets[0]: ModelGroup.__init__() missing 3 required
    positional arguments: 'toughness', 'save', and 'wounds'
    """
    try:
        return make()
    except ProfileError as exc:
        raise exc.prefixed(where) from None
    except TypeError as exc:  # a required field missing
        raise ProfileError(f"{where}: {exc}") from None
