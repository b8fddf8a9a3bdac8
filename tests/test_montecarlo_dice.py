"""The Monte Carlo's D6: faces from random bytes, exactly uniform by rejection.

:func:`~mathhammer.montecarlo.rolls.d6` is checked against a plain reading of the same
bytes (every byte below 252 gives ``b % 6 + 1``; the others are rolled again, in order),
and its faces against the uniform distribution: the six faces alone and consecutive
pairs, by chi-square on a few million dice of a fixed seed.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from mathhammer.montecarlo.rolls import d6, rolled


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
