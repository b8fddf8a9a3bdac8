"""The command line's messages: one line each, of a readable length.

An error or a warning can quote a value the user gave or a file held: a path of
thousands of characters, a number of 5,000 digits, a cell of a CSV file. Printed whole,
one such value would bury the message; :func:`one_line` keeps its start and its end.
"""

from __future__ import annotations

__all__ = ["MAX_LINE", "one_line"]

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
