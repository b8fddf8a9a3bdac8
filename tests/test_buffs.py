"""Buffs on part of a unit (docs/rules.md §2.4: a rule affecting only some models, such as
a leader's buff on the unit it joined, sets their attacks apart in a pool of their own):
``Weapon.buffed``, ``Models(modifiers=...)``, the attackers CSV's ``modifiers``.

Checked against the brute-force oracle (which combines the buff with the attack's own in
its own words), against the attack of the same pool with the buff as the call's
modifiers, and against the Monte Carlo.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from oracle import assert_pmf, oracle_attack
from statcheck import assert_matches

import mathhammer as mh
from mathhammer.model.context import parse_buff

GUN = mh.Weapon("Gun", 2, 4, 4, 0, 1)
SQUAD = mh.Unit.of("Squad", 3, 4, 4, 1)
BUFFS = {
    "+1 to hit": mh.Modifiers(hit=1),
    "re-roll wounds of 1, AP-1": mh.Modifiers(reroll_wounds="ones", ap=-1),
    "critical hits on 5+": mh.Modifiers(critical_hit=5),
}


@pytest.mark.parametrize("name", list(BUFFS))
def test_a_buffed_pool_beside_a_plain_one_equals_the_oracle(name: str) -> None:
    buffed = GUN.buffed(BUFFS[name])
    weapons = [(GUN, 1), (buffed, 1)]
    result = mh.attack(weapons, SQUAD)
    assert [p.label for p in result.pools] == ["Gun", f"Gun ({buffed.buff_text})"]
    for call in (None, mh.Modifiers(hit=-1)):  # the call's own modifiers combine with it
        got = mh.attack(weapons, SQUAD, modifiers=call)
        want = oracle_attack(weapons, SQUAD, modifiers=call)
        assert_pmf(got.killed.probabilities, want.killed, name)
        for pool, expected in zip(got.pools, want.pools, strict=True):
            assert_pmf(pool.killed.probabilities, expected.killed, pool.label)


def test_a_buff_on_every_attack_is_the_calls_modifiers() -> None:
    for buff in BUFFS.values():
        assert (
            mh.attack([(GUN.buffed(buff), 6)], SQUAD).killed
            == mh.attack([(GUN, 6)], SQUAD, modifiers=buff).killed
        )
    half = mh.Weapon("Melta", 1, 3, 9, -4, "D6", "[MELTA 2]")
    close = mh.Context(half_range=True)
    tank = mh.Unit.of("Tank", 1, 10, 3, 12)
    assert (
        mh.attack([(half.buffed(context=close), 2)], tank).damage
        == mh.attack([(half, 2)], tank, context=close).damage
    )


def test_buffs_combine_and_the_roll_cap_still_holds() -> None:
    both = mh.attack([(GUN.buffed(mh.Modifiers(hit=1)), 6)], SQUAD, modifiers=mh.Modifiers(hit=1))
    capped = mh.attack([(GUN, 6)], SQUAD, modifiers=mh.Modifiers(hit=1))
    assert both.killed == capped.killed  # +2 to hit is +1
    ap = mh.attack([(GUN.buffed(mh.Modifiers(ap=-1)), 6)], SQUAD, modifiers=mh.Modifiers(ap=-1))
    assert ap.killed == mh.attack([(GUN, 6)], SQUAD, modifiers=mh.Modifiers(ap=-2)).killed
    twice = GUN.buffed(mh.Modifiers(hit=1)).buffed(mh.Modifiers(reroll_hits="ones"))
    assert twice.buff_text == "hit +1, reroll_hits ones"


def test_pools_stay_apart_in_the_order_declared_and_a_null_buff_pools() -> None:
    buffed = GUN.buffed(mh.Modifiers(hit=1))
    result = mh.attack([(buffed, 2), (GUN, 3), (buffed, 1)], SQUAD)
    assert [p.label for p in result.pools] == ["Gun x2 + Gun (hit +1)", "Gun x3"]
    assert GUN.buffed(mh.Modifiers()) == GUN  # nothing changed: the plain weapon
    assert len(mh.attack([(GUN.buffed(mh.Modifiers()), 2), (GUN, 3)], SQUAD).pools) == 1


def test_the_monte_carlo_reads_the_buff() -> None:
    target = mh.Unit.of("Ten", 10, 4, 4, 1)
    weapons = [(GUN, 5), (GUN.buffed(mh.Modifiers(hit=1, reroll_wounds="failures")), 5)]
    exact = mh.attack(weapons, target)
    rolled = mh.simulate(weapons, target, trials=40_000, rng=21)
    assert_matches("buffed pools", exact.killed, rolled.killed, 40_000)


def test_a_group_of_models_carries_its_buff_through_resolve() -> None:
    leader = mh.Modifiers(hit=1)
    unit = mh.Attacker(
        "Squad",
        [mh.Models(5, [GUN], name="Led"), mh.Models(5, [GUN], name="Rest", modifiers=None)],
    )
    led = mh.Attacker(
        "Squad",
        [mh.Models(5, [GUN], name="Led", modifiers=leader), mh.Models(5, [GUN], name="Rest")],
    )
    target = mh.Unit.of("Ten", 10, 4, 4, 1)
    uses = [mh.Use("Led", "Gun", target), mh.Use("Rest", "Gun", target)]
    plain, buffed = mh.resolve(unit, uses), mh.resolve(led, uses)
    assert len(plain["Ten"].pools) == 1 and len(buffed["Ten"].pools) == 2
    assert buffed["Ten"].killed == mh.attack([(GUN.buffed(leader), 5), (GUN, 5)], target).killed


def test_the_attackers_csv_reads_a_modifiers_column(tmp_path: Path) -> None:
    path = tmp_path / "army.csv"
    path.write_text(
        "unit,weapon,count,A,BS/WS,S,AP,D,abilities,modifiers\n"
        "Squad,Gun,5,2,4+,4,0,1,,\n"
        "Squad,Gun,5,2,4+,4,0,1,,hit+1; reroll_wounds=ones\n"
    )
    (squad,) = mh.read_attackers(path)
    buffs = sorted(w.buff_text for w, _ in squad.weapon_counts)
    assert buffs == ["", "hit +1, reroll_wounds ones"]
    bad = tmp_path / "bad.csv"
    bad.write_text(
        "unit,weapon,count,A,BS/WS,S,AP,D,abilities,modifiers\nSquad,Gun,5,2,4+,4,0,1,,hit+one\n"
    )
    with pytest.raises(mh.CsvError, match=r"bad.csv:2: column 'modifiers'"):
        mh.read_attackers(bad)


def test_parse_buff_reads_each_form_and_refuses_the_rest() -> None:
    mods, context = parse_buff("hit+1; ap-1; ap-1; critical_hit=5; damage_set=D3; charged")
    assert mods is not None and context is not None
    assert (mods.hit, mods.ap, mods.critical_hit, str(mods.damage_set)) == (1, -2, 5, "D3")
    assert context.charged
    assert parse_buff("") == (None, None)
    assert parse_buff("lethal_hits=roll")[1] == mh.Context(lethal_hits="roll")
    for bad in ("hit", "hits+1", "critical_hit=x", "reroll_hits=twice", "damage_set=0"):
        with pytest.raises(mh.ProfileError, match="modifiers"):
            parse_buff(bad)
    with pytest.raises(mh.ProfileError, match="Weapon.modifiers must be a Modifiers"):
        mh.Weapon("Gun", 1, 3, 4, modifiers="hit+1")  # type: ignore[arg-type]
