"""Binomial tables, rows and thinning against exact fractions and the Pascal recurrence.

The tables are the recurrence itself, grown a quarter at a time and shared by every
smaller size (no rebuild between neighbouring sizes: the 256 -> 257 dice cliff of issue
14); single rows are computed alone by products of ratios from the mode, which must stay
within 1e-16 of the exact pmf (and so within the recurrence's own drift of it); the
caches are bounded by the entries they hold and hand out read-only arrays.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb, isqrt
from typing import Any

import numpy as np
import pytest

import mathhammer as mh
from mathhammer.core import binomial, caches, limits, tuning
from mathhammer.core.binomial import (
    _binomial_table_build,
    binomial_row,
    binomial_table,
    binomial_thin,
)
from mathhammer.core.lru import CacheInfo, SizedCache
from mathhammer.core.tuning import TABLE_SIZE

rng = np.random.default_rng(1414)
PROBABILITIES = [1 / 6, 1 / 3, 0.5, 2 / 3, 5 / 6, 0.3, 1 / 7, 0.01, 0.999]


def exact(n: int, p: float, ks: Any) -> np.ndarray:
    """P(Binomial(n, p) = k) for the exact value of the float ``p``, rounded once: with
    ``p = a / d``, ``C(n, k) a^k (d - a)^(n - k) / d^n`` in integers (a correctly rounded
    division)."""
    a, d = p.as_integer_ratio()
    whole = d**n
    return np.array([comb(n, k) * a**k * (d - a) ** (n - k) / whole for k in ks])


def around_mode(n: int, p: float, widths: float = 6.0) -> list[int]:
    """The counts within ``widths`` standard deviations of the mean (all the mass)."""
    sd = (n * p * (1 - p)) ** 0.5
    lo, hi = max(0, int(n * p - widths * sd) - 1), min(n, int(n * p + widths * sd) + 1)
    return list(range(lo, hi + 1, max(1, (hi - lo) // 60)))


@pytest.mark.parametrize("p", PROBABILITIES)
def test_table_is_the_exact_recurrence_rounded(p: float) -> None:
    """The whole table against Pascal's recurrence in exact fractions."""
    table = binomial_table(40, p)
    P = Fraction(p)
    row = [Fraction(1)]
    for n in range(41):
        assert table[n, n + 1 :].sum() == 0.0
        np.testing.assert_allclose(table[n, : n + 1], [float(v) for v in row], rtol=0, atol=1e-15)
        zero = Fraction(0)
        row = [(1 - P) * a + P * b for a, b in zip([*row, zero], [zero, *row], strict=True)]


@pytest.mark.parametrize("p", PROBABILITIES)
@pytest.mark.parametrize("n", [1, 7, 64, 300, 1000, 2500])
def test_rows_are_within_1e16_of_the_exact_pmf(n: int, p: float) -> None:
    row = binomial_row(n, p)
    assert row.shape == (n + 1,) and row.sum() == pytest.approx(1.0, abs=1e-15)
    ks = range(n + 1) if n <= 300 else around_mode(n, p)
    want = exact(n, p, ks)
    assert np.all(np.abs(row[ks] - want) <= 1e-16 + 2.0**-52 * want)  # and an ulp near 1
    pascal = _binomial_table_build(n, p)[n]
    drift = np.abs(pascal[ks] - exact(n, p, ks)).max()  # the recurrence's own error
    assert np.abs(row - pascal).max() <= max(1e-15, drift + 1e-16)
    if n <= 200:
        assert np.abs(row - pascal).max() <= 1e-15


def test_rows_at_the_edges() -> None:
    assert binomial_row(0, 0.3).tolist() == [1.0]
    assert binomial_row(100, 0.0)[0] == 1.0 and binomial_row(100, 1.0)[100] == 1.0
    assert binomial_row(100, 1.0).sum() == 1.0
    tiny = binomial_row(3000, 1e-9)  # the mode is 0: every term is a product downward
    assert tiny[0] == pytest.approx((1 - 1e-9) ** 3000, rel=1e-14)
    np.testing.assert_allclose(binomial_row(5, 0.25), _binomial_table_build(5, 0.25)[5])
    for bad, match in [((-1, 0.5), "n must be an integer >= 0"), ((3, 1.5), "p must be")]:
        with pytest.raises(mh.DistributionError, match=match):
            binomial_row(*bad)


def test_tables_and_rows_are_read_only() -> None:
    for array in (binomial_table(10, 0.5), binomial_row(10, 0.5), binomial_row(500, 0.5)):
        with pytest.raises(ValueError, match="read-only"):
            array[0] = 1.0
    copy = binomial.binomial_pmf(500, 0.5)
    copy[0] = 1.0  # a new array each time
    assert binomial_row(500, 0.5)[0] != 1.0


def test_a_grown_table_is_the_fresh_recurrence() -> None:
    """Growing continues the recurrence from the rows held: bit for bit a fresh build."""
    caches.clear()
    p = 0.37
    small = binomial_table(40, p).copy()
    big = binomial_table(700, p)
    np.testing.assert_array_equal(big, _binomial_table_build(700, p))
    np.testing.assert_array_equal(big[:41, :41], small)
    assert np.shares_memory(binomial_table(41, p), big)  # smaller sizes are views


def test_neighbouring_sizes_share_one_table(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every size from 100 to 2,000 dice, one after another: a dozen builds, each new row
    computed once (the old cache rebuilt every table above 256 dice on every call)."""
    caches.clear()
    built: list[tuple[int, int]] = []
    build = binomial._binomial_table_build

    def counted(nmax: int, p: float, held: np.ndarray | None = None) -> np.ndarray:
        built.append((0 if held is None else held.shape[0], nmax + 1))
        return build(nmax, p, held)

    monkeypatch.setattr(binomial, "_binomial_table_build", counted)
    for n in range(100, 2001):
        assert binomial_table(n, 0.25).shape == (n + 1, n + 1)
    assert len(built) <= 16
    # each row built once, up to a quarter past the largest size asked for
    assert sum(rows - held for held, rows in built) <= 1.25 * 2001 + 32
    held = binomial_table(256, 0.25)
    assert np.shares_memory(held, binomial_table(257, 0.25))


def test_the_tables_held_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    small: SizedCache[float, np.ndarray] = SizedCache(max_size=10_000, max_items=3)
    monkeypatch.setattr(binomial, "_TABLES", small)
    for p in (0.1, 0.2, 0.3, 0.4, 0.5):
        binomial_table(50, p)  # 64 rows: 4,225 entries each
        assert small.cache_info().size <= 10_000
    assert small.cache_info().items == 2
    big = binomial_table(200, 0.6)  # larger than the budget: built, not kept
    np.testing.assert_array_equal(big, _binomial_table_build(200, 0.6)[:201, :201])
    assert small.get(0.6) is None and small.cache_info().items == 2


def test_clear_caches_gives_the_tables_back() -> None:
    binomial_table(100, 0.42)
    binomial_row(500, 0.42)
    assert binomial._TABLES.cache_info().items > 0
    assert binomial._TABLES in caches.registered() and binomial._row in caches.registered()
    caches.clear()
    assert binomial._TABLES.cache_info() == CacheInfo(0, 0)
    assert binomial._row.cache_info().currsize == 0


# --------------------------------------------------------------------------- thinning
def reference_thin(weights: np.ndarray, p: float) -> np.ndarray:
    n = weights.shape[0] - 1
    return np.tensordot(_binomial_table_build(n, p).T, weights, axes=1)


@pytest.mark.parametrize(
    "shape, lo, hi",
    [
        ((60,), 37, 37),  # a fixed count: one row
        ((60, 3), 20, 20),  # a fixed count with passengers
        ((200,), 0, 199),  # spread from 0: the table
        ((200, 2), 150, 180),  # spread above 0: rows 150..180 of the table
        ((TABLE_SIZE + 300,), TABLE_SIZE - 50, TABLE_SIZE + 250),  # Horner, times a row
        ((TABLE_SIZE + 300,), 0, TABLE_SIZE + 299),  # Horner from 0
    ],
)
def test_thinning_paths_equal_the_table_product(shape: tuple[int, ...], lo: int, hi: int) -> None:
    weights = np.zeros(shape)
    weights[lo : hi + 1] = rng.dirichlet(np.ones(weights[lo : hi + 1].size)).reshape(
        weights[lo : hi + 1].shape
    )
    for p in (0.3, 5 / 6):
        got = binomial_thin(weights, p)
        assert got.shape == weights.shape
        np.testing.assert_allclose(got, reference_thin(weights, p), rtol=0, atol=1e-14)


def test_horner_thins_many_columns_when_no_table_fits(monkeypatch: pytest.MonkeyPatch) -> None:
    n = TABLE_SIZE + 100
    monkeypatch.setattr(binomial, "MAX_TABLE", TABLE_SIZE**2)
    assert not binomial.thin_uses_table(n, 3)
    weights = np.zeros((n + 1, 3))
    weights[300:] = rng.dirichlet(np.ones(3 * (n - 299))).reshape(n - 299, 3)
    got = binomial_thin(weights, 0.45)
    np.testing.assert_allclose(got, reference_thin(weights, 0.45), rtol=0, atol=1e-14)
    assert not binomial_thin(np.zeros((5, 2)), 0.5).any()


def test_rows_to_build_grow_by_a_quarter_within_the_largest_table() -> None:
    assert binomial._rows_to_build(10, 0) == 16
    assert binomial._rows_to_build(300, 288) == 368  # 360, rounded up to 16
    assert binomial._rows_to_build(3000, 32) == 3008
    top = isqrt(limits.MAX_TABLE)
    assert binomial._rows_to_build(top - 2, top - 10) == top  # never past the limit


# --------------------------------------------------------------------------- the cache
def test_sized_cache_bounds_and_replacement() -> None:
    cache: SizedCache[str, int] = SizedCache(max_size=100, max_items=2)
    cache.put("a", 1, 10)
    cache.put("a", 2, 30)  # replaced: its size counted once
    assert cache.get("a") == 2 and cache.cache_info() == CacheInfo(1, 30)
    cache.put("b", 3, 10)
    cache.put("c", 4, 10)  # a third item: the least recently used goes
    assert cache.get("a") is None and cache.cache_info() == CacheInfo(2, 20)
    cache.put("b", 5, 101)  # too large: not stored, and the old "b" is gone
    assert cache.get("b") is None and cache.cache_info() == CacheInfo(1, 10)
    cache.put("d", 6, 101)  # a new key too large: not stored, nothing pushed out
    assert cache.get("d") is None and cache.get("c") == 4 and cache.cache_info() == CacheInfo(1, 10)
    cache.cache_clear()
    assert cache.cache_info() == CacheInfo(0, 0)
    for bad in ({"max_size": 0, "max_items": 1}, {"max_size": 1, "max_items": 1.5}):
        with pytest.raises(ValueError, match="must be an integer >= 1"):
            SizedCache(**bad)


@pytest.mark.parametrize("p", [*PROBABILITIES, 0.0, 1.0])
def test_the_closed_rows_are_within_half_a_1e15_of_the_exact_pmf(p: float) -> None:
    """The first rows, C(n, k) p^k (1 - p)^(n - k) with (1 - p)^m from log1p: closer to the
    exact pmf than the recurrence, which carries the rounding of 1 - p m times."""
    table = _binomial_table_build(tuning.CLOSED_ROWS + 20, p)
    for n in [0, 1, 2, 17, tuning.CLOSED_ROWS - 1, tuning.CLOSED_ROWS + 20]:
        want = exact(n, p, range(n + 1))
        assert np.abs(table[n, : n + 1] - want).max() <= 5e-16, n
        assert table[n, n + 1 :].sum() == 0.0


def test_the_coefficients_are_exact_integers_rounded_once() -> None:
    coefficients = binomial._coefficients()
    assert coefficients.shape == (tuning.CLOSED_ROWS, tuning.CLOSED_ROWS)
    for n in range(tuning.CLOSED_ROWS):
        assert coefficients[n, : n + 1].tolist() == [float(comb(n, k)) for k in range(n + 1)]
    caches.clear()  # a constant of arithmetic: kept
    assert binomial._coefficients() is coefficients


@pytest.mark.parametrize("p", PROBABILITIES)
def test_small_counts_are_thinned_by_the_table_s_own_rows(p: float) -> None:
    """Below ``SMALL_TABLE`` dice the rows are made for the call, bit for bit the rows of
    the cached table (the same closed form), and nothing is stored."""
    if not 0.0 < p < 1.0:
        return
    for nmax in range(1, tuning.SMALL_TABLE):
        assert np.array_equal(binomial._small_table(nmax, p), binomial_table(nmax, p))
    binomial._TABLES.cache_clear()
    weights = np.zeros(tuning.SMALL_TABLE)
    weights[3:] = 1.0 / (tuning.SMALL_TABLE - 3)  # a spread of counts: not one row
    got = binomial_thin(weights, p)
    assert binomial._TABLES.cache_info().items == 0
    # the same rows; the products (of arrays laid out apart) may round an ulp apart
    expected = binomial_table(len(weights) - 1, p).T @ weights
    np.testing.assert_allclose(got, expected, rtol=4.5e-16, atol=1e-16)


def exact_thin(weights: np.ndarray, p: float) -> np.ndarray:
    """``binomial_thin`` of a pmf in exact rationals (the floats' exact values), rounded once."""
    a, d = p.as_integer_ratio()
    out = [Fraction(0)] * len(weights)
    for n, w in enumerate(weights.tolist()):
        for k in range(n + 1):
            out[k] += Fraction(w) * comb(n, k) * Fraction(a**k * (d - a) ** (n - k), d**n)
    return np.array([float(x) for x in out])


# 1 - 2**-16: the smallest 1 - p whose powers are factored out of the rows; 1 - 2**-20 and
# 1 - 2**-52: below it, the rows' powers by index
@pytest.mark.parametrize("p", [*PROBABILITIES, 0.0, 1e-9, 1 - 2**-16, 1 - 2**-20, 1 - 2**-52])
def test_few_counts_are_within_a_few_ulps_of_the_exact_thinning(p: float) -> None:
    """One pmf of up to ``SMALL_TABLE`` counts is thinned without a table (Horner's scheme
    up to six counts, the closed rows past them): each entry within 1e-15 of the exact
    value relative to the pmf (1e-16 absolute of a total 1), and the same shape."""
    for n in range(1, tuning.SMALL_TABLE + 1):
        for weights in (rng.dirichlet(np.ones(n)), np.eye(n)[-1], np.eye(n)[n // 2]):
            got = binomial_thin(weights, p)
            assert got.shape == weights.shape
            np.testing.assert_allclose(got, exact_thin(weights, p), rtol=1e-14, atol=2e-16)
            if 0.0 < p < 1.0:  # the table's product agrees too
                np.testing.assert_allclose(got, reference_thin(weights, p), rtol=0, atol=1e-15)


def test_few_counts_build_no_table() -> None:
    mh.clear_caches()
    binomial_thin(np.full(tuning.SMALL_TABLE, 1 / tuning.SMALL_TABLE), 0.3)
    binomial_thin(np.array([0.0, 0.25, 0.75]), 0.3)
    assert binomial._small_table.cache_info().currsize == 0
    assert binomial._TABLES.cache_info().items == 0
