"""The command line: a thin layer over the library."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

from . import __version__
from .attack import attack
from .errors import MathhammerError
from .examples import EXAMPLES
from .montecarlo import simulate

__all__ = ["main"]


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
        cells = [f"{j}:{k.at_least(j):.3f}" for j in range(lo, hi + 1)]
        print("  P(killed >= k): " + "  ".join(cells))
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


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``mathhammer`` command."""
    parser = argparse.ArgumentParser(
        prog="mathhammer",
        description="Exact damage distributions for wargame attacks.",
    )
    parser.add_argument("--version", action="version", version=f"mathhammer {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    demo = sub.add_parser(
        "demo",
        help="run the bundled example attacks, exact and Monte Carlo",
        description="Run the bundled example attacks with the exact engine and check each "
        "against the Monte Carlo.",
        epilog="example: mathhammer demo --trials 200000 --seed 7",
    )
    demo.add_argument(
        "--trials",
        type=int,
        default=100_000,
        help="Monte Carlo trials per example (0 to skip; default 100000)",
    )
    demo.add_argument("--seed", type=int, default=1, help="Monte Carlo seed (default 1)")
    demo.add_argument("--rules", default="11e", help="ruleset (default 11e)")
    demo.set_defaults(run=_demo)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.run(args))
    except MathhammerError as exc:
        print(f"mathhammer: error: {exc}", file=sys.stderr)
        return 1
    except BrokenPipeError:  # output piped into a pager or `head` that stopped reading
        sys.stderr.close()
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
