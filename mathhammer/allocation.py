"""Save and Inflict Damage as a Markov chain over the target unit's model-wound states.

The 11th-edition save step resolves a pool's save dice from the lowest result to
the highest, one at a time, against the *current* model (seed 000). Groups in the
allocation order may have different Sv and InSv, so which die meets which model
matters, and the chain tracks it exactly.

States
    Within a group, models are destroyed one after another and only the model being
    allocated to is ever wounded, so a group's condition is one number: the wounds it
    has lost since the attack began (0..its wounds left). A unit state is that number
    for every group. Without [PRECISION] the groups are used up in allocation order,
    and the reachable states form one line of ``sum of wounds + 1`` states, ending in
    "unit destroyed". [PRECISION] can wound a CHARACTER while its bodyguard lives, so
    then the CHARACTER groups' numbers vary freely beside the bodyguard's line.

Current model
    The first group not yet destroyed in allocation order, except that a wounded
    CHARACTER is allocated to before unwounded CHARACTERs (the seed's ordering rules,
    applied again as the unit changes), and that a pool with [PRECISION] may make a
    CHARACTER group current while it lives.

Sorted dice
    The faces 1..6 are split into *blocks* of consecutive faces that every group
    treats alike (saved by the same groups). Of ``n`` dice still unresolved, all
    showing at least the block's lowest face ``v``, the number in a block of ``b``
    faces is Binomial(n, b / (7 - v)); the rest stay uniform above it. The ``k``
    dice of a block are applied one at a time with the block's one-die transition
    ``T``: saved (stay) or damage (the damage matrix). Dice left when the unit is
    destroyed change nothing: leftover attacks are lost. While a single block acts
    the chain reduces to ``sum_j P(j dice in it) * state @ T**j``, evaluated by
    Horner's scheme.

Mortal wounds
    Devastating wounds are applied after the pool's save dice, one critical wound at a
    time, each damaging at most one model (the damage matrix without saves). Mortal
    wounds from other sources are applied one wound at a time and spill over.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property, lru_cache
from typing import Any

import numpy as np
import scipy.sparse as sp

from .dist import Dist, FloatArray, binomial_table
from .errors import LimitError
from .profiles import ModelGroup, Unit
from .rules.common import FACES

__all__ = [
    "Layout",
    "Transition",
    "damage_matrix",
    "resolve_pool",
    "spill_mortal_wounds",
    "unsaved_distribution",
]

#: Up to this many states the transition matrices are dense (faster for small units).
DENSE_LIMIT = 320
#: The most states a unit's layout may have.
MAX_STATES = 200_000
#: The most entries of a pool's joint (dice left, devastating wounds, state) distribution.
MAX_JOINT = 20_000_000


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
    >>> from mathhammer.profiles import ModelGroup, Unit
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
            raise LimitError("the target has too many allocation groups for the exact engine")
        self._stride = np.concatenate([[1], np.cumprod(radix[:-1])]).astype(np.int64)
        positions = self._reachable()
        codes = positions @ self._stride
        order = np.argsort(codes)
        #: positions[s, g]: wounds group g has lost in state s
        self.positions = positions[order]
        self._codes = codes[order]
        if len(self._codes) > MAX_STATES:
            raise LimitError(f"the target needs {len(self._codes)} states; at most {MAX_STATES}")

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
        return self.alive.sum(axis=1) == 0

    @cached_property
    def alive(self) -> np.ndarray:
        """alive[s, g]: group g has models left in state s."""
        sizes = np.array([line.size for line in self.lines])
        return self.positions < sizes

    @cached_property
    def killed(self) -> np.ndarray:
        """Models destroyed in each state."""
        return sum(self.killed_in_group(g) for g in range(len(self.lines)))  # type: ignore[return-value]

    def killed_in_group(self, group: int) -> np.ndarray:
        """Models of one group destroyed in each state."""
        return self.lines[group].killed[self.positions[:, group]]

    @cached_property
    def damage(self) -> np.ndarray:
        """Wounds lost in each state, counted from the start of the attack."""
        return self.positions.sum(axis=1)

    def current_group(self, focus: int | None = None) -> np.ndarray:
        """The group of the current model in each state (-1 when destroyed).

        The first group alive in allocation order; among CHARACTER groups, wounded ones
        come first; with ``focus`` ([PRECISION]), that CHARACTER group while it lives.
        """
        cache = self.__dict__.setdefault("_current", {})
        if focus not in cache:
            cache[focus] = self._current_group(focus)
            cache[focus].flags.writeable = False
        return cache[focus]  # type: ignore[no-any-return]

    def _current_group(self, focus: int | None) -> np.ndarray:
        alive = self.alive
        wounded = np.array(
            [
                (self.positions[:, g] > 0) | line.wounded_at_start
                for g, line in enumerate(self.lines)
            ]
        ).T
        character = np.array([line.character for line in self.lines])
        tiers = [alive & ~character, alive & character & wounded, alive & character]
        out = np.full(self.size, -1)
        for tier in reversed(tiers):
            has = tier.any(axis=1)
            out[has] = np.argmax(tier[has], axis=1)
        if focus is not None:
            out[alive[:, focus]] = focus
        return out

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

    def distribution(self, state: FloatArray, values: np.ndarray) -> Dist:
        """The distribution of a per-state integer quantity under a state distribution."""
        counts = np.bincount(values, weights=state, minlength=int(values.max()) + 1)
        return Dist._trusted(counts.astype(np.float64))


def damage_matrix(
    layout: Layout,
    effective_damage: Sequence[Dist],
    *,
    focus: int | None = None,
    sparse: bool = False,
) -> np.ndarray | sp.csr_matrix:
    """The one-attack damage transition: the current model loses ``E`` wounds, no spill-over.

    ``effective_damage[g]`` is the wounds an unsaved attack takes from a model of group
    ``g`` after damage modifiers and Feel No Pain. A model with ``r`` wounds left that
    would lose ``E >= r`` is destroyed and the next model becomes current; the excess
    is lost. Dense for small units unless ``sparse`` is set.
    """
    current = layout.current_group(focus)
    left = layout.wounds_left(current)
    states = np.arange(layout.size)
    rows, cols, vals = [], [], []
    for g, dmg in enumerate(effective_damage):
        here = states[current == g]
        if here.size == 0:
            continue
        r = left[here]
        pmf = dmg.pmf
        for j in range(min(len(pmf), int(r.max()))):
            keep = r > j
            rows.append(here[keep])
            cols.append(layout.step(here[keep], current[here[keep]], j))
            vals.append(np.full(int(keep.sum()), pmf[j]))
        rows.append(here)  # E >= r: the model is destroyed; the excess is lost
        cols.append(layout.step(here, current[here], r))
        vals.append(dmg.sf(r - 1))
    gone = states[current < 0]
    rows.append(gone)
    cols.append(gone)
    vals.append(np.ones(gone.size))
    r_, c_, v_ = np.concatenate(rows), np.concatenate(cols), np.concatenate(vals)
    if sparse or layout.size > DENSE_LIMIT:
        return sp.csr_matrix((v_, (r_, c_)), shape=(layout.size, layout.size))
    out = np.zeros((layout.size, layout.size))
    np.add.at(out, (r_, c_), v_)
    return out


class Transition:
    """A one-die transition ``T`` (rows: from, columns: to), applied to row vectors."""

    def __init__(self, matrix: np.ndarray | sp.spmatrix) -> None:
        self.dense = isinstance(matrix, np.ndarray)
        # a sparse T is stored transposed and applied as (T^t @ x^t)^t
        self._m = matrix if self.dense else sp.csr_matrix(matrix.T)

    @classmethod
    def with_saves(cls, damage: np.ndarray | sp.csr_matrix, saving: np.ndarray) -> Transition:
        """The damage transition with the rows of ``saving`` states replaced by "stay"."""
        if isinstance(damage, np.ndarray):
            m = damage.copy()
            m[saving] = 0.0
            idx = np.flatnonzero(saving)
            m[idx, idx] = 1.0
            return cls(m)
        keep = sp.diags((~saving).astype(float))
        return cls(keep @ damage + sp.diags(saving.astype(float)))

    def apply(self, x: FloatArray) -> FloatArray:
        """``x @ T`` for a vector or for a stack of row vectors (any leading shape)."""
        if self.dense:
            return x @ self._m
        flat = x.reshape(-1, x.shape[-1])
        return np.asarray((self._m @ flat.T).T).reshape(x.shape)

    def power_series(self, coeffs: FloatArray) -> FloatArray:
        """``sum_j coeffs[j] @ T**j`` by Horner's scheme (``coeffs`` stacked on axis 0)."""
        result = coeffs[-1].copy()
        for j in range(len(coeffs) - 2, -1, -1):
            result = self.apply(result) + coeffs[j]
        return result


def save_blocks(saved: np.ndarray) -> list[tuple[int, int, np.ndarray]]:
    """Split the faces 1..6 into runs of consecutive faces with the same per-group result.

    ``saved[g, f - 1]`` tells whether group ``g`` saves a natural ``f``. Returns
    ``(lowest face, number of faces, saved-by-group)`` per run.

    Examples
    --------
    >>> s = np.array([[0, 0, 1, 1, 1, 1], [0, 0, 0, 1, 1, 1]], dtype=bool)
    >>> [(lo, n, pattern.tolist()) for lo, n, pattern in save_blocks(s)]
    [(1, 2, [False, False]), (3, 1, [True, False]), (4, 3, [True, True])]
    """
    blocks: list[tuple[int, int, np.ndarray]] = []
    for f in FACES:
        pattern = saved[:, f - 1]
        if blocks and np.array_equal(blocks[-1][2], pattern):
            lo, n, _ = blocks[-1]
            blocks[-1] = (lo, n + 1, pattern)
        else:
            blocks.append((f, 1, pattern))
    return blocks


def _saving_states(current: np.ndarray, pattern: np.ndarray) -> np.ndarray:
    """States whose current model saves the block's faces; leftover dice against a
    destroyed unit change nothing, so the destroyed state "saves" too."""
    return np.where(current >= 0, pattern[np.maximum(current, 0)], True)


def _chain(
    count: FloatArray, state: FloatArray, blocks: list[tuple[float, Transition | None]]
) -> FloatArray:
    """Resolve sorted save dice from ``state``; return ``result[m, s]``.

    ``count[n, m]`` is the joint pmf of save dice ``n`` and of a passenger count ``m``
    (the pool's devastating wounds) that the save dice do not touch. The joint
    ``joint[n, m, s]`` starts as ``count`` times ``state`` and stays factored while
    only one block acts.
    """
    active = [i for i, (_, t) in enumerate(blocks) if t is not None]
    if not active:
        return count.sum(axis=0)[:, None] * state
    last = active[-1]
    kmax = count.shape[0] - 1
    joint: FloatArray | None = None
    for i, (p, t) in enumerate(blocks[: last + 1]):
        table = binomial_table(kmax, p)  # table[n, j]: j of n remaining dice in this block
        if i == last:
            assert t is not None
            # coeffs[j, m] = sum_n P(n dice left, j of them in this block, m) * state_n
            if joint is None:
                coeffs = (table.T @ count)[:, :, None] * state
            else:
                coeffs = np.tensordot(table.T, joint, axes=1)
            return t.power_series(coeffs)
        if joint is None:
            if count.size * state.size > MAX_JOINT:
                raise LimitError(
                    f"this pool's save chain needs {count.size * state.size:,} entries (at most "
                    f"{MAX_JOINT:,}); use mathhammer.simulate for it"
                )
            joint = count[:, :, None] * state
        out = np.zeros_like(joint)
        stack = joint.copy()  # stack[n] = joint[n] @ T**j for the rows n >= j still needed
        for j in range(kmax + 1):
            out[: kmax + 1 - j] += table[j:, j, None, None] * stack[j:]
            if j < kmax and t is not None:
                stack[j + 1 :] = t.apply(stack[j + 1 :])
        joint = out
    raise AssertionError("unreachable")


def _blocks(
    saved: np.ndarray, current: np.ndarray, damage: np.ndarray | sp.csr_matrix
) -> list[tuple[float, Transition | None]]:
    out: list[tuple[float, Transition | None]] = []
    for lo, n, pattern in save_blocks(saved):
        p = n / (7 - lo)
        t = (
            None
            if pattern.all()
            else Transition.with_saves(damage, _saving_states(current, pattern))
        )
        out.append((p, t))
    return out


def resolve_pool(
    layout: Layout,
    state: FloatArray,
    to_save: FloatArray,
    saved: np.ndarray,
    effective_damage: Sequence[Dist],
    mortal_damage: Sequence[Dist],
    focus: int | None = None,
) -> FloatArray:
    """The state distribution after a pool's save dice and devastating wounds.

    Parameters
    ----------
    layout : Layout
        The target's state space.
    state : ndarray
        The state distribution before the pool.
    to_save : ndarray
        ``to_save[k, m]``: P(k attacks reach the save step and m are devastating wounds).
    saved : ndarray of bool, shape (groups, 6)
        ``saved[g, f - 1]``: group ``g`` saves a natural ``f`` against this pool.
    effective_damage : sequence of Dist
        Wounds lost per unsaved attack by a model of each group (after FNP).
    mortal_damage : sequence of Dist
        Wounds lost per devastating wound by a model of each group (after FNP).
    focus : int, optional
        The CHARACTER group [PRECISION] makes current.
    """
    damage = damage_matrix(layout, effective_damage, focus=focus)
    blocks = _blocks(saved, layout.current_group(focus), damage)
    after_saves = _chain(to_save, state, blocks)  # [m, s]
    if after_saves.shape[0] == 1:
        return after_saves[0]
    devastating = Transition(damage_matrix(layout, mortal_damage, focus=focus))
    return devastating.power_series(after_saves)


def spill_mortal_wounds(
    layout: Layout, state: FloatArray, count: Dist, wound_lost: Sequence[float]
) -> FloatArray:
    """Apply ``count`` mortal wounds one at a time; they spill over to the next model.

    ``wound_lost[g]`` is P(a mortal wound is not prevented by the FNP of group ``g``).
    """
    one = [Dist._trusted(np.array([1.0 - p, p])) for p in wound_lost]
    t = Transition(damage_matrix(layout, one))
    return t.power_series(count.pmf[:, None] * state)


def _unsaved_by_survival(
    layout: Layout, state: FloatArray, save_dice: Dist, faces: int, damage: Any
) -> Dist:
    unsaved = save_dice.thin(faces / 6)
    t = Transition(damage)
    alive = np.empty(unsaved.n + 1)  # alive[k] = P(T > k): not destroyed after k dice
    v = state
    for k in range(unsaved.n + 1):
        alive[k] = 1.0 - float(v[layout.destroyed].sum())
        v = t.apply(v)
    # P(min(U, T) >= k) = P(U >= k) * P(T >= k), and P(T >= k) = alive[k - 1]
    at_least = np.append(
        np.concatenate([[1.0], unsaved.sf(np.arange(unsaved.n))])
        * np.concatenate([[1.0], alive[:-1]]),
        0.0,
    )
    return Dist._trusted(np.maximum(at_least[:-1] - at_least[1:], 0.0))


def unsaved_distribution(
    layout: Layout,
    state: FloatArray,
    to_save: FloatArray,
    saved: np.ndarray,
    effective_damage: Sequence[Dist],
    focus: int | None = None,
) -> Dist:
    """The number of save dice that inflicted damage (failed saves resolved before the unit died).

    When every group fails the same faces and saves the rest, the failed saves are
    ``U ~ thin(save dice, faces failed / 6)`` and they are resolved first, so the count
    is ``min(U, T)`` with ``T`` the damaging die that destroys the unit, independent of
    ``U``: ``P(min >= k) = P(U >= k) P(T >= k)``. Otherwise the chain of
    :func:`resolve_pool` runs on states augmented with a counter of failed saves.
    """
    count = to_save.sum(axis=1, keepdims=True)  # devastating wounds are not save dice
    kmax = count.shape[0] - 1
    patterns = [(n, pattern) for _, n, pattern in save_blocks(saved) if not pattern.all()]
    if len(patterns) == 1 and not patterns[0][1].any():
        return _unsaved_by_survival(
            layout,
            state,
            Dist._trusted(count[:, 0]),
            patterns[0][0],
            damage_matrix(layout, effective_damage, focus=focus),
        )
    counter = kmax + 1
    if layout.size * counter > MAX_STATES * 10:
        raise LimitError(
            f"the failed-saves stage of this pool needs {layout.size * counter} states; "
            "use mathhammer.simulate for it"
        )
    damage = damage_matrix(layout, effective_damage, focus=focus, sparse=True)
    current = layout.current_group(focus)
    shift = sp.diags(np.ones(kmax), 1, shape=(counter, counter)) + sp.coo_matrix(
        ([1.0], ([kmax], [kmax])), shape=(counter, counter)
    )
    blocks: list[tuple[float, Transition | None]] = []
    for lo, n, pattern in save_blocks(saved):
        p = n / (7 - lo)
        if pattern.all():
            blocks.append((p, None))
            continue
        saving = _saving_states(current, pattern)
        fail = sp.diags((~saving).astype(float)) @ damage
        aug = sp.kron(sp.diags(saving.astype(float)), sp.identity(counter)) + sp.kron(fail, shift)
        blocks.append((p, Transition(sp.csr_matrix(aug))))
    start = np.zeros((layout.size, counter))
    start[:, 0] = state
    final = _chain(count, start.ravel(), blocks)[0].reshape(layout.size, counter)
    return Dist._trusted(final.sum(axis=0))
