"""The command line: a thin layer over the library.

``mathhammer report`` runs every attacking unit of a CSV against every target and
writes a tidy CSV; ``mathhammer attack`` prints one attack's distribution;
``mathhammer targets`` lists the bundled target suite; ``mathhammer demo`` shows the
bundled example attacks, exact and Monte Carlo. Errors are one line on stderr with
exit status 1 (``--debug`` shows the traceback); usage errors exit with status 2. Ctrl-C is
one line, ``mathhammer: interrupted``, with status 130, and ``SIGTERM`` one line,
``mathhammer: terminated``, with status 143: both stop the worker processes and leave
the output files as they were.

The parser is built in :mod:`mathhammer.cli.parser`, the commands run in
:mod:`mathhammer.cli.commands`; :func:`main` is the console entry point.
"""

from __future__ import annotations

import signal
import sys
import threading
import warnings
from collections.abc import Iterator, Sequence
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from types import FrameType
from typing import Any, TextIO

from ..errors import MathhammerError
from .lines import one_line
from .parser import build_parser

__all__ = ["build_parser", "main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status.

    Examples
    --------
    >>> main(["targets"])  # doctest: +ELLIPSIS
    target                     models  points  keywords ...
    Horde infantry          20 models     120  INFANTRY ...
    0
    """
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        with warnings.catch_warnings(), _terminate_as_exception():
            warnings.showwarning = _show_warning
            return _run(args)
    except KeyboardInterrupt:
        if args.debug:
            raise
        print("mathhammer: interrupted", file=sys.stderr)
        return 130
    except Terminated:
        if args.debug:
            raise
        print("mathhammer: terminated", file=sys.stderr)
        return 143


class Terminated(BaseException):
    """``SIGTERM`` arrived: raised like Ctrl-C's KeyboardInterrupt, so that the run stops
    its workers and removes its temporary files on the way out."""


@contextmanager
def _terminate_as_exception() -> Iterator[None]:
    """``SIGTERM`` raises :class:`Terminated` while the command runs (main thread only:
    Python lets no other thread set a signal handler)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def terminate(number: int, frame: FrameType | None) -> None:
        raise Terminated

    previous = signal.signal(signal.SIGTERM, terminate)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _show_warning(
    message: Warning | str,
    category: type[Warning],
    filename: str,
    lineno: int,
    file: TextIO | None = None,
    line: str | None = None,
) -> None:
    """A warning as one line of the command line's own: no source path, no source line."""
    print(f"mathhammer: warning: {one_line(str(message))}", file=sys.stderr)


#: The errors printed as one line with exit status 1 (``--debug`` shows the traceback).
_REPORTED = (MathhammerError, BrokenProcessPool, MemoryError, OSError)


def _run(args: Any) -> int:
    """Run the command ``args`` names, its usage checked first; return the exit status, an
    error (:data:`_REPORTED`) printed as one line with status 1."""
    _check_usage(args)
    try:
        return int(args.run(args))
    except BrokenPipeError:  # output piped into a pager or `head` that stopped reading
        sys.stderr.close()
        return 0
    except _REPORTED as exc:
        if args.debug:
            raise
        print(f"mathhammer: error: {_error_line(exc)}", file=sys.stderr)
        return 1


def _check_usage(args: Any) -> None:
    """Refuse options the command's own check (``args.check``) finds a problem in: a usage
    error, printed with the usage, exit status 2."""
    check = getattr(args, "check", None)
    problem = check(args) if check is not None else None
    if problem:
        args.parser.error(problem)


def _error_line(exc: BaseException) -> str:
    """What the command line says of an error, after ``mathhammer: error:``."""
    said = one_line(str(exc))
    if isinstance(exc, MathhammerError):
        return said or type(exc).__name__
    if isinstance(exc, MemoryError):  # an allocation the machine (or a limit on it) refused
        return f"out of memory: {said or 'an allocation failed'}"
    # an OSError, or BrokenProcessPool: a worker killed (by the out-of-memory killer, say)
    return said


def __dir__() -> list[str]:
    """The public names, ``__all__``: what ``dir()`` and completion offer."""
    return sorted(__all__)
