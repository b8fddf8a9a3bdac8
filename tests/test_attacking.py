"""A unit's attacks across several targets: selection rules, splits, pooling, joint results."""

from __future__ import annotations

import math
import re
import zlib
from fractions import Fraction as F

import numpy as np
import pytest

import mathhammer as mh

ATOL = 1e-12

BOLTER = mh.Weapon("Bolter", 2, 3, 4, 0, 1)
PLASMA = mh.Weapon("Plasma", 1, 3, 7, -2, 2)
PISTOL = mh.Weapon("Pistol", 1, 3, 4, 0, 1, "[PISTOL]")
KNIFE = mh.Weapon("Knife", 2, 3, 4, 0, 1, melee=True)
AXE = mh.Weapon("Axe", 4, 3, 5, -1, 1, melee=True)
FIST = mh.Weapon("Fist", 3, 2, 8, -2, 2, melee=True)
TAIL = mh.Weapon("Tail", 1, 3, 4, 0, 1, "[EXTRA ATTACKS]", melee=True)
CLAWS = mh.Weapon("Claws", "D3", 3, 4, 0, 1, melee=True)

SQUAD = mh.Attacker(
    "Squad",
    [
        mh.Models(4, [BOLTER, PISTOL, KNIFE], name="Troopers"),
        mh.Models(1, [PLASMA, PISTOL, FIST, TAIL], name="Leader"),
    ],
)
WALKER = mh.Attacker("Walker", [mh.Models(1, [BOLTER, PISTOL], keywords="VEHICLE")])

# targets where every wound goes through: no save, W1
A = mh.Unit.of("A", 3, 4, 7, 1)
B = mh.Unit.of("B", 1, 4, 7, 1)
C = mh.Unit.of("C", 2, 4, 7, 1)


def fight(attacker: mh.Attacker, uses: list[mh.Use]) -> mh.UnitAttackResult:
    return mh.resolve(attacker, uses, phase="fight")


# --- selection rules ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("attacker", "uses", "phase", "message"),
    [
        (
            SQUAD,
            [mh.Use("Troopers", "Knife", A)],
            "shooting",
            "'Troopers' cannot shoot with the melee weapon 'Knife'",
        ),
        (
            SQUAD,
            [mh.Use("Troopers", "Bolter", A)],
            "fight",
            "'Troopers' cannot fight with the ranged weapon 'Bolter'",
        ),
        (
            SQUAD,
            [mh.Use("Troopers", "Bolter", A), mh.Use("Troopers", "Pistol", B)],
            "shooting",
            "'Troopers': a model fires either its [PISTOL]/[CLOSE-QUARTERS] weapons (Pistol) or "
            "its other weapons (Bolter), not both; 4 + 4 models declared for 4",
        ),
        (
            SQUAD,
            [mh.Use("Troopers", "Knife", A, count=3)],
            "fight",
            "'Troopers': each model fights with exactly one melee weapon (plus its [EXTRA "
            "ATTACKS] weapons); 3 declared for 4 models (Knife)",
        ),
        (
            SQUAD,
            [mh.Use("Troopers", "Knife", A), mh.Use("Leader", "Tail", A)],
            "fight",
            "'Leader': each model fights with exactly one melee weapon",
        ),
        (
            SQUAD,
            [mh.Use("Troopers", "Bolter", A), mh.Use("Troopers", "Bolter", B, count=1)],
            "shooting",
            "'Troopers': 5 uses of 'Bolter' declared for 4 models",
        ),
        (
            SQUAD,
            [mh.Use("Troopers", "Lascannon", A)],
            "shooting",
            "weapon of 'Troopers' must be one of ['Bolter', 'Pistol', 'Knife']; got 'Lascannon'",
        ),
        (
            SQUAD,
            [mh.Use("Elders", "Bolter", A)],
            "shooting",
            "Use.models must be one of ['Troopers', 'Leader']; got 'Elders'",
        ),
        (
            SQUAD,
            [mh.Use("Troopers", "Bolter", A, count=5)],
            "shooting",
            "Use.count for 'Troopers' must be from 1 to 4; got 5",
        ),
        (
            SQUAD,
            [mh.Use("Troopers", "Bolter", split={A: 1, B: 1})],
            "shooting",
            "'Troopers': only melee attacks can be split across targets",
        ),
        (
            SQUAD,
            [mh.Use("Leader", "Fist", split={A: 1, B: 1})],
            "fight",
            "'Leader': the split of 'Fist' must use all its 3 attacks; got 2",
        ),
        (
            mh.Attacker("X", [mh.Models(1, [CLAWS])]),
            [mh.Use(0, "Claws", split={A: 1, B: 1})],
            "fight",
            "'Claws' has random attacks (D3); a random A cannot be split across targets",
        ),
        (
            mh.Attacker("X", [mh.Models(1, [KNIFE])]),
            [mh.Use(0, "Knife", split={A: 1, B: 1, C: 1})],
            "fight",
            "'Knife' (A2) cannot split across 3 targets",
        ),
        (SQUAD, [mh.Use("Troopers", "Bolter", A)], "charging", "phase must be one of"),
        (SQUAD, [], "shooting", "uses must be at least one Use"),
    ],
)
def test_selection_errors(
    attacker: mh.Attacker, uses: list[mh.Use], phase: str, message: str
) -> None:
    kind = mh.OptionError if message.startswith("phase") else mh.ProfileError
    with pytest.raises(kind, match=re.escape(message)):
        mh.resolve(attacker, uses, phase=phase)
    with pytest.raises(kind, match=re.escape(message)):
        mh.simulate_uses(attacker, uses, phase=phase, trials=10)


def test_declaration_errors() -> None:
    with pytest.raises(mh.ProfileError, match="Use needs a target= or a split="):
        mh.Use("Troopers", "Knife")
    with pytest.raises(mh.ProfileError, match=re.escape("Use.split['A'] must be an integer >= 1")):
        mh.Use("Leader", "Fist", split={A: 0, B: 3})
    with pytest.raises(mh.ProfileError, match="Models.weapons must be weapons with distinct names"):
        mh.Models(2, [BOLTER, BOLTER])


def test_legal_selections() -> None:
    # some troopers fire pistols while the others fire bolters; a VEHICLE fires both
    mh.resolve(
        SQUAD, [mh.Use("Troopers", "Bolter", A, count=3), mh.Use("Troopers", "Pistol", B, count=1)]
    )
    mh.resolve(WALKER, [mh.Use(0, "Bolter", A), mh.Use(0, "Pistol", B)])
    # extra attacks come on top of the one melee weapon
    fight(
        SQUAD,
        [mh.Use("Troopers", "Knife", A), mh.Use("Leader", "Fist", B), mh.Use("Leader", "Tail", B)],
    )


# --- splits, destroyed targets, pooling -------------------------------------------------

P = F(4, 6) * F(3, 6)  # BS3+, S4 vs T4, no save: one attack kills a W1 model


def test_small_split_by_hand() -> None:
    knife = mh.Attacker("Knife", [mh.Models(1, [KNIFE])])
    res = fight(knife, [mh.Use(0, "Knife", split={B: 1, C: 1})])
    assert res.targets == ("B", "C")
    assert abs(res["B"].p_destroyed - float(P)) <= ATOL
    assert abs(res["C"].killed.mean() - float(P)) <= ATOL
    assert abs(res.p_all_destroyed - float(P * 0)) <= ATOL  # C has two models
    assert abs(res.p_any_destroyed - float(P)) <= ATOL
    assert abs(res.expected_killed - float(2 * P)) <= ATOL


def test_surplus_attacks_on_a_destroyed_target_are_lost() -> None:
    # three of the Fist's attacks at one W1 model: it dies once; the surplus is wasted,
    # it does not carry over to the other target
    fist = mh.Attacker("Fist", [mh.Models(1, [FIST])])
    res = fight(fist, [mh.Use(0, "Fist", split={B: 2, C: 1})])
    p = F(5, 6) * F(5, 6)  # WS2+, S8 vs T4 (2+), no save
    assert abs(res["B"].p_destroyed - float(1 - (1 - p) ** 2)) <= ATOL
    assert res["B"].killed.n == 1 and res["B"].damage.support()[1] == 1
    assert abs(res["C"].killed.mean() - float(p)) <= ATOL
    joint = (1 - (1 - p) ** 2) * 0  # C (two models) cannot die to one attack
    assert abs(res.p_all_destroyed - float(joint)) <= ATOL


def test_pooling_across_models_and_weapons_per_target() -> None:
    res = mh.resolve(SQUAD, [mh.Use("Troopers", "Pistol", A), mh.Use("Leader", "Pistol", A)])
    assert [p.label for p in res["A"].pools] == ["Pistol x4 + Pistol"]
    direct = mh.attack([(PISTOL, 5)], A)
    np.testing.assert_allclose(
        res["A"].killed.probabilities, direct.killed.probabilities, atol=ATOL
    )
    # the same dice at two targets are two independent attacks
    split = mh.resolve(SQUAD, [mh.Use("Troopers", "Pistol", A), mh.Use("Leader", "Pistol", B)])
    assert [p.label for p in split["A"].pools] == ["Pistol x4"]
    np.testing.assert_allclose(
        split["B"].killed.probabilities, mh.attack(PISTOL, B).killed.probabilities, atol=ATOL
    )
    assert split.p_all_destroyed == pytest.approx(
        split["A"].p_destroyed * split["B"].p_destroyed, abs=ATOL
    )


def test_results_equal_direct_attacks_in_declaration_order() -> None:
    uses = [mh.Use("Troopers", "Bolter", A), mh.Use("Leader", "Plasma", A)]
    res = mh.resolve(SQUAD, uses)
    direct = mh.attack([(BOLTER, 4), PLASMA], A)
    np.testing.assert_allclose(
        res["A"].killed.probabilities, direct.killed.probabilities, atol=ATOL
    )
    assert res["A"].pools[0].label == "Bolter x4"


def test_cleave_is_lost_when_split() -> None:
    cleaver = mh.Weapon("Cleaver", 2, 3, 4, 0, 1, "[CLEAVE 1]", melee=True)
    ten = mh.Unit.of("Ten", 10, 4, 7, 1)
    one = mh.Attacker("One", [mh.Models(1, [cleaver])])
    whole = fight(one, [mh.Use(0, "Cleaver", ten)])
    assert whole["Ten"].pools[0].attacks.support() == (4, 4)  # +1 per full 5 models
    split = fight(one, [mh.Use(0, "Cleaver", split={ten: 1, B: 1})])
    assert split["Ten"].pools[0].attacks.support() == (1, 1)


def test_summary_table() -> None:
    res = mh.resolve(SQUAD, [mh.Use("Troopers", "Bolter", A), mh.Use("Leader", "Plasma", B)])
    table = res.summary()
    assert list(table.index) == ["A", "B"]
    assert table.loc["A", "mean_killed"] == pytest.approx(res["A"].killed.mean(), abs=ATOL)
    html = res._repr_html_()
    assert "<svg" in html and f"{res['A'].killed.mean():.3f}" in html
    assert "P(all destroyed)" in repr(res)


# --- Monte Carlo ------------------------------------------------------------------------


def test_monte_carlo_agrees_on_a_split() -> None:
    uses = [
        mh.Use("Troopers", "Knife", split={A: 1, C: 1}),
        mh.Use("Leader", "Fist", split={B: 1, C: 2}),
    ]
    exact = fight(SQUAD, uses)
    trials = 60_000
    sim = mh.simulate_uses(SQUAD, uses, phase="fight", trials=trials, rng=zlib.crc32(b"split"))
    for name in exact.targets:
        e, s = exact[name], sim[name]
        assert abs(s.killed.mean() - e.killed.mean()) <= 5 * e.killed.std() / math.sqrt(trials)
    for got, want in [
        (sim.p_all_destroyed, exact.p_all_destroyed),
        (sim.p_any_destroyed, exact.p_any_destroyed),
    ]:
        assert abs(got - want) <= 5 * math.sqrt(want * (1 - want) / trials)


# --- best splits ------------------------------------------------------------------------


def test_best_splits_enumerates_and_ranks() -> None:
    axe = mh.Models(1, [AXE])
    table = mh.best_splits(axe, "Axe", [A, B])
    assert len(table) == 3  # (1, 3), (2, 2), (3, 1)
    assert sorted(zip(table["A"], table["B"], strict=True)) == [(1, 3), (2, 2), (3, 1)]
    assert list(table["metric"]) == sorted(table["metric"], reverse=True)
    for _, row in table.iterrows():
        res = fight(
            mh.Attacker("Axe", [axe]),
            [mh.Use(0, "Axe", split={A: int(row["A"]), B: int(row["B"])})],
        )
        assert row["expected killed"] == pytest.approx(res.expected_killed, abs=ATOL)
    three = mh.best_splits(axe, "Axe", [A, B, C], metric="P(destroyed) B")
    assert len(three) == math.comb(3, 2)
    assert three.iloc[0]["B"] == 2  # as many as the split allows at B
    with pytest.raises(mh.OptionError, match="metric must be"):
        mh.best_splits(axe, "Axe", [A, B], metric="most fun")
    with pytest.raises(mh.ProfileError, match="targets must be two or three Units"):
        mh.best_splits(axe, "Axe", [A])


def test_a_split_hazardous_weapon_rolls_its_hazard_once() -> None:
    flail = mh.Weapon("Flail", 2, 3, 4, 0, 1, "[HAZARDOUS]", melee=True)
    res = fight(mh.Attacker("F", [mh.Models(3, [flail])]), [mh.Use(0, "Flail", split={A: 1, B: 1})])
    # three models, one hazard roll each: 1/3 to fail
    assert res["A"].hazardous.mean() == pytest.approx(1.0, abs=ATOL)
    assert res["B"].hazardous.mean() == 0
