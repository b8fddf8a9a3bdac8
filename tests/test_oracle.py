"""The exact engine against a brute-force oracle (``tests/oracle.py``) on tiny cases.

The oracle enumerates every die face with exact fractions and applies docs/rules.md
§1 and §2 literally; the engine must agree to 1e-12 on every distribution
it reports: models killed (overall and per allocation group), wounds lost,
P(destroyed), and each pool's attacks, hits, wounds, unsaved and cumulative kills.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import mathhammer as mh
from mathhammer import ModelGroup, Unit, Weapon

sys.path.insert(0, str(Path(__file__).parent))
from oracle import (  # noqa: E402
    ATOL,
    OracleResult,
    assert_pmf,
    exact,
    gather_entries,
    oracle_attack,
    oracle_pools,
    pmf_close,
    total,
    wound_target,
)

# --------------------------------------------------------------------------- helpers


def gun(
    name: str = "gun",
    attacks: int | str = 1,
    skill: int = 3,
    strength: int = 4,
    ap: int = 0,
    damage: int | str = 1,
    abilities: str = "",
) -> Weapon:
    return Weapon(name, attacks, skill, strength, ap, damage, abilities)


def models(count: int, save: int, wounds: int, **kw: Any) -> ModelGroup:
    kw.setdefault("toughness", 4)
    return ModelGroup(count, save=save, wounds=wounds, **kw)


def unit(*groups: ModelGroup) -> Unit:
    return Unit("target", groups)


# --------------------------------------------------------------------------- scenarios


@dataclass(frozen=True)
class Scenario:
    id: str
    weapons: Any
    target: Unit
    xfail: str = ""


BOLT = gun("Bolt rifle", 1, 3, 4, -1, 1)
HEAVY_BOLT = gun("Heavy bolter", 1, 3, 5, -1, 2)
PLASMA = gun("Plasma", 1, 3, 7, -2, 2)
MELTA = gun("Melta", 1, 3, 9, -4, "D6")
STORM = gun("Storm bolter", "D3", 3, 4, 0, 1)
CAPTAIN = ModelGroup(1, toughness=4, save=2, wounds=4, invuln=4, character=True, name="Captain")

SCENARIOS = [
    # -- homogeneous units
    Scenario("homog-3xBolt-vs-3xW1Sv3", [(BOLT, 3)], unit(models(3, 3, 1))),
    Scenario("homog-2xA2-vs-2xW2Sv4", [(gun(attacks=2), 2)], unit(models(2, 4, 2))),
    Scenario("homog-noSave-W1", [(gun(skill=4, strength=3), 4)], unit(models(3, 7, 1))),
    Scenario("homog-invuln-vs-AP3", [(gun(ap=-3, damage=2), 3)], unit(models(2, 3, 2, invuln=5))),
    Scenario("homog-D2-vs-W3", [(HEAVY_BOLT, 4)], unit(models(2, 3, 3))),
    # -- two and three groups with different Sv, InSv and W
    Scenario(
        "2grp-Sv3-then-Sv4-AP1",
        [(gun(skill=2, strength=8, ap=-1), 4)],
        unit(models(2, 3, 1), models(2, 4, 1)),
    ),
    Scenario(
        "2grp-Sv4-then-Sv3-AP1",
        [(gun(skill=2, strength=8, ap=-1), 4)],
        unit(models(2, 4, 1), models(2, 3, 1)),
    ),
    Scenario(
        "2grp-W1-then-W2-D2",
        [(gun(skill=3, strength=5, ap=-1, damage=2), 4)],
        unit(models(1, 4, 1), models(2, 4, 2)),
    ),
    Scenario(
        "2grp-InSv-differs",
        [(gun(skill=2, strength=8, ap=-3), 4)],
        unit(models(1, 3, 1, invuln=4), models(2, 3, 1)),
    ),
    Scenario(
        "3grp-Sv3-Sv4-Sv2InSv5",
        [(gun(skill=3, strength=5, ap=-1, damage=2), 5)],
        unit(models(1, 3, 2), models(1, 4, 2), models(1, 2, 2, invuln=5)),
    ),
    # -- CHARACTER behind bodyguards
    Scenario(
        "char-behind-2xW2",
        [(gun(skill=2, strength=8, ap=-3, damage=2), 5)],
        unit(models(2, 3, 2), CAPTAIN),
    ),
    Scenario(
        "char-T5-unit-uses-bodyguard-T",
        [(gun(skill=3, strength=4, ap=-2), 5)],
        unit(
            models(2, 4, 1, toughness=3),
            ModelGroup(1, toughness=5, save=3, wounds=2, invuln=5, character=True, name="Boss"),
        ),
    ),
    # -- units starting with a wounded model
    Scenario(
        "wounded-first-group",
        [(gun(skill=3, strength=5, ap=-1), 4)],
        unit(models(2, 3, 2, wounds_lost=1), models(1, 4, 1)),
    ),
    Scenario(
        "wounded-char-before-unwounded-char",
        [(gun(skill=2, strength=8, ap=-2, damage=2), 5)],
        unit(
            models(1, 3, 1),
            ModelGroup(
                1,
                toughness=4,
                save=3,
                wounds=4,
                invuln=5,
                character=True,
                name="Captain",
                wounds_lost=2,
            ),
            ModelGroup(1, toughness=4, save=4, wounds=3, character=True, name="Ancient"),
        ),
    ),
    Scenario(
        "wounded-lone-char",
        [(gun(skill=3, strength=4, ap=-1, damage="D3"), 4)],
        unit(ModelGroup(1, 4, 3, 5, invuln=4, character=True, name="Lord", wounds_lost=3)),
    ),
    # -- random attacks and random damage
    Scenario("randA-D3-x2-vs-W1", [(STORM, 2)], unit(models(3, 4, 1))),
    Scenario("randA-D3-plus1", [gun(attacks="D3+1", skill=2, strength=8)], unit(models(2, 4, 2))),
    Scenario(
        "randD-D3-vs-W1",
        [(gun(skill=3, strength=5, ap=-1, damage="D3"), 4)],
        unit(models(3, 4, 1)),
    ),
    Scenario(
        "randD-D3-vs-W2",
        [(gun(skill=3, strength=5, ap=-1, damage="D3"), 4)],
        unit(models(2, 4, 2)),
    ),
    Scenario("randD-D6-vs-W2", [(MELTA, 3)], unit(models(2, 3, 2), models(1, 3, 1))),
    Scenario(
        "randD-D3-W1-then-W2",
        [(gun(skill=2, strength=8, ap=-1, damage="D3"), 4)],
        unit(models(1, 3, 1), models(1, 3, 2)),
    ),
    Scenario(
        "randD-2D3-vs-W3",
        [(gun(skill=3, strength=8, ap=-1, damage="2D3"), 3)],
        unit(models(2, 3, 3)),
    ),
    # -- Feel No Pain, including damage greater than wounds
    Scenario(
        "fnp5-D3-vs-W2",
        [(gun(skill=3, strength=5, ap=-1, damage="D3"), 3)],
        unit(models(2, 4, 2, fnp=5)),
    ),
    Scenario(
        "fnp6-D3flat-vs-W1",
        [(gun(skill=2, strength=8, ap=-2, damage=3), 3)],
        unit(models(2, 3, 1, fnp=6)),
    ),
    Scenario(
        "fnp-only-on-second-group",
        [(gun(skill=2, strength=8, ap=-1, damage=2), 4)],
        unit(models(1, 3, 1), models(1, 4, 3, fnp=4)),
    ),
    Scenario(
        "fnp-char-wounded",
        [(gun(skill=3, strength=4, ap=-2, damage=2), 3)],
        unit(
            models(1, 4, 1),
            ModelGroup(1, 4, 3, 4, fnp=5, character=True, name="Apothecary", wounds_lost=1),
        ),
    ),
    # -- several pools in order; the unit's state carries over
    Scenario(
        "pools2-bolt-then-plasma",
        [(BOLT, 3), (PLASMA, 2)],
        unit(models(2, 3, 2), models(1, 4, 1)),
    ),
    Scenario(
        "pools2-plasma-then-bolt",
        [(PLASMA, 2), (BOLT, 3)],
        unit(models(2, 3, 2), models(1, 4, 1)),
    ),
    Scenario(
        "pools3-bolt-heavy-melta-vs-char",
        [(BOLT, 2), (HEAVY_BOLT, 2), MELTA],
        unit(models(1, 3, 2), CAPTAIN),
    ),
    Scenario(
        "pools3-interleaved-declaration",
        [BOLT, PLASMA, gun("Sergeant's bolt rifle", 2, 3, 4, -1, 1), HEAVY_BOLT],
        unit(models(2, 3, 2, wounds_lost=1), models(1, 4, 2)),
    ),
    Scenario(
        "pools2-fnp-randD",
        [(gun(skill=3, strength=4, ap=-1, damage="D3"), 2), (gun(skill=4, strength=6), 3)],
        unit(models(2, 4, 2, fnp=6)),
    ),
    Scenario(
        "pools2-ability-splits-pool",
        [(BOLT, 2), (gun("Bolt rifle", 1, 3, 4, -1, 1, "[ASSAULT]"), 2)],
        unit(models(1, 3, 1), models(2, 4, 1)),
    ),
    Scenario(
        "pools2-first-pool-can-wipe-the-unit",
        [(gun(skill=2, strength=8, ap=-3, damage=3), 2), (BOLT, 3)],
        unit(models(1, 3, 3)),
    ),
    Scenario(
        "randA-mixed-with-fixed-A-in-one-pool",
        [STORM, gun("Bolter", 2, 3, 4, 0, 1)],
        unit(models(2, 4, 1), models(1, 3, 1)),
    ),
    # -- odd units
    Scenario(
        "noSv-InSv-only",
        [(gun(skill=3, strength=4, ap=0, damage=2), 4)],
        unit(models(2, 7, 2, invuln=5), models(1, 7, 1)),
    ),
    Scenario(
        "only-characters-wounded-first",
        [(gun(skill=3, strength=5, ap=-1, damage="D3"), 4)],
        unit(
            ModelGroup(1, 6, 3, 3, character=True, name="Tall", wounds_lost=1),
            ModelGroup(1, 4, 2, 2, invuln=4, character=True, name="Small"),
        ),
    ),
    Scenario(
        "3grp-wounded-plus-2-characters",
        [(gun(skill=2, strength=8, ap=-2, damage=2), 5)],
        unit(
            models(1, 3, 3, wounds_lost=2),
            models(1, 4, 1),
            models(1, 5, 2, invuln=6),
            ModelGroup(1, 4, 2, 2, invuln=4, character=True, name="Captain", wounds_lost=1),
            ModelGroup(1, 4, 3, 1, character=True, name="Ancient"),
        ),
    ),
    # -- the three input forms
    Scenario("form-single-weapon", PLASMA, unit(models(1, 3, 2))),
    Scenario(
        "form-list-of-weapons",
        [BOLT, gun("Other bolt rifle", 2, 3, 4, -1, 1), PLASMA],
        unit(models(2, 3, 1), models(1, 4, 1)),
    ),
    Scenario(
        "form-list-of-pairs",
        [(BOLT, 2), (PLASMA, 1), (gun("Sergeant", 1, 3, 4, -1, 1), 1)],
        unit(models(2, 3, 1), models(1, 4, 1)),
    ),
    Scenario(
        "form-mixed-list",
        [BOLT, (PLASMA, 1), (BOLT, 2)],
        unit(models(2, 3, 1), models(1, 4, 1)),
    ),
]


def _random_scenarios(n: int, seed: int = 20260620) -> list[Scenario]:
    """Small random scenarios (fixed seed): 1-3 pools of at most 5 attack dice each,
    1-3 allocation groups in a legal order, random A and D, InSv, FNP and wounded models.
    """
    rng = np.random.default_rng(seed)
    out = []
    for k in range(n):
        weapons = []
        for j in range(int(rng.integers(1, 4))):
            attacks = str(rng.choice(["1", "2", "D3"]))
            damage = str(rng.choice(["1", "2", "3", "D3", "D6", "D3+1"]))
            per_copy = 3 if attacks == "D3" else int(attacks)
            weapon = gun(
                f"w{j}",
                attacks,
                skill=int(rng.integers(2, 6)),
                strength=int(rng.choice([3, 4, 5, 8])),
                ap=-int(rng.integers(0, 4)),
                damage=damage,
            )
            weapons.append((weapon, int(rng.integers(1, 5 // per_copy + 1))))
        groups: list[ModelGroup] = []
        seen = set()
        for _ in range(int(rng.integers(1, 3))):
            w, sv = int(rng.integers(1, 4)), int(rng.integers(2, 8))
            inv = None if rng.random() < 0.6 else int(rng.integers(3, 7))
            if (w, sv, inv) in seen:
                continue
            seen.add((w, sv, inv))
            fnp = None if rng.random() < 0.7 else int(rng.integers(4, 7))
            groups.append(models(int(rng.integers(1, 3)), sv, w, invuln=inv, fnp=fnp))
        if groups[0].wounds > 1 and rng.random() < 0.4:
            g = groups[0]
            groups[0] = models(
                g.count,
                g.save,
                g.wounds,
                invuln=g.invuln,
                fnp=g.fnp,
                wounds_lost=int(rng.integers(1, g.wounds)),
            )
        if rng.random() < 0.5:
            lost = int(rng.integers(0, 3))
            groups.append(
                ModelGroup(
                    1,
                    4,
                    int(rng.integers(2, 5)),
                    3,
                    invuln=int(rng.integers(4, 7)),
                    character=True,
                    name="Hero",
                    wounds_lost=lost,
                )
            )
        desc = "+".join(f"{n}xA{w.attacks}-AP{-w.ap}-dmg{w.damage}" for w, n in weapons)
        body = "+".join(g.label.replace(" ", "") for g in groups)
        out.append(Scenario(f"rand{k:02d}-{desc}-vs-{body}", weapons, unit(*groups)))
    return out


SCENARIOS += _random_scenarios(40)


@cache
def _engine(scenario_id: str) -> mh.AttackResult:
    scenario = BY_ID[scenario_id]
    return mh.attack(scenario.weapons, scenario.target)


@cache
def _oracle(scenario_id: str) -> OracleResult:
    scenario = BY_ID[scenario_id]
    return oracle_attack(scenario.weapons, scenario.target)


def _run(scenario_id: str) -> tuple[mh.AttackResult, OracleResult]:
    return _engine(scenario_id), _oracle(scenario_id)


BY_ID = {s.id: s for s in SCENARIOS}
assert len(BY_ID) == len(SCENARIOS), "scenario ids must be unique"


def _params() -> list[Any]:
    out = []
    for s in SCENARIOS:
        marks = [pytest.mark.xfail(strict=True, reason=s.xfail)] if s.xfail else []
        out.append(pytest.param(s.id, id=s.id, marks=marks))
    return out


def _plain_params() -> list[Any]:
    return [pytest.param(s.id, id=s.id) for s in SCENARIOS]


# --------------------------------------------------------------------------- the oracle itself


@pytest.mark.parametrize("scenario_id", _plain_params())
def test_oracle_is_a_distribution(scenario_id: str) -> None:
    """Every oracle pmf sums to exactly 1 and stays within the unit's models and wounds."""
    target = BY_ID[scenario_id].target
    want = _oracle(scenario_id)
    for name, pmf in [("killed", want.killed), ("damage", want.damage)] + [
        (f"group {i}", g) for i, g in enumerate(want.groups)
    ]:
        assert total(pmf) == 1, name
    assert max(want.killed) <= target.models
    assert max(want.damage) <= sum(g.count * g.wounds - g.wounds_lost for g in target.groups)
    for i, g in enumerate(target.groups):
        assert max(want.groups[i]) <= g.count
    for pool in want.pools:
        for pmf in (pool.attacks, pool.hits, pool.wounds, pool.unsaved, pool.killed):
            assert total(pmf) == 1
        # a save die is only resolved while the unit has models left
        assert max(pool.unsaved) <= max(pool.wounds)


def test_oracle_wound_ladder_worked_examples() -> None:
    """S8 vs T4 is 2+, S7 vs T4 is 3+, S4 vs T8 is 6+ and S4 vs T7 is 5+."""
    assert wound_target(8, 4) == 2
    assert wound_target(7, 4) == 3
    assert wound_target(4, 4) == 4
    assert wound_target(4, 7) == 5
    assert wound_target(4, 8) == 6


def test_oracle_gathers_identical_attacks_in_declaration_order() -> None:
    """Name and A do not split a pool; abilities do; pools keep first-declared order."""
    sergeant = gun("Sergeant's bolt rifle", 2, 3, 4, -1, 1)
    assault = gun("Bolt rifle", 1, 3, 4, -1, 1, "[ASSAULT]")
    pools = gather_entries([PLASMA, BOLT, assault, (sergeant, 2)])
    weapon_pools = [p for p in pools if not isinstance(p, mh.MortalWounds)]
    assert len(weapon_pools) == len(pools)
    assert [[(w.name, n) for w, n in p] for p in weapon_pools] == [
        [("Plasma", 1)],
        [("Bolt rifle", 1), ("Sergeant's bolt rifle", 2)],
        [("Bolt rifle", 1)],
    ]


def test_oracle_hand_derived_sorting_case() -> None:
    """Two attacks, BS 2+, S8 vs T4 (2+ to wound), AP -1, D1, against a Sv 3+ W1 model
    followed by a Sv 4+ W1 model.

    Each attack wounds with p = 5/6 * 5/6 = 25/36.  With AP -1 the Sv 3+ model saves
    on 4+ (fails on 1-3) and the Sv 4+ model saves on 5+ (fails on 1-4).

    * One wound: it meets the Sv 3+ model, killing it with 3/6.
    * Two wounds, dice sorted a <= b: a kills the first model iff a <= 3, then b kills
      the second iff b <= 4.  If a >= 4 then b >= 4 too, and the first model saves both.
      P(2 killed) = P(max <= 4) - P(a = b = 4) = 16/36 - 1/36 = 15/36;
      P(>= 1 killed) = P(min <= 3) = 1 - 9/36 = 27/36, so P(1 killed) = 12/36.
    * Resolved in the order rolled instead, P(2 killed) = 3/6 * 4/6 = 12/36 and
      P(1 killed) = 15/36: sorting matters.

    Hence, sorted: P(2) = p^2 * 15/36; P(1) = 2p(1-p) * 1/2 + p^2 * 12/36.
    """
    p = Fraction(25, 36)
    two, one = p * p, 2 * p * (1 - p)
    weapons = [(gun(skill=2, strength=8, ap=-1), 2)]
    target = unit(models(1, 3, 1), models(1, 4, 1))
    sorted_want = {2: two * Fraction(15, 36), 1: one / 2 + two * Fraction(12, 36)}
    sorted_want[0] = 1 - sorted_want[1] - sorted_want[2]
    rolled_want = {2: two * Fraction(12, 36), 1: one / 2 + two * Fraction(15, 36)}
    rolled_want[0] = 1 - rolled_want[1] - rolled_want[2]

    assert exact(oracle_attack(weapons, target).killed) == sorted_want
    assert exact(oracle_attack(weapons, target, sort_saves=False).killed) == rolled_want
    assert_pmf(mh.attack(weapons, target).killed.probabilities, sorted_want)


def test_oracle_hand_derived_fnp_excess_damage() -> None:
    """A1, BS 2+, S8 vs T4 (2+), AP -4, D3 into one W1 model with Sv 5+ and FNP 5+.

    The attack hits and wounds with 5/6 * 5/6 = 25/36.  The save needs a natural 9
    (roll - 4 >= 5), so it always fails: P(unsaved) = 25/36.  FNP rolls one D6 per
    wound of the attack (three dice); the W1 model survives only if all three pass,
    (2/6)^3 = 1/27.  P(killed) = 25/36 * 26/27, and the wounds lost are capped at 1.
    """
    weapon = gun(skill=2, strength=8, ap=-4, damage=3)
    target = unit(models(1, 5, 1, fnp=5))
    want = oracle_attack(weapon, target)
    p_kill = Fraction(25, 36) * Fraction(26, 27)
    assert exact(want.killed) == {0: 1 - p_kill, 1: p_kill}
    assert exact(want.damage) == {0: 1 - p_kill, 1: p_kill}
    assert exact(want.pools[0].unsaved) == {0: Fraction(11, 36), 1: Fraction(25, 36)}


# --------------------------------------------------------------------------- engine vs oracle


@pytest.mark.parametrize("scenario_id", _params())
def test_killed_matches_oracle(scenario_id: str) -> None:
    got, want = _run(scenario_id)
    assert_pmf(got.killed.probabilities, want.killed, "killed")
    assert got.p_destroyed == pytest.approx(float(want.p_destroyed), rel=0, abs=ATOL)


@pytest.mark.parametrize("scenario_id", _params())
def test_damage_matches_oracle(scenario_id: str) -> None:
    got, want = _run(scenario_id)
    assert_pmf(got.damage.probabilities, want.damage, "damage")


@pytest.mark.parametrize("scenario_id", _params())
def test_groups_match_oracle(scenario_id: str) -> None:
    got, want = _run(scenario_id)
    target = BY_ID[scenario_id].target
    assert len(got.groups) == len(want.groups)
    for i, g in enumerate(target.groups):
        assert_pmf(got.groups[i].killed.probabilities, want.groups[i], f"group {i}")
        if g.name:
            assert_pmf(
                got.killed_in(g.name).probabilities, want.groups[i], f"killed_in({g.name!r})"
            )


@pytest.mark.parametrize("scenario_id", _params())
def test_pool_stages_match_oracle(scenario_id: str) -> None:
    got, want = _run(scenario_id)
    assert len(got.pools) == len(want.pools)
    for j, (g, w) in enumerate(zip(got.pools, want.pools, strict=True)):
        for stage in ("attacks", "hits", "wounds", "unsaved", "killed"):
            assert_pmf(getattr(g, stage).probabilities, getattr(w, stage), f"pool {j} {stage}")


#: (S, T) pairs covering every rung of the wound ladder, both sides of each boundary.
LADDER = [(8, 4), (7, 4), (5, 4), (4, 4), (3, 4), (2, 4), (4, 7), (4, 8), (1, 1), (3, 6)]


@pytest.mark.parametrize(
    ("strength", "toughness"),
    LADDER,
    ids=[f"S{s}-T{t}" for s, t in LADDER],
)
@pytest.mark.parametrize("skill", [2, 4, 6], ids=lambda s: f"BS{s}+")
def test_hit_and_wound_ladder(skill: int, strength: int, toughness: int) -> None:
    """Hits and wounds for every rung of the S-vs-T ladder and several BS values."""
    weapons = [(gun(skill=skill, strength=strength), 3)]
    target = unit(models(2, 7, 1, toughness=toughness))
    got, want = mh.attack(weapons, target), oracle_attack(weapons, target)
    for stage in ("attacks", "hits", "wounds", "unsaved"):
        assert_pmf(getattr(got.pools[0], stage).probabilities, getattr(want.pools[0], stage), stage)
    assert_pmf(got.killed.probabilities, want.killed, "killed")


# --------------------------------------------------------------------------- why order matters

SORTING_CASES = [
    pytest.param(
        [(gun(skill=2, strength=8, ap=-1), 3)],
        unit(models(1, 3, 1), models(2, 4, 1)),
        id="Sv3-then-Sv4-AP1",
    ),
    pytest.param(
        [(gun(skill=2, strength=8, ap=-1), 3)],
        unit(models(1, 4, 1), models(1, 3, 1), models(1, 5, 1)),
        id="Sv4-Sv3-Sv5-AP1",
    ),
    pytest.param(
        [(gun(skill=2, strength=8, ap=-3, damage=2), 4)],
        unit(models(2, 3, 2), CAPTAIN),
        id="char-InSv4-behind-Sv3",
    ),
]


@pytest.mark.parametrize(("weapons", "target"), SORTING_CASES)
def test_engine_resolves_saves_lowest_to_highest(weapons: Any, target: Unit) -> None:
    """Sorting the save dice changes the answer against mixed groups; the engine sorts."""
    sorted_saves = oracle_attack(weapons, target)
    rolled_order = oracle_attack(weapons, target, sort_saves=False)
    assert exact(sorted_saves.killed) != exact(rolled_order.killed)
    got = mh.attack(weapons, target)
    assert pmf_close(got.killed.probabilities, sorted_saves.killed)
    assert not pmf_close(got.killed.probabilities, rolled_order.killed)
    for i in range(len(target.groups)):
        assert_pmf(got.groups[i].killed.probabilities, sorted_saves.groups[i], f"group {i}")


def test_sorting_is_irrelevant_against_one_group() -> None:
    """With one group, one save and fixed damage, every save die is alike: order cannot matter."""
    weapons = [(gun(skill=3, strength=5, ap=-1), 4)]
    target = unit(models(3, 3, 1))
    a = oracle_attack(weapons, target)
    b = oracle_attack(weapons, target, sort_saves=False)
    assert exact(a.killed) == exact(b.killed)


# --------------------------------------------------------------------------- why pooling matters

POOLING_CASES = [
    pytest.param(
        gun(skill=2, strength=8, ap=-1), 2, 1, unit(models(1, 3, 1), models(1, 4, 1)), id="2-as-1+1"
    ),
    pytest.param(
        gun(skill=3, strength=8, ap=-1), 4, 2, unit(models(2, 3, 1), models(2, 4, 1)), id="4-as-2+2"
    ),
    pytest.param(
        gun(skill=2, strength=8, ap=-3, damage=2),
        4,
        2,
        unit(models(1, 3, 2), CAPTAIN),
        id="char-4-as-2+2",
    ),
]


@pytest.mark.parametrize(("weapon", "count", "first", "target"), POOLING_CASES)
def test_pooling_changes_the_answer(weapon: Weapon, count: int, first: int, target: Unit) -> None:
    """The same dice as one pool and as two pools differ against a mixed unit.

    The engine, given identical weapons, pools them (and matches the pooled oracle);
    given the same profile split by a maths-neutral ability ([ASSAULT]), it makes two
    pools and matches the two-pool oracle.
    """
    pooled = oracle_attack([(weapon, count)], target)
    split = oracle_pools([[(weapon, first)], [(weapon, count - first)]], target)
    assert exact(pooled.killed) != exact(split.killed)

    got = mh.attack([(weapon, first), (weapon, count - first)], target)
    assert len(got.pools) == 1
    assert_pmf(got.killed.probabilities, pooled.killed, "pooled killed")
    assert not pmf_close(got.killed.probabilities, split.killed)

    twin = Weapon(
        weapon.name,
        weapon.attacks,
        weapon.skill,
        weapon.strength,
        weapon.ap,
        weapon.damage,
        "[ASSAULT]",
    )
    got_split = mh.attack([(weapon, first), (twin, count - first)], target)
    assert len(got_split.pools) == 2
    assert_pmf(got_split.killed.probabilities, split.killed, "split killed")


def test_pooling_is_irrelevant_for_the_hit_and_wound_stages() -> None:
    """Pooling only matters at allocation: the wounds of two pools add up like one pool."""
    weapon = gun(skill=3, strength=5, ap=-1)
    pooled = oracle_attack([(weapon, 4)], unit(models(2, 3, 1), models(2, 4, 1)))
    split = oracle_pools([[(weapon, 2)], [(weapon, 2)]], unit(models(2, 3, 1), models(2, 4, 1)))
    convolved: dict[int, Fraction] = {}
    for a, p in split.pools[0].wounds.items():
        for b, q in split.pools[1].wounds.items():
            convolved[a + b] = convolved.get(a + b, Fraction(0)) + p * q
    assert exact(convolved) == exact(pooled.pools[0].wounds)
