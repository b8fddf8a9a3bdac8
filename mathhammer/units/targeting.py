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

from ..errors import OptionError, field_error
from ..decisions.attack import attack
from ..model.context import Context, Modifiers
from ..model.profiles import Unit, Weapon
from ..results.attack import AttackResult
from .loadout import Loadout
from .selection import Attacker, Models, Use, per_target
from .targets import Target

if TYPE_CHECKING:  # pandas is imported where a table is made: import time matters
    import pandas as pd

__all__ = ["MAX_EXHAUSTIVE", "TargetPlan", "from_loadout", "plan_army", "plan_targets"]

#: Up to this many assignments (targets ** declarations) every one is scored.
MAX_EXHAUSTIVE = 50_000
#: Past :data:`MAX_EXHAUSTIVE`, the local search moves declarations among the best this
#: many targets for each declaration alone, and the best this many single targets.
CANDIDATES = 3
#: Up to this many targets, the local search moves declarations among them all.
FEW_TARGETS = 12

Declaration = tuple[int | str, str | Weapon]
Assignment = tuple[int, ...]


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
    declarations: tuple[tuple[int, int | str, str | Weapon], ...]
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

    def _repr_html_(self) -> str:
        from ..views.html import result_html

        charts = [(r.killed, f"{name}: models destroyed") for name, r in self.results.items()]
        headline = (
            f"{self.metric} {self.value:.4g} (everything at {self.baseline}: "
            f"{self.naive:.4g}); {self.method}, {self.scored} plans scored"
        )
        who = ", ".join(a.name for a in self.attackers)
        return result_html(who, "plan", headline, charts, self.frame())

    def __repr__(self) -> str:
        who = ", ".join(a.name for a in self.attackers)
        return (
            f"<TargetPlan {who}: {self.metric} {self.value:.4g} "
            f"(everything at {self.baseline}: {self.naive:.4g}); {self.method}, "
            f"{self.scored} plans scored>"
        )


def _metric(metric: str, targets: Sequence[Target]) -> Callable[[dict[int, AttackResult]], float]:
    """The plan's score from each target's result (a target given nothing: no result)."""
    names = [t.name for t in targets]
    if metric == "killed":
        return lambda got: sum(r.killed.mean() for r in got.values())
    if metric == "points":
        missing = [t.name for t in targets if t.points is None]
        if missing:
            raise field_error(OptionError, "metric 'points'", "targets with points", missing)
        return lambda got: sum(float(targets[t].points_destroyed(r) or 0.0) for t, r in got.items())
    if metric.startswith("destroyed:"):
        name = metric.removeprefix("destroyed:")
        if name not in names:
            raise field_error(OptionError, "metric", f"a target of {names}", name)
        index = names.index(name)
        return lambda got: got[index].p_destroyed if index in got else 0.0
    if metric.startswith("at_least:"):
        digits = metric.removeprefix("at_least:")
        if not digits.isdigit() or not 1 <= int(digits) <= len(targets):
            raise field_error(
                OptionError, "metric", f"at_least:k with k from 1 to {len(targets)}", metric
            )
        k = int(digits)

        def at_least(got: dict[int, AttackResult]) -> float:
            count = np.array([1.0])  # P(j targets destroyed): independent targets
            for r in got.values():
                p = r.p_destroyed
                count = np.append(count * (1 - p), 0.0) + np.append(0.0, count * p)
            return float(count[k:].sum())

        return at_least
    wanted = "'killed', 'points', 'destroyed:<target>' or 'at_least:<k>'"
    raise field_error(OptionError, "metric", wanted, metric)


def _targets(targets: Iterable[Unit | Target]) -> tuple[Target, ...]:
    pool = tuple(t if isinstance(t, Target) else Target(t) for t in targets)
    if not pool:
        raise field_error(OptionError, "targets", "at least one Unit or Target", pool)
    names = [t.name for t in pool]
    if len(set(names)) != len(names):
        raise field_error(OptionError, "targets", "units with distinct names", names)
    return pool


def _search(
    declarations: int,
    targets: int,
    make: Callable[[int, Sequence[int]], AttackResult],
    score: Callable[[dict[int, AttackResult]], float],
    progress: Callable[[int, int], None] | None = None,
) -> tuple[
    Assignment, float, tuple[float, int], str, int, Callable[[Assignment], dict[int, AttackResult]]
]:
    """The best assignment of ``declarations`` to ``targets`` by ``score``: every one when
    they are few, else a local search (single moves from each "everything at one target"
    plan, then pairs of moves from the best). Each target's result is made once per set of
    declarations sent at it (``make(target, declarations in order)``)."""
    results: dict[tuple[int, frozenset[int]], AttackResult] = {}

    def outcome(assignment: Assignment) -> dict[int, AttackResult]:
        sent: dict[int, list[int]] = {}  # each target's declarations, in one pass
        for i, t in enumerate(assignment):
            sent.setdefault(t, []).append(i)
        got = {}
        for t in sorted(sent):  # the targets in order, as a plan's results list them
            key = (t, frozenset(sent[t]))
            if key not in results:
                results[key] = make(t, sent[t])
            got[t] = results[key]
        return got

    def better(value: float, than: float) -> bool:
        return value > than + 1e-12 * max(1.0, abs(value))

    def alone(i: int, t: int) -> float:
        """The metric of declaration ``i`` alone at target ``t``."""
        key = (t, frozenset((i,)))
        if key not in results:
            results[key] = make(t, [i])
        return score({t: results[key]})

    singles = [score(outcome((t,) * declarations)) for t in range(targets)]
    naive_target = max(range(targets), key=lambda t: (singles[t], -t))  # the first of equals
    naive = (singles[naive_target], naive_target)
    scored = 0  # the baselines are among the plans the search scores
    if targets**declarations <= MAX_EXHAUSTIVE:
        best, best_value = (0,) * declarations, -math.inf
        for assignment in itertools.product(range(targets), repeat=declarations):
            value = score(outcome(assignment))
            scored += 1
            if better(value, best_value):
                best, best_value = assignment, value
        return best, best_value, naive, "exhaustive", scored, outcome

    def improve(
        plan: Assignment, value: float, where: Sequence[int], pairs: bool
    ) -> tuple[Assignment, float, int]:
        """Moves of one declaration (then, with ``pairs``, of two at once) to the targets
        ``where`` while one helps."""
        moves: list[tuple[tuple[int, int], ...]] = [
            ((i, t),) for i in range(declarations) for t in where
        ]
        if pairs:
            moves += [
                ((i, a), (j, b))
                for i, j in itertools.combinations(range(declarations), 2)
                for a, b in itertools.product(where, repeat=2)
            ]
        count, at, since = 0, 0, 0  # the moves tried in turn, round and round, until a
        while since < len(moves):  # whole round finds nothing better
            move, at, since = moves[at], (at + 1) % len(moves), since + 1
            trial = list(plan)
            for i, t in move:
                trial[i] = t
            if tuple(trial) == plan:
                continue
            found = score(outcome(tuple(trial)))
            count += 1
            if better(found, value):
                plan, value, since = tuple(trial), found, 0
        return plan, value, count

    # the search moves declarations among the targets each does best alone and the best
    # single targets: the work bounded up front, whatever the faction's size
    ranked = sorted(range(targets), key=lambda t: (-singles[t], t))
    kept = set(ranked[:CANDIDATES] if targets > FEW_TARGETS else ranked)
    for i in range(declarations if targets > FEW_TARGETS else 0):
        values = [alone(i, t) for t in range(targets)]
        kept.update(sorted(range(targets), key=lambda t: (-values[t], t))[:CANDIDATES])
    candidates = sorted(kept)
    best, best_value = (naive_target,) * declarations, -math.inf
    steps = len(candidates) + 1
    for done, start in enumerate(candidates, 1):  # single moves from each one-target plan
        plan = (start,) * declarations
        found, value, count = improve(plan, singles[start], candidates, pairs=False)
        scored += count + 1
        if better(value, best_value):
            best, best_value = found, value
        if progress is not None:
            progress(done, steps)
    best, best_value, count = improve(best, best_value, candidates, pairs=True)  # then pairs
    scored += count
    if progress is not None:
        progress(steps, steps)
    method = "local search from each target"
    if len(candidates) < targets:
        method += (
            f" over {len(candidates)} of {targets} targets (the best {CANDIDATES} for each "
            "declaration alone and for everything at once)"
        )
    return best, best_value, naive, method, scored, outcome


def plan_targets(
    attacker: Attacker,
    declarations: Iterable[Declaration],
    targets: Iterable[Unit | Target],
    *,
    metric: str = "killed",
    phase: str = "shooting",
    rules: str = "11e",
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
        ``"killed"`` (expected models destroyed, over all targets), ``"points"`` (expected
        points destroyed: every target needs points), ``"destroyed:<target name>"``
        (P(that target is destroyed)) or ``"at_least:<k>"`` (P(at least k targets are
        destroyed)).

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


def from_loadout(loadout: Loadout) -> tuple[Attacker, list[Declaration], Context | None] | None:
    """A loadout as an attacking unit for :func:`plan_army`: a group of models per weapon
    (mortal-wound steps left out), each a declaration, with the loadout's context; None
    when it has no weapon. Identical weapon lines (a roster stores each model as its own
    selection) are one group: they are declared together.

    Examples
    --------
    >>> import mathhammer as mh
    >>> rifle, plasma = mh.Weapon("Rifle", 2, 3, 4), mh.Weapon("Rifle", 1, 3, 7, -2, 2)
    >>> squad = mh.Loadout("Squad", [(rifle, 4), (plasma, 1), (rifle, 5)])
    >>> attacker, declared, _ = from_loadout(squad)
    >>> [(m.label, m.count) for m in attacker.models], declared
    ([('Rifle #1', 9), ('Rifle #2', 1)], [('Rifle #1', 'Rifle'), ('Rifle #2', 'Rifle')])
    """
    merged: dict[Weapon, int] = {}
    for weapon, count in loadout.weapon_counts:
        merged[weapon] = merged.get(weapon, 0) + count
    lines = list(merged.items())
    if not lines:
        return None
    names = [w.name for w, _ in lines]
    labels = [
        name if names.count(name) == 1 else f"{name} #{names[: i + 1].count(name)}"
        for i, name in enumerate(names)
    ]
    groups = [Models(n, [w], name=label) for (w, n), label in zip(lines, labels, strict=True)]
    declared: list[Declaration] = [(g.name, g.weapons[0].name) for g in groups]
    return Attacker(loadout.name, groups), declared, loadout.context


def plan_army(
    units: Iterable[tuple[Any, ...] | Loadout],
    targets: Iterable[Unit | Target],
    *,
    metric: str = "killed",
    phase: str = "shooting",
    rules: str = "11e",
    modifiers: Modifiers | None = None,
    progress: Callable[[int, int], None] | None = None,
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
    """
    given = list(units)
    if not given:
        raise field_error(OptionError, "units", "at least one (Attacker, declarations)", given)
    pool = _targets(targets)
    score = _metric(metric, pool)
    rows: list[tuple[int, int | str, str | Weapon]] = []
    weapons: list[list[tuple[Weapon, int]]] = []
    contexts: list[Context] = []
    attackers: list[Attacker] = []
    for u, item in enumerate(given):
        if isinstance(item, Loadout):
            made = from_loadout(item)
            if made is None:
                raise field_error(OptionError, f"units[{u}]", "a loadout with weapons", item.name)
            item = made
        if not isinstance(item, tuple) or len(item) not in (2, 3):
            wanted = "(Attacker, declarations) or (Attacker, declarations, Context)"
            raise field_error(OptionError, f"units[{u}]", wanted, item)
        attacker, declared = item[0], tuple(item[1])
        context = item[2] if len(item) == 3 and item[2] is not None else Context()
        if not isinstance(attacker, Attacker) or not declared:
            wanted = "an Attacker with at least one (models, weapon)"
            raise field_error(OptionError, f"units[{u}]", wanted, item)
        per_target(attacker, [Use(m, w, target=pool[0].unit) for m, w in declared], phase)
        attackers.append(attacker)
        contexts.append(replace(context, melee=phase == "fight"))
        for models, weapon in declared:
            group = attacker.group(models)
            rows.append((u, models, weapon))
            weapons.append([(group.weapon(weapon), group.count)])

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
        len(rows), len(pool), make, score, progress
    )
    plan_results = {pool[t].name: r for t, r in outcome(best).items()}
    return TargetPlan(
        tuple(attackers), tuple(rows), pool, best, best_value, naive[0], naive[1], metric,
        method, scored, plan_results,
    )  # fmt: skip
