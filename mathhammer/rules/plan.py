"""The attack plan: an attack's inputs checked and resolved once, for either engine.

:func:`plan_attack` validates the target, context and modifiers, asks the ruleset to
refuse what it cannot resolve, gathers the weapons into pools in the order declared,
and resolves each pool's checks. The exact engine (:func:`mathhammer.attack`) and the
Monte Carlo (:func:`mathhammer.simulate`) both run an :class:`AttackPlan`, so what is
attacked, and under which rules, is decided in one place.

The sizes that drive either engine's memory and work (attack dice, hits, damage, mortal
wounds) are read from the plan here too, at their largest, and :func:`check_sizes`
compares them with an engine's limits (:mod:`mathhammer.core.limits`) before anything
is computed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..core.caches import register
from ..core.frozen import HashedKey, fast_init, once
from ..core.limits import check_limit, shorten
from ..errors import ProfileError, field_error
from ..model.abilities import usable_against
from ..model.context import Context, Modifiers, default_context, default_modifiers
from ..model.pools import MortalWounds, Pool, WeaponsLike, gather_pools
from ..model.profiles import Unit, Weapon
from ..model.standing import Standing
from .base import AfterAttackTest, PoolChecks, Ruleset
from .registry import RulesetLike, get_ruleset

__all__ = [
    "AttackPlan",
    "PlanLimits",
    "PlannedPool",
    "as_plan",
    "cached_pools",
    "check_sizes",
    "declarable",
    "declared_pools",
    "plan_attack",
    "plan_pools",
    "steps_key",
    "value_key",
]


@fast_init
@dataclass(frozen=True)
class PlannedPool:
    """A pool of identical attacks and its checks against the plan's target, with the
    sizes the engine's limits and costs read (computed by :meth:`of`, where a property
    computed on first use would be called from C: a comparison pair reads each)."""

    pool: Pool
    checks: PoolChecks
    #: The most attack dice the pool rolls, bonus attacks ([BLAST], ...) included.
    attack_dice: int
    #: The most hits the pool scores: every die a critical hit with the most extra hits
    #: [SUSTAINED HITS] gives (lethal hits included).
    hits: int
    #: The largest Damage of one attack before the defender's modifiers: D (or the damage
    #: set) times the multiplier, plus the damage added and [MELTA] X.
    damage: int

    @classmethod
    def of(cls, pool: Pool, checks: PoolChecks) -> PlannedPool:
        """The pool planned with ``checks``, its sizes computed."""
        dice = _attack_dice(pool, checks)
        extra = checks.sustained.max if checks.sustained is not None else 0
        melta = checks.melta.max if checks.melta is not None else 0
        added = checks.damage_add if checks.damage_add > 0 else 0
        damage = checks.damage.max * checks.damage_multiply + added + melta
        return cls(pool, checks, dice, dice * (1 + extra), damage)

    @property
    def label(self) -> str:
        """The weapons gathered, e.g. ``"Bolt rifle x10"``."""
        return self.pool.label


def _attack_dice(pool: Pool, checks: PoolChecks) -> int:
    """:attr:`PlannedPool.attack_dice` of a pool with these checks."""
    bonus = 0
    for extra in checks.bonus_attacks:
        bonus += extra.max
    dice = 0
    for attacks, n in checks.pool_dice(pool):
        dice += n * (attacks.max + bonus)
    return dice


@fast_init
@dataclass(frozen=True)
class AttackPlan:
    """What an attack resolves, in order: pools (with their checks) and mortal-wound steps.

    Examples
    --------
    >>> import mathhammer as mh
    >>> gun = mh.Weapon("Gun", attacks=2, skill=3, strength=4, ap=-1, damage=1)
    >>> plan = plan_attack([(gun, 10)], mh.Unit.of("Squad", 5, 4, 3, 2))
    >>> [step.label for step in plan.steps], plan.ruleset.name
    (['Gun x10'], '11e')
    """

    target: Unit
    ruleset: Ruleset
    context: Context
    modifiers: Modifiers
    steps: tuple[PlannedPool | MortalWounds, ...]
    #: The target as it stood when the attacks were declared (docs/rules.md D34), or a
    #: standing that agrees with it on everything the plan reads (:attr:`reads`); None for
    #: a plan declared against the target as it stands wherever it starts (the whole unit,
    #: or each state an attack carries on from: see
    #: :func:`~mathhammer.rules.standing.declarations`).
    standing: Standing | None = None

    @property
    def focus(self) -> tuple[int, ...]:
        """The CHARACTER groups some pool may make current ([PRECISION])."""
        groups = {
            s.checks.precision_group
            for s in self.steps
            if isinstance(s, PlannedPool) and s.checks.precision_group is not None
        }
        return tuple(sorted(groups))

    @property
    def key(self) -> HashedKey:
        """What the plan computes, as a hashable value: the ruleset, context, modifiers and
        target, and per step the pool's profile (:attr:`Weapon.pool_key`) with each
        weapon's attacks and count, or the mortal wounds' amount. Names are not part of it:
        two plans with equal keys have the same distributions, only their labels differ.

        Examples
        --------
        >>> import mathhammer as mh
        >>> squad = mh.Unit.of("Squad", 5, 4, 3, 2)
        >>> a = plan_attack([(mh.Weapon("Gun", 2, 3, 4, -1, 1), 10)], squad)
        >>> b = plan_attack([(mh.Weapon("Rifle", 2, 3, 4, -1, 1), 10)], squad)
        >>> a.key == b.key, a.steps[0].label == b.steps[0].label
        (True, False)
        """
        key = value_key(self.ruleset, self.context, self.modifiers, self.target, self.pools)
        return key if self.standing is None else HashedKey((*key.parts, self.standing))

    @property
    def pools(self) -> tuple[Pool | MortalWounds, ...]:
        """The plan's steps before their checks were resolved."""
        return tuple(s if isinstance(s, MortalWounds) else s.pool for s in self.steps)

    @property
    def before(self) -> int:
        """The target's models destroyed before these attacks were declared."""
        return 0 if self.standing is None else self.standing.killed

    @once
    def tests(self) -> tuple[AfterAttackTest, ...]:
        """The tests the target takes after the attack, under this ruleset."""
        return self.ruleset.after_attack_tests(self.target, before=self.before)

    def declared(self, standing: Standing) -> AttackPlan:
        """The same attack declared against the target as it stands at ``standing``: its
        pools' checks resolved again (docs/rules.md D34).

        Examples
        --------
        >>> import mathhammer as mh
        >>> frag = mh.Weapon("Frag", 1, 2, 6, 0, 1, "[BLAST]")
        >>> five = mh.Unit.of("Five", 5, 3, 7, 1)
        >>> plan = plan_attack([(frag, 1)], five)
        >>> [e.max for e in plan.steps[0].checks.bonus_attacks]
        [1]
        >>> [e.max for e in plan.declared(Standing(five, (4,), 0)).steps[0].checks.bonus_attacks]
        [0]
        """
        return _declared_plan(
            self.pools, self.target, self.ruleset, self.context, self.modifiers, standing
        )

    @once
    def reads(self) -> frozenset[str]:
        """What the plan read of the target as it stood at declaration: its pools' checks'
        (:attr:`PoolChecks.reads`), and the models destroyed before where the ruleset has
        after-attack tests (they read them)."""
        found = {f for s in self.steps if isinstance(s, PlannedPool) for f in s.checks.reads}
        if self.tests:
            found.add("killed")
        return frozenset(found)

    def declaration(self) -> tuple[Any, ...]:
        """What a standing changes in the plan, as a value: its pools' checks, and the
        models destroyed before where the ruleset has tests that read them. Two plans of
        the same attack with equal declarations compute the same distributions."""
        checks = tuple(s.checks for s in self.steps if isinstance(s, PlannedPool))
        return (checks, self.before if self.tests else None)


def value_key(
    ruleset: Ruleset,
    context: Context,
    modifiers: Modifiers,
    target: Unit,
    pools: Sequence[Pool | MortalWounds],
) -> HashedKey:
    """:attr:`AttackPlan.key` from the parts of a plan, before the pools' checks are
    resolved: the pools as :func:`~mathhammer.model.pools.gather_pools` makes them.

    The key keeps its hash once computed (:class:`~mathhammer.core.frozen.HashedKey`): a
    cache looks it up and stores it more than once. The target stands in it as its own
    hashed key (:data:`~mathhammer.core.frozen.HASHED`), hashed once per target rather
    than once per key made of it (a context is often made afresh for each attack)."""
    return HashedKey((ruleset, context, modifiers, target.hashed, steps_key(pools)))


def steps_key(pools: Sequence[Pool | MortalWounds]) -> tuple[Any, ...]:
    """The steps of :attr:`AttackPlan.key`: per pool its profile (:attr:`Weapon.pool_key`)
    with each weapon's attacks and count, or a mortal-wound step's amount (names left out).

    Examples
    --------
    >>> import mathhammer as mh
    >>> gun, rifle = mh.Weapon("Gun", 2, 3, 4), mh.Weapon("Rifle", 2, 3, 4)
    >>> steps_key(cached_pools(((gun, 3),))) == steps_key(cached_pools(((rifle, 3),)))
    True
    """
    steps: list[tuple[Any, ...]] = []
    for pool in pools:
        if isinstance(pool, MortalWounds):
            steps.append(("mortal wounds", pool.amount))
        else:
            steps.append((pool.weapon.pool_key, pool.dice))
    return tuple(steps)


@register
@lru_cache(maxsize=8192)
def cached_pools(weapons: tuple[Any, ...]) -> tuple[Pool | MortalWounds, ...]:
    """:func:`~mathhammer.model.pools.gather_pools` of the same entries, made once."""
    return tuple(gather_pools(weapons))


@register
@lru_cache(maxsize=8192)
def declared_pools(
    weapons: tuple[Any, ...], keywords: tuple[str, ...]
) -> tuple[Pool | MortalWounds, ...]:
    """The :func:`declarable` pools of the same entries against a target with these
    keywords, made once (the pools an attack repeated with the same weapons declares)."""
    return _declarable(cached_pools(weapons), keywords)


@dataclass(frozen=True)
class PlanLimits:
    """An engine's limits on a plan's sizes, and the remedy past them."""

    dice: int
    hits: int
    damage: int
    mortal_wounds: int
    hint: str = ""


def check_sizes(plan: AttackPlan, limits: PlanLimits) -> None:
    """Refuse a plan whose attack dice, hits, damage or mortal wounds pass ``limits``.

    Raises
    ------
    LimitError
        Naming the pool (or step) and the size, e.g. ``"hits of pool 'Gun x10' (attack
        dice x (1 + [SUSTAINED HITS] X)) must be at most 6000; got 62000"``.

    Examples
    --------
    >>> import mathhammer as mh
    >>> gun = mh.Weapon("Gun", 1, 3, 4, 0, 1, abilities="[SUSTAINED HITS 30]")
    >>> plan = plan_attack([(gun, 2000)], mh.Unit.of("Squad", 5, 4, 3, 2))
    >>> check_sizes(plan, PlanLimits(dice=2000, hits=6000, damage=1000, mortal_wounds=10))
    Traceback (most recent call last):
    ...
    mathhammer.errors.LimitError: hits of pool 'Gun x2000' (attack dice x (1 + [SUSTAINED HITS]
    X)) must be at most 6000; got 62000
    """
    hint = limits.hint
    for step in plan.steps:
        if _within(step, limits):
            continue
        if isinstance(step, MortalWounds):
            amount = step.amount.max
            field = f"mortal wounds of {shorten(step.label)!r}"
            check_limit(field, amount, limits.mortal_wounds, hint)
            continue
        label = f"pool {shorten(step.label)!r}"
        check_limit(f"attack dice of {label}", step.attack_dice, limits.dice, hint)
        sustained = "(attack dice x (1 + [SUSTAINED HITS] X))"
        check_limit(f"hits of {label} {sustained}", step.hits, limits.hits, hint)
        damage = "(D x multiplier + added damage + [MELTA] X)"
        check_limit(f"damage of one attack of {label} {damage}", step.damage, limits.damage, hint)


def _within(step: PlannedPool | MortalWounds, limits: PlanLimits) -> bool:
    """Whether a step passes every limit (checked before any message is made)."""
    if isinstance(step, MortalWounds):
        return step.amount.max <= limits.mortal_wounds
    return (
        step.attack_dice <= limits.dice
        and step.hits <= limits.hits
        and step.damage <= limits.damage
    )


def plan_attack(
    weapons: WeaponsLike,
    target: Unit,
    *,
    rules: RulesetLike = "11e",
    context: Context | None = None,
    modifiers: Modifiers | None = None,
) -> AttackPlan:
    """Check an attack's inputs and resolve every pool's checks under the ruleset.

    Parameters are those of :func:`mathhammer.attack`.
    """
    return plan_pools(_pools(weapons), target, rules, context, modifiers)


def _check_inputs(
    target: Any, context: Context | None, modifiers: Modifiers | None
) -> tuple[Context, Modifiers]:
    """Validate an attack's target, context and modifiers; fill in the defaults."""
    context = default_context() if context is None else context
    modifiers = default_modifiers() if modifiers is None else modifiers
    # checked together, the one at fault named only on failure: this runs on every attack
    valid = isinstance(target, Unit) and isinstance(context, Context)
    if not (valid and isinstance(modifiers, Modifiers)):
        _refuse_inputs(target, context, modifiers)
    return context, modifiers


def _refuse_inputs(target: object, context: object, modifiers: object) -> None:
    """Refuse the first input of an attack that is not of its type."""
    for value, kind, field, what in (
        (target, Unit, "target", "a Unit"),
        (context, Context, "context", "a Context"),
        (modifiers, Modifiers, "modifiers", "a Modifiers"),
    ):
        if not isinstance(value, kind):
            raise field_error(ProfileError, field, what, value)


def plan_pools(
    pools: Sequence[Pool | MortalWounds],
    target: Unit,
    rules: RulesetLike,
    context: Context | None,
    modifiers: Modifiers | None,
    standing: Standing | None = None,
    *,
    declared: bool = False,
) -> AttackPlan:
    """:func:`plan_attack` of the pools :func:`~mathhammer.model.pools.gather_pools` made of
    the weapons (for a caller that has them already); declared against the target as it
    stands at ``standing``, where given (docs/rules.md D34). A pool whose profile may not
    target this unit (:class:`~mathhammer.model.abilities.OnlyAgainst`) is left out, unless
    the caller has left them out already (``declared``: the pools are :func:`declarable`'s)."""
    context, modifiers = _check_inputs(target, context, modifiers)
    ruleset = get_ruleset(rules)
    ruleset.check_target(target)
    ruleset.check_situation(context, modifiers)
    steps: list[PlannedPool | MortalWounds] = []
    for step in pools if declared else declarable(pools, target):
        if isinstance(step, MortalWounds):
            steps.append(step)
            continue
        here, mods = _buffed(step.weapon, ruleset, context, modifiers)
        checks = ruleset.pool_checks(step.weapon, target, here, mods, standing)
        steps.append(PlannedPool.of(step, checks))
    return AttackPlan(target, ruleset, context, modifiers, tuple(steps), standing)


def _buffed(
    weapon: Weapon, ruleset: Ruleset, context: Context, modifiers: Modifiers
) -> tuple[Context, Modifiers]:
    """The context and modifiers of a pool's attacks: the attack's, with the buff on the
    pool's weapon combined where it has one (and the result checked by the ruleset)."""
    if weapon.modifiers is None and weapon.context is None:
        return context, modifiers
    here = context if weapon.context is None else weapon.context.combined(context)
    mods = modifiers if weapon.modifiers is None else weapon.modifiers.combined(modifiers)
    ruleset.check_situation(here, mods)
    return here, mods


def declarable(
    pools: Sequence[Pool | MortalWounds], target: Unit
) -> tuple[Pool | MortalWounds, ...]:
    """The pools that may be declared against ``target``: all but those whose profile may
    only target units with other keywords (:class:`~mathhammer.model.abilities.OnlyAgainst`,
    docs/rules.md D38), which make no attack in either engine.

    Examples
    --------
    >>> import mathhammer as mh
    >>> hunter = mh.Weapon("Hunter", 3, 3, 12, -2, 3, "[ONLY AGAINST: VEHICLE]")
    >>> pools = cached_pools(((hunter, 2), (mh.Weapon("Choppa", 3, 3, 5), 2)))
    >>> [p.label for p in declarable(pools, mh.Unit.of("Boyz", 10, 5, 5, 1))]
    ['Choppa x2']
    """
    return _declarable(pools, target.keywords)


def _declarable(
    pools: Sequence[Pool | MortalWounds], keywords: tuple[str, ...]
) -> tuple[Pool | MortalWounds, ...]:
    """:func:`declarable` against a target with these keywords."""
    kept = []
    for p in pools:  # a loop, not a comprehension (a call of its own): every attack (S3)
        if isinstance(p, MortalWounds) or usable_against(p.weapon.abilities, keywords):
            kept.append(p)
    return tuple(pools) if len(kept) == len(pools) else tuple(kept)


@register
@lru_cache(maxsize=4096)
def _declared_plan(
    pools: tuple[Pool | MortalWounds, ...],
    target: Unit,
    ruleset: Ruleset,
    context: Context,
    modifiers: Modifiers,
    standing: Standing,
) -> AttackPlan:
    """:meth:`AttackPlan.declared`, made once for the same inputs (an attack carried on
    from many states declares itself once per standing)."""
    return plan_pools(pools, target, ruleset, context, modifiers, standing)


def _pools(weapons: Any) -> tuple[Pool | MortalWounds, ...]:
    """The pools of ``weapons``: those made before for the same entries, where they are."""
    if isinstance(weapons, list | tuple):
        try:
            return cached_pools(tuple(weapons))
        except TypeError:  # an unhashable entry: gathered (and refused, if it must be) below
            pass
    return gather_pools(weapons)


def as_plan(
    weapons: Any,
    target: Unit | None,
    rules: RulesetLike | None,
    context: Context | None,
    modifiers: Modifiers | None,
) -> AttackPlan:
    """``weapons`` itself when it is a plan (nothing else may then be given), else a new plan.

    ``rules=None`` means the default ruleset, ``"11e"``.
    """
    if isinstance(weapons, AttackPlan):
        given = (target, rules, context, modifiers)
        if any(x is not None for x in given):
            raise ProfileError(
                "an AttackPlan already holds its target, ruleset, context and modifiers; "
                "give the plan alone"
            )
        return weapons
    if target is None:
        raise field_error(ProfileError, "target", "a Unit", target)
    rules = "11e" if rules is None else rules
    if isinstance(weapons, list | tuple):
        try:
            return _cached_plan(tuple(weapons), target, rules, context, modifiers)
        except TypeError:  # an unhashable entry: planned (and refused, if it must be) below
            pass
    return plan_attack(weapons, target, rules=rules, context=context, modifiers=modifiers)


@register
@lru_cache(maxsize=1024)
def _cached_plan(
    weapons: tuple[Any, ...],
    target: Unit,
    rules: RulesetLike,
    context: Context | None,
    modifiers: Modifiers | None,
) -> AttackPlan:
    """A plan made once for the same inputs: plans are immutable, and making one (checks,
    pools, the ruleset's resolution of every pool) costs more than the lookup."""
    return plan_attack(weapons, target, rules=rules, context=context, modifiers=modifiers)
