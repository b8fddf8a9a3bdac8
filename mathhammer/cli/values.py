"""The types of the command line's values: integers as typed, counts, seeds, leaders, and
the characteristics read by the one grammar of :mod:`mathhammer.model.values`. A value an
option cannot take raises :class:`argparse.ArgumentTypeError`: argparse prints it as a
usage error.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable
from typing import TypeVar

from ..errors import ProfileError

__all__ = ["count", "grammar", "integer", "jobs", "leader", "positive", "seed", "skill_text"]

T = TypeVar("T")


def grammar(parse: Callable[[str, str], T], flag: str) -> Callable[[str], T]:
    """An argparse type from a parser of :mod:`mathhammer.model.values`: the one grammar of
    characteristics that Python and the CSV files read too; its error is a usage error."""

    def read(text: str) -> T:
        try:
            return parse(text, flag)
        except ProfileError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    read.__name__ = flag.lstrip("-")  # argparse names the type in its messages
    return read


def skill_text(text: str) -> str:
    """--skill as typed: read by Weapon with the abilities (N/A needs [TORRENT]) and the
    ruleset (a classic BS is a characteristic), so it is checked when the weapon is built."""
    return text.strip()


#: An integer as typed: the digits 0-9 and an optional sign.
_INTEGER = re.compile(r"[+-]?[0-9]+")


def integer(text: str) -> int:
    """An integer written with the digits 0-9: Python's ``int`` also reads ``1_0``, ``٣``
    (an Arabic-Indic three) and ``３`` (a full-width three), which a value here never is."""
    digits = text.strip()
    if _INTEGER.fullmatch(digits) is None or len(digits) > _MAX_DIGITS:
        raise argparse.ArgumentTypeError(f"expected an integer; got {text!r}")
    return int(digits)


#: Digits an integer option may have: far more than any option takes, far fewer than the
#: 4,300 past which Python refuses to read a number.
_MAX_DIGITS = 100


def positive(text: str) -> int:
    value = integer(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected an integer >= 1; got {value}")
    return value


def jobs(text: str) -> int:
    from ..io.report import MAX_JOBS

    value = positive(text)
    if value > MAX_JOBS:
        raise argparse.ArgumentTypeError(f"expected an integer from 1 to {MAX_JOBS}; got {value}")
    return value


def seed(text: str) -> int:
    value = integer(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected an integer >= 0; got {value}")
    return value


def leader(text: str) -> tuple[str, str]:
    unit, sep, leader = text.partition("=")
    if not sep or not unit.strip() or not leader.strip():
        raise argparse.ArgumentTypeError(f"expected UNIT=LEADER; got {text!r}")
    return unit.strip(), leader.strip()


def count(text: str) -> int:
    value = 0 if text == "0" else positive(text)
    if value == 1:
        raise argparse.ArgumentTypeError("expected 0 (none) or at least 2 trials; got 1")
    return value
