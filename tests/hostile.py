"""Hostile but ordinary-looking values, and the budgets and profiles of the reliability suite.

The values are those a user types or a file holds by mistake or by malice: numbers at and
far beyond every limit, negative and empty ones, text where a number goes, digits that are
not ASCII, dice expressions of absurd size, markup, spreadsheet formulas. The hypothesis
profiles: :data:`QUICK` in the default run, :data:`LONG` under ``-m slow``.
"""

from __future__ import annotations

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
    "9" * 5000,
    "<" * 20000,
    "a" * 200_000,
    "[" * 5000,
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
]
TEXTS = st.sampled_from(TEXT_VALUES)
NUMBER_TEXTS = st.one_of(
    st.sampled_from([str(n) for n in HUGE_NUMBERS]),
    st.integers(-20, 40).map(str),
    st.sampled_from(
        ["0", "1", "2", "1.5", "-0", "+2", " 2 ", "2e0", "\uff12", "1_000", "1" + "0" * 4400]
    ),
)
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
