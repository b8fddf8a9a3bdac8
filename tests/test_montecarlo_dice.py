"""The Monte Carlo's D6: faces from random bytes, exactly uniform by rejection.

:func:`~mathhammer.montecarlo.rolls.d6` is checked against a plain reading of the same
bytes (every byte below 252 gives ``b % 6 + 1``; the others are rolled again, in order),
and its faces against the uniform distribution: the six faces alone and consecutive
pairs, by chi-square on a few million dice of a fixed seed. Dice read through a table as
they are rolled (:func:`~mathhammer.montecarlo.rolls.rolled_read`) are the dice rolled,
then read: the same values, and the generator left where rolling leaves it.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from mathhammer.montecarlo.rolls import count_rolled, d6, rolled, rolled_read
from mathhammer.montecarlo.tables import count_where, lookup, pair_table


def reference(seed: int, size: int) -> list[int]:
    """The faces ``d6`` makes from a generator of ``seed``: a byte at a time, the
    rejected positions filled, in order, by the next draw of as many bytes."""
    rng = np.random.default_rng(seed)

    def draw(count: int) -> list[int]:
        faces = [b % 6 + 1 if b < 252 else 0 for b in rng.bytes(count)]
        again = [i for i, face in enumerate(faces) if face == 0]
        if again:
            for i, face in zip(again, draw(len(again)), strict=True):
                faces[i] = face
        return faces

    return draw(size)


@pytest.mark.parametrize("seed", [0, 1, 7, 2026])
def test_the_faces_are_the_bytes_read_as_dice(seed: int) -> None:
    faces = d6(np.random.default_rng(seed), (500, 7))
    assert faces.dtype == np.int8 and faces.shape == (500, 7)
    assert faces.ravel().tolist() == reference(seed, 3500)


def test_rejected_bytes_are_rolled_again() -> None:
    # 3,500 bytes hold about 55 of the four rejected values: the redraw is exercised
    rng = np.random.default_rng(1)
    rejected = sum(b >= 252 for b in rng.bytes(3500))
    assert rejected > 20
    faces = d6(np.random.default_rng(1), (3500,))
    assert faces.min() >= 1 and faces.max() <= 6


@pytest.mark.parametrize("shape", [(0,), (0, 4), (4, 0), (1, 1)])
def test_empty_and_tiny_shapes(shape: tuple[int, ...]) -> None:
    faces = d6(np.random.default_rng(3), shape)
    assert faces.shape == shape and faces.dtype == np.int8


def test_faces_and_pairs_of_faces_are_uniform() -> None:
    faces = d6(np.random.default_rng(11), (3_000_000,)).astype(np.int64)
    single = np.bincount(faces, minlength=7)[1:]
    assert stats.chisquare(single).pvalue > 1e-6
    pairs = np.bincount((faces[:-1:2] - 1) * 6 + faces[1::2] - 1, minlength=36)
    assert stats.chisquare(pairs).pvalue > 1e-6
    # the test has the power to see a die whose six comes up 1 % too often
    loaded = single.copy()
    loaded[5] += single[5] // 100
    assert stats.chisquare(loaded).pvalue < 1e-3


def test_rolled_masks_the_dice_a_trial_does_not_have() -> None:
    counts = np.array([0, 3, 1, 5])
    faces = rolled(np.random.default_rng(5), counts)
    assert faces.shape == (4, 5)
    assert ((faces > 0).sum(axis=1) == counts).all()
    assert faces[1, :3].tolist() == reference(5, 20)[5:8]


#: Tables of the faces 0-6 (entry 0: no die): read by translating bytes (whole numbers
#: 0-254, no die at 0), and the others, read from the faces.
TABLES = {
    "pairs of a hit": pair_table(np.array([0, 0, 0, 1, 1, 1, 2]), width=40)[0],
    "pairs, wide rows": pair_table(np.array([0, 0, 2, 0, 1, 1, 2]), width=200)[0],
    "booleans": np.array([0, 1, 1, 0, 0, 1, 0], dtype=bool),
    "int64 up to 254": np.array([0, 254, 3, 0, 9, 1, 200]),
    "255 (the rolled-again code)": np.array([0, 255, 1, 1, 0, 0, 1], dtype=np.float32),
    "no die not 0": np.array([1, 0, 0, 1, 1, 1, 1], dtype=np.float32),
    "fractions": np.array([0, 0.5, 1, 1, 1, 1, 1]),
    "negative": np.array([0, -1, 0, 1, 1, 1, 2]),
}


@pytest.mark.parametrize("name", list(TABLES))
@pytest.mark.parametrize("seed", [0, 3, 2026])
def test_dice_read_as_rolled_are_the_dice_rolled_then_read(name: str, seed: int) -> None:
    table = TABLES[name]
    counts = np.random.default_rng(seed).integers(0, 30, size=700)  # ~40 rejected bytes
    counts[:3] = [0, 29, 0]
    fused, plain = np.random.default_rng(seed), np.random.default_rng(seed)
    got = rolled_read(fused, counts, table)
    expected = lookup(table, rolled(plain, counts))
    assert got.dtype == expected.dtype and got.shape == expected.shape
    assert np.array_equal(got, expected)
    assert fused.bytes(16) == plain.bytes(16)  # as many bytes drawn


@pytest.mark.parametrize("counts", [[], [0, 0], [1], [5, 0, 2]])
def test_dice_read_as_rolled_of_few_or_no_dice(counts: list[int]) -> None:
    table = TABLES["pairs of a hit"]
    array = np.array(counts, dtype=np.int64)
    got = rolled_read(np.random.default_rng(9), array, table)
    assert np.array_equal(got, lookup(table, rolled(np.random.default_rng(9), array)))


def test_dice_counted_as_rolled_are_counted_from_the_faces() -> None:
    fails = np.array([0, 1, 1, 1, 0, 0, 0], dtype=bool)
    counts = np.random.default_rng(4).integers(0, 12, size=2000)
    fused, plain = np.random.default_rng(8), np.random.default_rng(8)
    got = count_rolled(fused, counts, fails)
    assert got.dtype == np.int64
    assert got.tolist() == count_where(rolled(plain, counts), fails).tolist()
    assert fused.bytes(16) == plain.bytes(16)
