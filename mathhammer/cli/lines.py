"""The command line's messages: one line each, of a readable length.

An error or a warning can quote a value the user gave or a file held: a path of
thousands of characters, a number of 5,000 digits, a cell of a CSV file. Printed whole,
one such value would bury the message; :func:`one_line` keeps its start and its end.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from typing import Any

__all__ = ["MAX_LINE", "one_line", "progress_bar", "wants_progress", "warn_import", "warn_lines"]

#: The longest message printed, in characters (the prefix ``mathhammer: error:`` aside).
MAX_LINE = 400


def one_line(message: str, width: int = MAX_LINE) -> str:
    """``message`` on one line of at most ``width`` characters: its first line, and, when
    that is too long, its start and end around ``" ... "``.

    Examples
    --------
    >>> one_line("--jobs must be at most 256; got 1000")
    '--jobs must be at most 256; got 1000'
    >>> one_line("expected an integer; got '" + "9" * 1000 + "'", 50)
    "expected an integer; got '9999 ... 99999999999999'"
    >>> one_line("first\\nsecond")
    'first'
    """
    lines = message.splitlines()
    text = lines[0] if lines else ""
    if len(text) <= width:
        return text
    tail = (width - 5) // 3
    return f"{text[: width - 5 - tail]} ... {text[len(text) - tail :]}"


def warn_import(army: Any, seen: set[str] | None = None, rules: bool = True) -> None:
    """What an import could not read, one warning line each on standard error: the
    unknown weapon abilities and (with ``rules``) the units whose rules were not all
    applied, for the datasheets used only (a catalogue's faction, not the whole folder),
    and each line once (``seen``: the lines already printed, when two inputs are one
    folder). ``--import-report`` prints the whole report instead."""
    from ..io.import_report import unapplied_lines, unknown_lines

    report = getattr(army, "report", None)
    if report is None:
        return
    sheets = _sheets_used(army)
    lines = unknown_lines(report, sheets)
    if rules:
        lines += unapplied_lines(report, sheets=sheets)
    warn_lines(_unseen(lines, seen))


def warn_lines(messages: Iterable[object]) -> None:
    """Each of ``messages`` as one warning line (:func:`one_line`) on standard error."""
    for message in messages:
        print(f"mathhammer: warning: {one_line(str(message))}", file=sys.stderr)


def _sheets_used(army: Any) -> set[str] | None:
    """The datasheets an import's warnings are for: those of the faction chosen from a
    catalogue or an export; None (all of them) for any other source."""
    if army.kind not in ("catalogue", "Wahapedia export"):
        return None
    return {d.name for d in army.datasheets}


def _unseen(lines: list[str], seen: set[str] | None) -> list[str]:
    """The ``lines`` not in ``seen``, each once, added to ``seen`` (all of them without it)."""
    if seen is None:
        return lines
    fresh = [line for line in dict.fromkeys(lines) if line not in seen]
    seen.update(fresh)
    return fresh


def wants_progress(args: Any) -> bool:
    """True when a progress bar is wanted: standard error is a terminal, not in CI, and no
    ``--no-progress``."""
    return sys.stderr.isatty() and not os.environ.get("CI") and not args.no_progress


def progress_bar(args: Any, total: int, unit: str, desc: str) -> Any:
    """A tqdm progress bar on standard error when :func:`wants_progress`, else None."""
    if not wants_progress(args):
        return None
    from tqdm import tqdm

    return tqdm(total=total, unit=unit, desc=desc, file=sys.stderr)
