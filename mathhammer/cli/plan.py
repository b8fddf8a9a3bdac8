"""``mathhammer plan``: who shoots what, for a list of units against a list of targets."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from ..errors import OptionError, field_error
from .lines import warn_import
from .outputs import check_outputs
from .situations import base_context

__all__ = ["plan_command", "units_of"]


def units_of(loadouts: list[Any], phase: str) -> list[Any]:
    """The loadouts of the phase, each as :func:`~mathhammer.plan_army` takes it (their
    weapon lines declared)."""
    from ..units.targeting import from_loadout

    return [
        loadout
        for loadout in loadouts
        if getattr(loadout, "phase", "shooting") == phase and from_loadout(loadout) is not None
    ]


def plan_command(args: argparse.Namespace) -> int:
    """Plan who shoots what: every unit of ATTACKERS (the bundled examples by default) in
    the order read, against the units of --targets (the standard suite by default)."""
    from ..io.outputs import write_output
    from ..io.sources import read_army
    from ..units import targets as suite
    from ..units.targeting import plan_army
    from .report import example_attackers

    outputs = check_outputs([("--output", args.output)], args.force)
    if args.attackers == "" or args.targets == "":
        raise field_error(OptionError, "ATTACKERS and --targets", "files or folders", "")
    source = Path(args.attackers) if args.attackers else example_attackers("11e")
    army = read_army(source, faction=args.faction, strict=args.strict)
    units = units_of(list(army.loadouts), args.phase)
    if not units:
        raise field_error(OptionError, "ATTACKERS", f"units with {args.phase} weapons", str(source))
    if args.targets:
        them = read_army(
            args.targets,
            faction=args.target_faction,
            csv_kind="targets",
            faction_option="--target-faction",
        )
        targets = list(them.targets)
        if not targets:
            raise field_error(OptionError, "--targets", "a file with units", args.targets)
    else:
        targets = list(suite.STANDARD)
    base = base_context(args)
    if base is not None:
        units = [x.in_context(base) for x in units]
    if args.assume:
        from ..units.assume import assuming, check_assumed

        units = assuming(units, check_assumed(args.assume, units, targets))
    warn_import(army, rules=False)
    bar = None
    if sys.stderr.isatty() and not os.environ.get("CI") and not args.no_progress:
        from tqdm import tqdm

        bar = tqdm(total=1, unit="step", desc="plan", file=sys.stderr)

    def moved(done: int, steps: int) -> None:
        assert bar is not None
        bar.total = steps
        bar.n = done
        bar.refresh()

    try:
        plan = plan_army(
            units, targets, metric=args.metric, phase=args.phase,
            progress=moved if bar is not None else None,
        )  # fmt: skip
    finally:
        if bar is not None:
            bar.close()
    frame = plan.frame()
    width = max(len(u) for u in frame["unit"])
    for row in frame.itertuples():
        print(f"{row.unit:<{width}}  {row.models:<28}  -> {row.target}")
    print(
        f"\n{args.metric}: {plan.value:.4g} for this plan, {plan.naive:.4g} with everything at "
        f"{plan.baseline} (the best single target); {plan.method}, {plan.scored} plans scored"
    )
    if "--output" in outputs:
        write_output(outputs["--output"], lambda out: frame.to_csv(out, index=False))
        print(f"plan written to {args.output}")
    return 0
