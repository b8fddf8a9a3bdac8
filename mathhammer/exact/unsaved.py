"""The number of failed saves of a pool: how many save dice inflicted damage.

A failed save resolved after the unit was destroyed inflicts nothing, so the count is
not the number of dice that failed: it depends on the target's state, and so on the
sorted-dice chain of :mod:`mathhammer.exact.chain`. When every group fails the same
faces the count has a closed form (:func:`_unsaved_by_survival`); otherwise the chain
runs on states augmented with a counter of failed saves.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..core.binomial import FloatArray
from ..core.dist import Dist
from ..rules.base import AllocationOrder
from .chain import Transition, _chain, _saving_states, save_blocks
from .cost import apply_cost, chain_cost, check_cost
from .layout import Layout, damage_matrix

__all__ = ["unsaved_counter", "unsaved_distribution"]


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


def unsaved_counter(layout: Layout, kmax: int, effective_damage: Sequence[Dist]) -> int:
    """The values the failed-saves counter takes: ``0..kmax``, or ``0..wounds`` when every
    failed save costs at least one wound (the unit is destroyed by then)."""
    if all(d.probabilities[0] == 0.0 for d in effective_damage):
        return min(kmax, int(layout.damage.max())) + 1
    return kmax + 1


def unsaved_distribution(
    layout: Layout,
    state: FloatArray,
    to_save: FloatArray,
    saved: np.ndarray,
    effective_damage: Sequence[Dist],
    focus: int | None = None,
    order: AllocationOrder | None = None,
) -> Dist:
    """The number of save dice that inflicted damage (failed saves resolved before the unit died).

    When every group fails the same faces and saves the rest, the failed saves are
    ``U ~ thin(save dice, faces failed / 6)`` and they are resolved first, so the count
    is ``min(U, T)`` with ``T`` the damaging die that destroys the unit, independent of
    ``U``: ``P(min >= k) = P(U >= k) P(T >= k)``. Otherwise the chain of
    :func:`apply_pool` runs on states augmented with a counter of failed saves (up to the
    unit's wounds when every failed save costs a wound: no Feel No Pain).
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
            damage_matrix(layout, effective_damage, focus=focus, order=order),
        )
    counter = unsaved_counter(layout, kmax, effective_damage)
    import scipy.sparse as sp

    damage = damage_matrix(layout, effective_damage, focus=focus, order=order, sparse=True)
    assert isinstance(damage, sp.csr_matrix)
    states = layout.size * counter
    nonzero = counter * (damage.nnz + layout.size)
    acting = [not pattern.all() for _, _, pattern in save_blocks(saved)]
    one, stacked = apply_cost(states, nonzero, False), apply_cost(states, nonzero, False, True)
    cost = chain_cost(kmax, 1, states, one, acting, stacked)
    sizes = f"{kmax} dice to save, {layout.size} target states x {counter} counts"
    check_cost("the failed saves' distribution", cost, sizes)
    current = layout.current_group(focus, order)
    top = counter - 1
    shift = sp.diags(np.ones(top), 1, shape=(counter, counter)) + sp.coo_matrix(
        ([1.0], ([top], [top])), shape=(counter, counter)
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
