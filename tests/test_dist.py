"""Dist: constructors, scipy-style accessors, algebra checked against brute force."""

from __future__ import annotations

import itertools
import pickle
import re
from fractions import Fraction as F

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from mathhammer import Dist, DistributionError
from mathhammer.core.binomial import binomial_table
from mathhammer.core.queries import FEW_VALUES

ATOL = 1e-12


def brute_sum(dists: list[Dist]) -> np.ndarray:
    """The distribution of a sum by enumerating every combination of values."""
    size = sum(d.n for d in dists) + 1
    out = np.zeros(size)
    for values in itertools.product(*(range(d.n + 1) for d in dists)):
        out[sum(values)] += np.prod(
            [d.probabilities[v] for d, v in zip(dists, values, strict=True)]
        )
    return out


pmfs = st.lists(st.floats(0.0, 1.0), min_size=1, max_size=6).filter(lambda x: sum(x) > 0.1)


def normalised(weights: list[float]) -> Dist:
    arr = np.array(weights)
    return Dist(arr / arr.sum())


def test_accessors_on_a_small_distribution() -> None:
    d = Dist([0.125, 0.375, 0.375, 0.125])  # Binomial(3, 1/2)
    assert d.mean() == 1.5
    assert d.var() == 0.75
    assert d.std() == pytest.approx(np.sqrt(0.75), abs=ATOL)
    assert d.cdf(1) == 0.5
    assert d.sf(1) == 0.5
    assert d.at_least(1) == 0.875
    assert d.at_most(0) == 0.125
    assert d.cdf(-1) == 0.0 and d.cdf(10) == 1.0
    assert d.sf(-1) == 1.0 and d.sf(3) == 0.0
    assert d.at_least(0) == 1.0 and d.at_least(4) == 0.0
    assert d.median() == 1
    assert d.mode() == 1
    assert d.support() == (0, 3)
    assert d.pmf(2) == 0.375 and d.pmf(7) == 0.0 and d.pmf(-1) == 0.0
    np.testing.assert_array_equal(d.cdf(np.arange(4)), [0.125, 0.5, 0.875, 1.0])
    np.testing.assert_array_equal(d.sf(np.arange(4)), [0.875, 0.5, 0.125, 0.0])


def test_matches_scipy_binomial() -> None:
    d = Dist.binomial(12, 0.3)
    ref = stats.binom(12, 0.3)
    k = np.arange(13)
    np.testing.assert_allclose(d.probabilities, ref.pmf(k), atol=ATOL)
    np.testing.assert_allclose(d.cdf(k), ref.cdf(k), atol=ATOL)
    np.testing.assert_allclose(d.sf(k), ref.sf(k), atol=ATOL)
    assert d.mean() == pytest.approx(ref.mean(), abs=ATOL)
    assert d.var() == pytest.approx(ref.var(), abs=ATOL)
    q = np.array([0.0, 0.01, 0.25, 0.5, 0.75, 0.99, 1.0])
    np.testing.assert_array_equal(d.ppf(q[1:]), ref.ppf(q[1:]).astype(int))


#: Points below, inside and above the support, between integers and at both infinities.
POINTS = [-np.inf, -3, -1, -0.5, 0, 0.5, 1, 2.7, 5, 11.99, 12, 12.5, 13, 40, np.inf]
BINOMIALS = [(0, 0.3), (1, 0.5), (12, 0.3), (30, 0.9)]


@pytest.mark.parametrize(("n", "p"), BINOMIALS)
@pytest.mark.parametrize("method", ["pmf", "cdf", "sf"])
def test_pmf_cdf_sf_match_scipy_at_any_point(n: int, p: float, method: str) -> None:
    got, want = getattr(Dist.binomial(n, p), method), getattr(stats.binom(n, p), method)
    k = np.array(POINTS)
    values = got(k)
    assert values.dtype == np.float64 and values.shape == k.shape
    np.testing.assert_allclose(values, want(k), rtol=0, atol=ATOL)
    for point, expected in zip(POINTS, want(k), strict=True):
        value = got(point)
        assert type(value) is float, (method, point)
        assert abs(value - expected) <= ATOL, (method, point)


@pytest.mark.parametrize(("n", "p"), BINOMIALS)
def test_ppf_matches_scipy_above_zero(n: int, p: float) -> None:
    d, ref = Dist.binomial(n, p), stats.binom(n, p)
    q = np.array([1e-9, 0.01, 0.1, 0.25, 0.4, 0.75, 0.9, 0.99, 1 - 1e-9, 1.0])
    got = d.ppf(q)
    assert got.dtype == np.int64
    np.testing.assert_array_equal(got, ref.ppf(q))
    for x, expected in zip(q, ref.ppf(q), strict=True):
        value = d.ppf(float(x))
        assert type(value) is int and value == expected, x
    # scipy's ppf(0) is one below the support; ours is the support's lowest value
    assert ref.ppf(0.0) == -1 and d.ppf(0.0) == d.support()[0]


def test_scalar_and_array_calls_agree_in_any_shape() -> None:
    d = Dist([0.1, 0.2, 0.3, 0.4])
    grid = np.array([[-1, 0, 1.5], [2, 3, 9]])
    for method in (d.pmf, d.cdf, d.sf, d.at_least, d.at_most):
        values = method(grid)
        assert values.shape == grid.shape
        assert values.tolist() == [[method(x) for x in row] for row in grid.tolist()]
        assert method([2]).tolist() == [method(2)]
        # Any real number is accepted at run time; the overloads name only float and numpy.
        assert method(np.int64(2)) == method(2.0) == method(F(2, 1))  # type: ignore[call-overload]
    q = [[0.05, 0.25], [0.5, 1.0]]
    assert d.ppf(q).tolist() == [[d.ppf(x) for x in row] for row in q] == [[0, 1], [2, 3]]
    assert d.pmf([]).shape == (0,)


def test_at_least_between_integers_rounds_up() -> None:
    d = Dist([0.1, 0.2, 0.3, 0.4])
    assert d.at_least(1.5) == d.at_least(2) == d.sf(1) == pytest.approx(0.7, abs=ATOL)
    assert d.at_least(-0.5) == 1.0 and d.at_least(3.01) == 0.0
    assert d.at_most(1.5) == d.cdf(1) == pytest.approx(0.3, abs=ATOL)


def test_probabilities_is_the_whole_pmf() -> None:
    d = Dist.binomial(4, 0.25)
    np.testing.assert_array_equal(d.probabilities, d.pmf(np.arange(d.n + 1)))
    np.testing.assert_allclose(np.cumsum(d.probabilities), d.cdf(np.arange(5)), atol=ATOL)


def test_a_dist_has_no_truth_value() -> None:
    d = Dist([0.5, 0.5])
    with pytest.raises(TypeError, match=r"no truth value.*at_least\(k\)"):
        bool(d)
    with pytest.raises(TypeError):
        _ = d and 1


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("a", "k must be a number or an array of numbers; got 'a'"),
        (["1", 2], "k must be a number or an array of numbers"),
        (True, "k must be a number or an array of numbers; got True"),
        ([True, False], "k must be a number or an array of numbers"),
        (None, "k must be a number or an array of numbers; got None"),
        (1j, "k must be a number or an array of numbers"),
        (np.nan, "k must be a number, not NaN; got nan"),
        ([0, np.nan], "k must be a number, not NaN"),
    ],
)
@pytest.mark.parametrize("method", ["pmf", "cdf", "sf", "at_least", "at_most"])
def test_evaluation_points_are_validated(method: str, value: object, message: str) -> None:
    with pytest.raises(DistributionError, match=re.escape(message)):
        getattr(Dist([0.5, 0.5]), method)(value)


@pytest.mark.parametrize(
    ("q", "message"),
    [
        ("0.5", "q must be a number or an array of numbers; got '0.5'"),
        (np.nan, "q must be a number, not NaN"),
        ([0.5, 1.5], "q must be a probability in [0, 1]"),
        (-np.inf, "q must be a probability in [0, 1]"),
    ],
)
def test_quantile_levels_are_validated(q: object, message: str) -> None:
    with pytest.raises(DistributionError, match=re.escape(message)):
        Dist([0.5, 0.5]).ppf(q)  # type: ignore[call-overload]


def test_ppf_at_the_edges() -> None:
    d = Dist([0.0, 0.5, 0.5])
    assert d.ppf(0.0) == 1  # never a value of probability zero
    assert d.ppf(0.5) == 1
    assert d.ppf(0.5000001) == 2
    assert d.ppf(1.0) == 2
    assert d.quantile(0.75) == 2
    with pytest.raises(DistributionError, match="q must be a probability"):
        d.ppf(1.5)


def test_uniform_and_constant() -> None:
    die = Dist.uniform(1, 6)
    assert die.mean() == pytest.approx(3.5, abs=ATOL)
    assert die.probabilities[0] == 0.0
    assert Dist.constant(3).support() == (3, 3)


def test_from_samples() -> None:
    d = Dist.from_samples(np.array([2, 2, 0, 1]), minlength=5)
    np.testing.assert_array_equal(d.probabilities, [0.25, 0.25, 0.5, 0.0, 0.0])


def test_two_d6() -> None:
    two = Dist.uniform(1, 6).repeat(2)
    exact = [F(0), F(0)] + [F(6 - abs(7 - s), 36) for s in range(2, 13)]
    np.testing.assert_allclose(two.probabilities, [float(x) for x in exact], atol=ATOL)


@settings(max_examples=60, deadline=None)
@given(pmfs, pmfs, st.integers(0, 4))
def test_convolution_and_repeat_match_enumeration(a: list[float], b: list[float], n: int) -> None:
    x, y = normalised(a), normalised(b)
    np.testing.assert_allclose((x + y).probabilities, brute_sum([x, y]), atol=ATOL)
    np.testing.assert_allclose(
        x.repeat(n).probabilities, brute_sum([x] * n) if n else [1.0], atol=ATOL
    )
    assert (x + 2).probabilities[2:].tolist() == x.probabilities.tolist()


@settings(max_examples=60, deadline=None)
@given(pmfs, pmfs)
def test_compound_matches_enumeration(items: list[float], counts: list[float]) -> None:
    x, n = normalised(items), normalised(counts)
    want = np.zeros(x.n * n.n + 1)
    for k, weight in enumerate(n.probabilities):
        part = brute_sum([x] * k) if k else np.array([1.0])
        want[: len(part)] += weight * part
    np.testing.assert_allclose(x.compound(n).probabilities, want, atol=ATOL)


@settings(max_examples=60, deadline=None)
@given(pmfs, st.floats(0.0, 1.0))
def test_thinning_matches_enumeration(counts: list[float], p: float) -> None:
    n = normalised(counts)
    want = np.zeros(n.n + 1)
    for k, weight in enumerate(n.probabilities):
        for kept in itertools.product([0, 1], repeat=k):
            want[sum(kept)] += weight * np.prod([p if s else 1 - p for s in kept])
    np.testing.assert_allclose(n.thin(p).probabilities, want, atol=ATOL)
    assert n.thin(p).mean() == pytest.approx(p * n.mean(), abs=1e-12)


def test_mixture() -> None:
    m = Dist.mixture([0.25, 0.75], [Dist.constant(0), Dist.uniform(1, 2)])
    np.testing.assert_allclose(m.probabilities, [0.25, 0.375, 0.375], atol=ATOL)
    message = "weights must be finite, non-negative and summing to 1"
    with pytest.raises(DistributionError, match=message):
        Dist.mixture([0.5, 0.6], [Dist.constant(0), Dist.constant(1)])


def test_binomial_table_rows_are_binomials() -> None:
    table = binomial_table(30, 1 / 3)
    for n in (0, 1, 7, 30):
        np.testing.assert_allclose(
            table[n, : n + 1], stats.binom(n, 1 / 3).pmf(range(n + 1)), atol=ATOL
        )
    with pytest.raises(ValueError):
        table[0, 0] = 2.0  # read-only: a cached table cannot be corrupted


def test_immutable() -> None:
    d = Dist([0.5, 0.5])
    with pytest.raises(ValueError):
        d.probabilities[0] = 1.0


def test_a_pickled_dist_is_equal_and_still_immutable() -> None:
    # a plan or a result sent to a worker process carries its distributions pickled
    d = Dist.binomial(5, 0.3)
    copy = pickle.loads(pickle.dumps(d))
    assert type(copy) is Dist and copy == d and copy is not d
    assert copy.mean() == d.mean() and copy.ppf(0.5) == d.ppf(0.5)
    with pytest.raises(ValueError):
        copy.probabilities[0] = 1.0


@pytest.mark.parametrize(
    ("pmf", "message"),
    [
        ([], "pmf must be a non-empty one-dimensional array"),
        ([[0.5, 0.5]], "pmf must be a non-empty one-dimensional array"),
        ([0.5, np.nan], "pmf must be finite"),
        ([1.5, -0.5], "pmf must be non-negative"),
        ([0.5, 0.4], "sum of pmf must be 1; got 0.9"),
        (["a"], "pmf must be an array of probabilities"),
    ],
)
def test_invalid_pmf(pmf: object, message: str) -> None:
    with pytest.raises(DistributionError, match=message.replace("(", r"\(")):
        Dist(pmf)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: Dist.binomial(-1, 0.5), "n must be an integer >= 0; got -1"),
        (lambda: Dist.binomial(2, 1.5), "p must be a probability in"),
        (
            lambda: Dist.binomial(2.5, 0.5),  # type: ignore[arg-type]
            "n must be an integer >= 0; got 2.5",
        ),
        (lambda: Dist.uniform(3, 1), "high must be an integer >= low"),
        (lambda: Dist([1.0]).repeat(-2), "times must be an integer >= 0"),
        (lambda: Dist([1.0]).thin("x"), "p must be a probability in"),  # type: ignore[arg-type]
        (lambda: Dist.from_samples([-1, 2]), "samples must be non-negative integers"),
    ],
)
def test_invalid_arguments(call, message: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(DistributionError, match=message.replace("(", r"\(")):
        call()


def test_errors_are_value_errors() -> None:
    with pytest.raises(ValueError):
        Dist([0.2])


def test_equality_and_allclose() -> None:
    a = Dist([0.5, 0.5])
    assert a == Dist([0.5, 0.5])
    assert a != Dist([0.5, 0.5, 0.0])
    assert a.allclose(Dist([0.5, 0.5, 0.0]))
    assert hash(a) == hash(Dist([0.5, 0.5]))
    assert "mean=0.5" in repr(a)


def test_evaluation_points_must_be_numbers() -> None:
    d = Dist([0.5, 0.5])
    with pytest.raises(DistributionError, match="k must be a number, not NaN"):
        d.at_least(np.nan)
    with pytest.raises(DistributionError, match="k must be a number or an array of numbers"):
        d.cdf("a")


@given(
    st.lists(st.floats(0.0, 1.0), min_size=1, max_size=40).filter(lambda w: sum(w) > 0),
    st.integers(-3, 45),
)
def test_an_integer_k_is_answered_as_its_float_is(weights: list[float], k: int) -> None:
    d = Dist(np.asarray(weights) / sum(weights))
    for query in (d.sf, d.at_least):
        fast, general = query(k), query(float(k))
        assert type(fast) is float and abs(fast - general) <= 1e-15
    assert d.at_least(k) == d.sf(k - 1)


@pytest.mark.parametrize("size", [1, 2, 11, FEW_VALUES - 1, FEW_VALUES, FEW_VALUES + 1, 300])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_moments_and_tails_of_short_and_long_pmfs_are_exact(size: int, seed: int) -> None:
    """The moments and tails of a pmf, summed in Python floats up to ``FEW_VALUES`` values
    and by arrays past them, against the exact rational sums of the same pmf; the mass
    placed in a few spikes as well as spread, and a tail far below the rest."""
    rng = np.random.default_rng(seed * 1000 + size)
    weights = rng.dirichlet(np.full(size, 0.3))
    if size > 2:
        weights[-1] = 1e-30  # a far tail: summed from the top, it keeps its digits
        weights /= weights.sum()
    d = Dist(weights)
    exact = [F(float(x)) for x in d.probabilities]
    total = sum(exact)
    mean = sum(k * x for k, x in enumerate(exact)) / total
    var = sum((k - mean) ** 2 * x for k, x in enumerate(exact)) / total
    assert d.mean() == pytest.approx(float(mean), rel=1e-14, abs=1e-300)
    assert d.var() == pytest.approx(float(var), rel=1e-12, abs=1e-15)
    assert d.std() == pytest.approx(float(var) ** 0.5, rel=1e-12, abs=1e-7)
    for k in sorted({0, 1, size // 2, size - 2, size - 1, size}):
        tail = sum(exact[k + 1 :])
        assert d.sf(k) == pytest.approx(float(tail), rel=1e-14, abs=1e-300), k
        assert d.at_least(k + 1) == d.sf(k)


@pytest.mark.parametrize("size", [1, FEW_VALUES, FEW_VALUES + 1])
def test_the_moments_of_a_certain_value_are_exact(size: int) -> None:
    d = Dist(np.eye(size)[size - 1])
    assert d.mean() == size - 1 and d.var() == 0.0 and d.std() == 0.0
    assert d.sf(size - 2) == 1.0 and d.sf(size - 1) == 0.0
