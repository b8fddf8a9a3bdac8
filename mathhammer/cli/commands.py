"""The commands of ``mathhammer``: each takes the parsed arguments and returns the exit status.

``report`` (in :mod:`mathhammer.cli.report`) runs every attacking unit of a CSV against every
target and writes a tidy CSV; ``attack`` prints one attack's distribution; ``targets`` lists
the bundled target suite; ``demo`` shows the bundled example attacks, exact and Monte Carlo.
The parser that reads their arguments is :mod:`mathhammer.cli.parser`.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from ..decisions.attack import attack
from ..errors import LimitError, OptionError, field_error
from ..examples import EXAMPLES
from ..model.context import Context
from ..model.profiles import ModelGroup, Unit, Weapon
from ..montecarlo.engine import simulate
from ..rules import get_ruleset
from .outputs import check_outputs, plot_writer
from .report import report_command
from .report import three_places as _three_places

__all__ = ["attack_command", "demo_command", "report_command", "targets_command"]


# --------------------------------------------------------------------------- attack
def attack_command(args: argparse.Namespace) -> int:
    """``mathhammer attack``: one weapon line against one target, printed."""
    plot = check_outputs([("--plot", args.plot)], args.force).get("--plot")
    weapon, unit, context = _attack_inputs(args)
    try:
        result = attack([(weapon, args.count)], unit, rules=args.rules, context=context)
    except LimitError as exc:
        if not args.trials:
            raise _with_trials_hint(exc) from None
        print(f"too large for the exact engine ({exc.field}: {exc.value}); Monte Carlo only")
        _print_simulation(args, weapon, unit, context)
        return 0
    _print_exact(result)
    if args.trials:
        print()
        _print_simulation(args, weapon, unit, context)
    _write_plot(plot, result, args)
    return 0


def _write_plot(plot: Any, result: Any, args: argparse.Namespace) -> None:
    """Write the result's plot to ``plot`` (``--plot``, checked), when asked for, and say
    so."""
    from ..io.outputs import write_output

    if plot is None:
        return
    write_output(plot, plot_writer(result.plot, args.plot), binary=True)
    print(f"plot written to {args.plot}")


def _with_trials_hint(exc: LimitError) -> LimitError:
    """The exact engine's limit error again, with the hint that ``--trials`` estimates the
    attack by Monte Carlo."""
    hint = "the exact engine's limit: add --trials N to estimate it by Monte Carlo"
    field, constraint = exc.field or "attack dice", exc.constraint or "within the limit"
    return field_error(LimitError, field, constraint, exc.value, hint)


def _print_exact(result: Any) -> None:
    """The exact result: its headline, its summary table, then P(killed = k) and
    P(killed >= k) for every k."""
    print(result)
    print()
    print(result.summary().to_string(float_format=_three_places))
    print()
    killed = result.killed
    print(" k  P(killed = k)  P(killed >= k)")
    for k in range(killed.n + 1):
        print(f"{k:2d}  {killed.probabilities[k]:13.4f}  {killed.at_least(k):14.4f}")


def _print_simulation(
    args: argparse.Namespace, weapon: Weapon, unit: Unit, context: Context
) -> None:
    sim = simulate(
        [(weapon, args.count)],
        unit,
        trials=args.trials,
        rng=args.seed,
        rules=args.rules,
        context=context,
    )
    print(
        f"Monte Carlo ({sim.trials} trials): mean killed {sim.killed.mean():.3f} "
        f"+/- {sim.killed_se:.3f}"
    )


def _attack_inputs(args: argparse.Namespace) -> tuple[Weapon, Unit, Context]:
    """The weapon, the target and the context that the ``attack`` options describe."""
    weapon = Weapon(
        args.name,
        args.attacks,
        **{get_ruleset(args.rules).skill_field: args.skill},
        strength=args.strength,
        ap=args.ap,
        damage=args.damage,
        abilities=args.abilities,
        melee=args.melee,
    )
    unit = _attack_target(args)
    context = Context(
        half_range=args.half_range,
        remained_stationary=args.stationary,
        charged=args.charged,
        target_in_cover=args.cover,
        melee=args.melee,
    )
    return weapon, unit, context


def _attack_target(args: argparse.Namespace) -> Unit:
    """The target the flags describe, or the named one changed by the flags (``--modify``)."""
    from dataclasses import replace

    from ..units import targets as suite

    if args.target is None:
        return _described_target(args)
    keywords = args.keywords
    unit = suite.get(args.target).unit
    changes = _group_changes(args, unit)
    return replace(
        unit,
        groups=tuple(replace(g, **changes) for g in unit.groups),
        keywords=unit.keywords if keywords is None else keywords,
        leadership=unit.leadership if args.leadership is None else args.leadership,
    )


def _described_target(args: argparse.Namespace) -> Unit:
    """The target the flags describe whole: one group of models."""
    group = ModelGroup(
        args.models, args.toughness, args.save, args.wounds, invuln=args.invuln, fnp=args.fnp
    )
    return Unit("target", [group], args.keywords or "", leadership=args.leadership)


def _group_changes(args: argparse.Namespace, unit: Unit) -> dict[str, Any]:
    """The characteristics of the target's model groups the flags change (``--models``,
    the group's ``count``, only for a target of one group)."""
    changes = {
        name: getattr(args, name)
        for name in ("toughness", "save", "wounds", "invuln", "fnp", "models")
        if getattr(args, name) is not None
    }
    if "models" not in changes:
        return changes
    if len(unit.groups) != 1:
        raise field_error(
            OptionError,
            "--models",
            f"used with a one-group target; {unit.name!r} has {len(unit.groups)} groups",
            changes["models"],
        )
    changes["count"] = changes.pop("models")
    return changes


# --------------------------------------------------------------------------- targets
def targets_command(args: argparse.Namespace) -> int:
    """``mathhammer targets``: the standard target suite, one line each."""
    from ..units import targets as suite

    print(f"{'target':22s} {'models':>10s}  {'points':>6s}  {'keywords':30s} description")
    for target in suite.STANDARD:
        unit = target.unit
        models = f"{unit.models} model" + ("s" if unit.models != 1 else "")
        print(
            f"{target.name:22s} {models:>10s}  {target.points or '-':>6}  "
            f"{', '.join(unit.keywords):30s} {target.description}"
        )
    return 0


# --------------------------------------------------------------------------- demo
def demo_command(args: argparse.Namespace) -> int:
    """``mathhammer demo``: the bundled examples, exact and against the Monte Carlo."""
    for example in EXAMPLES:
        _demo(example, args)
    return 0


def _demo(example: Any, args: argparse.Namespace) -> None:
    """One bundled example: its exact result, timed, with P(killed >= k) over the likely
    k; then the Monte Carlo against it (with ``--trials``)."""
    start = time.perf_counter()
    exact = attack(example.weapons, example.target, rules=args.rules)
    elapsed = (time.perf_counter() - start) * 1e3
    print(f"{example.name}: {example.description}")
    print(f"  exact ({elapsed:.1f} ms): {exact._headline()}")
    _print_groups(exact)
    print("  P(killed >= k): " + _likely_at_least(exact.killed))
    if args.trials:
        _print_against_exact(example, exact.killed, args)
    print()


def _print_groups(exact: Any) -> None:
    """Each model group's mean killed and P(all destroyed), for a unit of several."""
    for group in exact.groups if len(exact.groups) > 1 else ():
        print(
            f"    {group.label}: mean killed {group.killed.mean():.3f}, "
            f"P(all destroyed) {group.p_destroyed:.4f}"
        )


def _likely_at_least(k: Any) -> str:
    """P(killed >= j) for the likely j (from 1, at most 12 of them) of the distribution ``k``."""
    lo = max(int(k.ppf(0.005)), 1)
    hi = min(int(k.ppf(0.995)), lo + 11)
    return "  ".join(f"{j}:{k.at_least(j):.3f}" for j in range(lo, hi + 1))


def _print_against_exact(example: Any, k: Any, args: argparse.Namespace) -> None:
    """The Monte Carlo's mean killed, with its z-score against the exact distribution ``k``."""
    sim = simulate(
        example.weapons, example.target, trials=args.trials, rng=args.seed, rules=args.rules
    )
    z = (sim.killed.mean() - k.mean()) / (k.std() / sim.trials**0.5 or 1.0)
    print(
        f"  Monte Carlo ({sim.trials} trials): mean killed {sim.killed.mean():.3f} "
        f"+/- {sim.killed_se:.3f} (z = {z:+.2f} against exact)"
    )
