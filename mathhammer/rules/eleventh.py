"""The 11th-edition attack sequence (seed 000) as literal, vectorised checks.

Every function takes natural die results (an int or a numpy array of ints) and
returns categories or booleans of the same shape, reading the rule's list of
conditions top to bottom and stopping at the first that matches.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .common import CRITICAL, FAIL, SUCCESS

__all__ = ["NAME", "fnp_outcome", "hit_outcome", "save_outcome", "wound_needed", "wound_outcome"]

NAME = "11e"
#: The natural roll that is a Critical Hit / Critical Wound unless a rule widens it.
CRITICAL_ROLL = 6


def hit_outcome(natural: Any, skill: int, modifier: int = 0, critical: int = CRITICAL_ROLL) -> Any:
    """Categorise hit rolls: FAIL, SUCCESS (a hit) or CRITICAL (a Critical Hit).

    First match: an unmodified 1 fails; an unmodified roll of ``critical`` or more
    (6 by default) is a Critical Hit; a modified result >= BS/WS hits; else it fails.
    A 5 modified to 6 is a hit, not a Critical Hit.

    Examples
    --------
    >>> hit_outcome(np.arange(1, 7), skill=3).tolist()
    [0, 0, 1, 1, 1, 2]
    >>> int(hit_outcome(5, skill=6, modifier=1))  # a hit, not a crit
    1
    """
    roll = np.asarray(natural)
    modifier = max(-1, min(1, modifier))  # the net hit-roll modifier is capped at +/-1
    out = np.where(roll + modifier >= skill, SUCCESS, FAIL)
    out = np.where(roll >= critical, CRITICAL, out)
    out = np.where(roll == 1, FAIL, out)
    return out


def wound_needed(strength: int, toughness: int) -> int:
    """The wound roll needed for S against T (the five-rung ladder).

    S >= 2T: 2+; S > T: 3+; S == T: 4+; 2S <= T: 6+; otherwise S < T: 5+. The 6+
    rung is checked before the 5+ rung, so S4 vs T8 is 6+ and S4 vs T7 is 5+.

    Examples
    --------
    >>> [wound_needed(8, 4), wound_needed(7, 4), wound_needed(4, 4), wound_needed(4, 7),
    ...  wound_needed(4, 8)]
    [2, 3, 4, 5, 6]
    """
    if strength >= 2 * toughness:
        return 2
    if strength > toughness:
        return 3
    if strength == toughness:
        return 4
    if 2 * strength <= toughness:
        return 6
    return 5


def wound_outcome(
    natural: Any, needed: int, modifier: int = 0, critical: int = CRITICAL_ROLL
) -> Any:
    """Categorise wound rolls: FAIL, SUCCESS (a wound) or CRITICAL (a Critical Wound).

    First match: a natural 1 fails whatever the modifiers; a natural ``critical``
    or more (6 by default) is a Critical Wound; a modified result >= the needed
    roll wounds; else it fails.

    Examples
    --------
    >>> wound_outcome(np.arange(1, 7), needed=5).tolist()
    [0, 0, 0, 0, 1, 2]
    """
    roll = np.asarray(natural)
    modifier = max(-1, min(1, modifier))  # the net wound-roll modifier is capped at +/-1
    out = np.where(roll + modifier >= needed, SUCCESS, FAIL)
    out = np.where(roll >= critical, CRITICAL, out)
    out = np.where(roll == 1, FAIL, out)
    return out


def save_outcome(natural: Any, ap: int, save: int, invuln: int | None = None) -> Any:
    """True where the save roll saves (the attack fails), False where it inflicts damage.

    First match: a natural 1 never saves; with an invulnerable save, a result >= InSv
    saves (AP never modifies it); the result modified by AP >= Sv saves; anything
    else inflicts damage. There is no "6 always saves": a Sv7 (no save) model hit at
    AP -1 fails on every die.

    Examples
    --------
    >>> save_outcome(np.arange(1, 7), ap=-1, save=3).tolist()  # a 3+ save needs a natural 4
    [False, False, False, True, True, True]
    >>> save_outcome(np.arange(1, 7), ap=-3, save=2, invuln=4).tolist()
    [False, False, False, True, True, True]
    """
    roll = np.asarray(natural)
    saved = roll + ap >= save
    if invuln is not None:
        saved = saved | (roll >= invuln)
    return saved & (roll != 1)


def fnp_outcome(natural: Any, fnp: int) -> Any:
    """True where a Feel No Pain roll prevents the wound: a result >= FNP.

    Examples
    --------
    >>> fnp_outcome(np.arange(1, 7), fnp=5).tolist()
    [False, False, False, False, True, True]
    """
    return np.asarray(natural) >= fnp
