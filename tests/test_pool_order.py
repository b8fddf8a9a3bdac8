"""The order of a unit's pools against one target, ranked exactly (``rank_pool_orders``,
``attack(..., pool_order="best")``).

The ranking's tree walk (each prefix resolved once, its state carried on) is checked
against attacking every order from scratch, and the brute-force oracle shows on a tiny
case that the order changes the outcome as the ranking says.
"""

from __future__ import annotations

import itertools
import numbers

import pytest
from oracle import gather_entries, oracle_pools
from statcheck import assert_matches

import mathhammer as mh
from mathhammer.decisions.choices import beats
from mathhammer.decisions.runs import engine_run

RIFLE = mh.Weapon("Rifle", 2, 3, 4, 0, 1)
FIST = mh.Weapon("Fist", 1, 3, 8, -2, 3)
HEAVY = mh.Weapon("Heavy", 3, 4, 5, -1, 2)
SNIPER = mh.Weapon("Sniper", 1, 3, 5, -2, 3, "[PRECISION]")
RETINUE = mh.Unit(
    "Retinue",
    [
        mh.ModelGroup(4, 4, 3, 2, name="Veterans"),
        mh.ModelGroup(3, 4, 4, 1, name="Troopers"),
        mh.ModelGroup(1, 4, 2, 4, invuln=4, character=True, name="Captain"),
    ],
)


@pytest.mark.parametrize("metric", ["killed", "destroyed", "damage"])
def test_the_tree_walk_equals_every_order_attacked_from_scratch(metric: str) -> None:
    weapons = [(RIFLE, 4), (HEAVY, 2), (SNIPER, 2), (FIST, 1)]
    ranking = mh.rank_pool_orders(weapons, RETINUE, metric=metric)
    assert ranking.method == "exhaustive" and len(ranking.orders) == 24

    def key(r: mh.AttackResult) -> tuple[float, float]:
        if metric == "destroyed":
            return (r.p_destroyed, r.killed.mean())
        first = r.killed.mean() if metric == "killed" else r.damage.mean()
        return (first, r.p_destroyed)

    by_hand = {}
    for order in itertools.permutations(range(4)):
        by_hand[order] = key(mh.attack(ranking.weapons(order), RETINUE))
    for order, score in zip(ranking.orders, ranking.scores, strict=True):
        assert score == pytest.approx(by_hand[order], abs=1e-12)
    best = max(by_hand.values())
    assert ranking.scores[0] == pytest.approx(best, abs=1e-12)
    # best first; scores equal within rounding (1e-12 relative) keep the order declared
    for earlier, later in itertools.pairwise(ranking.scores):
        assert not beats(later, earlier)


def test_the_walk_from_a_carried_start_equals_attacks_one_by_one() -> None:
    # given a run, every prefix is attacked through it; without one, the prefixes are
    # passes of the chain on one layout (PoolWalk): the same numbers
    start = mh.attack([(RIFLE, 6), (SNIPER, 1)], RETINUE)
    weapons = [(HEAVY, 2), (FIST, 1), (RIFLE, 3)]
    walked = mh.rank_pool_orders(weapons, RETINUE, start=start, metric="destroyed")
    one_by_one = mh.rank_pool_orders(
        weapons, RETINUE, start=start, metric="destroyed", run=engine_run
    )
    assert walked.orders == one_by_one.orders
    for a, b in zip(walked.scores, one_by_one.scores, strict=True):
        assert a == pytest.approx(b, abs=1e-12)


FRAG = mh.Weapon("Frag", 1, 3, 5, 0, 1, "[BLAST]")
BOLTS = mh.Weapon("Bolts", 2, 3, 4, 0, 1)


@pytest.mark.parametrize(
    "target",
    [
        mh.Unit.of("Ten", 10, 4, 5, 1),  # one group: the pools attacked one by one
        mh.Unit(
            "Two groups",  # a layout: the walk
            [mh.ModelGroup(6, 4, 5, 1, name="Six"), mh.ModelGroup(4, 4, 4, 1, name="Four")],
        ),
    ],
    ids=["one group", "two groups"],
)
def test_a_ranking_from_a_carried_start_declares_the_attack_once(target: mh.Unit) -> None:
    # docs/rules.md D34: the attack is declared before its first pool, so [BLAST] counts the
    # models standing in each start state whichever pool goes first, not those the first
    # pool left; every order's score is that of the whole attack carried on from the start
    start = mh.attack([mh.MortalWounds("D6")], target)  # 4 to 9 models standing
    weapons = [(BOLTS, 5), (FRAG, 3)]
    ranking = mh.rank_pool_orders(weapons, target, start=start, metric="killed")
    assert len(ranking.orders) == 2
    for order, score in zip(ranking.orders, ranking.scores, strict=True):
        whole = mh.attack(ranking.weapons(order), target, start=start)
        assert score == pytest.approx((whole.killed.mean(), whole.p_destroyed), abs=1e-12)
    # and the case is one where counting after the first pool would differ: the bolts
    # take models, so a Blast read after them would roll fewer dice
    bolts_first = mh.attack([(BOLTS, 5)], target, start=start)
    after = mh.attack([(FRAG, 3)], target, start=bolts_first)
    whole = mh.attack([(BOLTS, 5), (FRAG, 3)], target, start=start)
    assert abs(after.killed.mean() - whole.killed.mean()) > 1e-3


def test_order_matters_and_the_oracle_agrees() -> None:
    # a D1 shot and an AP-2 D2 shot at a W1 model in 4+ armour and a W2 model in 3+: the
    # D1 shot first takes the light model with the easy save, and leaves the D2 shot the
    # armoured one (0.614 models on average, against 0.553 the other way round)
    target = mh.Unit("Pair", [mh.ModelGroup(1, 4, 4, 1), mh.ModelGroup(1, 4, 3, 2)])
    weapons = [(mh.Weapon("Light", 1, 3, 4, 0, 1), 1), (mh.Weapon("Heavy", 1, 3, 8, -2, 2), 1)]
    ranking = mh.rank_pool_orders(weapons, target)
    chances = {}
    for order in itertools.permutations(range(2)):
        pools = [gather_entries(weapons)[i] for i in order]
        want = oracle_pools(pools, target)
        chances[order] = sum(k * p for k, p in want.killed.items())
        got = mh.attack(ranking.weapons(order), target).killed.mean()
        assert got == pytest.approx(float(chances[order]), abs=1e-12)
    assert chances[(0, 1)] != chances[(1, 0)]
    best = max(chances, key=lambda o: chances[o])
    assert ranking.best == best
    assert isinstance(chances[best], numbers.Rational)  # exact, not a float


def test_attack_with_the_best_order_says_which() -> None:
    weapons = [(RIFLE, 4), (HEAVY, 2), (FIST, 2)]
    ranking = mh.rank_pool_orders(weapons, RETINUE)
    result = mh.attack(weapons, RETINUE, pool_order="best")
    assert result.killed == mh.attack(ranking.weapons(ranking.best), RETINUE).killed
    assert result.choices[-1].startswith(f"pool order: {ranking.label(ranking.best)}")
    assert [p.label for p in result.pools] == [ranking.pools[i].label for i in ranking.best]
    frame = ranking.frame()
    assert len(frame) == 6 and frame["given"].sum() == 1


def test_past_six_pools_a_greedy_order_with_its_exact_value() -> None:
    weapons = [(mh.Weapon(f"Gun {s}", 1, 3, s, 0, 1 + s % 2), 2) for s in range(3, 10)]
    ranking = mh.rank_pool_orders(weapons, RETINUE)
    assert ranking.method == "greedy" and len(ranking.best) == 7
    exact = mh.attack(ranking.weapons(ranking.best), RETINUE)
    assert ranking.scores[0] == pytest.approx((exact.killed.mean(), exact.p_destroyed), abs=1e-12)


def test_the_monte_carlo_follows_the_order_chosen() -> None:
    weapons = [(RIFLE, 4), (HEAVY, 2), (FIST, 2)]
    ranking = mh.rank_pool_orders(weapons, RETINUE)
    exact = mh.attack(weapons, RETINUE, pool_order="best")
    rolled = mh.simulate(ranking.weapons(ranking.best), RETINUE, trials=40_000, rng=13)
    assert_matches("best order", exact.killed, rolled.killed, 40_000)


def test_bad_input() -> None:
    with pytest.raises(mh.OptionError, match="pool_order must be 'given' or 'best'"):
        mh.attack([(RIFLE, 1)], RETINUE, pool_order="worst")
    with pytest.raises(mh.OptionError, match="mortal-wound steps stand where they are"):
        mh.rank_pool_orders([(RIFLE, 1), mh.MortalWounds(1)], RETINUE)
    with pytest.raises(mh.OptionError, match="metric must be one of"):
        mh.rank_pool_orders([(RIFLE, 1)], RETINUE, metric="best")


def test_the_orders_are_scored_with_the_same_choices_as_the_attack() -> None:
    # a weapon with duplicated abilities: each order's pools select by the same metric as
    # the attack that resolves the best order, so its score is that attack's
    # (against five W1 models in 3+ armour the flat 2 destroys more on average, the D3 wipes
    # the squad more often: the fixed ranking would take the D3 for both)
    both = mh.Weapon("Gun", 1, 3, 4, 0, 1, "[SUSTAINED HITS D3], [SUSTAINED HITS 2]")
    squad = mh.Unit.of("Squad", 5, 4, 3, 1)
    weapons = [(both, 10), (RIFLE, 1)]
    for metric in ("mean_killed", "p_destroyed", "killed", "destroyed"):
        ranking = mh.rank_pool_orders(weapons, squad, metric=metric)
        result = mh.attack(weapons, squad, pool_order="best", metric=metric)
        first = result.killed.mean() if "killed" in metric else result.p_destroyed
        assert ranking.scores[0][0] == pytest.approx(first, abs=1e-12)


def test_orders_equal_within_rounding_keep_the_order_declared() -> None:
    """A fist that destroys a W3 model with every failed save, and a rifle's D1: either
    order destroys the same models (the rifle's wounded model is the fist's next), so the
    scores differ only by rounding, and the order declared ranks first whichever way the
    rounding falls."""
    rifle, fist = mh.Weapon("Rifle", 2, 3, 4, 0, 1), mh.Weapon("Fist", 1, 3, 8, -2, 3)
    target = mh.Unit.of("W3", 3, 4, 3, 3)
    for weapons in ([(rifle, 5), (fist, 3)], [(fist, 3), (rifle, 5)]):
        ranking = mh.rank_pool_orders(weapons, target)
        first, second = ranking.scores
        assert first[0] == pytest.approx(second[0], rel=1e-12)
        assert ranking.best == (0, 1)
