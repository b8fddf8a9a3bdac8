"""The command line: a thin layer over the library.

``mathhammer report`` runs every attacking unit of a CSV against every target and
writes a tidy CSV; ``mathhammer attack`` prints one attack's distribution;
``mathhammer targets`` lists the bundled target suite; ``mathhammer demo`` shows the
bundled example attacks, exact and Monte Carlo. Errors are one line on stderr with
exit status 1 (``--debug`` shows the traceback); usage errors exit with status 2.

The parser is built in :mod:`mathhammer.cli.parser`, the commands run in
:mod:`mathhammer.cli.commands`; :func:`main` is the console entry point.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from ..errors import MathhammerError
from .parser import build_parser

__all__ = ["build_parser", "main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status.

    Examples
    --------
    >>> main(["targets"])  # doctest: +ELLIPSIS
    Horde infantry          20 models   120 pts  INFANTRY ...
    0
    """
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.run(args))
    except MathhammerError as exc:
        if args.debug:
            raise
        message = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        print(f"mathhammer: error: {message}", file=sys.stderr)
        return 1
    except BrokenPipeError:  # output piped into a pager or `head` that stopped reading
        sys.stderr.close()
        return 0
    except OSError as exc:
        if args.debug:
            raise
        print(f"mathhammer: error: {exc}", file=sys.stderr)
        return 1
