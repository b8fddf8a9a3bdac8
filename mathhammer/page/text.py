"""The page's words: a cell's attack and a plan, in Markdown.

A cell's drill-down (:func:`cell_text`) gives the attack's headline numbers, the weapons
declared and the rules applied, each pool's stages, P(at least k) of models destroyed and of
wounds with bars, and how many such units it would take; :func:`plan_text` a plan's
targets and its value beside the naive one.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..results.attack import AttackResult
    from ..units.targeting import TargetPlan
    from .layout import PageState

__all__ = ["BAR", "PLAN_METRICS", "WOUND_FLOOR", "WOUND_ROWS", "cell_text", "plan_text"]

#: The metrics a plan can maximise, in words (:func:`mathhammer.plan_army`'s).
PLAN_METRICS = {
    "mean_killed": "expected models destroyed",
    "points_destroyed": "expected points destroyed",
    "at_least:1": "P(at least one target destroyed)",
}


def plan_text(plan: TargetPlan) -> str:
    """A plan in Markdown: each declaration's target, then its value beside the naive one
    (everything at one target)."""
    frame = plan.frame()
    lines = ["| unit | weapon | target |", "|---|---|---|"]
    lines += [f"| {r.unit} | {r.models} | {r.target} |" for r in frame.itertuples()]
    naive = plan.targets[plan.naive_target].name
    words = PLAN_METRICS.get(plan.metric, plan.metric)
    found = f" ({plan.method}, {plan.scored:,} plans scored)"
    which, how = ("your plan", "") if plan.method == "given" else ("this plan", found)
    lines += [
        "",
        f"{words}: **{plan.value:.3f}** with {which}; {plan.naive:.3f} with everything at "
        f"{naive}{how}",
    ]
    return "\n".join(lines)


def cell_text(state: PageState, unit: str, target: str) -> str:
    """The attack behind a cell, in Markdown: its headline numbers, the weapons and rules
    used, each pool's stages, P(at least k) of models destroyed and of wounds (with bars),
    and what it would take."""
    chosen = state.choice(unit, target)
    result = chosen.result
    killed = result.killed
    rules = "; ".join(result.rules_applied) or "none"
    lines = [
        f"### {unit} against {target}",
        f"expected models destroyed **{killed.mean():.3f}**, P(destroyed) "
        f"**{result.p_destroyed:.3f}**, expected wounds **{result.damage.mean():.3f}**",
        "",
        f"weapons: {chosen.declaration.name}; rules applied: {rules}",
        "",
        *_stages(result),
        "",
        *_bars("models destroyed", killed, range(1, killed.support()[1] + 1)),
        "",
        *_bars("wounds", result.damage, _shown_wounds(result.damage)),
    ]
    half, nine = state.copies(unit, target)
    lines += ["", f"what it would take: {_count(half)} for 50 %, {_count(nine)} for 90 %"]
    return "\n".join(lines)


#: The widest bar of a drill-down's table (P = 1), in characters.
BAR = 20
#: The wounds a drill-down lists: while P(at least k) is at least this, at most ``WOUND_ROWS``.
WOUND_FLOOR = 5e-4
WOUND_ROWS = 40


def _stages(result: AttackResult) -> list[str]:
    """Each pool's expected attacks, hits, wounds and failed saves, as a Markdown table."""
    lines = ["| pool | attacks | hits | wounds | unsaved |", "|---|---|---|---|---|"]
    for pool in result.pools:
        means = [pool.attacks.mean(), pool.hits.mean(), pool.wounds.mean(), pool.unsaved.mean()]
        lines.append(f"| {pool.label} | " + " | ".join(f"{m:.2f}" for m in means) + " |")
    return lines


def _bars(what: str, dist: Any, ks: Iterable[int]) -> list[str]:
    """P(at least k) of ``dist`` for each k, with a bar, as a Markdown table."""
    lines = [f"| {what}, at least | probability | |", "|---|---|---|"]
    for k in ks:
        p = dist.at_least(k)
        lines.append(f"| {k} | {p:.4f} | {'█' * round(p * BAR)} |")
    return lines


def _shown_wounds(damage: Any) -> range:
    """The wounds worth a row: from 1 while P(at least k) stays visible, at most
    :data:`WOUND_ROWS`."""
    last = 0
    for k in range(1, min(damage.support()[1], WOUND_ROWS) + 1):
        if damage.at_least(k) < WOUND_FLOOR:
            break
        last = k
    return range(1, last + 1)


def _count(copies: Any) -> str:
    """A number of copies in words (none within the durability's limit: "more than 60")."""
    try:
        return str(int(copies))
    except (TypeError, ValueError):  # pandas' NA, or NaN: none within the limit
        return "more than 60"
