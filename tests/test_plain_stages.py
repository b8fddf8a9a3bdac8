"""The short paths of a plain pool equal the general ones they stand in for.

A *plain* pool (every hit and wound roll succeeds or fails, nothing more) has its stages
as binomial thinnings (:func:`~mathhammer.exact.steps.plain_stages`) rather than through
the per-die kernels (:func:`~mathhammer.exact.steps.hit_and_wound`); its dice are
thinned weapon by weapon (:func:`~mathhammer.exact.steps.thinned_dice`) rather than as a
whole count; a damage that is certain walks one path per state
(:meth:`~mathhammer.exact.single.Line.apply`), and the powers of a small transition are
taken by doubling. Each is checked against the general computation on a registry of
cases, within 1e-12.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import mathhammer as mh
from mathhammer.core import binomial, tuning
from mathhammer.core.binomial import binomial_thin
from mathhammer.exact import on_line, powers, single, steps
from mathhammer.model.unit import ModelGroup, Unit
from mathhammer.rules.plan import as_plan

ATOL = 1e-12

#: name -> (weapons, target, keyword arguments of attack): each a plain pool (the first)
PLAIN: dict[str, tuple[Any, Unit, dict[str, Any]]] = {
    "fixed attacks": ([(mh.Weapon("Bolter", 2, 3, 4, 0, 1), 10)], Unit.of("T", 5, 4, 3, 1), {}),
    "random attacks": ([(mh.Weapon("Gun", "2D6", 4, 3, 0, 1), 5)], Unit.of("T", 20, 3, 5, 1), {}),
    "fixed and random in one pool": (
        [(mh.Weapon("Pistol", 1, 3, 4), 3), (mh.Weapon("Rifle", "D3+1", 3, 4), 2)],
        Unit.of("T", 5, 4, 4, 1),
        {},
    ),
    "[BLAST]": (
        [(mh.Weapon("Frag", "D6", 4, 4, abilities="[BLAST]"), 2)],
        Unit.of("Mob", 12, 4, 6, 1),
        {},
    ),
    "[TORRENT]": (
        [(mh.Weapon("Flamer", "D6", 3, 4, abilities="[TORRENT]"), 3)],
        Unit.of("T", 10, 3, 5, 1),
        {},
    ),
    "re-rolls and modifiers": (
        [(mh.Weapon("Gun", 3, 4, 5, -1, 2), 4)],
        Unit.of("T", 5, 4, 3, 2),
        {"modifiers": mh.Modifiers(hit=-1, reroll_hits="ones", reroll_wounds="failures")},
    ),
    "[ANTI-INFANTRY 4+]": (
        [(mh.Weapon("Anti", 2, 3, 4, abilities="[ANTI-INFANTRY 4+]"), 5)],
        Unit.of("T", 10, 3, 5, 1, keywords="INFANTRY"),
        {},
    ),
    "critical hits on 5+": (
        [(mh.Weapon("Gun", 2, 3, 4), 6)],
        Unit.of("T", 10, 3, 5, 1),
        {"modifiers": mh.Modifiers(critical_hit=5)},
    ),
    "classic": (
        [(mh.Weapon("Lasgun", 1, bs=3, strength=3), 12)],
        Unit.of("Troops", 10, 3, 5, 1, keywords="INFANTRY", leadership=7),
        {"rules": "classic"},
    ),
}

#: pools that are not plain: a critical roll does more than succeed
NOT_PLAIN = {
    "[SUSTAINED HITS 1]": "[SUSTAINED HITS 1]",
    "[LETHAL HITS]": "[LETHAL HITS]",
    "[DEVASTATING WOUNDS]": "[DEVASTATING WOUNDS]",
}


def _step(weapons: Any, target: Unit, kwargs: dict[str, Any]) -> Any:
    plan = as_plan(
        weapons, target, kwargs.get("rules"), kwargs.get("context"), kwargs.get("modifiers")
    )
    return plan.steps[0]


@pytest.mark.parametrize("name", list(PLAIN))
def test_plain_stages_equal_the_kernels(name: str) -> None:
    step = _step(*PLAIN[name])
    plain = steps.plain_stages(step.pool, step.checks)
    assert plain is not None, "every pool of the registry is plain"
    mh.clear_caches()  # the general path computes its stages afresh
    general = steps.hit_and_wound(step.pool, step.checks)
    for field in ("attacks", "hits", "wounds"):
        x, y = getattr(plain, field).probabilities, getattr(general, field).probabilities
        assert len(x) == len(y)
        np.testing.assert_allclose(x, y, rtol=0, atol=ATOL)
    np.testing.assert_allclose(plain.wounds.probabilities, general.to_save[:, 0], atol=ATOL)
    assert general.die is not None and general.die.shape == (2, 1)
    assert plain.wound == pytest.approx(float(general.die[1, 0]), abs=ATOL)
    assert not plain.hits.probabilities.flags.writeable


def test_plain_stages_are_computed_when_read() -> None:
    weapons, target, kwargs = PLAIN["random attacks"]
    step = _step(weapons, target, kwargs)
    mh.clear_caches()
    plain = steps.plain_stages(step.pool, step.checks)
    assert plain is not None
    # no binomial row or table made yet
    assert binomial._row.cache_info().currsize == 0 and binomial._TABLES.cache_info().items == 0
    assert plain.hits.mean() == pytest.approx(plain.attacks.mean() * 0.5, rel=1e-12)  # BS4+


@pytest.mark.parametrize("name", list(PLAIN))
@pytest.mark.parametrize("p", [0.0, 1 / 9, 0.5, 1.0])
def test_thinned_dice_are_the_thinned_count(name: str, p: float) -> None:
    step = _step(*PLAIN[name])
    count = steps.attack_dice(step.pool, step.checks).probabilities
    got = steps.thinned_dice(step.pool, step.checks, p)
    expected = binomial_thin(count, p)
    assert len(got) == len(expected)
    np.testing.assert_allclose(got, expected, rtol=0, atol=ATOL)


@pytest.mark.parametrize("ability", list(NOT_PLAIN.values()))
def test_pools_whose_criticals_do_more_are_not_plain(ability: str) -> None:
    step = _step(
        [(mh.Weapon("Gun", 2, 3, 4, 0, 1, abilities=ability), 5)], Unit.of("T", 5, 4, 3, 1), {}
    )
    assert steps.plain_stages(step.pool, step.checks) is None


def test_a_command_re_roll_of_a_hit_is_not_plain_but_one_of_damage_is() -> None:
    gun, target = mh.Weapon("Gun", 2, 3, 4, 0, "D3"), Unit.of("T", 5, 4, 3, 2)
    for step_name, plain in (("hit", False), ("wound", False), ("damage", True)):
        kwargs = {"modifiers": mh.Modifiers(reroll_one=step_name)}
        step = _step([(gun, 5)], target, kwargs)
        assert (steps.plain_stages(step.pool, step.checks) is not None) is plain, step_name


def _walk(group: ModelGroup, start: int, amount: int, saves: int) -> int:
    """The wounds lost after ``saves`` failed saves of ``amount`` each, from ``start``,
    by walking the models one by one (no line, no tables)."""
    wounds = [group.wounds] * group.count
    wounds[0] -= group.wounds_lost
    lost = 0
    for i in range(len(wounds)):  # bring the unit to ``start``
        take = min(wounds[i], start - lost)
        wounds[i] -= take
        lost += take
    for _ in range(saves):
        alive = [i for i, w in enumerate(wounds) if w > 0]
        if not alive:
            break
        take = min(amount, wounds[alive[0]])  # the excess is lost
        wounds[alive[0]] -= take
        lost += take
    return lost


@pytest.mark.parametrize(
    "group",
    [
        ModelGroup(10, 4, 3, 1),
        ModelGroup(5, 4, 3, 3),
        ModelGroup(4, 4, 3, 3, wounds_lost=2),
        ModelGroup(1, 10, 3, 12, wounds_lost=5),
    ],
)
@pytest.mark.parametrize("amount", [1, 2, 3, 7, 20])
def test_certain_damage_walks_the_models(group: ModelGroup, amount: int) -> None:
    line = single.Line(group)
    damage = np.zeros(amount + 1)
    damage[amount] = 1.0
    failed = binomial_thin(np.eye(13)[12], 0.4)  # 0..12 failed saves
    rng = np.random.default_rng(7)
    for state in (np.eye(line.size + 1)[0], rng.dirichlet(np.ones(line.size + 1))):
        expected = np.zeros(line.size + 1)
        for start, weight in enumerate(state):
            for j, p in enumerate(failed):
                expected[_walk(group, start, amount, j)] += weight * p
        got = line.apply(state, failed, damage, [])
        np.testing.assert_allclose(got, expected, rtol=0, atol=ATOL)


def _dense(line: single.Line, t: np.ndarray) -> np.ndarray:
    """The transition of a line as a matrix, from its bands when it has them."""
    if line.dense:
        return t
    out = np.zeros((line.size + 1, line.size + 1))
    for d in range(len(t)):
        idx = np.arange(line.size + 1 - d)
        out[idx, idx + d] = t[d, : line.size + 1 - d]
    return out


@pytest.mark.parametrize(
    "group",
    [
        ModelGroup(40, 4, 3, 3),  # 120 states: dense, past the doubling
        ModelGroup(110, 4, 3, 3, wounds_lost=2),  # banded, the first model wounded
        ModelGroup(70, 4, 3, 6),  # banded, damage wider than one model's wounds
    ],
)
@pytest.mark.parametrize(
    "damage", [[0.0, *[1 / 6] * 6], [0.25, 0.25, 0.5], [0.0, 0.0, 0.0, 0.0, 1.0]]
)
def test_the_powers_step_by_step(group: ModelGroup, damage: list[float]) -> None:
    """Every power of a line's transition past the doubling, banded or dense and over
    blocks of rows, is the product of the one before with the whole matrix; and they end
    at the first that leaves the unit standing with at most the settling mass."""
    line = single.Line(group)
    assert line.size + 1 > tuning.SQUARING_STATES
    pmf = np.asarray(damage)
    t = _dense(line, line.transition(pmf))
    rng = np.random.default_rng(line.size)
    state = rng.dirichlet(np.ones(line.size + 1)) * (np.arange(line.size + 1) < 20)
    state /= state.sum()
    steps_ = 2 * line.size if pmf[0] > 0 else line.size
    v, rows = state, 0
    for j0, block in line._powers(state, pmf, steps_):
        assert j0 == rows
        for row in block:
            np.testing.assert_allclose(row, v, rtol=0, atol=ATOL)
            v, rows = v @ t, rows + 1
    assert rows == steps_ + 1
    settle, ended = 1e-6, 0
    for j0, block in line._powers(state, pmf, steps_, settle):
        ended = j0 + len(block) - 1
    v = state
    for j in range(ended):
        assert v[:-1].sum() > settle, f"standing with at most {settle} after {j} failed saves"
        v = v @ t
    assert v[:-1].sum() <= settle + ATOL


def _random_transition(states: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    t = np.triu(rng.random((states, states)))
    t /= t.sum(axis=1, keepdims=True)
    return rng.dirichlet(np.ones(states)), t


@pytest.mark.parametrize("way", [*powers.POWERS, None])
@pytest.mark.parametrize("states", [2, 7, 40, tuning.SQUARING_STATES])
@pytest.mark.parametrize("steps_", [0, 1, 5, 63, 64, 200])
def test_dense_powers_are_the_powers(way: str | None, states: int, steps_: int) -> None:
    state, t = _random_transition(states, states * 1000 + steps_)
    got = powers.dense_powers(state, t, steps_, method=way)
    assert got.shape == (steps_ + 1, states)
    v = state
    for j in range(steps_ + 1):
        np.testing.assert_allclose(got[j], v, rtol=0, atol=ATOL)
        v = v @ t


@pytest.mark.parametrize(
    ("steps_", "plan"),
    # by hand: rows 1 | 2-3 (T**2) | 4-7 (T**4) | 8-11 | 12; 2**k - 1 rows: k - 1 squarings
    [(0, (0, 0)), (1, (0, 1)), (2, (0, 2)), (3, (1, 2)), (12, (2, 5)), (63, (5, 6))],
)
def test_the_doubling_plan_counts_its_squarings_and_products(
    steps_: int, plan: tuple[int, int]
) -> None:
    assert powers.doubling_plan(steps_) == plan


@pytest.mark.parametrize(
    ("states", "steps_", "way"),
    # a squaring of 21 states moves 9,261 entries: six products of a row cost less; of 6
    # states, 216: twenty rows take three squarings and six products
    [(21, 6, "stepwise"), (41, 8, "stepwise"), (6, 20, "doubling")],
)
def test_the_dense_powers_take_the_cheaper_way(states: int, steps_: int, way: str) -> None:
    state, t = _random_transition(states, 7)
    chosen = powers.dense_powers(state, t, steps_)
    assert chosen.tobytes() == powers.dense_powers(state, t, steps_, method=way).tobytes()


#: Small dense lines: whole models, a wounded first one, one model, damage past a model.
DICE_LINES = [
    ModelGroup(5, 4, 3, 3),
    ModelGroup(3, 5, 3, 4, wounds_lost=3),
    ModelGroup(1, 10, 3, 12),
    ModelGroup(6, 4, 3, 2),
]
#: Damage after Feel No Pain (a failed save may take nothing), D6, a wide roll.
DICE_DAMAGE = [[0.2, 0.4, 0.4], [0.0, *[1 / 6] * 6], [0.1, 0.0, 0.0, 0.0, 0.0, 0.9]]


@pytest.mark.parametrize("group", DICE_LINES)
@pytest.mark.parametrize("damage", DICE_DAMAGE)
@pytest.mark.parametrize("dice", [1, 2, 3, 7, 12, 16, 63, 200])
@pytest.mark.parametrize("fail", [0.0, 1 / 9, 0.5, 1.0])
def test_a_number_of_dice_is_the_power_of_one_die(
    group: ModelGroup, damage: list[float], dice: int, fail: float
) -> None:
    """``state ((1 - q) I + q T)**n`` is the state after Binomial(n, q) failed saves, as
    the failed saves' powers of ``T`` sum it, from the first state and from a spread one."""
    line = single.Line(group)
    pmf = np.asarray(damage)
    failed = binomial.binomial_row(dice, fail)
    rng = np.random.default_rng(dice)
    for state in (np.eye(line.size + 1)[0], rng.dirichlet(np.ones(line.size + 1))):
        got = powers.one_die_power(state, line.transition(pmf), dice, fail)
        want = line.apply(state, failed, pmf)
        np.testing.assert_allclose(got, want, rtol=0, atol=ATOL)
        assert got.sum() == pytest.approx(state.sum(), abs=ATOL)


@pytest.mark.parametrize(
    ("group", "damage", "dice", "taken"),
    [
        # 16 states, 12 dice: three squarings and two products against twelve rows
        (ModelGroup(5, 4, 3, 3), [0.2, 0.4, 0.4], 12, True),
        (ModelGroup(5, 5, 3, 4), [0.0, *[1 / 6] * 6], 6, True),
        # 96 states, 120 dice: six squarings of 96 x 96 cost more than 120 rows
        (ModelGroup(19, 4, 3, 5), [0.2, 0.4, 0.4], 120, False),
        (ModelGroup(5, 4, 3, 3), [0.0, 0.0, 1.0], 12, True),  # certain: one path a state
        (ModelGroup(40, 4, 3, 3), [0.0, 0.0, 1.0], 12, True),  # certain, past the squaring
        (ModelGroup(40, 4, 3, 3), [0.2, 0.4, 0.4], 12, False),  # past SQUARING_STATES
        (ModelGroup(110, 4, 3, 3), [0.2, 0.4, 0.4], 12, False),  # banded
        (ModelGroup(5, 4, 3, 3), [0.2, 0.4, 0.4], 0, False),  # no dice
    ],
)
def test_a_number_of_dice_takes_the_power_where_it_costs_less(
    group: ModelGroup, damage: list[float], dice: int, taken: bool
) -> None:
    line = single.Line(group)
    state = np.eye(line.size + 1)[0]
    got = line.apply_dice(state, dice, 0.25, np.asarray(damage))
    assert (got is not None) == taken
    if got is not None:
        want = line.apply(state, binomial.binomial_row(dice, 0.25), np.asarray(damage))
        np.testing.assert_allclose(got, want, rtol=0, atol=ATOL)


def test_the_engine_takes_the_power_of_a_number_of_dice(monkeypatch: pytest.MonkeyPatch) -> None:
    """A one-group attack with a number of dice takes the power of one die's transition,
    and its failed saves are computed only when its unsaved attacks are read."""
    taken: list[bool] = []
    apply_dice = single.Line.apply_dice

    def spy(line: single.Line, *args: Any) -> Any:
        found = apply_dice(line, *args)
        taken.append(found is not None)
        return found

    monkeypatch.setattr(single.Line, "apply_dice", spy)
    thinned: list[float] = []
    thinned_dice = steps.thinned_dice

    def count(*args: Any) -> Any:
        thinned.append(args[-1])
        return thinned_dice(*args)

    monkeypatch.setattr(on_line, "thinned_dice", count)
    mh.clear_caches()
    gun = mh.Weapon("Power weapon", 1, 3, 5, -1, "D3")
    result = mh.attack([(gun, 12)], Unit.of("Zealots", 5, 4, 3, 3, fnp=5))
    assert taken == [True] and thinned == []
    assert result.pools[0].unsaved.probabilities.sum() == pytest.approx(1.0, abs=ATOL)
    assert len(thinned) == 1
