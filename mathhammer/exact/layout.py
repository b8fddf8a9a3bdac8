"""The target unit's model-wound states, and the one-attack damage transition between them.

Within a group, models are destroyed one after another and only the model being
allocated to is ever wounded, so a group's condition is one number: the wounds it has
lost since the attack began (0..its wounds left). A unit state is that number for every
group. Without [PRECISION] the groups are used up in allocation order, and the reachable
states form one line of ``sum of wounds + 1`` states, ending in "unit destroyed".
[PRECISION] can wound a CHARACTER while its bodyguard lives, so then the CHARACTER
groups' numbers vary freely beside the bodyguard's line.

The current model is in the first group not yet destroyed in allocation order, except
that a wounded CHARACTER is allocated to before unwounded CHARACTERs (the ordering rules,
applied again as the unit changes), and that a pool with [PRECISION] may make a
CHARACTER group current while it lives.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property, lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from ..core.binomial import FloatArray
from ..core.caches import register
from ..core.dist import Dist
from ..core.limits import MAX_STATES, SIMULATE_HINT, check_limit
from ..core.tuning import DAMAGE_CACHE_BYTES
from ..errors import LimitError
from ..model.profiles import ModelGroup, Unit
from ..rules.base import AllocationOrder, standard_order
from . import methods
from .damage import Damage, LeftDamage, damage_at, damage_key

if TYPE_CHECKING:  # imported where a large unit needs it: import time matters
    import scipy.sparse as sp

    from ..results.state import UnitState

__all__ = ["MAX_STATES", "Layout", "damage_matrix"]


class _GroupLine:
    """One group's condition as wounds lost since the attack began, 0..its wounds left."""

    def __init__(self, group: ModelGroup) -> None:
        starts = np.full(group.count, group.wounds)
        starts[0] -= group.wounds_lost
        self.size = int(starts.sum())  # the position at which the group is destroyed
        offsets = np.concatenate([[0], np.cumsum(starts)])
        position = np.arange(self.size + 1)
        model = np.searchsorted(offsets, position, side="right") - 1
        #: models destroyed at each position
        self.killed = model
        #: wounds left on the group's current model at each position (0 when destroyed)
        self.left = np.where(
            model < group.count,
            starts[np.minimum(model, group.count - 1)] - (position - offsets[model]),
            0,
        )
        self.character = group.character
        self.wounded_at_start = group.wounds_lost > 0


class Layout:
    """The reachable states of a target unit, and what each state means.

    Parameters
    ----------
    unit : Unit
        The target, its groups in allocation order.
    focus : iterable of int
        CHARACTER groups that some pool may make current ([PRECISION]).

    Examples
    --------
    >>> from mathhammer.model.profiles import ModelGroup, Unit
    >>> unit = Unit("u", [ModelGroup(2, 4, 3, 2), ModelGroup(1, 4, 2, 3, character=True)])
    >>> layout = Layout(unit)
    >>> layout.size, layout.killed.tolist()
    (8, [0, 0, 1, 1, 2, 2, 2, 3])
    >>> Layout(unit, focus=[1]).size  # the CHARACTER's wounds vary beside the bodyguard's
    20
    """

    def __init__(self, unit: Unit, focus: Sequence[int] = ()) -> None:
        self.unit = unit
        self.lines = [_GroupLine(g) for g in unit.groups]
        self.focus = tuple(sorted(set(focus)))
        radix = np.array([line.size + 1 for line in self.lines], dtype=np.int64)
        if float(np.prod(radix.astype(float))) >= 2**62:
            raise LimitError(
                "the target has too many allocation groups for the exact engine; " + SIMULATE_HINT
            )
        check_limit("target states", self._count(), MAX_STATES, SIMULATE_HINT)
        self._stride = np.concatenate([[1], np.cumprod(radix[:-1])]).astype(np.int64)
        positions = self._reachable()
        codes = positions @ self._stride
        order = np.argsort(codes)
        #: positions[s, g]: wounds group g has lost in state s
        self.positions = positions[order]
        self._codes = codes[order]

    def _count(self) -> int:
        """The number of states :meth:`_reachable` makes, before it makes them."""
        groups = self.unit.groups
        free = [g for g in self.focus if groups[g].character]
        line = sum(self.lines[g].size for g in range(len(groups)) if g not in free) + 1
        for g in free:
            line *= self.lines[g].size + 1
        return line

    def _reachable(self) -> np.ndarray:
        """A superset of the states the allocation rules can reach."""
        groups = self.unit.groups
        free = [g for g in self.focus if groups[g].character]
        ordered = [g for g in range(len(groups)) if g not in free]
        # the groups used up in order form a line ...
        sizes = np.array([self.lines[g].size for g in ordered])
        total = int(sizes.sum())
        progress = np.arange(total + 1)  # wounds lost along the line
        before = np.concatenate([[0], np.cumsum(sizes)[:-1]])
        line = np.zeros((total + 1, len(groups)), dtype=np.int64)
        line[:, ordered] = np.clip(progress[:, None] - before, 0, sizes)
        # ... and CHARACTERs that Precision can reach vary freely beside it
        for g in free:
            values = np.arange(self.lines[g].size + 1)
            line = np.repeat(line, len(values), axis=0)
            line[:, g] = np.tile(values, len(line) // len(values))
        return line

    @staticmethod
    @register
    @lru_cache(maxsize=64)
    def of(unit: Unit, focus: tuple[int, ...] = ()) -> Layout:
        """A shared (cached) layout: layouts are immutable once built."""
        return Layout(unit, focus)

    @property
    def size(self) -> int:
        """The number of states."""
        return len(self._codes)

    @cached_property
    def destroyed(self) -> np.ndarray:
        """True for the state in which the unit is destroyed."""
        return np.asarray(self.alive.sum(axis=1) == 0, dtype=bool)

    @cached_property
    def alive(self) -> np.ndarray:
        """alive[s, g]: group g has models left in state s."""
        sizes = np.array([line.size for line in self.lines])
        return self.positions < sizes

    @cached_property
    def killed(self) -> np.ndarray:
        """Models destroyed in each state."""
        return sum(killed for killed, _, _, _ in self.by_group)  # type: ignore[return-value]

    def killed_in_group(self, group: int) -> np.ndarray:
        """Models of one group destroyed in each state."""
        return np.asarray(self.lines[group].killed[self.positions[:, group]], dtype=np.int64)

    @cached_property
    def damage(self) -> np.ndarray:
        """Wounds lost in each state, counted from the start of the attack."""
        return np.asarray(self.positions.sum(axis=1), dtype=np.int64)

    @cached_property
    def most_damage(self) -> int:
        """The most wounds lost in any state (:attr:`damage`'s largest)."""
        return int(self.damage.max())

    def current_group(
        self, focus: int | None = None, order: AllocationOrder | None = None
    ) -> np.ndarray:
        """The group of the current model in each state (-1 when destroyed).

        ``order`` is the ruleset's allocation order (:meth:`Ruleset.current_group
        <mathhammer.rules.base.Ruleset.current_group>`; the 11th edition's by default):
        the first group alive in allocation order, wounded CHARACTERs before unwounded
        ones, and with ``focus`` ([PRECISION]) that CHARACTER group while it lives.
        """
        order = standard_order if order is None else order
        cache = self.__dict__.setdefault("_current", {})
        key = (focus, order)
        if key not in cache:
            wounded = np.array(
                [
                    (self.positions[:, g] > 0) | line.wounded_at_start
                    for g, line in enumerate(self.lines)
                ]
            ).T
            character = np.array([line.character for line in self.lines])
            current = np.asarray(order(self.alive, wounded, character, focus), dtype=np.int64)
            current.setflags(write=False)
            cache[key] = current
        return cache[key]  # type: ignore[no-any-return]

    def wounds_left(self, current: np.ndarray) -> np.ndarray:
        """Wounds left on the current model in each state (0 when destroyed)."""
        out = np.zeros(self.size, dtype=np.int64)
        for g, line in enumerate(self.lines):
            here = current == g
            out[here] = line.left[self.positions[here, g]]
        return out

    def index(self, codes: np.ndarray) -> np.ndarray:
        """State indices of state codes."""
        return np.searchsorted(self._codes, codes)

    def step(self, states: np.ndarray, group: np.ndarray, amount: np.ndarray | int) -> np.ndarray:
        """The states reached from ``states`` when ``group`` loses ``amount`` more wounds."""
        return self.index(self._codes[states] + self._stride[group] * amount)

    def initial_state(self) -> FloatArray:
        """The state distribution before any attack: no wounds lost."""
        out = np.zeros(self.size)
        out[0] = 1.0
        return out

    def state_of(self, start: UnitState) -> FloatArray:
        """A carried-on state as a distribution over this layout's states (which must
        hold every state of positive probability: its focus includes ``start.focus``)."""
        codes = np.asarray(start.positions, dtype=np.int64) @ self._stride
        index = np.minimum(self.index(codes), self.size - 1)
        held = start.probabilities > 0
        if not np.array_equal(self._codes[index[held]], codes[held]):
            raise ValueError("the layout does not hold every state of the start")
        out = np.zeros(self.size)
        np.add.at(out, index[held], start.probabilities[held])
        return out

    def distribution(self, state: FloatArray, values: np.ndarray, most: int | None = None) -> Dist:
        """The distribution of a per-state integer quantity under a state distribution
        (``most``: the quantity's largest value, where it is known)."""
        top = int(values.max()) if most is None else most
        counts: Any = np.bincount(values, weights=state, minlength=top + 1)
        return Dist._trusted(counts)  # weighted counts are float64 already

    @cached_property
    def by_group(self) -> tuple[tuple[np.ndarray, int, np.ndarray, int], ...]:
        """Per group: the models destroyed in each state and their most, the wounds lost
        in each state and their most (read-only)."""
        out = []
        for g in range(len(self.lines)):
            killed = self.killed_in_group(g)
            lost = np.asarray(self.positions[:, g], dtype=np.int64)
            for array in (killed, lost):
                array.setflags(write=False)
            out.append((killed, int(killed.max()), lost, int(lost.max())))
        return tuple(out)

    @cached_property
    def most_killed(self) -> int:
        """The most models destroyed in any state (:attr:`killed`'s largest)."""
        return int(self.killed.max())


def damage_matrix(
    layout: Layout,
    effective_damage: Sequence[Damage],
    *,
    focus: int | None = None,
    order: AllocationOrder | None = None,
    sparse: bool = False,
) -> np.ndarray | sp.csr_matrix:
    """The one-attack damage transition: the current model loses ``E`` wounds, no spill-over.

    ``effective_damage[g]`` is the wounds an unsaved attack takes from a model of group
    ``g`` after damage modifiers and Feel No Pain. A model with ``r`` wounds left that
    would lose ``E >= r`` is destroyed and the next model becomes current; the excess
    is lost. Dense for small units unless ``sparse`` is set.
    """
    dense = not sparse and methods.dense(layout.size)
    key = (damage_key(effective_damage), focus, order, dense)
    cache = layout.__dict__.setdefault("_damage", {})
    found = cache.get(key)
    if found is None:
        found = _damage_matrix(layout, effective_damage, focus, order, dense)
        size = _nbytes(found)
        if size <= DAMAGE_CACHE_BYTES // 4:
            held = sum(_nbytes(m) for m in cache.values())
            if held + size > DAMAGE_CACHE_BYTES:
                cache.clear()  # the matrices of a layout are few; start again past the bound
            cache[key] = found
    return found


def _nbytes(matrix: np.ndarray | sp.csr_matrix) -> int:
    if isinstance(matrix, np.ndarray):
        return matrix.nbytes
    return int(matrix.data.nbytes + matrix.indices.nbytes + matrix.indptr.nbytes)


def _damage_matrix(
    layout: Layout,
    effective_damage: Sequence[Damage],
    focus: int | None,
    order: AllocationOrder | None,
    dense: bool,
) -> np.ndarray | sp.csr_matrix:
    """Every state's row at once: the current model loses ``min(E, wounds left)``."""
    current = layout.current_group(focus, order)
    left = layout.wounds_left(current)
    size = layout.size
    # cap[g, j] = P(E = j) for j < top, and P(E >= top) at top: amounts past the most
    # wounds any model has left are all "the model is destroyed"
    top = max(1, min(max(d.n for d in effective_damage), int(left.max())))
    # table[g, w, j]: a model of group g with w wounds left loses j (it depends on w only
    # when the attacker re-rolls damage with the model's wounds in view)
    most = int(left.max())
    table = np.zeros((len(effective_damage) + 1, most + 1, top + 1))
    for g, damage in enumerate(effective_damage):
        for w in range(most + 1) if isinstance(damage, LeftDamage) else (slice(None),):
            pmf = damage_at(damage, w if isinstance(w, int) else most).probabilities
            table[g, w, : min(len(pmf), top)] = pmf[:top]
            table[g, w, top] = pmf[top:].sum()
    table[-1, :, 0] = 1.0  # the destroyed state (current group -1) stays
    weights = table[current, left]  # [state, amount rolled]
    lost = np.minimum(np.arange(top + 1), left[:, None])  # the excess is lost
    group = np.maximum(current, 0)[:, None]
    cols = layout.step(np.arange(size)[:, None], group, lost)
    keep = weights > 0.0
    rows = np.broadcast_to(np.arange(size)[:, None], cols.shape)[keep]
    cols, weights = cols[keep], weights[keep]
    if not dense:
        import scipy.sparse as sp

        return sp.csr_matrix((weights, (rows, cols)), shape=(size, size))
    out = np.bincount(rows * size + cols, weights=weights, minlength=size * size)
    out = out.reshape(size, size)
    out.setflags(write=False)  # shared by every pool with this damage: never changed
    return out
