"""The attacker's re-roll of a damage roll made with the model's wounds in view.

With ``Modifiers(reroll_damage="optimal")`` each attack's damage roll is rolled again when
a new roll is expected to take more wounds from the current model than the roll made
(docs/rules.md D31). Both engines read the decision from :func:`damage_rerolls`: the exact
engine to weigh each model's wounds left, the Monte Carlo to re-roll real dice.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..core.binomial import binomial_table
from ..core.caches import register
from ..core.dice import Dice
from ..core.dist import Dist
from ..core.tables import RuleTable
from ..model.profiles import ModelGroup
from .base import FACE_ARRAY, FACES, Ruleset, failed_faces

__all__ = ["DAMAGE_REROLLS", "damage_rerolls", "wound_lost"]

#: What ``Modifiers.reroll_damage`` takes beside ``"ones"`` and ``"below:N"``.
DAMAGE_REROLLS = ("optimal",)


def wound_lost(group: ModelGroup, ruleset: Ruleset, mortal: bool = False) -> float:
    """P(a wound is lost): Feel No Pain prevents each wound with P(roll >= FNP).

    Read from a table of the ruleset's chances by FNP (2+ to 7+), filled as they are
    first asked for."""
    fnp = group.feel_no_pain(mortal)
    if fnp is None:
        return 1.0  # no Feel No Pain
    key = (ruleset, fnp)
    found = _LOST.get(key)
    if found is None:
        found = failed_faces(ruleset.fnp_saves(FACE_ARRAY, fnp)) / len(FACES)
        if 2 <= fnp <= 7:  # the characteristic's values
            _LOST.keep(key, found)
    return found


#: :func:`wound_lost` by ruleset and FNP (six values for a few rulesets).
_LOST: RuleTable[tuple[Ruleset, int], float] = RuleTable(max_items=1024, name="FNP chances")


def damage_rerolls(
    ruleset: Ruleset,
    damage: Dice,
    melta: Dice | None,
    multiply: int,
    add: int,
    group: ModelGroup,
    mortal: bool = False,
) -> np.ndarray:
    """``again[w, d, x]``: whether a damage roll of ``d`` (with [MELTA] ``x``) is rolled
    again against a model of ``group`` with ``w`` wounds left (``w = 0..W``).

    A roll's worth is the wounds it is expected to take from that model: its damage as
    the group takes it (the attacker's multiplier and additions, the defender's halving
    and reduction; for a devastating wound's mortal wounds only where ``reduce_mortal``),
    each wound kept past Feel No Pain with ``wound_lost``, and no more than ``w``. The roll
    is made again, once, when a new roll's expected worth (with the same ``x``) is larger.
    Cached.

    Examples
    --------
    >>> from mathhammer.rules import get_ruleset
    >>> again = damage_rerolls(get_ruleset("11e"), Dice.parse("D6"), None, 1, 0,
    ...                        ModelGroup(5, 4, 3, 3))
    >>> again[3, 1:, 0].tolist()  # against 3 wounds a new D6 is worth 2.5: re-roll 1 and 2
    [True, True, False, False, False, False]
    >>> bool(again[1, 1:, 0].any())  # against 1 wound every roll takes it
    False
    """
    return _damage_rerolls(ruleset, damage, melta, multiply, add, group, mortal)


@register
@lru_cache(maxsize=1024)
def _damage_rerolls(
    ruleset: Ruleset,
    damage: Dice,
    melta: Dice | None,
    multiply: int,
    add: int,
    group: ModelGroup,
    mortal: bool,
) -> np.ndarray:
    rolled = damage.dist.probabilities
    extra = melta.dist if melta is not None else Dist.constant(0)
    d = np.arange(len(rolled))[:, None]
    x = np.arange(extra.n + 1)[None, :]
    if mortal and not group.reduce_mortal:
        taken = ruleset.modified_damage(d, multiply, add + x)
    else:
        taken = ruleset.modified_damage(
            d, multiply, add + x, group.halve_damage, group.damage_reduction
        )
    taken = np.asarray(taken, dtype=np.int64)
    kept = binomial_table(int(taken.max()), wound_lost(group, ruleset, mortal))  # [n, k]
    capped = np.minimum(np.arange(kept.shape[1])[None, :], np.arange(group.wounds + 1)[:, None])
    per_amount = kept @ capped.T  # [n, w]: E[min(wounds kept of n, w)]
    worth = np.moveaxis(per_amount[taken], 2, 0)  # [w, d, x]
    fresh = np.einsum("d,wdx->wx", rolled, worth)
    again = np.asarray(worth < fresh[:, None, :] - 1e-12, dtype=bool)
    again.setflags(write=False)
    return again
