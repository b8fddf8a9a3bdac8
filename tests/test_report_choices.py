"""How a report chooses among a unit's options, and what it leaves out.

The metric that ranks options (issue 12, point 2), the targets a ruleset refuses
(point 12: skipped with a reason rather than failing the run), and the checks of the
options type itself.
"""

from __future__ import annotations

import pickle
from collections.abc import Mapping
from fractions import Fraction
from itertools import permutations, product
from math import comb
from typing import Any

import pytest

import mathhammer as mh
from mathhammer.io.report import SkippedTarget, build_report, usable_targets
from mathhammer.units import alternatives
from mathhammer.units.options import CHOICE_METRICS, AttackOptions, check_metric
from mathhammer.units.targets import Target

# Both auto-hit and wound T4 on 4+ (1/2); the target has no save and two W2 models.
NEEDLE = mh.Weapon("Needle", 1, 2, 4, 0, 1, "[TORRENT]")
HAMMER = mh.Weapon("Hammer", 1, 2, 4, 0, 2, "[TORRENT]")
PAIR = mh.Unit.of("Pair", 2, 4, 7, 2)
UNIT = AttackOptions("Unit", [[(NEEDLE, 6)], [(HAMMER, 3)]], phase="shooting", points=50)


def binomial(n: int, k: int) -> Fraction:
    return Fraction(comb(n, k), 2**n)


# Six needles: X ~ Bin(6, 1/2) wounds, at most 4 lost; a model dies per 2 wounds.
NEEDLE_DAMAGE = sum(min(k, 4) * binomial(6, k) for k in range(7))  # 184/64
NEEDLE_KILLS = sum(min(k, 4) // 2 * binomial(6, k) for k in range(7))  # 79/64
# Three hammers: Y ~ Bin(3, 1/2) wounds of D2, each a model, at most 2.
HAMMER_DAMAGE = sum(2 * min(k, 2) * binomial(3, k) for k in range(4))  # 11/4
HAMMER_KILLS = sum(min(k, 2) * binomial(3, k) for k in range(4))  # 11/8


def test_the_hand_values_rank_the_options_differently() -> None:
    assert NEEDLE_DAMAGE > HAMMER_DAMAGE and NEEDLE_KILLS < HAMMER_KILLS


@pytest.mark.parametrize(
    ("metric", "used", "killed"),
    [
        ("mean_damage", "6x Needle", NEEDLE_KILLS),  # the default
        ("mean_killed", "3x Hammer", HAMMER_KILLS),
        (lambda row: row["p_destroyed"], "3x Hammer", HAMMER_KILLS),  # 1/2 against 22/64
        ("points_destroyed", "6x Needle", NEEDLE_KILLS),  # no points: ranks by damage
    ],
)
def test_the_metric_picks_the_option(metric: object, used: str, killed: Fraction) -> None:
    frame = mh.compare([UNIT], PAIR, metric=metric)  # type: ignore[arg-type]
    assert frame.weapons_used[0] == used
    assert abs(frame.mean_killed[0] - float(killed)) < 1e-12


def test_points_metrics_rank_by_points_where_the_target_has_them() -> None:
    frame = build_report([UNIT], [Target(PAIR, points=100)], metric="points_destroyed")
    assert frame.weapons_used[0] == "3x Hammer"
    assert abs(frame.points_destroyed[0] - 50 * float(HAMMER_KILLS)) < 1e-12
    assert abs(frame.mean_damage[0] - float(HAMMER_DAMAGE)) < 1e-12


@pytest.mark.parametrize("metric", ["sd_killed", "mean_hazard_wounds", "mc_z", "nope"])
def test_a_metric_that_cannot_rank_is_refused_before_any_work(metric: str) -> None:
    with pytest.raises(mh.OptionError, match="metric must be one of"):
        build_report([UNIT], [Target(PAIR)], metric=metric)
    with pytest.raises(mh.OptionError, match="higher must be better"):
        mh.compare([UNIT], PAIR, metric=metric)
    assert "mean_damage" in CHOICE_METRICS and check_metric(len) is len


LASGUN = mh.Weapon("Lasgun", 1, bs=3, strength=3)
GUARD = Target(mh.Unit.of("Guard", 10, 3, 5, 1, keywords="INFANTRY", leadership=7))
TANK = Target(mh.Unit.of("Tank", 1, 7, 3, 10, keywords="VEHICLE", leadership=9))
LEADERLESS = Target(mh.Unit.of("Mob", 10, 3, 6, 1))


def test_classic_skips_the_targets_it_refuses_and_says_why() -> None:
    frame = build_report(
        [mh.Loadout("Guns", [(LASGUN, 10)])], [GUARD, TANK, LEADERLESS], rules="classic"
    )
    assert frame.target.tolist() == ["Guard"]
    skipped = frame.attrs["skipped_targets"]
    assert [s.target for s in skipped] == ["Tank", "Mob"]
    assert str(skipped[0]) == (
        "skipped Tank: target 'Tank' is a VEHICLE: its wound roll is in a section the "
        "rules do not include"
    )
    assert str(skipped[1]) == "skipped Mob: target 'Mob' needs leadership= for its Panic Test"
    kept, listed = usable_targets([GUARD, TANK, LEADERLESS], rules="classic")
    assert kept == [GUARD] and listed == list(skipped)
    assert (
        build_report([mh.Loadout("Guns", [(LASGUN, 10)])], [GUARD], rules="classic").attrs[
            "skipped_targets"
        ]
        == ()
    )


def test_a_ruleset_refusing_every_target_is_an_error_naming_each() -> None:
    with pytest.raises(mh.RulesError, match="refuses every target: Tank: target 'Tank' is a"):
        build_report([mh.Loadout("Guns", [(LASGUN, 10)])], [TANK], rules="classic")
    assert usable_targets([TANK]) == ([TANK], [])  # 11e resolves a vehicle
    assert str(SkippedTarget("X", "why")) == "skipped X: why"


def test_options_are_checked() -> None:
    axe = mh.Weapon("Axe", 3, 3, 5, -1, 1, melee=True)
    with pytest.raises(mh.OptionError, match="AttackOptions.phase must be one of"):
        AttackOptions("U", [[(NEEDLE, 1)]], phase="charge")
    with pytest.raises(mh.ProfileError, match="uses the melee weapon 'Axe' in the shooting"):
        AttackOptions("U", [[(axe, 1)]], phase="shooting")
    with pytest.raises(mh.ProfileError, match="uses the ranged weapon 'Needle' in the fight"):
        AttackOptions("U", [[(NEEDLE, 1)]], phase="fight")
    with pytest.raises(mh.ProfileError, match="options of 'U' must be a list"):
        AttackOptions("U", mh.Loadout("x", NEEDLE), phase="shooting")  # type: ignore[arg-type]
    with pytest.raises(mh.ProfileError, match="options of 'U' must be at least one option"):
        AttackOptions("U", [], phase="shooting")
    twice = AttackOptions("U", [[(NEEDLE, 2)], [(NEEDLE, 2)]], phase="shooting")
    assert [o.name for o in twice.options] == ["2x Needle"]
    other = NEEDLE.replace(strength=5)  # the same name, another profile: both kept
    named = AttackOptions("U", [[(NEEDLE, 2)], [(other, 2)], [(other, 1)]], phase="shooting")
    assert [o.name for o in named.options] == ["2x Needle", "2x Needle #2", "1x Needle"]
    clash = [mh.Loadout("a", [(NEEDLE, 1)]), mh.Loadout("a", [(NEEDLE, 2)])]
    clash.append(mh.Loadout("a", [(NEEDLE, 3)]))
    assert [o.name for o in AttackOptions("U", clash, "shooting").options] == ["a", "a #2", "a #3"]
    assert pickle.loads(pickle.dumps(UNIT)) == UNIT
    used = UNIT.declaration(UNIT.options[1])
    assert (used.name, used.points, used.weapons) == ("3x Hammer", 50, ((HAMMER, 3),))


def test_options_of_the_same_weapons_by_value_are_attacked_once() -> None:
    # Four guns, each "Needle" or "Hammer" under its own name: 16 options. Their pools by
    # value are the first gun's profile, then the other (if any) with its count: with the
    # first a Needle, 0-3 of the other three are Hammers (4 options of value), and as many
    # with the first a Hammer: 8 attacks, the best of them the first of its kind.
    def gun(k: int, weapon: mh.Weapon) -> mh.Weapon:
        return weapon.replace(name=f"Gun #{k}: {weapon.name}")

    swaps = list(product([NEEDLE, HAMMER], repeat=4))
    unit = AttackOptions(
        "Swaps", [[(gun(k, w), 1) for k, w in enumerate(ws)] for ws in swaps], "shooting"
    )
    assert len(unit.options) == 16
    scored: list[float] = []

    def damage(row: Mapping[str, Any]) -> float:
        scored.append(float(row["mean_damage"]))
        return float(row["mean_damage"])

    choice = mh.units.options.choose(unit, Target(PAIR), metric=damage)
    assert len(scored) == 8
    # brute force: every option attacked, the best, ties to the earliest
    alone = [
        mh.units.options.choose(mh.Loadout(o.name, o.weapons), Target(PAIR)) for o in unit.options
    ]
    means = [c.row["mean_damage"] for c in alone]
    best = max(range(16), key=lambda i: (means[i], -i))
    assert choice.declaration.name == unit.options[best].name
    assert choice.row["mean_damage"] == means[best]
    assert sorted(set(scored)) == sorted(set(means))


def brute_force_greedy(rows: list[int], models: int) -> set[tuple[int, ...]]:
    """Every hand-out of one weapon per model, best-first for every order of the rows."""
    out = set()
    for order in permutations(range(len(rows))):
        left, used = models, [0] * len(rows)
        for k in order:
            used[k] = min(rows[k], left)
            left -= used[k]
        out.add(tuple(used))
    return out


@pytest.mark.parametrize(("counts", "models"), list(product([(3, 2), (1, 1, 1), (4, 1, 2)], [3])))
def test_pooled_fight_tries_every_order_of_up_to_four_rows(
    counts: tuple[int, ...], models: int
) -> None:
    weapons = [mh.Weapon(f"W{k}", 1, 3, 4, 0, 1, melee=True) for k in range(len(counts))]
    options = alternatives.pooled_fight(list(zip(weapons, counts, strict=True)), models)
    got = {tuple(dict((w.name, n) for w, n in o).get(w.name, 0) for w in weapons) for o in options}
    assert got == brute_force_greedy(list(counts), models)


def test_more_rows_try_each_row_first_and_extra_attacks_always_join() -> None:
    weapons = [mh.Weapon(f"W{k}", 1, 3, 4, 0, 1, melee=True) for k in range(6)]
    bite = mh.Weapon("Bite", 1, 3, 4, 0, 1, "[EXTRA ATTACKS]", melee=True)
    options = alternatives.pooled_fight([(w, 1) for w in weapons] + [(bite, 2)], models=1)
    assert [alternatives.describe_weapons(o) for o in options] == [
        f"1x W{k}, 2x Bite" for k in range(6)
    ]
    assert alternatives.fight_sets([[bite]]) == [[bite]]  # only extra attacks
    assert alternatives.shooting_sets([]) == []


def test_past_the_limit_model_types_choose_together() -> None:
    a, b = mh.Weapon("A", 1, 3, 4, 0, 1), mh.Weapon("B", 1, 3, 4, 0, 1, "[PISTOL]")
    types = [(1, [[a], [b]]) for _ in range(6)]  # 2**6 = 64 > MAX_OPTIONS combinations
    options = alternatives.model_options(types)
    assert [alternatives.describe_weapons(o) for o in options] == ["6x A", "6x B"]
    assert len(alternatives.model_options(types[:5])) == 32
