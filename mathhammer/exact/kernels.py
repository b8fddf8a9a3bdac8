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

Two kernels are common enough, and costly enough as convolutions, to have their own
paths: a Bernoulli kernel (a die succeeds or not) is a binomial thinning, and a
*split* kernel ([LETHAL HITS], [DEVASTATING WOUNDS]: a critical die is worth a fixed
``(a, 1)``, any other die 0 or 1 in ``x``) is a multinomial, computed as one matrix
product: of ``n`` dice, ``c`` critical ~ Binomial(n, p_crit) and of the rest ``s``
successful ~ Binomial(n - c, p_success / (1 - p_crit)).

:mod:`~mathhammer.exact.steps` resolves a pool from one die's kernels; the pool-level
convolutions here (:func:`compound_kernel`, :func:`thin_by_kernel`) are the reference its
tests compare with, and the path of the one case without a closed form ([LETHAL HITS]
with [SUSTAINED HITS] and [DEVASTATING WOUNDS]).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ..core.binomial import FloatArray, binomial_table, binomial_thin
from ..core.convolution import convolve2d
from ..core.dist import Dist
from ..rules.base import Outcome, RollCheck
from .compound import skew

__all__ = [
    "antidiagonal_sums",
    "as_pmf2",
    "category_probabilities",
    "compound_kernel",
    "kernel",
    "shifted",
    "split_compound",
    "split_kernel",
    "thin_by_kernel",
    "thin_general",
    "thinned_shape",
]


def category_probabilities(check: RollCheck) -> FloatArray:
    """P(fail), P(success), P(critical) of one D6 read by a ruleset's check.

    The check is applied to every face; dice its re-roll selects are rolled once
    more and the re-roll's result stands (a die is re-rolled at most once).

    Examples
    --------
    >>> from mathhammer.rules import eleventh
    >>> from mathhammer.rules.base import RollCheck, reroll_mask
    >>> bs3 = lambda f: eleventh.hit_outcome(f, skill=3)
    >>> (category_probabilities(RollCheck(bs3)) * 6).tolist()
    [2.0, 3.0, 1.0]
    >>> ones = RollCheck(bs3, reroll=lambda f, c: reroll_mask(f, c, "ones"))
    >>> (category_probabilities(ones) * 36).round(6).tolist()  # a 1 is re-rolled
    [8.0, 21.0, 7.0]
    """
    return check.probabilities()


def kernel(
    probabilities: FloatArray, mapping: Mapping[Outcome, FloatArray | tuple[int, int]]
) -> FloatArray:
    """The per-die kernel: the mixture over categories of what each category contributes.

    ``mapping[c]`` is a small 2-D pmf (or an ``(x, y)`` pair for a certain outcome).

    Examples
    --------
    >>> from mathhammer.rules.base import CRITICAL, FAIL, SUCCESS
    >>> kernel(np.array([0.5, 0.25, 0.25]), {FAIL: (0, 0), SUCCESS: (1, 0), CRITICAL: (0, 1)})
    array([[0.5 , 0.25],
           [0.25, 0.  ]])
    """
    parts = {c: as_pmf2(v) for c, v in mapping.items()}
    rows, cols = zip(*(p.shape for p in parts.values()), strict=True)
    out = np.zeros((max(rows), max(cols)))
    for category, pmf in parts.items():
        out[: pmf.shape[0], : pmf.shape[1]] += probabilities[category] * pmf
    return out


def as_pmf2(value: FloatArray | tuple[int, int]) -> FloatArray:
    if isinstance(value, tuple):
        out = np.zeros((value[0] + 1, value[1] + 1))
        out[value] = 1.0
        return out
    return np.asarray(value, dtype=np.float64)


def shifted(extra: Dist, base: int, axis_y: int) -> FloatArray:
    """The 2-D pmf of (base + extra, axis_y)."""
    out = np.zeros((base + extra.n + 1, axis_y + 1))
    out[base:, axis_y] = extra.probabilities
    return out


def _is_bernoulli(k: FloatArray) -> bool:
    return k.shape == (2, 1)


def split_kernel(k: FloatArray) -> tuple[float, float, float, int] | None:
    """``(p_fail, p_success, p_critical, a)`` when ``k`` is a split kernel, else None.

    A split kernel puts a die at ``(0, 0)`` (fail), ``(1, 0)`` (success) or ``(a, 1)``
    (critical): the kernel of [LETHAL HITS] with a fixed number of [SUSTAINED HITS], and
    of [DEVASTATING WOUNDS].

    Examples
    --------
    >>> split_kernel(np.array([[0.5, 0.0], [0.25, 0.0], [0.0, 0.25]]))
    (0.5, 0.25, 0.25, 2)
    >>> split_kernel(np.array([[0.5, 0.25], [0.25, 0.0]]))  # [DEVASTATING WOUNDS]
    (0.5, 0.25, 0.25, 0)
    >>> split_kernel(np.array([[0.5], [0.5]])) is None
    True
    """
    if k.ndim != 2 or k.shape[1] != 2 or np.any(k[2:, 0]) or abs(float(k.sum()) - 1.0) > 1e-12:
        return None
    critical = np.flatnonzero(k[:, 1])
    if len(critical) != 1:
        return None
    a = int(critical[0])
    success = float(k[1, 0]) if k.shape[0] > 1 else 0.0
    return float(k[0, 0]), success, float(k[a, 1]), a


def split_compound(weights: FloatArray, split: tuple[float, float, float, int]) -> FloatArray:
    """The joint pmf ``out[s + a c, c]`` of ``N ~ weights`` dice through a split kernel.

    ``A[c, s] = sum_n weights[n] P(c critical of n) P(s successes of the n - c others)`` is
    the product ``W @ B`` of ``W[c, m] = weights[m + c] P(c critical of m + c)`` and the
    binomial table ``B[m, s]``: one matrix product instead of ``N`` 2-D convolutions.
    """
    _, success, critical, a = split
    nmax = len(weights) - 1
    crit_table = binomial_table(nmax, critical)  # [n, c]
    rest = 1.0 - critical
    kept = binomial_table(nmax, success / rest if rest > 0 else 0.0)  # [m, s]
    w = np.zeros((nmax + 1, nmax + 1))  # w[c, m]: c critical, m other dice
    for c in range(nmax + 1):
        w[c, : nmax + 1 - c] = weights[c:] * crit_table[c:, c]
    del crit_table  # the tables are n² each: hold no more than three at once
    joint = w @ kept  # [c, s]
    del w
    out = np.zeros((nmax * max(a, 1) + 1, nmax + 1))
    for c in range(nmax + 1):
        out[a * c : a * c + nmax + 1 - c, c] = joint[c, : nmax + 1 - c]
    return out


def compound_kernel(count: Dist, k: FloatArray) -> FloatArray:
    """The joint distribution of the summed kernel over ``N ~ count`` independent dice."""
    if _is_bernoulli(k):
        return count.thin(float(k[1, 0])).probabilities[:, None].copy()
    split = split_kernel(k)
    if split is not None:
        return _compound_split(count, k, split)
    return _compound_powers(count, k)


def _compound_split(
    count: Dist, k: FloatArray, split: tuple[float, float, float, int]
) -> FloatArray:
    """:func:`compound_kernel` of a split kernel (:func:`split_compound`), with the rows of
    the kernel's summed shape."""
    part = split_compound(count.probabilities, split)
    rows = count.n * (k.shape[0] - 1) + 1
    if part.shape[0] == rows:
        return part
    out = np.zeros((rows, count.n + 1))
    out[: min(rows, part.shape[0])] = part[:rows]
    return out


def _compound_powers(count: Dist, k: FloatArray) -> FloatArray:
    """:func:`compound_kernel` by the powers of ``k``: ``sum_n P(N = n) k^n``."""
    out = np.zeros((count.n * (k.shape[0] - 1) + 1, count.n * (k.shape[1] - 1) + 1))
    power = np.ones((1, 1))
    for n, weight in enumerate(count.probabilities):
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
        thinned = binomial_thin(joint, float(k[1, 0]))  # [w, y]
        return antidiagonal_sums(thinned)[:, None]
    rows = xmax * (k.shape[0] - 1) + ymax + 1
    out = np.zeros((rows, xmax * (k.shape[1] - 1) + 1))
    split = split_kernel(k)
    if split is not None:
        for y in np.flatnonzero(joint.any(axis=0)):
            top = int(np.flatnonzero(joint[:, y])[-1])  # dice beyond it have no mass
            part = split_compound(joint[: top + 1, y], split)
            out[y : y + part.shape[0], : part.shape[1]] += part
        return out
    return thin_general(joint, k, out)


def thin_general(joint: FloatArray, k: FloatArray, out: FloatArray) -> FloatArray:
    """:func:`thin_by_kernel` by the powers of ``k``: ``out[y:, :] += joint[x, y] k^x``."""
    power = np.ones((1, 1))
    for x in range(joint.shape[0]):
        if x:
            power = convolve2d(power, k)
        for y in np.flatnonzero(joint[x]):
            out[y : y + power.shape[0], : power.shape[1]] += joint[x, y] * power
    return out


def antidiagonal_sums(m: FloatArray) -> FloatArray:
    """``out[k] = sum over i + j == k of m[i, j]``."""
    if m.shape[1] > 8:  # many columns: one sum over the skewed table
        return np.asarray(skew(m).sum(axis=0), dtype=np.float64)
    out = np.zeros(m.shape[0] + m.shape[1] - 1)
    for j in range(m.shape[1]):
        out[j : j + m.shape[0]] += m[:, j]
    return out


def thinned_shape(joint: tuple[int, ...], k: tuple[int, ...]) -> tuple[int, int]:
    """The shape of :func:`thin_by_kernel` of a ``joint`` through ``k``."""
    return (joint[0] - 1) * (k[0] - 1) + joint[1], (joint[0] - 1) * (k[1] - 1) + 1
