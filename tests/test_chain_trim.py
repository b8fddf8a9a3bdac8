"""The save chain's shortcuts: counts of negligible probability trimmed (with the mass cut
reported), devastating wounds counted up to the unit's wounds, and the joint of dice left,
state and devastating wounds resolved state-major (issue 14). Each is checked against the
engine without it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import mathhammer as mh
from mathhammer.core import tuning
from mathhammer.core.binomial import binomial_table
from mathhammer.core.tuning import TRIM_MASS, WINDOW_COUNTS, WINDOW_MASS
from mathhammer.exact import chain, counts, methods, pool_chain, single, transition
from mathhammer.exact.counts import cap_passengers, split_windows, trim_counts

LED = mh.Unit(
    "Led",
    [
        mh.ModelGroup(10, 4, 4, 1),
        mh.ModelGroup(10, 4, 3, 2),
        mh.ModelGroup(5, 4, 3, 3),
        mh.ModelGroup(1, 4, 2, 6, invuln=4, character=True),
    ],
)
DEV_PRECISION = mh.Weapon("Gun", 1, 3, 4, -1, 2, "[DEVASTATING WOUNDS], [PRECISION]")
CASES = {
    "devastating precision vs a 4-group unit": ([(DEV_PRECISION, 120)], LED),
    "D6 vs 200x W3": (
        [(mh.Weapon("Heavy", 1, 3, 5, -1, "D6"), 600)],
        mh.Unit.of("Big", 200, 4, 3, 3),
    ),
    "mixed saves, many dice": (
        [(mh.Weapon("Rifle", 2, 3, 4, 0, 1), 150)],
        mh.Unit("Mixed", [mh.ModelGroup(20, 4, 5, 1), mh.ModelGroup(20, 4, 3, 1)]),
    ),
    "devastating with FNP against mortals": (
        [(mh.Weapon("Dev", 2, 3, 4, 0, 2, "[DEVASTATING WOUNDS]"), 40)],
        mh.Unit("Ghosts", [mh.ModelGroup(5, 4, 3, 2, fnp_mortal=5), mh.ModelGroup(5, 4, 4, 1)]),
    ),
    # splits of hundreds of dice: their windows cut (with devastating wounds beside them)
    "640 D6 vs a 4-group unit": (
        [(mh.Weapon("Heavy", 1, 3, 5, -1, "D6"), 640)],
        mh.Unit(
            "Mixed",
            [
                mh.ModelGroup(10, 4, 3, 2),
                mh.ModelGroup(10, 4, 4, 1),
                mh.ModelGroup(3, 4, 2, 3, invuln=4),
                mh.ModelGroup(1, 4, 2, 5, invuln=4, character=True),
            ],
        ),
    ),
    "320 devastating dice vs two groups": (
        [(mh.Weapon("Dev", 2, 3, 4, -1, 1, "[DEVASTATING WOUNDS]"), 160)],
        mh.Unit("Two", [mh.ModelGroup(10, 4, 4, 1), mh.ModelGroup(10, 4, 3, 2)]),
    ),
}


def distributions(result: mh.AttackResult) -> list[np.ndarray]:
    out = [result.killed.probabilities, result.damage.probabilities]
    out += [g.killed.probabilities for g in result.groups]
    out += [p.killed.probabilities for p in result.pools]
    return out


def untrimmed(
    monkeypatch: pytest.MonkeyPatch, weapons: mh.WeaponsLike, target: mh.Unit
) -> mh.AttackResult:
    """The attack with nothing trimmed: by the sorted-dice chain, or the one-group line
    (whose powers then run to the end, however unlikely the unit is to stand)."""
    for module in (counts, single):
        monkeypatch.setattr(module, "trim_counts", lambda count, mass=TRIM_MASS: (count, 0.0))
    monkeypatch.setattr(single, "TRIM_MASS", 0.0)
    monkeypatch.setattr(chain, "WINDOW_MASS", 0.0)  # a split then cuts only exact zeros
    return mh.attack(weapons, target)


def test_trim_counts_cuts_the_top_rows_of_negligible_mass() -> None:
    count = np.array([[0.25, 0.25], [0.5 - 3e-19, 0.0], [2e-19, 0.0], [1e-19, 0.0]])
    kept, cut = trim_counts(count)
    assert kept.shape == (2, 2) and cut == pytest.approx(3e-19, rel=1e-12)
    kept, cut = trim_counts(count, mass=2.5e-19)  # only the last row fits the budget
    assert kept.shape == (3, 2) and cut == pytest.approx(1e-19, rel=1e-12)
    assert trim_counts(count, mass=0.0)[1] == 0.0
    tiny = np.array([[1e-20], [1e-20]])
    assert trim_counts(tiny)[0].shape == (1, 1)  # the first row always stays


@pytest.mark.parametrize("name", list(CASES))
def test_trimming_moves_no_probability_by_more_than_it_reports(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    weapons, target = CASES[name]
    trimmed = mh.attack(weapons, target)
    whole = untrimmed(monkeypatch, weapons, target)
    assert whole.trimmed == 0.0
    assert 0.0 <= trimmed.trimmed <= 4 * TRIM_MASS
    for got, want in zip(distributions(trimmed), distributions(whole), strict=True):
        size = max(len(got), len(want))
        got, want = np.pad(got, (0, size - len(got))), np.pad(want, (0, size - len(want)))
        assert np.abs(got - want).max() <= trimmed.trimmed + 1e-15, name
        assert abs(got.sum() - 1.0) <= 1e-12


@pytest.mark.parametrize("p", [1 / 6, 1 / 3, 0.5, 5 / 6])
def test_a_split_s_windows_cut_the_mass_outside_them_and_no_more(p: float) -> None:
    """The mass :func:`split_windows` reports is that of every term it leaves out, counted
    term by term; it keeps every term of a count of few dice, and cuts nothing at 0."""
    size = 420
    rng = np.random.default_rng(int(p * 600))
    rowmass = binomial_table(size - 1, 0.6)[size - 1] * rng.uniform(0.5, 1.5, size)
    counts = (rowmass / rowmass.sum())[:, None] * np.array([0.25, 0.75])  # a passenger too
    table = binomial_table(size - 1, p)
    win = split_windows(counts, table, WINDOW_MASS)
    assert not win.full and 0 < win.a < win.b < size - 1
    assert np.all(np.diff(win.lo) >= 0) and np.all(np.diff(win.hi) >= 0)
    n = np.arange(size)[:, None]
    j = np.arange(size)[None, :]
    terms = counts.sum(axis=1)[:, None] * table
    dropped = float(terms[~win.mask(n, j)].sum())
    assert win.cut == pytest.approx(dropped, rel=1e-9, abs=1e-40)
    assert 0.0 < win.cut <= 4 * WINDOW_MASS
    for j_ in range(win.first, win.last + 1):  # the counts holding j, as the mask says
        n0, n1 = win.dice_range(j_)
        kept = np.flatnonzero(win.mask(np.arange(size), np.full(size, j_)))
        assert (n0, n1) == (kept[0], kept[-1]) and len(kept) == n1 - n0 + 1
    assert split_windows(counts, table, 0.0).full
    assert split_windows(counts[:WINDOW_COUNTS], table, WINDOW_MASS).full


def test_the_windows_cut_the_work_of_a_large_split(monkeypatch: pytest.MonkeyPatch) -> None:
    """640 D6 attacks against a 4-group unit: the dice moved through the blocks' transitions
    are a fraction of those of every term (a third of the time on the benchmark's case)."""
    weapons, target = CASES["640 D6 vs a 4-group unit"]
    moved: list[int] = []
    original = transition.Transition.apply_columns

    def counted(self: transition.Transition, x: np.ndarray) -> np.ndarray:
        moved.append(x.size)
        return original(self, x)

    monkeypatch.setattr(transition.Transition, "apply_columns", counted)
    windowed = mh.attack(weapons, target)
    cut = sum(moved)
    moved.clear()
    mh.clear_caches()
    monkeypatch.setattr(chain, "WINDOW_MASS", 0.0)
    whole = mh.attack(weapons, target)
    assert cut < sum(moved) / 3
    assert 0.0 < windowed.trimmed <= 4 * TRIM_MASS and whole.trimmed < windowed.trimmed


def test_large_pools_are_trimmed_and_small_ones_are_not() -> None:
    weapons, target = CASES["D6 vs 200x W3"]
    assert mh.attack(weapons, target).trimmed > 0.0
    small = mh.attack([(mh.Weapon("Gun", 2, 3, 4, 0, 1), 5)], mh.Unit.of("Squad", 5, 4, 3, 1))
    assert small.trimmed == 0.0


#: About 440 failed saves against 600 wounds: destroyed after 200-300 of them.
HORDE = ([(mh.Weapon("Heavy", 1, 3, 5, -1, "D6"), 2000)], mh.Unit.of("Big", 200, 4, 3, 3))


def test_the_line_ends_its_powers_once_the_unit_is_all_but_destroyed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    weapons, target = HORDE
    line = single.Line.of(target.groups_key)
    monkeypatch.setattr(single, "trim_counts", lambda count, mass=TRIM_MASS: (count, 0.0))
    powers: list[int] = []
    original = single.Line._powers

    def counted(self: single.Line, *args: Any) -> Iterator[tuple[int, np.ndarray]]:
        for j0, block in original(self, *args):
            powers.append(j0 + len(block))
            yield j0, block

    monkeypatch.setattr(single.Line, "_powers", counted)
    settled = mh.attack(weapons, target)
    assert 200 <= max(powers) < 400 < line.size  # ended early: not all 600 powers
    monkeypatch.setattr(single, "TRIM_MASS", 0.0)
    mh.clear_caches()
    powers.clear()
    full = mh.attack(weapons, target)
    assert max(powers) == line.size + 1
    assert 0.0 < settled.trimmed <= TRIM_MASS and full.trimmed == 0.0
    # 600 powers of the transition leave the full run's mass off 1 by rounding (about
    # 4e-14); the settled run, 300 powers shorter, keeps it within a few ulp
    drift = abs(full.damage.probabilities.sum() - 1.0)
    assert abs(settled.damage.probabilities.sum() - 1.0) <= 1e-15
    for got, want in zip(distributions(settled), distributions(full), strict=True):
        assert np.abs(got - want).max() <= settled.trimmed + drift + 1e-15


def test_cap_passengers_merges_the_counts_past_the_units_wounds() -> None:
    to_save = np.arange(12, dtype=float).reshape(3, 4) / 66.0
    capped = cap_passengers(to_save, 2)
    assert capped.shape == (3, 3)
    np.testing.assert_array_equal(capped[:, :2], to_save[:, :2])
    np.testing.assert_allclose(capped[:, 2], to_save[:, 2] + to_save[:, 3])
    assert cap_passengers(to_save, 3) is to_save


@pytest.mark.parametrize(
    "name", ["devastating precision vs a 4-group unit", "devastating with FNP against mortals"]
)
def test_capping_devastating_wounds_changes_nothing(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    weapons, target = CASES[name]
    capped = mh.attack(weapons, target)
    monkeypatch.setattr(pool_chain, "cap_passengers", lambda to_save, wounds: to_save)
    whole = mh.attack(weapons, target)
    for got, want in zip(distributions(capped), distributions(whole), strict=True):
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-13)


def test_a_large_devastating_precision_pool_agrees_with_the_monte_carlo() -> None:
    # 62 s and refused by the joint's size before; now the devastating wounds count up to
    # the unit's 51 wounds and the joint moves state-major
    result = mh.attack([(DEV_PRECISION, 160)], LED)
    assert abs(result.killed.probabilities.sum() - 1.0) <= 1e-12
    rolled = mh.simulate([(DEV_PRECISION, 160)], LED, trials=20_000, rng=7)
    for exact, sample in ((result.killed, rolled.killed), (result.damage, rolled.damage)):
        z = (sample.mean() - exact.mean()) / (exact.std() / np.sqrt(20_000))
        assert abs(z) < 4.5  # a false alarm about once in 150,000 runs
    character = result.groups[3].killed.mean()
    assert abs(rolled.groups[3].killed.mean() - character) < 4.5 * 0.5 / np.sqrt(20_000)


def banded_matrix(states: int, width: int) -> np.ndarray:
    rng = np.random.default_rng(states + width)
    m = np.zeros((states, states))
    for d in range(width + 1):
        m[np.arange(states - d), np.arange(d, states)] = rng.random(states - d)
    return np.asarray(m / m.sum(axis=1, keepdims=True))


@pytest.mark.parametrize("sparse", [False, True])
def test_a_banded_transition_moves_states_as_the_matrix_does(sparse: bool) -> None:
    import scipy.sparse as sp

    dense = banded_matrix(150, 5)
    banded = transition.Transition(sp.csr_matrix(dense) if sparse else dense)
    assert banded.bands is not None and banded.bands.shape == (6, 150)
    rng = np.random.default_rng(3)
    rows, stack = rng.random((4, 150)), rng.random((3, 150, 2))
    # a dense matrix moves a vector by its product (6 bands cost more than 150**2 entries),
    # a stack of 40 columns band by band; sparse, everything goes band by band
    assert banded._by_bands(rows[0]) == sparse
    assert banded._by_bands(rng.random((150, 40)))
    np.testing.assert_allclose(banded.apply(rows), rows @ dense, rtol=1e-13, atol=1e-15)
    want = np.einsum("st,lsm->ltm", dense, stack)
    np.testing.assert_allclose(banded.apply_columns(stack), want, rtol=1e-13, atol=1e-15)
    np.testing.assert_allclose(banded.apply_columns(stack[0]), want[0], rtol=1e-13, atol=1e-15)


def test_a_matrix_off_the_bands_is_not_banded() -> None:
    backwards = banded_matrix(150, 2).T.copy()  # states moving back: not a band
    assert transition.Transition(backwards).bands is None
    wide = banded_matrix(150, tuning.BAND_LIMIT + 1)
    assert transition.Transition(wide).bands is None
    assert transition.Transition(banded_matrix(20, 2)).bands is None  # small: dense is faster


def test_a_large_line_of_states_gives_the_same_attack_banded() -> None:
    weapons, target = CASES["D6 vs 200x W3"]
    banded = mh.attack(weapons, target)
    with methods.forcing("sparse"):
        plain = mh.attack(weapons, target)
    for got, want in zip(distributions(banded), distributions(plain), strict=True):
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-13)
