"""The argument parser of ``mathhammer``: its subcommands, options and argument types.

Each subcommand's parser names the function of :mod:`mathhammer.cli.commands` that runs
it (``args.run``). A value an option cannot take is a usage error: argparse prints it
with the usage and exits with status 2.
"""

from __future__ import annotations

import argparse
from typing import NoReturn, TypeAlias, TypeVar

from .. import __version__
from ..errors import ProfileError
from ..model.values import (
    parse_bs,
    parse_leadership,
    parse_optional_roll,
    parse_save,
    parse_skill,
)
from ..rules import get_ruleset, ruleset_names
from .app import add_app
from .commands import attack_command, demo_command, report_command, targets_command
from .datasheets import datasheets_command
from .detachments import detachments_command
from .durability import durability_command
from .lines import one_line
from .plan import plan_command
from .report import DEFAULT_REPORT
from .situations import add_situation_options
from .sweep import sweep_command
from .values import count, grammar, integer, jobs, leader, positive, seed, skill_text

__all__ = [
    "DEFAULT_REPORT",
    "TARGET_FLAGS",
    "build_parser",
    "check_attack_options",
    "check_target_options",
]

T = TypeVar("T")

_RAW = argparse.RawDescriptionHelpFormatter
# argparse has no public name for the object add_subparsers returns
_Subparsers: TypeAlias = "argparse._SubParsersAction[_Parser]"


# --------------------------------------------------------------------------- the parser
class _Parser(argparse.ArgumentParser):
    """argparse's parser, with a usage error kept to one line of readable length: a value
    of thousands of characters (a 5,000-digit number) is shown by its start and end."""

    def error(self, message: str) -> NoReturn:
        super().error(one_line(message))


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``mathhammer`` command.

    Examples
    --------
    >>> args = build_parser().parse_args(["attack", "-A", "2", "--skill", "3+", "-S", "4"])
    >>> args.command, args.skill, args.rules, args.run.__name__
    ('attack', '3+', '11e', 'attack_command')
    """
    parser = _Parser(
        prog="mathhammer",
        formatter_class=_RAW,
        description="Exact damage distributions for wargame attacks.",
        epilog="examples:\n  mathhammer report\n  mathhammer report army.csv --targets "
        "threats.csv -o out.csv --jobs 2\n  mathhammer attack -A 2 --skill 3+ -S 4 --ap -1 "
        "-D 1 --count 10 --target 'Line infantry'\n  mathhammer targets",
    )
    parser.add_argument("--version", action="version", version=f"mathhammer {__version__}")
    parser.add_argument("--debug", action="store_true", help="show the traceback of an error")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    report, attack, demo = _add_report(sub), _add_attack(sub), _add_demo(sub)
    _add_targets(sub)
    _add_datasheets(sub)
    lists = [_add_durability(sub), _add_plan(sub), _add_sweep(sub), _add_detachments(sub)]
    add_app(sub)
    rulesets = "; ".join(f"{r} ({get_ruleset(r).description})" for r in ruleset_names())
    for command in (attack, demo):
        command.add_argument(
            "--rules", choices=ruleset_names(), default="11e", help=f"ruleset: {rulesets}"
        )
    for command in (report, *lists):  # they read lists, which name their edition
        command.add_argument(
            "--rules",
            choices=(*ruleset_names(), "auto"),
            default="auto",
            help="ruleset: auto (the default: the lists' own edition, 11e for a CSV file); "
            + rulesets,
        )
    return parser


def _add_report(sub: _Subparsers) -> argparse.ArgumentParser:
    report = sub.add_parser(
        "report",
        formatter_class=_RAW,
        help="every attacking unit against every target, as CSV",
        description="Run every attacking unit of ATTACKERS against every target and write "
        "a tidy CSV of the comparison metrics. ATTACKERS (and --targets) may be a profiles "
        "CSV, a roster (.ros, .rosz, roster JSON), a BSData catalogue or a folder of them, or "
        "a folder with the Wahapedia export; a unit's ranged and melee attacks are separate "
        "rows. Without arguments: the bundled example loadouts against the standard target "
        "suite. Rosters of the 10th and 11th editions of Warhammer 40,000 are read and "
        "computed under their own edition (--rules auto); an older edition or another game "
        "(Kill Team, Horus Heresy, Age of Sigmar) is refused in one line naming it.",
        epilog="examples:\n  mathhammer report\n  mathhammer report army.csv -o army-report.csv"
        "\n  mathhammer report army.csv --targets threats.csv --plot heatmap.png --jobs 2"
        "\n  mathhammer report my-list.rosz --targets their-list.rosz"
        "\n  mathhammer report my-list.rosz --targets wh40k-11e/ --faction Orks"
        "\n  mathhammer report --check-trials 20000\n\nThe CSV columns are described in "
        "docs/guide/csv-files.md (attackers: unit, weapon, count, A, BS/WS, S, AP, D, "
        "abilities, points; targets: unit, group, models, T, Sv, InSv, W, FNP, keywords, "
        "CHARACTER, Ld, points).",
    )
    report.add_argument(
        "attackers", nargs="?", help="attackers: CSV, roster or catalogue (default: examples)"
    )
    report.add_argument(
        "--targets", help="targets: CSV, JSON suite, roster or catalogue (default: the suite)"
    )
    _add_army_options(report)
    report.add_argument(
        "-o",
        "--output",
        help=f"output CSV (default: {DEFAULT_REPORT}, unless only --plot or --html is asked "
        "for); a FIFO or /dev/null is written in place",
    )
    report.add_argument("--plot", metavar="FILE.png", help="write a loadout x target heatmap")
    report.add_argument(
        "--metric",
        help="the heatmap's metric, a numeric column of the report (default: points_of_damage "
        "when targets have points, else mean_damage: both credit damage to big targets)",
    )
    report.add_argument(
        "--html", metavar="FILE.html", help="write a self-contained HTML report (table, heatmap)"
    )
    report.add_argument(
        "--check-trials",
        type=count,
        default=0,
        metavar="N",
        help="add a Monte Carlo check with N trials per row: mc_mean_killed, mc_se_killed, "
        "mc_z, the Monte Carlo mean's distance from the exact mean in standard errors, and "
        "mc_p, the p-value of its counts under the exact distribution (exact binomial tests, "
        "valid for rare outcomes: below 1e-6 the engines disagree, and a warning says so)",
    )
    report.add_argument(
        "--jobs",
        type=jobs,
        default=1,
        metavar="N",
        help="worker processes (results identical to a serial run)",
    )
    report.add_argument("--seed", type=seed, default=0, help="Monte Carlo seed (0)")
    report.add_argument("--no-progress", action="store_true", help="no progress bar")
    _add_force(report)
    report.set_defaults(run=report_command)
    return report


def _add_force(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--force", action="store_true", help="replace output files that are read-only"
    )


def _add_army_options(report: argparse.ArgumentParser) -> None:
    """The options of reports read from rosters, catalogues and the Wahapedia export."""
    report.add_argument(
        "--faction",
        help="the faction of a catalogue or export: the attackers', else the targets'",
    )
    report.add_argument(
        "--target-faction",
        help="the targets' faction, for a catalogue or export (needed when --faction picks the "
        "attackers')",
    )
    report.add_argument(
        "--lead",
        action="append",
        type=leader,
        default=[],
        metavar="UNIT=LEADER",
        help="in the targets' roster, LEADER leads UNIT (repeat for each pair); replaces "
        "what the file records for UNIT",
    )
    _add_assume(report)
    add_situation_options(report, several=True)
    report.add_argument(
        "--strict", action="store_true", help="an unknown weapon ability is an error"
    )
    report.add_argument(
        "--import-report", action="store_true", help="print what each import read and skipped"
    )


def _add_assume(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--assume",
        action="append",
        default=[],
        metavar="STATE",
        help="a named state the units' rules depend on holds, e.g. 'riled up', 'waaagh', "
        "'objective' (repeat for each; checked against what the rules mention): the rules "
        "that need it apply, on both sides",
    )


def _add_attack(sub: _Subparsers) -> argparse.ArgumentParser:
    one = sub.add_parser(
        "attack",
        formatter_class=_RAW,
        help="one weapon line against one target",
        description="Print the distribution of one attack: a weapon line against a target "
        "from the standard suite (--target) or described on the command line.",
        epilog="examples:\n  mathhammer attack -A 2 --skill 3+ -S 4 --ap -1 -D 1 --count 10 "
        "--target 'Line infantry'\n  mathhammer attack -A D6 --skill 2+ -S 5 -D 1 --abilities "
        "'[TORRENT]' --models 10 -T 3 --save 5+ -W 1 --plot flamer.png\n  mathhammer attack "
        "--rules classic -A 1 --skill 3 -S 3 --count 10 --models 10 -T 3 --save 5+ -W 1 "
        "--leadership 7",
    )
    _add_weapon_options(one)
    _add_target_options(one)
    for flag in ("half-range", "stationary", "charged", "cover"):
        one.add_argument(f"--{flag}", action="store_true")
    one.add_argument("--trials", type=count, default=0, help="also run N Monte Carlo trials")
    one.add_argument("--seed", type=seed, default=1)
    one.add_argument("--plot", metavar="FILE.png", help="save killed and damage plots")
    _add_force(one)
    one.set_defaults(run=attack_command, parser=one)
    return one


def _add_weapon_options(one: argparse.ArgumentParser) -> None:
    one.add_argument("--name", default="weapon")
    one.add_argument("-A", "--attacks", required=True, help="attacks: 2, D6, 2D6+1")
    one.add_argument(
        "--skill",
        type=skill_text,
        required=True,
        help="BS/WS as 3+ or 3, N/A for a [TORRENT] weapon (11e); the classic BS characteristic",
    )
    one.add_argument("-S", "--strength", type=integer, required=True)
    one.add_argument("--ap", type=integer, default=0, help="AP as printed, e.g. -1")
    one.add_argument("-D", "--damage", default="1", help="damage: 1, D3, D6+1")
    one.add_argument("--abilities", default="", help="as printed: '[HEAVY], [BLAST]'")
    one.add_argument("--count", type=positive, default=1, help="how many of the weapon")
    one.add_argument("--melee", action="store_true", help="a melee weapon")


def _add_target_options(one: argparse.ArgumentParser) -> None:
    group = one.add_argument_group(
        "target",
        "either --target NAME (a unit of the standard suite; with --modify, the characteristics "
        "given change it), or the target's characteristics: --models, -T, --save and -W are "
        "then all required",
    )
    group.add_argument("--target", help="a target of the standard suite (see 'targets')")
    group.add_argument(
        "--modify", action="store_true", help="change the --target's characteristics given"
    )
    group.add_argument("--models", type=positive, help="models in the target")
    group.add_argument("-T", "--toughness", type=positive)
    group.add_argument(
        "--save", type=grammar(parse_save, "--save"), help="Sv as 3+ or 3 ('-' for none)"
    )
    group.add_argument("-W", "--wounds", type=positive)
    group.add_argument(
        "--invuln", type=grammar(parse_optional_roll, "--invuln"), help="InSv as 4+ ('-': none)"
    )
    group.add_argument(
        "--fnp", type=grammar(parse_optional_roll, "--fnp"), help="Feel No Pain as 5+"
    )
    group.add_argument("--keywords", help="e.g. 'INFANTRY'")
    group.add_argument(
        "--leadership",
        type=grammar(parse_leadership, "--leadership"),
        help="Ld as 6+ (11th edition) or 8 (classic)",
    )
    one.set_defaults(check=check_attack_options)


#: The flags that describe a target, by the name argparse gives them.
TARGET_FLAGS = {
    "models": "--models",
    "toughness": "-T",
    "save": "--save",
    "wounds": "-W",
    "invuln": "--invuln",
    "fnp": "--fnp",
    "keywords": "--keywords",
    "leadership": "--leadership",
}
_REQUIRED = ("models", "toughness", "save", "wounds")


def check_attack_options(args: argparse.Namespace) -> str | None:
    """The usage problem of ``attack``'s options, or None: the skill in the ruleset's form
    (with the weapon's abilities, for N/A), then the target flags."""
    try:
        if get_ruleset(args.rules).skill_field == "bs":
            parse_bs(args.skill, "--skill")
        else:
            parse_skill(args.skill, "TORRENT" in args.abilities.upper(), "--skill")
    except ProfileError as exc:
        return f"argument {exc}"
    return check_target_options(args)


def check_target_options(args: argparse.Namespace) -> str | None:
    """The usage problem of the target flags of ``attack``, or None.

    Examples
    --------
    >>> parse = build_parser().parse_args
    >>> check_target_options(parse(["attack", "-A", "1", "--skill", "3", "-S", "4",
    ...                             "--target", "Vehicle", "--invuln", "4+"]))
    "--invuln changes --target 'Vehicle': add --modify to say so, or describe the whole target"
    >>> check_target_options(parse(["attack", "-A", "1", "--skill", "3", "-S", "4",
    ...                             "--models", "5", "-T", "4", "-W", "2"]))
    'the target needs --save (or --target NAME); give --save - for no armour save'
    """
    if args.target is not None:
        return _modify_problem(args)
    if args.modify:
        return "--modify changes a --target NAME; none given"
    missing = [TARGET_FLAGS[name] for name in _REQUIRED if getattr(args, name) is None]
    if missing:
        hint = "; give --save - for no armour save" if "--save" in missing else ""
        return f"the target needs {', '.join(missing)} (or --target NAME){hint}"
    return None


def _modify_problem(args: argparse.Namespace) -> str | None:
    """The usage problem of flags changing a ``--target NAME``, or None: they need
    ``--modify``, and ``--modify`` needs them."""
    given = [name for name in TARGET_FLAGS if getattr(args, name) is not None]
    if given and not args.modify:
        return (
            f"{TARGET_FLAGS[given[0]]} changes --target {args.target!r}: add --modify to "
            "say so, or describe the whole target"
        )
    if args.modify and not given:
        return "--modify needs the characteristics to change (e.g. --invuln 4+)"
    return None


def _add_targets(sub: _Subparsers) -> argparse.ArgumentParser:
    listing = sub.add_parser(
        "targets",
        formatter_class=_RAW,
        help="list the bundled target suite",
        description="List the standard target suite: name, models, points, keywords.",
        epilog="example:\n  mathhammer targets",
    )
    listing.set_defaults(run=targets_command)
    return listing


def _add_datasheets(sub: _Subparsers) -> argparse.ArgumentParser:
    listing = sub.add_parser(
        "datasheets",
        formatter_class=_RAW,
        help="list the datasheets of a catalogue, export or roster",
        description="List what was read from PATH (a BSData catalogue or a folder of them, a "
        "folder with the Wahapedia export, or a roster): each datasheet's models, "
        "characteristics, weapons and points, then the import report.",
        epilog="examples:\n  mathhammer datasheets wh40k-11e/ --faction Necrons"
        "\n  mathhammer datasheets wh40k-11e/ --search warriors\n  mathhammer datasheets "
        "my-list.rosz",
    )
    listing.add_argument("path", help="catalogue file or folder, export folder or roster")
    listing.add_argument("--faction", help="only this faction")
    listing.add_argument("--search", help="only datasheets whose name contains this")
    listing.add_argument(
        "--strict", action="store_true", help="an unknown weapon ability is an error"
    )
    listing.add_argument(
        "--import-report",
        action="store_true",
        help="print the whole import report (by default: warnings for the datasheets listed)",
    )
    listing.set_defaults(run=datasheets_command)
    return listing


def _add_durability(sub: _Subparsers) -> argparse.ArgumentParser:
    from ..views.plots import DURABILITY_METRICS

    command = sub.add_parser(
        "durability",
        formatter_class=_RAW,
        help="how durable units are against the standard attackers",
        description="Attack each unit of TARGETS (a targets CSV, JSON suite, roster or "
        "catalogue; the standard target suite by default) with each standard attacker: "
        "models and points lost to one copy, P(destroyed), and how many copies, one after "
        "another, destroy it with a chance of 50% and of 90% (exact: each copy carries on "
        "from the state the ones before left).",
        epilog="examples:\n  mathhammer durability\n  mathhammer durability threats.csv -o "
        "durability.csv --plot durability.png\n  mathhammer durability my-list.rosz\n  "
        "mathhammer durability my-list.rosz --attackers their-list.rosz",
    )
    command.add_argument("targets", nargs="?", help="the units to measure (default: the suite)")
    command.add_argument(
        "--attackers",
        help="who attacks: a JSON suite of attackers of your own, or any list report reads "
        "(a roster, a catalogue with --attacker-faction, a profiles CSV): each unit in each "
        "phase, with the declaration that does the most damage to each unit",
    )
    command.add_argument("--faction", help="only this faction's units (a catalogue)")
    command.add_argument(
        "--attacker-faction", help="only this faction's units of an --attackers catalogue"
    )
    add_situation_options(command)
    command.add_argument(
        "--strict", action="store_true", help="an unknown weapon ability is an error"
    )
    command.add_argument(
        "--max-copies", type=positive, default=60, help="the most copies sent (default 60)"
    )
    command.add_argument("-o", "--output", help="write the whole table as CSV")
    command.add_argument("--plot", help="write a bar chart of --metric (PNG, SVG or PDF)")
    command.add_argument(
        "--metric",
        choices=list(DURABILITY_METRICS),
        default="copies_90",
        help="what the plot shows (default copies_90)",
    )
    _add_force(command)
    command.set_defaults(run=durability_command)
    return command


def _add_plan(sub: _Subparsers) -> argparse.ArgumentParser:
    command = sub.add_parser(
        "plan",
        formatter_class=_RAW,
        help="who shoots what: a list's weapons assigned to targets",
        description="Assign each weapon line of every unit of ATTACKERS (the bundled examples "
        "by default; a profiles CSV, roster or catalogue) to one of the units of --targets "
        "(the standard suite by default), the units attacking in the order read and each "
        "target's state carried from unit to unit, to maximise --metric; every assignment "
        "is scored exactly when there are at most 50,000, else a local search moves one or "
        "two weapon lines at a time. The plan is compared with sending everything at the "
        "best single target.",
        epilog="examples:\n  mathhammer plan\n  mathhammer plan army.csv --targets "
        "threats.csv --metric points_destroyed -o plan.csv\n  mathhammer plan army.csv --metric "
        "at_least:2",
    )
    command.add_argument("attackers", nargs="?", help="the attacking units (default: examples)")
    command.add_argument("--targets", help="the targets (default: the standard suite)")
    command.add_argument(
        "--metric",
        default="mean_killed",
        help="mean_killed (default), points_destroyed, p_destroyed:<target name> or "
        "at_least:<k> (or the short names killed, points, destroyed:<target name>)",
    )
    command.add_argument(
        "--phase", choices=["shooting", "fight"], default="shooting", help="the phase planned"
    )
    command.add_argument("--faction", help="only this faction's units (a catalogue)")
    command.add_argument("--target-faction", help="the targets' faction (a catalogue)")
    _add_assume(command)
    add_situation_options(command)
    command.add_argument(
        "--strict", action="store_true", help="an unknown weapon ability is an error"
    )
    command.add_argument("-o", "--output", help="write the plan as CSV")
    command.add_argument(
        "--no-progress", action="store_true", help="no progress bar on a long search"
    )
    _add_force(command)
    command.set_defaults(run=plan_command)
    return command


def _add_detachments(sub: _Subparsers) -> argparse.ArgumentParser:
    from .detachments import RANKED_BY

    command = sub.add_parser(
        "detachments",
        formatter_class=_RAW,
        help="a roster under each detachment of its faction, ranked by the numbers",
        description="Put ROSTER under no detachment, its own, and each detachment of its "
        "faction in the BSData --catalogue (their rules read and applied to the units they "
        "name), attack each target with each unit (its best declaration), and rank the "
        "detachments by the list's total. Rules that need a state apply with --assume.",
        epilog="examples:\n  mathhammer detachments my-list.json --catalogue wh40k-11e/"
        "\n  mathhammer detachments my-list.json --catalogue wh40k-11e/ --assume waaagh "
        "--rank-by points_destroyed -o detachments.csv",
    )
    command.add_argument("roster", help="the list: a roster file")
    command.add_argument(
        "--catalogue", required=True, help="BSData catalogues with the faction's detachments"
    )
    command.add_argument("--faction", help="the catalogue's faction (default: the roster's)")
    command.add_argument("--targets", help="the targets (default: the standard suite)")
    command.add_argument("--target-faction", help="the targets' faction (a catalogue)")
    _add_assume(command)
    add_situation_options(command)
    command.add_argument(
        "--rank-by", choices=list(RANKED_BY), default="mean_damage", help="default mean_damage"
    )
    command.add_argument(
        "--strict", action="store_true", help="an unknown weapon ability is an error"
    )
    command.add_argument("-o", "--output", help="write the table (detachment x target) as CSV")
    _add_force(command)
    command.set_defaults(run=detachments_command)
    return command


def _add_sweep(sub: _Subparsers) -> argparse.ArgumentParser:
    command = sub.add_parser(
        "sweep",
        formatter_class=_RAW,
        help="every attacker against every target, written to Parquet as it goes",
        description="Attack every unit of --targets with every loadout of ATTACKERS (a "
        "profiles CSV, roster, catalogue or export), in each context of --contexts, and "
        "write the rows to the Parquet dataset OUTPUT (a folder, one file per task) as they "
        "come: in local processes (--jobs), on a Dask LocalCluster (--dask) or on a running "
        "Dask scheduler (--scheduler). An interrupted sweep goes on with --resume.",
        epilog="examples:\n  mathhammer sweep wh40k-11e/ --faction Necrons --targets "
        "wh40k-11e/ --target-faction Orks -o necrons-v-orks.parquet --jobs 2\n  mathhammer "
        "sweep army.csv --targets threats.csv --contexts contexts.csv -o sweep.parquet "
        "--scheduler tcp://scheduler:8786",
    )
    command.add_argument("attackers", help="the attacking units: a file or folder")
    command.add_argument("--targets", required=True, help="the target units: a file or folder")
    command.add_argument("--faction", help="only this faction's units (a catalogue)")
    command.add_argument("--target-faction", help="the targets' faction (a catalogue)")
    command.add_argument(
        "--contexts", help="a CSV of contexts: name, context (flags such as half_range)"
    )
    command.add_argument(
        "-o",
        "--output",
        required=True,
        help="the Parquet dataset to write: a folder (a file name such as out.csv is refused)",
    )
    command.add_argument(
        "--resume", action="store_true", help="go on with a sweep written to OUTPUT"
    )
    command.add_argument("--jobs", type=jobs, help="local processes, or --dask workers")
    command.add_argument("--dask", action="store_true", help="on a Dask LocalCluster")
    command.add_argument("--scheduler", help="a running Dask scheduler: tcp://host:8786")
    command.add_argument(
        "--check-trials",
        type=count,
        default=0,
        help="a Monte Carlo check of each row, in trials (default 0: none)",
    )
    command.add_argument("--seed", type=seed, default=0, help="the checks' seed (default 0)")
    command.add_argument(
        "--no-progress",
        "--quiet",
        dest="no_progress",
        action="store_true",
        help="no progress bar (none is drawn when standard error is not a terminal either)",
    )
    command.add_argument(
        "--strict", action="store_true", help="an unknown weapon ability is an error"
    )
    command.set_defaults(run=sweep_command)
    return command


def _add_demo(sub: _Subparsers) -> argparse.ArgumentParser:
    demo = sub.add_parser(
        "demo",
        formatter_class=_RAW,
        help="the bundled example attacks, exact and Monte Carlo",
        description="Run the bundled example attacks with the exact engine and check each "
        "against the Monte Carlo.",
        epilog="example:\n  mathhammer demo --trials 200000 --seed 7",
    )
    demo.add_argument(
        "--trials",
        type=count,
        default=100_000,
        help="Monte Carlo trials per example (0 to skip; default 100000)",
    )
    demo.add_argument("--seed", type=seed, default=1, help="Monte Carlo seed (default 1)")
    demo.set_defaults(run=demo_command)
    return demo
