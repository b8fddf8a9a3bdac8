"""``mathhammer app``: the page served on this machine, for a browser.

Each browser session gets its own page (:func:`mathhammer.page.layout.layout`), with the
lists named on the command line already read. The server listens on 127.0.0.1 unless
``--host`` says otherwise, and stops on Ctrl-C.
"""

from __future__ import annotations

import argparse
from typing import Any

from .values import integer

__all__ = ["add_app", "app_command", "port"]

#: The port served by default (Panel's own).
DEFAULT_PORT = 5006


def add_app(sub: Any) -> argparse.ArgumentParser:
    """The ``app`` command's parser, added to ``sub``."""
    command: argparse.ArgumentParser = sub.add_parser(
        "app",
        help="serve the page: drop a roster, pick the opponent, read the numbers",
        description="Serve the page on this machine: every unit of a list against every "
        "unit of the opponent's (or the standard targets), with the attack behind each "
        "cell. Needs the app extra: pip install 'mathhammer[app]'.",
        epilog="examples:\n  mathhammer app army.rosz --targets theirs.json --port 5006\n"
        "  mathhammer app catalogues/ --faction Necrons --targets catalogues/ "
        "--target-faction Orks",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    command.add_argument("roster", nargs="?", help="my list (any file report reads)")
    command.add_argument("--targets", help="the opponent's list (default: the standard targets)")
    command.add_argument(
        "--faction", help="the faction of a catalogue, a folder of them or an export: my list"
    )
    command.add_argument("--target-faction", help="the faction of --targets, for the same")
    command.add_argument(
        "--port", type=port, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT})"
    )
    command.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: only here)"
    )
    command.set_defaults(run=app_command)
    return command


def port(text: str) -> int:
    """A port to listen on: 1 to 65535.

    Examples
    --------
    >>> port("5006")
    5006
    >>> port("99999")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: a port is 1 to 65535; got 99999
    """
    number = integer(text)
    if not 1 <= number <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 1 to 65535; got {number}")
    return number


def app_command(args: argparse.Namespace) -> int:
    """Serve the page until interrupted."""
    from ..page.layout import app, panel

    pn = panel()

    lists = {"faction": args.faction, "target_faction": args.target_faction}
    app(args.roster, args.targets, **lists)  # read once here: an unreadable list is one line
    origins = [f"{args.host}:{args.port}", f"localhost:{args.port}"]
    server = pn.serve(
        lambda: app(args.roster, args.targets, **lists),
        port=args.port,
        address=args.host,
        websocket_origin=origins,
        show=False,
        start=False,  # the port is bound here: a port in use is one line, before the next
        title="mathhammer",
        verbose=False,
    )
    print(f"serving on http://{args.host}:{args.port}/ (Ctrl-C to stop)", flush=True)
    server.start()
    server.io_loop.start()
    return 0
