"""Who shoots what: a unit's weapons assigned to targets, to maximise a stated metric, exactly.

Before any die is rolled the attacker declares which weapons of the unit fire at which enemy
unit. Given the unit's declarations (which models use which weapon) and the targets,
:func:`plan_targets` scores assignments of each declaration to a target by the exact attacks
they make: each target's result depends only on the declarations sent at it, so it is
computed once per (target, set of declarations) and every assignment is scored from those.
Where the assignments are few (:data:`MAX_EXHAUSTIVE`), all are scored; past that, a local
search moves one declaration at a time from each "everything at one target" plan while a move
helps, then one or two at a time from the best of those (a local optimum, said so).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import numpy as np

from ..decisions.attack import attack
from ..decisions.runs import Request
from ..decisions.work import check_assignments
from ..errors import OptionError, field_error
from ..model.context import Context, Modifiers
from ..model.profiles import Unit, Weapon
from ..results.attack import AttackResult
from ..results.columns import metric_column
from ..rules.registry import RulesetLike
from .loadout import Loadout
from .selection import Attacker, Declaration, Use, _check_distinct, from_loadout, per_target
from .targets import Target

if TYPE_CHECKING:  # pandas is imported where a table is made: import time matters
    import pandas as pd

__all__ = ["MAX_EXHAUSTIVE", "TargetPlan", "plan_army", "plan_targets"]

#: Up to this many assignments (targets ** declarations) every one is scored.
MAX_EXHAUSTIVE = 50_000
#: Past :data:`MAX_EXHAUSTIVE`, the local search moves declarations among the best this
#: many targets for each declaration alone, and the best this many single targets.
CANDIDATES = 3
#: Up to this many targets, the local search moves declarations among them all.
FEW_TARGETS = 12

Assignment = tuple[int, ...]
#: A declaration of an army: the unit's position, its models and its weapon.
Row = tuple[int, int | str, str | Weapon]
#: A plan's metric from each target's result (a target given nothing: no result).
Score = Callable[[dict[int, AttackResult]], float]


@dataclass(frozen=True)
class TargetPlan:
    """The best assignment of the declarations of one unit (or of an army's units) to
    targets that was found.

    Attributes
    ----------
    attackers : tuple of Attacker
        The attacking units, in the order they attack.
    declarations : tuple of (unit, models, weapon)
        Each declaration: the unit's position in ``attackers``, its models and weapon.
    targets : tuple of Target
    assignment : tuple of int
        Each declaration's target, by position in ``targets``.
    value : float
        The plan's metric, exact.
    naive : float
        The metric of the best plan that sends everything at one target (the baseline).
    naive_target : int
        That target, by position in ``targets`` (the first of equals).
    metric : str
    method : str
        ``"exhaustive"`` or ``"local search from each target"``.
    scored : int
        How many assignments were scored.
    results : dict of str to AttackResult
        Each target's result under the plan (targets given nothing are left out).
    """

    attackers: tuple[Attacker, ...]
    declarations: tuple[Row, ...]
    targets: tuple[Target, ...]
    assignment: Assignment
    value: float
    naive: float
    naive_target: int
    metric: str
    method: str
    scored: int
    results: dict[str, AttackResult]

    def frame(self) -> pd.DataFrame:
        """The plan as a table: one row per declaration (unit, models, weapon, target)."""
        import pandas as pd

        rows = []
        for (u, models, weapon), t in zip(self.declarations, self.assignment, strict=True):
            group = self.attackers[u].group(models)
            rows.append(
                {
                    "unit": self.attackers[u].name,
                    "models": f"{group.count}x {group.label}",
                    "weapon": group.weapon(weapon).name,
                    "target": self.targets[t].name,
                }
            )
        return pd.DataFrame(rows)

    @property
    def baseline(self) -> str:
        """The target of the best plan that sends everything at one target."""
        return self.targets[self.naive_target].name

    @property
    def _who(self) -> str:
        """The attacking units' names."""
        return ", ".join(a.name for a in self.attackers)

    @property
    def _headline(self) -> str:
        """The plan's metric against the baseline's, and how it was found."""
        return (
            f"{self.metric} {self.value:.4g} (everything at {self.baseline}: "
            f"{self.naive:.4g}); {self.method}, {self.scored} plans scored"
        )

    def _repr_html_(self) -> str:
        from ..views.html import result_html

        charts = [(r.killed, f"{name}: models destroyed") for name, r in self.results.items()]
        return result_html(self._who, "plan", self._headline, charts, self.frame())

    def __repr__(self) -> str:
        return f"<TargetPlan {self._who}: {self._headline}>"


#: The metrics of a plan: by column, and the parametrised ones by their stem.
PLAN_METRICS = ("mean_killed", "points_destroyed", "p_destroyed:", "at_least:")


def _metric(metric: str, targets: Sequence[Target]) -> Score:
    """The plan's score from each target's result (a target given nothing: no result)."""
    column = metric_column(metric, among=PLAN_METRICS)
    if column == "mean_killed":
        return _killed
    if column == "points_destroyed":
        return _points_metric(targets)
    if column.startswith("p_destroyed:"):
        return _destroyed_metric(column.removeprefix("p_destroyed:"), targets)
    return _at_least_metric(column, targets)


def _killed(got: dict[int, AttackResult]) -> float:
    """The expected models destroyed, over all targets."""
    return sum(r.killed.mean() for r in got.values())


def _points_metric(targets: Sequence[Target]) -> Score:
    """The expected points destroyed, over all targets (every one needs points)."""
    missing = [t.name for t in targets if t.points is None]
    if missing:
        raise field_error(OptionError, "metric 'points_destroyed'", "targets with points", missing)
    return lambda got: sum(float(targets[t].points_destroyed(r) or 0.0) for t, r in got.items())


def _destroyed_metric(name: str, targets: Sequence[Target]) -> Score:
    """P(the target called ``name`` is destroyed)."""
    names = [t.name for t in targets]
    if name not in names:
        raise field_error(OptionError, "metric", f"a target of {names}", name)
    index = names.index(name)
    return lambda got: got[index].p_destroyed if index in got else 0.0


def _at_least_metric(metric: str, targets: Sequence[Target]) -> Score:
    """P(at least k targets are destroyed), for ``"at_least:<k>"`` (``"at_least:all"``:
    every target)."""
    digits = metric.removeprefix("at_least:")
    k = len(targets) if digits == "all" else int(digits)  # metric_column checked the form
    if k > len(targets):
        raise field_error(
            OptionError, "metric", f"at_least:k with k from 1 to {len(targets)}", metric
        )

    def at_least(got: dict[int, AttackResult]) -> float:
        count = np.array([1.0])  # P(j targets destroyed): independent targets
        for r in got.values():
            p = r.p_destroyed
            count = np.append(count * (1 - p), 0.0) + np.append(0.0, count * p)
        return float(count[k:].sum())

    return at_least


def _targets(targets: Iterable[Unit | Target]) -> tuple[Target, ...]:
    """The targets given, each as a :class:`Target`: one or more, names distinct."""
    pool = tuple(t if isinstance(t, Target) else Target(t) for t in targets)
    if not pool:
        raise field_error(OptionError, "targets", "at least one Unit or Target", pool)
    _check_distinct([t.name for t in pool], "targets", "units with distinct names", OptionError)
    return pool


def _search(
    declarations: int,
    targets: int,
    make: Callable[[int, Sequence[int]], AttackResult],
    score: Score,
    progress: Callable[[int, int], None] | None = None,
    given: Assignment | None = None,
) -> tuple[
    Assignment, float, tuple[float, int], str, int, Callable[[Assignment], dict[int, AttackResult]]
]:
    """The best assignment of ``declarations`` to ``targets`` by ``score``: every one when
    they are few, else a local search (single moves from each "everything at one target"
    plan, then pairs of moves from the best); or the ``given`` one, scored. Each target's
    result is made once per set of declarations sent at it (``make(target, declarations
    in order)``)."""
    search = _Search(declarations, targets, make, score)
    singles = [search.value((t,) * declarations) for t in range(targets)]
    naive_target = max(range(targets), key=lambda t: (singles[t], -t))  # the first of equals
    naive = (singles[naive_target], naive_target)
    if given is not None:
        return given, search.value(given), naive, "given", targets + 1, search.outcome
    # the baselines are among the plans the search scores: not counted apart
    if targets**declarations <= MAX_EXHAUSTIVE:
        best, best_value, scored = search.exhaustive()
        return best, best_value, naive, "exhaustive", scored, search.outcome
    best, best_value, method, scored = search.local(singles, naive_target, progress)
    return best, best_value, naive, method, scored, search.outcome


def _checked_assignment(
    given: Sequence[int], declarations: int, pool: Sequence[Target]
) -> Assignment:
    """A plan to score: a target's position for each declaration, in range."""
    plan = tuple(given)
    positions = list(range(len(pool)))
    if len(plan) != declarations or any(isinstance(t, bool) or t not in positions for t in plan):
        what = f"{declarations} target positions, each 0 to {len(pool) - 1}"
        raise field_error(OptionError, "assignment", what, given)
    return tuple(map(int, plan))


def _better(value: float, than: float) -> bool:
    """True if ``value`` beats ``than`` by more than rounding."""
    return value > than + 1e-12 * max(1.0, abs(value))


class _Search:
    """Assignments of ``declarations`` to ``targets`` scored by ``score``, each target's
    result made once per set of declarations sent at it (``make(target, declarations in
    order)``)."""

    def __init__(
        self,
        declarations: int,
        targets: int,
        make: Callable[[int, Sequence[int]], AttackResult],
        score: Score,
    ) -> None:
        self.declarations, self.targets = declarations, targets
        self.make, self.score = make, score
        self.results: dict[tuple[int, frozenset[int]], AttackResult] = {}

    def result(self, t: int, sent: list[int]) -> AttackResult:
        """Target ``t``'s result under the declarations sent at it, made on first use."""
        key = (t, frozenset(sent))
        if key not in self.results:
            self.results[key] = self.make(t, sent)
        return self.results[key]

    def outcome(self, assignment: Assignment) -> dict[int, AttackResult]:
        """Each target's result under the assignment (targets given nothing left out), the
        targets in order, as a plan's results list them."""
        sent: dict[int, list[int]] = {}  # each target's declarations, in one pass
        for i, t in enumerate(assignment):
            sent.setdefault(t, []).append(i)
        return {t: self.result(t, sent[t]) for t in sorted(sent)}

    def value(self, assignment: Assignment) -> float:
        """The assignment's score."""
        return self.score(self.outcome(assignment))

    def alone(self, i: int, t: int) -> float:
        """The metric of declaration ``i`` alone at target ``t``."""
        return self.score({t: self.result(t, [i])})

    def exhaustive(self) -> tuple[Assignment, float, int]:
        """The best of every assignment (the first of equals), its value, and the number
        scored."""
        best, best_value, scored = (0,) * self.declarations, -math.inf, 0
        for assignment in itertools.product(range(self.targets), repeat=self.declarations):
            value = self.value(assignment)
            scored += 1
            if _better(value, best_value):
                best, best_value = assignment, value
        return best, best_value, scored

    def local(
        self,
        singles: Sequence[float],
        naive_target: int,
        progress: Callable[[int, int], None] | None,
    ) -> tuple[Assignment, float, str, int]:
        """The best plan of a local search (single moves from each one-target plan, then
        pairs of moves from the best), its value, the method in words, and the number of
        plans scored; ``progress`` told of each start and of the pairs."""
        candidates = self.candidates(singles)
        best, best_value, scored = (naive_target,) * self.declarations, -math.inf, 0
        steps = len(candidates) + 1
        for done, start in enumerate(candidates, 1):  # single moves from each one-target plan
            plan = (start,) * self.declarations
            found, value, count = self.improve(plan, singles[start], candidates, pairs=False)
            scored += count + 1
            if _better(value, best_value):
                best, best_value = found, value
            if progress is not None:
                progress(done, steps)
        best, best_value, count = self.improve(best, best_value, candidates, pairs=True)
        scored += count
        if progress is not None:
            progress(steps, steps)
        return best, best_value, _local_method(len(candidates), self.targets), scored

    def candidates(self, singles: Sequence[float]) -> list[int]:
        """The targets the local search moves declarations among: all of a few; else those
        each declaration does best alone and the best single targets (the work bounded up
        front, whatever the faction's size)."""
        if self.targets <= FEW_TARGETS:
            return list(range(self.targets))
        ranked = sorted(range(self.targets), key=lambda t: (-singles[t], t))
        kept = set(ranked[:CANDIDATES])
        for i in range(self.declarations):
            values = [self.alone(i, t) for t in range(self.targets)]
            kept.update(sorted(range(self.targets), key=lambda t: (-values[t], t))[:CANDIDATES])
        return sorted(kept)

    def improve(
        self, plan: Assignment, value: float, where: Sequence[int], pairs: bool
    ) -> tuple[Assignment, float, int]:
        """Moves of one declaration (then, with ``pairs``, of two at once) to the targets
        ``where`` while one helps: the plan, its value and the number of plans scored."""
        moves = _moves(self.declarations, where, pairs)
        count, at, since = 0, 0, 0  # the moves tried in turn, round and round, until a
        while since < len(moves):  # whole round finds nothing better
            move, at, since = moves[at], (at + 1) % len(moves), since + 1
            trial = _moved(plan, move)
            if trial == plan:
                continue
            found = self.value(trial)
            count += 1
            if _better(found, value):
                plan, value, since = trial, found, 0
        return plan, value, count


def _moved(plan: Assignment, move: tuple[tuple[int, int], ...]) -> Assignment:
    """The plan with each ``(declaration, target)`` of the move made."""
    trial = list(plan)
    for i, t in move:
        trial[i] = t
    return tuple(trial)


def _moves(
    declarations: int, where: Sequence[int], pairs: bool
) -> list[tuple[tuple[int, int], ...]]:
    """Each move of one declaration to a target of ``where``; then, with ``pairs``, each
    move of two at once."""
    moves: list[tuple[tuple[int, int], ...]] = [
        ((i, t),) for i in range(declarations) for t in where
    ]
    if pairs:
        moves += _pair_moves(declarations, where)
    return moves


def _pair_moves(declarations: int, where: Sequence[int]) -> list[tuple[tuple[int, int], ...]]:
    """Each move of two declarations at once, to targets of ``where``."""
    return [
        ((i, a), (j, b))
        for i, j in itertools.combinations(range(declarations), 2)
        for a, b in itertools.product(where, repeat=2)
    ]


def _local_method(kept: int, targets: int) -> str:
    """The local search in words, with the targets it kept when not all."""
    method = "local search from each target"
    if kept < targets:
        method += (
            f" over {kept} of {targets} targets (the best {CANDIDATES} for each "
            "declaration alone and for everything at once)"
        )
    return method


def plan_targets(
    attacker: Attacker,
    declarations: Iterable[Declaration],
    targets: Iterable[Unit | Target],
    *,
    metric: str = "mean_killed",
    phase: str = "shooting",
    rules: RulesetLike = "11e",
    context: Context | None = None,
    modifiers: Modifiers | None = None,
) -> TargetPlan:
    """The assignment of a unit's declarations to targets that maximises ``metric``.

    Parameters
    ----------
    attacker : Attacker
    declarations : iterable of (models, weapon)
        Which models use which weapon (a group by position or name, a weapon by name),
        checked against the selection rules as :func:`mathhammer.resolve` checks them.
    targets : iterable of Unit or Target
        The enemy units (a Target brings its points).
    metric : str
        ``"mean_killed"`` (expected models destroyed, over all targets),
        ``"points_destroyed"`` (expected points destroyed: every target needs points),
        ``"p_destroyed:<target name>"`` (P(that target is destroyed)) or
        ``"at_least:<k>"`` (P(at least k targets are destroyed); ``"at_least:all"``); the
        short names ``"killed"``, ``"points"`` and ``"destroyed:<target name>"`` are
        aliases (:func:`mathhammer.metric_column`).

    Returns
    -------
    TargetPlan
        The plan, its exact metric, and the baseline's: the best plan that sends everything
        at one target (``naive``, at ``baseline``).
        Ties go to the first assignment in the order scored: declarations in the order
        given, each trying the targets in the order given.

    Examples
    --------
    >>> import mathhammer as mh
    >>> rifle = mh.Weapon("Rifle", 2, 3, 4, 0, 1)
    >>> lascannon = mh.Weapon("Lascannon", 1, 3, 12, -3, "D6+1")
    >>> squad = mh.Attacker("Squad", [mh.Models(4, [rifle], name="Troopers"),
    ...                               mh.Models(1, [lascannon], name="Gunner")])
    >>> enemies = [mh.Unit.of("Grunts", 10, 3, 5, 1), mh.Unit.of("Tank", 1, 10, 3, 12)]
    >>> plan = mh.plan_targets(squad, [("Troopers", "Rifle"), ("Gunner", "Lascannon")], enemies)
    >>> plan.frame()["target"].tolist()  # rifles at the grunts; the lascannon too
    ['Grunts', 'Grunts']
    """
    declared = tuple(declarations)
    if not declared:
        raise field_error(OptionError, "declarations", "at least one (models, weapon)", declared)
    unit = (attacker, declared, context)
    return plan_army([unit], targets, metric=metric, phase=phase, rules=rules, modifiers=modifiers)


def plan_army(
    units: Iterable[tuple[Any, ...] | Loadout],
    targets: Iterable[Unit | Target],
    *,
    metric: str = "mean_killed",
    phase: str = "shooting",
    rules: RulesetLike = "11e",
    modifiers: Modifiers | None = None,
    progress: Callable[[int, int], None] | None = None,
    assignment: Sequence[int] | None = None,
) -> TargetPlan:
    """Who shoots what across an army: each unit's declarations assigned to targets, the
    units attacking in the order given and each target's state carried from unit to unit
    (``attack(..., start=...)``), to maximise ``metric`` (as :func:`plan_targets`).

    Parameters
    ----------
    units : iterable of (Attacker, declarations), (Attacker, declarations, Context) or Loadout
        The attacking units in order, each with its (models, weapon) declarations and,
        optionally, its own context; a :class:`~mathhammer.Loadout` (as a roster or a
        profiles CSV gives them) declares each of its weapon lines (:func:`from_loadout`).
    progress : callable, optional
        Called with (steps done, steps) as a long search goes: each start of the local
        search, then its pairs of moves.
    assignment : sequence of int, optional
        A plan to score rather than search for: each declaration's target, by position in
        ``targets``, the declarations in the order the units give them. The plan returned
        is that one (``method`` ``"given"``), with its exact metric beside the naive one.

    Examples
    --------
    >>> import mathhammer as mh
    >>> rifle = mh.Weapon("Rifle", 2, 3, 4, 0, 1)
    >>> first = mh.Attacker("First", [mh.Models(10, [rifle])])
    >>> second = mh.Attacker("Second", [mh.Models(10, [rifle])])
    >>> enemies = [mh.Unit.of("Squad", 5, 4, 4, 1), mh.Unit.of("Pair", 2, 4, 4, 1)]
    >>> plan = mh.plan_army([(first, [(0, "Rifle")]), (second, [(0, "Rifle")])], enemies,
    ...                     metric="at_least:2")
    >>> plan.frame()["target"].tolist()  # one unit at each: both destroyed most often
    ['Squad', 'Pair']
    >>> both = mh.plan_army([(first, [(0, "Rifle")]), (second, [(0, "Rifle")])], enemies,
    ...                     metric="at_least:2", assignment=[0, 0])
    >>> both.method, both.value < plan.value, both.value == both.naive
    ('given', True, True)
    """
    given = list(units)
    if not given:
        raise field_error(OptionError, "units", "at least one (Attacker, declarations)", given)
    pool = _targets(targets)
    score = _metric(metric, pool)
    metric = metric_column(metric)
    attackers, rows, weapons, contexts = _declare_army(given, pool[0].unit, phase)
    chosen = None if assignment is None else _checked_assignment(assignment, len(rows), pool)
    if chosen is None and len(pool) ** len(rows) <= MAX_EXHAUSTIVE:  # local: bounded
        works = [
            Request(w, None, None, None, rules, contexts[r[0]], modifiers)
            for r, w in zip(rows, weapons, strict=True)
        ]
        check_assignments(works, [t.unit for t in pool])

    def make(t: int, chosen: Sequence[int]) -> AttackResult:
        result: AttackResult | None = None
        for u in range(len(attackers)):  # the units in turn, the target's state carried
            entries = [e for i in chosen if rows[i][0] == u for e in weapons[i]]
            if entries:
                result = attack(
                    entries, pool[t].unit, rules=rules, context=contexts[u],
                    modifiers=modifiers, start=result,
                )  # fmt: skip
        assert result is not None  # chosen is never empty
        return result

    best, best_value, naive, method, scored, outcome = _search(
        len(rows), len(pool), make, score, progress, chosen
    )
    plan_results = {pool[t].name: r for t, r in outcome(best).items()}
    return TargetPlan(
        tuple(attackers), tuple(rows), pool, best, best_value, naive[0], naive[1], metric,
        method, scored, plan_results,
    )  # fmt: skip


def _declare_army(
    given: list[Any], target: Unit, phase: str
) -> tuple[list[Attacker], list[Row], list[list[tuple[Weapon, int]]], list[Context]]:
    """An army's units checked (their declarations legal against ``target`` in ``phase``):
    the attackers, each declaration as (unit, models, weapon), the weapons each declaration
    fires, and each unit's context in the phase."""
    attackers: list[Attacker] = []
    rows: list[Row] = []
    weapons: list[list[tuple[Weapon, int]]] = []
    contexts: list[Context] = []
    for u, item in enumerate(given):
        attacker, declared, context = _army_unit(u, item)
        per_target(attacker, [Use(m, w, target=target) for m, w in declared], phase)
        attackers.append(attacker)
        contexts.append(replace(context, melee=phase == "fight"))
        for models, weapon in declared:
            group = attacker.group(models)
            rows.append((u, models, weapon))
            weapons.append([(group.weapon(weapon), group.count)])
    return attackers, rows, weapons, contexts


def _army_unit(u: int, item: Any) -> tuple[Attacker, tuple[Declaration, ...], Context]:
    """Unit ``u`` of an army: its attacker, its declarations (one or more) and its context
    (``Context()`` by default)."""
    item = _unit_tuple(u, item)
    attacker, declared, context = (*item, None)[:3]  # the context is optional
    declared = tuple(declared)
    if not isinstance(attacker, Attacker) or not declared:
        wanted = "an Attacker with at least one (models, weapon)"
        raise field_error(OptionError, f"units[{u}]", wanted, item)
    return attacker, declared, Context() if context is None else context


def _unit_tuple(u: int, item: Any) -> tuple[Any, ...]:
    """Unit ``u`` of an army as an (Attacker, declarations[, Context]) tuple, a Loadout
    made one (:func:`from_loadout`); any other shape refused."""
    if isinstance(item, Loadout):
        item = _loadout_unit(u, item)
    if not isinstance(item, tuple) or len(item) not in (2, 3):
        wanted = "(Attacker, declarations) or (Attacker, declarations, Context)"
        raise field_error(OptionError, f"units[{u}]", wanted, item)
    return item


def _loadout_unit(u: int, loadout: Loadout) -> tuple[Attacker, list[Declaration], Context | None]:
    """A loadout of an army as its attacker, declarations and context
    (:func:`from_loadout`); one without weapons is refused."""
    made = from_loadout(loadout)
    if made is None:
        raise field_error(OptionError, f"units[{u}]", "a loadout with weapons", loadout.name)
    return made
