"""The attack: the exact engine's distributions, with the decisions made first.

:func:`attack` is a thin facade: :func:`decided` composes the decisions asked for
(:mod:`~mathhammer.decisions.defender` over :mod:`~mathhammer.decisions.order` over
:mod:`~mathhammer.decisions.choices`) over the exact engine
(:func:`~mathhammer.exact.engine.resolve`), each decision scoring the run below it.
"""

from __future__ import annotations

from typing import Any

from ..errors import OptionError, field_error
from ..exact.engine import resolve
from ..model.context import Context, Modifiers
from ..model.pools import WeaponsLike
from ..model.profiles import Unit
from ..results.attack import AttackResult
from ..results.state import UnitState
from ..rules.plan import AttackPlan
from ..rules.registry import RulesetLike
from .choices import choice_metric, choosing, may_choose
from .defender import defending
from .order import MAX_EXHAUSTIVE, ordering
from .runs import Request, Run, engine_run
from .work import check_decisions

__all__ = ["attack", "decided"]

#: The values of ``pool_order``.
POOL_ORDERS = ("given", "best")


def attack(
    weapons: WeaponsLike | AttackPlan,
    target: Unit | None = None,
    *,
    rules: RulesetLike | None = None,
    context: Context | None = None,
    modifiers: Modifiers | None = None,
    start: AttackResult | UnitState | None = None,
    metric: str = "mean_killed",
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
    metric : str
        Where a weapon carries duplicated abilities of which one instance applies (seed
        004: ``[SUSTAINED HITS D3]`` and ``[SUSTAINED HITS 2]``), the player's selection:
        every one is attacked and the best kept by ``"mean_killed"`` (expected models
        destroyed, then P(destroyed); the default), ``"p_destroyed"`` (P(destroyed), then
        expected models destroyed) or ``"mean_damage"`` (expected wounds lost); the
        short names ``"killed"``, ``"destroyed"`` and ``"damage"`` are aliases
        (:func:`mathhammer.metric_column`). The result's ``choices``
        says what was selected. ``"ranking"`` takes the instance with the stronger mean,
        then the higher maximum, without attacking (as the Monte Carlo does).
    pool_order : {"given", "best"}
        The order the pools resolve in: as declared (the default), or the best of every
        order (up to 6 pools; a greedy order past that) by ``metric``
        (``"mean_killed"`` for ``"ranking"``); ``choices`` says which (see
        :func:`mathhammer.rank_pool_orders`).
    allocation : str
        The order of the target's allocation groups: as given (the default), or the
        defender's best of the orders the rules allow: ``"defender-best"`` (fewest
        expected models destroyed), ``"defender-best:mean_damage"`` (fewest wounds lost;
        ``"defender-best:wounds"`` is an alias) or
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
    if _nothing_to_decide(weapons, metric, pool_order, allocation):
        return resolve(
            weapons, target, None, start, rules=rules, context=context, modifiers=modifiers
        )
    run = decided(metric=metric, pool_order=pool_order, allocation=allocation)
    request = Request(weapons, target, None, start, rules, context, modifiers)
    check_decisions(request, pool_order, allocation, MAX_EXHAUSTIVE)
    return run(request)


def _nothing_to_decide(weapons: Any, metric: str, pool_order: str, allocation: str) -> bool:
    """Whether the attack is the engine's as it is: the default options, and no weapon
    with duplicated abilities."""
    if pool_order != "given" or allocation != "given":
        return False
    # the default metric as given is read without its vocabulary: this runs on every attack
    defaults = metric == "mean_killed" or choice_metric(metric) == "mean_killed"
    return defaults and not may_choose(weapons)


def decided(
    *, metric: str = "mean_killed", pool_order: str = "given", allocation: str = "given"
) -> Run:
    """The exact engine's run with the decisions :func:`attack` takes made first: the
    defender's order of the target's groups (``allocation``), the order of the pools
    (``pool_order``), then each weapon's duplicated abilities (``metric``), each
    decision scoring the run below it.

    Examples
    --------
    >>> import mathhammer as mh
    >>> from mathhammer.decisions.runs import Request
    >>> rifle, heavy = mh.Weapon("Rifle", 2, 3, 4, 0, 1), mh.Weapon("Heavy", 3, 4, 5, -1, 2)
    >>> veterans = mh.ModelGroup(4, 4, 3, 2, name="Veterans")
    >>> squad = mh.Unit("Squad", [veterans, mh.ModelGroup(3, 4, 4, 1, name="Troopers")])
    >>> run = decided(pool_order="best", allocation="defender-best")
    >>> for line in run(Request([(rifle, 4), (heavy, 2)], squad)).choices:
    ...     print(line)
    pool order: Heavy x2 -> Rifle x4 (exhaustive) by expected models destroyed: 1.246 vs 1.232 ...
    allocation: Veterans -> Troopers (the defender's best of 2 legal orders) by ...
    """
    if pool_order not in POOL_ORDERS:
        raise field_error(OptionError, "pool_order", "'given' or 'best'", pool_order)
    run = choosing(engine_run, metric)
    if pool_order == "best":
        ranked = "mean_killed" if choice_metric(metric) == "ranking" else metric
        run = ordering(run, ranked, walk=True)
    return defending(run, allocation)
