"""``mathhammer detachments``: a list under each detachment of its faction, by the numbers."""

from __future__ import annotations

import argparse
from types import SimpleNamespace
from typing import Any

from ..errors import OptionError, field_error
from .editions import chosen_rules
from .outputs import check_outputs, write_table
from .plan import targets_of
from .situations import base_context

__all__ = ["detachments_command"]

#: What the detachments are ranked by, and its column.
RANKED_BY = ("mean_damage", "mean_killed", "points_destroyed")


def detachments_command(args: argparse.Namespace) -> int:
    """Put the roster under no detachment, its own and each of its faction's in the
    catalogue; print them ranked by the list's total against the targets."""
    from ..io.roster import compare_detachments, read_roster

    outputs = check_outputs([("--output", args.output)], args.force)
    roster = read_roster(args.roster, strict=args.strict)
    args.rules = chosen_rules(
        args.rules, [SimpleNamespace(source=args.roster, edition=roster.system.ruleset)]
    )
    tried = _tried(roster, args)
    targets = targets_of(args)
    context = _context(roster, tried, targets, args)
    table = compare_detachments(roster, tried, targets, rules=args.rules, context=context)
    own = roster.detachment
    _print_ranking(table, args.rank_by, own.name if own else None)
    write_table(outputs, table, "table")
    return 0


def _tried(roster: Any, args: argparse.Namespace) -> list[Any]:
    """The detachments to try: none, the roster's own, then the others of its faction in
    ``--catalogue``."""
    own = roster.detachment
    others = _faction_detachments(roster, args)
    if own is None:
        return [None, *others]
    return [None, own, *(d for d in others if d.name != own.name)]


def _faction_detachments(roster: Any, args: argparse.Namespace) -> list[Any]:
    """The detachments ``--catalogue`` gives the roster's faction (or ``--faction``)."""
    from ..io.bsdata import read_catalogue

    catalogue = read_catalogue(args.catalogue)
    faction = _faction(roster, args)
    library = catalogue.faction(faction)
    if not library.detachments:
        raise field_error(
            OptionError,
            "--catalogue",
            f"catalogues with the detachments of {faction!r}",
            args.catalogue,
        )
    return list(library.detachments)


def _faction(roster: Any, args: argparse.Namespace) -> str:
    """``--faction``, else the roster's first faction; refused when neither names one."""
    faction = args.faction or (roster.factions[0] if roster.factions else "")
    if not faction:
        raise field_error(OptionError, "--faction", "given: the roster names no faction", "")
    return str(faction)


def _context(roster: Any, tried: list[Any], targets: list[Any], args: argparse.Namespace) -> Any:
    """The situation the flags give, combined with the one ``--assume`` states (its names
    checked against the units under every detachment tried); None for neither."""
    from ..model.context import Context
    from ..units.assume import check_assumed

    context = base_context(args)
    if not args.assume:
        return context
    loadouts = [x for d in tried for x in roster.with_detachment(d).loadouts()]
    assumed = Context(assume=check_assumed(args.assume, loadouts, targets))
    return assumed if context is None else assumed.combined(context)


def _ranked(table: Any, column: str) -> Any:
    """Each detachment's total of ``column`` averaged over the targets, the units its rules
    reach and its rules; best first (ties in the order tried)."""
    totals = table.groupby("detachment", sort=False).agg(
        total=(column, "mean"), units=("units_armed", "first"), rules=("rules_applied", "first")
    )
    return totals.sort_values("total", ascending=False, kind="stable")


def _print_ranking(table: Any, column: str, own: str | None) -> None:
    """One line per detachment, best first: the list's total of ``column`` averaged over
    the targets, how many units its rules reach, and its rules."""
    totals = _ranked(table, column)
    width = max(len(str(n)) for n in totals.index) + 2
    print(f"{'detachment':<{width}}  {column:>16}  units  rules applied")
    for name, row in totals.iterrows():
        print(_ranking_line(name, row, width, name == own))
    print(_ranking_note(column, own))


def _ranking_line(name: Any, row: Any, width: int, own: bool) -> str:
    """A detachment's line of the ranking (``own``: the roster's, marked ``*``)."""
    label = f"{name} *" if own else f"{name}"
    return f"{label:<{width}}  {row.total:>16.3f}  {row.units:>5}  {row.rules or '-'}"


def _ranking_note(column: str, own: str | None) -> str:
    """What the ranking's numbers are, under it (``*`` explained when the roster has a
    detachment of its own)."""
    return (
        f"\n{column}: the list's units summed, each against a fresh copy of each target, "
        "averaged over the targets"
        + ("; * the roster's own detachment" if own else "")
        + ".\nRules on the attacks against the list's units count where the list is the "
        "target: `mathhammer report --targets ROSTER` and `durability ROSTER`."
    )
