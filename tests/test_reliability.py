"""Reliability: every public parser, constructor and command-line option, given hostile but
ordinary-looking values, gives a clean mathhammer error or a valid result, within a time and
memory budget.

Each batch of inputs runs in a child process whose address space is capped with
``resource.setrlimit`` and whose wall time is bounded, so that an input the library
mishandles cannot take the machine down: the test fails instead. A child reports, per input,
``ok`` (a valid result), ``error <class>`` (a :class:`~mathhammer.errors.MathhammerError`) or
``LEAK <class>: <message>`` (anything else: a traceback the user would have seen). The quick
hypothesis profile runs in the default test run; ``-m slow`` runs the long one.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import textwrap
from collections.abc import Sequence
from typing import Any

import pytest
from guarded import ROOT, child_environment
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

#: The address-space cap of a child: far above what a valid input needs, far below the machine.
MEMORY = 1536 * 2**20
#: The wall time of one batch (a batch of valid work takes about a second).
SECONDS = 30

#: No shrinking: a failing batch is reported whole, and a timeout is not retried many times.
_PHASES = (Phase.explicit, Phase.reuse, Phase.generate)
QUICK = settings(
    max_examples=4, deadline=None, phases=_PHASES, suppress_health_check=list(HealthCheck)
)
LONG = settings(
    max_examples=60, deadline=None, phases=_PHASES, suppress_health_check=list(HealthCheck)
)

# ------------------------------------------------------------------ hostile ordinary values
HUGE = st.sampled_from([10**9, 10**12, 10**30, -(10**30), 2**63, -1, 0])
TEXTS = st.sampled_from(
    [
        "D6+1000000",
        "999999D6",
        "1000000D1000000",
        "D0",
        "0D6",
        "-D6",
        "D6-7",
        "3",
        "3+",
        "N/A",
        "-",
        "",
        " ",
        "\u0663",  # an Arabic-Indic three
        "\uff13D6",  # a full-width three
        "1_0",
        "1e3",
        "nan",
        "inf",
        "9" * 5000,
        "<" * 20000,
        "[SUSTAINED HITS 1000000]",
        "[SUSTAINED HITS 30]",
        "[BLAST 999999999]",
        "[MELTA 1000000000]",
        "[RAPID FIRE 999999D6]",
        "[ANTI-INFANTRY 7+]",
        "=cmd|' /C calc'!A0",
    ]
)
VALUES = st.one_of(
    HUGE,
    TEXTS,
    st.integers(-20, 40),
    st.floats(allow_nan=True, allow_infinity=True),
    st.none(),
    st.booleans(),
    st.text(max_size=30),
)


def run_batch(calls: Sequence[tuple[str, Any]]) -> list[str]:
    """Run ``calls`` (a name from :data:`CHILD`'s table and its JSON arguments) in a capped child;
    return one outcome line per call."""
    code = CHILD + f"\nrun({json.dumps(list(calls))!r})\n"

    def cap() -> None:  # in the child, before it starts Python
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))

    try:
        done = subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            timeout=SECONDS,
            preexec_fn=cap,
            env=child_environment(),
            cwd=ROOT,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"a batch took over {SECONDS} s: {calls!r:.2000}", pytrace=False)
    lines = done.stdout.splitlines()
    if done.returncode != 0 or len(lines) != len(calls):
        pytest.fail(
            f"the child died (status {done.returncode}) after {len(lines)} of {len(calls)} "
            f"calls; the next was {calls[len(lines)]!r:.500}\n{done.stderr[-2000:]}"
        )
    return lines


#: The child: each call is made, and its outcome printed on one line.
CHILD = textwrap.dedent(
    """
    import json, warnings
    warnings.simplefilter("ignore")
    import mathhammer as mh
    from mathhammer.errors import MathhammerError
    from mathhammer.model import values

    def weapon(a, skill, s, ap, d, abilities):
        return mh.Weapon("w", a, skill, s, ap, d, abilities)

    def attack(a, d, abilities, count, models, wounds):
        gun = mh.Weapon("w", a, 3, 4, -1, d, abilities)
        target = mh.Unit.of("t", models, 4, 3, wounds, keywords="INFANTRY")
        return mh.attack([(gun, count)], target).killed.mean()

    def simulate(trials, rng):
        gun = mh.Weapon("w", 2, 3, 4, -1, 1)
        return mh.simulate([(gun, 5)], mh.Unit.of("t", 5, 4, 3, 1), trials=trials, rng=rng)

    TABLE = {
        "dice": lambda text: mh.parse_dice(text).dist,
        "weapon": weapon,
        "group": lambda *a: mh.ModelGroup(*a),
        "unit": lambda name, keywords, ld: mh.Unit.of(name, 5, 4, 3, 1, keywords=keywords,
                                                       leadership=ld),
        "context": lambda field, value: mh.Context(**{field: value}),
        "modifiers": lambda field, value: mh.Modifiers(**{field: value}),
        "roll": lambda text: values.parse_roll(text),
        "leadership": lambda text: values.parse_leadership(text),
        "abilities": lambda text: mh.Weapon("w", 1, 3, 4, 0, 1, text).abilities,
        "binomial": lambda n, p: mh.Dist.binomial(n, p),
        "repeat": lambda n: mh.parse_dice("D6").dist.repeat(n),
        "attack": attack,
        "simulate": simulate,
        "mortal": lambda amount: mh.attack([mh.MortalWounds(amount)],
                                           mh.Unit.of("t", 5, 4, 3, 2)).damage.mean(),
    }

    def run(calls):
        for name, args in json.loads(calls):
            try:
                TABLE[name](*args)
                print("ok", flush=True)
            except MathhammerError as exc:
                print("error", type(exc).__name__, flush=True)
            except Exception as exc:
                message = " ".join(str(exc).split())[:200]
                print(f"LEAK {type(exc).__name__}: {message}", flush=True)
    """
)

# ------------------------------------------------------------------ the calls
JSONABLE = st.one_of(
    st.integers(-(2**70), 2**70),
    TEXTS,
    st.text(max_size=20),
    st.none(),
    st.booleans(),
    st.floats(allow_nan=False, allow_infinity=False, width=32),
)
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


def check(calls: list[tuple[str, Any]]) -> None:
    leaks = [
        f"{name}{tuple(args)!r:.300} -> {outcome}"
        for (name, args), outcome in zip(calls, run_batch(calls), strict=True)
        if outcome.startswith("LEAK")
    ]
    assert not leaks, "\n".join(leaks)


@QUICK
@given(st.lists(CALLS, min_size=20, max_size=40))
def test_every_parser_and_constructor_gives_a_result_or_a_clean_error(
    calls: list[tuple[str, Any]],
) -> None:
    check(calls)


@pytest.mark.slow
@LONG
@given(st.lists(CALLS, min_size=40, max_size=80))
def test_every_parser_and_constructor_long(calls: list[tuple[str, Any]]) -> None:
    check(calls)


# ------------------------------------------------------------------ the command line
OPTIONS = st.sampled_from(
    [
        ["--count"],
        ["-A"],
        ["-D"],
        ["--ap"],
        ["-S"],
        ["--skill"],
        ["--abilities"],
        ["--trials"],
        ["--seed"],
    ]
)
CLI_VALUES = st.one_of(TEXTS, HUGE.map(str), st.text(max_size=12).filter(lambda t: "\x00" not in t))


def run_cli(argv: list[str]) -> subprocess.CompletedProcess[str]:
    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))

    return subprocess.run(
        [sys.executable, "-m", "mathhammer", *argv],
        capture_output=True,
        text=True,
        timeout=SECONDS,
        preexec_fn=cap,
        env=child_environment(),
        cwd=ROOT,
    )


@QUICK
@given(option=OPTIONS, value=CLI_VALUES)
def test_attack_options_give_output_or_one_clean_line(option: list[str], value: str) -> None:
    base = {
        "-A": "2",
        "--skill": "3+",
        "-S": "4",
        "--count": "5",
        "-D": "1",
        "--ap": "0",
        "--abilities": "",
    }
    base[option[0]] = value
    argv = ["attack", *[x for kv in base.items() for x in kv], "--target", "Line infantry"]
    if option[0] in ("--trials", "--seed"):
        argv += [option[0], value]
    done = run_cli(argv)
    assert done.returncode in (0, 1, 2), done.stderr[-2000:]
    if done.returncode == 0:
        return
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert "Traceback" not in done.stderr, done.stderr[-2000:]
    assert lines and (
        lines[-1].startswith("mathhammer: error:")
        or lines[-1].startswith("mathhammer attack: error:")
    ), done.stderr[-2000:]
    assert len(lines[-1]) < 500  # one readable line, not a dump
