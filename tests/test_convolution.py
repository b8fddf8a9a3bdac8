"""The numpy 2-D convolution against scipy's and against a literal double sum."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from scipy.signal import convolve2d as scipy_convolve2d

from mathhammer import DistributionError
from mathhammer.core.convolution import convolve2d

ATOL = 1e-12

tables = hnp.arrays(
    np.float64,
    hnp.array_shapes(min_dims=2, max_dims=2, min_side=1, max_side=7),
    elements=st.floats(0.0, 1.0),
)


def literal(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``out[i, j] = sum over m, n of a[m, n] * b[i - m, j - n]``, term by term."""
    out = np.zeros((a.shape[0] + b.shape[0] - 1, a.shape[1] + b.shape[1] - 1))
    for (m, n), (p, q) in itertools.product(np.ndindex(*a.shape), np.ndindex(*b.shape)):
        out[m + p, n + q] += a[m, n] * b[p, q]
    return out


@settings(max_examples=80, deadline=None)
@given(tables, tables)
def test_matches_scipy_and_the_double_sum(a: np.ndarray, b: np.ndarray) -> None:
    got = convolve2d(a, b)
    np.testing.assert_allclose(got, scipy_convolve2d(a, b), rtol=0, atol=ATOL)
    np.testing.assert_allclose(got, literal(a, b), rtol=0, atol=ATOL)
    np.testing.assert_allclose(convolve2d(b, a), got, rtol=0, atol=ATOL)


def test_a_kernel_power_is_the_joint_distribution_of_a_pool() -> None:
    # One die: no hit 1/2, a hit 1/3, a critical (automatic wound) 1/6; two dice by hand.
    die = np.array([[1 / 2, 1 / 6], [1 / 3, 0.0]])
    want = np.array([[1 / 4, 2 / 12, 1 / 36], [2 / 6, 2 / 18, 0.0], [1 / 9, 0.0, 0.0]])
    np.testing.assert_allclose(convolve2d(die, die), want, rtol=0, atol=ATOL)


@pytest.mark.parametrize("bad", [np.zeros(3), np.zeros((0, 2)), np.zeros((2, 2, 2))])
def test_refuses_what_is_not_a_table(bad: np.ndarray) -> None:
    with pytest.raises(DistributionError, match="must be a non-empty 2-D array"):
        convolve2d(bad, np.ones((1, 1)))
