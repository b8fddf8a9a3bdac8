"""The exact engine: a unit's pools of attacks, in order, against one target unit."""

from __future__ import annotations

from functools import partial
from types import ModuleType
from typing import Any

import numpy as np

from ..core.dist import Dist
from ..errors import LimitError, field_error
from ..model.context import Context, Modifiers, check_inputs
from ..model.pools import MortalWounds, Pool, gather_pools
from ..model.profiles import ModelGroup, Unit
from ..results.attack import AttackResult, GroupResult, PoolResult
from ..rules import get_ruleset
from ..rules.base import FACES, PoolRules
from .chain import Layout, resolve_pool, spill_mortal_wounds, unsaved_distribution
from .steps import hit_and_wound

__all__ = ["MAX_POOL_DICE", "MAX_UNIT_WOUNDS", "attack", "group_damage"]

#: The most attack dice one pool may roll in the exact engine.
MAX_POOL_DICE = 2000
#: The most wounds a target unit may have in the exact engine.
MAX_UNIT_WOUNDS = 5000


def _check_sizes(
    pools: tuple[Pool | MortalWounds, ...], resolved: list[PoolRules | None], target: Unit
) -> None:
    hint = "use mathhammer.simulate for larger attacks"
    if target.total_wounds > MAX_UNIT_WOUNDS:
        raise field_error(
            LimitError, "target wounds", f"at most {MAX_UNIT_WOUNDS}", target.total_wounds, hint
        )
    for pool, rules in zip(pools, resolved, strict=True):
        if isinstance(pool, MortalWounds) or rules is None:
            continue
        bonus = sum(extra.max for extra in rules.bonus_attacks)
        dice = sum(n * (w.attacks.max + bonus) for w, n in pool.weapons)  # type: ignore[union-attr,misc]
        if dice > MAX_POOL_DICE:
            raise field_error(
                LimitError,
                f"attack dice of pool {pool.label!r}",
                f"at most {MAX_POOL_DICE}",
                dice,
                hint,
            )


def _wound_lost(group: ModelGroup, ruleset: ModuleType) -> float:
    """P(a wound is lost): Feel No Pain prevents each wound with P(roll >= FNP)."""
    if group.fnp is None:
        return 1.0
    return float(np.mean(~ruleset.fnp_outcome(np.asarray(FACES), group.fnp)))


def group_damage(
    rules: PoolRules, target: Unit, ruleset: ModuleType
) -> tuple[list[Dist], list[Dist]]:
    """Per group: wounds lost to one unsaved attack, and to one devastating wound.

    The Damage characteristic is set, multiplied and added to by the attacker ([MELTA]
    adds), then halved and reduced by the defender (fractions round up, minimum 1);
    Feel No Pain is rolled for every wound, so the wounds lost are a binomial thinning.
    A devastating wound deals mortal wounds equal to the attacker's D: the defender's
    halving and reduction apply to attacks' damage, not to mortal wounds [DECISION].
    """
    # every (rolled D, rolled MELTA X) pair, with its probability
    d_values = np.arange(rules.damage.dist.n + 1)
    melta = rules.melta.dist if rules.melta is not None else Dist.constant(0)
    x_values = np.arange(melta.n + 1)
    weights = np.outer(rules.damage.dist.probabilities, melta.probabilities).ravel()
    d, x = np.repeat(d_values, len(x_values)), np.tile(x_values, len(d_values))
    mortal = ruleset.modified_damage(d, rules.damage_multiply, rules.damage_add + x)
    attacks, mortals = [], []
    for g in target.groups:
        lost = _wound_lost(g, ruleset)
        value = ruleset.modified_damage(
            d, rules.damage_multiply, rules.damage_add + x, g.halve_damage, g.damage_reduction
        )
        attacks.append(_pmf_of(value, weights).thin(lost))
        mortals.append(_pmf_of(mortal, weights).thin(lost))
    return attacks, mortals


def _pmf_of(values: np.ndarray, weights: np.ndarray) -> Dist:
    return Dist._trusted(np.bincount(values, weights=weights).astype(np.float64))


def _saved_faces(rules: PoolRules, target: Unit) -> np.ndarray:
    faces = np.asarray(FACES)
    return np.array([rules.saves(faces, g) for g in target.groups], dtype=bool)


def _hazard(pool: Pool, context: Context, ruleset: ModuleType) -> Dist:
    """Mortal wounds to the attacker: one hazard roll per weapon, failing on 1-2."""
    rolls = sum(count for _, count in pool.weapons)
    fails = Dist.binomial(rolls, float(np.mean(ruleset.hazard_fails(np.asarray(FACES)))))
    per_fail = 3 if context.attacker_monster_or_vehicle else 1
    return fails.map(lambda k: k * per_fail)


def attack(
    weapons: Any,
    target: Unit,
    *,
    rules: str = "11e",
    context: Context | None = None,
    modifiers: Modifiers | None = None,
) -> AttackResult:
    """The exact distributions of a unit's attacks against one target unit.

    Parameters
    ----------
    weapons : Weapon, list of Weapon, or list of (Weapon, count)
        The attacking unit's weapons. Identical attacks (same BS/WS, S, AP, D and
        abilities) are pooled; pools resolve in the order first declared, each one
        changing the target's state (wounded models carry over between pools).
        :class:`~mathhammer.model.profiles.MortalWounds` entries are resolved where they stand.
    target : Unit
        The target, its groups in allocation order.
    rules : str
        The ruleset: ``"11e"`` (default) or ``"classic"`` (weapons take ``bs=``, the
        Ballistic Skill characteristic; the target needs ``leadership=``; the result
        carries the Panic Test probabilities).
    context : Context, optional
        What happened on the table (half range, stationary, charged, cover, ...).
    modifiers : Modifiers, optional
        Roll modifiers, characteristic changes, critical thresholds and re-rolls that
        apply to every pool.

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
    """
    context, modifiers = check_inputs(target, context, modifiers)
    ruleset = get_ruleset(rules)
    ruleset.check_target(target)
    steps = gather_pools(weapons)
    resolved = [
        None
        if isinstance(p, MortalWounds)
        else ruleset.resolve_pool(p.weapon, target, context, modifiers)
        for p in steps
    ]
    _check_sizes(steps, resolved, target)
    focus = [None if r is None else r.precision_group for r in resolved]
    layout = Layout.of(target, tuple(sorted({f for f in focus if f is not None})))
    state = layout.initial_state()
    results = []
    hazardous = Dist.constant(0)
    for step, pool_rules, pool_focus in zip(steps, resolved, focus, strict=True):
        before = state
        if isinstance(step, MortalWounds):
            count = step.amount.dist  # type: ignore[union-attr]
            lost = [_wound_lost(g, ruleset) for g in target.groups]
            state = spill_mortal_wounds(layout, before, count, lost)
            results.append(
                PoolResult(
                    step.label,
                    (),
                    count,
                    count,
                    count,
                    layout.distribution(state, layout.killed),
                    count,
                )
            )
            continue
        assert pool_rules is not None
        stages = hit_and_wound(step, pool_rules)
        saved = _saved_faces(pool_rules, target)
        per_attack, per_mortal = group_damage(pool_rules, target, ruleset)
        state = resolve_pool(
            layout, before, stages.to_save, saved, per_attack, per_mortal, pool_focus
        )
        if pool_rules.hazardous:
            hazardous = hazardous + _hazard(step, context, ruleset)
        results.append(
            PoolResult(
                label=step.label,
                weapons=step.weapons,
                attacks=stages.attacks,
                hits=stages.hits,
                wounds=stages.wounds,
                killed=layout.distribution(state, layout.killed),
                unsaved_source=partial(
                    unsaved_distribution,
                    layout,
                    before,
                    stages.to_save,
                    saved,
                    per_attack,
                    pool_focus,
                ),
                devastating=Dist._trusted(stages.to_save.sum(axis=0)),
                abilities=pool_rules.used,
            )
        )
    groups = tuple(
        GroupResult(g, layout.distribution(state, layout.killed_in_group(i)))
        for i, g in enumerate(target.groups)
    )
    killed = layout.distribution(state, layout.killed)
    p_test, p_fail = _panic(ruleset, target, killed)
    return AttackResult(
        target=target,
        rules=ruleset.NAME,
        killed=killed,
        damage=layout.distribution(state, layout.damage),
        groups=groups,
        pools=tuple(results),
        hazardous=hazardous,
        p_panic_test=p_test,
        p_panic_fail=p_fail,
    )


def _panic(ruleset: ModuleType, target: Unit, killed: Dist) -> tuple[float | None, float | None]:
    """P(the target must take a Panic Test) and P(it fails one), after all the attacks.

    The test is taken when at least a quarter of the models (rounded up) were slain and
    the unit still has models; it fails when 2D6 rolls higher than Ld.
    """
    if not ruleset.PANIC_TESTS:
        return None, None
    if not ruleset.takes_panic_tests(target):
        return 0.0, 0.0
    threshold = ruleset.panic_threshold(target.models)
    p_test = float(killed.probabilities[threshold : target.models].sum())
    two_dice = np.add.outer(FACES, FACES)
    p_fails = float(np.mean(ruleset.panic_fails(two_dice, target.leadership)))
    return p_test, p_test * p_fails
