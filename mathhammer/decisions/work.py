"""The work of a search, estimated before its first attack, and its limit.

A search runs the exact engine many times: the defender's legal orders of the target's
groups, the orders of the pools, the selections of duplicated abilities, and above them
the splits of a melee weapon's attacks and the assignments of declarations to targets.
Its work is estimated up front as the attacks it makes times the work of each
(:func:`~mathhammer.exact.budget.plan_work`), and a search past
:data:`~mathhammer.core.limits.MAX_SEARCH_WORK` is refused before anything runs, with
what to decide instead: as the engine refuses one attack past its own limits.

Examples
--------
>>> import mathhammer as mh
>>> big = mh.Weapon("Big gun", 20, 3, 8, -2, "D6")
>>> pools = [(big.replace(name=f"Gun {i}", strength=8 + i), 50) for i in range(6)]
>>> crowd = mh.Unit("Crowd", [mh.ModelGroup(30, 5, 3, 3), mh.ModelGroup(30, 5, 4, 2)])
>>> mh.attack(pools, crowd, pool_order="best")
Traceback (most recent call last):
...
mathhammer.errors.LimitError: estimated work of the attack's decisions must be at most 5e+09 ...
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

from ..core.limits import MAX_SEARCH_WORK
from ..core.tuning import ROW_WORK, TARGET_WORK
from ..errors import LimitError, field_error
from ..exact.budget import plan_work
from ..exact.cost import Figure
from ..model.pools import Pool, gather_pools
from ..model.profiles import Unit
from ..rules.plan import plan_attack
from .choices import selections
from .defender import legal_orders
from .runs import Request

__all__ = [
    "DECISIONS_HINT",
    "check_assignments",
    "check_decisions",
    "check_search",
    "check_splits",
    "order_runs",
    "request_work",
]


def request_work(request: Request) -> float:
    """The estimated work of the request's attack, as given (no decision made), in
    operations; a request that is not a plain attack on a unit costs nothing here."""
    if not request.decidable:
        return 0.0
    assert isinstance(request.target, Unit)  # decidable
    plan = plan_attack(
        request.weapons, request.target, rules=request.rules or "11e",
        context=request.context, modifiers=request.modifiers,
    )  # fmt: skip
    return plan_work(plan)


def order_runs(pools: int, exhaustive: int) -> float:
    """How many whole attacks' work ranking the orders of ``pools`` pools costs: every
    order walked as a tree up to ``exhaustive`` pools (each pool resolved once per prefix
    that lacks it), a greedy order past that (each pool tried at each step it is left).

    Examples
    --------
    >>> order_runs(1, 6), order_runs(3, 6), order_runs(6, 6), order_runs(8, 6)
    (1.0, 5.0, 326.0, 4.5)
    """
    if pools > exhaustive:
        return (pools + 1) / 2
    prefixes = sum(math.perm(pools, k) for k in range(1, pools + 1))
    return prefixes / pools


def check_search(what: str, work: float, sizes: str, hint: str) -> None:
    """Refuse a search whose estimated ``work`` (operations) passes
    :data:`~mathhammer.core.limits.MAX_SEARCH_WORK`; ``sizes`` says what it comes from.

    Examples
    --------
    >>> check_search("the splits", 1e12, "5,000 attacks", "split fewer attacks")
    Traceback (most recent call last):
    ...
    mathhammer.errors.LimitError: estimated work of the splits must be at most 5e+09
    operations; got 1e+12 (5,000 attacks; split fewer attacks)
    """
    if work > MAX_SEARCH_WORK:
        field = f"estimated work of {what}"
        constraint = f"at most {MAX_SEARCH_WORK:.3g} operations"
        raise field_error(LimitError, field, constraint, Figure(work), f"{sizes}; {hint}")


#: What to do about an attack whose decisions are refused.
DECISIONS_HINT = "decide less (pool_order='given', allocation='given'), or attack fewer models"


def check_decisions(
    request: Request,
    pool_order: str,
    allocation: str,
    exhaustive: int,
    what: str = "the attack's decisions",
    hint: str = DECISIONS_HINT,
) -> None:
    """Refuse an attack whose decisions would attack too often: the defender's legal
    orders times the orders of the pools (every order up to ``exhaustive`` pools) times
    the selections of duplicated abilities, each about one attack's work (and, for each
    of the defender's orders, the work of a target not seen before)."""
    if not request.decidable or (pool_order == "given" and allocation == "given"):
        return
    assert isinstance(request.target, Unit)  # decidable
    runs: float = _selections(request)
    sizes = [f"{runs:,.0f} selections of abilities"] if runs > 1 else []
    if pool_order == "best":
        pools = sum(isinstance(step, Pool) for step in gather_pools(request.weapons))
        runs *= order_runs(pools, exhaustive)
        sizes.append(f"the orders of {pools} pools")
    if allocation != "given":
        orders = len(legal_orders(request.target))
        runs *= orders
        sizes.append(f"{orders:,} orders of the defender's groups")
    each = request_work(request) + (TARGET_WORK if allocation != "given" else 0.0)
    sizes.append(f"about {each:.3g} operations an attack")
    check_search(what, runs * each, ", ".join(sizes), hint)


def _selections(request: Request) -> int:
    """How many selections of duplicated abilities the attack tries (1: none to make, or
    more than :data:`~mathhammer.decisions.choices.MAX_SELECTIONS`, left to the ranking)."""
    assert isinstance(request.target, Unit)  # decidable
    return len(selections(request.weapons, request.target) or [None])


def check_assignments(declarations: Sequence[Request], targets: Sequence[Unit]) -> None:
    """Refuse a search of every assignment of the ``declarations`` (each a request with
    no target yet) to the ``targets`` whose attacks would take too long.

    Each target is attacked once by every set of declarations that can be sent at it, so
    each declaration is in half of its ``2 ** D`` sets: the work is ``2 ** (D - 1)`` times
    the work of every declaration at every target.
    """
    work = 0.0
    for target in targets:
        work += sum(request_work(replace(d, target=target)) for d in declarations)
    sets = 2 ** len(declarations)
    sizes = f"{sets - 1:,} sets of {len(declarations)} declarations at {len(targets)} targets"
    hint = "declare fewer groups of models apart (one declaration for alike weapons)"
    check_search("the target plans", work * sets / 2, sizes, hint)


def check_splits(attacks: int, most: Request, targets: Sequence[Unit]) -> None:
    """Refuse a search of every split of a weapon's ``attacks`` (per model) across the
    ``targets`` whose attacks and rows would take too long; ``most`` is the request of
    every attack at one target (no target yet).

    Each target is attacked once for each number of attacks it can be given, from one to
    nearly all (about half the work of all of them each), and each split is a row of
    the table.
    """
    tries = attacks - len(targets) + 1  # each target gets at least one attack
    work = sum(request_work(replace(most, target=target)) for target in targets) * tries / 2
    rows = math.comb(attacks - 1, len(targets) - 1)
    sizes = f"{rows:,} splits of {attacks} attacks across {len(targets)} targets"
    hint = "split fewer attacks by hand with mathhammer.resolve"
    check_search("the splits", work + rows * ROW_WORK, sizes, hint)
