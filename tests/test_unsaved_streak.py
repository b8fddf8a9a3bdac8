"""The failed saves' distribution on its failing-streak path (exact/unsaved.py).

Threshold saves make the failed saves the leading dice that fail (a die saved leaves
the state as it is, and every later die is as high or higher): the streak path computes
the count from that, with no counter beside the states. It is checked against

* the chain on states augmented with a counter of failed saves (the path it replaced,
  kept for saves that are not thresholds), on a registry of targets and pools, to 1e-12;
* a brute force that sorts every roll of a few save dice and resolves them one at a time,
  threshold saves or not;
* the oracle of tests/oracle.py (every die face, exact fractions), end to end;
* the killed distribution, when every failed save kills a model (W1, or D >= W, no Feel
  No Pain), for pools of hundreds of dice.
"""

from __future__ import annotations

import itertools
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from guarded import GIB, memory_cap, timed

import mathhammer as mh
from mathhammer import ModelGroup, Unit
from mathhammer.core.dist import Dist
from mathhammer.exact import unsaved
from mathhammer.exact.chain import rolling_parts
from mathhammer.exact.layout import Layout, damage_matrix
from mathhammer.exact.pool_saves import PoolSaves
from mathhammer.rules.base import save_face_weights

sys.path.insert(0, str(Path(__file__).parent))
from oracle import assert_pmf, oracle_attack  # noqa: E402

ATOL = 1e-12
FACES = np.arange(1, 7)


def saves_from(*thresholds: int) -> np.ndarray:
    """``saved[g, f - 1]``: a natural ``f`` of at least the group's threshold saves (a 1
    never does; 7 saves nothing)."""
    return np.array([(t <= FACES) & (FACES > 1) for t in thresholds], dtype=bool)


def d(*pmf: float) -> Dist:
    return Dist(list(pmf))


D1, D2, D3 = Dist.constant(1), Dist.constant(2), Dist.uniform(1, 3)


def distribution(
    layout: Layout,
    state: np.ndarray,
    to_save: np.ndarray,
    saved: np.ndarray,
    damage: Any,
    focus: int | None = None,
    faces: np.ndarray | None = None,
) -> Dist:
    """``unsaved_distribution`` of a pool with these saves and this damage."""
    saves = PoolSaves(saved, tuple(damage), focus=focus, faces=faces)
    return unsaved.unsaved_distribution(layout, state, to_save, saves)


@dataclass(frozen=True)
class Case:
    """A call of ``unsaved_distribution``: the target, its saves and the pool's damage."""

    groups: tuple[ModelGroup, ...]
    saved: np.ndarray = field(compare=False)
    damage: tuple[Dist, ...]
    dice: int = 30
    devastating: int = 0  # the width of the passengers' axis beside the save dice
    focus: int | None = None
    random_start: bool = False  # a state distribution left by an earlier pool

    def arguments(self, seed: int = 0) -> tuple[Any, ...]:
        rng = np.random.default_rng(seed)
        layout = Layout(Unit("target", self.groups), () if self.focus is None else (self.focus,))
        state = rng.dirichlet(np.ones(layout.size)) if self.random_start else layout.initial_state()
        dice = Dist.binomial(self.dice, 0.6).probabilities
        passengers = rng.dirichlet(np.ones(self.devastating + 1))
        to_save = dice[:, None] * passengers[None, :]
        return layout, state, to_save, self.saved, list(self.damage), self.focus


def group(count: int, save: int, wounds: int, **kw: Any) -> ModelGroup:
    return ModelGroup(count, 4, save, wounds, **kw)


CHARACTER = {"character": True}
REGISTRY: dict[str, Case] = {
    "one group": Case((group(10, 4, 1),), saves_from(5), (D1,), dice=20),
    "two groups, the better save last (issue 14)": Case(
        (group(40, 4, 1), group(10, 3, 2)), saves_from(5, 4), (D1, D1), dice=300
    ),
    "two groups, the better save first": Case(
        (group(10, 3, 2), group(40, 4, 1)), saves_from(4, 5), (D1, D1), dice=300
    ),
    "two groups, D2 and D3": Case(
        (group(6, 4, 2), group(4, 3, 3)), saves_from(5, 4), (D2, D3), dice=40
    ),
    "three groups": Case(
        (group(20, 4, 1), group(10, 3, 2), group(10, 2, 2)), saves_from(5, 4, 3), (D1,) * 3, 60
    ),
    "three groups, the best save first": Case(
        (group(4, 2, 1), group(3, 3, 2), group(3, 4, 2)), saves_from(3, 4, 5), (D3,) * 3, 40
    ),
    "Feel No Pain": Case(
        (group(8, 4, 1), group(4, 3, 2)), saves_from(5, 4), (D1.thin(2 / 3), D2.thin(5 / 6)), 40
    ),
    "three groups, Feel No Pain": Case(
        (group(4, 2, 1), group(3, 3, 2), group(3, 4, 2)),
        saves_from(3, 4, 5),
        (D1.thin(2 / 3), D3, D2.thin(1 / 2)),
        30,
    ),
    "precision on the CHARACTER": Case(
        (group(5, 4, 2), group(1, 3, 4, **CHARACTER)), saves_from(5, 4), (D2, D2), 20, focus=1
    ),
    "CHARACTERs, wounded first": Case(
        (group(3, 3, 2), group(1, 4, 3, **CHARACTER), group(1, 5, 3, **CHARACTER)),
        saves_from(4, 5, 6),
        (D3, D3, D3),
        25,
        random_start=True,
    ),
    "devastating wounds beside the save dice": Case(
        (group(5, 3, 2), group(5, 4, 1)), saves_from(4, 5), (D3, D1), 20, devastating=3
    ),
    "pre-wounded model, a state left by an earlier pool": Case(
        (group(5, 4, 2, wounds_lost=1), group(3, 3, 2)),
        saves_from(5, 4),
        (D1, D2),
        30,
        random_start=True,
    ),
    "invulnerable and armour saves (thresholds 3, 6, 4)": Case(
        (group(3, 3, 2), group(3, 6, 1), group(2, 4, 3)), saves_from(3, 6, 4), (D3,) * 3, 30
    ),
    "351 states: a sparse damage transition": Case(
        (group(200, 4, 1), group(75, 3, 2)), saves_from(5, 4), (D1.thin(5 / 6), D3), 40
    ),
    "no save": Case((group(5, 7, 2), group(5, 7, 1)), saves_from(7, 7), (D1, D2), 25),
    "every die saved": Case(
        (group(5, 2, 1), group(5, 2, 2)), np.ones((2, 6), dtype=bool), (D1, D1), 10
    ),
    "no dice": Case((group(5, 4, 1), group(5, 3, 1)), saves_from(5, 4), (D1, D1), 0),
    "damage zero or more (a halved D1 after Feel No Pain)": Case(
        (group(3, 4, 3), group(3, 3, 2)), saves_from(5, 4), (d(0.25, 0.5, 0.25), D3), 20
    ),
}


@pytest.mark.parametrize("name", list(REGISTRY))
def test_the_streak_equals_the_augmented_chain(name: str) -> None:
    args = REGISTRY[name].arguments()
    layout, state, to_save, saved, damage, focus = args
    got = distribution(*args)
    want = unsaved._augmented_chain(layout, state, to_save.sum(axis=1), saved, damage, focus)
    assert got.probabilities.shape == want.shape
    np.testing.assert_allclose(got.probabilities, want, rtol=0, atol=ATOL)
    assert abs(got.probabilities.sum() - 1.0) <= ATOL


@pytest.mark.parametrize("policy", ["ones", "failures"])
@pytest.mark.parametrize("name", list(REGISTRY))
def test_the_streak_equals_the_augmented_chain_with_re_rolled_saves(name: str, policy: str) -> None:
    # the defender's re-rolls make the faces unequal, and with "failures" split the
    # state by the group current as the dice are rolled (docs/rules.md D29)
    layout, state, to_save, saved, damage, focus = REGISTRY[name].arguments()
    faces = save_face_weights(saved, policy)
    got = distribution(layout, state, to_save, saved, damage, focus, faces=faces)
    want = sum(
        unsaved._augmented_chain(
            layout, part, to_save.sum(axis=1), saved, damage, focus, weights=weights
        )
        for part, weights in rolling_parts(layout, state, faces, focus)
    )
    np.testing.assert_allclose(got.probabilities, want, rtol=0, atol=ATOL)
    assert abs(got.probabilities.sum() - 1.0) <= ATOL


# --------------------------------------------------------------------- brute force
def brute_force(
    layout: Layout,
    state: np.ndarray,
    to_save: np.ndarray,
    saved: np.ndarray,
    damage: list[Dist],
    focus: int | None,
) -> np.ndarray:
    """Every roll of the save dice, sorted and resolved one die at a time against the
    current model: ``out[c]`` = P(``c`` dice failed while the unit stood)."""
    transition = np.asarray(damage_matrix(layout, damage, focus=focus))
    current = layout.current_group(focus)
    count = to_save.sum(axis=1)
    out = np.zeros(count.size)
    for n, p in enumerate(count):
        for roll in itertools.product(FACES, repeat=n):
            joint = {0: state}  # failed saves so far -> state distribution
            for face in sorted(roll):
                fails = (current >= 0) & ~saved[np.maximum(current, 0), face - 1]
                after: dict[int, np.ndarray] = {}
                for c, v in joint.items():
                    after[c] = after.get(c, 0) + np.where(fails, 0.0, v)
                    after[c + 1] = after.get(c + 1, 0) + np.where(fails, v, 0.0) @ transition
                joint = after
            for c, v in joint.items():
                out[c] += p * float(v.sum()) / 6**n
    return out


TINY = [
    Case((group(2, 3, 1), group(1, 4, 2)), saves_from(4, 5), (D1, D2), 3),
    Case((group(1, 4, 2), group(1, 2, 1), group(1, 5, 1)), saves_from(5, 3, 6), (D3,) * 3, 4),
    Case((group(2, 4, 1), group(1, 3, 3, **CHARACTER)), saves_from(5, 4), (D1, D3), 3, focus=1),
    Case((group(2, 3, 2), group(1, 4, 1)), saves_from(4, 5), (D1.thin(0.5), D2), 4, 1, None, True),
]
#: saves that are not thresholds (a ruleset could make them): the augmented chain's path
ODD = np.array([[0, 1, 0, 1, 0, 1], [1, 0, 0, 1, 1, 0]], dtype=bool)
TINY.append(Case((group(2, 3, 1), group(1, 4, 2)), ODD, (D1, D3), 4, random_start=True))


@pytest.mark.parametrize("case", TINY, ids=[f"tiny-{i}" for i in range(len(TINY))])
def test_every_roll_of_a_few_dice(case: Case) -> None:
    args = case.arguments(seed=7)
    want = brute_force(*args)
    got = distribution(*args).probabilities
    have = np.zeros(max(got.size, want.size))
    have[: got.size] = got
    assert not np.any(want[have.size :])
    np.testing.assert_allclose(have, np.pad(want, (0, have.size - want.size)), atol=ATOL)


# --------------------------------------------------------------------- end to end
def gun(attacks: int, ap: int = -1, damage: int | str = 1, abilities: str = "") -> mh.Weapon:
    return mh.Weapon("gun", attacks, 3, 4, ap, damage, abilities)


ORACLE_CASES = {
    "two groups": ([(gun(3), 1)], Unit("u", [group(1, 4, 1), group(1, 3, 2)])),
    "three groups": ([(gun(3), 1)], Unit("u", [group(1, 2, 1), group(1, 3, 1), group(1, 4, 1)])),
    "Feel No Pain": ([(gun(3, damage=2), 1)], Unit("u", [group(1, 4, 2, fnp=5), group(1, 3, 1)])),
    "precision": (
        [(gun(3, damage=2, abilities="[PRECISION]"), 1)],
        Unit("u", [group(2, 4, 1), group(1, 3, 3, **CHARACTER)]),
    ),
    "devastating wounds, two pools": (
        [(gun(2, damage="D3", abilities="[DEVASTATING WOUNDS]"), 1), (gun(2, ap=-2), 1)],
        Unit("u", [group(1, 3, 2), group(1, 5, 2)]),
    ),
}


@pytest.mark.parametrize("name", list(ORACLE_CASES))
def test_the_failed_saves_match_the_oracle(name: str) -> None:
    weapons, target = ORACLE_CASES[name]
    got, want = mh.attack(weapons, target), oracle_attack(weapons, target)
    for mine, theirs in zip(got.pools, want.pools, strict=True):
        assert_pmf(mine.unsaved.probabilities, theirs.unsaved, name)


KILLING = {
    "300 dice vs 40 W1 Sv4+ and 10 W1 Sv3+": (
        [(gun(2), 150)],
        Unit("u", [group(40, 4, 1), group(10, 3, 1)]),
    ),
    "500 D3 dice vs 250 W1 Sv3+ and 250 W1 Sv4+ (refused before)": (
        [(gun(1, ap=0, damage="D3"), 500)],
        Unit("u", [group(250, 3, 1), group(250, 4, 1)]),
    ),
    "200 D2 dice vs three groups of W1 and W2": (
        [(gun(2, damage=2), 100)],
        Unit("u", [group(20, 4, 1), group(20, 3, 2), group(20, 2, 1)]),
    ),
}


@pytest.mark.parametrize("name", list(KILLING))
def test_every_failed_save_kills_a_model(name: str) -> None:
    """W1 models, or D >= W, and no Feel No Pain: the failed saves are the models killed."""
    weapons, target = KILLING[name]
    result = mh.attack(weapons, target)
    error, seconds = timed(lambda: result.pools[0].unsaved)
    assert error is None and seconds < 1.0
    assert result.pools[0].unsaved.allclose(result.killed, atol=ATOL)


def test_the_issue_case_is_fast() -> None:
    """Issue 14: ``summary()`` of 300 dice vs 50 models in two save groups (7.4 s before);
    measured 3-10 ms here, on a busy machine."""
    rifle = mh.Weapon("Bolt rifle", 2, 3, 4, -1, 2)
    result = mh.attack([(rifle, 150)], Unit("u", [group(40, 4, 1), group(10, 3, 2)]))
    error, seconds = timed(lambda: result.pools[0].unsaved)
    assert error is None and seconds < 0.5


def test_past_the_limits_it_is_refused_within_a_second() -> None:
    """2,000 dice vs 2,500 W1 Sv3+ and 2,500 W1 Sv4+: the attack is accepted (a joint of 10
    million entries), the failed saves' vectors and survivals (20 million) are not."""
    target = Unit("Mob", [group(2500, 3, 1), group(2500, 4, 1)])
    layout = Layout(target)
    to_save = Dist.binomial(2000, 0.5).probabilities[:, None]
    call = lambda: distribution(  # noqa: E731
        layout, layout.initial_state(), to_save, saves_from(3, 4), [D1, D1]
    )
    with memory_cap(GIB):
        error, seconds = timed(call)
    assert isinstance(error, mh.LimitError) and seconds < 1.0
    assert "the failed saves' distribution" in str(error)
    assert "2000 dice to save, 5001 target states" in str(error)


def test_the_estimate_follows_the_blocks() -> None:
    two = unsaved.streak_cost(300, 60, 61, 3721, True, 2)
    three = unsaved.streak_cost(300, 60, 61, 3721, True, 3)
    assert two.work < 1e7  # the issue case: a few milliseconds
    assert three.work > 1.5 * two.work  # a block between two others mixes the vectors
    assert unsaved.streak_cost(300, 300, 61, 3721, True, 2).work > 2 * two.work  # FNP: 0..K
