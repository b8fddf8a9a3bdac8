"""Rules that change one pool only: an attacks characteristic set, doubled, tripled or
halved (docs/rules.md D43), and a Feel No Pain or an armour save the target has against
some attacks only (D44). Each is exact against the same attack built by hand or enumerated
die by die, and the Monte Carlo rolls them as the rules say."""

from __future__ import annotations

import itertools
from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest
from statcheck import assert_matches, seed_for

import mathhammer as mh
from mathhammer.core.dice import ScaledDice
from mathhammer.errors import ProfileError
from mathhammer.io.rules_text import read_rules
from mathhammer.model.conditions import Condition
from mathhammer.model.effects import Effect, arm, guards
from mathhammer.units.parts import AbilityText

TRIALS = 100_000
SQUAD = mh.Unit.of("Squad", 10, 4, 4, 1)


def same(a: mh.AttackResult, b: mh.AttackResult) -> None:
    np.testing.assert_allclose(a.killed.probabilities, b.killed.probabilities, rtol=0, atol=1e-12)
    np.testing.assert_allclose(a.damage.probabilities, b.damage.probabilities, rtol=0, atol=1e-12)


# --- scaled dice: every face enumerated ------------------------------------------------------


@pytest.mark.parametrize("expression", ["D3", "D6", "2D6", "D6+1", "2D3+2"])
@pytest.mark.parametrize("numerator, denominator", [(2, 1), (3, 1), (1, 2)])
def test_scaled_dice_are_every_face_scaled_and_rounded_up(
    expression: str, numerator: int, denominator: int
) -> None:
    dice = mh.Dice(expression)
    scaled = dice.scaled(numerator, denominator)
    want: dict[int, Fraction] = {}
    faces = list(itertools.product(range(1, dice.sides + 1), repeat=dice.count))
    for roll in faces:
        total = sum(roll) + dice.bonus
        value = -(-total * numerator // denominator)
        want[value] = want.get(value, Fraction(0)) + Fraction(1, len(faces))
    got = scaled.dist.probabilities
    assert {k: float(v) for k, v in want.items()} == pytest.approx(
        {k: float(p) for k, p in enumerate(got) if p > 0}, abs=1e-12
    )
    assert (scaled.min, scaled.max) == (min(want), max(want))
    assert scaled.mean == pytest.approx(float(sum(k * p for k, p in want.items())), abs=1e-12)
    rolled = scaled.roll(np.random.default_rng(seed_for(expression, numerator)), TRIALS)
    empirical = mh.Dist(np.bincount(rolled) / TRIALS)
    assert_matches(f"{expression} x{numerator}/{denominator}", scaled.dist, empirical, TRIALS)


def test_a_constant_scaled_stays_a_number_and_two_scales_make_one() -> None:
    assert mh.Dice(5).scaled(1, 2) == mh.Dice(3)  # 2.5 rounded up
    assert mh.Dice(4).scaled(3) == mh.Dice(12)
    twice = mh.Dice("D6").scaled(2).scaled(1, 2)
    assert isinstance(twice, ScaledDice) and (twice.numerator, twice.denominator) == (2, 2)
    np.testing.assert_allclose(twice.dist.probabilities, mh.Dice("D6").dist.probabilities)
    assert mh.Dice("D6").scaled(1, 1) == mh.Dice("D6")
    with pytest.raises(ProfileError, match="an integer >= 1"):
        mh.Dice("D6").scaled(0)


# --- attacks set and scaled: the same attack built by hand ------------------------------------

FLAIL = mh.Weapon("Arco-flail", "D3", 3, 4, 0, 1, melee=True)


def test_attacks_set_is_the_weapon_with_that_attacks_characteristic() -> None:
    armed = arm(FLAIL, [Effect("attacks_set", 6, source="Extremis Trigger Word")])
    same(mh.attack([(armed, 4)], SQUAD), mh.attack([(FLAIL.replace(attacks=6), 4)], SQUAD))
    assert mh.attack([(armed, 4)], SQUAD).rules_applied == ("Extremis Trigger Word (A set to 6)",)


@pytest.mark.parametrize("scale, values", [("double", (2, 4, 6)), ("half", (1, 1, 2))])
def test_a_random_attacks_characteristic_scaled_is_the_mixture_of_its_faces(
    scale: str, values: tuple[int, ...]
) -> None:
    """One model: each face of its D3, scaled, with a third of the chance."""
    armed = arm(FLAIL, [Effect("attacks_scale", scale)])
    result = mh.attack([(armed, 1)], SQUAD)
    mixture = sum(
        mh.attack([(FLAIL.replace(attacks=a), 1)], SQUAD).killed.probabilities for a in values
    ) / len(values)
    np.testing.assert_allclose(result.killed.probabilities, mixture, rtol=0, atol=1e-12)
    assert result.pools[0].attacks.mean() == pytest.approx(sum(values) / 3, abs=1e-12)


def test_set_then_scaled_then_added_in_that_order() -> None:
    """A set to 4, doubled, +1: 9 attacks, whatever order the rules are listed in."""
    rules = [Effect("attacks", 1), Effect("attacks_scale", "double"), Effect("attacks_set", 4)]
    armed = arm(FLAIL, rules)
    same(mh.attack([(armed, 2)], SQUAD), mh.attack([(FLAIL.replace(attacks=9), 2)], SQUAD))


def test_attacks_scaled_only_where_its_condition_holds() -> None:
    """Dakkablitz: +6 A against a non-MONSTER/VEHICLE target; the vehicle is shot as printed."""
    tank = mh.Unit.of("Tank", 1, 10, 3, 12, keywords="VEHICLE")
    gun = mh.Weapon("Blitzkannon", 2, 4, 8, -2, 3)
    rule = Effect("attacks_scale", "triple", conditions=(Condition("target", "NON-VEHICLE"),))
    armed = arm(gun, [rule])
    same(mh.attack([(armed, 1)], SQUAD), mh.attack([(gun.replace(attacks=6), 1)], SQUAD))
    same(mh.attack([(armed, 1)], tank), mh.attack([(gun, 1)], tank))


@pytest.mark.parametrize("value", [0, 61, "7"])
def test_attacks_set_takes_a_number_of_attacks(value: object) -> None:
    with pytest.raises(ProfileError, match="attacks_set"):
        Effect("attacks_set", value)  # type: ignore[arg-type]


def test_attacks_scale_takes_its_words() -> None:
    with pytest.raises(ProfileError, match="'double', 'triple' or 'half'"):
        Effect("attacks_scale", 2)


def test_the_monte_carlo_rolls_the_scaled_attacks() -> None:
    armed = arm(FLAIL.replace(attacks="D6"), [Effect("attacks_scale", "half")])
    exact = mh.attack([(armed, 5)], SQUAD)
    mc = mh.simulate([(armed, 5)], SQUAD, trials=TRIALS, rng=seed_for("halved attacks"))
    assert_matches("attacks halved", exact.pools[0].attacks, mc.pools[0].attacks, TRIALS)
    assert_matches("killed", exact.killed, mc.killed, TRIALS)


# --- a Feel No Pain against some attacks ------------------------------------------------------

SMITE = mh.Weapon("Smite", "D6", 3, 6, -1, "D3", "[PSYCHIC], [DEVASTATING WOUNDS]")
BOLTER = mh.Weapon("Bolter", 2, 3, 4, 0, 1)
HOOD = Effect("fnp", 4, conditions=(Condition("weapon", "PSYCHIC"),), source="Psychic Hood")


def sisters(fnp: int | None = 6, rules: tuple[Effect, ...] = ()) -> mh.Unit:
    unit = mh.Unit.of("Sisters", 10, 3, 3, 1, fnp=fnp)
    return replace(unit, rules=guards(rules)) if rules else unit


def test_a_feel_no_pain_against_psychic_attacks_is_rolled_against_them_only() -> None:
    guarded = sisters(6, (HOOD,))
    # the psychic pool meets FNP 4+ (its devastating wounds too); the bolter the models' 6+
    same(mh.attack([(SMITE, 5)], guarded), mh.attack([(SMITE, 5)], sisters(4)))
    same(mh.attack([(BOLTER, 5)], guarded), mh.attack([(BOLTER, 5)], sisters(6)))
    both = mh.attack([(SMITE, 5), (BOLTER, 5)], guarded)
    assert both.pools[0].abilities[-1] == "Psychic Hood (Feel No Pain 4+ if the attack is PSYCHIC)"


def test_the_better_feel_no_pain_is_rolled() -> None:
    same(mh.attack([(SMITE, 5)], sisters(3, (HOOD,))), mh.attack([(SMITE, 5)], sisters(3)))
    same(mh.attack([(SMITE, 5)], sisters(None, (HOOD,))), mh.attack([(SMITE, 5)], sisters(4)))


def test_a_feel_no_pain_under_a_named_state_holds_when_assumed() -> None:
    """Krumpin' Time, read from its text: FNP 5+ while the Waaagh! is active."""
    text = (
        "While the Waaagh! is active for your army, models in this unit have the Feel No "
        "Pain 5+ ability."
    )
    (reading,) = read_rules([AbilityText("Krumpin' Time", text)])
    boyz = mh.Unit.of("Boyz", 10, 5, 5, 1)
    guarded = replace(boyz, rules=guards(reading.effects))
    waaagh = mh.Context(assume=("waaagh",))
    same(
        mh.attack([(BOLTER, 10)], guarded, context=waaagh),
        mh.attack([(BOLTER, 10)], mh.Unit.of("Boyz", 10, 5, 5, 1, fnp=5)),
    )
    same(mh.attack([(BOLTER, 10)], guarded), mh.attack([(BOLTER, 10)], boyz))


def test_the_monte_carlo_rolls_the_feel_no_pain_of_each_pool() -> None:
    guarded = sisters(6, (HOOD,))
    weapons = [(SMITE, 4), (BOLTER, 10)]
    exact = mh.attack(weapons, guarded)
    mc = mh.simulate(weapons, guarded, trials=TRIALS, rng=seed_for("psychic hood"))
    assert_matches("killed", exact.killed, mc.killed, TRIALS)
    assert_matches("damage", exact.damage, mc.damage, TRIALS)


# --- an armour save improved against some attacks ---------------------------------------------

KOMMANDOS = Effect("target_save", 1, "ranged", source="Red Skull Kommandos")


@pytest.mark.parametrize("save, improved", [(6, 5), (4, 3), (2, 2)])
def test_plus_one_save_against_ranged_attacks_is_the_better_save_against_them(
    save: int, improved: int
) -> None:
    kommandos = replace(mh.Unit.of("Kommandos", 10, 5, save, 1), rules=guards([KOMMANDOS]))
    gun = mh.Weapon("Gun", 3, 3, 4, -1, 1)
    axe = mh.Weapon("Axe", 3, 3, 4, -1, 1, melee=True)
    same(
        mh.attack([(gun, 5)], kommandos), mh.attack([(gun, 5)], mh.Unit.of("K", 10, 5, improved, 1))
    )
    same(mh.attack([(axe, 5)], kommandos), mh.attack([(axe, 5)], mh.Unit.of("K", 10, 5, save, 1)))


def test_an_improved_save_leaves_no_save_none_and_the_invulnerable_save_alone() -> None:
    gun = mh.Weapon("Gun", 3, 3, 4, -1, 1)
    gretchin = mh.Unit.of("Gretchin", 10, 2, "-", 1)
    same(mh.attack([(gun, 5)], replace(gretchin, rules=guards([KOMMANDOS]))),
         mh.attack([(gun, 5)], gretchin))  # fmt: skip
    # Sv5+ InSv6+ at AP-1: 6+ either way; improved, the armour save 4+ at AP-1 is 5+
    warded = mh.Unit.of("K", 10, 5, 5, 1, invuln=6)
    same(mh.attack([(gun, 5)], replace(warded, rules=guards([KOMMANDOS]))),
         mh.attack([(gun, 5)], mh.Unit.of("K", 10, 5, 4, 1, invuln=6)))  # fmt: skip
    with pytest.raises(ProfileError, match="target_save"):
        Effect("target_save", -1)


def test_a_feel_no_pain_for_some_models_under_a_state_is_theirs_only() -> None:
    """Lifewards: Celestine has FNP 4+ while the unit has Geminae Superia (a named state)."""
    text = (
        "While this unit contains one or more Geminae Superia models, Celestine has the Feel No "
        "Pain 4+ ability."
    )
    (reading,) = read_rules([AbilityText("Lifewards", text)])
    assert [(e.text, e.models) for e in reading.effects] == [
        ("celestine models: Feel No Pain 4+ if this unit contains one or more geminae superia "
         "models", "celestine")
    ]  # fmt: skip

    def unit(fnp: int | None) -> mh.Unit:
        return mh.Unit("Celestine", [
            mh.ModelGroup(2, 3, 2, 3, invuln=4, name="Geminae Superia"),
            mh.ModelGroup(1, 3, 2, 6, invuln=4, fnp=fnp, character=True, name="Celestine"),
        ])  # fmt: skip

    guarded = replace(unit(None), rules=guards(reading.effects))
    gun = mh.Weapon("Lascannon", 6, 2, 12, -3, "D6+1")
    state = mh.Context(assume=("this unit contains one or more geminae superia models",))
    same(mh.attack([(gun, 3)], guarded, context=state), mh.attack([(gun, 3)], unit(4)))
    same(mh.attack([(gun, 3)], guarded), mh.attack([(gun, 3)], unit(None)))
    mc = mh.simulate([(gun, 3)], guarded, trials=TRIALS, context=state, rng=seed_for("lifewards"))
    exact = mh.attack([(gun, 3)], guarded, context=state)
    assert_matches("damage", exact.damage, mc.damage, TRIALS)
