"""A Toughness a rule gives some models while others stand (docs/rules.md D40): the
Runtherd is T2 while Gretchin stand, T5 once they are gone, in both engines."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest

import mathhammer as mh
from mathhammer.io.defences import read_defences, read_toughness_while
from mathhammer.model.standing import Standing
from mathhammer.model.unit import ToughnessWhile
from mathhammer.rules import get_ruleset
from mathhammer.rules.standing import States
from mathhammer.units.parts import AbilityText

RUNTHERD = AbilityText(
    "Runtherd",
    "Each time an attack targets this unit, if it contains one or more **^^Gretchin^^** "
    "models, until that attack is resolved, **^^Runtherd^^** models in this unit have a "
    "**Toughness** characteristic of 2.",
)


def gretchin(count: int = 10) -> mh.Unit:
    grots = mh.ModelGroup(count, toughness=2, save=7, wounds=1, name="Gretchin")
    herd = mh.ModelGroup(1, toughness=5, save=5, wounds=2, name="Runtherd",
                         toughness_while=ToughnessWhile(2, ("Gretchin",)))  # fmt: skip
    return mh.Unit("Gretchin", [grots, herd], keywords="INFANTRY")


def test_the_unit_is_t2_while_gretchin_stand_and_t5_after() -> None:
    unit = gretchin()
    assert unit.toughness == 2
    plain = mh.Unit("Gretchin", [unit.groups[0], mh.ModelGroup(1, 5, 5, 2, name="Runtherd")])
    assert plain.toughness == 5  # without the rule: the highest T
    assert Standing(unit, (10, 1), 0).toughness == 2
    assert Standing(unit, (0, 1), 1).toughness == 5
    # every state of the vectorised facts agrees with the standing's own
    positions = np.array([[g, r] for g in range(11) for r in range(2)])
    states = States(unit, get_ruleset("11e"), positions)
    want = [s.toughness for s in states.standings(np.arange(len(positions)))]
    assert states.fact("toughness").tolist() == want
    assert sorted(set(want)) == [2, 5]


def test_gauss_flayers_wound_the_gretchin_at_t2() -> None:
    gauss = mh.Weapon("Gauss flayer", 1, 4, 4, 0, 1, "[LETHAL HITS], [RAPID FIRE 1]")
    got = mh.attack([(gauss, 10)], gretchin())
    # each attack: a 6 to hit wounds automatically ([LETHAL HITS]); a 4 or 5 hits and
    # wounds T2 on 2+; Gretchin have no save
    p = 1 / 6 + 2 / 6 * 5 / 6
    assert got.killed.mean() == pytest.approx(10 * p, abs=1e-12)
    assert got.killed.mean() == pytest.approx(4.444444444444, abs=1e-9)


def test_the_runtherd_alone_is_wounded_at_t5_in_a_later_pool() -> None:
    # two Gretchin, then the Runtherd. A first attack: 2 automatic hits at S9 (2+ to wound
    # T2, no save, W1), so both Gretchin fall with (5/6)^2. The next attack is declared
    # against the unit as it stands (D34): 6 automatic hits at S4 wound the Runtherd at T5 on
    # 5+ when the Gretchin are gone, and at T2 on 2+ while one stands
    unit = gretchin(2)
    sure = mh.Weapon("Sure", 1, 2, 9, -6, 1, "[TORRENT]")
    gun = mh.Weapon("Gun", 1, 2, 4, -6, 1, "[TORRENT]")
    both_fall = (5 / 6) ** 2
    assert mh.attack([(sure, 2)], unit).killed.pmf(2) == pytest.approx(both_fall, abs=1e-12)
    first = mh.attack([(sure, 2)], unit)
    (second,) = mh.attack([(gun, 6)], unit, start=first).pools
    want = both_fall * 6 * 2 / 6 + (1 - both_fall) * 6 * 5 / 6
    assert second.wounds.mean() == pytest.approx(want, abs=1e-12)


def test_the_monte_carlo_agrees_when_the_last_gretchin_falls() -> None:
    # sluggas, then kannons declared against what stands: T2 while a Gretchin does, else T5
    unit = gretchin(5)
    slugga, kannon = mh.Weapon("Slugga", 1, 4, 4, 0, 1), mh.Weapon("Kannon", 2, 4, 9, -2, 3)
    first = mh.attack([(slugga, 12)], unit)
    exact = mh.attack([(kannon, 3)], unit, start=first)
    trials = 60_000
    rolled = mh.simulate([(slugga, 12)], unit, trials=trials, rng=np.random.default_rng(5))
    mc = mh.simulate([(kannon, 3)], unit, start=rolled, trials=trials, rng=np.random.default_rng(6))
    for exact_dist, mc_dist in ((exact.killed, mc.killed), (exact.damage, mc.damage)):
        sd = exact_dist.std() / np.sqrt(trials)
        assert abs(mc_dist.mean() - exact_dist.mean()) < 4 * sd
    # the kannons' wounds are those of T5 once the Gretchin are gone: fewer than at T2
    at_t2 = mh.attack([(kannon, 3)], mh.Unit("All T2", [mh.ModelGroup(1, 2, 5, 2)]))
    assert exact.pools[0].wounds.mean() < at_t2.pools[0].wounds.mean()


def test_the_rule_is_read_from_the_datasheet_text() -> None:
    assert read_toughness_while(RUNTHERD) == ("runtherd", ToughnessWhile(2, ("gretchin",)))
    found = read_defences([RUNTHERD, AbilityText("Feel No Pain 6+")])
    herd = mh.ModelProfile("Runtherd", 5, 5, 2)
    grot = mh.ModelProfile("Gretchin", 2, 7, 1)
    assert found.apply(herd).toughness_while == ToughnessWhile(2, ("gretchin",))
    assert found.apply(grot).toughness_while is None
    assert RUNTHERD in found.understood
    with pytest.raises(mh.ProfileError, match="ToughnessWhile.present"):
        ToughnessWhile(2, ())
    with pytest.raises(mh.ProfileError, match="ModelGroup.toughness_while"):
        mh.ModelGroup(1, 5, 5, 2, toughness_while=2)  # type: ignore[arg-type]


def test_the_catalogue_gretchin_are_t2(shared_data: Path) -> None:
    sheet = mh.read_catalogue(shared_data / "bsdata-11e" / "Orks.json").get("Gretchin")
    assert "Runtherd" not in [a.name for a in sheet.not_understood]
    unit = sheet.unit()
    assert unit.toughness == 2
    gauss = mh.Weapon("Gauss flayer", 1, 4, 4, 0, 1, "[LETHAL HITS], [RAPID FIRE 1]")
    assert mh.attack([(gauss, 10)], unit).killed.mean() == pytest.approx(4.444444444, abs=1e-6)
    for count in itertools.islice((g.count for g in unit.groups), 1):
        assert count == 10
