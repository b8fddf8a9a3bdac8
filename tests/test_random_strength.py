"""A random Strength, rolled for each attack (docs/rules.md D42): the wound roll is the
mixture of the wound rolls at each Strength, exact against an enumeration of every die,
and rolled as the rules say by the Monte Carlo."""

from __future__ import annotations

import itertools
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from oracle import wound_target  # the chart written out independently

import mathhammer as mh
from mathhammer.io import read_attackers

TANK = mh.Unit.of("Tank", 1, 10, 3, 12, keywords="VEHICLE")


def strengths(count: int, bonus: int = 0) -> dict[int, Fraction]:
    """The Strength of ``count``D6+``bonus``, by enumerating the dice."""
    out: dict[int, Fraction] = {}
    rolls = list(itertools.product(range(1, 7), repeat=count))
    for dice in rolls:
        out[sum(dice) + bonus] = out.get(sum(dice) + bonus, Fraction(0)) + Fraction(1, len(rolls))
    return out


def wound_chance(
    strength: dict[int, Fraction],
    toughness: int,
    *,
    reroll_failed: bool = False,
    modifier_if_stronger: int = 0,
) -> Fraction:
    """P(one hit wounds): every Strength, every face of the wound die and of its re-roll
    (a 1 always fails, a 6 always wounds; the modifier is on the roll)."""
    total = Fraction(0)
    for value, chance in strength.items():
        need = wound_target(value, toughness)
        modifier = modifier_if_stronger if value > toughness else 0
        wounds = [f != 1 and (f == 6 or f + modifier >= need) for f in range(1, 7)]
        for face in range(6):
            if wounds[face]:
                total += chance / 6
            elif reroll_failed:
                total += chance * sum(wounds) / 36
    return total


def test_two_d6_strength_against_t10_is_the_enumerated_mixture() -> None:
    zzap = mh.Weapon("Zzap gun", 1, 5, "2D6", -3, 3, "[DEVASTATING WOUNDS]")
    result = mh.attack([(zzap, 1)], TANK)
    want = Fraction(1, 3) * wound_chance(strengths(2), 10)  # hits on 5+
    assert result.pools[0].wounds.mean() == pytest.approx(float(want), abs=1e-12)
    assert str(zzap.strength) == "2D6" and zzap.profile_text.startswith("A1 BS5+ S2D6")


def test_a_failed_wound_roll_is_re_rolled_at_the_same_strength() -> None:
    # [TWIN-LINKED] re-rolls the wound roll: the Strength rolled for the attack stays
    gun = mh.Weapon("Gun", 1, 2, "D6+6", -3, 2, "[TWIN-LINKED], [TORRENT]")
    got = mh.attack([(gun, 1)], TANK).pools[0].wounds.mean()
    want = wound_chance(strengths(1, 6), 10, reroll_failed=True)
    assert got == pytest.approx(float(want), abs=1e-12)
    once = wound_chance(strengths(1, 6), 10)
    assert float(want) > float(once)  # the re-roll counts


def test_a_rule_judged_on_the_strength_applies_to_the_attacks_it_holds_for() -> None:
    # "if the Strength of that attack is greater than the Toughness, -1 to the Wound roll"
    boarders = mh.Unit.of("Boyz", 10, 5, 5, 1)
    from mathhammer.model.effects import Condition, Effect, guards

    rule = guards([Effect("target_wound", -1, None, (Condition("strength_over_toughness"),),
                          source="Belligerent Boarders")])  # fmt: skip
    boyz = mh.Unit("Boyz", boarders.groups, rules=rule)
    gun = mh.Weapon("Gun", 1, 2, "D6", 0, 1, "[TORRENT]")
    got = mh.attack([(gun, 1)], boyz).pools[0].wounds.mean()
    want = wound_chance(strengths(1), 5, modifier_if_stronger=-1)
    assert got == pytest.approx(float(want), abs=1e-12)
    assert got < mh.attack([(gun, 1)], boarders).pools[0].wounds.mean()


def test_the_monte_carlo_rolls_the_strength_for_each_attack() -> None:
    zzap = mh.Weapon("Zzap gun", 1, 5, "D6+6", -3, 5, "[ANTI-VEHICLE 4+]")
    kannon = mh.Weapon("Kannon", 1, 5, "2D6", -1, "D6")
    weapons = [(zzap, 3), (kannon, 4)]
    exact = mh.attack(weapons, TANK)
    trials = 100_000
    rolled = mh.simulate(weapons, TANK, trials=trials, rng=np.random.default_rng(42))
    for e, m in ((exact.damage, rolled.damage), (exact.killed, rolled.killed)):
        assert abs(m.mean() - e.mean()) < 4 * e.std() / np.sqrt(trials)


def test_what_cannot_be_resolved_is_refused_clearly() -> None:
    zzap = mh.Weapon("Zzap gun", 1, 5, "2D6", -3, 3)
    with pytest.raises(mh.RulesError, match="command re-roll"):
        mh.attack([(zzap, 1)], TANK, modifiers=mh.Modifiers(reroll_one="wound"))
    classic = mh.Weapon("Zzap", 1, bs=3, strength="2D6")
    with pytest.raises(mh.RulesError, match="random Strength"):
        mh.attack([(classic, 1)], mh.Unit.of("Guard", 10, 3, 5, 1, leadership=7),
                  rules="classic")  # fmt: skip
    with pytest.raises(mh.ProfileError, match="Weapon.strength"):
        mh.Weapon("Huge", 1, 3, "20D6", 0, 1)
    assert mh.Weapon("Fixed", 1, 3, "4", 0, 1).strength == 4


def test_a_profiles_csv_reads_a_random_strength(tmp_path: Path) -> None:
    path = tmp_path / "army.csv"
    path.write_text(
        "unit,weapon,count,A,BS/WS,S,AP,D,abilities\n"
        "Battlewagon,Zzap gun,1,1,5+,D6+6,-3,5,[ANTI-VEHICLE 4+]\n",
        encoding="utf-8",
    )
    (loadout,) = read_attackers(path)
    ((weapon, count),) = loadout.weapon_counts
    assert str(weapon.strength) == "D6+6" and count == 1


def test_the_catalogue_zzap_gun_is_read(shared_data: Path) -> None:
    catalogue = mh.read_catalogue(shared_data / "bsdata-11e" / "Orks.json")
    assert not [s for s in catalogue.report.skipped if "Zzap" in s.entry]
    wagon = catalogue.get("Battlewagon")
    zzap = next(p for g in wagon.wargear if g.name == "Zzap gun" for p in g.profiles)
    assert str(zzap.strength) == "D6+6"
