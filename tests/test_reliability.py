"""Reliability: every public parser, constructor and reader, given hostile but
ordinary-looking values, gives a clean mathhammer error or a valid result, within a time and
memory budget.

Each batch of inputs runs in a child process whose address space is capped with
``resource.setrlimit`` and whose wall time is bounded (:func:`guarded.run_batch`), so that
an input the library mishandles cannot take the machine down: the test fails instead. A
child reports, per input, ``ok`` (a valid result), ``error <class>`` (a
:class:`~mathhammer.errors.MathhammerError`) or ``LEAK <class>: <message>`` (anything else:
a traceback the user would have seen). The quick hypothesis profile runs in the default
test run; ``-m slow`` runs the long one. The command line is covered by
``test_reliability_cli.py``, mutated input files by ``test_reliability_files.py``.
"""

from __future__ import annotations

import resource
import subprocess
import sys
from typing import Any

import pytest
from guarded import ROOT, child_environment
from hostile import (
    BATCH_SECONDS,
    CLI_TEXT,
    HUGE,
    JSONABLE,
    LONG,
    MEMORY,
    QUICK,
    TEXTS,
    check_calls,
)
from hypothesis import given
from hypothesis import strategies as st
from library_calls import FACTORIES, READERS, parameters
from reliability_child import INSIDE, OUTSIDE

# ------------------------------------------------------------------ named calls
CONTEXT_FIELDS = st.sampled_from(
    ["half_range", "charged", "precision_group", "lethal_hits", "reroll_policy", "melee"]
)
MODIFIER_FIELDS = st.sampled_from(
    ["hit", "wound", "ap", "damage_set", "damage_add", "damage_multiply", "critical_hit"]
)
CALLS = st.one_of(
    st.tuples(st.just("dice"), st.tuples(JSONABLE)),
    st.tuples(st.just("weapon"), st.tuples(*[JSONABLE] * 6)),
    st.tuples(st.just("group"), st.tuples(*[JSONABLE] * 4)),
    st.tuples(st.just("unit"), st.tuples(JSONABLE, JSONABLE, JSONABLE)),
    st.tuples(st.just("context"), st.tuples(CONTEXT_FIELDS, JSONABLE)),
    st.tuples(st.just("modifiers"), st.tuples(MODIFIER_FIELDS, JSONABLE)),
    st.tuples(st.just("roll"), st.tuples(JSONABLE)),
    st.tuples(st.just("leadership"), st.tuples(JSONABLE)),
    st.tuples(st.just("abilities"), st.tuples(TEXTS)),
    st.tuples(st.just("binomial"), st.tuples(JSONABLE, st.floats(0, 1))),
    st.tuples(st.just("repeat"), st.tuples(JSONABLE)),
    st.tuples(
        st.just("attack"),
        st.tuples(
            st.one_of(st.integers(1, 3), TEXTS),
            st.one_of(st.integers(1, 3), TEXTS),
            st.one_of(st.just(""), TEXTS),
            st.one_of(st.integers(1, 20), HUGE),
            st.one_of(st.integers(1, 20), HUGE),
            st.one_of(st.integers(1, 4), HUGE),
        ),
    ),
    st.tuples(st.just("simulate"), st.tuples(st.one_of(st.integers(2, 500), HUGE), JSONABLE)),
    st.tuples(st.just("mortal"), st.tuples(st.one_of(st.integers(0, 10), HUGE, TEXTS))),
)


@QUICK
@given(st.lists(CALLS, min_size=30, max_size=50))
def test_every_parser_and_constructor_gives_a_result_or_a_clean_error(
    calls: list[tuple[str, Any]],
) -> None:
    check_calls("library", calls)


@pytest.mark.slow
@LONG
@given(st.lists(CALLS, min_size=40, max_size=80))
def test_every_parser_and_constructor_long(calls: list[tuple[str, Any]]) -> None:
    check_calls("library", calls)


# ------------------------------------------------------------------ every public constructor
@st.composite
def builds(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    """A public constructor, and one to three of its arguments replaced by hostile values."""
    factory = draw(st.sampled_from(sorted(FACTORIES)))
    names = parameters(factory)
    chosen = draw(st.lists(st.sampled_from(names), min_size=1, max_size=3, unique=True))
    return factory, {name: draw(JSONABLE) for name in chosen}


def test_every_constructor_has_parameters_to_vary() -> None:
    bare = [name for name in FACTORIES if not parameters(name)]
    assert not bare  # a factory nothing can vary would test nothing


@QUICK
@given(st.lists(builds(), min_size=40, max_size=60))
def test_every_public_constructor_and_its_use_give_a_result_or_a_clean_error(
    calls: list[tuple[str, dict[str, Any]]],
) -> None:
    check_calls("build", calls)


@pytest.mark.slow
@LONG
@given(st.lists(builds(), min_size=60, max_size=100))
def test_every_public_constructor_long(calls: list[tuple[str, dict[str, Any]]]) -> None:
    check_calls("build", calls)


# ------------------------------------------------------------------ readers of paths
def test_every_reader_on_every_hostile_path_gives_a_result_or_a_clean_error() -> None:
    """Every public reader on every path of the sandbox and the real inputs: devices,
    FIFOs, sockets, folders, links, empty and binary files, the file system's root."""
    calls = [
        ("read", [reader, token, *options])
        for reader in READERS
        for token in sorted({*INSIDE, *OUTSIDE})
        for options in ([], ["Orks"])
        if not options or reader == "read_army"
    ]
    check_calls("library", calls)


# ------------------------------------------------------------------ the console itself
OPTIONS = st.sampled_from(
    ["--count", "-A", "-D", "--ap", "-S", "--skill", "--abilities", "--trials", "--seed"]
)


def run_cli(argv: list[str]) -> subprocess.CompletedProcess[str]:
    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))

    return subprocess.run(
        [sys.executable, "-m", "mathhammer", *argv],
        capture_output=True,
        text=True,
        timeout=BATCH_SECONDS,
        preexec_fn=cap,
        env=child_environment(),
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
    )


@QUICK
@given(option=OPTIONS, value=CLI_TEXT.filter(lambda t: len(t) < 100_000))
def test_attack_options_give_output_or_one_clean_line(option: str, value: str) -> None:
    """The console as a user runs it (a process of its own): the tests of
    ``test_reliability_cli.py`` run the same :func:`~mathhammer.cli.main` in batches."""
    base = {
        "-A": "2",
        "--skill": "3+",
        "-S": "4",
        "--count": "5",
        "-D": "1",
        "--ap": "0",
        "--abilities": "",
    }
    base[option] = value
    argv = ["attack", *[x for kv in base.items() for x in kv], "--target", "Line infantry"]
    if option in ("--trials", "--seed"):
        argv += [option, value]
    done = run_cli(argv)
    assert done.returncode in (0, 1, 2), done.stderr[-2000:]
    assert "Traceback" not in done.stderr, done.stderr[-2000:]
    if done.returncode == 0:
        return
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert lines and (
        lines[-1].startswith("mathhammer: error:")
        or lines[-1].startswith("mathhammer attack: error:")
    ), done.stderr[-2000:]
    assert len(lines[-1]) < 500  # one readable line, not a dump
