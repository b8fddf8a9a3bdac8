"""The Monte Carlo cross-check: roll real dice, for every trial at once.

This package shares nothing derived with the exact engine. It reads the attack plan (the
profiles and the ruleset's resolved checks), applies the ruleset's literal checks to the
faces it rolls (through each check's table over the six faces, re-rolling the dice a
re-roll selects), takes each trial's save dice in sorted order and allocates them one at
a time, all trials of a block in one vectorised step per die.

The trials are cut into blocks of :data:`BLOCK` trials (fewer for a pool of more than
200 dice: see :mod:`mathhammer.montecarlo.budget`), each rolled from its own random stream
spawned from ``rng`` (``SeedSequence.spawn``, one stream as each block starts), and each
block is summarised as mergeable counts (:class:`~mathhammer.montecarlo.tally.Tally`). So
the result does not depend on how blocks are grouped or where they run (another process,
another machine), and the memory does not grow with the number of trials.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from ..core.dist import Dist
from ..errors import OptionError, field_error
from ..model.context import Context, Modifiers
from ..model.pools import MortalWounds, WeaponsLike
from ..model.profiles import Unit
from ..results.attack import AttackResult, GroupResult, PoolResult, TestResult
from ..results.carry import start_state
from ..results.mixture import used_in_any
from ..results.simulation import SimulationResult
from ..results.state import UnitState
from ..rules.base import IntArray, Ruleset
from ..rules.plan import AttackPlan, PlannedPool, as_plan
from ..rules.registry import RulesetLike
from ..rules.standing import declarations
from .budget import block_size, check_simulation, check_trials
from .state import TargetState
from .steps import mortal_wounds, pool_stages
from .tally import Tally

__all__ = [
    "BLOCK",
    "RngLike",
    "SeedLike",
    "block_streams",
    "generator_from",
    "iter_blocks",
    "seed_sequence",
    "simulate",
    "simulate_block",
]

#: Trials per block: each block has its own random stream; bounds the dice arrays' memory.
BLOCK = 50_000
#: What ``rng=`` takes: None (fresh entropy), an integer >= 0, a SeedSequence or a Generator.
RngLike = int | np.random.SeedSequence | np.random.Generator | None
#: What ``rng=`` takes where streams are spawned per part of the work (no Generator: what
#: it spawns depends on what it drew before).
SeedLike = int | np.random.SeedSequence | None
_STAGES = ("attacks", "hits", "wounds", "unsaved", "devastating", "killed")


def generator_from(rng: Any) -> np.random.Generator:
    """``numpy.random.default_rng(rng)``, with a clear error for what it cannot take (a
    bool is refused: numpy would read True as the seed 1)."""
    if isinstance(rng, bool | np.bool_):
        raise field_error(
            OptionError, "rng", "None, an integer, a SeedSequence or a numpy Generator", rng
        )
    try:
        return np.random.default_rng(rng)
    except (TypeError, ValueError):
        raise field_error(
            OptionError, "rng", "None, an integer, a SeedSequence or a numpy Generator", rng
        ) from None


def seed_sequence(rng: Any) -> np.random.SeedSequence:
    """``rng`` as the seed that a computation's streams are spawned from, one per part of
    the work, so that any split of the work draws the same numbers: None (fresh entropy),
    an integer >= 0 or a :class:`numpy.random.SeedSequence`. A Generator is refused: the
    streams spawned from it depend on what it drew before, and cannot be made again.

    Examples
    --------
    >>> seed_sequence(7).entropy
    7
    >>> seed_sequence(np.random.default_rng(7))
    Traceback (most recent call last):
    ...
    mathhammer.errors.OptionError: rng must be None, an integer >= 0 or a SeedSequence; got ...
    """
    if isinstance(rng, np.random.SeedSequence):
        return rng
    if rng is None:
        return np.random.SeedSequence()
    if isinstance(rng, int | np.integer) and not isinstance(rng, bool) and rng >= 0:
        return np.random.SeedSequence(int(rng))
    raise _not_a_seed(rng)


def _not_a_seed(rng: Any) -> OptionError:
    """The error refusing ``rng`` as :func:`seed_sequence`'s seed; for a Generator, what to
    give instead."""
    hint = ""
    if isinstance(rng, np.random.Generator):
        hint = "the streams are spawned from a seed: give the integer the Generator was made from"
    return field_error(OptionError, "rng", "None, an integer >= 0 or a SeedSequence", rng, hint)


def block_streams(
    trials: int, rng: Any, block: int | None = None
) -> list[tuple[np.random.Generator, int]]:
    """The blocks of a simulation: (its own generator, trials in it), in order.

    ``block`` is the trials per block, :data:`BLOCK` by default.

    Examples
    --------
    >>> [size for _, size in block_streams(120_000, 1)]
    [50000, 50000, 20000]
    """
    return list(iter_blocks(trials, rng, BLOCK if block is None else block))


def iter_blocks(trials: int, rng: Any, block: int) -> Iterator[tuple[np.random.Generator, int]]:
    """The blocks of :func:`block_streams`, each stream spawned as its block starts: the
    same streams (``spawn(1)`` again and again is ``spawn(n)``), in memory independent of
    the number of blocks.

    Examples
    --------
    >>> [size for _, size in iter_blocks(5, 1, block=2)]
    [2, 2, 1]
    """
    parent = generator_from(rng)
    for start in range(0, trials, block):
        (stream,) = parent.spawn(1)
        yield stream, min(block, trials - start)


#: The most codes of a target's states (the product over its groups of their wounds + 1)
#: for which the trials' final states are tallied (a histogram of at most 8 MB a block).
MAX_STATE_CODES = 2**20


def _radix(unit: Unit) -> np.ndarray:
    """Each group's positions 0..its wounds: the radix of a state's code."""
    return np.array([g.total_wounds + 1 for g in unit.groups], dtype=np.int64)


def _stride(unit: Unit) -> np.ndarray | None:
    """The code of each group's position in a state's code, or None when the codes pass
    :data:`MAX_STATE_CODES` (the final states are then not tallied)."""
    radix = _radix(unit)
    if float(np.prod(radix.astype(float))) > MAX_STATE_CODES:
        return None
    return np.concatenate([[1], np.cumprod(radix[:-1])]).astype(np.int64)


def _draw_states(rng: np.random.Generator, start: UnitState, trials: int) -> IntArray:
    """Each trial's state at the start: its index in ``start``, drawn from its
    probabilities."""
    cumulative = np.cumsum(start.probabilities)
    drawn = np.searchsorted(cumulative, rng.random(trials) * cumulative[-1], side="right")
    return np.asarray(np.minimum(drawn, len(cumulative) - 1), dtype=np.int64)


def simulate_block(
    plan: AttackPlan, rng: np.random.Generator, trials: int, start: UnitState | None = None
) -> Tally:
    """Simulate one block of trials of a plan and tally every outcome.

    Blocks are independent: tallies of blocks rolled anywhere merge into exactly the
    tally of a serial run (see :func:`block_streams`). From a ``start``, each trial first
    draws its state from it, and its attack is declared against the target as it stands
    in that state (docs/rules.md D34): the trials that declare it alike are rolled
    together.
    """
    if start is None:
        return _simulate_part(plan, rng, trials, None)
    drawn = _draw_states(rng, start, trials)
    rows, plans = declarations(plan, start.positions)
    if len(plans) == 1:
        return _simulate_part(plans[0], rng, trials, start.positions[drawn])
    tally = Tally()
    for i, declared in enumerate(plans):
        here = drawn[rows[drawn] == i]
        if len(here):
            tally = tally.merge(_simulate_part(declared, rng, len(here), start.positions[here]))
    return tally


def _simulate_part(
    plan: AttackPlan, rng: np.random.Generator, trials: int, positions: IntArray | None
) -> Tally:
    """The tally of ``trials`` trials of a plan, each from its own state (``positions``:
    the wounds each group has lost) or from the target as given."""
    ruleset = plan.ruleset
    target = TargetState(plan.target, trials, ruleset, positions)
    tally = Tally()
    hazard = np.zeros(trials, dtype=np.int64)
    for i, step in enumerate(plan.steps):
        if isinstance(step, MortalWounds):
            stages = _mortal_stages(rng, ruleset, step, target)
        else:
            wounds = ruleset.hazard_wounds(plan.context)
            stages = pool_stages(rng, ruleset, step.pool, step.checks, target, wounds)
            hazard += stages["hazard"]
        for stage in _STAGES:
            tally.count(f"{i}:{stage}", stages[stage])
    _count_outcome(plan, tally, target, hazard)
    _count_tests(plan, rng, tally, target.killed)
    return tally


def _mortal_stages(
    rng: np.random.Generator, ruleset: Ruleset, step: MortalWounds, target: TargetState
) -> dict[str, np.ndarray]:
    """A mortal-wound step's outcome per trial, by stage name as a pool's: its mortal
    wounds at every stage to ``unsaved``, none devastating."""
    count = mortal_wounds(rng, ruleset, step, target)
    stages = dict.fromkeys(("attacks", "hits", "wounds", "unsaved"), count)
    return stages | {"devastating": 0 * count, "killed": target.killed}


def _count_outcome(plan: AttackPlan, tally: Tally, target: TargetState, hazard: IntArray) -> None:
    """Tally each trial's outcome: models destroyed, wounds lost, the attacker's hazard
    wounds, each group's models destroyed, and the final state where it is tallied."""
    tally.count("killed", target.killed)
    tally.count("damage", target.damage())
    tally.count("hazardous", hazard)
    for g in range(len(plan.target.groups)):
        tally.count(f"group {g}", target.dead[:, g])
    stride = _stride(plan.target)
    if stride is not None:
        tally.count("state", target.positions() @ stride)


def _count_tests(
    plan: AttackPlan, rng: np.random.Generator, tally: Tally, killed: IntArray
) -> None:
    """Roll and tally each after-attack test of each trial on the models this attack
    destroyed (``killed``, every trial's before): 0 not taken, 1 passed, 2 failed."""
    trials = len(killed)
    for test in plan.tests:
        taken = np.asarray(test.taken(killed - plan.before), dtype=bool)
        total = rng.integers(1, 7, size=(trials, test.dice)).sum(axis=1)
        failed = taken & np.asarray(test.fails(total), dtype=bool)
        tally.count(f"test {test.name}", taken.astype(np.int64) + failed)


def simulate(
    weapons: WeaponsLike | AttackPlan,
    target: Unit | None = None,
    *,
    trials: int = 100_000,
    rng: RngLike = None,
    rules: RulesetLike | None = None,
    context: Context | None = None,
    modifiers: Modifiers | None = None,
    start: AttackResult | UnitState | None = None,
) -> SimulationResult:
    """Estimate the attack's distributions by rolling real dice.

    Same arguments and result shape as :func:`mathhammer.attack`, plus standard
    errors (``killed_se``, ``damage_se``, ``p_destroyed_se``).

    Parameters
    ----------
    weapons, target, rules, context, modifiers
        As for :func:`mathhammer.attack` (an :class:`~mathhammer.rules.plan.AttackPlan`
        is run as it is).
    trials : int
        The number of simulated attacks, from 2 to 10**7 (``MAX_TRIALS``). The memory
        does not grow with it.
    rng : None, int, SeedSequence or numpy.random.Generator
        Seed or generator, normalised with ``numpy.random.default_rng``; each block of
        trials rolls from its own stream spawned from it.
    start : AttackResult or UnitState, optional
        Carry on from the target's state after earlier attacks, as
        :func:`mathhammer.attack` does: each trial draws its starting state from it (an
        exact result's state, or a simulation's: its trials' final states).

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
    plan = as_plan(weapons, target, rules, context, modifiers)
    trials = check_trials(trials)
    check_simulation(plan)
    state = None if start is None else start_state(start, plan.target, plan.ruleset.name)
    tally = Tally()
    for stream, size in iter_blocks(trials, rng, block_size(plan, BLOCK)):
        tally = tally.merge(simulate_block(plan, stream, size, state))
    return assemble(plan, tally, state)


def _used(plans: list[AttackPlan], i: int) -> tuple[str, ...]:
    """The abilities pool ``i`` used in any of the plans (as the exact engine lists them:
    :func:`~mathhammer.results.mixture.used_in_any`)."""
    steps = [plan.steps[i] for plan in plans]
    used = [s.checks.used for s in steps if isinstance(s, PlannedPool)]
    first = steps[0]
    assert isinstance(first, PlannedPool)
    return used_in_any(first.pool.weapons, used)


def _dist(tally: Tally, name: str, minlength: int = 0) -> Dist:
    return Dist._trusted(tally.probabilities(name, minlength))


def _state(
    plan: AttackPlan, tally: Tally, start: UnitState | None, plans: list[AttackPlan]
) -> UnitState | None:
    """The trials' final states as a state distribution (None where not tallied); their
    [PRECISION] groups those of the start and of the ``plans`` the trials declared."""
    stride = _stride(plan.target)
    if stride is None or "state" not in tally.counts:
        return None
    counts = tally.counts["state"]
    codes = np.flatnonzero(counts)
    positions = (codes[:, None] // stride) % _radix(plan.target)
    rules = plan.ruleset.name
    focus = _focus(start, plans)
    return UnitState(plan.target, rules, positions, counts[codes] / tally.trials, focus)


def _focus(start: UnitState | None, plans: list[AttackPlan]) -> tuple[int, ...]:
    """The [PRECISION] groups of the final states: the start's and those the ``plans``
    declared, in order."""
    declared = {g for p in plans for g in p.focus}
    return tuple(sorted({*declared, *(() if start is None else start.focus)}))


def _declared(plan: AttackPlan, start: UnitState | None) -> list[AttackPlan]:
    """The plans the trials may declare (one per declaration the start's states make)."""
    if start is None:
        return [plan]
    return declarations(plan, start.positions[start.probabilities > 0])[1]


def assemble(plan: AttackPlan, tally: Tally, start: UnitState | None = None) -> SimulationResult:
    """The result of a plan from the tally of all its trials."""
    unit = plan.target
    plans = _declared(plan, start)
    pools = tuple(_pool_result(tally, unit, plans, i, step) for i, step in enumerate(plan.steps))
    groups = tuple(
        GroupResult(g, _dist(tally, f"group {i}", g.count + 1)) for i, g in enumerate(unit.groups)
    )
    return SimulationResult(
        target=unit,
        rules=plan.ruleset.name,
        killed=_dist(tally, "killed", unit.models + 1),
        damage=_dist(tally, "damage", unit.total_wounds + 1),
        groups=groups,
        pools=pools,
        hazardous=_dist(tally, "hazardous"),
        tests=tuple(_test_result(tally, test.name) for test in plan.tests),
        trials=tally.trials,
        state=_state(plan, tally, start, plans),
    )


def _pool_result(
    tally: Tally, unit: Unit, plans: list[AttackPlan], i: int, step: PlannedPool | MortalWounds
) -> PoolResult:
    """The result of step ``i`` of the plan (a pool, or a mortal-wound step) from the
    tally of its stages."""
    stage = {s: _dist(tally, f"{i}:{s}") for s in _STAGES}
    stage["killed"] = _dist(tally, f"{i}:killed", unit.models + 1)
    if not isinstance(step, PlannedPool):
        return PoolResult.mortal(step.label, stage["attacks"], stage["killed"])
    return PoolResult(
        label=step.label,
        weapons=step.pool.weapons,
        attacks=stage["attacks"],
        hits=stage["hits"],
        wounds=stage["wounds"],
        killed=stage["killed"],
        unsaved_source=stage["unsaved"],
        devastating=stage["devastating"],
        abilities=_used(plans, i),
    )


def _test_result(tally: Tally, name: str) -> TestResult:
    """An after-attack test's chances of being taken and failed, from the tally of its
    outcomes (0: not taken, 1: passed, 2: failed)."""
    outcome = tally.probabilities(f"test {name}", 3)
    return TestResult(name, float(outcome[1] + outcome[2]), float(outcome[2]))
