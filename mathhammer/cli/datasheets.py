"""``mathhammer datasheets``: what an import read, a line per datasheet, then the import report."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ..units.datasheet import Datasheet, ModelProfile
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
    models = _models(sheet.sizes)
    stats = _stats(sheet.models[0])
    points = "/".join(str(p) for _, p in sheet.points) or "-"
    profiles = sum(len(g.profiles) for g in sheet.wargear)
    return (
        f"{sheet.name[:29]:29s} {sheet.faction[:16]:16s} {models:>5s} models  {stats:13s}"
        f"{profiles:2d} weapons  {points} pts"
    )


def _models(sizes: range) -> str:
    """A unit's sizes as the line shows them: one number, or the smallest and largest."""
    if len(sizes) == 1:
        return f"{sizes.start}"
    return f"{sizes.start}-{sizes.stop - 1}"


def _stats(model: ModelProfile) -> str:
    """A model's T, Sv and W as a datasheet prints them (``Sv-``: no armour save), and its
    invulnerable save if it has one."""
    save = "-" if model.save >= 7 else f"{model.save}+"
    stats = f"T{model.toughness} Sv{save} W{model.wounds}"
    if model.invuln:
        stats += f" InSv{model.invuln}+"
    return stats


def datasheets_command(args: argparse.Namespace) -> int:
    """List the datasheets read from ``args.path`` (narrowed by faction and search)."""
    from ..io.sources import read_army

    army = read_army(Path(args.path), faction=args.faction, strict=args.strict)
    sheets = _searched(list(army.datasheets), args.search)
    for sheet in sheets:
        print(datasheet_line(sheet))
    print(f"\n{len(sheets)} of {len(army.datasheets)} datasheets ({army.kind})")
    _report_import(army, sheets, args.import_report)
    return 0


def _searched(sheets: list[Datasheet], search: str | None) -> list[Datasheet]:
    """The datasheets whose name holds ``search`` (in any case); all of them without it."""
    if not search:
        return sheets
    needle = search.casefold()
    return [s for s in sheets if needle in s.name.casefold()]


def _report_import(army: Any, sheets: list[Datasheet], whole: bool) -> None:
    """The import report on standard error when ``whole`` (``--import-report``); else
    what could not be read of the datasheets listed only, the rest on demand."""
    from dataclasses import replace

    from ..io.import_report import describe

    if army.report is None:
        return
    if whole:
        print(describe(army.report), file=sys.stderr)
    else:
        warn_import(replace(army, datasheets=tuple(sheets)))
