"""Outcome categories shared by every ruleset's roll checks."""

from __future__ import annotations

from enum import IntEnum

__all__ = ["CRITICAL", "FAIL", "SUCCESS", "Outcome", "FACES"]


class Outcome(IntEnum):
    """The result of one hit or wound die."""

    FAIL = 0
    SUCCESS = 1
    #: A critical hit or critical wound; it is also a success.
    CRITICAL = 2


FAIL, SUCCESS, CRITICAL = Outcome.FAIL, Outcome.SUCCESS, Outcome.CRITICAL

#: The faces of a D6.
FACES = (1, 2, 3, 4, 5, 6)
