"""The classic ruleset (docs/rules.md §5): hand-derived fractions, an oracle, Panic Tests."""

from __future__ import annotations

import itertools
import math
import re
import zlib
from fractions import Fraction as F
from typing import Any

import numpy as np
import pytest

import mathhammer as mh
from mathhammer.rules import classic

ATOL = 1e-12


def close(got: float | None, want: F) -> None:
    assert got is not None
    assert abs(float(got) - float(want)) <= ATOL, (got, float(want))


def unit(models: int = 10, t: int = 4, sv: int = 7, w: int = 1, ld: int = 7, **kw: Any) -> mh.Unit:
    return mh.Unit.of("u", models, t, sv, w, keywords="INFANTRY", leadership=ld, **kw)


def p_hit(bs: int, linked: bool = False) -> float:
    weapon = mh.Weapon("w", 1, bs=bs, strength=4, abilities="[LINKED]" if linked else "")
    return float(mh.attack(weapon, unit(), rules="classic").pools[0].hits.probabilities[1])


# --- to hit: every Ballistic Skill, with and without Linked --------------------------------

#: BS -> (P(hit), P(hit) with Linked), derived from the chart: a single roll hits with
#: p = (7 - first) / 6. BS 6+: a natural 1 is re-rolled and hits on the second number.
#: Linked re-rolls every miss on the first number: p + (1 - p) * p.
HIT = {
    1: (F(1, 6), F(1, 6) + F(5, 6) * F(1, 6)),
    2: (F(2, 6), F(2, 6) + F(4, 6) * F(2, 6)),
    3: (F(3, 6), F(3, 6) + F(3, 6) * F(3, 6)),
    4: (F(4, 6), F(4, 6) + F(2, 6) * F(4, 6)),
    5: (F(5, 6), F(5, 6) + F(1, 6) * F(5, 6)),
    6: (F(5, 6) + F(1, 6) * F(1, 6), F(5, 6) + F(1, 6) * F(5, 6)),
    7: (F(5, 6) + F(1, 6) * F(2, 6), F(35, 36)),
    8: (F(5, 6) + F(1, 6) * F(3, 6), F(35, 36)),
    9: (F(5, 6) + F(1, 6) * F(4, 6), F(35, 36)),
    10: (F(5, 6) + F(1, 6) * F(5, 6), F(35, 36)),
}


@pytest.mark.parametrize("bs", range(1, 11))
def test_hit_probability_for_every_bs(bs: int) -> None:
    plain, linked = HIT[bs]
    close(p_hit(bs), plain)
    close(p_hit(bs, linked=True), linked)


def test_the_rules_bs7_example() -> None:
    # BS 7 rolls a 1 and re-rolls, hitting on 5+; with Linked the re-roll hits on 2+
    assert HIT[7][0] == F(32, 36) and HIT[7][1] == F(35, 36)


# --- to wound: the S - T chart ------------------------------------------------------------


@pytest.mark.parametrize(
    ("strength", "toughness", "needed"),
    [(10, 4, 2), (6, 4, 2), (5, 4, 3), (4, 4, 4), (3, 4, 5), (2, 4, 6), (1, 8, 6), (1, 1, 4)],
)
def test_wound_chart_edges(strength: int, toughness: int, needed: int) -> None:
    # an unmodified 1 always fails and an unmodified 6 always wounds
    weapon = mh.Weapon("w", 1, bs=10, strength=strength)
    res = mh.attack(weapon, unit(t=toughness), rules="classic")
    close(res.pools[0].wounds.probabilities[1], HIT[10][0] * F(7 - needed, 6))


# --- saves ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("save", "strict", "p_fail"),
    [
        (4, False, F(3, 6)),  # 4, 5, 6 save
        (4, True, F(4, 6)),  # the literal "higher than": 5, 6
        (2, False, F(1, 6)),
        (2, True, F(2, 6)),
        (6, False, F(5, 6)),
        (6, True, F(1)),  # nothing is higher than 6
    ],
)
def test_save_default_and_strict(save: int, strict: bool, p_fail: F) -> None:
    weapon = mh.Weapon("w", 1, bs=10, strength=8)  # S8 vs T4: 2+
    res = mh.attack(weapon, unit(sv=save), rules="classic", context=mh.Context(strict_save=strict))
    close(res.pools[0].unsaved.probabilities[1], HIT[10][0] * F(5, 6) * p_fail)


def test_one_wound_per_unsaved_wound_on_a_wounded_model_first() -> None:
    # 2 attacks, BS10, S8 (2+), no save, D is always 1: two unsaved wounds kill one W2 model
    weapon = mh.Weapon("w", 2, bs=10, strength=8)
    res = mh.attack(weapon, unit(models=3, sv=7, w=2), rules="classic")
    p = HIT[10][0] * F(5, 6)
    close(res.killed.probabilities[1], p * p)
    close(res.damage.probabilities[1], 2 * p * (1 - p))


# --- Panic Tests ---------------------------------------------------------------------------


@pytest.mark.parametrize(("models", "slain"), [(10, 3), (4, 1), (5, 2), (8, 2), (1, 1), (20, 5)])
def test_panic_threshold(models: int, slain: int) -> None:
    assert classic.panic_threshold(models) == slain == math.ceil(F(models, 4))


@pytest.mark.parametrize(
    ("ld", "p_fail"),
    [(2, F(35, 36)), (5, F(26, 36)), (7, F(15, 36)), (8, F(10, 36)), (10, F(3, 36)), (12, F(0))],
)
def test_panic_probabilities(ld: int, p_fail: F) -> None:
    # 4 models: one slain triggers the test; the unit must survive. One sure-ish shot.
    weapon = mh.Weapon("w", 1, bs=10, strength=8)
    res = mh.attack(weapon, unit(models=4, sv=7, ld=ld), rules="classic")
    p_kill = HIT[10][0] * F(5, 6)
    close(res.p_panic_test, p_kill)
    close(res.p_panic_fail, p_kill * p_fail)


def test_panic_needs_a_quarter_and_a_survivor() -> None:
    # 10 models, 3 shots: only 3 kills trigger the test (threshold 3)
    weapon = mh.Weapon("w", 3, bs=10, strength=8)
    res = mh.attack(weapon, unit(models=10, sv=7, ld=7), rules="classic")
    p = HIT[10][0] * F(5, 6)
    close(res.p_panic_test, p**3)
    close(res.p_panic_fail, p**3 * F(15, 36))
    # a unit wiped out takes no test: one model, one kill
    lone = mh.attack(weapon, unit(models=1, sv=7), rules="classic")
    close(lone.p_panic_test, F(0))


def test_exempt_types_never_test() -> None:
    assert not classic.takes_panic_tests(mh.Unit.of("k", 1, 8, 3, 10, keywords="KNIGHT"))
    assert classic.takes_panic_tests(unit())


def test_eleventh_edition_has_no_panic() -> None:
    res = mh.attack(mh.Weapon("w", 1, skill=3, strength=4), unit())
    assert res.p_panic_test is None and res.p_panic_fail is None


def test_monte_carlo_panic_within_5_sigma() -> None:
    weapon = mh.Weapon("w", 2, bs=4, strength=3)
    target = unit(models=8, t=3, sv=5, ld=6)
    exact = mh.attack([(weapon, 6)], target, rules="classic")
    trials = 100_000
    sim = mh.simulate(
        [(weapon, 6)], target, rules="classic", trials=trials, rng=zlib.crc32(b"classic panic")
    )
    for got, want in [
        (sim.p_panic_test, exact.p_panic_test),
        (sim.p_panic_fail, exact.p_panic_fail),
    ]:
        assert got is not None and want is not None
        sigma = math.sqrt(want * (1 - want) / trials)
        assert abs(got - want) <= 5 * sigma


# --- a brute-force oracle ------------------------------------------------------------------


def oracle(
    bs: int,
    linked: bool,
    strength: int,
    attacks: int,
    models: list[int],
    t: int,
    sv: int,
    strict: bool,
) -> dict[int, F]:
    """P(k models slain), enumerating every die of every attack literally."""
    first, second = classic.BS_CHART[bs]

    def hit_outcomes() -> dict[bool, F]:
        out = {True: F(0), False: F(0)}
        for a in range(1, 7):
            if a >= first:
                out[True] += F(1, 6)
            elif linked or (second is not None and a == 1):
                need = first if linked or second is None else second
                for b in range(1, 7):
                    out[b >= need] += F(1, 36)
            else:
                out[False] += F(1, 6)
        return out

    d = strength - t
    need = 2 if d >= 2 else 3 if d == 1 else 4 if d == 0 else 5 if d == -1 else 6
    p_hit = hit_outcomes()[True]
    p_wound = sum(F(1, 6) for r in range(1, 7) if r != 1 and (r == 6 or r >= need))
    p_fail = sum(F(1, 6) for r in range(1, 7) if not (r > sv if strict else r >= sv))
    p_unsaved = p_hit * p_wound * p_fail
    slain: dict[int, F] = {}
    for outcome in itertools.product([True, False], repeat=attacks):
        p = math.prod((p_unsaved if u else 1 - p_unsaved for u in outcome), start=F(1))
        wounds, killed = sum(outcome), 0
        left = list(models)
        for _ in range(wounds):  # each unsaved wound on the wounded (first) model
            if not left:
                break
            left[0] -= 1
            if left[0] == 0:
                left.pop(0)
                killed += 1
        slain[killed] = slain.get(killed, F(0)) + p
    return slain


@pytest.mark.parametrize(
    ("bs", "linked", "strength", "attacks", "models", "t", "sv", "strict"),
    [
        (3, False, 3, 4, [1, 1, 1], 3, 5, False),
        (7, False, 4, 3, [2, 2], 4, 3, False),
        (8, True, 5, 3, [1, 1, 2], 4, 4, True),
        (1, True, 8, 4, [3, 1], 4, 6, False),
        (10, False, 2, 5, [1, 1, 1, 1], 6, 2, True),
    ],
)
def test_engine_matches_the_oracle(
    bs: int,
    linked: bool,
    strength: int,
    attacks: int,
    models: list[int],
    t: int,
    sv: int,
    strict: bool,
) -> None:
    groups, i = [], 0
    while i < len(models):  # consecutive models with the same W form a group
        j = i
        while j < len(models) and models[j] == models[i]:
            j += 1
        groups.append(mh.ModelGroup(j - i, t, sv, models[i]))
        i = j
    target = mh.Unit("u", groups, keywords="INFANTRY", leadership=7)
    weapon = mh.Weapon(
        "w", attacks, bs=bs, strength=strength, abilities="[LINKED]" if linked else ""
    )
    res = mh.attack(weapon, target, rules="classic", context=mh.Context(strict_save=strict))
    want = oracle(bs, linked, strength, attacks, models, t, sv, strict)
    got = np.zeros(len(models) + 1)
    got[: res.killed.n + 1] = res.killed.probabilities
    np.testing.assert_allclose(
        got, [float(want.get(k, 0)) for k in range(len(models) + 1)], atol=ATOL
    )


# --- clear errors --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("weapon", "target", "kwargs", "message"),
    [
        (
            mh.Weapon("w", 1, skill=3, strength=4),
            unit(),
            {"rules": "classic"},
            "rules='classic': weapon 'w' needs bs=, the Ballistic Skill characteristic",
        ),
        (
            mh.Weapon("w", 1, bs=3, strength=4),
            unit(),
            {},
            "rules='11e' needs Weapon(skill=...), BS/WS as N+ from 2 to 6; weapon 'w' has bs=3",
        ),
        (
            mh.Weapon("w", 1, bs=3, strength=4),
            mh.Unit.of("t", 1, 8, 3, 10, keywords="VEHICLE"),
            {"rules": "classic"},
            "target 't' is a VEHICLE: its wound roll is in a section",
        ),
        (
            mh.Weapon("w", 1, bs=3, strength=4),
            mh.Unit.of("t", 5, 4, 3, 1),
            {"rules": "classic"},
            "target 't' needs leadership= for its Panic Test",
        ),
        (
            mh.Weapon("w", 1, bs=3, strength=4, damage=2),
            unit(),
            {"rules": "classic"},
            "weapon 'w' has D2; every unsaved wound removes one wound",
        ),
        (
            mh.Weapon("w", 1, bs=3, strength=4),
            unit(),
            {"rules": "classic", "modifiers": mh.Modifiers(hit=1)},
            "the classic ruleset defines no modifiers",
        ),
        (
            mh.Weapon("w", 1, skill=3, strength=4),
            unit(),
            {"context": mh.Context(strict_save=True)},
            "rules='11e': Context(strict_save) has no effect in this ruleset",
        ),
        (
            mh.Weapon("w", 1, bs=3, strength=4),
            mh.Unit("m", [mh.ModelGroup(2, 4, 3, 1), mh.ModelGroup(2, 4, 5, 2)], leadership=7),
            {"rules": "classic"},
            "mixes save characteristics",
        ),
    ],
)
def test_clear_errors(
    weapon: mh.Weapon, target: mh.Unit, kwargs: dict[str, Any], message: str
) -> None:
    with pytest.raises(mh.RulesError, match=re.escape(message)):
        mh.attack(weapon, target, **kwargs)
    with pytest.raises(mh.RulesError, match=re.escape(message)):
        mh.simulate(weapon, target, trials=10, **kwargs)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({}, "Weapon needs skill= (11th edition BS/WS as N+, 2 to 6) or bs="),
        ({"skill": 3, "bs": 4}, "Weapon takes skill= (11th edition) or bs= (classic), not both"),
        ({"bs": 0}, "Weapon.bs must be an integer from 1 to 10; got 0"),
        ({"bs": 11}, "Weapon.bs must be an integer from 1 to 10; got 11"),
    ],
)
def test_weapon_skill_or_bs(fields: dict[str, Any], message: str) -> None:
    with pytest.raises(mh.ProfileError, match=re.escape(message)):
        mh.Weapon("w", 1, strength=4, **fields)


def test_leadership_validation() -> None:
    with pytest.raises(mh.ProfileError, match="Unit.leadership must be an integer from 1 to 12"):
        mh.Unit.of("u", 5, 4, 3, 1, leadership=13)


def test_other_abilities_warn_under_classic() -> None:
    weapon = mh.Weapon("w", 1, bs=3, strength=4, abilities="[LETHAL HITS], [ASSAULT]")
    with pytest.warns(UserWarning, match=re.escape("[LETHAL HITS] are not part of this ruleset")):
        mh.attack(weapon, unit(), rules="classic")


def test_mortal_wounds_alone_still_need_leadership() -> None:
    with pytest.raises(mh.RulesError, match="needs leadership= for its Panic Test"):
        mh.attack([mh.MortalWounds(3)], mh.Unit.of("t", 10, 3, 5, 1), rules="classic")
    res = mh.attack([mh.MortalWounds(3)], unit(models=10, w=1), rules="classic")
    close(res.p_panic_test, F(1))  # 3 of 10 slain, the unit lives


def test_eleventh_edition_context_is_refused() -> None:
    weapon = mh.Weapon("w", 1, bs=3, strength=4)
    with pytest.raises(mh.RulesError, match=re.escape("Context(half_range, target_in_cover)")):
        mh.attack(
            weapon,
            unit(),
            rules="classic",
            context=mh.Context(half_range=True, target_in_cover=True),
        )
    with pytest.raises(mh.RulesError, match="has Stealth"):
        mh.attack(weapon, unit(stealth=True), rules="classic")
