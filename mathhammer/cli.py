"""The command line: a thin layer over the library.

``mathhammer report`` runs every attacking unit of a CSV against every target and
writes a tidy CSV; ``mathhammer attack`` prints one attack's distribution;
``mathhammer targets`` lists the bundled target suite; ``mathhammer demo`` shows the
bundled example attacks, exact and Monte Carlo. Errors are one line on stderr with
exit status 1 (``--debug`` shows the traceback); usage errors exit with status 2.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from . import __version__
from .errors import MathhammerError
from .exact.engine import attack
from .examples import EXAMPLES
from .model.context import Context
from .model.profiles import ModelGroup, Unit, Weapon
from .montecarlo.engine import simulate
from .rules import get_ruleset, ruleset_names

__all__ = ["build_parser", "main"]

DEFAULT_REPORT = "mathhammer-report.csv"


def _example_attackers() -> Path:
    return Path(str(resources.files("mathhammer") / "data" / "example_attackers.csv"))


def _progress_wanted() -> bool:
    return sys.stderr.isatty() and not os.environ.get("CI")


# --------------------------------------------------------------------------- report
def _report(args: argparse.Namespace) -> int:
    from .errors import OptionError, field_error
    from .io import read_attackers, read_targets
    from .io.report import REPORT_COLUMNS, build_report, write_csv_atomic
    from .units import targets as suite

    if args.plot and args.metric not in REPORT_COLUMNS[2:]:  # refused before the work
        raise field_error(
            OptionError, "--metric", f"one of {list(REPORT_COLUMNS[2:])}", args.metric
        )
    source = Path(args.attackers) if args.attackers else _example_attackers()
    attackers = read_attackers(source, rules=args.rules)
    targets = read_targets(args.targets) if args.targets else list(suite.STANDARD)
    bar = None
    if _progress_wanted() and not args.no_progress:
        from tqdm import tqdm

        bar = tqdm(total=len(attackers), unit="unit", desc="report", file=sys.stderr)
    try:
        frame = build_report(
            attackers,
            targets,
            rules=args.rules,
            check_trials=args.check_trials,
            jobs=args.jobs,
            rng=args.seed,
            progress=(lambda _: bar.update(1)) if bar else None,
        )
    finally:
        if bar is not None:
            bar.close()
    write_csv_atomic(frame, args.output)
    shown = frame[
        [
            c
            for c in (
                "loadout",
                "target",
                "mean_killed",
                "p_at_least_1",
                "p_destroyed",
                "p_panic_fail",
                "points_destroyed_per_100_points",
                "mc_z",
            )
            if c in frame.columns
        ]
    ]
    print(shown.to_string(index=False, float_format=lambda v: f"{v:.3f}"))
    print(f"\n{len(frame)} rows written to {args.output}")
    if args.plot:
        _save_heatmap(frame, args.plot, args.metric)
        print(f"heatmap of {args.metric} written to {args.plot}")
    return 0


def _save_plot(draw: Any, path: str) -> None:
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


def _save_heatmap(frame: Any, path: str, metric: str) -> None:
    from .errors import OptionError, field_error
    from .views.plots import plot_compare

    if metric not in frame.columns[2:]:  # a column of the vocabulary this report lacks
        raise field_error(OptionError, "--metric", f"one of {list(frame.columns[2:])}", metric)
    _save_plot(lambda: plot_compare(frame, metric=metric), path)


# --------------------------------------------------------------------------- attack
def _threshold(text: str) -> int:
    value = text.strip().removesuffix("+")
    try:
        return int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a roll such as '3+'; got {text!r}") from None


def _optional_threshold(text: str) -> int | None:
    return None if text.strip().lower() in ("-", "none", "") else _threshold(text)


def _attack(args: argparse.Namespace) -> int:
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
    if args.target:
        from .units import targets as suite

        unit = suite.get(args.target).unit
    else:
        group = ModelGroup(
            args.models,
            args.toughness,
            7 if args.save is None else args.save,
            args.wounds,
            invuln=args.invuln,
            fnp=args.fnp,
        )
        unit = Unit("target", [group], args.keywords, leadership=args.leadership)
    context = Context(
        half_range=args.half_range,
        remained_stationary=args.stationary,
        charged=args.charged,
        target_in_cover=args.cover,
        melee=args.melee,
    )
    result = attack([(weapon, args.count)], unit, rules=args.rules, context=context)
    print(result)
    print()
    print(result.summary().to_string(float_format=lambda v: f"{v:.3f}"))
    print()
    killed = result.killed
    print(" k  P(killed = k)  P(killed >= k)")
    for k in range(killed.n + 1):
        print(f"{k:2d}  {killed.probabilities[k]:13.4f}  {killed.at_least(k):14.4f}")
    if args.trials:
        sim = simulate(
            [(weapon, args.count)],
            unit,
            trials=args.trials,
            rng=args.seed,
            rules=args.rules,
            context=context,
        )
        print(
            f"\nMonte Carlo ({sim.trials} trials): mean killed {sim.killed.mean():.3f} "
            f"+/- {sim.killed_se:.3f}"
        )
    if args.plot:
        _save_plot(result.plot, args.plot)
        print(f"plot written to {args.plot}")
    return 0


# --------------------------------------------------------------------------- targets
def _targets(args: argparse.Namespace) -> int:
    from .units import targets as suite

    for target in suite.STANDARD:
        unit = target.unit
        print(
            f"{target.name:22s} {unit.models:3d} models  {target.points or '-':>4} pts  "
            f"{', '.join(unit.keywords):30s} {target.description}"
        )
    return 0


# --------------------------------------------------------------------------- demo
def _demo(args: argparse.Namespace) -> int:
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


# --------------------------------------------------------------------------- parser
def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer; got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected an integer >= 1; got {value}")
    return value


def _count(text: str) -> int:
    value = 0 if text == "0" else _positive(text)
    if value == 1:
        raise argparse.ArgumentTypeError("expected 0 (none) or at least 2 trials; got 1")
    return value


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``mathhammer`` command."""
    raw = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(
        prog="mathhammer",
        formatter_class=raw,
        description="Exact damage distributions for wargame attacks.",
        epilog="examples:\n  mathhammer report\n  mathhammer report army.csv --targets "
        "threats.csv -o out.csv --jobs 2\n  mathhammer attack -A 2 --skill 3+ -S 4 --ap -1 "
        "-D 1 --count 10 --target 'Line infantry'\n  mathhammer targets",
    )
    parser.add_argument("--version", action="version", version=f"mathhammer {__version__}")
    parser.add_argument("--debug", action="store_true", help="show the traceback of an error")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    report = sub.add_parser(
        "report",
        formatter_class=raw,
        help="every attacking unit against every target, as CSV",
        description="Run every attacking unit of ATTACKERS.csv against every target and write "
        "a tidy CSV of the comparison metrics. Without arguments: the bundled example "
        "loadouts against the standard target suite.",
        epilog="examples:\n  mathhammer report\n  mathhammer report army.csv -o army-report.csv"
        "\n  mathhammer report army.csv --targets threats.csv --plot heatmap.png --jobs 2"
        "\n  mathhammer report --check-trials 20000\n\nThe CSV columns are described in the "
        "README (attackers: unit, weapon, count, A, BS/WS, S, AP, D, abilities, points; "
        "targets: unit, group, models, T, Sv, InSv, W, FNP, keywords, CHARACTER, Ld, points).",
    )
    report.add_argument("attackers", nargs="?", help="attackers CSV (default: bundled examples)")
    report.add_argument("--targets", help="targets CSV (default: the standard suite)")
    report.add_argument(
        "-o", "--output", default=DEFAULT_REPORT, help=f"output CSV (default: {DEFAULT_REPORT})"
    )
    report.add_argument("--plot", metavar="FILE.png", help="write a loadout x target heatmap")
    report.add_argument("--metric", default="mean_killed", help="heatmap metric (mean_killed)")
    report.add_argument(
        "--check-trials",
        type=_count,
        default=0,
        metavar="N",
        help="add a Monte Carlo estimate with N trials per row",
    )
    report.add_argument(
        "--jobs",
        type=_positive,
        default=1,
        metavar="N",
        help="worker processes (results identical to a serial run)",
    )
    report.add_argument("--seed", type=int, default=0, help="Monte Carlo seed (0)")
    report.add_argument("--no-progress", action="store_true", help="no progress bar")
    report.set_defaults(run=_report)

    one = sub.add_parser(
        "attack",
        formatter_class=raw,
        help="one weapon line against one target",
        description="Print the distribution of one attack: a weapon line against a target "
        "from the standard suite (--target) or described on the command line.",
        epilog="examples:\n  mathhammer attack -A 2 --skill 3+ -S 4 --ap -1 -D 1 --count 10 "
        "--target 'Line infantry'\n  mathhammer attack -A D6 --skill 2+ -S 5 -D 1 --abilities "
        "'[TORRENT]' --models 10 -T 3 --save 5+ -W 1 --plot flamer.png\n  mathhammer attack "
        "--rules classic -A 1 --skill 3 -S 3 --count 10 --models 10 -T 3 --save 5+ -W 1 "
        "--leadership 7",
    )
    one.add_argument("--name", default="weapon")
    one.add_argument("-A", "--attacks", required=True, help="attacks: 2, D6, 2D6+1")
    one.add_argument(
        "--skill",
        type=_threshold,
        required=True,
        help="BS/WS as N+ (11e) or the classic BS characteristic",
    )
    one.add_argument("-S", "--strength", type=int, required=True)
    one.add_argument("--ap", type=int, default=0, help="AP as printed, e.g. -1")
    one.add_argument("-D", "--damage", default="1", help="damage: 1, D3, D6+1")
    one.add_argument("--abilities", default="", help="as printed: '[HEAVY], [BLAST]'")
    one.add_argument("--count", type=_positive, default=1, help="how many of the weapon")
    one.add_argument("--melee", action="store_true", help="a melee weapon")
    one.add_argument("--target", help="a target of the standard suite (see 'targets')")
    one.add_argument("--models", type=_positive, default=10)
    one.add_argument("-T", "--toughness", type=int, default=4)
    one.add_argument("--save", type=_optional_threshold, default=None, help="Sv as N+")
    one.add_argument("-W", "--wounds", type=int, default=1)
    one.add_argument("--invuln", type=_optional_threshold, default=None)
    one.add_argument("--fnp", type=_optional_threshold, default=None)
    one.add_argument("--keywords", default="", help="e.g. 'INFANTRY'")
    one.add_argument("--leadership", type=int, default=None, help="Ld (classic)")
    for flag in ("half-range", "stationary", "charged", "cover"):
        one.add_argument(f"--{flag}", action="store_true")
    one.add_argument("--trials", type=_count, default=0, help="also run N Monte Carlo trials")
    one.add_argument("--seed", type=int, default=1)
    one.add_argument("--plot", metavar="FILE.png", help="save killed and damage plots")
    one.set_defaults(run=_attack)

    listing = sub.add_parser(
        "targets",
        formatter_class=raw,
        help="list the bundled target suite",
        description="List the standard target suite: name, models, points, keywords.",
        epilog="example:\n  mathhammer targets",
    )
    listing.set_defaults(run=_targets)

    demo = sub.add_parser(
        "demo",
        formatter_class=raw,
        help="the bundled example attacks, exact and Monte Carlo",
        description="Run the bundled example attacks with the exact engine and check each "
        "against the Monte Carlo.",
        epilog="example:\n  mathhammer demo --trials 200000 --seed 7",
    )
    demo.add_argument(
        "--trials",
        type=_count,
        default=100_000,
        help="Monte Carlo trials per example (0 to skip; default 100000)",
    )
    demo.add_argument("--seed", type=int, default=1, help="Monte Carlo seed (default 1)")
    demo.set_defaults(run=_demo)

    for command in (report, one, demo):
        command.add_argument(
            "--rules",
            choices=ruleset_names(),
            default="11e",
            help="ruleset: "
            + "; ".join(f"{r} ({get_ruleset(r).description})" for r in ruleset_names()),
        )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.run(args))
    except MathhammerError as exc:
        if args.debug:
            raise
        message = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        print(f"mathhammer: error: {message}", file=sys.stderr)
        return 1
    except BrokenPipeError:  # output piped into a pager or `head` that stopped reading
        sys.stderr.close()
        return 0
    except OSError as exc:
        if args.debug:
            raise
        print(f"mathhammer: error: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
