"""The hit and wound steps: a pool's attack dice, hits and the wounds sent to the saves.

Every attack die of a pool is resolved on its own, with the same odds, so the pool's
distributions are one die's outcome summed over its dice. One die's outcome comes from
the per-die kernels of :mod:`~mathhammer.exact.kernels` (its hit kernel, then each hit
through the wound kernel), and :mod:`~mathhammer.exact.compound` sums it over the pool:
binomial thinning, repeated squaring, Horner's scheme over a random number of dice, and
the multinomial closed form of [DEVASTATING WOUNDS]; no joint table of the pool's hits is
built on the way, except for [LETHAL HITS] with [SUSTAINED HITS] and [DEVASTATING WOUNDS].

Results are cached by value, in bounded caches: the kernels by the checks' functions and
arguments (rulesets build them from :func:`functools.partial` of module functions), the
attack dice by the weapons' A, one die's outcome by its kernels, and a pool's stages by
its attack dice and kernels. Every cached array is read-only.

A *plain* pool, whose hit and wound rolls only succeed or fail (:func:`plain_stages`),
needs none of it: each die wounds with one chance, so its wounds (and, with the save's
chance, its failed saves) are a binomial thinning of its attack dice, made weapon by
weapon (:func:`thinned_dice`); its hits and wounds are computed only when read.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import Any

import numpy as np

from ..core.binomial import FloatArray, binomial_row, binomial_table, binomial_thin
from ..core.caches import register
from ..core.dice import Dice
from ..core.dist import Dist
from ..core.frozen import fast_init
from ..core.lru import SizedCache
from ..core.tuning import STAGES_CACHED
from ..model.pools import Pool
from ..rules.base import CRITICAL, FAIL, SUCCESS, Outcome, PoolChecks, RollCheck
from .command import CommandPieces, command_series, thin_with_command
from .compound import by_total, compound, power, skew, split_successes
from .kernels import (
    antidiagonal_sums,
    as_pmf2,
    category_probabilities,
    compound_kernel,
    kernel,
    shifted,
    split_compound,
    split_kernel,
    thin_by_kernel,
    thin_general,
    thinned_shape,
)

# the kernels and their convolutions were first defined here
__all__ = [
    "STAGES_CACHED",
    "PoolSteps",
    "attack_dice",
    "category_probabilities",
    "compound_kernel",
    "hit_and_wound",
    "hit_kernel",
    "kernel",
    "PlainSteps",
    "plain_stages",
    "thinned_dice",
    "fixed_dice",
    "split_compound",
    "split_kernel",
    "thin_by_kernel",
    "wound_kernel",
]


# --------------------------------------------------------------------------- caches
_KERNELS: SizedCache[Any, FloatArray] = register(
    SizedCache(100_000, max_items=4096, name="hit and wound kernels")
)
_DICE: SizedCache[Any, tuple[FloatArray, FloatArray]] = register(
    SizedCache(100_000, max_items=4096, name="one die's hits and wounds")
)
_STAGES: SizedCache[Any, PoolSteps] = register(
    SizedCache(8_000_000, max_items=1024, name="pool stages")
)


def _check_key(check: RollCheck | None) -> Any:
    return None if check is None else check.key


def _cached_kernel(key: Any, build: Callable[[], FloatArray]) -> FloatArray:
    try:
        found = _KERNELS.get(key)
    except TypeError:  # a check bound to an unhashable argument: not cached
        return build()
    if found is None:
        found = build()
        found.setflags(write=False)
        _KERNELS.put(key, found, found.size)
    return found


# --------------------------------------------------------------------------- the pool
def attack_dice(pool: Pool, rules: PoolChecks) -> Dist:
    """The number of attack dice in a pool: each weapon rolls its own A (plus any bonus
    attacks from [BLAST], [CLEAVE] or [RAPID FIRE]), then all are pooled.

    Examples
    --------
    >>> from mathhammer import Weapon
    >>> from mathhammer.rules.base import PoolChecks
    >>> pool = Pool(((Weapon("Gun", "D3", 3, 4), 2),))
    >>> checks = PoolChecks(None, RollCheck(abs), abs, Dice(1), bonus_attacks=(Dice(1),))
    >>> (attack_dice(pool, checks).probabilities * 9).round(12).tolist()  # 2 x (D3 + 1)
    [0.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 2.0, 1.0]
    """
    return _attack_dice(rules.pool_dice(pool), rules.bonus_attacks)


@register
@lru_cache(maxsize=1024)
def _attack_dice(weapons: tuple[tuple[Dice, int], ...], bonus: tuple[Dice, ...]) -> Dist:
    return Dist._trusted(_thinned_dice(weapons, bonus, 1.0))  # every die kept


def hit_kernel(rules: PoolChecks) -> FloatArray:
    """Per attack die: ``kernel[x, y]`` with x hits that roll to wound, y automatic wounds.

    [TORRENT] hits automatically and never critically. A Critical Hit scores the
    [SUSTAINED HITS] extra hits (never critical themselves) and, with [LETHAL HITS],
    wounds automatically instead of rolling. Cached by value; read-only.
    """
    key = ("hit", _check_key(rules.hit), rules.sustained, rules.lethal)
    return _cached_kernel(key, partial(_hit_kernel, rules))


def _hit_kernel(rules: PoolChecks) -> FloatArray:
    if rules.hit is None:
        return as_pmf2((1, 0))
    return kernel(category_probabilities(rules.hit), _hit_mapping(rules))


def _hit_mapping(rules: PoolChecks) -> dict[Outcome, FloatArray | tuple[int, int]]:
    """What a failed, a successful and a critical hit roll give: ``(x, y)``."""
    extra = rules.sustained.dist if rules.sustained is not None else Dist.constant(0)
    critical = shifted(extra, 0, 1) if rules.lethal else shifted(extra, 1, 0)
    return {FAIL: (0, 0), SUCCESS: (1, 0), CRITICAL: critical}


def wound_kernel(rules: PoolChecks) -> FloatArray:
    """Per hit: ``kernel[x, y]`` with x wounds that go to saves, y devastating wounds.

    Cached by value; read-only."""
    key = ("wound", _check_key(rules.wound), rules.devastating)
    return _cached_kernel(key, partial(_wound_kernel, rules))


def _wound_kernel(rules: PoolChecks) -> FloatArray:
    return kernel(category_probabilities(rules.wound), _wound_mapping(rules))


def _wound_mapping(rules: PoolChecks) -> dict[Outcome, FloatArray | tuple[int, int]]:
    """What a failed, a successful and a critical wound roll give: ``(k, m)``."""
    return {FAIL: (0, 0), SUCCESS: (1, 0), CRITICAL: (0, 1) if rules.devastating else (1, 0)}


@dataclass(frozen=True)
class PoolSteps:
    """The hit and wound steps of one pool.

    Attributes
    ----------
    attacks, hits, wounds : Dist
        Attack dice rolled; successful hits (critical and extra hits included);
        successful wounds (critical, devastating and automatic wounds included).
    to_save : ndarray
        ``to_save[k, m]``: P(k attacks go to the save step and m are devastating wounds).
        Read-only.
    die : ndarray, optional
        One attack die's ``to_save[k, m]`` (the pool's is its sum over the attack dice).
        Read-only.
    """

    attacks: Dist
    hits: Dist
    wounds: Dist
    to_save: FloatArray
    die: FloatArray | None = None


def hit_and_wound(
    pool: Pool, rules: PoolChecks, kernels: tuple[FloatArray, FloatArray] | None = None
) -> PoolSteps:
    """Resolve the hit and wound steps of a pool (``kernels``: its hit and wound kernels,
    when they are known already).

    Cached by the pool's attack dice and its kernels (values, not objects).

    Examples
    --------
    >>> from mathhammer import Weapon, Unit
    >>> from mathhammer.rules import get_ruleset
    >>> from mathhammer.model.context import Context, Modifiers
    >>> gun = Weapon("Gun", 1, 3, 4, abilities="[DEVASTATING WOUNDS]")
    >>> checks = get_ruleset("11e").pool_checks(gun, Unit.of("T", 1, 4, 3, 1), Context(),
    ...                                         Modifiers())
    >>> steps = hit_and_wound(Pool(((gun, 2),)), checks)
    >>> round(steps.hits.mean(), 12), round(steps.wounds.mean(), 12)  # 2 x 2/3, x 1/2
    (1.333333333333, 0.666666666667)
    >>> round(float(steps.to_save[0, 1]), 12)  # one devastating wound: 2 x 1/9 x 2/3
    0.148148148148
    """
    hit, wound = (hit_kernel(rules), wound_kernel(rules)) if kernels is None else kernels
    weapons = rules.pool_dice(pool)
    kernel_key = (hit.shape, hit.tobytes(), wound.shape, wound.tobytes())
    key = (weapons, rules.bonus_attacks, kernel_key, _command_key(rules))
    found = _STAGES.get(key)
    if found is not None:
        return found
    attacks = _attack_dice(weapons, rules.bonus_attacks)
    if _command_key(rules) is None:
        steps = _resolve(attacks, hit, wound, kernel_key)
    else:
        steps = _resolve_command(attacks, rules, hit, wound)
    size = steps.to_save.size + steps.hits.n + steps.wounds.n
    if size <= STAGES_CACHED:
        _STAGES.put(key, steps, size)
    return steps


@fast_init
@dataclass(frozen=True)
class PlainSteps:
    """The stages of a plain pool (:func:`plain_stages`).

    Attributes
    ----------
    attacks, hits, wounds : Dist
        As :class:`PoolSteps`'; computed when first read (a result reports them; the
        chain needs only ``wound``).
    wound : float
        P(one attack die wounds): it hits, then wounds.
    """

    attacks: Dist
    hits: Dist
    wounds: Dist
    wound: float


def plain_stages(pool: Pool, rules: PoolChecks) -> PlainSteps | None:
    """The stages of a *plain* pool, whose hit and wound rolls each succeed or fail (a
    critical roll is a success and nothing more: no [SUSTAINED HITS], [LETHAL HITS] or
    [DEVASTATING WOUNDS], no command re-roll of either roll); None for any other pool.

    Each attack die of a plain pool hits with probability ``h`` and wounds with ``h w``:
    the hits and the wounds are binomial thinnings of the attack dice
    (:func:`thinned_dice`), computed without the kernels, their caches and their
    convolutions, and only when read (:func:`hit_and_wound` gives the same stages for
    any pool; ``tests/test_plain_stages.py`` compares the two).

    Examples
    --------
    >>> from mathhammer import Weapon, Unit
    >>> from mathhammer.rules import get_ruleset
    >>> from mathhammer.model.context import Context, Modifiers
    >>> gun = Weapon("Gun", 2, 3, 4)
    >>> checks = get_ruleset("11e").pool_checks(gun, Unit.of("T", 1, 4, 3, 1), Context(),
    ...                                         Modifiers())
    >>> steps = plain_stages(Pool(((gun, 3),)), checks)
    >>> round(steps.hits.mean(), 12), round(steps.wounds.mean(), 12), round(steps.wound, 12)
    (4.0, 2.0, 0.333333333333)
    """
    command = rules.reroll_one
    if rules.sustained is not None or rules.lethal or rules.devastating:
        return None
    if command is not None and command.step != "damage":
        return None
    p_hit = 1.0 if rules.hit is None else rules.hit.success()
    p_wound = p_hit * rules.wound.success()
    weapons = rules.pool_dice(pool)
    bonus = rules.bonus_attacks
    return PlainSteps(
        attacks=Dist._lazy(partial(_attack_pmf, weapons, bonus)),
        hits=Dist._lazy(partial(_thinned_dice, weapons, bonus, p_hit)),
        wounds=Dist._lazy(partial(_thinned_dice, weapons, bonus, p_wound)),
        wound=p_wound,
    )


def _attack_pmf(weapons: tuple[tuple[Dice, int], ...], bonus: tuple[Dice, ...]) -> FloatArray:
    return _attack_dice(weapons, bonus).probabilities


def thinned_dice(pool: Pool, rules: PoolChecks, p: float) -> FloatArray:
    """The pmf of a pool's attack dice that succeed, each with probability ``p``.

    Thinning commutes with summing: each weapon's attack dice are thinned (a table of as
    many rows as one weapon rolls dice), then summed over its copies by repeated
    squaring, rather than thinning the pool's whole count (a table of its size squared).
    A fixed number of dice is one binomial row.

    Examples
    --------
    >>> from mathhammer import Weapon
    >>> from mathhammer.rules.base import PoolChecks
    >>> checks = PoolChecks(None, RollCheck(abs), abs, Dice(1))
    >>> (thinned_dice(Pool(((Weapon("Gun", "D2", 3, 4), 2),)), checks, 0.5) * 64).tolist()
    [9.0, 24.0, 22.0, 8.0, 1.0]
    """
    return _thinned_dice(rules.pool_dice(pool), rules.bonus_attacks, p)


def fixed_dice(pool: Pool, rules: PoolChecks) -> int | None:
    """The attack dice a pool rolls when their number is certain (every weapon's attacks
    a number, no bonus attacks), else None.

    Examples
    --------
    >>> from mathhammer import Weapon
    >>> from mathhammer.rules.base import PoolChecks
    >>> checks = PoolChecks(None, RollCheck(abs), abs, Dice(1))
    >>> fixed_dice(Pool(((Weapon("Gun", 2, 3, 4), 5),)), checks)
    10
    >>> fixed_dice(Pool(((Weapon("Gun", "D3", 3, 4), 5),)), checks) is None
    True
    """
    return None if rules.bonus_attacks else _fixed(rules.pool_dice(pool))


def _fixed(weapons: tuple[tuple[Dice, int], ...]) -> int | None:
    """The dice the weapons roll when every weapon's attacks are a number, else None."""
    total = 0
    for attacks, count in weapons:
        if not attacks.is_constant:
            return None
        total += attacks.bonus * count
    return total


@register
@lru_cache(maxsize=1024)
def _thinned_dice(
    weapons: tuple[tuple[Dice, int], ...], bonus: tuple[Dice, ...], p: float
) -> FloatArray:
    """Each weapon rolls its own A plus the bonus attacks, each die kept with chance ``p``
    (1 for the attack dice themselves), summed over the weapons. Read-only, and kept: a
    batch of attacks thins the same dice at the same few chances again and again."""
    fixed = None if bonus else _fixed(weapons)
    if fixed is not None:
        return binomial_row(fixed, p)
    extra = None
    for dice in bonus:
        extra = dice.dist if extra is None else extra + dice.dist
    total = None
    for attacks, count in weapons:
        rolled = attacks.dist if extra is None else attacks.dist + extra
        one = power(binomial_thin(rolled.probabilities, p), count)
        total = one if total is None else np.convolve(total, one)
    assert total is not None  # a pool has a weapon
    total.setflags(write=False)
    return total


def _resolve(attacks: Dist, hit: FloatArray, wound: FloatArray, kernel_key: Any) -> PoolSteps:
    """The stages of ``N ~ attacks`` dice: one die's hits and wounds, summed over the dice."""
    count = attacks.probabilities
    die_hits, die = _one_die(hit, wound, kernel_key)
    hits = compound(count, die_hits)
    if die.shape[1] == 1:  # no devastating wounds: the wounds are the dice to save
        wounds = compound(count, die[:, 0])
        to_save = wounds[:, None].copy()
    else:
        to_save, totals = _devastating(attacks, hit, wound, die)
        wounds = np.zeros(sum(to_save.shape) - 1)
        wounds[: len(totals)] = totals
    to_save.setflags(write=False)
    return PoolSteps(attacks, Dist._trusted(hits), Dist._trusted(wounds), to_save, die)


def _command_key(rules: PoolChecks) -> Any:
    """What a command re-roll adds to a pool's key: the step, the policy, and the chances
    that a die's first roll stands (the kernels hold the rest)."""
    command = rules.reroll_one
    if command is None or command.step == "damage":  # a damage roll: the chain's
        return None
    check = rules.hit if command.step == "hit" else rules.wound
    assert check is not None  # a ruleset gives no hit re-roll without a hit roll
    return (command, check.kept().tobytes(), check.rerolled().tobytes())


def _resolve_command(
    attacks: Dist, rules: PoolChecks, hit: FloatArray, wound: FloatArray
) -> PoolSteps:
    """The stages of a pool with a command re-roll (:mod:`~mathhammer.exact.command`):
    the pool's joint hits, then each hit through the wound roll."""
    command = rules.reroll_one
    assert command is not None
    count = attacks.probabilities
    if command.step == "hit":
        assert rules.hit is not None
        hits = command_series(count, CommandPieces(rules.hit, _hit_mapping(rules), command))
        to_save = thin_by_kernel(hits, wound)
    else:
        hits = compound_kernel(attacks, hit)
        to_save = thin_with_command(
            hits, CommandPieces(rules.wound, _wound_mapping(rules), command)
        )
    to_save.setflags(write=False)
    wounds = Dist._trusted(antidiagonal_sums(to_save))
    return PoolSteps(attacks, Dist._trusted(antidiagonal_sums(hits)), wounds, to_save)


def _one_die(hit: FloatArray, wound: FloatArray, key: Any) -> tuple[FloatArray, FloatArray]:
    """One die's hits (all of them: ``x + y``) and its ``to_save[k, m]``; cached."""
    found = _DICE.get(key)
    if found is None:
        shape = thinned_shape(hit.shape, wound.shape)
        found = antidiagonal_sums(hit), thin_general(hit, wound, np.zeros(shape))
        for array in found:
            array.setflags(write=False)
        _DICE.put(key, found, found[0].size + found[1].size)
    return found


def _devastating(
    attacks: Dist, hit: FloatArray, wound: FloatArray, die: FloatArray
) -> tuple[FloatArray, FloatArray]:
    """``to_save[k, m]`` with devastating wounds, and the wounds' pmf (of ``k + m``).

    ``die`` is one die's ``to_save``. Each successful wound roll is devastating with
    probability ``r``, whatever came before, so the pool's ``(k, m)`` follows from its
    total wounds (:func:`~mathhammer.exact.compound.split_successes`).
    """
    count = attacks.probabilities
    n = len(count) - 1
    rows, cols = n * (die.shape[0] - 1) + 1, n * (die.shape[1] - 1) + 1
    others = die.copy()
    others[:2, 0] = others[0, 1] = 0.0
    if not others.any():  # a die scores (0, 0), (1, 0) or (0, 1): a multinomial
        scored = float(die[1, 0] + die[0, 1]) if die.shape[0] > 1 else float(die[0, 1])
        totals = compound(count, np.array([1.0 - scored, scored]))
        r = float(die[0, 1]) / scored if scored > 0 else 0.0
        return split_successes(totals, r, rows, cols), totals
    success, critical = float(wound[1, 0]), float(wound[0, 1])
    rolled = success + critical
    r = critical / rolled if rolled > 0 else 0.0
    if hit.shape[1] == 1:  # no automatic wounds: the total is the successful wound rolls
        totals = compound(count, binomial_thin(hit[:, 0], rolled))
        return split_successes(totals, r, rows, cols), totals
    # [LETHAL HITS] with [SUSTAINED HITS]: the joint of successful rolls t and automatic
    # wounds y, then by total w = t + y: z[w, m] = sum_t P(t, w - t) P(m of t critical)
    rolls = binomial_thin(compound_kernel(attacks, hit), rolled)  # [t, y]
    by_sum = skew(rolls)  # [t, w]
    z = by_sum.T @ binomial_table(rolls.shape[0] - 1, r)[:, :cols]
    return by_total(z, rows, cols), by_sum.sum(axis=0)
