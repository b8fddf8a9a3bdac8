"""``mathhammer datasheets``: what an import read, a line per datasheet, then the import report."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..units.datasheet import Datasheet
from .lines import warn_import

__all__ = ["datasheets_command", "datasheet_line"]


def datasheet_line(sheet: Datasheet) -> str:
    """One line: name, faction, models, the first model's T/Sv/W, weapons, points.

    Examples
    --------
    >>> from mathhammer.units.datasheet import ModelProfile
    >>> datasheet_line(Datasheet("Boyz", (ModelProfile("Boy", 5, 5, 1, min_count=10,
    ...                                                 max_count=20),), faction="Orks",
    ...                          points=((10, 85), (20, 170))))
    'Boyz                          Orks          10-20 models  T5 Sv5+ W1   0 weapons  85/170 pts'
    """
    sizes = sheet.sizes
    models = f"{sizes.start}" if len(sizes) == 1 else f"{sizes.start}-{sizes.stop - 1}"
    first = sheet.models[0]
    save = "-" if first.save >= 7 else f"{first.save}+"
    stats = f"T{first.toughness} Sv{save} W{first.wounds}"
    if first.invuln:
        stats += f" InSv{first.invuln}+"
    points = "/".join(str(p) for _, p in sheet.points) or "-"
    profiles = sum(len(g.profiles) for g in sheet.wargear)
    return (
        f"{sheet.name[:29]:29s} {sheet.faction[:16]:16s} {models:>5s} models  {stats:13s}"
        f"{profiles:2d} weapons  {points} pts"
    )


def datasheets_command(args: argparse.Namespace) -> int:
    """List the datasheets read from ``args.path`` (narrowed by faction and search)."""
    from ..io.import_report import describe
    from ..io.sources import read_army

    army = read_army(Path(args.path), faction=args.faction, strict=args.strict)
    sheets = list(army.datasheets)
    if args.search:
        needle = args.search.casefold()
        sheets = [s for s in sheets if needle in s.name.casefold()]
    for sheet in sheets:
        print(datasheet_line(sheet))
    print(f"\n{len(sheets)} of {len(army.datasheets)} datasheets ({army.kind})")
    if army.report is not None and args.import_report:
        print(describe(army.report), file=sys.stderr)
    elif army.report is not None:  # the datasheets listed only; the rest on demand
        from dataclasses import replace

        warn_import(replace(army, datasheets=tuple(sheets)))
    return 0
