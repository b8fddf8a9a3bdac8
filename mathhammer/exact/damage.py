"""What one unsaved attack, and one devastating wound, take from a model of each group.

The attacker's Damage (set, multiplied, added to, [MELTA] X) meets the defender's
modifiers (halving, reduction) and Feel No Pain, which thins the wounds lost. Both the
engine and its cost estimates (:mod:`mathhammer.exact.budget`) read these.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..core.caches import register
from ..core.dice import Dice
from ..core.dist import Dist
from ..model.profiles import ModelGroup, Unit
from ..rules.base import FACES, PoolChecks, Ruleset

__all__ = ["group_damage", "wound_lost"]


def wound_lost(group: ModelGroup, ruleset: Ruleset, mortal: bool = False) -> float:
    """P(a wound is lost): Feel No Pain prevents each wound with P(roll >= FNP)."""
    fnp = group.feel_no_pain(mortal)
    if fnp is None:
        return 1.0
    return float(np.mean(~ruleset.fnp_saves(np.asarray(FACES), fnp)))


def group_damage(
    checks: PoolChecks, target: Unit, ruleset: Ruleset
) -> tuple[tuple[Dist, ...], tuple[Dist, ...]]:
    """Per group: wounds lost to one unsaved attack, and to one devastating wound.

    Made once per damage profile and target's groups (cached).

    The Damage characteristic is set, multiplied and added to by the attacker ([MELTA]
    adds), then halved and reduced by the defender (fractions round up, minimum 1);
    Feel No Pain is rolled for every wound, so the wounds lost are a binomial thinning.
    A devastating wound deals mortal wounds equal to the attacker's D: the defender's
    halving and reduction apply to attacks' damage, not to mortal wounds (docs/rules.md D9),
    unless the group's rule says so (``reduce_mortal``).
    """
    key = (checks.damage, checks.melta, checks.damage_multiply, checks.damage_add)
    return _group_damage(*key, target.groups, ruleset)


@register
@lru_cache(maxsize=4096)
def _group_damage(
    damage: Dice,
    melta: Dice | None,
    damage_multiply: int,
    damage_add: int,
    groups: tuple[ModelGroup, ...],
    ruleset: Ruleset,
) -> tuple[tuple[Dist, ...], tuple[Dist, ...]]:
    # every (rolled D, rolled MELTA X) pair, with its probability
    d_values = np.arange(damage.dist.n + 1)
    extra = melta.dist if melta is not None else Dist.constant(0)
    x_values = np.arange(extra.n + 1)
    weights = np.outer(damage.dist.probabilities, extra.probabilities).ravel()
    d, x = np.repeat(d_values, len(x_values)), np.tile(x_values, len(d_values))
    add = damage_add + x
    mortal = ruleset.modified_damage(d, damage_multiply, add)
    attacks, mortals = [], []
    for g in groups:
        value = ruleset.modified_damage(d, damage_multiply, add, g.halve_damage, g.damage_reduction)
        attacks.append(_pmf_of(value, weights).thin(wound_lost(g, ruleset)))
        amount = value if g.reduce_mortal else mortal
        mortals.append(_pmf_of(amount, weights).thin(wound_lost(g, ruleset, mortal=True)))
    return tuple(attacks), tuple(mortals)


def _pmf_of(values: np.ndarray, weights: np.ndarray) -> Dist:
    return Dist._trusted(np.bincount(values, weights=weights).astype(np.float64))
