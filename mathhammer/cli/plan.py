"""``mathhammer plan``: who shoots what, for a list of units against a list of targets."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ..errors import OptionError, field_error
from .editions import chosen_rules, describe, read_list
from .lines import progress_bar, warn_import
from .outputs import check_outputs, write_table
from .situations import base_context

__all__ = ["plan_command", "targets_of", "units_of"]


def units_of(loadouts: list[Any], phase: str) -> list[Any]:
    """The loadouts of the phase, each as :func:`~mathhammer.plan_army` takes it (their
    weapon lines declared)."""
    from ..units.selection import from_loadout

    return [
        loadout
        for loadout in loadouts
        if getattr(loadout, "phase", "shooting") == phase and from_loadout(loadout) is not None
    ]


def plan_command(args: argparse.Namespace) -> int:
    """Plan who shoots what: every unit of ATTACKERS (the bundled examples by default) in
    the order read, against the units of --targets (the standard suite by default)."""
    outputs = check_outputs([("--output", args.output)], args.force)
    if args.attackers == "" or args.targets == "":
        raise field_error(OptionError, "ATTACKERS and --targets", "files or folders", "")
    army, units = _attackers(args)
    targets = targets_of(args)
    args.rules = chosen_rules(args.rules, [army, *vars(args).get("lists", [])])
    print(describe(args.rules))
    units = _situated(units, targets, args)
    warn_import(army, rules=False)
    plan = _planned(units, targets, args)
    frame = plan.frame()
    _print_plan(plan, frame, plan.metric)
    write_table(outputs, frame, "plan")
    return 0


def _attackers(args: argparse.Namespace) -> tuple[Any, list[Any]]:
    """The army of ATTACKERS (the bundled examples without it) and its units with weapons
    of the phase; it must have some."""
    from ..io.attackers_csv import example_attackers
    from ..io.sources import read_army

    source = Path(args.attackers) if args.attackers else example_attackers("11e")
    army = read_army(source, faction=args.faction, strict=args.strict)
    units = units_of(list(army.loadouts), args.phase)
    if not units:
        raise field_error(OptionError, "ATTACKERS", f"units with {args.phase} weapons", str(source))
    return army, units


def targets_of(args: argparse.Namespace) -> list[Any]:
    """The units of ``--targets`` (read with ``--target-faction``), or the standard suite
    without it."""
    from ..io.sources import read_army
    from ..units import targets as suite

    if not args.targets:
        return list(suite.STANDARD)
    them = read_army(
        args.targets,
        faction=args.target_faction,
        csv_kind="targets",
        faction_option="--target-faction",
    )
    read_list(args, them)
    if not them.targets:
        raise field_error(OptionError, "--targets", "a file with units", args.targets)
    return list(them.targets)


def _situated(units: list[Any], targets: list[Any], args: argparse.Namespace) -> list[Any]:
    """The units in the situation the flags give, then in the one ``--assume`` states."""
    base = base_context(args)
    if base is not None:
        units = [x.in_context(base) for x in units]
    if not args.assume:
        return units
    from ..units.assume import assuming, check_assumed

    return assuming(units, check_assumed(args.assume, units, targets))


def _planned(units: list[Any], targets: list[Any], args: argparse.Namespace) -> Any:
    """The plan of :func:`~mathhammer.plan_army`, its progress shown on a terminal."""
    from ..units.targeting import plan_army

    bar = progress_bar(args, 1, "step", "plan")

    def moved(done: int, steps: int) -> None:
        assert bar is not None
        bar.total = steps
        bar.n = done
        bar.refresh()

    try:
        return plan_army(
            units, targets, rules=args.rules, metric=args.metric, phase=args.phase,
            progress=moved if bar is not None else None,
        )  # fmt: skip
    finally:
        if bar is not None:
            bar.close()


def _print_plan(plan: Any, frame: Any, metric: str) -> None:
    """Each unit and its target, a line each; then the plan's value against the best
    single target."""
    width = max(len(u) for u in frame["unit"])
    for row in frame.itertuples():
        print(f"{row.unit:<{width}}  {row.models:<28}  -> {row.target}")
    print(
        f"\n{metric}: {plan.value:.4g} for this plan, {plan.naive:.4g} with everything at "
        f"{plan.baseline} (the best single target); {plan.method}, {plan.scored} plans scored"
    )
