"""``mathhammer detachments``: a list under each detachment of its faction, by the numbers."""

from __future__ import annotations

import argparse
from typing import Any

from ..errors import OptionError, field_error
from .outputs import check_outputs
from .situations import base_context

__all__ = ["detachments_command"]

#: What the detachments are ranked by, and its column.
RANKED_BY = ("mean_damage", "mean_killed", "points_destroyed")


def detachments_command(args: argparse.Namespace) -> int:
    """Put the roster under no detachment, its own and each of its faction's in the
    catalogue; print them ranked by the list's total against the targets."""
    from ..io.bsdata import read_catalogue
    from ..io.outputs import write_output
    from ..io.roster import compare_detachments, read_roster
    from ..io.sources import read_army
    from ..model.context import Context
    from ..units import targets as suite
    from ..units.assume import check_assumed

    outputs = check_outputs([("--output", args.output)], args.force)
    roster = read_roster(args.roster, strict=args.strict)
    catalogue = read_catalogue(args.catalogue)
    faction = args.faction or (roster.factions[0] if roster.factions else "")
    if not faction:
        raise field_error(OptionError, "--faction", "given: the roster names no faction", "")
    library = catalogue.faction(faction)
    if not library.detachments:
        raise field_error(
            OptionError,
            "--catalogue",
            f"catalogues with the detachments of {faction!r}",
            args.catalogue,
        )
    own = roster.detachment
    tried = [None, *([own] if own else [])]
    tried += [d for d in library.detachments if own is None or d.name != own.name]
    targets = list(suite.STANDARD)
    if args.targets:
        targets = list(
            read_army(
                args.targets,
                faction=args.target_faction,
                csv_kind="targets",
                faction_option="--target-faction",
            ).targets
        )
        if not targets:
            raise field_error(OptionError, "--targets", "a file with units", args.targets)
    context = base_context(args)
    if args.assume:
        loadouts = [x for d in tried for x in roster.with_detachment(d).loadouts()]
        assumed = Context(assume=check_assumed(args.assume, loadouts, targets))
        context = assumed if context is None else assumed.combined(context)
    table = compare_detachments(roster, tried, targets, rules=args.rules, context=context)
    _print_ranking(table, args.rank_by, own.name if own else None)
    if "--output" in outputs:
        write_output(outputs["--output"], lambda out: table.to_csv(out, index=False))
        print(f"table written to {args.output}")
    return 0


def _print_ranking(table: Any, column: str, own: str | None) -> None:
    """One line per detachment, best first: the list's total of ``column`` averaged over
    the targets, how many units its rules reach, and its rules."""
    totals = table.groupby("detachment", sort=False).agg(
        total=(column, "mean"), units=("units_armed", "first"), rules=("rules_applied", "first")
    )
    totals = totals.sort_values("total", ascending=False, kind="stable")
    width = max(len(str(n)) for n in totals.index) + 2
    print(f"{'detachment':<{width}}  {column:>16}  units  rules applied")
    for name, row in totals.iterrows():
        mark = " *" if name == own else ""
        label = f"{name}{mark}"
        print(f"{label:<{width}}  {row.total:>16.3f}  {row.units:>5}  {row.rules or '-'}")
    print(
        f"\n{column}: the list's units summed, each against a fresh copy of each target, "
        "averaged over the targets"
        + ("; * the roster's own detachment" if own else "")
        + ".\nRules on the attacks against the list's units count where the list is the "
        "target: `mathhammer report --targets ROSTER` and `durability ROSTER`."
    )
