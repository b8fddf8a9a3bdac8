"""``mathhammer report``: every loadout against every target, written as CSV.

The rows stream: each is kept on disk as it is computed
(:class:`~mathhammer.io.report_csv.RowSpool`) and the CSV is written from there, so a report
of any length runs in the same memory. The terminal shows the first :data:`SHOWN_ROWS`
rows; the heatmap and the HTML page, which show every row, keep the rows in memory only
when asked for. Every output is checked before any work, and all are written or none
(:mod:`mathhammer.cli.outputs`).
"""

from __future__ import annotations

import argparse
import itertools
import os
import sys
from collections.abc import Callable, Sequence
from contextlib import closing
from pathlib import Path
from typing import Any

from ..core.suggest import did_you_mean
from ..errors import OptionError, field_error
from ..results.columns import METRIC_COLUMNS, after_attack_columns_in, metric_column
from .editions import chosen_rules, describe, reading_rules
from .lines import progress_bar, warn_import, warn_lines
from .outputs import check_outputs, plot_writer
from .situations import in_situations

__all__ = ["DEFAULT_REPORT", "SHOWN", "SHOWN_ROWS", "report_command"]

#: The report columns printed on the terminal (the CSV has them all), when present; the
#: P(failed) column of each after-attack test (the classic Panic Test) follows p_destroyed.
SHOWN = (
    "loadout",
    "phase",
    "weapons_used",
    "context",
    "target",
    "mean_killed",
    "mean_damage",
    "p_at_least_1",
    "p_destroyed",
    "p_character_killed",
)
SHOWN_LAST = ("points_of_damage", "points_destroyed_per_100_points", "mc_z", "mc_p")
#: Where a report's CSV goes when no ``-o`` is given (and a CSV is asked for).
DEFAULT_REPORT = "mathhammer-report.csv"
#: The most rows printed on the terminal; the CSV has every row.
SHOWN_ROWS = 100


def three_places(value: float) -> str:
    """A number as the terminal table shows it: three places, never "-0.000".

    >>> three_places(-0.0004), three_places(2 / 3)
    ('0.000', '0.667')
    """
    shown = f"{value:.3f}"
    return "0.000" if shown == "-0.000" else shown


def report_command(args: argparse.Namespace) -> int:
    """``mathhammer report``: every loadout against every target, written as CSV."""
    from ..io.outputs import write_outputs
    from ..io.report_csv import RowSpool
    from ..results.columns import columns_frame

    outputs = _checked_outputs(args)
    attackers, targets = _report_inputs(args)
    print(describe(args.rules))
    whole = bool(args.plot or args.html)  # the heatmap and the page show every row
    with RowSpool() as spool:
        kept = _compute(args, attackers, targets, spool, whole)
        frame = columns_frame([row for row, _ in kept])
        metric = _metric(frame if whole else None, spool.columns, args.metric)
        write_outputs(_writers(args, outputs, spool.write_csv, frame, metric, kept))
        count = spool.count
    _print_table(frame, count, args.output)
    _print_pictures(args, metric)
    return 0


def _print_pictures(args: argparse.Namespace, metric: str | None) -> None:
    """Where the heatmap (``--plot``) and the page (``--html``) went, when asked for."""
    if args.plot:
        print(f"heatmap of {metric} written to {args.plot}")
    if args.html:
        print(f"HTML report written to {args.html}")


def _checked_outputs(args: argparse.Namespace) -> dict[str, Any]:
    """Check ``--metric`` and every output before the work (``-o`` defaults to
    :data:`DEFAULT_REPORT`); return the outputs asked for, by flag."""
    if args.metric is not None:  # before the work; a short name read as its column
        args.metric = metric_column(args.metric, among=METRIC_COLUMNS, field="--metric")
    if args.output is None and not (args.plot or args.html):
        args.output = DEFAULT_REPORT  # a CSV unless only a picture or a page is asked for
    named = [("--output", args.output), ("--plot", args.plot), ("--html", args.html)]
    outputs = check_outputs(named, args.force)
    _check_not_inputs(args, outputs)
    return outputs


def _writers(
    args: argparse.Namespace,
    outputs: dict[str, Any],
    write_csv: Any,
    frame: Any,
    metric: str | None,
    kept: list[tuple[dict[str, Any], Any]],
) -> list[tuple[Any, Any, bool]]:
    """The writer of each output asked for: (its path, the writer, whether binary)."""
    made: dict[str, Callable[[], tuple[Any, bool]]] = {  # by flag: (the writer, whether binary)
        "--output": lambda: (write_csv, False),
        "--plot": lambda: (_heatmap(frame, args.plot, metric, args), True),
        "--html": lambda: (_page(args, frame, metric, [chart for _, chart in kept]), False),
    }
    return [(path, *made[flag]()) for flag, path in outputs.items()]


def _compute(
    args: argparse.Namespace, attackers: Sequence[Any], targets: list[Any], spool: Any, whole: bool
) -> list[tuple[dict[str, Any], Any]]:
    """Run the report into ``spool``; return the rows kept in memory: all of them when
    ``whole`` (with their distributions), else the first :data:`SHOWN_ROWS`."""
    from ..io.report import report_rows
    from ..units.options import CHOICE_METRICS

    bar = progress_bar(args, len(attackers), "unit", "report")
    try:
        rows = report_rows(
            attackers,
            targets,
            rules=args.rules,
            metric=args.metric if args.metric in CHOICE_METRICS else "mean_damage",
            trials=args.check_trials,
            jobs=args.jobs,
            rng=args.seed,
            progress=(lambda _: bar.update(1)) if bar else None,
        )
        warn_lines(rows.skipped)
        kept, disagree = _spooled(rows, spool, whole, bool(args.html))
    finally:
        if bar is not None:
            bar.close()
    _warn_disagreement(disagree)
    return kept


def _spooled(
    rows: Any, spool: Any, whole: bool, charts: bool
) -> tuple[list[tuple[dict[str, Any], Any]], list[str]]:
    """Add each row of ``rows`` to ``spool``; return the rows kept in memory (all when
    ``whole``, each with its distribution when ``charts``, else the first
    :data:`SHOWN_ROWS`) and the rows whose Monte Carlo check the exact result fails."""
    from ..results.agreement import DISAGREE

    kept = []
    disagree = []
    with closing(iter(rows)) as computed:  # left early, its workers stop at once
        for row, chart in computed:
            spool.add(row)
            if row.get("mc_p", 1.0) < DISAGREE:
                disagree.append(f"{row.get('loadout', '?')} vs {row['target']}")
            if whole or spool.count <= SHOWN_ROWS:
                kept.append((row, chart if charts else None))
    return kept, disagree


def _warn_disagreement(disagree: list[str]) -> None:
    """One warning line naming the first rows (``disagree``) whose Monte Carlo check the
    exact result fails; nothing when there are none."""
    from ..results.agreement import DISAGREE

    if not disagree:
        return
    shown_rows = "; ".join(disagree[:5]) + ("; ..." if len(disagree) > 5 else "")
    print(
        f"mathhammer: warning: the Monte Carlo check disagrees with the exact result "
        f"(mc_p < {DISAGREE:g}) on {len(disagree)} row(s): {shown_rows}; please report "
        "it with the command line",
        file=sys.stderr,
    )


def _metric(frame: Any, columns: Sequence[str], metric: str | None) -> str | None:
    """The heatmap's metric: the one asked for, if the report has it, or (given the whole
    ``frame``) the default that credits damage; checked before any output is written."""
    from ..views.heatmap import default_metric

    if metric is None:
        return default_metric(frame) if frame is not None else None
    _check_metric_present(metric, columns)
    return metric


def _check_metric_present(metric: str, columns: Sequence[str]) -> None:
    """Refuse a ``--metric`` that is a column of the vocabulary this report lacks."""
    present = [c for c in METRIC_COLUMNS if c in columns]
    if metric not in present:
        hint = did_you_mean(metric, present)
        raise field_error(OptionError, "--metric", f"one of {present}", metric, hint)


def _heatmap(frame: Any, path: str, metric: str | None, args: argparse.Namespace) -> Any:
    from ..views.plots import plot_compare

    return plot_writer(lambda: plot_compare(frame, metric=metric, rules=args.rules), path)


def _page(
    args: argparse.Namespace, frame: Any, metric: str | None, charts: list[Any]
) -> Callable[[Any], Any]:
    """A writer of the HTML page to an open text file (the page made now)."""
    from ..views.report_html import report_html

    page = report_html(frame, title=page_title(args), rules=args.rules, metric=metric,
                       results=charts)  # fmt: skip
    return lambda out: out.write(page)


def page_title(args: argparse.Namespace) -> str:
    """The page's title: the lists or factions compared, not the folders they came from.

    >>> ns = argparse.Namespace(attackers="wh40k-11e/", faction="Necrons", targets="wh40k-11e",
    ...                         target_faction="Orks")
    >>> page_title(ns)
    'mathhammer report: Necrons vs Orks'
    >>> page_title(argparse.Namespace(attackers="lists/my-list.rosz", faction=None,
    ...                               targets=None, target_faction=None))
    'mathhammer report: my-list vs the standard targets'
    """
    return f"mathhammer report: {_attackers_named(args)} vs {_targets_named(args)}"


def _is_library(path: str) -> bool:
    """True for a folder or a catalogue: ``--faction`` chose the units from it."""
    suffix = Path(path).suffix.lower()
    return Path(path).is_dir() or suffix in ("", ".cat", ".catz", ".gst", ".gstz")


def _attackers_named(args: argparse.Namespace) -> str:
    """The attackers as the title names them: the faction chosen from a library, else the
    file's name."""
    if args.attackers is None:
        return "the bundled examples"
    return _named(args.attackers, args.faction)


def _targets_named(args: argparse.Namespace) -> str:
    """The targets as the title names them: the faction chosen from a library (by
    ``--target-faction``, or ``--faction`` when the attackers did not take it), else the
    file's name."""
    if not args.targets:
        return "the standard targets"
    return _named(args.targets, args.target_faction or _faction_left(args))


def _faction_left(args: argparse.Namespace) -> str | None:
    """``--faction`` when the attackers did not take it (they came from no library, or
    are the bundled examples), else None."""
    took = args.attackers is not None and _is_library(args.attackers)
    return None if took else args.faction


def _named(path: str, faction: str | None) -> str:
    """What the title calls the units of ``path``: the ``faction`` chosen from it when it
    is a library, else the file's name."""
    if faction and _is_library(path):
        return faction
    return Path(path).stem or str(path)


def _print_table(frame: Any, count: int, output: str | None) -> None:
    """The first rows on the terminal, the columns of :func:`shown`; then where all went."""
    head = frame.head(SHOWN_ROWS)
    table = head[shown(head.columns)]  # "-": a column that does not apply to a row
    print(table.to_string(index=False, float_format=three_places, na_rep="-"))
    if count > len(head):
        print(f"... the first {len(head)} of {count} rows: the CSV has them all")
    if output is not None:
        print(f"\n{count} rows written to {output}")


def shown(columns: Sequence[str]) -> list[str]:
    """The columns printed on the terminal, among a report's ``columns``."""
    failed = [c for c in after_attack_columns_in(columns) if c.endswith("_fail")]
    return [c for c in (*SHOWN, *failed, *SHOWN_LAST) if c in columns]


def _check_not_inputs(args: argparse.Namespace, outputs: dict[str, Any]) -> None:
    """Refuse an output that is one of the report's input files: it would be replaced by
    the report it was read for."""
    inputs = [("ATTACKERS", args.attackers), ("--targets", args.targets)]
    for (flag, target), (name, given) in itertools.product(outputs.items(), inputs):
        if given and not target.direct and _same_file(target.path, given):
            raise field_error(OptionError, flag, f"a file other than {name}", str(given))


def _same_file(output: Path, given: str) -> bool:
    try:
        return os.path.samefile(output, given)
    except (OSError, ValueError):  # one of them is missing or cannot be looked at
        return False


def _report_inputs(args: argparse.Namespace) -> tuple[list[Any], list[Any]]:
    """The loadouts and targets of a report, read from whatever files were given."""
    from ..units import targets as suite

    _check_not_empty(args)
    army = _read_attackers(args)
    if not args.targets:
        if args.lead:
            raise field_error(OptionError, "--lead", "used with a --targets roster", args.lead)
        args.rules = chosen_rules(args.rules, [army])
        return _assumed(args, army.loadouts, []), list(suite.STANDARD)
    them = _read_targets(args, army)
    args.rules = chosen_rules(args.rules, [army, them])
    return _assumed(args, army.loadouts, them.targets), them.targets


def _check_not_empty(args: argparse.Namespace) -> None:
    """Refuse an empty ATTACKERS or ``--targets``: a mistake, not "the examples"."""
    for flag, given in (("ATTACKERS", args.attackers), ("--targets", args.targets)):
        if given == "":
            raise field_error(OptionError, flag, "a file or folder", given)


def _read_attackers(args: argparse.Namespace) -> Any:
    """The army of ATTACKERS (the bundled examples without it), its import reported."""
    from ..io.attackers_csv import example_attackers
    from ..io.sources import read_army

    rules = reading_rules(args.rules)
    source = Path(args.attackers) if args.attackers else example_attackers(rules)
    army = read_army(source, faction=args.faction, rules=rules, strict=args.strict)
    _print_import(args, army)
    warn_lines(army.unknown_abilities)  # a profiles CSV: one line per token, file:line
    _check_armed(army, source)
    return army


def _check_armed(army: Any, source: Path) -> None:
    """Refuse attackers without a weapon; name each of their units without one."""
    unarmed = [sheet.name for sheet in army.datasheets if not sheet.loadouts()]
    if not army.loadouts:
        read = f"{len(army.datasheets)} units read, none with weapons" if unarmed else ""
        raise field_error(OptionError, "attackers", "a file with weapons", str(source), read)
    warn_lines(f"{army.source}: {name}: no weapons read; no rows" for name in unarmed)


def _read_targets(args: argparse.Namespace, army: Any) -> Any:
    """The army of ``--targets`` (their leaders attached by ``--lead``), its import
    reported."""
    from ..io.sources import read_army

    # --faction picks the attackers' faction when their source has factions; the targets
    # take it only when the attackers did not (a roster against a catalogue)
    library = army.kind in ("catalogue", "Wahapedia export")
    faction = args.target_faction or (None if library else args.faction)
    them = read_army(
        args.targets,
        faction=faction,
        strict=args.strict,
        csv_kind="targets",
        leaders=_leaders(args.lead),
        faction_option="--target-faction",
    )
    _print_import(args, them)
    if not them.targets:
        raise field_error(OptionError, "--targets", "a file with units", args.targets)
    return them


def _leaders(lead: Sequence[tuple[str, str]]) -> dict[str, list[str]]:
    """The leaders ``--lead`` attaches (its (unit, leader) pairs), by unit."""
    leaders: dict[str, list[str]] = {}
    for unit, leader in lead:
        leaders.setdefault(unit, []).append(leader)
    return leaders


def _assumed(args: argparse.Namespace, loadouts: list[Any], targets: list[Any]) -> list[Any]:
    """The loadouts in each situation the flags and ``--situation`` give (side by side)
    and in the one ``--assume`` states, its names checked against the states the rules of
    both sides mention."""
    from ..units.assume import assuming, check_assumed

    loadouts = in_situations(loadouts, args)
    if not args.assume:
        return loadouts
    return assuming(loadouts, check_assumed(args.assume, loadouts, targets))


def _print_import(args: argparse.Namespace, army: Any) -> None:
    """The import report on stderr when asked for; unknown abilities always."""
    from ..io.import_report import describe

    if army.report is None:
        return
    seen = vars(args).setdefault("warned", set())  # the two inputs may be one folder
    if args.import_report:
        _print_once(describe(army.report), seen)
    else:
        warn_import(army, seen)


def _print_once(text: str, seen: set[str]) -> None:
    """``text`` on stderr, unless it is among the texts ``seen`` (printed already)."""
    if text not in seen:
        seen.add(text)
        print(text, file=sys.stderr)
