"""Who shoots what: a unit's weapons assigned to targets, to maximise a stated metric, exactly.

Before any die is rolled the attacker declares which weapons of the unit fire at which enemy
unit. Given the unit's declarations (which models use which weapon) and the targets,
:func:`plan_targets` scores assignments of each declaration to a target by the exact attacks
they make: each target's result depends only on the declarations sent at it, so it is
computed once per (target, set of declarations) and every assignment is scored from those.
Where the assignments are few (:data:`MAX_EXHAUSTIVE`), all are scored; past that, a greedy
plan is improved one declaration at a time until no move helps (a local optimum, said so).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np

from ..errors import OptionError, field_error
from ..exact.engine import attack
from ..model.context import Context, Modifiers
from ..model.profiles import Unit, Weapon
from ..results.attack import AttackResult
from .selection import Attacker, Use, per_target
from .targets import Target

if TYPE_CHECKING:  # pandas is imported where a table is made: import time matters
    import pandas as pd

__all__ = ["MAX_EXHAUSTIVE", "TargetPlan", "plan_targets"]

#: Up to this many assignments (targets ** declarations) every one is scored.
MAX_EXHAUSTIVE = 50_000

Declaration = tuple[int | str, str | Weapon]
Assignment = tuple[int, ...]


@dataclass(frozen=True)
class TargetPlan:
    """The best assignment of a unit's declarations to targets that was found.

    Attributes
    ----------
    attacker : Attacker
    declarations : tuple of (models, weapon)
    targets : tuple of Target
    assignment : tuple of int
        Each declaration's target, by position in ``targets``.
    value : float
        The plan's metric, exact.
    naive : float
        The metric of "everything at the first target".
    metric : str
    method : str
        ``"exhaustive"`` or ``"greedy + local moves"``.
    scored : int
        How many assignments were scored.
    results : dict of str to AttackResult
        Each target's result under the plan (targets given nothing are left out).
    """

    attacker: Attacker
    declarations: tuple[Declaration, ...]
    targets: tuple[Target, ...]
    assignment: Assignment
    value: float
    naive: float
    metric: str
    method: str
    scored: int
    results: dict[str, AttackResult]

    def frame(self) -> pd.DataFrame:
        """The plan as a table: one row per declaration (unit, models, weapon, target)."""
        import pandas as pd

        rows = []
        for (models, weapon), t in zip(self.declarations, self.assignment, strict=True):
            group = self.attacker.group(models)
            rows.append(
                {
                    "unit": self.attacker.name,
                    "models": f"{group.count}x {group.label}",
                    "weapon": group.weapon(weapon).name,
                    "target": self.targets[t].name,
                }
            )
        return pd.DataFrame(rows)

    def __repr__(self) -> str:
        return (
            f"<TargetPlan {self.attacker.name}: {self.metric} {self.value:.4g} "
            f"(everything at {self.targets[0].name}: {self.naive:.4g}); {self.method}, "
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
        The plan, its exact metric, and the naive plan's ("everything at the first target").
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
    pool = tuple(t if isinstance(t, Target) else Target(t) for t in targets)
    if not pool:
        raise field_error(OptionError, "targets", "at least one Unit or Target", pool)
    names = [t.name for t in pool]
    if len(set(names)) != len(names):
        raise field_error(OptionError, "targets", "units with distinct names", names)
    score = _metric(metric, pool)
    base = Context() if context is None else context
    base = replace(base, melee=phase == "fight")
    # the selection rules, checked once: they read the declarations, not their targets
    per_target(attacker, [Use(m, w, target=pool[0].unit) for m, w in declared], phase)
    weapons: dict[int, list[tuple[Weapon, int]]] = {}
    for i, (models, weapon) in enumerate(declared):
        group = attacker.group(models)
        weapons[i] = [(group.weapon(weapon), group.count)]
    results: dict[tuple[int, frozenset[int]], AttackResult] = {}

    def outcome(assignment: Assignment) -> dict[int, AttackResult]:
        got = {}
        for t in range(len(pool)):
            chosen = frozenset(i for i, a in enumerate(assignment) if a == t)
            if not chosen:
                continue
            key = (t, chosen)
            if key not in results:
                entries = [e for i in sorted(chosen) for e in weapons[i]]
                results[key] = attack(
                    entries, pool[t].unit, rules=rules, context=base, modifiers=modifiers
                )
            got[t] = results[key]
        return got

    naive = score(outcome((0,) * len(declared)))
    count = len(pool) ** len(declared)
    scored = 0
    if count <= MAX_EXHAUSTIVE:
        best, best_value = (0,) * len(declared), -math.inf
        for assignment in itertools.product(range(len(pool)), repeat=len(declared)):
            value = score(outcome(assignment))
            scored += 1
            if value > best_value + 1e-12 * max(1.0, abs(value)):
                best, best_value = assignment, value
        method = "exhaustive"
    else:
        best = (0,) * len(declared)
        best_value = naive
        improved = True
        while improved:  # greedy from the naive plan: the best single move, until none helps
            improved = False
            for i, t in itertools.product(range(len(declared)), range(len(pool))):
                if best[i] == t:
                    continue
                trial = (*best[:i], t, *best[i + 1 :])
                value = score(outcome(trial))
                scored += 1
                if value > best_value + 1e-12 * max(1.0, abs(value)):
                    best, best_value, improved = trial, value, True
        method = "greedy + local moves"
    plan_results = {pool[t].name: r for t, r in outcome(best).items()}
    return TargetPlan(
        attacker, declared, pool, best, best_value, naive, metric, method, scored, plan_results
    )
