"""Save and Inflict Damage as a Markov chain over the target unit's model-wound states.

The 11th-edition save step resolves a pool's save dice from the lowest result to
the highest, one at a time, against the *current* model (seed 000). Groups in the
allocation order may have different Sv and InSv, so which die meets which model
matters, and the chain tracks it exactly.

States
    With the allocation order fixed, at most one model is ever wounded (the one
    being allocated to) and every model before it is destroyed. So a state is
    (current model, wounds it has left), laid out on a line of
    ``sum of the models' wounds`` states, plus an absorbing "unit destroyed" state
    at the end. A model that starts the attack wounded simply starts with fewer
    wounds on that line.

Sorted dice
    The faces 1..6 are split into *blocks* of consecutive faces that every group
    treats alike (saved by the same groups). Of ``n`` dice still unresolved, all
    showing at least the block's lowest face ``v``, the number in a block of
    ``b`` faces is Binomial(n, b / (7 - v)); the rest stay uniform above it. The
    ``k`` dice of a block are applied one at a time with the block's one-die
    transition ``T``: saved (stay) or damage (the damage matrix). Dice left when
    the unit is destroyed stay in the absorbing state: leftover attacks are lost.
    When a single block is not saved by everybody (every group saves the same
    faces), the chain reduces to ``sum_j P(j unsaved) * state @ M**j``, evaluated
    by Horner's scheme.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import scipy.sparse as sp

from .dist import Dist, FloatArray, binomial_table
from .profiles import Unit
from .rules.common import FACES

__all__ = ["Layout", "Transition", "damage_matrix", "resolve_saves", "unsaved_distribution"]

#: Up to this many states the transition matrices are dense (faster for small units).
DENSE_LIMIT = 320


@dataclass(frozen=True)
class Layout:
    """The state space of a target unit with its allocation order.

    Examples
    --------
    >>> from mathhammer.profiles import ModelGroup, Unit
    >>> unit = Unit("u", [ModelGroup(2, 4, 3, 2), ModelGroup(1, 4, 2, 3, character=True)])
    >>> layout = Layout(unit)
    >>> layout.size, layout.wounds_left.tolist()
    (8, [2, 1, 2, 1, 3, 2, 1, 0])
    >>> layout.killed.tolist()
    [0, 0, 1, 1, 2, 2, 2, 3]
    """

    unit: Unit

    @cached_property
    def _models(self) -> tuple[np.ndarray, np.ndarray]:
        group_of, start_wounds = [], []
        for gi, g in enumerate(self.unit.groups):
            for k in range(g.count):
                group_of.append(gi)
                start_wounds.append(g.wounds - g.wounds_lost if k == 0 else g.wounds)
        return np.array(group_of), np.array(start_wounds)

    @property
    def model_group(self) -> np.ndarray:
        """The group index of each model in allocation order."""
        return self._models[0]

    @property
    def model_start_wounds(self) -> np.ndarray:
        """Each model's wounds at the start of the attack."""
        return self._models[1]

    @cached_property
    def model_offset(self) -> np.ndarray:
        """The state at which each model becomes current (one extra entry: destroyed)."""
        return np.concatenate([[0], np.cumsum(self.model_start_wounds)])

    @property
    def destroyed(self) -> int:
        """The index of the absorbing "unit destroyed" state."""
        return int(self.model_offset[-1])

    @property
    def size(self) -> int:
        """The number of states, the destroyed state included."""
        return self.destroyed + 1

    @cached_property
    def state_model(self) -> np.ndarray:
        """The current model of each state (the model count for the destroyed state)."""
        return np.searchsorted(self.model_offset, np.arange(self.size), side="right") - 1

    @cached_property
    def state_group(self) -> np.ndarray:
        """The group of each state's current model (-1 for the destroyed state)."""
        out = np.full(self.size, -1)
        out[:-1] = self.model_group[self.state_model[:-1]]
        return out

    @cached_property
    def wounds_left(self) -> np.ndarray:
        """Wounds left on the current model in each state (0 when destroyed)."""
        out = np.zeros(self.size, dtype=np.int64)
        m = self.state_model[:-1]
        out[:-1] = self.model_start_wounds[m] - (np.arange(self.destroyed) - self.model_offset[m])
        return out

    @cached_property
    def killed(self) -> np.ndarray:
        """Models destroyed in each state."""
        return self.state_model.copy()

    @cached_property
    def damage(self) -> np.ndarray:
        """Wounds lost in each state, counted from the start of the attack."""
        return np.arange(self.size)

    def killed_in_group(self, group: int) -> np.ndarray:
        """Models of one group destroyed in each state."""
        first = int(np.searchsorted(self.model_group, group, side="left"))
        count = self.unit.groups[group].count
        return np.clip(self.state_model - first, 0, count)

    def initial_state(self) -> FloatArray:
        """The state distribution before any attack: the first model, unharmed."""
        out = np.zeros(self.size)
        out[0] = 1.0
        return out

    def distribution(self, state: FloatArray, values: np.ndarray) -> Dist:
        """The distribution of a per-state integer quantity under a state distribution."""
        counts = np.bincount(values, weights=state, minlength=int(values.max()) + 1)
        return Dist._trusted(counts.astype(np.float64))


def _damage_entries(
    layout: Layout, effective_damage: Sequence[Dist]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(from, to, probability) of the one-attack damage transition, destroyed state included."""
    rows, cols, vals = [], [], []
    alive = np.arange(layout.destroyed)
    r = layout.wounds_left[:-1]
    nxt = layout.model_offset[layout.state_model[:-1] + 1]
    groups = layout.state_group[:-1]
    for g, dmg in enumerate(effective_damage):
        states = alive[groups == g]
        if states.size == 0:
            continue
        rg = r[states]
        pmf = dmg.pmf
        for j in range(min(len(pmf), int(rg.max()))):
            keep = rg > j
            rows.append(states[keep])
            cols.append(states[keep] + j)
            vals.append(np.full(int(keep.sum()), pmf[j]))
        rows.append(states)  # E >= r: the model is destroyed and the next one is current
        cols.append(nxt[states])
        vals.append(dmg.sf(rg - 1))
    rows.append(np.array([layout.destroyed]))
    cols.append(np.array([layout.destroyed]))
    vals.append(np.array([1.0]))
    return np.concatenate(rows), np.concatenate(cols), np.concatenate(vals)


def damage_matrix(
    layout: Layout, effective_damage: Sequence[Dist], *, sparse: bool = False
) -> np.ndarray | sp.csr_matrix:
    """The one-attack damage transition: the current model loses ``E`` wounds, no spill-over.

    ``effective_damage[g]`` is the wounds an unsaved attack takes from a model of group
    ``g`` after damage modifiers and Feel No Pain. A model with ``r`` wounds left that
    would lose ``E >= r`` is destroyed and the next model becomes current; the excess
    is lost. Dense for small units unless ``sparse`` is set.
    """
    rows, cols, vals = _damage_entries(layout, effective_damage)
    if sparse or layout.size > DENSE_LIMIT:
        return sp.csr_matrix((vals, (rows, cols)), shape=(layout.size, layout.size))
    out = np.zeros((layout.size, layout.size))
    np.add.at(out, (rows, cols), vals)
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
        """``x @ T`` for a vector or for a stack of row vectors."""
        if self.dense:
            return x @ self._m
        return np.asarray((self._m @ x.T).T)


def save_blocks(
    saved: np.ndarray,
) -> list[tuple[int, int, np.ndarray]]:
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


def _saving_states(layout: Layout, pattern: np.ndarray) -> np.ndarray:
    """States whose current model saves the block's faces; leftover dice against a
    destroyed unit change nothing, so the destroyed state "saves" too."""
    saving = np.ones(layout.size, dtype=bool)
    saving[:-1] = pattern[layout.state_group[:-1]]
    return saving


def _chain(
    count: FloatArray, state: FloatArray, blocks: list[tuple[float, Transition | None]]
) -> FloatArray:
    """Resolve ``count`` (a pmf of dice) sorted save dice from ``state``; return the state pmf.

    The joint distribution ``joint[n, s]`` of dice left and state starts as the outer
    product of ``count`` and ``state``, and stays factored while only one block acts.
    """
    active = [i for i, (_, t) in enumerate(blocks) if t is not None]
    if not active:
        return state.copy()
    last = active[-1]
    kmax = len(count) - 1
    joint: FloatArray | None = None
    for i, (p, t) in enumerate(blocks[: last + 1]):
        table = binomial_table(kmax, p)  # table[n, j]: j of n remaining dice in this block
        if i == last:
            assert t is not None
            # coeffs[j] = sum_n P(n dice left, j of them in this block) * state_n
            if joint is None:
                weights = count @ table
                coeffs = weights[:, None] * state
            else:
                coeffs = table.T @ joint
            result = coeffs[kmax].copy()
            for j in range(kmax - 1, -1, -1):
                result = t.apply(result) + coeffs[j]
            return result
        if joint is None:
            joint = np.outer(count, state)
        out = np.zeros_like(joint)
        stack = joint.copy()  # stack[n] = joint[n] @ T**j for the rows n >= j still needed
        for j in range(kmax + 1):
            out[: kmax + 1 - j] += table[j:, j, None] * stack[j:]
            if j < kmax and t is not None:
                stack[j + 1 :] = t.apply(stack[j + 1 :])
        joint = out
    raise AssertionError("unreachable")


def _blocks_for(
    layout: Layout, saved: np.ndarray, damage: np.ndarray | sp.csr_matrix
) -> list[tuple[float, Transition | None]]:
    out: list[tuple[float, Transition | None]] = []
    for lo, n, pattern in save_blocks(saved):
        p = n / (7 - lo)
        t = (
            None
            if pattern.all()
            else Transition.with_saves(damage, _saving_states(layout, pattern))
        )
        out.append((p, t))
    return out


def resolve_saves(
    layout: Layout,
    state: FloatArray,
    save_dice: Dist,
    saved: np.ndarray,
    effective_damage: Sequence[Dist],
) -> FloatArray:
    """The state distribution after a pool's save dice are resolved lowest to highest.

    Parameters
    ----------
    layout : Layout
        The target's state space.
    state : ndarray
        The state distribution before the pool.
    save_dice : Dist
        The number of the pool's attacks that reach the save step.
    saved : ndarray of bool, shape (groups, 6)
        ``saved[g, f - 1]``: group ``g`` saves a natural ``f`` against this pool.
    effective_damage : sequence of Dist
        Wounds lost per unsaved attack by a model of each group (after FNP).
    """
    blocks = _blocks_for(layout, saved, damage_matrix(layout, effective_damage))
    return _chain(save_dice.pmf, state, blocks)


def unsaved_distribution(
    layout: Layout,
    state: FloatArray,
    save_dice: Dist,
    saved: np.ndarray,
    effective_damage: Sequence[Dist],
) -> Dist:
    """The number of save dice that inflicted damage (failed saves resolved before the unit died).

    The same chain as :func:`resolve_saves` on states augmented with a counter of
    failed saves, which moves up by one with every damaging die.
    """
    kmax = save_dice.n
    counter = kmax + 1
    damage = damage_matrix(layout, effective_damage, sparse=True)
    shift = sp.diags(np.ones(kmax), 1, shape=(counter, counter)) + sp.coo_matrix(
        ([1.0], ([kmax], [kmax])), shape=(counter, counter)
    )
    blocks: list[tuple[float, Transition | None]] = []
    for lo, n, pattern in save_blocks(saved):
        p = n / (7 - lo)
        if pattern.all():
            blocks.append((p, None))
            continue
        saving = _saving_states(layout, pattern)
        fail = sp.diags((~saving).astype(float)) @ damage
        aug = sp.kron(sp.diags(saving.astype(float)), sp.identity(counter)) + sp.kron(fail, shift)
        blocks.append((p, Transition(sp.csr_matrix(aug))))
    start = np.zeros((layout.size, counter))
    start[:, 0] = state
    final = _chain(save_dice.pmf, start.ravel(), blocks).reshape(layout.size, counter)
    return Dist._trusted(final.sum(axis=0))
