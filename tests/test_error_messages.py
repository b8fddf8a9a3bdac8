"""Invalid input to the public constructors: each error names the field, the constraint and
the value, and is both a ``MathhammerError`` and a ``ValueError``."""

from __future__ import annotations

import json
import re
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import mathhammer as mh
from mathhammer import targets
from mathhammer.abilities import Ability, Anti, LethalHits, choose, parse_abilities, split_abilities
from mathhammer.core.dist import Dist, binomial_table

GUN = mh.Weapon("Gun", 2, 3, 4, 0, 1)


def resolve(found: Sequence[Ability], keywords: list[str]) -> dict[str, Ability]:
    """The abilities that apply against the target: the chosen instance of each kind."""
    return {a.kind: a for a in choose(found, keywords)}


KNIFE = mh.Weapon("Knife", 2, 3, 4, 0, 1, melee=True)
GRUNTS = mh.Unit.of("Grunts", 10, 3, 6, 1)
BOSS = mh.Unit.of("Boss", 1, 5, 3, 3)


def untyped(value: object) -> Any:
    """A value of the wrong type, given on purpose."""
    return value


def raises(make: Callable[[], object], message: str) -> None:
    with pytest.raises(mh.MathhammerError, match=re.escape(message)) as info:
        make()
    assert isinstance(info.value, ValueError)


# --- profiles --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (
            lambda: mh.Unit.of("X", 1, 4, 3, 1, keywords=untyped(["INFANTRY", 3])),
            "keywords must be strings; got 3",
        ),
        (
            lambda: mh.Weapon("Gun", 1, 3, 4, 0, 1, melee=untyped("yes")),
            "Weapon.melee must be True or False; got 'yes'",
        ),
        (
            lambda: mh.ModelGroup(1, 4, 3, 1, halve_damage=untyped(1)),
            "ModelGroup.halve_damage must be True or False; got 1",
        ),
        (
            lambda: mh.Unit(untyped(3), [mh.ModelGroup(1, 4, 3, 1)]),
            "Unit.name must be a string; got 3",
        ),
        (
            lambda: mh.Unit("X", [mh.ModelGroup(1, 4, 3, 1)], stealth=untyped("no")),
            "Unit.stealth must be True or False; got 'no'",
        ),
    ],
)
def test_profile_flags_and_names(make: Callable[[], object], message: str) -> None:
    raises(make, message)


def test_numpy_booleans_are_plain_booleans_once_stored() -> None:
    weapon = mh.Weapon("Axe", 1, 3, 4, 0, 1, melee=untyped(np.bool_(True)))
    unit = mh.Unit(
        "X", [mh.ModelGroup(1, 4, 3, 2, halve_damage=untyped(np.True_))], stealth=untyped(np.True_)
    )
    assert weapon.melee is True
    assert unit.stealth is True and unit.groups[0].halve_damage is True


# --- attacking units and declarations ----------------------------------------------------


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: mh.Models(0, [GUN]), "Models.count must be an integer >= 1; got 0"),
        (lambda: mh.Models(True, [GUN]), "Models.count must be an integer >= 1; got True"),
        (lambda: mh.Models(untyped(2.0), [GUN]), "Models.count must be an integer >= 1; got 2.0"),
        (lambda: mh.Models(1, []), "Models.weapons must be one or more Weapons; got []"),
        (
            lambda: mh.Models(1, untyped(["Gun"])),
            "Models.weapons must be one or more Weapons; got ['Gun']",
        ),
        (lambda: mh.Attacker("X", []), "Attacker.models must be one or more Models; got []"),
        (
            lambda: mh.Attacker("X", [mh.Models(1, [GUN]), mh.Models(2, [GUN])]),
            "Attacker.models must be distinct names; got ['Gun', 'Gun']",
        ),
        (lambda: mh.Use(0, "Gun", untyped("Grunts")), "Use.target must be a Unit; got 'Grunts'"),
        (
            lambda: mh.Use(0, "Knife", split=untyped({"Grunts": 1, BOSS: 1})),
            "Use.split must be Unit keys; got 'Grunts'",
        ),
    ],
)
def test_declaration_inputs(make: Callable[[], object], message: str) -> None:
    raises(make, message)


def test_resolve_takes_only_use_declarations() -> None:
    squad = mh.Attacker("Squad", [mh.Models(2, [GUN])])
    with pytest.raises(mh.ProfileError, match=re.escape("uses must be Use declarations")):
        mh.resolve(squad, [mh.Use(0, "Gun", GRUNTS), untyped(("Gun", GRUNTS))])


def test_a_split_naming_one_target_twice_is_refused() -> None:
    fighter = mh.Attacker("F", [mh.Models(1, [KNIFE])])
    twice = mh.Use(0, "Knife", split=[(GRUNTS, 1), (GRUNTS, 1)])
    with pytest.raises(mh.ProfileError, match="the split of 'Knife' names a target twice"):
        mh.resolve(fighter, [twice], phase="fight")


def test_two_different_targets_may_not_share_a_name() -> None:
    other = mh.Unit.of("Grunts", 5, 4, 3, 2)
    squad = mh.Attacker("Squad", [mh.Models(2, [GUN])])
    uses = [mh.Use(0, "Gun", GRUNTS, count=1), mh.Use(0, "Gun", other, count=1)]
    with pytest.raises(mh.ProfileError, match="two different targets are named 'Grunts'"):
        mh.resolve(squad, uses)
    # the same unit named twice is one target with two pools
    same = mh.resolve(squad, [mh.Use(0, "Gun", GRUNTS, count=1), mh.Use(0, "Gun", GRUNTS, count=1)])
    assert list(same.results) == ["Grunts"]
    assert same["Grunts"].killed == mh.attack([(GUN, 1), (GUN, 1)], GRUNTS).killed


def test_a_unit_result_names_its_targets() -> None:
    squad = mh.Attacker("Squad", [mh.Models(2, [GUN])])
    result = mh.resolve(squad, [mh.Use(0, "Gun", GRUNTS)])
    assert result[GRUNTS] is result["Grunts"]
    raises(lambda: result["Boss"], "target must be one of ['Grunts']; got 'Boss'")


# --- best splits -------------------------------------------------------------------------


def test_best_splits_by_every_named_metric_and_a_function() -> None:
    axe = mh.Models(1, [mh.Weapon("Axe", 2, 3, 5, -1, 1, melee=True)])
    lone, pair = mh.Unit.of("Lone", 1, 3, 6, 1), mh.Unit.of("Pair", 1, 4, 5, 1)
    even = mh.resolve(
        mh.Attacker("Axe", [axe]), [mh.Use(0, "Axe", split={lone: 1, pair: 1})], phase="fight"
    )
    for metric, want in (
        ("P(all destroyed)", even.p_all_destroyed),
        ("P(any destroyed)", even.p_any_destroyed),
    ):
        table = mh.best_splits(axe, "Axe", [lone, pair], metric=metric)
        assert len(table) == 1  # A2 over two targets: one attack each
        assert table.iloc[0]["metric"] == pytest.approx(want, abs=1e-12)
        assert 0 < want < 1
    # a function of the result ranks the splits: here, fewest models destroyed first
    three = mh.Models(1, [mh.Weapon("Axe", 3, 3, 5, -1, 1, melee=True)])
    table = mh.best_splits(three, "Axe", [GRUNTS, BOSS], metric=lambda r: -r.expected_killed)
    assert list(table["metric"]) == list(-table["expected killed"])
    assert list(table["metric"]) == sorted(table["metric"], reverse=True)


def test_best_splits_refuses_random_attacks() -> None:
    claws = mh.Models(1, [mh.Weapon("Claws", "D3", 3, 4, 0, 1, melee=True)])
    with pytest.raises(mh.ProfileError, match="'Claws' has random attacks"):
        mh.best_splits(claws, "Claws", [GRUNTS, BOSS])


# --- target suites -------------------------------------------------------------------------


def _suite(tmp_path: Path, entry: dict[str, object]) -> Path:
    path = tmp_path / "suite.json"
    path.write_text(json.dumps({"targets": [entry]}))
    return path


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ({"name": "A"}, "targets[0] ('A'): groups must be a non-empty list; got None"),
        ({"name": "A", "groups": []}, "groups must be a non-empty list; got []"),
        ({"name": "A", "groups": [[1, 4, 3, 1]]}, "groups[0] must be an object; got [1, 4, 3, 1]"),
    ],
)
def test_a_suite_entry_needs_its_groups(
    tmp_path: Path, entry: dict[str, object], message: str
) -> None:
    raises(lambda: targets.load(_suite(tmp_path, entry)), message)


def test_a_target_description_is_text() -> None:
    raises(
        lambda: mh.Target(GRUNTS, 100, description=untyped(3)),
        "Target.description must be a string; got 3",
    )


# --- abilities -------------------------------------------------------------------------


def test_an_anti_keyword_cannot_be_blank() -> None:
    raises(lambda: Anti(keyword="  ", threshold=4), "Anti.keyword must be a keyword; got ''")


def test_abilities_given_as_a_list_hold_text_or_typed_abilities() -> None:
    raises(
        lambda: mh.Weapon("Gun", 1, 3, 4, 0, 1, abilities=untyped(["[HEAVY]", 3])),
        "abilities must be text or typed abilities; got 3",
    )
    # each item of a list is one token, its markup stripped
    assert split_abilities(['<a href="#Pistol">pistol</a>', "[ASSAULT]"]) == ("PISTOL", "ASSAULT")


@pytest.mark.parametrize("text", ["[RAPID FIRE 0]", "[SUSTAINED HITS 0]", "[MELTA 0]"])
def test_a_valued_ability_of_zero_is_not_recognised(text: str) -> None:
    assert parse_abilities(text) == ((), (text.strip("[]"),))
    with pytest.warns(mh.UnknownAbilityWarning, match=re.escape(text.strip("[]"))):
        weapon = mh.Weapon("Gun", 1, 3, 4, 0, 1, abilities=text)
    assert weapon.abilities == ()


def test_of_equal_instances_of_an_ability_the_first_applicable_one_is_kept() -> None:
    anyone, vehicles = LethalHits(), LethalHits(keywords=("VEHICLE",))
    assert resolve([vehicles, anyone], ["VEHICLE"])["LETHAL HITS"] is vehicles
    assert resolve([anyone, vehicles], ["VEHICLE"])["LETHAL HITS"] is anyone
    assert resolve([vehicles, anyone], ["INFANTRY"])["LETHAL HITS"] is anyone


# --- distributions -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: binomial_table(3, 1.5), "p must be a probability in [0, 1]; got 1.5"),
        (lambda: binomial_table(3, -0.1), "p must be a probability in [0, 1]; got -0.1"),
        (lambda: binomial_table(-1, 0.5), "nmax must be an integer >= 0; got -1"),
        (lambda: Dist.from_samples([]), "samples must be non-empty; got []"),
        (
            lambda: Dist.mixture([], []),
            "weights must be one weight per distribution (0); got array([], dtype=float64)",
        ),
        (
            lambda: Dist.mixture([0.5, 0.5], [Dist.constant(1)]),
            "weights must be one weight per distribution (1)",
        ),
        (
            lambda: Dist.uniform(0, 2).map(lambda k: k - 1),
            "func(k) must be an integer >= 0; got -1",
        ),
    ],
)
def test_distribution_arguments(make: Callable[[], object], message: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        raises(make, message)


def test_trim_drops_only_trailing_zeros() -> None:
    padded = Dist([0.0, 0.5, 0.0, 0.5, 0.0, 0.0])
    assert padded.trim().probabilities.tolist() == [0.0, 0.5, 0.0, 0.5]
    assert padded.trim().mean() == padded.mean()
    assert Dist.constant(0).trim().probabilities.tolist() == [1.0]


def test_a_distribution_is_never_equal_to_other_types() -> None:
    one = Dist.constant(1)
    assert one != [0.0, 1.0]
    assert one != "D1"
    assert (one == Dist([0.0, 1.0])) is True
