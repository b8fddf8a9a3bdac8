"""Duplicated abilities, chosen by the metric the player states (docs/rules.md §3.2, D15).

Instances of one weapon ability are not cumulative: the controlling player selects which
applies, each time the unit attacks. Where a weapon carries two or more distinct instances
of a kind that apply against the target (``[SUSTAINED HITS D3]`` and ``[SUSTAINED HITS 2]``),
every selection is attacked exactly and the best by the stated metric is kept; the result
says what was chosen over what, and by how much. ``metric="ranking"`` keeps the fixed
ranking instead (the stronger mean, then the higher maximum), as the Monte Carlo does.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from ..model.ability_base import Ability, alternatives
from ..model.pools import MortalWounds, weapon_entries
from ..model.profiles import Unit, Weapon
from ..results.attack import AttackResult
from ..results.columns import metric_column
from .runs import Request, Run

__all__ = [
    "MAX_SELECTIONS",
    "METRIC_KEYS",
    "choice_metric",
    "choosing",
    "chosen",
    "may_choose",
    "metric_of",
    "selections",
    "too_many",
]

#: The metrics a selection can be chosen by: each column's key (larger is better) and words.
METRIC_KEYS: dict[str, tuple[Callable[[AttackResult], tuple[float, ...]], str]] = {
    "mean_killed": (lambda r: (r.killed.mean(), r.p_destroyed), "expected models destroyed"),
    "p_destroyed": (lambda r: (r.p_destroyed, r.killed.mean()), "P(destroyed)"),
    "mean_damage": (lambda r: (r.damage.mean(), r.p_destroyed), "expected wounds lost"),
}
#: The most selections attacked; past it the fixed ranking decides (and the result says so).
MAX_SELECTIONS = 64


def choice_metric(metric: str) -> str:
    """The column of :data:`METRIC_KEYS` that ``metric`` names (a short name is an alias:
    :func:`mathhammer.metric_column`), or ``"ranking"``: no metric, the
    fixed ranking.

    Examples
    --------
    >>> choice_metric("killed"), choice_metric("p_destroyed"), choice_metric("ranking")
    ('mean_killed', 'p_destroyed', 'ranking')
    """
    return metric_column(metric, among=(*METRIC_KEYS, "ranking"))


def metric_of(metric: str) -> tuple[Callable[[AttackResult], tuple[float, ...]], str]:
    """The key and words of a metric of :data:`METRIC_KEYS` (by column or alias)."""
    return METRIC_KEYS[metric_column(metric, among=METRIC_KEYS)]


def _variant(weapon: Weapon, chosen: tuple[Ability, ...]) -> Weapon:
    """The weapon with only the chosen instances (those that apply against the target)."""
    skill = None if weapon.bs is not None else weapon.skill
    return Weapon(
        weapon.name,
        weapon.attacks,
        skill=skill,
        strength=weapon.strength,
        ap=weapon.ap,
        damage=weapon.damage,
        abilities=chosen,
        bs=weapon.bs,
        melee=weapon.melee,
    )


def may_choose(weapons: Any) -> bool:
    """False when no weapon of ``weapons`` carries duplicated abilities (read quickly, for
    the plain forms; any other form is read by :func:`selections`)."""
    items = weapons if isinstance(weapons, list | tuple) else [weapons]
    for item in items:  # a loop, not any() over a generator: this runs on every attack (S1)
        weapon = item[0] if isinstance(item, tuple) and item else item
        if isinstance(weapon, MortalWounds):
            continue
        if not isinstance(weapon, Weapon) or weapon.has_duplicated_abilities:
            return True
    return False


def selections(
    weapons: Any, target: Unit
) -> list[tuple[list[tuple[Weapon, int] | MortalWounds], tuple[str, ...]]] | None:
    """Every selection of duplicated abilities the weapons allow against ``target``: each
    as the weapons to attack with and, per weapon with a choice, what it selects; None
    when no weapon has a choice to make; an empty list when there are more than
    :data:`MAX_SELECTIONS` (the fixed ranking then decides).

    Examples
    --------
    >>> import mathhammer as mh
    >>> gun = mh.Weapon("Gun", 1, 3, 4, 0, 1, "[SUSTAINED HITS D3], [SUSTAINED HITS 2]")
    >>> [picked for _, picked in selections([(gun, 5)], mh.Unit.of("U", 5, 4, 3, 1))]
    [('Gun: [SUSTAINED HITS D3]',), ('Gun: [SUSTAINED HITS 2]',)]
    """
    entries = weapon_entries(weapons)
    choosing, options = _choices(entries, target)
    if not choosing:
        return None
    if math.prod(len(found) for found in options) > MAX_SELECTIONS:
        return []
    return [_selection(entries, choosing, combo, options) for combo in itertools.product(*options)]


def _choices(
    entries: Sequence[tuple[Weapon, int] | MortalWounds], target: Unit
) -> tuple[list[Weapon], list[list[tuple[Ability, ...]]]]:
    """The distinct weapons that have a choice to make against ``target``, and each one's
    alternatives (:func:`~mathhammer.model.ability_base.alternatives`)."""
    distinct = dict.fromkeys(e[0] for e in entries if isinstance(e, tuple))
    found = {w: alternatives(w.abilities, target.keywords) for w in distinct}
    kept = {w: options for w, options in found.items() if len(options) > 1}
    return list(kept), list(kept.values())


def _selection(
    entries: Sequence[tuple[Weapon, int] | MortalWounds],
    choosing: Sequence[Weapon],
    combo: Sequence[tuple[Ability, ...]],
    options: Sequence[Sequence[tuple[Ability, ...]]],
) -> tuple[list[tuple[Weapon, int] | MortalWounds], tuple[str, ...]]:
    """One selection: the weapons to attack with, and what each weapon with a choice
    selects."""
    swap = {w: _variant(w, chosen) for w, chosen in zip(choosing, combo, strict=True)}
    made: list[tuple[Weapon, int] | MortalWounds] = [
        e if isinstance(e, MortalWounds) else (swap.get(e[0], e[0]), e[1]) for e in entries
    ]
    picked = tuple(_picked(*each) for each in zip(choosing, combo, options, strict=True))
    return made, picked


def _picked(
    weapon: Weapon, chosen: tuple[Ability, ...], found: Sequence[tuple[Ability, ...]]
) -> str:
    """What a weapon with a choice selects: its name and the chosen instances of the kinds
    it chooses between (``found``: its alternatives)."""
    return f"{weapon.name}: {', '.join(str(a) for a in chosen if _is_duplicated(a, found))}"


def _is_duplicated(ability: Ability, found: Sequence[tuple[Ability, ...]]) -> bool:
    """Whether the ability's kind is one the weapon chooses between."""
    return len({a for option in found for a in option if a.kind == ability.kind}) > 1


def chosen(
    results: Sequence[tuple[AttackResult, tuple[str, ...]]], metric: str
) -> tuple[AttackResult, tuple[str, ...]]:
    """The best result by the metric (the first of equals: the ranking's on a tie), and a
    line saying what was chosen over what."""
    key, words = metric_of(metric)
    best = _best([key(r) for r, _ in results])
    result, picked = results[best]
    runner = max([*results[:best], *results[best + 1 :]], key=lambda r: key(r[0]))
    margin = _margin(key(result), key(runner[0]))
    line = f"{'; '.join(picked)} chosen over {'; '.join(runner[1])} by {words}: {margin}"
    return result, (line,)


def _best(keys: Sequence[tuple[float, ...]]) -> int:
    """The index of the best of ``keys`` by :func:`beats` (the first of equals)."""
    best = 0
    for i in range(1, len(keys)):
        if beats(keys[i], keys[best]):
            best = i
    return best


def _margin(best: tuple[float, ...], runner: tuple[float, ...]) -> str:
    """How the chosen key (``best``) beat the runner-up's: the two metrics, or a tie."""
    if beats(best, runner):
        return f"{best[0]:.4g} vs {runner[0]:.4g}"
    return "a tie, so the stronger instance"


def too_many(weapons: Any) -> str:
    """The note of an attack whose selections are past :data:`MAX_SELECTIONS`."""
    return (
        f"more than {MAX_SELECTIONS} selections of duplicated abilities: each weapon's "
        "stronger instance (the fixed ranking) applies"
    )


def beats(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    """``a`` beats ``b``, with differences of rounding (1e-12 relative) read as ties.

    Examples
    --------
    >>> beats((1.0, 0.5), (1.0 - 1e-15, 0.9)), beats((1.0, 0.5), (1.0, 0.4))
    (False, True)
    """
    for x, y in zip(a, b, strict=True):
        if abs(x - y) > 1e-12 * max(1.0, abs(x), abs(y)):
            return x > y
    return False


def choosing(run: Run, metric: str) -> Run:
    """``run`` with the player's selection of duplicated abilities made first: every
    selection attacked by ``run`` and the best by ``metric`` kept, the result's
    ``choices`` saying what was selected; past :data:`MAX_SELECTIONS`, and with
    ``"ranking"``, the fixed ranking (``run`` as it is).

    Examples
    --------
    >>> import mathhammer as mh
    >>> from mathhammer.decisions.runs import Request, engine_run
    >>> gun = mh.Weapon("Gun", 1, 3, 4, 0, 1, "[SUSTAINED HITS D3], [SUSTAINED HITS 2]")
    >>> run = choosing(engine_run, "p_destroyed")
    >>> print(run(Request([(gun, 10)], mh.Unit.of("U", 5, 4, 3, 1))).choices[0])
    Gun: [SUSTAINED HITS D3] chosen over Gun: [SUSTAINED HITS 2] by P(destroyed): 0.02898 vs 0.02757
    """
    metric = choice_metric(metric)  # a metric it does not know is refused, choice or not
    if metric == "ranking":
        return run

    def chosen_run(request: Request) -> AttackResult:
        if not request.decidable or not may_choose(request.weapons):
            return run(request)
        assert isinstance(request.target, Unit)  # decidable
        options = selections(request.weapons, request.target)
        if options is None:
            return run(request)
        if options == []:
            return replace(run(request), choices=(too_many(request.weapons),))
        results = [(run(replace(request, weapons=w)), picked) for w, picked in options]
        best, line = chosen(results, metric)
        return replace(best, choices=line)

    return chosen_run
