"""Duplicated abilities selected by the stated metric (docs/rules.md §3.2, D15: the player
selects which instance applies), evaluated exactly.

Each choice is checked against the attacks of every selection made by hand (the weapon
with only that instance), and the selected attack against the brute-force oracle.
"""

from __future__ import annotations

import pytest
from oracle import assert_pmf, oracle_attack
from statcheck import assert_matches

import mathhammer as mh
from mathhammer.decisions.choices import MAX_SELECTIONS

SQUAD = mh.Unit.of("Squad", 5, 4, 3, 1)
BOTH = mh.Weapon("Gun", 1, 3, 4, 0, 1, "[SUSTAINED HITS D3], [SUSTAINED HITS 2]")
D3 = mh.Weapon("Gun", 1, 3, 4, 0, 1, "[SUSTAINED HITS D3]")
TWO = mh.Weapon("Gun", 1, 3, 4, 0, 1, "[SUSTAINED HITS 2]")


@pytest.mark.parametrize(
    ("metric", "key"),
    [
        ("mean_killed", lambda r: (r.killed.mean(), r.p_destroyed)),
        ("p_destroyed", lambda r: (r.p_destroyed, r.killed.mean())),
        ("mean_damage", lambda r: (r.damage.mean(), r.p_destroyed)),
        ("killed", lambda r: (r.killed.mean(), r.p_destroyed)),
        ("destroyed", lambda r: (r.p_destroyed, r.killed.mean())),
        ("damage", lambda r: (r.damage.mean(), r.p_destroyed)),
    ],
)
def test_the_selection_is_the_best_of_every_selection_made_by_hand(metric: str, key) -> None:  # type: ignore[no-untyped-def]
    for count in (3, 10, 14):
        result = mh.attack([(BOTH, count)], SQUAD, metric=metric)
        by_hand = {
            "[SUSTAINED HITS D3]": mh.attack([(D3, count)], SQUAD),
            "[SUSTAINED HITS 2]": mh.attack([(TWO, count)], SQUAD),
        }
        best = max(by_hand, key=lambda k: key(by_hand[k]))
        assert result.killed == by_hand[best].killed, (metric, count)
        assert result.choices[0].startswith(f"Gun: {best} chosen over")
        assert result.pools[0].abilities == (best,)


def test_the_metrics_can_disagree() -> None:
    # ten attacks at five W1 models: the flat 2 gives more models on average, the D3's
    # higher maximum a better chance of wiping the squad
    by_killed = mh.attack([(BOTH, 10)], SQUAD)
    by_destroyed = mh.attack([(BOTH, 10)], SQUAD, metric="p_destroyed")
    assert by_killed.pools[0].abilities == ("[SUSTAINED HITS 2]",)
    assert by_destroyed.pools[0].abilities == ("[SUSTAINED HITS D3]",)
    assert by_killed.killed.mean() > by_destroyed.killed.mean()
    assert by_destroyed.p_destroyed > by_killed.p_destroyed


def test_the_selected_attack_equals_the_oracle() -> None:
    unit = mh.Unit.of("Pair", 2, 4, 4, 1)
    result = mh.attack([(BOTH, 2)], unit)
    chosen = TWO if result.pools[0].abilities == ("[SUSTAINED HITS 2]",) else D3
    want = oracle_attack([(chosen, 2)], unit)
    assert_pmf(result.killed.probabilities, want.killed)
    assert_pmf(result.damage.probabilities, want.damage)


def test_ties_keep_the_stronger_instance_and_say_so() -> None:
    # a torrent weapon never scores a critical hit: the sustained hits are equal
    flamer = mh.Weapon(
        "Flamer", "D6", "N/A", 4, 0, 1, "[TORRENT], [SUSTAINED HITS 1], [SUSTAINED HITS 2]"
    )
    result = mh.attack([(flamer, 2)], SQUAD)
    assert "a tie, so the stronger instance" in result.choices[0]
    assert result.killed == mh.attack([(flamer, 2)], SQUAD, metric="ranking").killed


def test_keyword_restricted_instances_are_chosen_only_where_they_apply() -> None:
    hunter = mh.Weapon("Hunter", 2, 3, 4, 0, 1, "[SUSTAINED HITS 1], [SUSTAINED HITS 2: VEHICLE]")
    assert mh.attack([(hunter, 5)], SQUAD).choices == ()  # one instance applies to infantry
    tank = mh.Unit.of("Tank", 1, 4, 3, 12, keywords="VEHICLE")
    assert (
        mh.attack([(hunter, 5)], tank).choices[0].startswith("Hunter: [SUSTAINED HITS 2: VEHICLE]")
    )


def test_several_weapons_choose_jointly_and_mortal_wounds_stay() -> None:
    lethal = mh.Weapon(
        "Other", 1, 3, 4, 0, 1, "[ANTI-INFANTRY 4+], [ANTI-INFANTRY 5+], [LETHAL HITS]"
    )
    infantry = mh.Unit.of("Inf", 10, 4, 4, 1, keywords="INFANTRY")
    result = mh.attack([(BOTH, 5), (lethal, 5), mh.MortalWounds(1)], infantry)
    assert len(result.pools) == 3 and result.pools[2].label == "Mortal wounds 1"
    assert "Gun: " in result.choices[0] and "Other: [ANTI-INFANTRY 4+]" in result.choices[0]


def test_the_monte_carlo_takes_the_ranking() -> None:
    exact = mh.attack([(BOTH, 10)], SQUAD, metric="ranking")
    rolled = mh.simulate([(BOTH, 10)], SQUAD, trials=40_000, rng=3)
    assert_matches("ranking", exact.killed, rolled.killed, 40_000)


def test_too_many_selections_fall_back_to_the_ranking() -> None:
    weapons = [
        (mh.Weapon(f"Gun {i}", 1, 3, 4, 0, 1, "[SUSTAINED HITS D3], [SUSTAINED HITS 2]"), 1)
        for i in range(7)  # 2**7 selections
    ]
    assert MAX_SELECTIONS < 2**7
    result = mh.attack(weapons, SQUAD)
    assert result.choices and "fixed ranking" in result.choices[0]
    assert result.killed == mh.attack(weapons, SQUAD, metric="ranking").killed


def test_an_unknown_metric_is_refused() -> None:
    with pytest.raises(mh.OptionError, match="metric must be one of .*'ranking'"):
        mh.attack([(BOTH, 1)], SQUAD, metric="best")
    with pytest.raises(mh.OptionError, match="metric must be one of"):
        mh.attack([(D3, 1)], SQUAD, metric="best")  # refused even without a choice
    with pytest.raises(mh.OptionError, match="metric must be a metric"):
        mh.attack([(D3, 1)], SQUAD, metric=[])  # type: ignore[arg-type]
    with pytest.raises(mh.OptionError, match="did you mean 'p_destroyed'"):
        mh.attack([(BOTH, 1)], SQUAD, metric="p_destroy")
