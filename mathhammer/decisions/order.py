"""Which pool first: the orders of a unit's pools against one target, ranked exactly.

The attacker picks which weapon's pool to resolve next (docs/rules.md §2.5), and the order
changes the outcome: a high-damage pool wastes less on models a many-dice pool has already
wounded, or finishes what it left. Every order of up to :data:`MAX_EXHAUSTIVE` pools is
attacked exactly, walking the orders as a tree so that each prefix is resolved once and its
state carried on (``attack(..., start=...)``); past that, a greedy order (at each step the
pool that does best next, by the metric) is returned with its exact value.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cmp_to_key
from typing import TYPE_CHECKING, Any

from ..errors import OptionError
from ..exact.declared import declared_parts
from ..exact.walk import PoolWalk, pool_walk
from ..model.context import Context, Modifiers
from ..model.pools import MortalWounds, Pool, WeaponsLike, gather_pools
from ..model.profiles import Unit, Weapon
from ..results.attack import AttackResult
from ..results.columns import metric_column
from ..results.state import UnitState
from ..rules.registry import RulesetLike
from .choices import METRIC_KEYS, beats, choosing, may_choose, metric_of
from .runs import Request, Run, engine_run
from .work import check_decisions

if TYPE_CHECKING:  # pandas is imported where a table is made: import time matters
    import pandas as pd

__all__ = [
    "MAX_EXHAUSTIVE",
    "OrderRanking",
    "best_order",
    "ordering",
    "rank_orders",
    "rank_pool_orders",
]

#: Up to this many pools every order is attacked (6 pools: 720 orders, 1,956 pool attacks).
MAX_EXHAUSTIVE = 6
#: What to do about a ranking of orders refused for its work.
ORDERS_HINT = "rank fewer or smaller pools, or attack fewer models"


@dataclass(frozen=True)
class OrderRanking:
    """The orders of a unit's pools that were evaluated, best first.

    Attributes
    ----------
    pools : tuple of Pool
        The pools, in the order declared.
    orders : tuple of tuple of int
        Each evaluated order (indices into ``pools``), best first (the declared order
        first among equals).
    scores : tuple of tuple of float
        Each order's metric key (larger is better).
    metric : str
        What the orders were ranked by.
    method : str
        ``"exhaustive"`` (every order) or ``"greedy"`` (one order, built a pool at a time).
    """

    pools: tuple[Pool, ...]
    orders: tuple[tuple[int, ...], ...]
    scores: tuple[tuple[float, ...], ...]
    metric: str
    method: str

    @property
    def best(self) -> tuple[int, ...]:
        """The best order found."""
        return self.orders[0]

    def weapons(self, order: tuple[int, ...]) -> list[tuple[Weapon, int]]:
        """The weapons list that resolves the pools in ``order``."""
        return [entry for i in order for entry in self.pools[i].weapons]

    def label(self, order: tuple[int, ...]) -> str:
        """``"Heavy gun x3 -> Rifle x10"``."""
        return " -> ".join(self.pools[i].label for i in order)

    def frame(self) -> pd.DataFrame:
        """One row per order: its pools in turn and its metric, best first."""
        import pandas as pd

        _, words = metric_of(self.metric)
        given = tuple(range(len(self.pools)))
        rows = [
            {
                "order": self.label(order),
                words: score[0],
                "given": order == given,
            }
            for order, score in zip(self.orders, self.scores, strict=True)
        ]
        return pd.DataFrame(rows)


def _pools(weapons: Any) -> tuple[Pool, ...]:
    steps = gather_pools(weapons)
    if any(isinstance(s, MortalWounds) for s in steps):
        raise OptionError(
            "pool order: mortal-wound steps stand where they are declared; order the pools "
            "without them"
        )
    return tuple(s for s in steps if isinstance(s, Pool))


def rank_pool_orders(
    weapons: WeaponsLike,
    target: Unit,
    *,
    metric: str = "mean_killed",
    rules: RulesetLike | None = None,
    context: Context | None = None,
    modifiers: Modifiers | None = None,
    start: AttackResult | UnitState | None = None,
    run: Run | None = None,
) -> OrderRanking:
    """Every order of the pools (up to :data:`MAX_EXHAUSTIVE`), attacked exactly and
    ranked by ``metric`` (``"mean_killed"``, ``"p_destroyed"`` or ``"mean_damage"``, or
    an alias, as ``attack(..., metric=...)`` reads them); past that, the greedy order.

    The attack is declared once, before its first pool: from a ``start``, against the
    target as it stands in each of its states (docs/rules.md D34), whatever the order.
    ``run`` (a :data:`~mathhammer.decisions.runs.Run`) resolves the pools one at a time;
    by default the exact engine, each pool's duplicated abilities chosen by ``metric``,
    the orders walked on one layout where they can be
    (:func:`~mathhammer.exact.walk.pool_walk`).

    Examples
    --------
    >>> import mathhammer as mh
    >>> rifle, fist = mh.Weapon("Rifle", 2, 3, 4, 0, 1), mh.Weapon("Fist", 1, 3, 8, -2, 3)
    >>> ranking = mh.rank_pool_orders([(rifle, 5), (fist, 3)], mh.Unit.of("W3", 3, 4, 3, 3))
    >>> ranking.label(ranking.best), ranking.method
    ('Rifle x5 -> Fist x3', 'exhaustive')
    """
    request = Request(weapons, target, None, start, rules, context, modifiers)
    check_decisions(request, "best", "given", MAX_EXHAUSTIVE, "the pool orders", ORDERS_HINT)
    walk = run is None
    return rank_orders(request, metric, choosing(engine_run, metric) if run is None else run, walk)


def rank_orders(request: Request, metric: str, run: Run, walk: bool = False) -> OrderRanking:
    """:func:`rank_pool_orders` of a request, each order scored by ``run``. With ``walk``
    (``run`` is the exact engine's, with any choice of duplicated abilities), the orders
    of weapons with no choice to make are walked on one layout, with the same numbers."""
    metric = metric_column(metric, among=METRIC_KEYS)
    key, _ = metric_of(metric)
    pools = _pools(request.weapons)
    walked = _walked_ranking(request, pools, metric, key) if walk else None
    if walked is not None:
        return walked
    assert isinstance(request.target, Unit)
    parts = declared_parts(
        request.weapons, request.target, request.standing, start=request.start,
        rules=request.rules, context=request.context, modifiers=request.modifiers,
    )  # fmt: skip

    def step(i: int, before: tuple[Any, ...]) -> tuple[AttackResult, ...]:
        weapons = list(pools[i].weapons)
        return tuple(
            run(replace(request, weapons=weapons, standing=s, start=b))
            for s, b in zip(parts.standings, before, strict=True)
        )

    def score(after: tuple[AttackResult, ...]) -> tuple[float, ...]:
        return key(parts.result(after))

    if len(pools) == 1:  # gather_pools gives at least one step; mortal ones are refused
        first = score(step(0, parts.starts))
        return OrderRanking(pools, ((0,),), (first,), metric, "exhaustive")
    if len(pools) <= MAX_EXHAUSTIVE:
        return _exhaustive(pools, metric, step, score, parts.starts)
    return _greedy(pools, metric, step, score, parts.starts)


def _walked_ranking(
    request: Request,
    pools: tuple[Pool, ...],
    metric: str,
    key: Callable[[AttackResult], tuple[float, ...]],
) -> OrderRanking | None:
    """Every order ranked on one walk of the pools (each prefix one pass of the chain on
    one layout per part), where there are orders to try, all of them, and no ability to
    choose; None otherwise."""
    if not 1 < len(pools) <= MAX_EXHAUSTIVE:
        return None
    walked = _walk(request, pools)
    if walked is None:
        return None
    return _exhaustive(pools, metric, walked.apply, _walk_score(walked, key), walked.initial)


def _walk(request: Request, pools: tuple[Pool, ...]) -> PoolWalk | None:
    """The walk of the request's pools, where their weapons have no ability to choose."""
    if may_choose(request.weapons):
        return None
    assert isinstance(request.target, Unit)
    return pool_walk(
        pools, request.target, request.rules, request.context, request.modifiers,
        request.start, request.standing,
    )  # fmt: skip


def _walk_score(
    walk: PoolWalk, key: Callable[[AttackResult], tuple[float, ...]]
) -> Callable[[tuple[Any, ...]], tuple[float, ...]]:
    """The score of what an order of a walk left."""
    return lambda state: key(walk.result(state))


def _greedy(
    pools: tuple[Pool, ...],
    metric: str,
    apply: Callable[[int, Any], Any],
    score: Callable[[Any], tuple[float, ...]],
    start: Any,
) -> OrderRanking:
    """One order, built a pool at a time: at each step the pool that does best next."""
    order: tuple[int, ...] = ()
    state = start
    while len(order) < len(pools):
        tried = [(i, apply(i, state)) for i in range(len(pools)) if i not in order]
        i, state = _best_next(tried, score)
        order = (*order, i)
    return OrderRanking(pools, (order,), (score(state),), metric, "greedy")


def _best_next(
    tried: list[tuple[int, Any]], score: Callable[[Any], tuple[float, ...]]
) -> tuple[int, Any]:
    """Of the pools ``tried`` next (each with what it left), the one that does best: the
    first of equals (within rounding)."""
    i, state = tried[0]
    for j, after in tried[1:]:
        if beats(score(after), score(state)):
            i, state = j, after
    return i, state


def _exhaustive(
    pools: tuple[Pool, ...],
    metric: str,
    apply: Callable[[int, Any], Any],
    score: Callable[[Any], tuple[float, ...]],
    start: Any,
) -> OrderRanking:
    """Every order, walked as a tree: ``apply(i, before)`` resolves pool ``i`` from what
    a prefix left, once per prefix; ``score`` reads what a whole order left."""
    found: dict[tuple[int, ...], tuple[float, ...]] = {}

    def visit(prefix: tuple[int, ...], before: Any) -> None:
        for i in range(len(pools)):
            if i not in prefix:
                after, order = apply(i, before), (*prefix, i)
                if len(order) == len(pools):
                    found[order] = score(after)
                else:
                    visit(order, after)

    visit((), start)
    declared: list[tuple[int, ...]] = list(itertools.permutations(range(len(pools))))

    def compare(a: tuple[int, ...], b: tuple[int, ...]) -> int:
        return _compare(found[a], found[b])

    ranked = sorted(declared, key=cmp_to_key(compare))
    scores = tuple(found[o] for o in ranked)
    return OrderRanking(pools, tuple(ranked), scores, metric, "exhaustive")


def _compare(a: tuple[float, ...], b: tuple[float, ...]) -> int:
    """The better score first; scores equal within rounding keep their order (the sort is
    stable: the order declared first), rather than be ordered by rounding errors."""
    return -1 if beats(a, b) else 1 if beats(b, a) else 0


def best_order(request: Request, metric: str, run: Run, walk: bool) -> tuple[list[Any], str]:
    """The request's weapons list in the best order of its pools, and a line saying so
    (:func:`rank_orders`)."""
    ranking = rank_orders(request, metric, run, walk)
    best = ranking.best
    given = tuple(range(len(ranking.pools)))
    _, words = metric_of(metric)
    if best == given:
        return ranking.weapons(given), f"pool order: as declared, the best by {words}"
    scores = dict(zip(ranking.orders, ranking.scores, strict=True))
    versus = (
        f"{scores[best][0]:.4g} vs {scores[given][0]:.4g} as declared" if given in scores else ""
    )
    line = f"pool order: {ranking.label(best)} ({ranking.method}) by {words}"
    return ranking.weapons(best), line + (f": {versus}" if versus else "")


def ordering(run: Run, metric: str, *, walk: bool = False) -> Run:
    """``run`` with the pools put in their best order by ``metric`` first, each order
    scored by ``run`` (:func:`rank_orders`; ``walk`` as it says); the result's
    ``choices`` say which order, and by how much.

    Examples
    --------
    >>> import mathhammer as mh
    >>> from mathhammer.decisions.runs import Request, engine_run
    >>> rifle, heavy = mh.Weapon("Rifle", 2, 3, 4, 0, 1), mh.Weapon("Heavy", 3, 4, 5, -1, 2)
    >>> veterans = mh.ModelGroup(4, 4, 3, 2, name="Veterans")
    >>> squad = mh.Unit("Squad", [veterans, mh.ModelGroup(3, 4, 4, 1, name="Troopers")])
    >>> result = ordering(engine_run, "mean_killed")(Request([(rifle, 4), (heavy, 2)], squad))
    >>> print(result.choices[0])
    pool order: Heavy x2 -> Rifle x4 (exhaustive) by expected models destroyed: 1.246 vs 1.232 ...
    """
    metric = metric_column(metric, among=METRIC_KEYS)

    def ordered_run(request: Request) -> AttackResult:
        if not request.decidable:
            return run(request)
        ordered, said = best_order(request, metric, run, walk)
        best_first = run(replace(request, weapons=ordered))
        return replace(best_first, choices=(*best_first.choices, said))

    return ordered_run
