"""One vocabulary for the public API's keywords: ``metric=``, ``rng=``, ``trials=``, ``rules=``.

Every callable of the public namespaces, and every method of their classes, is read with
:func:`inspect.signature`: no parameter may use a spelling the vocabulary replaced, a
``metric`` default must be a name :func:`~mathhammer.results.columns.metric_column`
accepts, and a ``rules`` that is a ruleset is typed by the one alias, ``RulesetLike``.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

import mathhammer as mh
from mathhammer.results.columns import metric_column

NAMESPACES = (
    "mathhammer",
    "mathhammer.io",
    "mathhammer.rules",
    "mathhammer.abilities",
    "mathhammer.targets",
)

#: Spellings the vocabulary replaced, and the word that replaced them.
FORBIDDEN = {
    "choose_by": "metric",
    "by": "metric",
    "rank_by": "metric",
    "sort_by": "metric",
    "check_metric": "metric",
    "goal": "metric",
    "seed": "rng",
    "random_state": "rng",
    "random_seed": "rng",
    "generator": "rng",
    "n_trials": "trials",
    "num_trials": "trials",
    "ntrials": "trials",
    "check_trials": "trials",
    "mc_trials": "trials",
    "n_samples": "trials",
    "iterations": "trials",
}

#: Where ``rules`` is not a ruleset: a unit's own abilities, or the ruleset's name that a
#: result or a state records (the results layer sits below the rulesets).
NOT_A_RULESET = {
    "Unit",
    "Unit.__init__",
    "Detachment",
    "Detachment.__init__",
    "Roster",
    "Roster.__init__",
    "AttackResult",
    "AttackResult.__init__",
    "SimulationResult",
    "SimulationResult.__init__",
    "UnitState",
    "UnitState.__init__",
    "UnitState.initial",
}

#: The one alias of a ruleset, as an annotation reads it.
RULESET_ANNOTATIONS = {"RulesetLike", "RulesetLike | None"}


def _members(cls: type) -> Iterator[tuple[str, Any]]:
    """The public methods of ``cls`` (its own and inherited), and its constructor."""
    yield cls.__name__, cls
    for name in dir(cls):
        if name.startswith("_") and name != "__init__":
            continue
        raw = inspect.getattr_static(cls, name, None)
        if isinstance(raw, property) or raw is None:
            continue
        member = getattr(cls, name, None)
        if callable(member) and not inspect.isclass(member):
            yield f"{cls.__name__}.{name}", member


def _public() -> Iterator[tuple[str, Callable[..., Any]]]:
    """Every public callable once: functions, classes and their methods."""
    seen: set[int] = set()
    for namespace in NAMESPACES:
        module = importlib.import_module(namespace)
        for name in module.__all__:
            obj = getattr(module, name)
            if id(obj) in seen or not callable(obj):
                continue
            seen.add(id(obj))
            yield from _members(obj) if inspect.isclass(obj) else [(name, obj)]


def _parameters() -> list[tuple[str, inspect.Parameter, bool]]:
    """Each parameter of each public signature: where, the parameter, and whether its
    signature also takes ``rng`` (then an ``n`` would count trials)."""
    out: list[tuple[str, inspect.Parameter, bool]] = []
    for where, obj in _public():
        try:
            signature = inspect.signature(obj)
        except (TypeError, ValueError):  # a builtin without a signature
            continue
        random = "rng" in signature.parameters
        out.extend((where, p, random) for p in signature.parameters.values())
    return out


PARAMETERS = _parameters()


def test_the_walk_sees_the_public_signatures() -> None:
    where = {w for w, _, _ in PARAMETERS}
    assert {"attack", "sweep", "compare", "simulate", "plan_army", "build_report"} <= where
    assert len(PARAMETERS) > 500


def test_no_public_parameter_uses_a_replaced_spelling() -> None:
    wrong = [
        f"{where}({p.name}=): say {FORBIDDEN[p.name]}="
        for where, p, _ in PARAMETERS
        if p.name in FORBIDDEN
    ]
    assert not wrong, wrong


def test_no_random_function_counts_trials_by_n() -> None:
    wrong = [where for where, p, random in PARAMETERS if random and p.name == "n"]
    assert not wrong, wrong


def test_every_metric_default_is_a_name_of_the_vocabulary() -> None:
    defaults = [
        (where, p.default)
        for where, p, _ in PARAMETERS
        if p.name == "metric" and isinstance(p.default, str)
    ]
    assert len(defaults) >= 8
    for where, default in defaults:
        assert metric_column(default) == default, where  # a column, not an alias


def test_every_ruleset_is_typed_by_the_one_alias() -> None:
    rulesets = [(w, p) for w, p, _ in PARAMETERS if p.name == "rules" and w not in NOT_A_RULESET]
    assert len(rulesets) >= 15
    wrong = [f"{w}: {p.annotation}" for w, p in rulesets if p.annotation not in RULESET_ANNOTATIONS]
    assert not wrong, wrong


def test_the_own_abilities_say_they_are_not_the_ruleset() -> None:
    for cls in (mh.Unit, mh.Detachment):
        doc = inspect.getdoc(cls) or ""
        assert "rules" in doc and "not the ruleset" in doc, cls.__name__


@pytest.mark.parametrize(
    ("alias", "column"),
    [
        ("killed", "mean_killed"),
        ("expected killed", "mean_killed"),
        ("damage", "mean_damage"),
        ("destroyed", "p_destroyed"),
        ("points", "points_destroyed"),
        ("mean_killed", "mean_killed"),
        ("destroyed:Tank", "p_destroyed:Tank"),
        ("P(destroyed) Tank", "p_destroyed:Tank"),
        ("P(any destroyed)", "at_least:1"),
        ("P(all destroyed)", "at_least:all"),
        ("at_least:2", "at_least:2"),
        ("copies_90", "copies_90"),
        ("p_battle_shock_fail", "p_battle_shock_fail"),
    ],
)
def test_metric_column_resolves_each_alias(alias: str, column: str) -> None:
    assert metric_column(alias) == column


def test_metric_column_refuses_an_unknown_name_with_a_suggestion() -> None:
    with pytest.raises(mh.OptionError, match=r"did you mean 'mean_killed'\?"):
        metric_column("mean_kiled")
    with pytest.raises(mh.OptionError, match="metric must be one of"):
        metric_column("mean_damage", among=("mean_killed", "p_destroyed"))
    with pytest.raises(mh.OptionError, match="at_least"):
        metric_column("at_least:0")
    with pytest.raises(mh.OptionError, match="metric must be"):
        metric_column(3)  # type: ignore[arg-type]


# ---------------------------------------------- the short names give the same numbers
GUN = mh.Weapon("Gun", 1, 3, 4, 0, 1, "[SUSTAINED HITS D3], [SUSTAINED HITS 2]")
HEAVY = mh.Weapon("Heavy", 1, 3, 8, -2, 2)
SQUAD = mh.Unit.of("Squad", 5, 4, 3, 1)
PAIR = mh.Unit("Pair", [mh.ModelGroup(1, 4, 4, 1, name="A"), mh.ModelGroup(1, 4, 3, 2, name="B")])


@pytest.mark.parametrize(
    ("short", "column"),
    [("killed", "mean_killed"), ("destroyed", "p_destroyed"), ("damage", "mean_damage")],
)
def test_attack_and_pool_orders_by_short_name_and_by_column_agree(short: str, column: str) -> None:
    by_short = mh.attack([(GUN, 10), (HEAVY, 2)], SQUAD, metric=short, pool_order="best")
    by_column = mh.attack([(GUN, 10), (HEAVY, 2)], SQUAD, metric=column, pool_order="best")
    assert by_short.killed == by_column.killed and by_short.choices == by_column.choices
    ranked = mh.rank_pool_orders([(GUN, 4), (HEAVY, 1)], PAIR, metric=short)
    again = mh.rank_pool_orders([(GUN, 4), (HEAVY, 1)], PAIR, metric=column)
    assert ranked.scores == again.scores and ranked.metric == again.metric == column


def test_the_defender_by_short_name_and_by_column_agree() -> None:
    by_short = mh.attack([(HEAVY, 3)], PAIR, allocation="defender-best:wounds")
    by_column = mh.attack([(HEAVY, 3)], PAIR, allocation="defender-best:mean_damage")
    assert by_short.killed == by_column.killed and by_short.choices == by_column.choices
    with pytest.raises(mh.OptionError, match="did you mean 'mean_damage'"):
        mh.attack([(HEAVY, 3)], PAIR, allocation="defender-best:mean_damag")


@pytest.mark.parametrize(
    ("short", "column"),
    [
        ("killed", "mean_killed"),
        ("points", "points_destroyed"),
        ("destroyed:Vehicle", "p_destroyed:Vehicle"),
        ("at_least:2", "at_least:all"),
        ("P(any destroyed)", "at_least:1"),
    ],
)
def test_plans_by_short_name_and_by_column_agree(short: str, column: str) -> None:
    rifle, lascannon = mh.Weapon("Rifle", 2, 3, 4, 0, 1), mh.Weapon("Las", 1, 3, 12, -3, "D6+1")
    squad = mh.Attacker("Squad", [mh.Models(9, [rifle], name="T"), mh.Models(1, [lascannon])])
    targets = [mh.targets.get("Horde infantry"), mh.targets.get("Vehicle")]
    declared: list[tuple[int | str, str | mh.Weapon]] = [("T", "Rifle"), (1, "Las")]
    by_short = mh.plan_targets(squad, declared, targets, metric=short)
    by_column = mh.plan_targets(squad, declared, targets, metric=column)
    assert by_short.assignment == by_column.assignment
    assert by_short.value == by_column.value and by_short.metric == metric_column(short)


@pytest.mark.parametrize(
    ("short", "column"),
    [
        ("expected killed", "mean_killed"),
        ("P(all destroyed)", "at_least:all"),
        ("P(any destroyed)", "at_least:1"),
        ("P(destroyed) Boss", "p_destroyed:Boss"),
    ],
)
def test_splits_by_short_name_and_by_column_agree(short: str, column: str) -> None:
    axe = mh.Weapon("Axe", 4, 3, 5, -1, 1, melee=True)
    targets = [mh.Unit.of("Grunts", 10, 3, 6, 1), mh.Unit.of("Boss", 1, 5, 3, 3)]
    by_short = mh.best_splits(mh.Models(1, [axe]), "Axe", targets, metric=short)
    by_column = mh.best_splits(mh.Models(1, [axe]), "Axe", targets, metric=column)
    assert by_short.equals(by_column)


def test_comparisons_and_sweeps_by_short_name_and_by_column_agree() -> None:
    options = mh.AttackOptions("Squad", [[(HEAVY, 1)], [(GUN, 5)]], "shooting", points=60)
    targets = [mh.targets.get("Horde infantry"), mh.targets.get("Vehicle")]
    for short, column in (("damage", "mean_damage"), ("points", "points_destroyed")):
        by_short = mh.compare([options], targets, metric=short)
        assert by_short.equals(mh.compare([options], targets, metric=column))
        swept = mh.sweep([options], targets, metric=short, trials=200, rng=3)
        assert swept.equals(mh.sweep([options], targets, metric=column, trials=200, rng=3))
    seeded = mh.sweep([options], targets, trials=200, rng=np.random.SeedSequence(3))
    assert seeded.equals(mh.sweep([options], targets, trials=200, rng=3))
    with pytest.raises(mh.OptionError, match="give the integer the Generator was made from"):
        mh.sweep([options], targets, trials=200, rng=np.random.default_rng(3))  # type: ignore[arg-type]


def test_pictures_read_the_short_names() -> None:
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame({"loadout": ["a", "b"], "target": ["x", "x"], "mean_damage": [1.0, 2.0]})
    assert mh.sweep_top(frame.assign(context="default"), "damage").equals(
        mh.sweep_top(frame.assign(context="default"), "mean_damage")
    )
    durability = pd.DataFrame({"unit": ["u"], "attacker": ["x"], "p_destroyed": [0.5]})
    pytest.importorskip("matplotlib").use("Agg")
    ax = mh.plot_durability(durability, "destroyed")
    assert [p.get_height() for p in ax.patches] == [0.5]
    with pytest.raises(mh.OptionError, match="did you mean 'copies_90'"):
        mh.plot_durability(durability, "copies_09")
