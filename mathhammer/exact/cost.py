"""What a pool costs the exact engine, estimated before anything is computed.

Each stage's memory (the entries of its largest arrays, 8 bytes each) and work follow
from a few sizes: the attack dice ``N``, the hit and wound kernels' shapes, the dice
``K`` that reach the save step, the devastating wounds ``M``, the target's states ``S``
and the cost of one damage transition (``S²`` dense, its non-zero entries sparse). The
estimates mirror the algorithms of :mod:`~mathhammer.exact.steps` and
:mod:`~mathhammer.exact.chain` path by path, so that the limits
(:data:`~mathhammer.core.limits.MAX_TABLE`, :data:`~mathhammer.core.limits.MAX_WORK`)
refuse exactly what would be slow or large, and nothing that is not.

Work is counted in element operations of numpy's vectorised loops (about 3 ns each);
a multiply-add inside a matrix product runs in BLAS at a sixteenth of that
(:data:`BLAS`), and a Python-level step of a loop costs :data:`STEP` operations.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from ..core.binomial import thin_uses_table
from ..core.caches import register
from ..core.frozen import fast_init
from ..core.limits import MAX_TABLE, MAX_WORK, SIMULATE_HINT
from ..core.tuning import BLAS, CHUNK_ENTRIES, STEP, TABLES_CACHED
from ..errors import LimitError, field_error

__all__ = [
    "Cost",
    "Figure",
    "chain_cost",
    "check_cost",
    "hit_cost",
    "series_cost",
    "wound_cost",
]


@fast_init
@dataclass(frozen=True)
class Cost:
    """The largest array (entries) and the work (operations) of a computation.

    Costs of stages run one after another add: the work sums, the memory is the largest.

    Examples
    --------
    >>> Cost(10, 100.0) + Cost(20, 5.0)
    Cost(entries=20, work=105.0)
    """

    entries: int = 0
    work: float = 0.0

    def __add__(self, other: Cost) -> Cost:
        return Cost(max(self.entries, other.entries), self.work + other.work)

    @property
    def within_limits(self) -> bool:
        """Whether :func:`check_cost` lets the computation run (its table and its work
        within the exact engine's limits).

        Examples
        --------
        >>> Cost(10, 100.0).within_limits, Cost(10, 1e12).within_limits
        (True, False)
        """
        return self.entries <= MAX_TABLE and self.work <= MAX_WORK


def _table(n: int) -> Cost:
    """A binomial table of ``n + 1`` rows: built row by row unless it is cached."""
    build = 0.0 if n <= TABLES_CACHED else 1.5 * (n + 1) ** 2 + n * STEP
    return Cost((n + 1) ** 2, build)


def thin_cost(n: int, columns: int) -> Cost:
    """:func:`~mathhammer.core.binomial.binomial_thin` of ``n + 1`` rows of ``columns``."""
    if thin_uses_table(n, columns):
        product = Cost(2 * (n + 1) * columns, (n + 1) ** 2 * columns * BLAS)
        return _table(n) + product
    return Cost(3 * (n + 1) * columns, 1.5 * (n + 1) ** 2 * columns + n * STEP)


def split_cost(n: int, a: int) -> Cost:
    """:func:`~mathhammer.exact.steps.split_compound` of ``n`` dice: two binomial tables,
    the weights, their product and the joint placed (three ``n²`` arrays at most at once)."""
    square = (n + 1) ** 2
    tables = _table(n) + _table(n)
    out = (n * max(a, 1) + 1) * (n + 1)
    rest = Cost(3 * square + out, 3 * square + 2 * n * STEP / 4 + (n + 1) ** 3 * BLAS)
    return tables + rest


def hit_cost(dice: int, shape: tuple[int, int], kind: str, nonzero: int) -> tuple[Cost, int, int]:
    """The hit step of ``dice`` attack dice with a kernel of ``shape``; and the shape of the
    hits' joint distribution. ``kind`` is ``"bernoulli"``, ``"split"`` or ``"general"``.

    Examples
    --------
    >>> hit_cost(2000, (2, 1), "bernoulli", 2)[1:]
    (2001, 1)
    """
    a, b = shape[0] - 1, shape[1] - 1
    rows, columns = dice * a + 1, dice * b + 1
    if kind == "bernoulli":
        return thin_cost(dice, 1), rows, columns
    if kind == "split":
        return split_cost(dice, a), rows, columns
    n = dice
    powers = a * b * n * (n + 1) * (2 * n + 1) / 6 + (a + b) * n * (n + 1) / 2 + n
    # each kernel entry adds a scaled copy of the power: a product and a sum per element
    return Cost(3 * rows * columns, 2 * nonzero * powers + n * STEP), rows, columns


def wound_cost(
    rows: int, columns: int, kind: str, nonzero: int, tops: Sequence[int] | None = None
) -> tuple[Cost, int, int]:
    """The wound step of the hits' joint ``rows x columns``; and the shape ``(K + 1, M + 1)``
    of the joint of dice to save and devastating wounds.

    ``tops[y]`` is the most hits that roll to wound with ``y`` automatic wounds (all the
    rows by default): a split kernel thins each column of the joint up to its top.

    Examples
    --------
    >>> wound_cost(2001, 1, "split", 3)[1:]
    (2001, 2001)
    """
    xmax, ymax = rows - 1, columns - 1
    if kind == "bernoulli":
        cost = thin_cost(xmax, columns) + Cost(rows * columns, rows * columns + ymax * STEP)
        return cost, xmax + ymax + 1, 1
    out = Cost((xmax + ymax + 1) * rows)
    if kind == "split":  # one split per column of the joint, up to its top
        cost = out
        for top in tops if tops is not None else [xmax] * columns:
            cost += split_cost(top, 0)
        return cost, xmax + ymax + 1, rows
    work = nonzero * columns * (xmax + 1) ** 3 / 3 + xmax * columns * STEP
    return out + Cost(3 * (xmax + ymax + 1) * rows, work), xmax + ymax + 1, rows


def apply_cost(states: int, nonzero: int, dense: bool, stacked: bool = False) -> float:
    """Work of one state vector through one transition: a dense product runs in BLAS
    (measured: 320 states in 10 us), a sparse one at about 3 ns a non-zero entry. A row
    of a stack of vectors moved at once (``stacked``) costs about half that, or a third."""
    if dense:
        return states * states / (16 if stacked else 8)
    return (1.0 if stacked else 3.0) * nonzero


def series_cost(terms: int, width: int, states: int, apply: float) -> Cost:
    """:func:`~mathhammer.exact.chain.factored_series`: ``terms`` powers of a transition."""
    chunk = min(terms, max(1, CHUNK_ENTRIES // max(states, 1))) * states
    work = terms * (apply + STEP) + terms * width * states * BLAS
    return Cost(width * states + chunk, work)


def chain_cost(
    dice: int,
    width: int,
    states: int,
    apply: float,
    acting: Sequence[bool],
    stacked: float | None = None,
) -> Cost:
    """The save chain of ``dice + 1`` counts of save dice by ``width`` passengers.

    ``acting[b]`` tells whether face block ``b`` changes some state (its dice are not
    saved by every group); ``apply`` is the work of one vector through one transition,
    ``stacked`` that of one row of a stack moved at once (``apply`` by default). Kept by
    value: a batch asks for the same few sizes again and again.

    Examples
    --------
    >>> chain_cost(2000, 1, 5001, 30000.0, [True, False]).entries  # one acting block: factored
    1000200
    >>> chain_cost(2000, 1, 5001, 30000.0, [True, True, False]).entries  # the joint [n, m, s]
    18011002
    """
    return _chain_cost(dice, width, states, apply, tuple(acting), stacked)


@register
@lru_cache(maxsize=4096)
def _chain_cost(
    dice: int,
    width: int,
    states: int,
    apply: float,
    acting: tuple[bool, ...],
    stacked: float | None,
) -> Cost:
    row = apply if stacked is None else stacked
    k = dice
    active = [i for i, acts in enumerate(acting) if acts]
    if not active:
        return Cost(width * states, (k + 1) * width * states)
    first, last = active[0], active[-1]
    cost = Cost()
    for _ in range(first):
        cost += thin_cost(k, width)
    if first == last:
        return cost + thin_cost(k, width) + series_cost(k + 1, width, states, apply)
    return _joint_cost(cost, k, width, states, apply, row, acting[first + 1 : last])


def _joint_cost(
    cost: Cost,
    k: int,
    width: int,
    states: int,
    apply: float,
    row: float,
    between: tuple[bool, ...],
) -> Cost:
    """``cost`` and the cost of the chain's joint after it (``chain._joint_chain``): built
    at the first acting block, split or thinned at each block ``between`` it and the last,
    then the last's Horner scheme."""
    joint = (k + 1) * width * states
    # the joint, the table, the vectors state @ T**j (several passengers) and chunks of
    # CHUNK_ENTRIES (see chain._first_split)
    vectors = (k + 1) * states if width > 1 else 0
    held = joint + (k + 1) ** 2 + vectors + 4 * CHUNK_ENTRIES
    coefficients = 4 * (k + 1) ** 2 * width
    products = (k + 1) ** 2 * width * states * BLAS
    cost += _table(k) + Cost(held, k * (apply + STEP) + coefficients + products)
    thin = Cost(held, (k + 1) ** 2 * width * states * BLAS + 1.5 * (k + 1) ** 2)
    split = _table(k) + Cost(4 * joint, (k + 1) * (k + 2) / 2 * width * (states + row) + k * STEP)
    for acts in between:
        cost += split if acts else thin
    horner = Cost(held, (k + 1) * (width * states + (apply if width == 1 else width * row) + STEP))
    return cost + thin + horner


def check_cost(what: str, cost: Cost, sizes: str, hint: str = SIMULATE_HINT) -> None:
    """Refuse a computation whose largest table or work passes the exact engine's limits.

    ``sizes`` says what the cost comes from, e.g. ``"2000 attack dice, 5001 target states"``.

    Examples
    --------
    >>> check_cost("pool 'Gun x10'", Cost(10, 1e12), "10 attack dice")
    Traceback (most recent call last):
    ...
    mathhammer.errors.LimitError: estimated work of pool 'Gun x10' must be at most 3e+09
    operations; got 1e+12 (10 attack dice; use mathhammer.simulate for larger attacks)
    """
    if cost.entries > MAX_TABLE:
        field = f"largest table of {what}"
        constraint = f"at most {MAX_TABLE} entries"
        raise field_error(LimitError, field, constraint, cost.entries, f"{sizes}; {hint}")
    if cost.work > MAX_WORK:
        field = f"estimated work of {what}"
        constraint = f"at most {MAX_WORK:.3g} operations"
        raise field_error(LimitError, field, constraint, Figure(cost.work), f"{sizes}; {hint}")


class Figure(float):
    """A float that shows three significant figures (in a message)."""

    def __repr__(self) -> str:
        return f"{float(self):.3g}"
