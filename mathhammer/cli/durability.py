"""``mathhammer durability``: how durable units are against the standard attackers."""

from __future__ import annotations

import argparse
from typing import Any

from ..errors import OptionError, field_error
from .editions import chosen_rules, describe, read_list
from .lines import warn_import, warn_lines
from .outputs import check_outputs, plot_writer, write_table
from .situations import base_context

__all__ = ["durability_command"]

#: The columns printed per unit (the CSV has every column).
SHOWN = {
    "attacker": "attacker",
    "role": "role",
    "killed_mean": "killed",
    "points_lost": "pts lost",
    "p_destroyed": "P(dest.)",
    "copies_50": "copies 50%",
    "copies_90": "copies 90%",
    "effective_wounds_per_100_points": "EW/100pts",
}


#: The decimal places of a column's numbers where not 2.
PLACES = {"p_destroyed": 3}


def _targets(args: argparse.Namespace) -> list[Any]:
    """The units measured: the standard suite, or what ``TARGETS`` holds."""
    from ..io.sources import read_army
    from ..units import targets as suite

    if args.targets is None:
        return list(suite.STANDARD)
    _check_not_empty(args.targets, "TARGETS")
    army = read_army(args.targets, faction=args.faction, strict=args.strict, csv_kind="targets")
    read_list(args, army)
    warn_import(army, vars(args).setdefault("warned", set()), rules=False)
    if not army.targets:
        raise field_error(OptionError, "TARGETS", "a file with units", args.targets)
    return list(army.targets)


def _attackers(args: argparse.Namespace) -> list[Any]:
    """The attackers: the standard suite, a JSON suite of one's own, or the units of any
    list ``report`` reads (a roster, a catalogue with ``--attacker-faction``, a profiles
    CSV), each unit in each phase."""
    from ..io.attackers_json import load as load_attackers
    from ..units.durability import standard_attackers

    if args.attackers is None:
        return list(standard_attackers())
    _check_not_empty(args.attackers, "--attackers")
    if _is_suite(args.attackers):
        return list(load_attackers(args.attackers))
    return _list_attackers(args)


def _check_not_empty(given: str, flag: str) -> None:
    """Refuse an empty path given to ``flag``: a mistake, not "the standard suite"."""
    if given == "":
        raise field_error(OptionError, flag, "a file or folder", given)


def _list_attackers(args: argparse.Namespace) -> list[Any]:
    """The units of the list ``--attackers`` names, what its import could not read
    warned of; it must have weapons."""
    from ..io.sources import read_army

    army = read_army(
        args.attackers,
        faction=args.attacker_faction,
        strict=args.strict,
        faction_option="--attacker-faction",
    )
    read_list(args, army)
    warn_import(army, vars(args).setdefault("warned", set()), rules=False)
    warn_lines(army.unknown_abilities)
    if not army.loadouts:
        raise field_error(OptionError, "--attackers", "a file with weapons", args.attackers)
    return list(army.loadouts)


def _situated(attacker: Any, base: Any) -> Any:
    """An attacker in the situation ``base``, its own context's changes on top."""
    from dataclasses import replace

    from ..units.durability import StandardAttacker

    if isinstance(attacker, StandardAttacker):
        return replace(attacker, context=attacker.context.combined(base))
    return attacker.in_context(base)


def _is_suite(path: str) -> bool:
    """True for a JSON suite of attackers (an object with "attackers"), as the bundled one."""
    from pathlib import Path

    from ..io.files import read_input_json

    where = Path(path)
    if where.suffix.lower() != ".json" or not where.is_file():
        return False
    data = read_input_json(where)
    return isinstance(data, dict) and "attackers" in data


def _cell(value: Any, column: str) -> str:
    """A value as its ``column`` of the terminal table shows it."""
    import pandas as pd

    if pd.isna(value):  # None, NaN and pandas' NA
        return "more" if column.startswith("copies_") else "-"
    if isinstance(value, float):
        return f"{value:.{PLACES.get(column, 2)}f}"
    return str(value)


def durability_command(args: argparse.Namespace) -> int:
    """Measure every unit of ``TARGETS`` (the standard suite by default) against the
    standard attackers (or ``--attackers``), print a table per unit, write the CSV."""
    from ..units.durability import durability

    named = [("--output", args.output), ("--plot", args.plot)]
    outputs = check_outputs(named, args.force)
    targets = _targets(args)
    suite = _attackers(args)
    base = base_context(args)
    if base is not None:  # every attacker in the situation the flags give
        suite = [_situated(a, base) for a in suite]
    rules = chosen_rules(args.rules, vars(args).get("lists", []))
    print(describe(rules))
    frame = durability(targets, suite, rules=rules, max_copies=args.max_copies)
    _print_units(frame, len(suite), args.max_copies)
    _write(outputs, frame, args)
    return 0


def _print_units(frame: Any, attackers: int, max_copies: int) -> None:
    """Each unit's table (its ``attackers`` rows, in order), then what the columns mean."""
    for start in range(0, len(frame), attackers):
        _print_unit(frame.iloc[start : start + attackers])
    print(
        f"copies: the fewest copies of the attacker, one after another, that destroy the unit "
        f"with that chance ('more': not within {max_copies}); EW: effective wounds"
    )


def _print_unit(rows: Any) -> None:
    """One unit's rows: its name, then the :data:`SHOWN` columns as a table."""
    print(f"{rows['unit'].iloc[0]}:")
    table = [list(SHOWN.values())]
    table += [[_cell(row[c], c) for c in SHOWN] for _, row in rows.iterrows()]
    for line in _aligned(table):
        print("  " + line)
    print()


def _aligned(table: list[list[str]]) -> list[str]:
    """The rows of ``table`` as lines, each column as wide as its widest cell: the first
    two (attacker, role) to the left, the numbers to the right."""
    widths = [max(len(r[i]) for r in table) for i in range(len(table[0]))]
    return [_justified(line, widths) for line in table]


def _justified(cells: list[str], widths: list[int]) -> str:
    """One row of :func:`_aligned`: each cell padded to its column's width, the first two
    to the left, the rest to the right."""
    return "  ".join(
        c.ljust(w) if i < 2 else c.rjust(w)
        for i, (c, w) in enumerate(zip(cells, widths, strict=True))
    )


def _write(outputs: dict[str, Any], frame: Any, args: argparse.Namespace) -> None:
    """Write the CSV (``-o``) and the plot (``--plot``) asked for, a line saying so each."""
    from ..io.outputs import write_output

    write_table(outputs, frame, "durability table")
    if "--plot" in outputs:
        from ..views.plots import plot_durability

        draw = plot_writer(lambda: plot_durability(frame, args.metric), args.plot)
        write_output(outputs["--plot"], draw, binary=True)
        print(f"{args.metric} plot written to {args.plot}")
