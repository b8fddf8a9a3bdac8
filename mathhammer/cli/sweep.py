"""``mathhammer sweep``: every attacker of one army file against every target of another,
in each context, written to a Parquet dataset as it goes."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ..errors import CsvError, OptionError, field_error
from .editions import chosen_rules, describe

__all__ = ["read_contexts", "sweep_command"]


def read_contexts(path: str | Path) -> dict[str, Any]:
    """The contexts of a CSV file: a ``name`` column and a ``context`` column of flags
    separated by ``;`` (``half_range; target_in_cover``; empty for the default context),
    as a buff's text reads (:func:`~mathhammer.model.context.parse_buff`).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> path = pathlib.Path(tempfile.mkdtemp(), "contexts.csv")
    >>> _ = path.write_text("name,context\\nfar,\\nclose,half_range\\n")
    >>> {k: v.changes() for k, v in read_contexts(path).items()}
    {'far': [], 'close': ['half_range']}
    """
    from ..io.csv_reader import CsvReader

    reader = CsvReader(path, ("name", "context"), ())
    out: dict[str, Any] = {}
    for line, row in reader.rows:
        name = _new_name(reader, line, row["name"], out)
        out[name] = _context_cell(reader, line, row["context"])
    if not out:
        raise CsvError(f"{path}: no contexts")
    return out


def _new_name(reader: Any, line: int, name: str, named: dict[str, Any]) -> str:
    """A context's ``name`` cell, refused when it is empty or ``named`` already."""
    if not name or name in named:
        raise reader.error(line, "name", f"expected a new, non-empty name; got {name!r}")
    return name


def _context_cell(reader: Any, line: int, text: str) -> Any:
    """The context a ``context`` cell's flags give (the default context for none); an
    error naming the file, line and column for anything else."""
    from ..model.context import Context, parse_buff

    try:
        modifiers, context = parse_buff(text, "context")
    except Exception as exc:  # a ProfileError naming the item
        raise reader.error(line, "context", str(exc)) from None
    if modifiers is not None:
        raise reader.error(line, "context", "context flags only (modifiers go on weapons)")
    return context if context is not None else Context()


#: File names a user may give -o by habit; a sweep writes a folder of Parquet files.
_FILE_SUFFIXES = (".csv", ".tsv", ".txt", ".xlsx", ".json")


def _check_folder(output: str, resume: bool) -> None:
    """``-o`` names a folder for the sweep's files: not a file name (``out.csv``), and not a
    folder holding a sweep unless ``--resume``; said in the command line's words."""
    from ..sweeps.store import holds_sweep

    where = Path(output)
    if where.suffix.lower() in _FILE_SUFFIXES:
        raise field_error(
            OptionError, "-o", "a folder for the sweep's Parquet files", output,
            f"a sweep is many files: give a folder such as {where.stem!r} and read it with "
            "pandas.read_parquet",
        )  # fmt: skip
    if not resume and holds_sweep(where):
        raise field_error(
            OptionError, "-o", "a folder without a sweep", output,
            "add --resume to go on with the sweep in it, or give another folder",
        )  # fmt: skip


def sweep_command(args: argparse.Namespace) -> int:
    """Sweep ATTACKERS (every loadout) against --targets (every unit) in every context."""
    from ..sweeps.options import SweepExecution, SweepOutput
    from ..sweeps.run import sweep
    from .lines import wants_progress

    executor = _executor(args)
    _check_folder(args.output, args.resume)
    army, them = _armies(args)
    rules = chosen_rules(args.rules, [army, them])
    print(describe(rules))
    contexts = read_contexts(args.contexts) if args.contexts else None
    rows = sweep(
        army.loadouts,
        them.targets,
        contexts=contexts,
        rules=rules,
        execution=SweepExecution(executor, jobs=args.jobs, progress=wants_progress(args)),
        output=SweepOutput(args.output, resume=args.resume, collect=False),
        trials=args.check_trials,
        rng=args.seed,
    )
    _print_done(rows, army, them, contexts, args.output)
    return 0


def _print_done(rows: int, army: Any, them: Any, contexts: Any, output: str) -> None:
    """The line saying what the sweep wrote: its rows, as attackers x targets x contexts
    (one without ``contexts``), and where."""
    print(
        f"{rows} rows ({len(army.loadouts)} attackers x {len(them.targets)} targets x "
        f"{len(contexts) if contexts else 1} contexts) in {output}"
    )


def _armies(args: argparse.Namespace) -> tuple[Any, Any]:
    """The armies of ATTACKERS and --targets, what their imports could not read warned
    of; each must hold units."""
    from ..io.sources import read_army
    from .lines import warn_import

    army = read_army(args.attackers, faction=args.faction, strict=args.strict)
    them = read_army(
        args.targets,
        faction=args.target_faction,
        csv_kind="targets",
        faction_option="--target-faction",
    )
    seen: set[str] = set()  # the two inputs may be one folder
    for read in (army, them):
        warn_import(read, seen, rules=False)
    if not army.loadouts:
        raise field_error(OptionError, "ATTACKERS", "a file with attacking units", args.attackers)
    if not them.targets:
        raise field_error(OptionError, "--targets", "a file with units", args.targets)
    return army, them


def _executor(args: argparse.Namespace) -> str | None:
    """Where the sweep runs: on ``--scheduler``'s cluster, on a Dask LocalCluster
    (``--dask``), or in local processes (None); ``--jobs`` is for local processes only."""
    if args.jobs is not None and args.scheduler is not None:
        raise OptionError("--jobs and --scheduler: give one (local processes, or a cluster)")
    scheduler: str | None = args.scheduler
    return "dask" if scheduler is None and args.dask else scheduler
