"""The exact engine: an attack plan's pools, in order, against one target unit."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from functools import partial
from typing import Any

import numpy as np

from ..core.binomial import binomial_thin
from ..core.blas import one_thread
from ..core.caches import register
from ..core.dist import Dist
from ..core.limits import (
    MAX_POOL_DICE,
    MAX_TABLE,
    MAX_UNIT_WOUNDS,
    MAX_WORK,
    SIMULATE_HINT,
    check_limit,
)
from ..core.lru import SizedCache
from ..errors import MathhammerError, OptionError, field_error
from ..model.context import Context, Modifiers, default_context, default_modifiers
from ..model.pools import MortalWounds, Pool
from ..model.profiles import Unit
from ..model.standing import Standing
from ..results.attack import AttackResult, GroupResult, PoolResult, TestResult
from ..results.carry import start_state
from ..results.mixture import mixed
from ..results.state import UnitState
from ..rules.base import FACE_ARRAY, FACES, AfterAttackTest, PoolChecks, Ruleset, failed_faces
from ..rules.plan import (
    AttackPlan,
    PlannedPool,
    as_plan,
    cached_pools,
    check_sizes,
    declarable,
    plan_pools,
    value_key,
)
from ..rules.registry import get_ruleset
from .budget import EXACT_LIMITS, check_plan, save_weights, saved_faces, stage_cost
from .chain import apply_pool, cap_passengers, spill_mortal_wounds, trim_counts
from .choices import chosen, may_choose, metric_of, selections, too_many
from .damage import Damage, command_damage, group_damage, wound_lost
from .declared import split_start
from .defender import ALLOCATIONS, defender_best
from .layout import Layout
from .order import best_order
from .single import LINE_WORK, Line, failed_saves
from .steps import (
    PlainSteps,
    PoolSteps,
    fixed_dice,
    hit_and_wound,
    hit_kernel,
    plain_stages,
    thinned_dice,
    wound_kernel,
)
from .unsaved import unsaved_distribution

# the limits were first defined here
__all__ = [
    "MAX_POOL_DICE",
    "MAX_UNIT_WOUNDS",
    "RESULTS",
    "attack",
    "attack_declared",
    "carried",
    "group_damage",
]

#: Attacks already computed, keyed by what they compute (:attr:`AttackPlan.key`): an attack
#: repeated with the same profiles (whatever their names) against the same target, as a
#: report or a comparison does, is computed once. At most 32,768 results and 192 MB (a
#: small attack's result holds about 6 kB); ``mathhammer.clear_caches()`` empties it.
RESULTS: SizedCache[Any, AttackResult] = register(
    SizedCache(max_size=192 * 2**20, max_items=32_768, name="attack results")
)


def _hazard(step: PlannedPool, plan: AttackPlan) -> Dist:
    """Mortal wounds to the attacker: one hazard roll per weapon."""
    rolls = sum(count for _, count in step.pool.weapons)
    p_fail = float(np.mean(plan.ruleset.hazard_fails(np.asarray(FACES))))
    per_fail = plan.ruleset.hazard_wounds(plan.context)
    return Dist.binomial(rolls, p_fail).map(lambda k: k * per_fail)


def _mortal_step(step: MortalWounds, layout: Layout, state: Any, plan: AttackPlan) -> Any:
    lost = [wound_lost(g, plan.ruleset, mortal=True) for g in plan.target.groups]
    order = plan.ruleset.current_group
    return spill_mortal_wounds(layout, state, step.amount.dist, lost, order)


def _pool_inputs(
    step: PlannedPool, plan: AttackPlan, kernels: Any
) -> tuple[PoolSteps, np.ndarray, np.ndarray | None, tuple[Damage, ...], tuple[Damage, ...]]:
    """A pool's stages, the faces each group saves, the save dice's face weights and the
    damage per attack and per devastating wound, per group."""
    checks, target = step.checks, plan.target
    stages = hit_and_wound(step.pool, checks, kernels)
    saved = saved_faces(checks, target)
    per_attack, per_mortal = group_damage(checks, target, plan.ruleset)
    return stages, saved, save_weights(checks, saved), per_attack, per_mortal


def pool_state(
    step: PlannedPool,
    layout: Layout,
    before: np.ndarray,
    plan: AttackPlan,
    kernels: Any,
    trimmed: list[float] | None = None,
) -> np.ndarray:
    """The state distribution after one pool (:func:`pool_step` without its result)."""
    stages, saved, faces, per_attack, per_mortal = _pool_inputs(step, plan, kernels)
    focus, order = step.checks.precision_group, plan.ruleset.current_group
    command = command_damage(step.checks, plan.target, plan.ruleset)
    save_command = step.checks.save_reroll == "command"
    args = (saved, per_attack, per_mortal, focus, order, trimmed, faces, command, save_command)
    return apply_pool(layout, before, stages.to_save, *args)


def pool_step(
    step: PlannedPool,
    layout: Layout,
    before: Any,
    plan: AttackPlan,
    kernels: Any,
    trimmed: list[float] | None = None,
) -> tuple[Any, PoolResult]:
    """The state distribution after one pool, and the pool's result."""
    checks = step.checks
    stages, saved, faces, per_attack, per_mortal = _pool_inputs(step, plan, kernels)
    focus, order = checks.precision_group, plan.ruleset.current_group
    command = command_damage(checks, plan.target, plan.ruleset)
    save_command = checks.save_reroll == "command"
    args = (saved, per_attack, per_mortal, focus, order, trimmed, faces, command, save_command)
    state = apply_pool(layout, before, stages.to_save, *args)
    result = PoolResult(
        label=step.label,
        weapons=step.pool.weapons,
        attacks=stages.attacks,
        hits=stages.hits,
        wounds=stages.wounds,
        killed=layout.distribution(state, layout.killed, layout.most_killed),
        unsaved_source=partial(
            unsaved_distribution,
            layout,
            before,
            stages.to_save,
            saved,
            per_attack,
            focus,
            order,
            faces,
            command,
            save_command,
        ),
        devastating=Dist._trusted(stages.to_save.sum(axis=0)),
        abilities=checks.used,
    )
    return state, result


def attack(
    weapons: Any,
    target: Unit | None = None,
    *,
    rules: str | Ruleset | None = None,
    context: Context | None = None,
    modifiers: Modifiers | None = None,
    start: AttackResult | UnitState | None = None,
    choose_by: str = "killed",
    pool_order: str = "given",
    allocation: str = "given",
) -> AttackResult:
    """The exact distributions of a unit's attacks against one target unit.

    Parameters
    ----------
    weapons : Weapon, list of Weapon, list of (Weapon, count), or AttackPlan
        The attacking unit's weapons. Identical attacks (same BS/WS, S, AP, D and
        abilities) are pooled; pools resolve in the order first declared, each one
        changing the target's state (wounded models carry over between pools).
        :class:`~mathhammer.model.pools.MortalWounds` entries are resolved where they
        stand. An :class:`~mathhammer.rules.plan.AttackPlan` (from
        :func:`mathhammer.plan_attack`) is run as it is, with no other argument.
    target : Unit
        The target, its groups in allocation order.
    rules : str or Ruleset
        The ruleset, by registered name or itself: ``"11e"`` (default) or ``"classic"``
        (weapons take ``bs=``, the Ballistic Skill characteristic; the target needs
        ``leadership=``; the result carries the Panic Test probabilities).
    context : Context, optional
        What happened on the table (half range, stationary, charged, cover, ...).
    modifiers : Modifiers, optional
        Roll modifiers, characteristic changes, critical thresholds and re-rolls that
        apply to every pool.
    start : AttackResult or UnitState, optional
        Carry on from the target's state after earlier attacks (a result's ``state``, or
        the result itself): these attacks resolve against each state it holds, weighted
        by its probability, and the result counts from the start of the sequence (its
        ``killed`` and ``damage`` include the earlier attacks'). The target must be the
        unit the state is of, under the same ruleset. See :func:`mathhammer.sequence`.
    choose_by : str
        Where a weapon carries duplicated abilities of which one instance applies (seed
        004: ``[SUSTAINED HITS D3]`` and ``[SUSTAINED HITS 2]``), the player's selection:
        every one is attacked and the best kept by ``"killed"`` (expected models
        destroyed, then P(destroyed); the default), ``"destroyed"`` (P(destroyed), then
        expected models destroyed) or ``"damage"`` (expected wounds lost); the result's
        ``choices`` says what was selected. ``"ranking"`` takes the instance with the
        stronger mean, then the higher maximum, without attacking (as the Monte Carlo does).
    pool_order : {"given", "best"}
        The order the pools resolve in: as declared (the default), or the best of every
        order (up to 6 pools; a greedy order past that) by the ``choose_by`` metric
        (``"killed"`` for ``"ranking"``); ``choices`` says which (see
        :func:`mathhammer.rank_pool_orders`).
    allocation : str
        The order of the target's allocation groups: as given (the default), or the
        defender's best of the orders the rules allow: ``"defender-best"`` (fewest
        expected models destroyed), ``"defender-best:wounds"`` (fewest wounds lost) or
        ``"defender-best:protect:<group name>"`` (the smallest chance that group is
        destroyed). The result's ``target`` is the unit in that order, and ``choices``
        says which (:func:`mathhammer.exact.defender.legal_orders`).

    Returns
    -------
    AttackResult

    Examples
    --------
    >>> import mathhammer as mh
    >>> bolter = mh.Weapon("Bolt rifle", attacks=2, skill=3, strength=4, ap=-1, damage=1)
    >>> marines = mh.Unit.of("Intercessors", models=5, toughness=4, save=3, wounds=2)
    >>> res = mh.attack([(bolter, 10)], marines)

    Each of the 20 attacks hits on 3+ (2/3), wounds S4 vs T4 on 4+ (1/2) and beats
    the 3+ save at AP -1 on a natural 1-3 (1/2): 1/6 unsaved, so about 20/6 wounds.

    >>> round(res.damage.mean(), 4), round(res.killed.at_least(2), 4)
    (3.3332, 0.4335)

    The classic ruleset: BS 3 hits on 4+, S3 vs T3 wounds on 4+, a 5+ save fails on 1-4.

    >>> lasgun = mh.Weapon("Lasgun", attacks=1, bs=3, strength=3)
    >>> troops = mh.Unit.of("Troops", 10, 3, 5, 1, keywords="INFANTRY", leadership=7)
    >>> res = mh.attack([(lasgun, 6)], troops, rules="classic")
    >>> round(res.killed.mean(), 4)  # 6 * 1/2 * 1/2 * 4/6
    1.0
    >>> round(res.p_panic_test, 4)  # P(3 of 10 slain) = P(Binomial(6, 1/6) >= 3)
    0.0623
    >>> round(res.p_panic_fail / res.p_panic_test, 4)  # P(2D6 > 7) = 15/36
    0.4167

    A second unit's attacks carry on from the first's: the chance that the squad of
    marines is destroyed after both.

    >>> first = mh.attack([(bolter, 10)], marines)
    >>> melta = mh.Weapon("Melta", attacks=1, skill=3, strength=9, ap=-4, damage="D6")
    >>> both = mh.attack([(melta, 4)], marines, start=first)
    >>> round(first.p_destroyed, 4), round(both.p_destroyed, 4)
    (0.0006, 0.1857)

    Rules that read the target's size read it as it stands when the attacks are declared
    (docs/rules.md D34): after a mortal wound, five models are four, and a [BLAST] weapon
    gains no die.

    >>> five = mh.Unit.of("Five", 5, 3, 7, 1)
    >>> frag = mh.Weapon("Frag", 1, 2, 6, 0, 1, "[BLAST]")
    >>> after = mh.attack([(frag, 1)], five, start=mh.attack([mh.MortalWounds(1)], five))
    >>> after.pools[0].attacks.probabilities.tolist()
    [0.0, 1.0]
    """
    return attack_declared(
        weapons, target, None, rules=rules, context=context, modifiers=modifiers, start=start,
        choose_by=choose_by, pool_order=pool_order, allocation=allocation,
    )  # fmt: skip


def attack_declared(
    weapons: Any,
    target: Unit | None,
    standing: Standing | None,
    *,
    rules: str | Ruleset | None = None,
    context: Context | None = None,
    modifiers: Modifiers | None = None,
    start: AttackResult | UnitState | None = None,
    choose_by: str = "killed",
    pool_order: str = "given",
    allocation: str = "given",
) -> AttackResult:
    """:func:`attack`, declared against the target as it stood at ``standing``; with None,
    against the target as it stands in each state of ``start`` (docs/rules.md D34).

    A pool of an attack resolved on its own, from the state the pools before it left (as
    :func:`~mathhammer.exact.order.rank_pool_orders` ranks orders), keeps the declaration
    of the attack's start: its [BLAST] counts the models standing when the whole attack
    was declared, not after the pools before it.
    """
    if allocation != "given":
        if not isinstance(allocation, str) or not allocation.startswith("defender-best"):
            raise field_error(OptionError, "allocation", ALLOCATIONS, allocation)
        if start is not None:
            raise OptionError(
                "allocation: a defender's order is chosen before the first attack; give no start"
            )
        if isinstance(target, Unit):
            goal = allocation.removeprefix("defender-best").removeprefix(":") or "models"
            return defender_best(
                weapons, target, goal, attack, rules=rules, context=context,
                modifiers=modifiers, choose_by=choose_by, pool_order=pool_order,
            )  # fmt: skip
    if pool_order != "given":
        if not isinstance(pool_order, str) or pool_order != "best":
            raise field_error(OptionError, "pool_order", "'given' or 'best'", pool_order)
        if isinstance(target, Unit) and not isinstance(weapons, AttackPlan):
            metric = "killed" if choose_by == "ranking" else choose_by
            ordered, said = best_order(
                weapons, target, metric, rules=rules, context=context, modifiers=modifiers,
                start=start, standing=standing,
            )  # fmt: skip
            best_first = attack_declared(
                ordered, target, standing, rules=rules, context=context, modifiers=modifiers,
                start=start, choose_by=choose_by,
            )  # fmt: skip
            return replace(best_first, choices=(*best_first.choices, said))
    if choose_by != "ranking" and (choose_by != "killed" or may_choose(weapons)):
        metric_of(choose_by)  # a metric it does not know is refused, choice or not
        if isinstance(target, Unit) and not isinstance(weapons, AttackPlan):
            options = selections(weapons, target)
            if options == []:
                kept = attack_declared(
                    weapons, target, standing, rules=rules, context=context,
                    modifiers=modifiers, start=start, choose_by="ranking",
                )  # fmt: skip
                return replace(kept, choices=(too_many(weapons),))
            if options is not None:
                results = [
                    (
                        attack_declared(
                            w,
                            target,
                            standing,
                            rules=rules,
                            context=context,
                            modifiers=modifiers,
                            start=start,
                            choose_by="ranking",
                        ),
                        picked,
                    )
                    for w, picked in options
                ]
                best, line = chosen(results, choose_by)
                return replace(best, choices=line)
    if start is not None:
        plan = as_plan(weapons, target, rules, context, modifiers)
        if standing is not None:
            plan = plan.declared(standing)
        return carried(plan, start_state(start, plan.target, plan.ruleset.name))
    if standing is not None:
        return _run(as_plan(weapons, target, rules, context, modifiers).declared(standing))
    known, key, pools = _known(weapons, target, rules, context, modifiers)
    if known is not None:
        return known
    if key is None:
        plan = as_plan(weapons, target, rules, context, modifiers)
        key = plan.key
        found = RESULTS.get(key)
    else:  # plain inputs met for the first time: planned afresh, not looked for again
        assert isinstance(target, Unit) and pools is not None
        plan = plan_pools(pools, target, "11e" if rules is None else rules, context, modifiers)
        found = None
    if found is None:  # computed under these steps' labels
        found = _run(plan)
        size = _footprint(found)
        if size <= RESULTS.max_size // 8:  # a large result would push out many small ones
            RESULTS.put(key, found, size)
        return found
    return _labelled(found, [s if isinstance(s, MortalWounds) else s.pool for s in plan.steps])


def _known(
    weapons: Any,
    target: Any,
    rules: str | Ruleset | None,
    context: Context | None,
    modifiers: Modifiers | None,
) -> tuple[AttackResult | None, tuple[Any, ...] | None, tuple[Pool | MortalWounds, ...] | None]:
    """The result of an attack computed before, found by value without planning it again
    (the pools' checks are not resolved), the key it was looked for by (the plan's
    :attr:`~mathhammer.rules.plan.AttackPlan.key`) and the weapons' pools; None for all
    three when the inputs are not the plain ones (the plan then checks them and says what
    is wrong)."""
    if not isinstance(weapons, list | tuple) or not isinstance(target, Unit):
        return None, None, None
    try:
        pools = declarable(cached_pools(tuple(weapons)), target)
        ruleset = get_ruleset("11e" if rules is None else rules)
        key = value_key(
            ruleset,
            default_context() if context is None else context,
            default_modifiers() if modifiers is None else modifiers,
            target,
            pools,
        )
        found = RESULTS.get(key)
    except (TypeError, MathhammerError):  # unhashable or refused: planned (and refused) below
        return None, None, None
    return (None if found is None else _labelled(found, pools)), key, pools


def carried(plan: AttackPlan, start: UnitState) -> AttackResult:
    """The attack of a plan carried on from ``start``: declared against the target as it
    stands in each of its states (docs/rules.md D34), the states whose declarations agree
    resolved together (:func:`~mathhammer.exact.declared.split_start`), and the parts'
    results mixed by their probabilities. A plan declared against a standing already is
    run from every state as it is."""
    parts = split_start(plan, start)
    return mixed([(weight, _run(declared, part)) for weight, declared, part in parts])


def _run(plan: AttackPlan, start: UnitState | None = None) -> AttackResult:
    """The attack of a plan, computed: by the closed form of a one-group target where it
    applies (:mod:`~mathhammer.exact.single`), else on the target's layout; from the
    state ``start`` where given."""
    target = plan.target
    check_limit("target wounds", target.total_wounds, MAX_UNIT_WOUNDS, SIMULATE_HINT)
    check_sizes(plan, EXACT_LIMITS)
    found = _run_single(plan, start)
    return _run_layout(plan, start) if found is None else found


def _tests_after(plan: AttackPlan, killed: Dist) -> tuple[TestResult, ...]:
    """The after-attack tests, on the models this attack destroyed (``killed`` counts from
    the start of the sequence: less those destroyed before the attacks were declared,
    which every state of a plan's start shares, :func:`carried`)."""
    if not plan.tests:
        return ()
    now = killed if plan.before == 0 else Dist._trusted(killed.probabilities[plan.before :])
    return tuple(_test(test, now) for test in plan.tests)


def _run_single(plan: AttackPlan, start: UnitState | None = None) -> AttackResult | None:
    """The attack of a plan on a one-group target by the closed form, or None where it
    does not apply: a mortal-wound step, a ruleset with its own allocation order, damage
    that depends on the wounds left, a command re-roll of a damage roll or of a save, or
    a chain past :data:`~mathhammer.exact.single.LINE_WORK` (the layout's engine then
    estimates the cost, and refuses what is too large)."""
    target, ruleset = plan.target, plan.ruleset
    if len(target.groups) != 1 or type(ruleset).current_group is not Ruleset.current_group:
        return None
    line = Line.of(target.groups[0])
    pools: list[tuple[PlannedPool, PlainSteps | tuple[Any, Any], Dist, Dist | None]] = []
    for step in plan.steps:
        if isinstance(step, MortalWounds):
            return None
        checks = step.checks
        given: PlainSteps | tuple[Any, Any] | None = plain_stages(step.pool, checks)
        with_devastating = False
        if given is None:
            hk, wk = hit_kernel(checks), wound_kernel(checks)
            with_devastating = wk.shape[1] != 1
            if hk.shape != (2, 1) or wk.shape != (2, 1):
                cost = stage_cost(step, hk, wk)[0]
                if cost.entries > MAX_TABLE or cost.work > MAX_WORK:
                    return None
            given = (hk, wk)
        per_attack, per_mortal = group_damage(checks, target, ruleset)
        lost, mortal = per_attack[0], per_mortal[0]
        if not isinstance(lost, Dist) or not isinstance(mortal, Dist):
            return None  # damage that depends on the wounds left
        if command_damage(checks, target, ruleset) or checks.save_reroll == "command":
            return None  # a flag beside the states: the layout's
        work = line.work(lost.probabilities, step.hits)
        if with_devastating:
            work += line.work(mortal.probabilities, step.hits)
        if work > LINE_WORK:
            return None
        pools.append((step, given, lost, mortal if with_devastating else None))
    state = np.zeros(line.size + 1)
    if start is None:
        state[0] = 1.0
    else:
        np.add.at(state, start.positions[:, 0], start.probabilities)
    results = []
    hazardous = _NONE
    trimmed: list[float] = []
    for step, given, damage, mortal_damage in pools:
        checks = step.checks
        taken = damage.probabilities
        stages: PlainSteps | PoolSteps = (
            given if isinstance(given, PlainSteps) else hit_and_wound(step.pool, checks, given)
        )
        before = state
        fail = _fail(checks, target)
        devastating = _NONE
        after = None
        if isinstance(stages, PlainSteps):  # a plain pool: its dice thinned once more
            q = stages.wound * fail
            dice = fixed_dice(step.pool, checks)
            if dice is not None:  # a number of dice: the state after them, if it costs less
                after = line.apply_dice(state, dice, q, taken)
            if after is None:
                failed = thinned_dice(step.pool, checks, q)
        elif mortal_damage is not None:  # the failed saves jointly with devastating wounds
            devastating = Dist._trusted(stages.to_save.sum(axis=0))
            state, failed = _devastating_line(
                line, state, stages.to_save, fail, taken, mortal_damage.probabilities, trimmed
            )
        elif stages.die is None:
            failed = binomial_thin(stages.to_save[:, 0], fail)
        else:
            failed = failed_saves(stages.attacks.probabilities, stages.die[:, 0], fail)
        if after is not None:  # the failed saves made when first asked for
            state = after
            unsaved = partial(_dice_unsaved, line, before, step.pool, checks, q, taken)
        else:
            if mortal_damage is None:
                state = line.apply(state, failed, taken, trimmed)
            unsaved = partial(_line_unsaved, line, before, failed, taken)
        results.append(
            PoolResult(
                label=step.label,
                weapons=step.pool.weapons,
                attacks=stages.attacks,
                hits=stages.hits,
                wounds=stages.wounds,
                killed=_distribution(state, line.killed),
                unsaved_source=unsaved,
                devastating=devastating,
                abilities=checks.used,
            )
        )
        if checks.hazardous:
            hazardous = hazardous + _hazard(step, plan)
    killed = results[-1].killed if results else _distribution(state, line.killed)
    damage = Dist._trusted(state)
    return AttackResult(
        target=target,
        rules=ruleset.name,
        killed=killed,
        damage=damage,
        groups=(GroupResult(target.groups[0], killed, damage=damage),),
        pools=tuple(results),
        hazardous=hazardous,
        tests=_tests_after(plan, killed),
        trimmed=float(sum(trimmed)),
        state=UnitState(target, ruleset.name, line.positions, state),
    )


#: No devastating wounds, no hazard: shared, as every distribution is immutable.
_NONE = Dist.constant(0)


def _devastating_line(
    line: Line,
    state: np.ndarray,
    to_save: np.ndarray,
    fail: float,
    damage: np.ndarray,
    mortal: np.ndarray,
    trimmed: list[float],
) -> tuple[np.ndarray, np.ndarray]:
    """The state after a pool with devastating wounds on a one-group target, and the pmf of
    its failed saves: as :func:`~mathhammer.exact.chain.apply_pool` on the group's layout,
    the count of devastating wounds trimmed and capped at the wounds the group has (when
    each costs one), the dice to save thinned by ``fail`` jointly with it, the failed
    saves resolved, then the devastating wounds (:meth:`Line.apply_devastating`)."""
    kept, cut = trim_counts(to_save.T)
    to_save = kept.T
    trimmed.append(cut)
    if mortal[0] == 0.0:  # every devastating wound costs a wound
        to_save = cap_passengers(to_save, line.size)
    failed = binomial_thin(to_save, fail)
    after = line.apply_devastating(state, failed, damage, mortal, trimmed)
    return after, failed.sum(axis=1)


def _fail(checks: PoolChecks, target: Unit) -> float:
    """P(a save fails) against the target's one group, the defender's re-rolls included."""
    if checks.save_reroll is None:
        return failed_faces(checks.saves(FACE_ARRAY, target.groups[0])) / len(FACES)
    saved_by_face = saved_faces(checks, target)
    faces = save_weights(checks, saved_by_face)
    assert faces is not None  # a command re-roll is the layout's
    return float(faces[0][~saved_by_face[0]].sum())


def _distribution(state: np.ndarray, values: np.ndarray) -> Dist:
    """The distribution of a per-state integer quantity (as :meth:`Layout.distribution`)."""
    counts: Any = np.bincount(values, weights=state, minlength=int(values[-1]) + 1)
    return Dist._trusted(counts)  # weighted counts are float64 already


def _line_unsaved(line: Line, state: np.ndarray, failed: np.ndarray, damage: np.ndarray) -> Dist:
    """A pool's failed saves that inflicted damage on a one-group target (computed on
    first access)."""
    return Dist._trusted(line.unsaved(state, failed, damage))


def _dice_unsaved(
    line: Line, state: np.ndarray, pool: Pool, checks: PoolChecks, fail: float, damage: np.ndarray
) -> Dist:
    """:func:`_line_unsaved` of a pool whose dice failed their saves with probability
    ``fail`` each (its failed saves computed too, on first access)."""
    return _line_unsaved(line, state, thinned_dice(pool, checks, fail), damage)


def _run_layout(plan: AttackPlan, start: UnitState | None = None) -> AttackResult:
    """The attack of a plan on the target's layout (from ``start``, where given: on a
    layout that holds its states too), with BLAS on one thread (:mod:`~mathhammer.core.blas`:
    a second thread made the chain many times slower on a busy machine)."""
    layout, kernels, state = layout_start(plan, start)
    results = []
    hazardous = Dist.constant(0)
    trimmed: list[float] = []
    with one_thread():
        for step, pair in zip(plan.steps, kernels, strict=True):
            if isinstance(step, MortalWounds):
                state = _mortal_step(step, layout, state, plan)
                count = step.amount.dist
                killed = layout.distribution(state, layout.killed, layout.most_killed)
                results.append(PoolResult.mortal(step.label, count, killed))
                continue
            state, result = pool_step(step, layout, state, plan, pair, trimmed)
            if step.checks.hazardous:
                hazardous = hazardous + _hazard(step, plan)
            results.append(result)
    return layout_result(plan, layout, state, results, hazardous, trimmed)


def layout_start(plan: AttackPlan, start: UnitState | None) -> tuple[Layout, Any, np.ndarray]:
    """The layout a plan runs on (its cost checked), the pools' kernels and the state
    distribution it starts from."""
    focus = None if start is None else tuple(sorted({*plan.focus, *start.focus}))
    layout, kernels = check_plan(plan, focus)
    state = layout.initial_state() if start is None else layout.state_of(start)
    return layout, kernels, state


def layout_result(
    plan: AttackPlan,
    layout: Layout,
    state: np.ndarray,
    results: Sequence[PoolResult],
    hazardous: Dist,
    trimmed: Sequence[float],
) -> AttackResult:
    """The result of a plan that left ``state`` on its layout."""
    groups = tuple(
        GroupResult(
            g,
            layout.distribution(state, killed, most_killed),
            damage=layout.distribution(state, lost, most_lost),
        )
        for g, (killed, most_killed, lost, most_lost) in zip(
            plan.target.groups, layout.by_group, strict=True
        )
    )
    killed = layout.distribution(state, layout.killed, layout.most_killed)
    return AttackResult(
        target=plan.target,
        rules=plan.ruleset.name,
        killed=killed,
        damage=layout.distribution(state, layout.damage, layout.most_damage),
        groups=groups,
        pools=tuple(results),
        hazardous=hazardous,
        tests=_tests_after(plan, killed),
        trimmed=float(sum(trimmed)),
        state=UnitState(plan.target, plan.ruleset.name, layout.positions, state, layout.focus),
    )


def _labelled(found: AttackResult, steps: Sequence[Pool | MortalWounds]) -> AttackResult:
    """A result computed for the same key, under the labels of these steps.

    The distributions are shared (they are read-only); a pool's failed saves, computed on
    first access, are computed once for both.
    """
    pools = []
    for step, pool in zip(steps, found.pools, strict=True):
        weapons = () if isinstance(step, MortalWounds) else step.weapons
        if pool.label == step.label and pool.weapons == weapons:
            pools.append(pool)
        else:
            source = partial(getattr, pool, "unsaved")
            pools.append(replace(pool, label=step.label, weapons=weapons, unsaved_source=source))
    if all(a is b for a, b in zip(pools, found.pools, strict=True)):
        return found
    return replace(found, pools=tuple(pools))


def _footprint(result: AttackResult) -> int:
    """The bytes a result holds, roughly: its distributions (each once: a one-group result's
    group and last pool share its own), and the arrays its pools keep to compute their
    failed saves on demand."""
    killed = result.killed
    total = 2048 * (1 + len(result.pools)) + killed.held_bytes + result.damage.held_bytes
    for group in result.groups:
        if group.killed is not killed:
            total += group.killed.held_bytes
    if result.state is not None:  # its positions are the layout's, held anyway
        total += result.state.probabilities.nbytes
    for pool in result.pools:
        # the stages computed when the attack was (not those computed later)
        for held in (pool.killed, pool.devastating, pool.attacks, pool.hits, pool.wounds):
            if held is not killed:
                total += held.held_bytes
        source = pool.unsaved_source
        if type(source) is partial:
            for arg in source.args:
                if type(arg) is np.ndarray:
                    total += arg.nbytes
                elif isinstance(arg, Layout):
                    total += arg.positions.nbytes * 4
    return total


def _test(test: AfterAttackTest, killed: Dist) -> TestResult:
    """P(the target takes the test) and P(it takes it and fails), after all the attacks."""
    taken = np.asarray(test.taken(np.arange(killed.n + 1)), dtype=bool)
    p_taken = float(killed.probabilities[taken].sum())
    totals = np.indices((len(FACES),) * test.dice).sum(axis=0).ravel() + test.dice
    p_fails = float(np.mean(test.fails(totals)))
    return TestResult(test.name, p_taken, p_taken * p_fails)
