"""The hit and wound steps by closed forms, against the convolutions they replace and a
brute-force enumeration of every die face.

:func:`~mathhammer.exact.steps.hit_and_wound` sums one die's outcome over the pool
(binomial thinning, repeated squaring, Horner's scheme, the multinomial closed form of
[DEVASTATING WOUNDS]). Over a registry of pools covering every kernel the rulesets build
(each critical ability alone and combined, automatic hits, re-rolls, shifted criticals,
random attacks, bonus attacks, pools of several weapons), it must give:

* what the old path gave (the pool's joint hits by 2-D convolutions, then each hit through
  the wound kernel: :func:`compound_kernel` and :func:`thin_by_kernel`), to 1e-12, on
  pools of up to 160 dice;
* what a literal enumeration of the dice gives (each attack die's hit roll, re-roll,
  [SUSTAINED HITS] dice and wound rolls, face by face in exact fractions; the pool by
  every combination of its dice), on pools of up to 3 dice.

The caches in front of it are keyed by value, hold read-only arrays and are bounded.
"""

from __future__ import annotations

import itertools
import math
from collections import defaultdict
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import partial
from typing import Any

import numpy as np
import pytest

import mathhammer as mh
from mathhammer.core import caches
from mathhammer.core.dice import Dice
from mathhammer.core.dist import Dist
from mathhammer.exact import compound as cf
from mathhammer.exact import steps
from mathhammer.model.context import Context, Modifiers
from mathhammer.model.pools import Pool, gather_pools
from mathhammer.rules import get_ruleset
from mathhammer.rules.base import CRITICAL, FAIL, SUCCESS, PoolChecks, RollCheck

ATOL = 1e-12
rng = np.random.default_rng(14)


@dataclass(frozen=True)
class Case:
    """A pool of one weapon profile (``counts``: how many of each A) against a target."""

    id: str
    abilities: str = ""
    counts: tuple[tuple[int | str, int], ...] = ((1, 3),)
    strength: int = 4
    skill: int = 3
    toughness: int = 4
    models: int = 5
    context: Context = field(default_factory=Context)
    modifiers: Modifiers = field(default_factory=Modifiers)

    def pool_and_checks(self, scale: int = 1) -> tuple[Pool, PoolChecks]:
        weapons = [
            (mh.Weapon(f"Gun {i}", attacks, self.skill, self.strength, 0, 1, self.abilities), n)
            for i, (attacks, n) in enumerate(self.counts)
        ]
        weapons = [(w, n * scale) for w, n in weapons]
        (pool,) = gather_pools(weapons)
        assert isinstance(pool, Pool)
        target = mh.Unit.of("Target", self.models, self.toughness, 3, 1, keywords="INFANTRY")
        checks = get_ruleset("11e").pool_checks(pool.weapon, target, self.context, self.modifiers)
        return pool, checks


CASES = [
    Case("plain"),
    Case("torrent", "[TORRENT]"),
    Case("sustained-1", "[SUSTAINED HITS 1]"),
    Case("sustained-D3", "[SUSTAINED HITS D3]", counts=((1, 2),)),
    Case("lethal", "[LETHAL HITS]", strength=3),
    Case("lethal-sustained-2", "[LETHAL HITS], [SUSTAINED HITS 2]"),
    Case("lethal-sustained-D3", "[LETHAL HITS], [SUSTAINED HITS D3]", counts=((1, 2),)),
    Case("devastating", "[DEVASTATING WOUNDS]"),
    Case("lethal-devastating", "[LETHAL HITS], [DEVASTATING WOUNDS]"),
    Case("sustained-devastating", "[SUSTAINED HITS 1], [DEVASTATING WOUNDS]"),
    Case("sustained-D3-devastating", "[SUSTAINED HITS D3], [DEVASTATING WOUNDS]", counts=((1, 2),)),
    Case("lethal-sustained-devastating", "[SUSTAINED HITS 1], [LETHAL HITS], [DEVASTATING WOUNDS]"),
    Case(
        "lethal-sustained-D3-devastating",
        "[SUSTAINED HITS D3], [LETHAL HITS], [DEVASTATING WOUNDS]",
        counts=((1, 2),),
    ),
    Case("torrent-devastating", "[TORRENT], [DEVASTATING WOUNDS]"),
    Case("twin-linked-devastating", "[TWIN-LINKED], [DEVASTATING WOUNDS]"),
    Case("anti-lethal-devastating", "[ANTI-INFANTRY 4+], [LETHAL HITS], [DEVASTATING WOUNDS]"),
    Case(
        "crits-on-5-rerolled-ones",
        "[SUSTAINED HITS 1], [LETHAL HITS]",
        modifiers=Modifiers(critical_hit=5, reroll_hits="ones"),
    ),
    Case("reroll-failed-hits", "[DEVASTATING WOUNDS]", modifiers=Modifiers(reroll_hits="failures")),
    Case("hits-always-fail", skill=6, modifiers=Modifiers(skill=1)),
    Case("random-attacks", "[SUSTAINED HITS 1]", counts=(("D3", 1), (1, 1))),
    Case("random-devastating", "[DEVASTATING WOUNDS]", counts=(("D3", 2),)),
    Case("random-lethal-devastating", "[LETHAL HITS], [DEVASTATING WOUNDS]", counts=(("D3", 1),)),
    Case("blast", "[BLAST], [LETHAL HITS]", counts=((1, 1),), models=11),
    Case("rapid-fire", "[RAPID FIRE 1]", counts=((1, 1),), context=Context(half_range=True)),
]
BY_ID = {c.id: c for c in CASES}


def antidiagonal(m: np.ndarray) -> np.ndarray:
    out = np.zeros(m.shape[0] + m.shape[1] - 1)
    for (i, j), value in np.ndenumerate(m):
        out[i + j] += value
    return out


def old_path(attacks: Dist, hit: np.ndarray, wound: np.ndarray) -> steps.PoolSteps:
    """The steps as they were computed: the pool's joint hits, then the wound kernel."""
    hits_joint = steps.compound_kernel(attacks, hit)
    wounds_joint = steps.thin_by_kernel(hits_joint, wound)
    hits, wounds = antidiagonal(hits_joint), antidiagonal(wounds_joint)
    return steps.PoolSteps(attacks, Dist._trusted(hits), Dist._trusted(wounds), wounds_joint)


def padded(a: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    out = np.zeros(shape)
    out[tuple(slice(0, n) for n in a.shape)] = a
    return out


def assert_same_steps(got: steps.PoolSteps, want: steps.PoolSteps) -> None:
    for stage in ("attacks", "hits", "wounds"):
        g, w = getattr(got, stage).probabilities, getattr(want, stage).probabilities
        assert len(g) == len(w), stage  # the same support as before, trailing zeros too
        np.testing.assert_allclose(g, w, rtol=0, atol=ATOL, err_msg=stage)
    assert got.to_save.shape == want.to_save.shape
    np.testing.assert_allclose(got.to_save, want.to_save, rtol=0, atol=ATOL)
    assert got.to_save.sum() == pytest.approx(1.0, abs=ATOL)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
@pytest.mark.parametrize("scale", [1, 7, 20])
def test_closed_forms_equal_the_convolutions(case: Case, scale: int) -> None:
    pool, checks = case.pool_and_checks(scale)
    caches.clear()  # computed here, not found
    got = steps.hit_and_wound(pool, checks)
    hit, wound = steps.hit_kernel(checks), steps.wound_kernel(checks)
    assert_same_steps(got, old_path(steps.attack_dice(pool, checks), hit, wound))


@pytest.mark.parametrize(
    "abilities",
    [
        "[SUSTAINED HITS 1], [LETHAL HITS]",
        "[DEVASTATING WOUNDS]",
        "[LETHAL HITS], [DEVASTATING WOUNDS]",
        "[SUSTAINED HITS 1], [DEVASTATING WOUNDS]",
        "[SUSTAINED HITS 1], [LETHAL HITS], [DEVASTATING WOUNDS]",
    ],
)
def test_the_issue_pools_of_160_dice(abilities: str) -> None:
    """The goal cases of issue 14: 160 dice, where the old path took up to 140 ms."""
    pool, checks = Case("big", abilities, counts=((1, 160),)).pool_and_checks()
    got = steps.hit_and_wound(pool, checks)
    hit, wound = steps.hit_kernel(checks), steps.wound_kernel(checks)
    assert_same_steps(got, old_path(got.attacks, hit, wound))


# --------------------------------------------------------------------------- brute force
def faces(dice: Dice) -> dict[int, Fraction]:
    """Every roll of a dice expression, die by die."""
    out: dict[int, Fraction] = defaultdict(Fraction)
    if dice.sides == 0:
        return {dice.bonus: Fraction(1)}
    for roll in itertools.product(range(1, dice.sides + 1), repeat=dice.count):
        out[sum(roll) + dice.bonus] += Fraction(1, dice.sides**dice.count)
    return out


def roll(check: RollCheck) -> dict[int, Fraction]:
    """The category of one die: each face read by the check, re-rolled where it says so."""
    out: dict[int, Fraction] = defaultdict(Fraction)
    for face in range(1, 7):
        first = int(check.first(np.array([face]))[0])
        again = check.reroll is not None and bool(
            check.reroll(np.array([face]), np.array([first]))[0]
        )
        if not again:
            out[first] += Fraction(1, 6)
            continue
        for second in range(1, 7):
            out[int(check.again(np.array([second]))[0])] += Fraction(1, 36)
    return out


def one_die(checks: PoolChecks) -> dict[tuple[int, int, int], Fraction]:
    """One attack die: P(hits, wounds to save, devastating wounds), face by face."""
    hit = {int(SUCCESS): Fraction(1)} if checks.hit is None else roll(checks.hit)
    wound = roll(checks.wound)
    extra = faces(checks.sustained) if checks.sustained is not None else {0: Fraction(1)}
    out: dict[tuple[int, int, int], Fraction] = defaultdict(Fraction)
    for category, p in hit.items():
        outcomes = [(0, 0, 0, p)] if category == FAIL else []
        if category == int(CRITICAL):
            for x, q in extra.items():
                automatic = 1 if checks.lethal else 0
                outcomes.append((1 + x, x + 1 - automatic, automatic, p * q))
        elif category != FAIL:
            outcomes.append((1, 1, 0, p))
        for hits, rolled, automatic, p_hit in outcomes:
            for results in itertools.product(wound.items(), repeat=rolled):
                p_all = p_hit * math.prod(q for _, q in results)
                critical = sum(1 for c, _ in results if c == CRITICAL)
                success = sum(1 for c, _ in results if c != FAIL)
                devastating = critical if checks.devastating else 0
                out[hits, automatic + success - devastating, devastating] += p_all
    return out


def brute_steps(pool: Pool, checks: PoolChecks) -> tuple[dict[Any, Fraction], ...]:
    """The pool's attacks, hits and (to save, devastating), by every combination of dice."""
    bonus = [faces(d) for d in checks.bonus_attacks]
    per_weapon = []
    for weapon, count in pool.weapons:
        for _ in range(count):
            per_weapon.append([faces(weapon.attacks), *bonus])
    attacks: dict[int, Fraction] = defaultdict(Fraction)
    for rolls in itertools.product(*[d.items() for w in per_weapon for d in w]):
        attacks[sum(v for v, _ in rolls)] += math.prod(p for _, p in rolls)
    die = list(one_die(checks).items())
    hits: dict[int, Fraction] = defaultdict(Fraction)
    joint: dict[tuple[int, int], Fraction] = defaultdict(Fraction)
    for n, p_n in attacks.items():
        for dice in itertools.product(die, repeat=n):
            p = p_n * math.prod(q for _, q in dice)
            hits[sum(o[0] for o, _ in dice)] += p
            joint[sum(o[1] for o, _ in dice), sum(o[2] for o, _ in dice)] += p
    return attacks, hits, joint


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_steps_equal_the_enumeration_of_every_die(case: Case) -> None:
    pool, checks = case.pool_and_checks()
    got = steps.hit_and_wound(pool, checks)
    attacks, hits, joint = brute_steps(pool, checks)
    assert sum(attacks.values()) == 1 and sum(joint.values()) == 1
    for stage, want in (("attacks", attacks), ("hits", hits)):
        pmf = getattr(got, stage).probabilities
        expected = np.zeros(max(len(pmf), max(want) + 1))
        for k, p in want.items():
            expected[k] = float(p)
        np.testing.assert_allclose(padded(pmf, expected.shape), expected, atol=ATOL)
    expected2 = np.zeros(got.to_save.shape)
    wounds = np.zeros(len(got.wounds.probabilities))
    for (k, m), p in joint.items():
        expected2[k, m] = float(p)  # an IndexError here: mass outside the engine's table
        wounds[k + m] += float(p)
    np.testing.assert_allclose(got.to_save, expected2, atol=ATOL)
    np.testing.assert_allclose(got.wounds.probabilities, wounds, atol=ATOL)


def test_the_enumeration_sees_the_rules() -> None:
    """The brute force is sensitive: [LETHAL HITS] moves critical hits past the wound roll."""
    plain = brute_steps(*Case("p", "[SUSTAINED HITS 1]").pool_and_checks())[2]
    lethal = brute_steps(*Case("l", "[SUSTAINED HITS 1], [LETHAL HITS]").pool_and_checks())[2]
    assert plain != lethal
    # one die, BS3+ S4 vs T4 [DEVASTATING WOUNDS]: 2/3 hit, then a 6 is devastating
    pool, checks = Case("d", "[DEVASTATING WOUNDS]", counts=((1, 1),)).pool_and_checks()
    joint = brute_steps(pool, checks)[2]
    assert joint == {(0, 0): Fraction(2, 3), (1, 0): Fraction(2, 9), (0, 1): Fraction(1, 9)}


# --------------------------------------------------------------------------- the sums
def test_compound_forms_equal_the_definition() -> None:
    """Thinning, powers and Horner's scheme against ``sum_n count[n] q^n``."""
    q = rng.dirichlet(np.ones(4))
    for count in (
        np.eye(31)[30],  # a fixed count: repeated squaring
        rng.dirichlet(np.ones(12)),  # spread from 0
        np.concatenate([np.zeros(9), rng.dirichlet(np.ones(5))]),  # spread from 9
    ):
        want = np.zeros((len(count) - 1) * 3 + 1)
        power = np.ones(1)
        for weight in count:
            want[: len(power)] += weight * power
            power = np.convolve(power, q)
        np.testing.assert_allclose(cf.compound(count, q), want, atol=ATOL)
        bernoulli = np.array([0.3, 0.7, 0.0])
        thinned = cf.compound(count, bernoulli)
        np.testing.assert_allclose(thinned[: len(count)], Dist(count).thin(0.7).probabilities)
    assert cf.compound(np.array([0.5, 0.5]), np.array([1.0, 0.0])).tolist() == [1.0, 0.0]
    assert not cf.compound(np.zeros(3), q).any()


def test_multinomial_split_equals_the_definition() -> None:
    totals = rng.dirichlet(np.ones(9))
    r = 0.3
    want = np.zeros((12, 10))
    for t, p in enumerate(totals):
        for m in range(t + 1):
            want[t - m, m] = p * float(mh.Dist.binomial(t, r).pmf(m))
    np.testing.assert_allclose(cf.split_successes(totals, r, 12, 10), want, atol=ATOL)
    z = rng.random((5, 3))
    got = cf.by_total(z, 4, 4)  # z narrower than the result: zeros past it
    for k, m in itertools.product(range(4), range(4)):
        assert got[k, m] == (z[k + m, m] if k + m < 5 and m < 3 else 0.0)
    g = rng.random((3, 4))
    skewed = cf.skew(g)
    assert skewed.shape == (3, 6)
    assert all(skewed[t, t + y] == g[t, y] for t in range(3) for y in range(4))
    assert skewed.sum() == pytest.approx(g.sum())


# --------------------------------------------------------------------------- the caches
def _new(f: Any) -> Any:
    return partial(f.func, *f.args, **f.keywords) if isinstance(f, partial) else f


def _copied(check: RollCheck | None) -> RollCheck | None:
    """A check of the same value made of new objects (the ruleset gives one check object
    for the same parameters)."""
    if check is None:
        return None
    return RollCheck(_new(check.first), _new(check.reroll), _new(check.second))


def test_stages_are_cached_by_value_and_read_only() -> None:
    case = BY_ID["lethal-devastating"]
    pool, checks = case.pool_and_checks()
    twin_pool, twin_checks = case.pool_and_checks()
    wound = _copied(twin_checks.wound)
    assert wound is not None
    twin_checks = replace(twin_checks, hit=_copied(twin_checks.hit), wound=wound)
    assert twin_checks.hit is not None and checks.hit is not None
    assert twin_checks.hit is not checks.hit  # new objects, equal values
    assert twin_checks.hit.first is not checks.hit.first
    first = steps.hit_and_wound(pool, checks)
    assert steps.hit_and_wound(twin_pool, twin_checks) is first
    assert steps.hit_kernel(twin_checks) is steps.hit_kernel(checks)
    for array in (first.to_save, steps.hit_kernel(checks), steps.wound_kernel(checks)):
        with pytest.raises(ValueError, match="read-only"):
            array[0, 0] = 1.0
    caches.clear()
    again = steps.hit_and_wound(pool, checks)
    assert again is not first
    np.testing.assert_array_equal(again.to_save, first.to_save)


def test_large_stages_are_not_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    pool, checks = BY_ID["devastating"].pool_and_checks(scale=10)
    caches.clear()
    monkeypatch.setattr(steps, "STAGES_CACHED", 10)
    first = steps.hit_and_wound(pool, checks)
    assert steps.hit_and_wound(pool, checks) is not first


def test_checks_that_cannot_be_keyed_are_computed_every_time() -> None:
    """A check bound to an unhashable argument has no key: it is not cached, and still right."""
    pool, checks = BY_ID["plain"].pool_and_checks()
    assert checks.hit is not None
    keyed = steps.hit_kernel(checks)
    first = checks.hit.first
    assert isinstance(first, partial)
    listed = partial(_call, [first])  # a list: unhashable
    odd = PoolChecks(**{**checks.__dict__, "hit": RollCheck(listed)})
    one, two = steps.hit_kernel(odd), steps.hit_kernel(odd)
    assert one is not two
    np.testing.assert_array_equal(one, keyed)


def _call(functions: list[Any], faces: Any) -> Any:
    return functions[0](faces)
