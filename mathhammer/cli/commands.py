"""The commands of ``mathhammer``: each takes the parsed arguments and returns the exit status.

``report`` runs every attacking unit of a CSV against every target and writes a tidy CSV;
``attack`` prints one attack's distribution; ``targets`` lists the bundled target suite;
``demo`` shows the bundled example attacks, exact and Monte Carlo. The parser that reads
their arguments is :mod:`mathhammer.cli.parser`.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import LimitError, OptionError, field_error
from ..exact.engine import attack
from ..examples import EXAMPLES
from ..model.context import Context
from ..model.profiles import ModelGroup, Unit, Weapon
from ..montecarlo.engine import simulate
from ..results.columns import METRIC_COLUMNS, after_attack_columns_in
from ..rules import get_ruleset

__all__ = ["attack_command", "demo_command", "report_command", "targets_command"]

#: The report columns printed on the terminal (the CSV has them all), when present; the
#: P(failed) column of each after-attack test (the classic Panic Test) follows p_destroyed.
SHOWN = (
    "loadout",
    "phase",
    "weapons_used",
    "target",
    "mean_killed",
    "mean_damage",
    "p_at_least_1",
    "p_destroyed",
    "p_character_killed",
)
SHOWN_LAST = ("points_of_damage", "points_destroyed_per_100_points", "mc_z")


def _example_attackers(rules: str) -> Path:
    """The bundled example loadouts for a ruleset: ``example_attackers_<rules>.csv`` when the
    package has one (the classic profiles), else the 11th-edition ``example_attackers.csv``."""
    data = resources.files("mathhammer") / "data"
    own = data / f"example_attackers_{rules}.csv"
    return Path(str(own if own.is_file() else data / "example_attackers.csv"))


def _progress_wanted() -> bool:
    return sys.stderr.isatty() and not os.environ.get("CI")


def _three_places(value: float) -> str:
    return f"{value:.3f}"


# --------------------------------------------------------------------------- report
def report_command(args: argparse.Namespace) -> int:
    """``mathhammer report``: every loadout against every target, written as CSV."""
    from ..io.report import write_csv_atomic

    if args.metric is not None and args.metric not in METRIC_COLUMNS:  # before the work
        raise field_error(OptionError, "--metric", f"one of {list(METRIC_COLUMNS)}", args.metric)
    attackers, targets = _report_inputs(args)
    frame = _build_report(args, attackers, targets)
    write_csv_atomic(frame, args.output)
    print(frame[_shown(frame.columns)].to_string(index=False, float_format=_three_places))
    print(f"\n{len(frame)} rows written to {args.output}")
    metric = _metric(frame, args.metric)
    if args.plot:
        _save_heatmap(frame, args.plot, metric, args.rules)
        print(f"heatmap of {metric} written to {args.plot}")
    if args.html:
        from ..views.report_html import write_html_report

        title = f"mathhammer report: {Path(args.attackers).name if args.attackers else 'examples'}"
        charts = frame.attrs.get("distributions")
        write_html_report(
            frame, args.html, title=title, rules=args.rules, metric=metric, results=charts
        )
        print(f"HTML report written to {args.html}")
    return 0


def _report_inputs(args: argparse.Namespace) -> tuple[list[Any], list[Any]]:
    """The loadouts and targets of a report, read from whatever files were given."""
    from ..io.sources import read_army
    from ..units import targets as suite

    source = Path(args.attackers) if args.attackers else _example_attackers(args.rules)
    army = read_army(source, faction=args.faction, rules=args.rules, strict=args.strict)
    _print_import(args, army)
    for unknown in army.unknown_abilities:  # a profiles CSV: one line per token, file:line
        print(f"mathhammer: warning: {unknown}", file=sys.stderr)
    if not army.loadouts:
        raise field_error(OptionError, "attackers", "a file with weapons", str(source))
    if not args.targets:
        if args.lead:
            raise field_error(OptionError, "--lead", "used with a --targets roster", args.lead)
        return army.loadouts, list(suite.STANDARD)
    faction = args.target_faction or args.faction
    leaders: dict[str, list[str]] = {}
    for unit, leader in args.lead:
        leaders.setdefault(unit, []).append(leader)
    them = read_army(
        args.targets, faction=faction, strict=args.strict, csv_kind="targets", leaders=leaders
    )
    _print_import(args, them)
    if not them.targets:
        raise field_error(OptionError, "--targets", "a file with units", args.targets)
    return army.loadouts, them.targets


def _print_import(args: argparse.Namespace, army: Any) -> None:
    """The import report on stderr when asked for; unknown abilities always."""
    from ..io.import_report import describe, unknown_lines

    if army.report is None:
        return
    if args.import_report:
        print(describe(army.report), file=sys.stderr)
    else:
        for line in unknown_lines(army.report):
            print(f"mathhammer: warning: {line}", file=sys.stderr)


def _build_report(args: argparse.Namespace, attackers: Sequence[Any], targets: list[Any]) -> Any:
    """The report's table, with a progress bar on a terminal (unless asked not to)."""
    from ..io.report import build_report

    bar = None
    if _progress_wanted() and not args.no_progress:
        from tqdm import tqdm

        bar = tqdm(total=len(attackers), unit="unit", desc="report", file=sys.stderr)
    from ..units.options import CHOICE_METRICS

    metric = args.metric if args.metric in CHOICE_METRICS else "mean_damage"
    try:
        frame = build_report(
            attackers,
            targets,
            rules=args.rules,
            metric=metric,
            check_trials=args.check_trials,
            jobs=args.jobs,
            rng=args.seed,
            progress=(lambda _: bar.update(1)) if bar else None,
        )
    finally:
        if bar is not None:
            bar.close()
    for skipped in frame.attrs.get("skipped_targets", ()):
        print(f"mathhammer: warning: {skipped}", file=sys.stderr)
    return frame


def _shown(columns: Sequence[str]) -> list[str]:
    """The columns printed on the terminal, among a report's ``columns``."""
    failed = [c for c in after_attack_columns_in(columns) if c.endswith("_fail")]
    return [c for c in (*SHOWN, *failed, *SHOWN_LAST) if c in columns]


def save_plot(draw: Callable[[], Any], path: str) -> None:
    """Draw off-screen with ``draw()`` (returning Axes) and save the figure to ``path``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    axes = draw()
    figure = (axes[0] if isinstance(axes, Sequence | np.ndarray) else axes).figure
    try:
        figure.savefig(path, dpi=120, bbox_inches="tight")
    finally:
        plt.close(figure)


def _metric(frame: Any, metric: str | None) -> str:
    """The metric asked for, if the report has it, or the default that credits damage."""
    from ..views.heatmap import default_metric

    if metric is None:
        return default_metric(frame)
    present = [c for c in METRIC_COLUMNS if c in frame.columns]
    if metric not in present:  # a column of the vocabulary this report lacks
        raise field_error(OptionError, "--metric", f"one of {present}", metric)
    return metric


def _save_heatmap(frame: Any, path: str, metric: str, rules: str) -> None:
    from ..views.plots import plot_compare

    save_plot(lambda: plot_compare(frame, metric=metric, rules=rules), path)


# --------------------------------------------------------------------------- attack
def attack_command(args: argparse.Namespace) -> int:
    """``mathhammer attack``: one weapon line against one target, printed."""
    weapon, unit, context = _attack_inputs(args)
    try:
        result = attack([(weapon, args.count)], unit, rules=args.rules, context=context)
    except LimitError as exc:
        if not args.trials:
            hint = "the exact engine's limit: add --trials N to estimate it by Monte Carlo"
            field, constraint = exc.field or "attack dice", exc.constraint or "within the limit"
            raise field_error(LimitError, field, constraint, exc.value, hint) from None
        print(f"too large for the exact engine ({exc.field}: {exc.value}); Monte Carlo only")
        _print_simulation(args, weapon, unit, context)
        return 0
    print(result)
    print()
    print(result.summary().to_string(float_format=_three_places))
    print()
    killed = result.killed
    print(" k  P(killed = k)  P(killed >= k)")
    for k in range(killed.n + 1):
        print(f"{k:2d}  {killed.probabilities[k]:13.4f}  {killed.at_least(k):14.4f}")
    if args.trials:
        print()
        _print_simulation(args, weapon, unit, context)
    if args.plot:
        save_plot(result.plot, args.plot)
        print(f"plot written to {args.plot}")
    return 0


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

    keywords = args.keywords
    if args.target is None:
        group = ModelGroup(
            args.models, args.toughness, args.save, args.wounds, invuln=args.invuln, fnp=args.fnp
        )
        return Unit("target", [group], keywords or "", leadership=args.leadership)
    from ..units import targets as suite

    unit = suite.get(args.target).unit
    changes = {
        name: getattr(args, name)
        for name in ("toughness", "save", "wounds", "invuln", "fnp", "models")
        if getattr(args, name) is not None
    }
    if "models" in changes:
        if len(unit.groups) != 1:
            raise field_error(
                OptionError,
                "--models",
                f"used with a one-group target; {unit.name!r} has {len(unit.groups)} groups",
                changes["models"],
            )
        changes["count"] = changes.pop("models")
    groups = [replace(g, **changes) for g in unit.groups]
    return Unit(
        unit.name,
        groups,
        unit.keywords if keywords is None else keywords,
        stealth=unit.stealth,
        leadership=unit.leadership if args.leadership is None else args.leadership,
    )


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
        start = time.perf_counter()
        exact = attack(example.weapons, example.target, rules=args.rules)
        elapsed = (time.perf_counter() - start) * 1e3
        print(f"{example.name}: {example.description}")
        print(f"  exact ({elapsed:.1f} ms): {exact._headline()}")
        for group in exact.groups if len(exact.groups) > 1 else ():
            print(
                f"    {group.label}: mean killed {group.killed.mean():.3f}, "
                f"P(all destroyed) {group.p_destroyed:.4f}"
            )
        k = exact.killed
        lo = max(int(k.ppf(0.005)), 1)
        hi = min(int(k.ppf(0.995)), lo + 11)
        print(
            "  P(killed >= k): " + "  ".join(f"{j}:{k.at_least(j):.3f}" for j in range(lo, hi + 1))
        )
        if args.trials:
            sim = simulate(
                example.weapons, example.target, trials=args.trials, rng=args.seed, rules=args.rules
            )
            z = (sim.killed.mean() - k.mean()) / (k.std() / sim.trials**0.5 or 1.0)
            print(
                f"  Monte Carlo ({sim.trials} trials): mean killed {sim.killed.mean():.3f} "
                f"+/- {sim.killed_se:.3f} (z = {z:+.2f} against exact)"
            )
        print()
    return 0
