"""The defender's allocation order (``attack(..., allocation="defender-best")``): the legal
orders of the target's groups, and the best one for the defender, exactly.

The legal orders are checked against the allocation rules by brute force over every
permutation, and the defender's choice against attacking every legal order by hand.
"""

from __future__ import annotations

import itertools

import pytest
from statcheck import assert_matches

import mathhammer as mh
from mathhammer.decisions.defender import MAX_GROUPS, legal_orders, reordered

RETINUE = mh.Unit(
    "Retinue",
    [
        mh.ModelGroup(4, 4, 3, 2, name="Veterans"),
        mh.ModelGroup(3, 4, 4, 1, name="Troopers"),
        mh.ModelGroup(1, 4, 2, 4, invuln=4, character=True, name="Captain"),
        mh.ModelGroup(1, 4, 3, 3, character=True, name="Ancient"),
    ],
)
WEAPONS = [
    (mh.Weapon("Rifle", 2, 3, 4, 0, 1), 6),
    (mh.Weapon("Heavy", 3, 4, 5, -1, 2), 3),
    (mh.Weapon("Sniper", 1, 3, 5, -2, 3, "[PRECISION]"), 3),
]


def allowed(groups: list[mh.ModelGroup]) -> bool:
    """The allocation rules read literally: a wounded non-CHARACTER group first, every
    non-CHARACTER group before the CHARACTERs, wounded CHARACTERs before unwounded ones."""
    bodies = [g for g in groups if not g.character]
    if groups[: len(bodies)] != bodies:
        return False
    if any(g.wounds_lost for g in bodies) and not bodies[0].wounds_lost:
        return False
    characters = groups[len(bodies) :]
    hurt = [bool(g.wounds_lost) for g in characters]
    return hurt == sorted(hurt, reverse=True)


@pytest.mark.parametrize(
    "unit",
    [
        RETINUE,
        mh.Unit(
            "Hurt",
            [
                mh.ModelGroup(3, 4, 3, 2, wounds_lost=1),
                mh.ModelGroup(2, 4, 4, 1),
                mh.ModelGroup(1, 4, 2, 4, character=True, name="B", wounds_lost=2),
                mh.ModelGroup(1, 4, 2, 5, character=True, name="A"),
            ],
        ),
    ],
    ids=["retinue", "wounded"],
)
def test_the_legal_orders_are_those_the_rules_allow(unit: mh.Unit) -> None:
    want = [
        order
        for order in itertools.permutations(range(len(unit.groups)))
        if allowed([unit.groups[i] for i in order])
    ]
    assert legal_orders(unit) == want
    assert legal_orders(unit)[0] == tuple(range(len(unit.groups)))


@pytest.mark.parametrize(
    ("allocation", "key"),
    [
        ("defender-best", lambda r: r.killed.mean()),
        ("defender-best:wounds", lambda r: r.damage.mean()),
        (
            "defender-best:protect:Captain",
            lambda r: next(g for g in r.groups if g.group.name == "Captain").killed.at_least(1),
        ),
    ],
)
def test_the_defender_takes_the_best_legal_order(allocation: str, key) -> None:  # type: ignore[no-untyped-def]
    by_hand = {o: mh.attack(WEAPONS, reordered(RETINUE, o)) for o in legal_orders(RETINUE)}
    best = min(by_hand, key=lambda o: key(by_hand[o]))
    result = mh.attack(WEAPONS, RETINUE, allocation=allocation)
    assert result.target == reordered(RETINUE, best)
    assert key(result) == pytest.approx(key(by_hand[best]), abs=1e-12)
    assert result.choices[-1].startswith("allocation: ")


def test_protecting_the_captain_puts_another_character_ahead() -> None:
    # [PRECISION] picks the first CHARACTER group: the Ancient in front shields the Captain
    given = mh.attack(WEAPONS, RETINUE)
    guarded = mh.attack(WEAPONS, RETINUE, allocation="defender-best:protect:Captain")
    assert [g.name for g in guarded.target.groups][2:] == ["Ancient", "Captain"]
    assert guarded.killed_in("Captain").at_least(1) < given.killed_in("Captain").at_least(1) / 100


def test_the_monte_carlo_follows_the_defenders_order() -> None:
    result = mh.attack(WEAPONS, RETINUE, allocation="defender-best:protect:Captain")
    rolled = mh.simulate(WEAPONS, result.target, trials=40_000, rng=19)
    assert_matches("defender order", result.killed, rolled.killed, 40_000)


def test_bad_input() -> None:
    with pytest.raises(mh.OptionError, match="allocation must be 'given', 'defender-best'"):
        mh.attack(WEAPONS, RETINUE, allocation="attacker-best")
    with pytest.raises(mh.OptionError, match="allocation protect must be a group of 'Retinue'"):
        mh.attack(WEAPONS, RETINUE, allocation="defender-best:protect:Nobody")
    with pytest.raises(mh.OptionError, match="give no start"):
        mh.attack(WEAPONS, RETINUE, allocation="defender-best", start=mh.attack(WEAPONS, RETINUE))
    many = mh.Unit("Many", [mh.ModelGroup(1, 4, s, w) for s in (2, 3, 4, 5) for w in (1, 2)])
    assert len(many.groups) > MAX_GROUPS
    with pytest.raises(mh.OptionError, match="for at most 7"):
        mh.attack(WEAPONS, many, allocation="defender-best")
