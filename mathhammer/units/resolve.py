"""A whole unit making its attacks against one or more targets, exactly and by simulation.

The declarations are checked and grouped by target in :mod:`mathhammer.units.selection`.
Each target is then resolved with :func:`mathhammer.attack`: its pools in the order
declared, from its own state. Targets do not share dice, so given the declarations
they are independent and the joint probabilities are exact products.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from ..decisions.attack import attack
from ..decisions.runs import Request
from ..decisions.work import check_splits
from ..errors import OptionError, ProfileError, field_error
from ..model.context import Context, Modifiers
from ..model.profiles import Unit, Weapon
from ..montecarlo.engine import generator_from, simulate
from ..results.attack import AttackResult
from ..results.columns import attack_columns, metric_column
from ..results.simulation import SimulationResult
from ..results.state import UnitState
from ..rules.registry import RulesetLike
from .selection import Attacker, Models, Use, per_target, split_weapon

if TYPE_CHECKING:
    import pandas as pd

    from ..montecarlo.engine import RngLike

__all__ = [
    "SequenceAttackResult",
    "UnitAttackResult",
    "UnitSimulationResult",
    "best_splits",
    "resolve",
    "resolve_sequence",
    "simulate_uses",
]


class _Joint:
    """The joint view of results per target: the targets' dice are independent given
    the declarations, so ``p_all_destroyed`` and ``p_any_destroyed`` are exact products."""

    results: Mapping[str, AttackResult]

    def __getitem__(self, target: str | Unit) -> AttackResult:
        name = target.name if isinstance(target, Unit) else target
        if name not in self.results:
            raise field_error(ProfileError, "target", f"one of {list(self.results)}", name)
        return self.results[name]

    @property
    def targets(self) -> tuple[str, ...]:
        """The target names, in order of first declaration."""
        return tuple(self.results)

    @property
    def p_all_destroyed(self) -> float:
        """P(every target is destroyed)."""
        return float(math.prod(r.p_destroyed for r in self.results.values()))

    @property
    def p_any_destroyed(self) -> float:
        """P(at least one target is destroyed)."""
        return float(1.0 - math.prod(1.0 - r.p_destroyed for r in self.results.values()))

    @property
    def expected_killed(self) -> float:
        """Models destroyed, summed over the targets, on average."""
        return float(sum(r.killed.mean() for r in self.results.values()))


@dataclass(frozen=True)
class UnitAttackResult(_Joint):
    """One result per target, and the joint view.

    Targets are independent given the declarations, so ``p_all_destroyed`` and
    ``p_any_destroyed`` are exact products.
    """

    attacker: Attacker
    results: Mapping[str, AttackResult] = field(default_factory=dict)

    def summary(self) -> pd.Series:
        """A DataFrame with a row per target: the standard summary columns
        (:func:`mathhammer.results.columns.attack_columns`) and the target's models."""
        import pandas as pd

        rows = []
        for result in self.results.values():
            row = attack_columns(result)
            row["models"] = result.target.models
            rows.append(row)
        return pd.DataFrame(rows).set_index("target")

    def _repr_html_(self) -> str:
        from ..views.html import result_html

        charts = [(r.killed, f"{name}: models destroyed") for name, r in self.results.items()]
        headline = (
            f"P(every target destroyed) {self.p_all_destroyed:.3f}, "
            f"P(at least one destroyed) {self.p_any_destroyed:.3f}; "
            f"models destroyed in all {self.expected_killed:.3f} on average"
        )
        return result_html(
            self.attacker.name,
            "against " + ", ".join(self.targets),
            headline,
            charts,
            self.summary(),
        )

    def __repr__(self) -> str:
        parts = ", ".join(f"{n}: {r.killed.mean():.3g} killed" for n, r in self.results.items())
        return (
            f"<UnitAttackResult {self.attacker.name}: {parts}; "
            f"P(all destroyed) {self.p_all_destroyed:.3f}>"
        )


def resolve(
    attacker: Attacker,
    uses: Iterable[Use],
    *,
    phase: str = "shooting",
    rules: RulesetLike = "11e",
    context: Context | None = None,
    modifiers: Modifiers | None = None,
) -> UnitAttackResult:
    """Resolve a unit's declared attacks against one or more targets, exactly.

    Examples
    --------
    >>> import mathhammer as mh
    >>> axe = mh.Weapon("Axe", attacks=4, skill=3, strength=5, ap=-1, damage=1, melee=True)
    >>> champion = mh.Attacker("Champion", [mh.Models(1, [axe])])
    >>> grunts = mh.Unit.of("Grunts", 10, 3, 6, 1)
    >>> boss = mh.Unit.of("Boss", 1, 5, 3, 3)
    >>> res = mh.resolve(champion, [mh.Use(0, "Axe", split={grunts: 3, boss: 1})], phase="fight")
    >>> res.targets, round(res["Grunts"].killed.mean(), 4)  # 3 * 2/3 * 2/3; AP-1 beats 6+
    (('Grunts', 'Boss'), 1.3333)
    """
    context = _phase_context(context, phase)
    results = {
        name: attack(weapons, target, rules=rules, context=context, modifiers=modifiers)
        for name, (target, weapons) in per_target(attacker, list(uses), phase).items()
    }
    return UnitAttackResult(attacker, results)


def _phase_context(context: Context | None, phase: str) -> Context:
    """The situation of a unit's attacks (none given: the default), ``melee`` when fighting."""
    return replace(context or Context(), melee=phase == "fight")


@dataclass(frozen=True)
class SequenceAttackResult(_Joint):
    """Several units' attacks, in order, against one or more targets, each target's state
    carried from unit to unit.

    Attributes
    ----------
    steps : tuple of UnitAttackResult
        Each attacking unit's results against the targets it attacked, counting from the
        start of the sequence (what the earlier units did included).
    results : mapping of str to AttackResult
        Each target's result after the last unit that attacked it: pass it as ``start``
        to carry on (the next turn).
    """

    steps: tuple[UnitAttackResult, ...]
    results: Mapping[str, AttackResult] = field(default_factory=dict)

    def p_destroyed_by_step(self, target: str | Unit) -> tuple[float, ...]:
        """P(``target`` is destroyed) after each attacking unit (unchanged by a unit that
        did not attack it)."""
        name = self[target].target.name
        out, current = [], 0.0
        for step in self.steps:
            if name in step.results:
                current = step.results[name].p_destroyed
            out.append(current)
        return tuple(out)

    def frame(self) -> pd.DataFrame:
        """One row per attacking unit and target it attacked: the models destroyed so
        far on average and P(destroyed) after that unit."""
        import pandas as pd

        rows = [
            {
                "step": i,
                "attacker": step.attacker.name,
                "target": name,
                "killed_mean": result.killed.mean(),
                "p_destroyed": result.p_destroyed,
            }
            for i, step in enumerate(self.steps, 1)
            for name, result in step.results.items()
        ]
        return pd.DataFrame(rows)

    def __repr__(self) -> str:
        parts = ", ".join(f"{n}: P(destroyed) {r.p_destroyed:.3f}" for n, r in self.results.items())
        return f"<SequenceAttackResult {len(self.steps)} units: {parts}>"


def _unit_step(item: Any, index: int) -> tuple[Attacker, list[Use], dict[str, Any]]:
    """One attacking unit's (attacker, uses, options) from the forms a step may take."""
    if isinstance(item, Mapping):
        return _mapping_step(item, index)
    if isinstance(item, tuple) and 2 <= len(item) <= 4:
        names = ("context", "modifiers")
        return item[0], list(item[1]), dict(zip(names, item[2:], strict=False))
    raise OptionError(
        f"unit {index}: expected (attacker, uses[, context[, modifiers]]) or a mapping; "
        f"got {type(item).__name__}"
    )


def _mapping_step(
    item: Mapping[str, Any], index: int
) -> tuple[Attacker, list[Use], dict[str, Any]]:
    """A step given as a mapping: ``attacker`` and ``uses``, and optionally ``phase``,
    ``context`` and ``modifiers``."""
    allowed = {"attacker", "uses", "phase", "context", "modifiers"}
    if not {"attacker", "uses"} <= set(item) or set(item) - allowed:
        raise OptionError(
            f"unit {index}: a mapping takes 'attacker' and 'uses', and optionally "
            f"'phase', 'context' and 'modifiers'; got keys {sorted(item)}"
        )
    options = {k: item[k] for k in ("phase", "context", "modifiers") if k in item}
    return item["attacker"], list(item["uses"]), options


def resolve_sequence(
    units: Iterable[Any],
    *,
    phase: str = "shooting",
    rules: RulesetLike = "11e",
    start: Mapping[str, AttackResult | UnitState] | None = None,
) -> SequenceAttackResult:
    """Several units' declared attacks, one unit after another, exactly: each target's
    state carries on from every unit that attacked it to the next.

    Parameters
    ----------
    units : iterable
        The attacking units in order, each ``(attacker, uses)``, ``(attacker, uses,
        context)``, ``(attacker, uses, context, modifiers)``, or a mapping with
        ``attacker`` and ``uses`` and optionally ``phase``, ``context`` and
        ``modifiers``. Each unit's declarations are checked as :func:`resolve` checks
        them.
    phase : str
        ``"shooting"`` or ``"fight"``: every unit's, unless its mapping says otherwise.
    rules : str or Ruleset
        The ruleset of every unit.
    start : mapping of str to AttackResult or UnitState, optional
        Targets' states to carry on from, by target name (an earlier sequence's
        ``results``: the turn before).

    Returns
    -------
    SequenceAttackResult
        Each unit's results and each target's final result; targets are independent
        given the declarations, so the joint probabilities are exact products.

    Examples
    --------
    >>> import mathhammer as mh
    >>> gun = mh.Weapon("Gun", attacks=2, skill=3, strength=5, ap=-1, damage=1)
    >>> first = mh.Attacker("First", [mh.Models(5, [gun])])
    >>> second = mh.Attacker("Second", [mh.Models(5, [gun])])
    >>> squad = mh.Unit.of("Squad", 5, 4, 3, 1)
    >>> turn = mh.resolve_sequence(
    ...     [(first, [mh.Use(0, "Gun", target=squad)]), (second, [mh.Use(0, "Gun", target=squad)])]
    ... )
    >>> [round(p, 4) for p in turn.p_destroyed_by_step("Squad")]
    [0.0498, 0.4677]
    """
    if isinstance(units, str | bytes) or not isinstance(units, Iterable):
        raise field_error(OptionError, "units", "a list of attacking units, in order", units)
    carried: dict[str, AttackResult | UnitState] = dict(start or {})
    final: dict[str, AttackResult] = {}  # each target's result after the last unit at it
    steps = []
    for index, item in enumerate(units, 1):
        attacker, uses, options = _unit_step(item, index)
        results = _step_results(attacker, uses, options, phase, rules, carried)
        carried.update(results)
        final.update(results)
        steps.append(UnitAttackResult(attacker, results))
    if not steps:
        raise OptionError("resolve_sequence: give at least one attacking unit")
    return SequenceAttackResult(tuple(steps), final)


def _step_results(
    attacker: Attacker,
    uses: list[Use],
    options: Mapping[str, Any],
    phase: str,
    rules: RulesetLike,
    carried: Mapping[str, AttackResult | UnitState],
) -> dict[str, AttackResult]:
    """One unit's result against each target it attacks (in its own phase, context and
    modifiers, else the sequence's phase), carrying on from the target's state so far."""
    here = options.get("phase", phase)
    context = _phase_context(options.get("context"), here)
    results = {}
    for name, (target, weapons) in per_target(attacker, uses, here).items():
        results[name] = attack(
            weapons,
            target,
            rules=rules,
            context=context,
            modifiers=options.get("modifiers"),
            start=carried.get(name),
        )
    return results


@dataclass(frozen=True)
class UnitSimulationResult(UnitAttackResult):
    """The Monte Carlo counterpart: each target simulated from its own random streams.

    The targets' dice are independent, so the joint probabilities are the products of
    the per-target estimates, as in the exact result.
    """

    trials: int = 0


def simulate_uses(
    attacker: Attacker,
    uses: Iterable[Use],
    *,
    phase: str = "shooting",
    trials: int = 100_000,
    rng: RngLike = None,
    rules: RulesetLike = "11e",
    context: Context | None = None,
    modifiers: Modifiers | None = None,
) -> UnitSimulationResult:
    """The Monte Carlo estimate of :func:`resolve`, rolling every target's dice."""
    context = _phase_context(context, phase)
    generator = generator_from(rng)
    results: dict[str, SimulationResult] = {}
    for name, (target, weapons) in per_target(attacker, list(uses), phase).items():
        results[name] = simulate(
            weapons,
            target,
            trials=trials,
            rng=generator,
            rules=rules,
            context=context,
            modifiers=modifiers,
        )
    return UnitSimulationResult(attacker, results, trials=trials)


def _compositions(total: int, parts: int) -> Iterable[tuple[int, ...]]:
    """Every way to write ``total`` as ``parts`` positive integers, in order."""
    for cuts in itertools.combinations(range(1, total), parts - 1):
        bounds = (0, *cuts, total)
        yield tuple(b - a for a, b in itertools.pairwise(bounds))


def best_splits(
    models: Models,
    weapon: str | Weapon,
    targets: Sequence[Unit],
    *,
    metric: str | Callable[[UnitAttackResult], float] = "mean_killed",
    rules: RulesetLike = "11e",
    context: Context | None = None,
    modifiers: Modifiers | None = None,
) -> pd.DataFrame:
    """Evaluate every legal split of a melee weapon's attacks across 2 or 3 targets.

    Parameters
    ----------
    models : Models
        The models wielding the weapon (each splits the same way).
    weapon : str or Weapon
        The melee weapon, with a fixed A.
    targets : sequence of Unit
        Two or three engaged targets.
    metric : str or callable
        ``"mean_killed"`` (models destroyed over all targets), ``"at_least:all"``
        (P(every target destroyed)), ``"at_least:1"`` (P(any destroyed)),
        ``"p_destroyed:<target name>"``, or a function of the :class:`UnitAttackResult`;
        ``"expected killed"``, ``"P(all destroyed)"``, ``"P(any destroyed)"`` and
        ``"P(destroyed) <target name>"`` are aliases
        (:func:`mathhammer.metric_column`).

    Returns
    -------
    pandas.DataFrame
        One row per split (attacks per model for each target), the metric, expected
        models destroyed and P(destroyed) per target, best first.

    Examples
    --------
    >>> import mathhammer as mh
    >>> axe = mh.Weapon("Axe", attacks=4, skill=3, strength=5, ap=-1, damage=1, melee=True)
    >>> grunts, boss = mh.Unit.of("Grunts", 10, 3, 6, 1), mh.Unit.of("Boss", 1, 5, 3, 3)
    >>> table = mh.best_splits(mh.Models(1, [axe]), "Axe", [grunts, boss])
    >>> list(table.columns[:2]), len(table)
    (['Grunts', 'Boss'], 3)
    """
    import pandas as pd

    if not 2 <= len(targets) <= 3:
        raise field_error(ProfileError, "targets", "two or three Units", len(targets))
    chosen = models.weapon(weapon)
    attacker = Attacker(models.label, [models])
    if not chosen.attacks.is_constant:
        raise ProfileError(f"{chosen.name!r} has random attacks; a random A cannot be split")
    a = int(chosen.attacks)
    score = _metric(metric, len(targets))
    cache: dict[tuple[str, int], AttackResult] = {}
    base = Context() if context is None else context
    weapons = [(split_weapon(chosen, a), models.count)]
    most = Request(weapons, None, None, None, rules, replace(base, melee=True), modifiers)
    check_splits(a, most, targets)

    def result(unit: Unit, k: int) -> AttackResult:
        """The target's result from ``k`` attacks per model, made once: each target's
        outcome depends only on its own attacks."""
        key = (unit.name, k)
        if key not in cache:
            cache[key] = attack(
                [(split_weapon(chosen, k), models.count)],
                unit,
                rules=rules,
                context=replace(base, melee=True),
                modifiers=modifiers,
            )
        return cache[key]

    rows = []
    for split in _compositions(a, len(targets)):
        results = {unit.name: result(unit, k) for unit, k in zip(targets, split, strict=True)}
        rows.append(_split_row(targets, split, UnitAttackResult(attacker, results), score))
    frame = pd.DataFrame(rows)
    return frame.sort_values("metric", ascending=False, kind="stable").reset_index(drop=True)


def _split_row(
    targets: Sequence[Unit],
    split: tuple[int, ...],
    outcome: UnitAttackResult,
    score: Callable[[UnitAttackResult], float],
) -> dict[str, Any]:
    """A row of :func:`best_splits`: the attacks per model at each target, the metric,
    the models destroyed and P(destroyed) of each target."""
    row: dict[str, Any] = {u.name: k for u, k in zip(targets, split, strict=True)}
    row["metric"] = score(outcome)
    row["expected killed"] = outcome.expected_killed
    for u in targets:
        row[f"P(destroyed) {u.name}"] = outcome[u.name].p_destroyed
    return row


#: The metrics of :func:`best_splits`: by column, and the parametrised ones by their stem.
SPLIT_METRICS = ("mean_killed", "p_destroyed:", "at_least:")


def _metric(
    metric: str | Callable[[UnitAttackResult], float], targets: int
) -> Callable[[UnitAttackResult], float]:
    """A split's score from its result, for a metric named or given as a function."""
    if callable(metric):
        return metric
    column = metric_column(metric, among=SPLIT_METRICS)
    if column.startswith("p_destroyed:"):
        name = column.removeprefix("p_destroyed:")
        return lambda r: r[name].p_destroyed
    scores: dict[str, Callable[[UnitAttackResult], float]] = {
        "mean_killed": lambda r: r.expected_killed,
        "at_least:all": lambda r: r.p_all_destroyed,
        f"at_least:{targets}": lambda r: r.p_all_destroyed,
        "at_least:1": lambda r: r.p_any_destroyed,
    }
    if column not in scores:
        raise field_error(OptionError, "metric", f"at_least:k with k = 1 or {targets}", metric)
    return scores[column]
