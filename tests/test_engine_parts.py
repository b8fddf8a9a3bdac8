"""The engine's building blocks: per-die kernels, the state layout, dense vs sparse chains."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import mathhammer as mh
from mathhammer.core.dist import Dist
from mathhammer.exact import methods
from mathhammer.exact.chain import save_blocks
from mathhammer.exact.layout import Layout, damage_matrix
from mathhammer.exact.steps import category_probabilities, compound_kernel, thin_by_kernel
from mathhammer.rules import eleventh
from mathhammer.rules.base import RollCheck

ATOL = 1e-12


def brute_compound(count: Dist, k: np.ndarray) -> np.ndarray:
    """Sum of N ~ count copies of a 2-D kernel, by enumerating every die's outcome."""
    cells = [(x, y) for x in range(k.shape[0]) for y in range(k.shape[1])]
    out = np.zeros((count.n * (k.shape[0] - 1) + 1, count.n * (k.shape[1] - 1) + 1))
    for n, weight in enumerate(count.probabilities):
        for combo in itertools.product(cells, repeat=n):
            p = weight * np.prod([k[c] for c in combo])
            out[sum(c[0] for c in combo), sum(c[1] for c in combo)] += p
    return out


KERNEL = np.array([[0.3, 0.1], [0.2, 0.05], [0.25, 0.1]])


def test_compound_kernel_matches_enumeration() -> None:
    count = Dist([0.1, 0.2, 0.3, 0.4])
    np.testing.assert_allclose(
        compound_kernel(count, KERNEL), brute_compound(count, KERNEL), atol=ATOL
    )


def test_bernoulli_fast_path_equals_general_path() -> None:
    count = Dist.uniform(1, 6).repeat(2)
    fast = compound_kernel(count, np.array([[0.4], [0.6]]))
    general = compound_kernel(count, np.array([[0.4, 0.0], [0.6, 0.0]]))
    np.testing.assert_allclose(fast[:, 0], general[:, 0], atol=ATOL)
    joint = np.array([[0.1, 0.2], [0.3, 0.0], [0.15, 0.25]])
    fast = thin_by_kernel(joint, np.array([[0.5], [0.5]]))
    general = thin_by_kernel(joint, np.array([[0.5, 0.0], [0.5, 0.0]]))
    np.testing.assert_allclose(fast[:, 0], general[: len(fast), 0], atol=ATOL)


def test_thin_by_kernel_matches_enumeration() -> None:
    joint = np.array([[0.1, 0.2], [0.3, 0.0], [0.15, 0.25]])  # [items, passthrough]
    k = np.array([[0.5, 0.2], [0.3, 0.0]])
    cells = [(0, 0), (0, 1), (1, 0)]
    want = np.zeros((2 * 1 + 1 + 1, 2 + 1))
    for x, y in itertools.product(range(3), range(2)):
        for combo in itertools.product(cells, repeat=x):
            p = joint[x, y] * np.prod([k[c] for c in combo])
            want[y + sum(c[0] for c in combo), sum(c[1] for c in combo)] += p
    got = thin_by_kernel(joint, k)
    np.testing.assert_allclose(got, want[: got.shape[0], : got.shape[1]], atol=ATOL)
    assert got.sum() == pytest.approx(1.0, abs=ATOL)


def test_category_probabilities_of_the_ruleset() -> None:
    probs = category_probabilities(RollCheck(lambda f: eleventh.wound_outcome(f, needed=2)))
    np.testing.assert_allclose(probs * 6, [1, 4, 1], atol=ATOL)


def test_layout_of_a_wounded_unit() -> None:
    unit = mh.Unit(
        "u",
        [mh.ModelGroup(2, 4, 3, 3, wounds_lost=1), mh.ModelGroup(1, 4, 2, 2, character=True)],
    )
    layout = Layout(unit)
    # model 0 starts on 2 wounds, model 1 on 3, the character on 2, then destroyed
    assert layout.wounds_left(layout.current_group()).tolist() == [2, 1, 3, 2, 1, 2, 1, 0]
    assert layout.current_group().tolist() == [0, 0, 0, 0, 0, 1, 1, -1]
    assert layout.killed.tolist() == [0, 0, 1, 1, 1, 2, 2, 3]
    assert layout.killed_in_group(1).tolist() == [0, 0, 0, 0, 0, 0, 0, 1]
    assert layout.damage.tolist() == list(range(8))


def test_layout_with_precision_lets_the_character_vary() -> None:
    unit = mh.Unit(
        "u", [mh.ModelGroup(2, 4, 3, 1), mh.ModelGroup(1, 4, 2, 2, character=True, name="C")]
    )
    layout = Layout(unit, focus=[1])
    assert layout.positions.tolist() == [[i, j] for j in range(3) for i in range(3)]
    # normally the bodyguard is current while it lives; a wounded CHARACTER is still
    # allocated to only when the bodyguard is gone
    assert layout.current_group().tolist() == [0, 0, 1, 0, 0, 1, 0, 0, -1]
    assert layout.current_group(focus=1).tolist() == [1, 1, 1, 1, 1, 1, 0, 0, -1]


def test_damage_matrix_rows_are_distributions() -> None:
    unit = mh.Unit("u", [mh.ModelGroup(3, 4, 3, 3), mh.ModelGroup(2, 4, 4, 1, fnp=5)])
    layout = Layout(unit)
    d6 = mh.parse_dice("D6").dist
    m = damage_matrix(layout, [d6, d6.thin(2 / 3)])
    assert isinstance(m, np.ndarray)
    np.testing.assert_allclose(m.sum(axis=1), 1.0, atol=ATOL)
    assert np.all(np.triu(m) == m)  # damage only ever moves forward along the line
    sparse = damage_matrix(layout, [d6, d6.thin(2 / 3)], sparse=True)
    np.testing.assert_allclose(sparse.toarray(), m, atol=0)  # type: ignore[union-attr]


def test_save_blocks_merge_faces_treated_alike() -> None:
    saved = np.array([eleventh.save_outcome(np.arange(1, 7), -1, sv) for sv in (3, 4, 4)])
    blocks = [(lo, n, p.tolist()) for lo, n, p in save_blocks(saved)]
    assert blocks == [(1, 3, [False] * 3), (4, 1, [True, False, False]), (5, 2, [True] * 3)]


@pytest.mark.parametrize("damage", [1, "D3", "D6+1"])
def test_sparse_chain_equals_dense_chain(damage: object) -> None:
    unit = mh.Unit(
        "u",
        [
            mh.ModelGroup(4, 4, 3, 2, wounds_lost=1, name="A"),
            mh.ModelGroup(3, 4, 5, 1, fnp=6, name="B"),
            mh.ModelGroup(1, 4, 2, 4, invuln=4, character=True, name="C"),
        ],
    )
    w = mh.Weapon("w", attacks="2D6", skill=3, strength=5, ap=-1, damage=damage)  # type: ignore[arg-type]
    dense = mh.attack([(w, 2)], unit)
    with methods.forcing("sparse"):
        sparse = mh.attack([(w, 2)], unit)
    for a, b in [
        (dense.killed, sparse.killed),
        (dense.damage, sparse.damage),
        (dense.killed_in("C"), sparse.killed_in("C")),
        (dense.pools[0].unsaved, sparse.pools[0].unsaved),
    ]:
        np.testing.assert_allclose(a.probabilities, b.probabilities, atol=ATOL)
