"""The Monte Carlo cross-check: roll real dice, for every trial at once.

This module shares nothing derived with the exact engine. It reads the profiles,
applies the ruleset's literal checks to the faces it rolls, sorts each trial's
save dice and allocates them one at a time, all trials in one vectorised step per
die. The distributions it returns are empirical (``Dist.from_samples``).
"""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType
from typing import Any

import numpy as np

from .abilities import warn_unsupported
from .dist import Dist
from .errors import ProfileError, field_error
from .profiles import Pool, Unit, Weapon, gather_pools
from .result import GroupResult, PoolResult, SimulationResult
from .rules import get_ruleset

__all__ = ["simulate"]

#: Trials simulated together; bounds the memory of the dice arrays.
CHUNK = 50_000
#: A sorted save die of this value marks "no die here" (it sorts after every face).
_NO_DIE = 7


@dataclass
class _Target:
    """Per-trial state of the target unit: the current model and its wounds left."""

    unit: Unit
    model: np.ndarray
    left: np.ndarray

    @classmethod
    def fresh(cls, unit: Unit, trials: int) -> _Target:
        first = unit.groups[0]
        return cls(
            unit,
            np.zeros(trials, dtype=np.int64),
            np.full(trials, first.wounds - first.wounds_lost, dtype=np.int64),
        )


def _model_tables(unit: Unit) -> tuple[np.ndarray, np.ndarray]:
    """Each model's group and starting wounds, in allocation order."""
    group_of, start = [], []
    for gi, g in enumerate(unit.groups):
        for k in range(g.count):
            group_of.append(gi)
            start.append(g.wounds - g.wounds_lost if k == 0 else g.wounds)
    return np.array(group_of + [-1]), np.array(start + [0])


def _roll_count(rng: np.random.Generator, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Roll ``counts[t]`` D6 for each trial; return the faces and a mask of real dice."""
    width = int(counts.max()) if counts.size else 0
    faces = rng.integers(1, 7, size=(counts.size, width), dtype=np.int8)
    valid = np.arange(width) < counts[:, None]
    return faces, valid


def _attack_dice(rng: np.random.Generator, pool: Pool, trials: int) -> np.ndarray:
    total = np.zeros(trials, dtype=np.int64)
    for weapon, count in pool.weapons:
        total += weapon.attacks.roll(rng, (trials, count)).sum(axis=1)  # type: ignore[union-attr]
    return total


def _resolve_saves(
    rng: np.random.Generator,
    ruleset: ModuleType,
    weapon: Weapon,
    target: _Target,
    wounds: np.ndarray,
) -> np.ndarray:
    """Allocate each trial's save dice, lowest first; return the failed saves per trial."""
    unit = target.unit
    group_of, start = _model_tables(unit)
    models = unit.models
    faces, valid = _roll_count(rng, wounds)
    faces = np.sort(np.where(valid, faces, _NO_DIE), axis=1)
    unsaved = np.zeros(wounds.size, dtype=np.int64)
    for column in range(faces.shape[1]):
        die = faces[:, column]
        live = (die != _NO_DIE) & (target.model < models)
        if not live.any():
            break
        group = group_of[target.model]
        saved = np.zeros(die.size, dtype=bool)
        for gi, g in enumerate(unit.groups):
            here = live & (group == gi)
            saved[here] = ruleset.save_outcome(die[here], weapon.ap, g.save, g.invuln)
        failed = live & ~saved
        unsaved += failed
        lost = weapon.damage.roll(rng, die.size)  # type: ignore[union-attr]
        for gi, g in enumerate(unit.groups):
            if g.fnp is None:
                continue
            here = failed & (group == gi)
            rolls, mask = _roll_count(rng, lost[here])
            lost[here] -= (ruleset.fnp_outcome(rolls, g.fnp) & mask).sum(axis=1)
        target.left = np.where(failed, target.left - lost, target.left)
        dead = failed & (target.left <= 0)  # excess damage is lost: no spill-over
        target.model = target.model + dead
        target.left = np.where(dead, start[target.model], target.left)
    return unsaved


def _simulate_chunk(
    rng: np.random.Generator, ruleset: ModuleType, pools: tuple[Pool, ...], unit: Unit, trials: int
) -> dict[str, Any]:
    target = _Target.fresh(unit, trials)
    stages: list[dict[str, np.ndarray]] = []
    for pool in pools:
        weapon = pool.weapon
        attacks = _attack_dice(rng, pool, trials)
        faces, valid = _roll_count(rng, attacks)
        hits = ((ruleset.hit_outcome(faces, weapon.skill) > 0) & valid).sum(axis=1)
        needed = ruleset.wound_needed(weapon.strength, unit.toughness)
        faces, valid = _roll_count(rng, hits)
        wounds = ((ruleset.wound_outcome(faces, needed) > 0) & valid).sum(axis=1)
        unsaved = _resolve_saves(rng, ruleset, weapon, target, wounds)
        stages.append(
            {
                "attacks": attacks,
                "hits": hits,
                "wounds": wounds,
                "unsaved": unsaved,
                "killed": np.minimum(target.model, unit.models),
            }
        )
    return {"stages": stages, "model": target.model.copy(), "left": target.left.copy()}


def simulate(
    weapons: Any,
    target: Unit,
    *,
    trials: int = 100_000,
    rng: Any = None,
    rules: str = "11e",
) -> Any:
    """Estimate the attack's distributions by rolling real dice.

    Same arguments and result shape as :func:`mathhammer.attack`, plus standard
    errors (``killed_se``, ``damage_se``, ``p_destroyed_se``).

    Parameters
    ----------
    weapons, target, rules
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
    if not isinstance(target, Unit):
        raise field_error(ProfileError, "target", "a Unit", target)
    if isinstance(trials, bool) or not isinstance(trials, int | np.integer) or trials < 2:
        raise field_error(ProfileError, "trials", "an integer >= 2", trials)
    ruleset = get_ruleset(rules)
    pools = gather_pools(weapons)
    for pool in pools:
        warn_unsupported(pool.weapon.name, pool.weapon.ability_tokens)
    generator = np.random.default_rng(rng)
    chunks = []
    done = 0
    while done < trials:
        size = min(CHUNK, trials - done)
        chunks.append(_simulate_chunk(generator, ruleset, pools, target, size))
        done += size
    model = np.concatenate([c["model"] for c in chunks])
    left = np.concatenate([c["left"] for c in chunks])
    return _assemble(target, ruleset.NAME, pools, chunks, model, left, int(trials))


def _assemble(
    unit: Unit,
    rules: str,
    pools: tuple[Pool, ...],
    chunks: list[dict[str, Any]],
    model: np.ndarray,
    left: np.ndarray,
    trials: int,
) -> SimulationResult:
    group_of, start = _model_tables(unit)
    models = unit.models
    killed = np.minimum(model, models)
    # wounds left: the current model's, plus every later model's starting wounds
    later = np.concatenate([np.cumsum(start[::-1])[::-1][1:], [0]])
    remaining = np.where(model < models, left + later[np.minimum(model, models)], 0)
    damage = unit.total_wounds - remaining
    pool_results = []
    for i, pool in enumerate(pools):
        s = {
            key: np.concatenate([c["stages"][i][key] for c in chunks])
            for key in chunks[0]["stages"][i]
        }
        pool_results.append(
            PoolResult(
                label=pool.label,
                weapons=pool.weapons,
                attacks=Dist.from_samples(s["attacks"]),
                hits=Dist.from_samples(s["hits"]),
                wounds=Dist.from_samples(s["wounds"]),
                killed=Dist.from_samples(s["killed"], minlength=models + 1),
                unsaved_source=Dist.from_samples(s["unsaved"]),
            )
        )
    groups = []
    first = 0
    for g in unit.groups:
        in_group = np.clip(killed - first, 0, g.count)
        groups.append(GroupResult(g, Dist.from_samples(in_group, minlength=g.count + 1)))
        first += g.count
    return SimulationResult(
        target=unit,
        rules=rules,
        killed=Dist.from_samples(killed, minlength=models + 1),
        damage=Dist.from_samples(damage, minlength=unit.total_wounds + 1),
        groups=tuple(groups),
        pools=tuple(pool_results),
        trials=trials,
        killed_samples=killed,
        damage_samples=damage,
    )
