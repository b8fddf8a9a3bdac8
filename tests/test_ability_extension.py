"""An ability defined outside the package is read from datasheet text and acts in both engines.

``tests/example_ability.py`` defines ``[PIERCING X]`` (improve AP by X) as one
:class:`~mathhammer.abilities.NumberedAbility` subclass. With no change to the package,
it is parsed from weapon text, listed among the abilities a pool used, and changes the
exact engine and the Monte Carlo exactly as a better AP does: a weapon at AP -1 with
[PIERCING 1] is, distribution for distribution, the same weapon at AP -2.
"""

from __future__ import annotations

import warnings

import pytest
from example_ability import Piercing
from statcheck import assert_matches, seed_for

import mathhammer as mh

TOL = 1e-12
TRIALS = 50_000
MARINES = mh.Unit.of("Marines", models=5, toughness=4, save=3, wounds=2, keywords="INFANTRY")
TANK = mh.Unit.of("Tank", models=1, toughness=10, save=3, wounds=12, keywords="VEHICLE")


def rifle(ap: int, abilities: str = "[LETHAL HITS]") -> mh.Weapon:
    return mh.Weapon("Rifle", attacks=2, skill=3, strength=4, ap=ap, damage=1, abilities=abilities)


def cannon(ap: int, abilities: str = "") -> mh.Weapon:
    return mh.Weapon("Cannon", 3, skill=3, strength=9, ap=ap, damage="D3", abilities=abilities)


def assert_same_exact(a: mh.AttackResult, b: mh.AttackResult) -> None:
    """Every distribution of both results agrees to 1e-12 (unsaved and groups included)."""
    da, db = a.distributions(), b.distributions()
    assert list(da) == list(db)
    for stage in da:
        assert da[stage].allclose(db[stage], atol=TOL), stage
    for pa, pb in zip(a.pools, b.pools, strict=True):
        for stage in ("attacks", "hits", "wounds", "unsaved", "devastating", "killed"):
            assert getattr(pa, stage).allclose(getattr(pb, stage), atol=TOL), stage
    for ga, gb in zip(a.groups, b.groups, strict=True):
        assert ga.killed.allclose(gb.killed, atol=TOL)


def test_parsed_from_datasheet_text_with_no_unknown_token() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error", mh.UnknownAbilityWarning)
        weapon = rifle(-1, "[PIERCING 1], [LETHAL HITS]")
    assert weapon.abilities == (Piercing(value=1), mh.abilities.LethalHits())
    assert weapon.unknown_abilities == ()
    assert [str(a) for a in weapon.abilities] == ["[PIERCING 1]", "[LETHAL HITS]"]
    restricted = cannon(-1, "[PIERCING 2: VEHICLE]").abilities
    assert restricted == (Piercing(value=2, keywords=("VEHICLE",)),)
    assert str(restricted[0]) == "[PIERCING 2: VEHICLE]"
    assert Piercing in mh.abilities.ability_classes()


def test_listed_among_the_abilities_used() -> None:
    res = mh.attack([(rifle(-1, "[PIERCING 1], [LETHAL HITS]"), 10)], MARINES)
    assert res.pools[0].abilities == ("[PIERCING 1]", "[LETHAL HITS]")
    sim = mh.simulate([(rifle(-1, "[PIERCING 1], [LETHAL HITS]"), 10)], MARINES, trials=100, rng=0)
    assert sim.pools[0].abilities == ("[PIERCING 1]", "[LETHAL HITS]")


@pytest.mark.parametrize(
    ("ap", "text", "same_as_ap"),
    [
        (-1, "[PIERCING 1], [LETHAL HITS]", -2),
        (0, "[PIERCING 1], [LETHAL HITS]", -1),
        (-1, "[PIERCING 2], [LETHAL HITS]", -3),
        (-1, "[PIERCING 1], [PIERCING 2], [LETHAL HITS]", -3),  # the best duplicate only
    ],
)
def test_exact_engine_equals_the_better_ap(ap: int, text: str, same_as_ap: int) -> None:
    with_ability = mh.attack([(rifle(ap, text), 10)], MARINES)
    reference = mh.attack([(rifle(same_as_ap), 10)], MARINES)
    assert_same_exact(with_ability, reference)
    unchanged = mh.attack([(rifle(ap), 10)], MARINES)  # the check above can fail
    assert unchanged.killed.mean() < reference.killed.mean() - 0.05


def test_monte_carlo_with_the_ability_matches_the_exact_better_ap() -> None:
    weapons = [(rifle(-1, "[PIERCING 1], [LETHAL HITS]"), 10)]
    reference = mh.attack([(rifle(-2), 10)], MARINES)
    sim = mh.simulate(weapons, MARINES, trials=TRIALS, rng=seed_for("PIERCING", "marines"))
    assert_matches("killed", reference.killed, sim.killed, TRIALS)
    assert_matches("damage", reference.damage, sim.damage, TRIALS)
    for stage in ("attacks", "hits", "wounds", "unsaved", "killed"):
        exact, simulated = getattr(reference.pools[0], stage), getattr(sim.pools[0], stage)
        assert_matches(f"pool {stage}", exact, simulated, TRIALS)


def test_keyword_restricted_form_applies_only_against_the_keyword() -> None:
    weapon = cannon(-1, "[PIERCING 1: VEHICLE]")
    against_tank = mh.attack([(weapon, 2)], TANK)
    assert against_tank.pools[0].abilities == ("[PIERCING 1: VEHICLE]",)
    assert_same_exact(against_tank, mh.attack([(cannon(-2), 2)], TANK))
    against_marines = mh.attack([(weapon, 2)], MARINES)
    assert against_marines.pools[0].abilities == ()
    assert_same_exact(against_marines, mh.attack([(cannon(-1), 2)], MARINES))
    assert mh.attack([(cannon(-2), 2)], MARINES).killed.mean() > against_marines.killed.mean()
    sim = mh.simulate([(weapon, 2)], TANK, trials=TRIALS, rng=seed_for("PIERCING", "tank"))
    reference = mh.attack([(cannon(-2), 2)], TANK)
    assert_matches("tank damage", reference.damage, sim.damage, TRIALS)
    assert_matches("tank unsaved", reference.pools[0].unsaved, sim.pools[0].unsaved, TRIALS)
