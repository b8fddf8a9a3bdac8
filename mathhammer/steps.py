"""The hit and wound steps: per-die outcome distributions -> the pool's joint distribution.

Each die of a step lands in one category (fail, success, critical). A per-die
*kernel* maps categories to what the die contributes to the next step, as a small
2-D pmf ``kernel[x, y]``:

* hit step: ``x`` = hits that roll to wound, ``y`` = automatic wounds;
* wound step: ``x`` = wounds that go to saves, ``y`` = wounds that skip the save.

Keeping critical results as their own category lets abilities change only the
mapping (a Critical Hit scoring extra hits, or wounding automatically) while the
pool arithmetic stays the same: the n-fold convolution of the kernel, mixed over a
random number of dice.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import ModuleType

import numpy as np
from scipy.signal import convolve2d

from .dist import Dist, FloatArray, binomial_table
from .profiles import Pool, Unit
from .rules.common import CRITICAL, FACES, FAIL, SUCCESS, Outcome

__all__ = [
    "PoolSteps",
    "attack_dice",
    "category_probabilities",
    "compound_kernel",
    "hit_and_wound",
    "kernel",
    "thin_by_kernel",
]


def category_probabilities(outcome: Callable[[np.ndarray], np.ndarray]) -> FloatArray:
    """P(fail), P(success), P(critical) of one D6, from a ruleset's check on every face.

    Examples
    --------
    >>> from mathhammer.rules import eleventh
    >>> (category_probabilities(lambda f: eleventh.hit_outcome(f, skill=3)) * 6).tolist()
    [2.0, 3.0, 1.0]
    """
    categories = np.asarray(outcome(np.asarray(FACES)))
    counts = np.bincount(categories, minlength=len(Outcome))
    return counts / len(FACES)


def kernel(probabilities: FloatArray, mapping: Mapping[Outcome, tuple[int, int]]) -> FloatArray:
    """The per-die kernel: ``kernel[x, y]`` sums the probabilities of categories mapped to (x, y).

    Examples
    --------
    >>> kernel(np.array([0.5, 0.25, 0.25]), {FAIL: (0, 0), SUCCESS: (1, 0), CRITICAL: (0, 1)})
    array([[0.5 , 0.25],
           [0.25, 0.  ]])
    """
    shape = (max(x for x, _ in mapping.values()) + 1, max(y for _, y in mapping.values()) + 1)
    out = np.zeros(shape)
    for category, (x, y) in mapping.items():
        out[x, y] += probabilities[category]
    return out


#: The plain mapping: a success or a critical counts once in the first coordinate.
PLAIN: Mapping[Outcome, tuple[int, int]] = {FAIL: (0, 0), SUCCESS: (1, 0), CRITICAL: (1, 0)}


def _is_bernoulli(k: FloatArray) -> bool:
    return k.shape == (2, 1)


def compound_kernel(count: Dist, k: FloatArray) -> FloatArray:
    """The joint distribution of the summed kernel over ``N ~ count`` independent dice."""
    if _is_bernoulli(k):
        return count.thin(float(k[1, 0])).pmf[:, None].copy()
    out = np.zeros((count.n * (k.shape[0] - 1) + 1, count.n * (k.shape[1] - 1) + 1))
    power = np.ones((1, 1))
    for n, weight in enumerate(count.pmf):
        if n:
            power = convolve2d(power, k)
        if weight:
            out[: power.shape[0], : power.shape[1]] += weight * power
    return out


def thin_by_kernel(joint: FloatArray, k: FloatArray) -> FloatArray:
    """Send each of the ``x`` items of ``joint[x, y]`` through the per-item kernel ``k``.

    The ``y`` items of the input join the first coordinate of the output unchanged
    (automatic wounds still go to saves). Returns ``out[x', y']``.
    """
    xmax, ymax = joint.shape[0] - 1, joint.shape[1] - 1
    if _is_bernoulli(k):
        # out[w + y] = sum_x joint[x, y] * B[x, w]
        thinned = binomial_table(xmax, float(k[1, 0])).T @ joint  # [w, y]
        return _antidiagonal_sums(thinned)[:, None]
    rows = xmax * (k.shape[0] - 1) + ymax + 1
    out = np.zeros((rows, xmax * (k.shape[1] - 1) + 1))
    power = np.ones((1, 1))
    for x in range(xmax + 1):
        if x:
            power = convolve2d(power, k)
        for y in np.flatnonzero(joint[x]):
            out[y : y + power.shape[0], : power.shape[1]] += joint[x, y] * power
    return out


def _antidiagonal_sums(m: FloatArray) -> FloatArray:
    """``out[k] = sum over i + j == k of m[i, j]``."""
    out = np.zeros(m.shape[0] + m.shape[1] - 1)
    for j in range(m.shape[1]):
        out[j : j + m.shape[0]] += m[:, j]
    return out


def attack_dice(pool: Pool) -> Dist:
    """The number of attack dice in a pool: each weapon rolls its own A, then all are pooled."""
    total = Dist.constant(0)
    for weapon, count in pool.weapons:
        total = total + weapon.attacks.dist.repeat(count)  # type: ignore[union-attr]
    return total


@dataclass(frozen=True)
class PoolSteps:
    """The hit and wound steps of one pool.

    Attributes
    ----------
    attacks, hits, wounds : Dist
        Attack dice rolled; successful hits (critical ones included); successful
        wounds (critical and automatic ones included).
    to_save : ndarray
        ``to_save[k, m]``: P(k attacks go to the save step and m wounds skip it).
    """

    attacks: Dist
    hits: Dist
    wounds: Dist
    to_save: FloatArray


def hit_and_wound(pool: Pool, target: Unit, ruleset: ModuleType) -> PoolSteps:
    """Resolve the hit and wound steps of a pool against a target."""
    weapon = pool.weapon
    attacks = attack_dice(pool)
    hit_probs = category_probabilities(lambda f: ruleset.hit_outcome(f, weapon.skill))
    hits_joint = compound_kernel(attacks, kernel(hit_probs, PLAIN))
    needed = ruleset.wound_needed(weapon.strength, target.toughness)
    wound_probs = category_probabilities(lambda f: ruleset.wound_outcome(f, needed))
    wounds_joint = thin_by_kernel(hits_joint, kernel(wound_probs, PLAIN))
    return PoolSteps(
        attacks=attacks,
        hits=Dist._trusted(_antidiagonal_sums(hits_joint)),
        wounds=Dist._trusted(_antidiagonal_sums(wounds_joint)),
        to_save=wounds_joint,
    )
