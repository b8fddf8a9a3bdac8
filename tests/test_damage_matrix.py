"""The one-attack damage transition, built for every state at once, equals the transition
built state group by state group and damage by damage, as it first was (issue 14)."""

from __future__ import annotations

import numpy as np
import pytest

import mathhammer as mh
from mathhammer.core.dist import Dist
from mathhammer.exact.layout import Layout, _damage_matrix

rng = np.random.default_rng(14)


def reference(layout: Layout, damage: list[Dist], focus: int | None) -> np.ndarray:
    """Row by row: the current model loses E wounds, at most those it has left."""
    current = layout.current_group(focus)
    left = layout.wounds_left(current)
    out = np.zeros((layout.size, layout.size))
    for s in range(layout.size):
        g = int(current[s])
        if g < 0:
            out[s, s] = 1.0
            continue
        for e, p in enumerate(damage[g].probabilities):
            lost = min(e, int(left[s]))
            out[s, int(layout.step(np.array([s]), np.array([g]), lost)[0])] += p
    return out


def random_unit() -> tuple[mh.Unit, int | None]:
    groups = []
    for i in range(int(rng.integers(1, 4))):
        count = 1 if i > 0 else int(rng.integers(1, 4))  # a CHARACTER is a group of one
        wounds = int(rng.integers(1, 5))
        lost = int(rng.integers(0, wounds)) if rng.random() < 0.3 else 0
        groups.append(mh.ModelGroup(count, 4, 3, wounds, wounds_lost=lost, character=i > 0))
    focus = int(rng.integers(1, len(groups))) if len(groups) > 1 and rng.random() < 0.5 else None
    return mh.Unit("u", groups), focus


@pytest.mark.parametrize("seed", range(40))
def test_the_whole_transition_equals_the_one_built_state_by_state(seed: int) -> None:
    unit, focus = random_unit()
    layout = Layout(unit, () if focus is None else (focus,))
    damage = []
    for _ in unit.groups:
        pmf = rng.dirichlet(np.ones(int(rng.integers(1, 8))))
        if len(pmf) > 1 and rng.random() < 0.5:
            pmf[0] = 0.0  # without a Feel No Pain's zero
        damage.append(Dist(pmf / pmf.sum()))
    want = reference(layout, damage, focus)
    dense = _damage_matrix(layout, damage, focus, None, True)
    sparse = _damage_matrix(layout, damage, focus, None, False)
    np.testing.assert_allclose(dense, want, rtol=0, atol=1e-15)
    assert not isinstance(sparse, np.ndarray)
    np.testing.assert_allclose(sparse.toarray(), want, rtol=0, atol=1e-15)
    np.testing.assert_allclose(dense.sum(axis=1), 1.0, rtol=0, atol=1e-14)
