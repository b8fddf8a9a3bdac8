"""The summary columns: one name per quantity, for every table of attack results.

:func:`mathhammer.compare`, the batch report and per-target summaries build their
rows with :func:`attack_columns`, so a column has one name and one meaning wherever
it appears, and :data:`ALL_COLUMNS` gives their one order. A ``metric=`` anywhere names a
column, read by :func:`metric_column` (which also takes the short names of old).

==================================  ======================================================
column                              meaning
==================================  ======================================================
loadout, target                     the names of the attacker and of the target
mean_killed, sd_killed              models destroyed: mean and standard deviation
p_at_least_1, p_at_least_half       P(at least 1), P(at least half the models, rounded up)
p_destroyed                         P(the whole unit is destroyed)
mean_damage                         wounds lost, on average
p_character_killed                  P(at least one CHARACTER model is destroyed), if any
mean_hazard_wounds                  the attacker's mean mortal wounds from [HAZARDOUS]
p_panic_test, p_panic_fail          classic rules: P(Panic Test), P(taken and failed)
p_<test>_test, p_<test>_fail        the same for any test a ruleset has the target take
                                    after the attack (:func:`after_attack_columns`)
loadout_points                      what the loadout costs
killed_per_100_points               mean_killed per 100 of the loadout's points
target_points                       what the target costs
points_destroyed                    the expected points destroyed (each model priced
                                    at its own group's points)
points_of_damage                    the expected points of the wounds lost: a model's
                                    points spread over its wounds, so that damage to a
                                    vehicle or monster counts before it dies
points_destroyed_per_100_points     points_destroyed per 100 of the loadout's points
context                             the situation's flags (half_range, remained_stationary,
                                    charged, target_in_cover; "default" for none)
rules_applied                       the units' own rules applied (docs/rules.md D37), as
                                    "Rule (effect)", joined by "; "
assumed                             the named states the situation assumed ("riled up")
mc_mean_killed, mc_se_killed        a Monte Carlo check: its mean and standard error
mc_z                                its deviation from the exact mean, in standard errors
                                    (about normal for common outcomes only)
mc_p                                the p-value of its counts under the exact
                                    distribution (exact binomial tests, valid for rare
                                    outcomes); below 1e-6 the engines disagree
loadout_source, target_source       where the loadout and the target were read from (file
                                    and line, or file, unit and datasheet), when known
==================================  ======================================================

It sits in the results layer, which the containers, comparisons and reports import; targets
and loadouts are taken by their shape (:class:`PricedTarget`, :class:`Priced`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection, Mapping, Sequence
from functools import lru_cache
from typing import Any, Protocol

from ..core.dist import Dist
from ..core.suggest import closest
from ..errors import OptionError, field_error
from .agreement import agreement_p
from .attack import AttackResult
from .simulation import SimulationResult

__all__ = [
    "ALL_COLUMNS",
    "CHARACTER_COLUMNS",
    "CHECK_COLUMNS",
    "CHOICE_COLUMNS",
    "COLUMNS",
    "DURABILITY_COLUMNS",
    "HAZARD_COLUMNS",
    "LOADOUT_POINTS_COLUMNS",
    "METRIC_ALIASES",
    "METRIC_COLUMNS",
    "PANIC_COLUMNS",
    "POINTS_COLUMNS",
    "Priced",
    "SOURCE_COLUMNS",
    "PricedTarget",
    "RULES_COLUMNS",
    "SITUATION_COLUMNS",
    "TARGET_POINTS_COLUMNS",
    "UNKNOWN_COLUMNS",
    "after_attack_columns",
    "after_attack_columns_in",
    "attack_columns",
    "columns_frame",
    "for_loadout",
    "metric_column",
    "situation_columns",
    "context_columns",
]

#: The columns every comparison has, in order (``phase`` and ``weapons_used`` only where an
#: attacker chooses among legal declarations: see :data:`CHOICE_COLUMNS`).
COLUMNS = (
    "loadout",
    "target",
    "mean_killed",
    "sd_killed",
    "p_at_least_1",
    "p_at_least_half",
    "p_destroyed",
    "mean_damage",
)

_NOT_A_WORD = re.compile(r"[^0-9a-z]+")
#: What the columns of :func:`after_attack_columns` look like, for their place in a table.
_AFTER_ATTACK_COLUMN = re.compile(r"p_([0-9a-z_]+)_(?:test|fail)")


def after_attack_columns(name: str) -> tuple[str, str]:
    """The columns of an after-attack test: P(the test is taken), P(taken and failed).

    Named from the test's :attr:`~mathhammer.results.attack.TestResult.name`, so a
    ruleset whose target takes another test gets its columns with no change here: the
    name in lower case, words joined by ``_``, a trailing "test" dropped, between
    ``p_`` and ``_test`` or ``_fail``.

    Examples
    --------
    >>> after_attack_columns("panic test")
    ('p_panic_test', 'p_panic_fail')
    >>> after_attack_columns("Battle-shock")
    ('p_battle_shock_test', 'p_battle_shock_fail')
    """
    stem = _NOT_A_WORD.sub("_", name.lower()).strip("_").removesuffix("_test")
    return f"p_{stem}_test", f"p_{stem}_fail"


#: Under a ruleset with Panic Tests (the classic rules).
PANIC_COLUMNS = after_attack_columns("panic test")
#: When the loadout has points.
LOADOUT_POINTS_COLUMNS = ("loadout_points", "killed_per_100_points")
#: When the target has points.
TARGET_POINTS_COLUMNS = ("target_points", "points_destroyed", "points_of_damage")
#: When both have points.
POINTS_COLUMNS = (
    *LOADOUT_POINTS_COLUMNS,
    *TARGET_POINTS_COLUMNS,
    "points_destroyed_per_100_points",
)
#: With a Monte Carlo check.
CHECK_COLUMNS = ("mc_mean_killed", "mc_se_killed", "mc_z", "mc_p")
#: When the loadout or the target was read from a file.
SOURCE_COLUMNS = ("loadout_source", "target_source")
#: Where the report chose a legal declaration for the attacker: the phase, and what was used.
CHOICE_COLUMNS = ("phase", "weapons_used")
#: The situation of the attack: the ruleset, and the context's flags ("default" for none).
SITUATION_COLUMNS = ("rules", "context")
#: Against a target with CHARACTER models: P(at least one of them is destroyed).
CHARACTER_COLUMNS = ("p_character_killed",)
#: When the attacker has [HAZARDOUS] weapons: the wounds it is expected to suffer.
HAZARD_COLUMNS = ("mean_hazard_wounds",)
#: Weapon-ability tokens the engine does not know, as read (listed, never silently dropped).
UNKNOWN_COLUMNS = ("unknown_abilities",)
#: The units' own rules applied, and the named states assumed, where there are any.
RULES_COLUMNS = ("rules_applied", "assumed")
#: Every column, in the order tables show them.
ALL_COLUMNS = (
    COLUMNS[0],
    *CHOICE_COLUMNS,
    *SITUATION_COLUMNS,
    *COLUMNS[1:],
    *CHARACTER_COLUMNS,
    *HAZARD_COLUMNS,
    *PANIC_COLUMNS,
    *POINTS_COLUMNS,
    *CHECK_COLUMNS,
    *RULES_COLUMNS,
    *UNKNOWN_COLUMNS,
    *SOURCE_COLUMNS,
)
#: The columns that hold numbers: what a heatmap or a ranking can show.
_TEXT_COLUMNS = {
    "loadout",
    "target",
    *CHOICE_COLUMNS,
    *SITUATION_COLUMNS,
    *RULES_COLUMNS,
    *UNKNOWN_COLUMNS,
    *SOURCE_COLUMNS,
}
METRIC_COLUMNS = tuple(c for c in ALL_COLUMNS if c not in _TEXT_COLUMNS)
#: The columns of a durability table (:func:`mathhammer.durability`) a metric can name.
DURABILITY_COLUMNS = (
    *("copies_90", "copies_50", "effective_wounds_per_100_points", "effective_wounds"),
    *("points_lost_per_100", "killed_mean", "p_destroyed"),
)
#: The short names of metrics, each with the column (or parametrised metric) it means.
METRIC_ALIASES = {
    "killed": "mean_killed",
    "expected killed": "mean_killed",
    "models": "mean_killed",
    "damage": "mean_damage",
    "wounds": "mean_damage",
    "destroyed": "p_destroyed",
    "points": "points_destroyed",
    "P(any destroyed)": "at_least:1",
    "P(all destroyed)": "at_least:all",
}
#: The parametrised metrics: each stem, the other spellings of the stem, and its argument.
_PARAMETRISED = {
    "p_destroyed:": (("destroyed:", "P(destroyed) "), "<target>"),
    "at_least:": ((), "<k>"),
}
#: Each way a parametrised metric may begin, with its stem, in the order they are tried.
_PREFIXES = [
    (p, stem) for stem, (spellings, _) in _PARAMETRISED.items() for p in (stem, *spellings)
]
#: The argument of each parametrised metric, as shown in an error.
_ARGUMENTS = {stem: argument for stem, (_, argument) in _PARAMETRISED.items()}
#: Every metric of the vocabulary but the after-attack tests' (matched by their pattern).
_KNOWN = tuple(dict.fromkeys([*METRIC_COLUMNS, *DURABILITY_COLUMNS, *_PARAMETRISED]))


def metric_column(name: str, among: Collection[str] | None = None, *, field: str = "metric") -> str:
    """The column a metric names: ``name`` itself, or the column of its alias.

    Every ``metric=`` of the package reads its value here. A metric is a column of
    :data:`METRIC_COLUMNS`, of an after-attack test (:func:`after_attack_columns`) or of
    :data:`DURABILITY_COLUMNS`; the short names of :data:`METRIC_ALIASES` are aliases.
    Two metrics take an argument: ``"p_destroyed:<target>"`` (P(that target is destroyed);
    also ``"destroyed:<target>"`` or ``"P(destroyed) <target>"``) and ``"at_least:<k>"``
    (P(at least k of the targets are destroyed); k an integer >= 1, or ``"all"``).

    Parameters
    ----------
    name : str
        The metric, by column or alias.
    among : collection of str, optional
        The metrics the caller can compute (a parametrised one by its stem,
        ``"p_destroyed:"``); by default every metric of the vocabulary.
    field : str
        The option's name in the error.

    Raises ``OptionError`` for a name not among them, with the closest one suggested.

    Examples
    --------
    >>> metric_column("killed"), metric_column("destroyed:Tank"), metric_column("mean_damage")
    ('mean_killed', 'p_destroyed:Tank', 'mean_damage')
    >>> metric_column("mean_kiled")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mathhammer.errors.OptionError: metric must be one of ... (did you mean 'mean_killed'?)
    """
    allowed = _KNOWN if among is None else among
    if type(name) is str and name in allowed:  # the common case, without the prefix walk
        return name
    column = _canonical(name, field)
    head, colon, _ = column.partition(":")  # a parametrised metric by its stem
    if column in allowed or head + colon in allowed:
        return column
    if among is None and _AFTER_ATTACK_COLUMN.fullmatch(column):
        return column
    raise _unknown(name, allowed, field)


def _canonical(name: object, field: str) -> str:
    """The metric ``name`` means, aliases resolved and a parametrised one checked."""
    if not isinstance(name, str):
        raise field_error(OptionError, field, "a metric: a column name", name)
    name = METRIC_ALIASES.get(name, name)
    for prefix, stem in _PREFIXES:
        if name.startswith(prefix):
            return _parametrised(stem, name.removeprefix(prefix), field)
    return name


def _parametrised(stem: str, argument: str, field: str) -> str:
    """The parametrised metric ``stem`` + ``argument``, its argument checked."""
    if stem == "at_least:" and not (argument == "all" or argument.isdigit() and int(argument)):
        raise field_error(OptionError, field, "at_least:<k> with k >= 1 or 'all'", stem + argument)
    if not argument.strip():
        raise field_error(OptionError, field, f"{stem}<target> with a target's name", stem)
    return stem + argument


def _unknown(name: str, allowed: Collection[str], field: str) -> OptionError:
    """The error for a metric not among ``allowed``, with the closest one suggested."""
    shown_as = [c + _ARGUMENTS.get(c, "") for c in allowed]
    candidates = [*allowed, *(a for a, c in METRIC_ALIASES.items() if c in allowed)]
    close = closest(name, candidates)
    hint = "" if close is None else f"did you mean {METRIC_ALIASES.get(close, close)!r}?"
    return field_error(OptionError, field, f"one of {shown_as}", name, hint)


# Prices are NaN where one side has none, so they are floats in every table.
_FLOAT_COLUMNS = ("loadout_points", "target_points", "points_destroyed", "points_of_damage")


class Priced(Protocol):
    """Anything with a name and a price, such as a :class:`~mathhammer.Loadout`."""

    @property
    def name(self) -> str: ...

    @property
    def points(self) -> int | None: ...


class PricedTarget(Priced, Protocol):
    """A target with a price per model, such as a :class:`~mathhammer.Target`."""

    def points_destroyed(self, result: Any) -> float | None: ...

    def points_of_damage(self, result: Any) -> float | None: ...


def attack_columns(
    result: AttackResult,
    *,
    target: PricedTarget | None = None,
    loadout: Priced | None = None,
    check: SimulationResult | None = None,
) -> dict[str, Any]:
    """The summary columns of one attack, in :data:`ALL_COLUMNS` order.

    Parameters
    ----------
    result : AttackResult
        The exact attack.
    target : Target, optional
        The target attacked, for its name and points (by default the result's unit).
    loadout : Loadout, optional
        The attacker, for the ``loadout`` column and its points.
    check : SimulationResult, optional
        A Monte Carlo run of the same attack: adds ``mc_mean_killed``,
        ``mc_se_killed`` and ``mc_z``.

    The ``source`` of the loadout and of the target, when either has one, gives the
    ``loadout_source`` and ``target_source`` columns.

    Returns
    -------
    dict
        Only the columns that apply: no ``loadout`` without a loadout, no points
        columns for a side without points, ``p_character_killed`` only against a target
        with CHARACTER models, ``mean_hazard_wounds`` only for an attacker with
        [HAZARDOUS] weapons, and the two columns of
        :func:`after_attack_columns` for each test in ``result.tests`` (the Panic Test
        of the classic rules), none under a ruleset without such tests.

    Examples
    --------
    >>> import mathhammer as mh
    >>> gun = mh.Weapon("Gun", attacks=1, skill=2, strength=8, ap=-4, damage=1,
    ...                 abilities="[TORRENT]")
    >>> horde = mh.targets.get("Horde infantry")
    >>> row = attack_columns(mh.attack([(gun, 6)], horde.unit), target=horde,
    ...                      loadout=mh.Loadout("guns", [(gun, 6)], points=50))
    >>> list(row)  # doctest: +NORMALIZE_WHITESPACE
    ['loadout', 'target', 'mean_killed', 'sd_killed', 'p_at_least_1', 'p_at_least_half',
     'p_destroyed', 'mean_damage', 'loadout_points', 'killed_per_100_points',
     'target_points', 'points_destroyed', 'points_of_damage',
     'points_destroyed_per_100_points']
    >>> round(row["mean_killed"], 6), round(row["points_destroyed_per_100_points"], 6)
    (5.0, 60.0)

    Against a vehicle, the damage short of destroying it earns points: 6 automatic
    hits of damage 1 at S8 against T10 wound on a 5+ and cannot be saved (AP -4
    against Sv 3+), so the 160-point W12 vehicle loses 6 * 1/3 = 2 wounds on average,
    worth 160 / 12 points each.

    >>> tank = mh.targets.get("Vehicle")
    >>> row = attack_columns(mh.attack([(gun, 6)], tank.unit), target=tank)
    >>> row["points_destroyed"], round(row["points_of_damage"], 12), round(160 / 12 * 2, 12)
    (0.0, 26.666666666667, 26.666666666667)
    """
    # built in table order (the loadout's columns where they stand, not added after)
    killed, models = result.killed, result.target.models
    row: dict[str, Any] = {} if loadout is None else {"loadout": loadout.name}
    row["target"] = result.target.name if target is None else target.name
    row["mean_killed"] = mean = killed.mean()
    row["sd_killed"] = killed.std()
    row["p_at_least_1"] = killed.at_least(1)
    row["p_at_least_half"] = killed.at_least(-(-models // 2))
    row["p_destroyed"] = killed.at_least(models)
    row["mean_damage"] = result.damage.mean()
    _result_columns(row, result)
    spent = None if loadout is None else loadout.points
    if spent is not None:
        row["loadout_points"] = spent
        row["killed_per_100_points"] = 100.0 * mean / spent
    destroyed = _target_points_columns(row, result, target)
    if spent is not None and destroyed is not None:
        row["points_destroyed_per_100_points"] = 100.0 * destroyed / spent
    if check is not None:
        row.update(_check_columns(killed, check))
    if result.rules_applied:
        row["rules_applied"] = "; ".join(result.rules_applied)
    sources = (getattr(loadout, "source", None), getattr(target, "source", None) or None)
    if any(sources):
        row.update(zip(SOURCE_COLUMNS, sources, strict=True))
    return _in_table_order(row)


def _result_columns(row: dict[str, Any], result: AttackResult) -> None:
    """Add the columns of ``result`` that apply only to some attacks: CHARACTER models
    killed, [HAZARDOUS] wounds, each after-attack test's pair."""
    character = result.p_character_killed
    if character is not None:
        row["p_character_killed"] = character
    hazard = result.mean_hazard_wounds
    if hazard is not None:
        row["mean_hazard_wounds"] = hazard
    for test in result.tests:
        taken, failed = after_attack_columns(test.name)
        row[taken] = test.p_taken
        row[failed] = test.p_failed


def _target_points_columns(
    row: dict[str, Any], result: AttackResult, target: PricedTarget | None
) -> float | None:
    """Add the target's points and those the attack destroys (and, where damage short of a
    kill earns them, those of its damage); nothing for a target without points. The points
    destroyed, or None."""
    if target is None or target.points is None:
        return None
    row["target_points"] = target.points
    row["points_destroyed"] = destroyed = target.points_destroyed(result)
    damaged = target.points_of_damage(result)
    if damaged is not None:
        row["points_of_damage"] = damaged
    return destroyed


#: The columns that depend on the loadout alone: its name, price and source.
_LOADOUT_COLUMNS = frozenset(
    {"loadout", *LOADOUT_POINTS_COLUMNS, "points_destroyed_per_100_points", *SOURCE_COLUMNS}
)


def for_loadout(
    row: Mapping[str, Any], loadout: Priced | None, extra: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """``row`` of :func:`attack_columns` for ``loadout``: its columns that depend on the
    loadout (its name, its points and the ratios per 100 of them, the sources) made for
    this one, the rest kept, and the columns of ``extra`` added; in table order. A table
    of many loadouts with the same weapons computes one row and gives it to each.

    Examples
    --------
    >>> import mathhammer as mh
    >>> gun = mh.Weapon("Gun", attacks=1, skill=3, strength=4)
    >>> row = attack_columns(mh.attack([(gun, 6)], mh.targets.get("Vehicle").unit),
    ...                      target=mh.targets.get("Vehicle"), loadout=mh.Loadout("a", [(gun, 6)]))
    >>> other = for_loadout(row, mh.Loadout("b", [(gun, 6)], points=50))
    >>> other["loadout"], other["loadout_points"], other["mean_damage"] == row["mean_damage"]
    ('b', 50, True)
    """
    made = {**_loadout_columns(row, loadout), **(extra or {})}
    stale = _LOADOUT_COLUMNS.difference(made)  # the other loadout's, replaced where they stand
    out = {column: value for column, value in row.items() if column not in stale}
    out.update(made)
    return _in_table_order(out)


def _loadout_columns(row: Mapping[str, Any], loadout: Priced | None) -> dict[str, Any]:
    """The columns of ``row`` that depend on the loadout, made for ``loadout``: its name,
    its points and the ratios per 100 of them, the sources."""
    made: dict[str, Any] = {}
    if loadout is not None:
        made["loadout"] = loadout.name
        if loadout.points is not None:
            made.update(_per_100_points(row, loadout.points))
    sources = (getattr(loadout, "source", None), row.get("target_source"))
    if any(sources):
        made.update(zip(SOURCE_COLUMNS, sources, strict=True))
    return made


def _per_100_points(row: Mapping[str, Any], spent: int) -> dict[str, Any]:
    """The loadout's points (``spent``), and the models it kills and the points it destroys
    (where the target has points) per 100 of them."""
    made: dict[str, Any] = {
        "loadout_points": spent,
        "killed_per_100_points": 100.0 * row["mean_killed"] / spent,
    }
    destroyed = row.get("points_destroyed")
    if destroyed is not None:
        made["points_destroyed_per_100_points"] = 100.0 * destroyed / spent
    return made


def _in_table_order(row: dict[str, Any]) -> dict[str, Any]:
    """``row`` with its columns in table order: itself when they are already."""
    columns = tuple(row)
    order = _ordered_once(columns)
    return row if order == columns else {column: row[column] for column in order}


def situation_columns(context: Any) -> dict[str, str]:
    """The ``assumed`` column of a row attacked in ``context``: the named states it assumes
    (``Context(assume=...)``), joined by ``"; "``; nothing where it assumes none.

    Examples
    --------
    >>> import mathhammer as mh
    >>> situation_columns(mh.Context(assume={"riled up", "waaagh"}))
    {'assumed': 'riled up; waaagh'}
    >>> situation_columns(None)
    {}
    """
    assumed = sorted(getattr(context, "assume", ()))
    return {"assumed": "; ".join(assumed)} if assumed else {}


def context_columns(context: Any, rules: str = "") -> dict[str, str]:
    """The ``rules`` and ``context`` columns of a report's row attacked under ``rules`` in
    ``context``: the ruleset's name, and the flags the context sets, joined by ``"; "``
    (``default`` for none; the phase and the named states are columns of their own).

    Examples
    --------
    >>> import mathhammer as mh
    >>> context_columns(mh.Context(half_range=True, melee=True, assume={"waaagh"}), "10e")
    {'rules': '10e', 'context': 'half_range'}
    >>> context_columns(None)
    {'context': 'default'}
    """
    changes = [] if context is None else context.changes()
    flags = [c for c in changes if c != "melee" and not c.startswith("assume ")]
    named = {"rules": rules} if rules else {}
    return named | {"context": "; ".join(flags) or "default"}


def _check_columns(exact: Dist, check: SimulationResult) -> dict[str, float]:
    estimate = check.killed.mean()
    sigma = exact.std() / math.sqrt(check.trials)  # the exact sd: the z is not the draw's
    return {
        "mc_mean_killed": estimate,
        "mc_se_killed": check.killed_se,
        "mc_z": 0.0 if sigma == 0 else (estimate - exact.mean()) / sigma,
        "mc_p": agreement_p(exact, check.killed, check.trials),
    }


def columns_frame(rows: Sequence[Mapping[str, Any]]) -> Any:
    """Rows of :func:`attack_columns` as one :class:`pandas.DataFrame`.

    A column appears when any row has it (NaN in the rows without it), in
    :data:`ALL_COLUMNS` order; the columns of after-attack tests other than the Panic
    Test follow the Panic Test's place; columns from outside the vocabulary come last,
    in the order first seen.

    Examples
    --------
    >>> frame = columns_frame([{"target": "A", "mean_killed": 1.0, "target_points": 90},
    ...                        {"target": "B", "mean_killed": 2.0}])
    >>> frame
      target  mean_killed  target_points
    0      A          1.0           90.0
    1      B          2.0            NaN
    """
    import numpy as np
    import pandas as pd

    frame = pd.DataFrame(list(rows))
    for column in _FLOAT_COLUMNS:
        if column in frame.columns:
            frame[column] = frame[column].astype(np.float64)
    return frame[_ordered(list(frame.columns))]


def after_attack_columns_in(columns: Sequence[str]) -> list[str]:
    """The columns of after-attack tests among ``columns``, each test's pair in order.

    The Panic Test's columns and those of any other test (see
    :func:`after_attack_columns`), by test in the order first seen.

    Examples
    --------
    >>> after_attack_columns_in(["mean_killed", "p_shock_fail", "p_panic_test", "p_shock_test"])
    ['p_shock_test', 'p_shock_fail', 'p_panic_test']
    """
    stems = dict.fromkeys(m[1] for m in map(_AFTER_ATTACK_COLUMN.fullmatch, columns) if m)
    return [c for stem in stems for c in after_attack_columns(stem) if c in columns]


def _vocabulary(columns: list[str]) -> list[str]:
    """:data:`ALL_COLUMNS`, the columns of any after-attack test among ``columns`` other
    than the Panic Test after the Panic Test's."""
    tests = [c for c in after_attack_columns_in(columns) if c not in PANIC_COLUMNS]
    slot = ALL_COLUMNS.index(PANIC_COLUMNS[-1]) + 1  # after the Panic Test's columns
    return [*ALL_COLUMNS[:slot], *tests, *ALL_COLUMNS[slot:]]


@lru_cache(maxsize=256)
def _ordered_once(columns: tuple[str, ...]) -> tuple[str, ...]:
    """:func:`_ordered` of the columns of a row (rows of one table share a few orders)."""
    return tuple(_ordered(list(columns)))


def _ordered(columns: list[str]) -> list[str]:
    """``columns`` in table order (see :func:`columns_frame`)."""
    rank = {column: i for i, column in enumerate(_vocabulary(columns))}
    return sorted(columns, key=lambda column: rank.get(column, len(rank)))  # others last
