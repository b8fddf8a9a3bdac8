"""The exact engine: an attack plan's pools, in order, against one target unit.

:func:`run` computes a plan by the path that applies: the closed form of a one-group
target (:mod:`~mathhammer.exact.on_line`) or the allocation chain on the target's layout
(:mod:`~mathhammer.exact.on_layout`). :func:`resolve` is the engine as the decisions
above it call it (:mod:`mathhammer.decisions`): the weapons, target and options as given,
each attack computed once (:data:`RESULTS`) and found again by value.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from functools import partial
from typing import Any, NamedTuple

from ..core.caches import register
from ..core.frozen import HashedKey
from ..core.limits import MAX_UNIT_WOUNDS, SIMULATE_HINT, check_limit
from ..core.lru import SizedCache
from ..errors import MathhammerError
from ..model.context import Context, Modifiers, default_context, default_modifiers
from ..model.pools import MortalWounds, Pool
from ..model.profiles import Unit
from ..model.standing import Standing
from ..results.attack import AttackResult, PoolResult
from ..results.carry import start_state
from ..results.mixture import mixed
from ..results.state import UnitState
from ..rules.base import Ruleset
from ..rules.plan import (
    AttackPlan,
    PlannedPool,
    as_plan,
    check_sizes,
    declared_pools,
    plan_pools,
    value_key,
)
from ..rules.registry import get_ruleset
from .budget import EXACT_LIMITS
from .declared import split_start
from .on_layout import run_layout
from .on_line import run_line

__all__ = ["PATHS", "RESULTS", "carried", "resolve", "run"]

#: Attacks already computed, keyed by what they compute (:attr:`AttackPlan.key`): an attack
#: repeated with the same profiles (whatever their names) against the same target, as a
#: report or a comparison does, is computed once. At most 32,768 results and 192 MB (a
#: small attack's result holds about 6 kB); ``mathhammer.clear_caches()`` empties it.
RESULTS: SizedCache[Any, AttackResult] = register(
    SizedCache(max_size=192 * 2**20, max_items=32_768, name="attack results")
)


def resolve(
    weapons: Any,
    target: Unit | None,
    standing: Standing | None = None,
    start: AttackResult | UnitState | None = None,
    *,
    rules: str | Ruleset | None = None,
    context: Context | None = None,
    modifiers: Modifiers | None = None,
) -> AttackResult:
    """The attack of ``weapons`` on ``target``, computed (or found computed before):
    declared against the target as it stood at ``standing``; with None, against the
    target as it stands in each state of ``start`` (docs/rules.md D34).

    The decisions (:mod:`mathhammer.decisions`) are made above: each weapon's abilities as
    given, the pools in the order given, the target's groups in the order given.
    """
    if start is not None or standing is not None:
        return _declared(weapons, target, standing, start, rules, context, modifiers)
    plain = _plain(weapons, target, rules, context, modifiers)
    if plain is None:
        return _planned(weapons, target, rules, context, modifiers)
    if plain.found is not None:
        return _labelled(plain.found, plain.pools)
    # plain inputs met for the first time: planned afresh, not looked for again
    plan = plan_pools(plain.pools, plain.target, plain.rules, context, modifiers, declared=True)
    return _kept(plain.key, plan, run(plan))


def _planned(
    weapons: Any,
    target: Unit | None,
    rules: str | Ruleset | None,
    context: Context | None,
    modifiers: Modifiers | None,
) -> AttackResult:
    """:func:`resolve` of inputs that are not the plain ones: planned (the plan checks
    them), then found by the plan's key, or computed under these steps' labels and kept."""
    plan = as_plan(weapons, target, rules, context, modifiers)
    found = RESULTS.get(plan.key)
    if found is None:
        return _kept(plan.key, plan, run(plan))
    return _labelled(found, [s if isinstance(s, MortalWounds) else s.pool for s in plan.steps])


def _declared(
    weapons: Any,
    target: Unit | None,
    standing: Standing | None,
    start: AttackResult | UnitState | None,
    rules: str | Ruleset | None,
    context: Context | None,
    modifiers: Modifiers | None,
) -> AttackResult:
    """:func:`resolve` declared against a standing, or carried on from a start (not kept
    in :data:`RESULTS`: a start's states are many, and rarely met twice)."""
    plan = as_plan(weapons, target, rules, context, modifiers)
    if standing is not None:
        plan = plan.declared(standing)
    if start is None:
        return run(plan)
    return carried(plan, start_state(start, plan.target, plan.ruleset.name))


def _kept(key: Any, plan: AttackPlan, result: AttackResult) -> AttackResult:
    """The result of ``plan``, kept in :data:`RESULTS` unless it is large (a large result
    would push out many small ones)."""
    size = _footprint(plan, result)
    if size <= RESULTS.max_size // 8:
        RESULTS.put(key, result, size)
    return result


class _Plain(NamedTuple):
    """Plain inputs of :func:`resolve` (a list of weapons, a unit), looked for by value:
    the result computed before (None: not found), the key it was looked for by (the plan's
    :attr:`~mathhammer.rules.plan.AttackPlan.key`), the weapons' pools (their checks not
    resolved), the target, and the rules (``"11e"`` when not given)."""

    found: AttackResult | None
    key: HashedKey
    pools: tuple[Pool | MortalWounds, ...]
    target: Unit
    rules: str | Ruleset


def _plain(
    weapons: Any,
    target: Any,
    rules: str | Ruleset | None,
    context: Context | None,
    modifiers: Modifiers | None,
) -> _Plain | None:
    """The inputs, looked for by value without planning them again; None when they are not
    the plain ones (the plan then checks them and says what is wrong)."""
    if not isinstance(weapons, list | tuple) or not isinstance(target, Unit):
        return None
    rules = "11e" if rules is None else rules
    try:
        pools = declared_pools(tuple(weapons), target.keywords)
        key = _value_key(target, pools, get_ruleset(rules), context, modifiers)
        found = RESULTS.get(key)
    except (TypeError, MathhammerError):  # unhashable or refused: planned (and refused) below
        return None
    return _Plain(found, key, pools, target, rules)


def _value_key(
    target: Unit,
    pools: tuple[Pool | MortalWounds, ...],
    ruleset: Ruleset,
    context: Context | None,
    modifiers: Modifiers | None,
) -> HashedKey:
    """The key of plain inputs (:func:`~mathhammer.rules.plan.value_key`), the defaults
    taken for the context and modifiers not given."""
    return value_key(
        ruleset,
        default_context() if context is None else context,
        default_modifiers() if modifiers is None else modifiers,
        target,
        pools,
    )


def carried(plan: AttackPlan, start: UnitState) -> AttackResult:
    """The attack of a plan carried on from ``start``: declared against the target as it
    stands in each of its states (docs/rules.md D34), the states whose declarations agree
    resolved together (:func:`~mathhammer.exact.declared.split_start`), and the parts'
    results mixed by their probabilities. A plan declared against a standing already is
    run from every state as it is."""
    parts = split_start(plan, start)
    return mixed([(weight, run(declared, part)) for weight, declared, part in parts])


#: The engine's paths, each computing the same numbers: the closed form of a one-group
#: target, and the allocation chain on the target's layout (which takes every plan).
PATHS = {"line": run_line, "layout": run_layout}


def run(
    plan: AttackPlan, start: UnitState | None = None, *, path: str | None = None
) -> AttackResult:
    """The attack of a plan, computed from the state ``start`` where given: by the closed
    form of a one-group target where it applies (:func:`~mathhammer.exact.on_line.run_line`),
    else on the target's layout. ``path`` (``"line"`` or ``"layout"``) forces one, to test
    one path against the other; ``"line"`` refuses a plan it does not take."""
    target = plan.target
    check_limit("target wounds", target.total_wounds, MAX_UNIT_WOUNDS, SIMULATE_HINT)
    check_sizes(plan, EXACT_LIMITS)
    if path is not None:
        found = PATHS[path](plan, start)
        if found is None:
            raise ValueError(f"path {path!r} does not take this plan")
        return found
    found = run_line(plan, start)
    return run_layout(plan, start) if found is None else found


def _labelled(found: AttackResult, steps: Sequence[Pool | MortalWounds]) -> AttackResult:
    """A result computed for the same key, under the labels of these steps.

    The distributions are shared (they are read-only); a pool's failed saves, computed on
    first access, are computed once for both.
    """
    pools = [_relabelled(pool, step) for step, pool in zip(steps, found.pools, strict=True)]
    if all(a is b for a, b in zip(pools, found.pools, strict=True)):
        return found
    return replace(found, pools=tuple(pools))


def _relabelled(pool: PoolResult, step: Pool | MortalWounds) -> PoolResult:
    """A pool's result under the label and weapons of ``step``: itself where they agree,
    else a copy whose failed saves are read from it."""
    weapons = () if isinstance(step, MortalWounds) else step.weapons
    if pool.label == step.label and pool.weapons == weapons:
        return pool
    source = partial(getattr, pool, "unsaved")
    return replace(pool, label=step.label, weapons=weapons, unsaved_source=source)


#: A result's objects besides its arrays, once and per pool (roughly: a one-pool result
#: of a small unit holds about 6 kB in all).
_OBJECT_BYTES = 2048


def _footprint(plan: AttackPlan, result: AttackResult) -> int:
    """The bytes a result holds, roughly, from the sizes its plan bounds rather than by
    walking it: per step, its own distributions and those kept to compute its failed saves
    (:func:`_step_bytes`), and its models destroyed and wounds lost, as the attack's; then
    the state the attack ends in, with the positions it shares with the layout the pools'
    failed saves keep."""
    target = plan.target
    unit = 8 * (target.models + target.total_wounds + 2)
    total = _OBJECT_BYTES + unit
    for step in plan.steps:
        total += _OBJECT_BYTES + unit + _step_bytes(step)
    state = result.state
    if state is not None:
        total += state.probabilities.nbytes + 4 * state.positions.nbytes
    return total


def _step_bytes(step: PlannedPool | MortalWounds) -> int:
    """The bytes of a step's distributions of dice, hits, wounds and devastating wounds and
    of the failed saves kept for it, at most its hits + 1 entries each (a mortal-wound
    step's: its amount + 1); with [DEVASTATING WOUNDS], the failed saves are kept jointly
    with the devastating wounds, a table of up to (hits + 1) squared entries."""
    if isinstance(step, MortalWounds):
        return 40 * (step.amount.max + 1)
    entries = step.hits + 1
    joint = entries * entries if step.checks.devastating else 0
    return 8 * (5 * entries + joint)
