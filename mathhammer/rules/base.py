"""What every ruleset gives both engines: outcome categories, roll checks, pool rules."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import IntEnum
from typing import Any

import numpy as np

from ..core.dice import Dice

__all__ = [
    "CRITICAL",
    "FACES",
    "FAIL",
    "SUCCESS",
    "Outcome",
    "PoolRules",
    "RollCheck",
    "reroll_mask",
]


class Outcome(IntEnum):
    """The result of one hit or wound die."""

    FAIL = 0
    SUCCESS = 1
    #: A critical hit or critical wound; it is also a success.
    CRITICAL = 2


FAIL, SUCCESS, CRITICAL = Outcome.FAIL, Outcome.SUCCESS, Outcome.CRITICAL

#: The faces of a D6.
FACES = (1, 2, 3, 4, 5, 6)


def reroll_mask(natural: Any, categories: Any, policy: str | None) -> Any:
    """Which dice a re-roll policy re-rolls: ``"ones"`` (natural 1s), ``"failures"``
    (failed results) or ``"non_critical"`` (every result that is not critical).

    Examples
    --------
    >>> faces = np.arange(1, 7)
    >>> cats = np.array([0, 0, 1, 1, 1, 2])
    >>> reroll_mask(faces, cats, "failures").tolist()
    [True, True, False, False, False, False]
    >>> reroll_mask(faces, cats, "non_critical").tolist()
    [True, True, True, True, True, False]
    """
    natural, categories = np.asarray(natural), np.asarray(categories)
    if policy is None:
        return np.zeros(categories.shape, dtype=bool)
    if policy == "ones":
        return natural == 1
    if policy == "failures":
        return categories == FAIL
    if policy == "non_critical":
        return categories != CRITICAL
    raise ValueError(f"unknown re-roll policy {policy!r}")


@dataclass(frozen=True)
class RollCheck:
    """How one die of a step is read: the literal check of a roll, and any re-roll.

    ``first(faces)`` categorises natural results; ``reroll(faces, categories)`` selects
    the dice rolled again (at most once); ``second(faces)`` categorises the re-rolls
    (the same check as the first roll unless a rule says otherwise). Every function
    takes numpy arrays of natural results, so the exact engine applies them to the six
    faces and the Monte Carlo to the dice it rolls.
    """

    first: Callable[[np.ndarray], np.ndarray]
    reroll: Callable[[np.ndarray, np.ndarray], np.ndarray] | None = None
    second: Callable[[np.ndarray], np.ndarray] | None = None

    def again(self, faces: np.ndarray) -> np.ndarray:
        """The categories of re-rolled dice."""
        return (self.second or self.first)(faces)


@dataclass(frozen=True)
class PoolRules:
    """Every check and switch of one pool against one target, abilities resolved.

    A ruleset builds these; both engines read them, and neither shares the other's
    probability maths. ``hit`` is None when every attack hits automatically
    ([TORRENT]); ``saves(faces, group)`` tells which natural save rolls save for a
    model of ``group``.
    """

    bonus_attacks: tuple[Dice, ...]
    hit: RollCheck | None
    sustained: Dice | None
    lethal: bool
    wound: RollCheck
    saves: Callable[[np.ndarray, Any], np.ndarray]
    devastating: bool
    ap: int
    damage: Dice
    damage_multiply: int
    damage_add: int
    melta: Dice | None
    precision_group: int | None
    hazardous: bool
    used: tuple[str, ...]
