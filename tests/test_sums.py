"""Sums of a few floats in numpy's order (:func:`ordered_sum`), and the short rows the
binomial module normalises with it: bit for bit what ``np.add.reduce`` gives."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mathhammer.core.binomial import _ratio_row
from mathhammer.core.sums import ORDERED_LIMIT, ordered_sum
from mathhammer.core.tuning import PYTHON_SUM, SMALL_ROW
from mathhammer.exact.single import _summed

# magnitudes from tiny to large, so that the order of the additions changes the rounding
_FLOATS = st.floats(min_value=0.0, max_value=1e6, allow_nan=False, allow_infinity=False)
_SCALED = st.tuples(_FLOATS, st.integers(-30, 0)).map(lambda p: p[0] * 10.0 ** p[1])


@settings(max_examples=400, deadline=None)
@given(st.lists(_SCALED, min_size=0, max_size=ORDERED_LIMIT))
def test_the_sum_is_numpy_s_to_the_last_bit(values: list[float]) -> None:
    assert ordered_sum(values) == float(np.add.reduce(np.array(values, dtype=np.float64)))


def test_every_length_agrees_with_numpy_on_values_whose_order_matters() -> None:
    rng = np.random.default_rng(11)
    for n in range(ORDERED_LIMIT + 1):
        for _ in range(40):
            values = rng.random(n) * 10.0 ** rng.integers(-18, 1, n)
            assert ordered_sum(values.tolist()) == float(np.add.reduce(values)), n


def test_a_sum_in_order_differs_from_numpy_s_where_eight_sums_round_otherwise() -> None:
    """The check above can fail: adding one after the other (the built-in ``sum`` of
    Python 3.11) rounds differently from numpy's eight running sums on some lists."""
    rng = np.random.default_rng(5)
    differ = 0
    for _ in range(200):
        values = (rng.random(24) * 10.0 ** rng.integers(-18, 1, 24)).tolist()
        plain = 0.0
        for v in values:
            plain += v
        differ += plain != ordered_sum(values)
    assert differ > 0


@pytest.mark.parametrize("start", [0, 3])
@pytest.mark.parametrize("n", [0, 1, 8, PYTHON_SUM - 1, PYTHON_SUM, PYTHON_SUM + 1, 100, 300])
def test_a_tail_is_summed_as_numpy_sums_it_on_either_side_of_the_switch(n: int, start: int) -> None:
    """A pmf's tail is summed in Python floats up to ``PYTHON_SUM`` entries and by numpy
    past them: the same total either way, and past ``ORDERED_LIMIT`` too."""
    assert PYTHON_SUM <= ORDERED_LIMIT
    rng = np.random.default_rng(n + start)
    values = rng.random(n + start) * 10.0 ** rng.integers(-18, 1, n + start)
    assert _summed(values.tolist(), values, start) == float(np.add.reduce(values[start:]))


def test_more_values_than_numpy_s_block_are_refused() -> None:
    with pytest.raises(ValueError, match="at most 128"):
        ordered_sum([1.0] * (ORDERED_LIMIT + 1))


@pytest.mark.parametrize("n", [1, 5, 6, 7, 8, 9, 15, 16, 17, 40, SMALL_ROW])
@pytest.mark.parametrize("p", [1 / 6, 2 / 9, 1 / 3, 0.5, 5 / 6, 0.97])
def test_a_short_row_is_normalised_as_an_array_would_be(n: int, p: float) -> None:
    """The row's terms, divided by their sum in Python floats, are those an array divided
    by ``np.add.reduce`` of itself gives (the long rows' way)."""
    row = _ratio_row(n, p)
    q, mode = 1.0 - p, min(n, int((n + 1) * p))
    rho = p / q
    terms = np.ones(n + 1)
    for k in range(mode, n):
        terms[k + 1] = terms[k] * ((n - k) / (k + 1.0) * rho)
    for k in range(mode, 0, -1):
        terms[k - 1] = terms[k] * (k / ((n - k + 1.0) * rho))
    terms /= np.add.reduce(terms)
    assert row.tobytes() == terms.tobytes()
