"""The Monte Carlo cross-check: roll real dice, for every trial at once.

This module shares nothing derived with the exact engine. It reads the profiles and
the ruleset's resolved thresholds, applies the ruleset's literal checks to the faces
it rolls (re-rolling the dice a re-roll selects), sorts each trial's save dice and
allocates them one at a time, all trials in one vectorised step per die. The
distributions it returns are empirical (``Dist.from_samples``).
"""

from __future__ import annotations

from dataclasses import replace
from types import ModuleType
from typing import Any

import numpy as np

from ..core.dice import Dice
from ..core.dist import Dist
from ..errors import ProfileError, field_error
from ..model.context import Context, Modifiers, check_inputs
from ..model.pools import MortalWounds, Pool, gather_pools
from ..model.profiles import Unit
from ..results.attack import GroupResult, PoolResult, SimulationResult
from ..rules import get_ruleset
from ..rules.base import CRITICAL, SUCCESS, PoolRules, RollCheck

__all__ = ["simulate"]

#: Trials simulated together; bounds the memory of the dice arrays.
CHUNK = 50_000
#: A sorted save die of this value marks "no die here" (it sorts after every face).
_NO_DIE = 7


class _Target:
    """Per-trial state of the target: models destroyed and the wounded model's loss, per group."""

    def __init__(self, unit: Unit, trials: int) -> None:
        self.unit = unit
        self.count = np.array([g.count for g in unit.groups])
        self.wounds = np.array([g.wounds for g in unit.groups])
        self.character = np.array([g.character for g in unit.groups])
        self.dead = np.zeros((trials, len(unit.groups)), dtype=np.int64)
        self.hurt = np.tile([g.wounds_lost for g in unit.groups], (trials, 1)).astype(np.int64)

    def current(self, focus: int | None) -> np.ndarray:
        """Each trial's current group: the first alive in allocation order, wounded
        CHARACTERs before unwounded ones, or the [PRECISION] group while it lives."""
        alive = self.dead < self.count
        tiers = [
            alive & ~self.character,
            alive & self.character & (self.hurt > 0),
            alive & self.character,
        ]
        out = np.full(len(self.dead), -1)
        for tier in reversed(tiers):
            for g in reversed(range(len(self.count))):
                out[tier[:, g]] = g
        if focus is not None:
            out[alive[:, focus]] = focus
        return out

    def lose(self, trials: np.ndarray, group: np.ndarray, wounds: np.ndarray) -> None:
        """The current models of ``trials`` lose ``wounds``; a model at 0 is destroyed and
        the excess is lost (no spill-over)."""
        hurt = self.hurt[trials, group] + wounds
        dies = hurt >= self.wounds[group]
        self.dead[trials[dies], group[dies]] += 1
        self.hurt[trials, group] = np.where(dies, 0, hurt)

    @property
    def killed(self) -> np.ndarray:
        return self.dead.sum(axis=1)

    def damage(self) -> np.ndarray:
        start = self.count * self.wounds - np.array([g.wounds_lost for g in self.unit.groups])
        left = np.where(
            self.dead < self.count, (self.count - self.dead) * self.wounds - self.hurt, 0
        )
        return (start - left).sum(axis=1)


def _roll(rng: np.random.Generator, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Roll ``counts[t]`` D6 for each trial; return the faces and a mask of real dice."""
    width = int(counts.max()) if counts.size else 0
    faces = rng.integers(1, 7, size=(counts.size, width), dtype=np.int8)
    return faces, np.arange(width) < counts[:, None]


def _roll_sum(rng: np.random.Generator, dice: Dice, counts: np.ndarray) -> np.ndarray:
    """The sum of ``counts[t]`` independent rolls of a dice expression, per trial."""
    width = int(counts.max()) if counts.size else 0
    if width == 0:
        return np.zeros(counts.size, dtype=np.int64)
    rolls = dice.roll(rng, (counts.size, width))
    return np.where(np.arange(width) < counts[:, None], rolls, 0).sum(axis=1)


def _categorise(
    rng: np.random.Generator, counts: np.ndarray, check: RollCheck
) -> tuple[np.ndarray, np.ndarray]:
    """Roll, re-roll what the check selects (once), and count successes and criticals."""
    faces, valid = _roll(rng, counts)
    categories = check.first(faces)
    if check.reroll is not None:
        again = np.asarray(check.reroll(faces, categories), dtype=bool) & valid
        if again.any():
            rerolled = rng.integers(1, 7, size=faces.shape, dtype=np.int8)
            categories = np.where(again, check.again(rerolled), categories)
    success = ((categories == SUCCESS) & valid).sum(axis=1)
    critical = ((categories == CRITICAL) & valid).sum(axis=1)
    return success, critical


def _damage_roll(
    rng: np.random.Generator, rules: PoolRules, size: int
) -> tuple[np.ndarray, np.ndarray]:
    """Roll the attacker's D and [MELTA] X: the (d, add) to pass to ``modified_damage``."""
    d = rules.damage.roll(rng, size)
    add = np.full(size, rules.damage_add)
    if rules.melta is not None:
        add = add + rules.melta.roll(rng, size)
    return d, add


def _fnp(
    rng: np.random.Generator, ruleset: ModuleType, unit: Unit, group: np.ndarray, wounds: np.ndarray
) -> np.ndarray:
    """Roll Feel No Pain for each wound; return the wounds not prevented."""
    out = wounds.copy()
    for gi, g in enumerate(unit.groups):
        here = np.flatnonzero(group == gi)
        if g.fnp is None or here.size == 0:
            continue
        faces, valid = _roll(rng, wounds[here])
        out[here] -= (ruleset.fnp_outcome(faces, g.fnp) & valid).sum(axis=1)
    return out


def _saves(
    rng: np.random.Generator,
    ruleset: ModuleType,
    rules: PoolRules,
    target: _Target,
    count: np.ndarray,
) -> np.ndarray:
    """Allocate each trial's save dice, lowest first; return the failed saves per trial."""
    unit = target.unit
    faces, valid = _roll(rng, count)
    faces = np.sort(np.where(valid, faces, _NO_DIE), axis=1)
    unsaved = np.zeros(count.size, dtype=np.int64)
    for column in range(faces.shape[1]):
        die = faces[:, column]
        group = target.current(rules.precision_group)
        live = (die != _NO_DIE) & (group >= 0)
        if not live.any():
            break
        failed = np.zeros(die.size, dtype=bool)
        for gi, g in enumerate(unit.groups):
            here = live & (group == gi)
            failed[here] = ~rules.saves(die[here], g)
        unsaved += failed
        trials = np.flatnonzero(failed)
        if trials.size == 0:
            continue
        rolled, add = _damage_roll(rng, rules, trials.size)
        groups = group[trials]
        d = np.zeros(trials.size, dtype=np.int64)
        for gi, g in enumerate(unit.groups):
            here = groups == gi
            d[here] = ruleset.modified_damage(
                rolled[here], rules.damage_multiply, add[here], g.halve_damage, g.damage_reduction
            )
        target.lose(trials, groups, _fnp(rng, ruleset, unit, groups, d))
    return unsaved


def _devastating(
    rng: np.random.Generator,
    ruleset: ModuleType,
    rules: PoolRules,
    target: _Target,
    count: np.ndarray,
) -> None:
    """Each critical wound: mortal wounds equal to D, damaging at most one model."""
    for k in range(int(count.max()) if count.size else 0):
        group = target.current(rules.precision_group)
        trials = np.flatnonzero((k < count) & (group >= 0))
        if trials.size == 0:
            break
        rolled, add = _damage_roll(rng, rules, trials.size)
        d = ruleset.modified_damage(rolled, rules.damage_multiply, add)
        groups = group[trials]
        target.lose(trials, groups, _fnp(rng, ruleset, target.unit, groups, d))


def _mortal_wounds(
    rng: np.random.Generator, ruleset: ModuleType, step: MortalWounds, target: _Target
) -> np.ndarray:
    count = step.amount.roll(rng, len(target.dead))  # type: ignore[union-attr]
    for k in range(int(count.max())):
        group = target.current(None)
        trials = np.flatnonzero((k < count) & (group >= 0))
        if trials.size == 0:
            break
        groups = group[trials]
        left = _fnp(rng, ruleset, target.unit, groups, np.ones(trials.size, dtype=np.int64))
        target.lose(trials, groups, left)  # one wound at a time: it spills over
    return count


def _pool(
    rng: np.random.Generator,
    ruleset: ModuleType,
    pool: Pool,
    rules: PoolRules,
    target: _Target,
    context: Context,
) -> dict[str, np.ndarray]:
    trials = len(target.dead)
    attacks = np.zeros(trials, dtype=np.int64)
    for weapon, count in pool.weapons:
        per_weapon = weapon.attacks.roll(rng, (trials, count))  # type: ignore[union-attr]
        for bonus in rules.bonus_attacks:
            per_weapon = per_weapon + bonus.roll(rng, (trials, count))
        attacks += per_weapon.sum(axis=1)
    if rules.hit is None:  # every attack hits automatically, never critically
        hits, crits = attacks, np.zeros(trials, dtype=np.int64)
    else:
        hits, crits = _categorise(rng, attacks, rules.hit)
    extra = _roll_sum(rng, rules.sustained, crits) if rules.sustained is not None else 0 * crits
    automatic = crits if rules.lethal else 0 * crits
    to_wound = hits + extra + (0 * crits if rules.lethal else crits)
    wounds, critical_wounds = _categorise(rng, to_wound, rules.wound)
    devastating = critical_wounds if rules.devastating else 0 * critical_wounds
    save_dice = wounds + automatic + (critical_wounds - devastating)
    unsaved = _saves(rng, ruleset, rules, target, save_dice)
    _devastating(rng, ruleset, rules, target, devastating)
    hazard = np.zeros(trials, dtype=np.int64)
    if rules.hazardous:
        rolls = sum(count for _, count in pool.weapons)
        faces = rng.integers(1, 7, size=(trials, rolls))
        per_fail = 3 if context.attacker_monster_or_vehicle else 1
        hazard = ruleset.hazard_fails(faces).sum(axis=1) * per_fail
    return {
        "attacks": attacks,
        "hits": hits + crits + extra,
        "wounds": wounds + critical_wounds + automatic,
        "unsaved": unsaved,
        "devastating": devastating,
        "killed": target.killed,
        "hazard": hazard,
    }


def _chunk(
    rng: np.random.Generator,
    ruleset: ModuleType,
    steps: tuple[Pool | MortalWounds, ...],
    resolved: list[PoolRules | None],
    unit: Unit,
    trials: int,
    context: Context,
) -> tuple[list[dict[str, np.ndarray]], _Target]:
    target = _Target(unit, trials)
    stages = []
    for step, rules in zip(steps, resolved, strict=True):
        if isinstance(step, MortalWounds):
            count = _mortal_wounds(rng, ruleset, step, target)
            zero = np.zeros(trials, dtype=np.int64)
            stages.append(
                {
                    "attacks": count,
                    "hits": count,
                    "wounds": count,
                    "unsaved": count,
                    "devastating": zero,
                    "killed": target.killed,
                    "hazard": zero,
                }
            )
        else:
            assert rules is not None
            stages.append(_pool(rng, ruleset, step, rules, target, context))
    return stages, target


def generator_from(rng: Any) -> np.random.Generator:
    """``numpy.random.default_rng(rng)``, with a clear error for what it cannot take."""
    try:
        return np.random.default_rng(rng)
    except (TypeError, ValueError):
        raise field_error(
            ProfileError, "rng", "None, an integer, a SeedSequence or a numpy Generator", rng
        ) from None


def simulate(
    weapons: Any,
    target: Unit,
    *,
    trials: int = 100_000,
    rng: Any = None,
    rules: str = "11e",
    context: Context | None = None,
    modifiers: Modifiers | None = None,
) -> SimulationResult:
    """Estimate the attack's distributions by rolling real dice.

    Same arguments and result shape as :func:`mathhammer.attack`, plus standard
    errors (``killed_se``, ``damage_se``, ``p_destroyed_se``).

    Parameters
    ----------
    weapons, target, rules, context, modifiers
        As for :func:`mathhammer.attack`.
    trials : int
        The number of simulated attacks, at least 2.
    rng : None, int or numpy.random.Generator
        Seed or generator, normalised with ``numpy.random.default_rng``.

    Examples
    --------
    >>> import mathhammer as mh
    >>> bolter = mh.Weapon("Bolt rifle", attacks=2, skill=3, strength=4, ap=-1, damage=1)
    >>> marines = mh.Unit.of("Intercessors", models=5, toughness=4, save=3, wounds=2)
    >>> sim = mh.simulate([(bolter, 10)], marines, trials=20_000, rng=1)
    >>> exact = mh.attack([(bolter, 10)], marines)
    >>> abs(sim.damage.mean() - exact.damage.mean()) < 5 * sim.damage_se
    True
    """
    context, modifiers = check_inputs(target, context, modifiers)
    if isinstance(trials, bool) or not isinstance(trials, int | np.integer) or trials < 2:
        raise field_error(ProfileError, "trials", "an integer >= 2", trials)
    ruleset = get_ruleset(rules)
    ruleset.check_target(target)
    steps = gather_pools(weapons)
    resolved = [
        None
        if isinstance(s, MortalWounds)
        else ruleset.resolve_pool(s.weapon, target, context, modifiers)
        for s in steps
    ]
    generator = generator_from(rng)
    chunks = []
    done = 0
    while done < trials:
        size = min(CHUNK, int(trials) - done)
        chunks.append(_chunk(generator, ruleset, steps, resolved, target, size, context))
        done += size
    result = _assemble(target, ruleset.NAME, steps, resolved, chunks, int(trials))
    if not ruleset.PANIC_TESTS:
        return result
    p_test, p_fail = _panic(generator, ruleset, target, result.killed_samples)
    return replace(result, p_panic_test=p_test, p_panic_fail=p_fail)


def _panic(
    rng: np.random.Generator, ruleset: ModuleType, unit: Unit, killed: np.ndarray
) -> tuple[float, float]:
    """Roll each trial's Panic Test: taken when a quarter of the models (rounded up) were
    slain and some remain; failed when 2D6 rolls higher than Ld."""
    takes = ruleset.takes_panic_tests(unit)
    test = takes & (killed >= ruleset.panic_threshold(unit.models)) & (killed < unit.models)
    roll = rng.integers(1, 7, size=(killed.size, 2)).sum(axis=1)
    fail = test & ruleset.panic_fails(roll, unit.leadership)
    return float(test.mean()), float(fail.mean())


def _assemble(
    unit: Unit,
    rules: str,
    steps: tuple[Pool | MortalWounds, ...],
    resolved: list[PoolRules | None],
    chunks: list[tuple[list[dict[str, np.ndarray]], _Target]],
    trials: int,
) -> SimulationResult:
    models = unit.models
    dead = np.concatenate([t.dead for _, t in chunks])
    killed = dead.sum(axis=1)
    damage = np.concatenate([t.damage() for _, t in chunks])
    pools = []
    hazard = np.zeros(trials, dtype=np.int64)
    for i, step in enumerate(steps):
        s = {key: np.concatenate([c[0][i][key] for c in chunks]) for key in chunks[0][0][i]}
        hazard += s["hazard"]
        pool_rules = resolved[i]
        pools.append(
            PoolResult(
                label=step.label,
                weapons=() if isinstance(step, MortalWounds) else step.weapons,
                attacks=Dist.from_samples(s["attacks"]),
                hits=Dist.from_samples(s["hits"]),
                wounds=Dist.from_samples(s["wounds"]),
                killed=Dist.from_samples(s["killed"], minlength=models + 1),
                unsaved_source=Dist.from_samples(s["unsaved"]),
                devastating=Dist.from_samples(s["devastating"]),
                abilities=() if pool_rules is None else pool_rules.used,
            )
        )
    groups = tuple(
        GroupResult(g, Dist.from_samples(dead[:, i], minlength=g.count + 1))
        for i, g in enumerate(unit.groups)
    )
    return SimulationResult(
        target=unit,
        rules=rules,
        killed=Dist.from_samples(killed, minlength=models + 1),
        damage=Dist.from_samples(damage, minlength=unit.total_wounds + 1),
        groups=groups,
        pools=tuple(pools),
        hazardous=Dist.from_samples(hazard),
        trials=trials,
        killed_samples=killed,
        damage_samples=damage,
    )
