"""Hostile but ordinary-looking values, and the budgets, profiles and property of the
reliability suite.

The values are those a user types or a file holds by mistake or by malice: numbers at and
far beyond every limit, negative and empty ones, text where a number goes, digits that are
not ASCII, dice expressions of absurd size, markup, spreadsheet formulas. The hypothesis
profiles: :data:`QUICK` in the default run, :data:`LONG` under ``-m slow``. The property:
:func:`check_calls` for library calls, :func:`check_runs` (see :func:`problems`) for
command lines.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from guarded import run_batch
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st

#: The address-space cap of a child: far above what a valid input needs, far below the machine.
MEMORY = 1536 * 2**20
#: The longest one call may take: anything accepted finishes in seconds.
CALL_SECONDS = 20.0
#: The wall time of one batch, whatever its size.
BATCH_SECONDS = 240.0

#: No shrinking: a failing batch is reported whole, and a timeout is not retried many times.
_PHASES = (Phase.explicit, Phase.reuse, Phase.generate)
QUICK = settings(
    max_examples=3, deadline=None, phases=_PHASES, suppress_health_check=list(HealthCheck)
)
LONG = settings(
    max_examples=60, deadline=None, phases=_PHASES, suppress_health_check=list(HealthCheck)
)


class Long(str):
    """A long repeated text that prints as the expression making it (``'a' * 200000``), so
    that a failing example that holds one stays readable."""

    def __new__(cls, unit: str, times: int, head: str = "") -> Long:
        made = super().__new__(cls, head + unit * times)
        made.expression = (f"{head!r} + " if head else "") + f"{unit!r} * {times}"
        return made

    expression: str

    def __repr__(self) -> str:
        return self.expression

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(self.expression)


HUGE_NUMBERS = [10**9, 10**12, 10**30, -(10**30), 2**63, 2**64 + 1, -1, 0]
HUGE = st.sampled_from(HUGE_NUMBERS)
#: Text values, most of them ordinary-looking.
TEXT_VALUES = [
    "D6+1000000",
    "999999D6",
    "1000000D1000000",
    "D0",
    "0D6",
    "-D6",
    "D6-7",
    "3",
    "3+",
    "7+",
    "1+",
    "N/A",
    "-",
    "",
    " ",
    "\u0663",  # an Arabic-Indic three
    "\uff13D6",  # a full-width three
    "\u00b2",  # a superscript two
    "1_0",
    "1e3",
    "0x10",
    "nan",
    "inf",
    "-0",
    "+3",
    Long("9", 5000),
    Long("<", 20000),
    Long("a", 200_000),  # past the CSV module's limit of a cell, 131,072 characters
    Long("[", 5000),
    "[SUSTAINED HITS 1000000]",
    "[SUSTAINED HITS 30]",
    "[BLAST 999999999]",
    "[MELTA 1000000000]",
    "[RAPID FIRE 999999D6]",
    "[ANTI-INFANTRY 7+]",
    "[ANTI-\u0663+]",
    "[DEVASTATING WOUNDS], [LETHAL HITS], [SUSTAINED HITS D6], [TWIN-LINKED]",
    "=cmd|' /C calc'!A0",
    "+SUM(1)",
    "@A1",
    "\u202eevil",  # a right-to-left override
    "\ufeffBOM",
    "e\u0301\u0301\u0301",  # stacked combining accents
    "\U0001f480" * 10,
    "line\nbreak",
    "tab\tcarriage\rreturn",
    "\x1b[31mred",
    "\u00ff\u00fe",
    "'; DROP TABLE units; --",
    "../../etc/passwd",
    "%s%n%x",
    "{0}{1}",
    "$x^{",  # matplotlib's mathtext, in a label
    "\\frac{1}{0}",
    "<script>alert(1)</script>",
]
TEXTS = st.sampled_from(TEXT_VALUES)
#: Numbers as typed: huge, negative, misspelt.
NUMBER_TEXT_VALUES = [
    *(str(n) for n in HUGE_NUMBERS),
    *["0", "1", "2", "1.5", "-0", "+2", " 2 ", "2e0", "\uff12", "1_000", Long("0", 4400, "1")],
]
NUMBER_TEXTS = st.one_of(st.sampled_from(NUMBER_TEXT_VALUES), st.integers(-20, 40).map(str))
#: A value of any JSON type, as a hostile caller passes it.
JSONABLE = st.one_of(
    st.integers(-(2**70), 2**70),
    HUGE,
    TEXTS,
    st.text(max_size=20),
    st.none(),
    st.booleans(),
    st.floats(width=32),
    st.sampled_from([float("nan"), float("inf"), 1e308, 5e-324, 0.5, -0.0]),
    st.lists(st.one_of(st.integers(-5, 10), TEXTS), max_size=4),
    st.dictionaries(st.text(max_size=5), st.integers(-5, 5), max_size=2),
)
#: Text with no NUL, as a command line can carry it.
CLI_TEXT = st.one_of(TEXTS, NUMBER_TEXTS, st.text(max_size=12).filter(lambda t: "\x00" not in t))


# ------------------------------------------------------------------ the property
#: Leaks known and not yet fixed: the place (module and function) and the exception, each
#: tolerated by the property only there (none today; the importers' were fixed with
#: ``test_importer_leaks.py``). An entry added here needs a strict expected-failure test.
KNOWN_LEAKS: set[tuple[str, str]] = set()


def known(where: str, outcome: str) -> bool:
    """Whether a leak (``LEAK <exception>: ...`` at ``where``) is one of :data:`KNOWN_LEAKS`."""
    name = outcome.removeprefix("LEAK ").split(":", 1)[0]
    return (where, name) in KNOWN_LEAKS


def check_calls(mode: str, calls: Sequence[Any]) -> None:
    """Every library call gives a result or a clean error, each within :data:`CALL_SECONDS`."""
    outcomes = run_batch(
        mode, calls, memory=MEMORY, seconds=BATCH_SECONDS, call_seconds=CALL_SECONDS
    )
    found = [
        f"{call!r:.300} -> {out['outcome']} in {out['seconds']:.1f} s"
        for call, out in zip(calls, outcomes, strict=True)
        if (out["outcome"].startswith(("LEAK", "HANG")) or out["seconds"] > CALL_SECONDS)
        and not known(out.get("where", ""), out["outcome"])
    ]
    assert not found, "\n".join(found)


_FRAME = re.compile(r'File ".*?[/\\]mathhammer[/\\](.+?)", line \d+, in (\w+)')


def traceback_leak(stderr: str) -> tuple[str, str]:
    """The place and exception of the traceback in ``stderr``, as in :data:`KNOWN_LEAKS`."""
    frames = _FRAME.findall(stderr)
    lines = [line for line in stderr.splitlines() if line.strip()]
    name = lines[-1].split(":", 1)[0] if lines else ""
    return (f"{frames[-1][0].replace(chr(92), '/')}:{frames[-1][1]}" if frames else ""), name


#: The last line of a failed run.
ERROR_LINE = re.compile(r"mathhammer(?: [a-z]+)?: error: .")


def problems(argv: list[str], out: dict[str, Any]) -> list[str]:
    """What is wrong with one run of the command line, in words: nothing for a valid result
    or a clean error.

    - exit status 0, 1 (an error) or 2 (a usage error), within :data:`CALL_SECONDS`;
    - no traceback; on failure, the last line of stderr is ``mathhammer[ command]: error:
      ...``; the last line shorter than 500 characters;
    - no temporary file of ours left behind, no read-only file replaced without --force.
    """
    found = []
    status, stderr = out["status"], out["stderr"]
    if status not in (0, 1, 2):
        found.append(f"exit status {status!r}")
    leak = out["traceback"] or "Traceback" in stderr
    if leak and traceback_leak(stderr) not in KNOWN_LEAKS:
        found.append("a traceback")
    lines = [line for line in stderr.splitlines() if line.strip()]
    if status in (1, 2) and not leak and not (lines and ERROR_LINE.match(lines[-1])):
        found.append("no error line last")
    if lines and len(lines[-1]) >= 500:
        found.append(f"a last line of {len(lines[-1])} characters")
    if out["seconds"] > CALL_SECONDS:
        found.append(f"{out['seconds']:.1f} s")
    if out["debris"]:
        found.append(f"temporary files left: {out['debris']}")
    if out["read_only_changed"] and "--force" not in argv:
        found.append(f"read-only files replaced: {out['read_only_changed']}")
    return found


def run_cli(runs: Sequence[list[str]]) -> list[dict[str, Any]]:
    """Run the command lines in a capped child: one outcome each."""
    return run_batch("cli", runs, memory=MEMORY, seconds=BATCH_SECONDS, call_seconds=CALL_SECONDS)


def check_runs(runs: Sequence[list[str]]) -> None:
    """Every command line gives output or one clean error line (see :func:`problems`)."""
    found = [
        f"mathhammer {' '.join(argv)!s:.300} -> {wrong}: {out['stderr'][-600:]!r}"
        for argv, out in zip(runs, run_cli(runs), strict=True)
        if (wrong := problems(argv, out))
    ]
    assert not found, "\n".join(found)
