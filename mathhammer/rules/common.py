"""Outcome categories shared by every ruleset's roll checks."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Any

import numpy as np

from ..dice import Dice

__all__ = ["CRITICAL", "FACES", "FAIL", "SUCCESS", "Outcome", "PoolRules", "reroll_mask"]


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
class PoolRules:
    """Every threshold and switch of one pool against one target, abilities resolved.

    Both engines read these; neither shares the other's probability maths.
    """

    bonus_attacks: tuple[Dice, ...]
    torrent: bool
    skill: int
    hit_modifier: int
    critical_hit: int
    hit_fail_at_most: int
    reroll_hits: str | None
    sustained: Dice | None
    lethal: bool
    wound_needed: int
    wound_modifier: int
    critical_wound: int
    reroll_wounds: str | None
    devastating: bool
    ap: int
    damage: Dice
    damage_multiply: int
    damage_add: int
    melta: Dice | None
    precision_group: int | None
    hazardous: bool
    used: tuple[str, ...]
