"""The legal alternatives of one unit in one phase, and the best of them against a target.

A unit cannot make every attack its models carry. When shooting, a model that is not a
MONSTER or VEHICLE fires either its [PISTOL]/[CLOSE-QUARTERS] sidearms or its other
guns; when fighting, each model uses one melee weapon, plus its [EXTRA ATTACKS] weapons
(docs/rules.md §2.2, enforced for declarations in :mod:`mathhammer.units.selection`).
:class:`AttackOptions` holds the legal declarations of a unit in a phase, each an
option named by what it uses; :func:`choose` attacks a target with each and keeps the
best by a metric, which is what a comparison or a report shows (with the ``phase`` and
``weapons_used`` columns).

Examples
--------
>>> import mathhammer as mh
>>> rifle = mh.Weapon("Bolt rifle", attacks=2, skill=3, strength=4, ap=-1, damage=1)
>>> pistol = mh.Weapon("Bolt pistol", 1, 3, 4, -1, 1, "[PISTOL]")
>>> squad = AttackOptions("Squad", [[(rifle, 5)], [(pistol, 5)]], phase="shooting")
>>> squad.weapons == ((rifle, 5),), [o.name for o in squad.options]
(True, ['5x Bolt rifle', '5x Bolt pistol'])
>>> choice = choose(squad, mh.targets.get("Line infantry"))
>>> choice.declaration.name, round(choice.result.killed.mean(), 4)
('5x Bolt rifle', 0.5877)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from ..core.caches import register
from ..core.frozen import HashedKey, fast_init
from ..core.lru import SizedCache
from ..decisions.attack import attack
from ..errors import MathhammerError, OptionError, ProfileError, field_error
from ..model.ability_text import unknown_message
from ..model.context import Context, Modifiers
from ..model.pools import MortalWounds
from ..model.profiles import Weapon
from ..results.attack import AttackResult
from ..results.columns import (
    METRIC_COLUMNS,
    attack_columns,
    for_loadout,
    metric_column,
    situation_columns,
)
from ..rules.plan import cached_pools, steps_key
from ..rules.registry import RulesetLike
from .loadout import Loadout, describe_weapons
from .selection import check_phase_name
from .targets import Target

__all__ = [
    "CHOICE_METRICS",
    "DEFAULT_METRIC",
    "AttackOptions",
    "Choice",
    "Metric",
    "UnknownAbility",
    "attacked_declarations",
    "check_metric",
    "choice_columns",
    "choose",
    "choose_rows",
    "declaration_key",
]

#: The columns that rank options, higher being better for the attacker: every numeric
#: column but spreads, prices, the attacker's own losses and Monte Carlo checks.
CHOICE_METRICS = tuple(
    c
    for c in METRIC_COLUMNS
    if c not in {"sd_killed", "mean_hazard_wounds", "loadout_points", "target_points"}
    and not c.startswith("mc_")
)
#: The metric a report ranks options by unless told otherwise: wounds lost, which means
#: something against every target (models destroyed do not, against a lone vehicle).
DEFAULT_METRIC = "mean_damage"
#: A metric: a column of :data:`CHOICE_METRICS`, or a function of a row of columns.
Metric = str | Callable[[Mapping[str, Any]], float]


@dataclass(frozen=True)
class UnknownAbility:
    """A weapon-ability token the engine does not know, and where it was read.

    Examples
    --------
    >>> print(UnknownAbility("SUSTAINED HIT 1", "Bolt rifle", "army.csv:3"))
    army.csv:3: weapon 'Bolt rifle': unknown ability 'SUSTAINED HIT 1' (did you mean \
'SUSTAINED HITS 1'?), ignored
    """

    token: str
    weapon: str
    source: str

    @property
    def message(self) -> str:
        """One line: where, which weapon, the token and what it may mean."""
        return (
            f"{self.source}: weapon {self.weapon!r}: unknown ability "
            f"{unknown_message(self.token)}, ignored"
        )

    def __str__(self) -> str:
        return self.message


@dataclass(frozen=True, init=False)
class AttackOptions(Loadout):
    """The legal declarations of one unit in one phase; a report uses the best.

    A :class:`~mathhammer.Loadout` whose :attr:`weapons` are those of its first
    option, so that anything taking a loadout takes it (as its default declaration),
    while :func:`mathhammer.compare` and the batch report attack each target with every
    option and keep the best.

    Parameters
    ----------
    name : str
        The unit (the row label).
    options : sequence of Loadout or of weapons
        The legal declarations, the default first. A Loadout's name says what it uses;
        weapons given bare are named by :func:`~mathhammer.units.loadout.describe_weapons`.
        Their points and context are those of the unit.
    phase : {"shooting", "fight"}
        The phase: ranged weapons only when shooting, melee weapons only when fighting.
    points, context, source
        As for :class:`~mathhammer.Loadout`. The context's ``melee`` follows the phase.
    unknown_abilities : sequence of UnknownAbility
        The ability tokens of the unit's rows in this phase that the engine does not know.

    Examples
    --------
    >>> import mathhammer as mh
    >>> axe = mh.Weapon("Axe", 3, 3, 5, -1, 1, melee=True)
    >>> fist = mh.Weapon("Fist", 2, 4, 8, -2, 2, melee=True)
    >>> boss = AttackOptions("Boss", [[(axe, 1)], [(fist, 1)]], phase="fight",
    ...                      points=60, context=mh.Context(charged=True))
    >>> [o.name for o in boss.options], boss.context.melee
    (['1x Axe', '1x Fist'], True)
    """

    weapons: tuple[tuple[Weapon, int] | MortalWounds, ...] = field(init=False)
    phase: str
    options: tuple[Loadout, ...]
    unknown_abilities: tuple[UnknownAbility, ...] = field(compare=False)

    def __init__(
        self,
        name: str,
        options: Iterable[Any],
        phase: str,
        points: int | None = None,
        context: Context | None = None,
        source: str | None = None,
        unknown_abilities: Iterable[UnknownAbility] = (),
    ) -> None:
        check_phase_name("AttackOptions.phase", phase)
        situation = None if context is None else replace(context, melee=phase == "fight")
        self._set_common(name, points, situation, source)
        chosen = _options(name, options, phase)
        object.__setattr__(self, "phase", phase)
        object.__setattr__(self, "options", chosen)
        object.__setattr__(self, "weapons", chosen[0].weapons)
        object.__setattr__(self, "unknown_abilities", tuple(unknown_abilities))

    @property
    def unknown_tokens(self) -> tuple[str, ...]:
        """The unknown ability tokens of every option and row, each once."""
        tokens = [u.token for u in self.unknown_abilities]
        tokens += [t for option in self.options for t in option.unknown_tokens]
        return tuple(dict.fromkeys(tokens))

    def declaration(self, option: Loadout, context: Context | None = None) -> Loadout:
        """One option as a loadout: named by what it uses, with the unit's points, source
        and context (``context`` instead, when given)."""
        situation = self.context if context is None else context
        return Loadout(option.name, option.weapons, self.points, situation, self.source)


def _options(name: str, options: Iterable[Any], phase: str) -> tuple[Loadout, ...]:
    """A unit's options as loadouts, each checked for the phase; repeats left out."""
    if isinstance(options, Loadout | Weapon) or not isinstance(options, Iterable):
        raise field_error(
            ProfileError, f"options of {name!r}", "a list of Loadouts or of weapon lists", options
        )
    out = _without_repeats(_option(name, given, phase) for given in options)
    if not out:
        raise field_error(ProfileError, f"options of {name!r}", "at least one option", [])
    return tuple(out)


def _without_repeats(options: Iterable[Loadout]) -> list[Loadout]:
    """The options but those using the same weapons as an earlier one (the same
    declaration reached another way), each named apart from those before it."""
    out: list[Loadout] = []
    for option in options:
        if all(o.weapons != option.weapons for o in out):
            out.append(_renamed(option, {o.name for o in out}))
    return out


def _option(name: str, given: Any, phase: str) -> Loadout:
    """One option of unit ``name`` as a loadout (weapons given bare named by what they
    are), refused when it uses a weapon of the other phase."""
    option = _as_loadout(name, given)
    kind = _OTHER_PHASE_WEAPONS[phase]
    wrong = [w.name for w, _ in option.weapon_counts if w.melee == (kind == "melee")]
    if wrong:
        raise ProfileError(
            f"option {option.name!r} of {name!r} uses the {kind} weapon {wrong[0]!r} "
            f"in the {phase} phase"
        )
    return option


#: The weapons a phase does not use: ranged ones when fighting, melee ones when shooting.
_OTHER_PHASE_WEAPONS = {"fight": "ranged", "shooting": "melee"}


def _as_loadout(name: str, given: Any) -> Loadout:
    """An option of unit ``name``: a Loadout as it is, weapons given bare as a loadout
    named by what they are."""
    if isinstance(given, Loadout):
        return given
    probe = Loadout(name, given)  # checks the weapons, refuses a (Weapon, n) pair
    return Loadout(describe_weapons(probe.weapons), probe.weapons)


def _renamed(option: Loadout, names: set[str]) -> Loadout:
    """The option, numbered past the ``names`` taken when its name is one of them
    (same-named weapons with other profiles)."""
    if option.name not in names:
        return option
    k = 2
    while f"{option.name} #{k}" in names:
        k += 1
    return Loadout(f"{option.name} #{k}", option.weapons)


def check_metric(metric: Any) -> Metric:
    """The metric as it ranks options: a function of a row as it is, else the column of
    :data:`CHOICE_METRICS` it names (an alias read by
    :func:`mathhammer.metric_column`); else an OptionError naming them.

    Examples
    --------
    >>> check_metric("damage"), check_metric("points_destroyed")
    ('mean_damage', 'points_destroyed')
    """
    if callable(metric):
        return metric  # type: ignore[no-any-return]
    try:
        return metric_column(metric, among=CHOICE_METRICS)
    except OptionError as error:
        hint = "; ".join(filter(None, [error.hint, "higher must be better for the attacker"]))
        raise field_error(OptionError, "metric", str(error.constraint), metric, hint) from None


def _score(row: Mapping[str, Any], metric: Metric) -> float:
    """The row's metric; a column the row lacks (points against a target without any)
    ranks by :data:`DEFAULT_METRIC` instead, the same for every option of the row."""
    if callable(metric):
        return float(metric(row))
    value = row.get(metric)
    if value is None or (isinstance(value, float) and math.isnan(value)):
        value = row[DEFAULT_METRIC]
    return float(value)


@fast_init  # one a row of a comparison: BATCH-compare (docs/performance.md, section 2)
@dataclass(frozen=True)
class Choice:
    """The declaration used against one target, the context it was attacked in, its
    result and its table row."""

    declaration: Loadout
    context: Context | None
    result: AttackResult
    row: dict[str, Any]


def choose(
    loadout: Loadout,
    target: Target,
    *,
    rules: RulesetLike = "11e",
    context: Context | None = None,
    modifiers: Modifiers | None = None,
    metric: Metric = DEFAULT_METRIC,
) -> Choice:
    """Attack ``target`` with each option of ``loadout`` and keep the best by ``metric``.

    A plain :class:`~mathhammer.Loadout` is its own single option. The loadout's own
    context, when it has one, is used instead of ``context``. Ties keep the earlier
    option (the default comes first), so an option that attacks with the same weapons by
    value as an earlier one (:func:`declaration_key`: six identical guns, each of which may
    be swapped, are seven options of value, not sixty-four) is not attacked again.

    A unit's options (:class:`AttackOptions`) are attacked in the context of their
    phase: ``melee`` when fighting.

    Returns
    -------
    Choice
        ``row`` holds the columns of :func:`~mathhammer.results.columns.attack_columns`
        and of :func:`choice_columns`.
    """
    metric = check_metric(metric)
    situation, candidates = _declarations(loadout, context)
    if len(candidates) == 1:  # a plain loadout: nothing to score
        best = _attacked(loadout, candidates[0], target, situation, rules, modifiers)
    else:
        choices = (
            _attacked(loadout, declaration, target, situation, rules, modifiers)
            for declaration in _distinct(candidates)
        )
        # max scores each row once (a metric may be costly) and keeps the first of equals
        best = max(choices, key=lambda choice: _score(choice.row, metric))
    best.row.update(choice_columns(loadout, best.declaration))
    best.row.update(situation_columns(situation))
    return best


def _attacked(
    loadout: Loadout,
    declaration: Loadout,
    target: Target,
    situation: Context | None,
    rules: RulesetLike,
    modifiers: Modifiers | None,
) -> Choice:
    """One declaration of ``loadout`` attacking ``target`` in ``situation``, with its row."""
    result = attack(
        declaration.weapons, target.unit, rules=rules, context=situation, modifiers=modifiers
    )
    row = attack_columns(result, target=target, loadout=loadout)
    return Choice(declaration, situation, result, row)


def _declarations(
    loadout: Loadout, context: Context | None
) -> tuple[Context | None, list[Loadout]]:
    """The context a loadout attacks in (its own, else ``context``) and its declarations:
    a unit's options, in the context of their phase; else the loadout itself."""
    situation = context if loadout.context is None else loadout.context
    if not isinstance(loadout, AttackOptions):
        return situation, [loadout]
    situation = replace(situation or Context(), melee=loadout.phase == "fight")
    return situation, [loadout.declaration(o, situation) for o in loadout.options]


def attacked_declarations(
    loadout: Loadout, context: Context | None
) -> tuple[Context | None, list[Loadout]]:
    """The context ``loadout`` attacks in and the declarations :func:`choose` attacks with
    (a unit's options in their phase, those alike by value once; a plain loadout alone).

    Examples
    --------
    >>> import mathhammer as mh
    >>> gun = mh.Weapon("Gun", 2, 3, 4)
    >>> attacked_declarations(Loadout("a", [(gun, 3)]), None)[1][0].name
    'a'
    """
    situation, candidates = _declarations(loadout, context)
    return situation, list(_distinct(candidates))


def _distinct(candidates: list[Loadout]) -> Iterator[Loadout]:
    """The declarations, but those with the same weapons by value as an earlier one
    (:func:`declaration_key`)."""
    tried: set[HashedKey] = set()
    for declaration in candidates:
        key = declaration_key(declaration) if len(candidates) > 1 else None
        if key is not None:
            if key in tried:
                continue  # the same weapons by value as an earlier option: never better
            tried.add(key)
        yield declaration


def choice_columns(loadout: Loadout, declaration: Loadout) -> dict[str, Any]:
    """The ``phase`` and ``weapons_used`` of a row where options were chosen among, and
    its ``unknown_abilities`` (tokens joined by ``"; "``) where there are any.

    Examples
    --------
    >>> import mathhammer as mh
    >>> import warnings
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")  # the token is unknown: Weapon warns
    ...     gun = mh.Weapon("Gun", 1, 3, 4, 0, 1, "[SUSTAINED HIT 1], [PISTOL]")
    >>> plain = mh.Loadout("guns", [(gun, 2)])
    >>> choice_columns(plain, plain)
    {'unknown_abilities': 'SUSTAINED HIT 1'}
    >>> options = AttackOptions("guns", [plain], phase="shooting")
    >>> choice_columns(options, options.declaration(options.options[0]))
    {'phase': 'shooting', 'weapons_used': 'guns', 'unknown_abilities': 'SUSTAINED HIT 1'}
    """
    row: dict[str, Any] = {}
    if isinstance(loadout, AttackOptions):
        row["phase"] = loadout.phase
        row["weapons_used"] = declaration.name
    if loadout.unknown_tokens:
        row["unknown_abilities"] = "; ".join(loadout.unknown_tokens)
    return row


#: Rows of :func:`choose_row`, by the declaration's value and the rest of the pairing.
_ROWS: SizedCache[Any, tuple[dict[str, Any], AttackResult]] = register(
    SizedCache(65_536, max_items=65_536, name="comparison rows")
)


def declaration_key(loadout: Loadout) -> HashedKey | None:
    """What a plain loadout attacks with, by value: its pools' profiles, attacks and counts
    (not their names) and its own context; None for a unit's options (chosen among by
    name), or entries that cannot be hashed.

    Examples
    --------
    >>> import mathhammer as mh
    >>> gun, rifle = mh.Weapon("Gun", 2, 3, 4), mh.Weapon("Rifle", 2, 3, 4)
    >>> declaration_key(Loadout("a", [(gun, 3)])) == declaration_key(Loadout("b", [(rifle, 3)]))
    True
    """
    if isinstance(loadout, AttackOptions):
        return None
    try:  # hashed once (on making the key): each target's row looks it up
        return HashedKey((steps_key(cached_pools(tuple(loadout.weapons))), loadout.context))
    except (TypeError, MathhammerError):
        return None


def choose_rows(
    loadout: Loadout,
    targets: Iterable[Target],
    *,
    rules: RulesetLike = "11e",
    context: Context | None = None,
    modifiers: Modifiers | None = None,
    metric: Metric = DEFAULT_METRIC,
) -> Iterator[tuple[dict[str, Any], AttackResult]]:
    """The rows of :func:`choose` against each target and the results they show, made once
    for loadouts of the same weapons (:func:`declaration_key`) against the same target: a
    table of thousands of loadouts repeats a few hundred profiles. Another loadout's row is
    the same row with its own name, points, ratios per 100 points, source and unknown
    abilities (:func:`~mathhammer.results.columns.for_loadout`); the result is that of the
    first (its pools may carry that loadout's weapon names). Bounded; emptied by
    ``mathhammer.clear_caches()``.

    Examples
    --------
    >>> import mathhammer as mh
    >>> gun, rifle = mh.Weapon("Gun", 2, 3, 4), mh.Weapon("Rifle", 2, 3, 4)
    >>> line = mh.targets.get("Line infantry")
    >>> [(a, _)] = choose_rows(Loadout("a", [(gun, 3)]), [line])
    >>> [(b, _)] = choose_rows(Loadout("b", [(rifle, 3)], points=30), [line])
    >>> b["loadout"], b["mean_killed"] == a["mean_killed"], b["loadout_points"]
    ('b', True, 30)
    """
    declared = declaration_key(loadout)
    extra = choice_columns(loadout, loadout) if declared is not None else {}
    for target in targets:
        pairing = (declared, target, rules, context, modifiers, metric)
        key, found = (None, None) if declared is None else _known_row(pairing)
        if found is not None:
            row, result = found
            yield for_loadout(_without_unknown(row), loadout, extra), result
            continue
        choice = choose(
            loadout, target, rules=rules, context=context, modifiers=modifiers, metric=metric
        )
        if key is not None:
            _ROWS.put(key, (dict(choice.row), choice.result), 1)
        yield choice.row, choice.result


def _known_row(
    pairing: tuple[Any, ...],
) -> tuple[HashedKey | None, tuple[dict[str, Any], AttackResult] | None]:
    """The key of a pairing's row and the row (and result) made before under it; no key
    when a part cannot be hashed (a target, context or metric): nothing shared. The target
    stands in the key as its own hashed key (:data:`~mathhammer.core.frozen.HASHED`)."""
    declared, target, *rest = pairing
    try:
        key = HashedKey((declared, target.hashed, *rest))
        return key, _ROWS.get(key)
    except TypeError:
        return None, None


def _without_unknown(row: dict[str, Any]) -> dict[str, Any]:
    """A shared row without the unknown abilities of the loadout that made it."""
    if "unknown_abilities" in row:
        return {k: v for k, v in row.items() if k != "unknown_abilities"}
    return row
