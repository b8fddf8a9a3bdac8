"""Sizes beyond the limits are refused up front, quickly, with a LimitError naming them.

Issue 13, points 1 and 3: a Damage of 10^9, ``D6+1000000``, ``999999D6``, ``[SUSTAINED HITS
30]`` on 2,000 dice, ``MortalWounds(10**9)``, ``Dist.binomial(10**6)`` and ``trials=10**12``
used to allocate gigabytes (or never return); each is now refused before anything is
allocated, naming the size and, where the Monte Carlo can take it, that remedy. The
dangerous inputs run in a fresh interpreter with its address space capped
(:func:`guarded.run_capped`), and again in this process under a cap
(:func:`guarded.memory_cap`) so that coverage sees the checks.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from guarded import GIB, memory_cap, run_capped, timed

import mathhammer as mh
from mathhammer import Dist, LimitError, OptionError
from mathhammer.core import limits
from mathhammer.core.binomial import binomial_table
from mathhammer.core.dice import parse_dice
from mathhammer.montecarlo import engine as mc
from mathhammer.montecarlo.budget import block_size, check_trials, trial_dice
from mathhammer.rules.plan import plan_attack

#: A refusal takes well under this (it happens before anything is computed).
QUICK = 1.0
SQUAD = mh.Unit.of("Squad", 5, 4, 3, 2)


def gun(damage: object = 1, abilities: str = "", attacks: object = 1) -> mh.Weapon:
    return mh.Weapon("Gun", attacks, 3, 4, 0, damage, abilities=abilities)  # type: ignore[arg-type]


def refused(f: Callable[[], object], *words: str) -> LimitError:
    """``f()`` raises a LimitError within :data:`QUICK` seconds, under a memory cap."""
    with memory_cap(GIB):
        error, seconds = timed(f)
    assert isinstance(error, LimitError), error
    assert seconds < QUICK, seconds
    for word in words:
        assert word in str(error), (word, str(error))
    assert len(str(error).splitlines()) == 1
    return error


# --------------------------------------------------------------------- dice expressions
@pytest.mark.parametrize(
    ("value", "words"),
    [
        ("D6+1000000", ["largest value of 'D6+1000000'", "at most 1000000", "got 1000006"]),
        ("999999D6", ["number of dice in '999999D6'", "at most 100", "got 999999"]),
        ("101D6", ["number of dice", "got 101"]),
        pytest.param("1" * 5000, ["a number of 5000 digits"], id="5000 digits"),
        pytest.param("D6+" + "9" * 6000, ["a number of 6000 digits"], id="D6+6000 digits"),
        ("12345678", ["got 12345678"]),
        (10**9, ["dice value must be at most 1000000; got 1000000000"]),
        pytest.param(10**5000, ["an integer of 5001 digits"], id="10**5000"),
        (np.int64(10**12), ["got 1000000000000"]),
    ],
)
def test_dice_expressions_refuse_absurd_sizes(value: object, words: list[str]) -> None:
    refused(lambda: parse_dice(value), *words)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "largest"), [("100D20", 2000), ("D6+999994", 10**6), ("100D6+999400", 10**6)]
)
def test_dice_expressions_at_their_limits_are_read(text: str, largest: int) -> None:
    dice = parse_dice(text)
    assert dice.max == largest
    error, seconds = timed(lambda: dice.dist)
    assert error is None and seconds < QUICK
    assert dice.dist.n == largest and dice.dist.mean() == pytest.approx(dice.mean, abs=1e-9)
    assert parse_dice(limits.MAX_VALUE).max == limits.MAX_VALUE


def test_numbers_too_long_to_print_are_described() -> None:
    assert limits.printable(10**300) == "an integer of 301 digits"
    assert limits.printable(10**400 - 1) == "an integer of 400 digits"
    assert limits.printable(-(10**5)) == -(10**5)
    assert limits.shorten("x" * 100, 10) == "xxxxxxx..."


def test_dice_read_ascii_digits_only() -> None:
    with pytest.raises(mh.DiceSyntaxError, match="unexpected"):
        parse_dice("\u0663")  # ARABIC-INDIC DIGIT THREE
    with pytest.raises(mh.DiceSyntaxError):
        parse_dice("\uff13D6")  # FULLWIDTH DIGIT THREE


# --------------------------------------------------------------------- distributions
@pytest.mark.parametrize(
    ("build", "words"),
    [
        (lambda: Dist.binomial(10**6, 0.5), ["Dist.binomial n must be at most 20000"]),
        (lambda: Dist.constant(10**9), ["Dist.constant k must be at most 10000000"]),
        (lambda: Dist.uniform(1, 10**9), ["Dist.uniform high"]),
        (lambda: Dist.uniform(1, 6).repeat(10**9), ["largest value of Dist.repeat"]),
        (lambda: Dist.uniform(1, 6).repeat(20_000), ["operations of Dist.repeat"]),
        (lambda: Dist.constant(10).compound(Dist.constant(10**6)), ["Dist.compound"]),
        (lambda: Dist.uniform(0, 100).compound(Dist.uniform(0, 1000)), ["operations of"]),
        (lambda: Dist.constant(10**6).thin(0.5), ["largest value of Dist.thin"]),
        (lambda: Dist.constant(10**6) + Dist.uniform(0, 10**5), ["operations of Dist.conv"]),
        (lambda: Dist.constant(10**6) + 10**7, ["largest value of Dist.convolve"]),
        (lambda: Dist.uniform(0, 3).map(lambda k: 10**12), ["largest value of Dist.map"]),
        (lambda: Dist.from_samples([10**12]), ["largest of Dist.from_samples"]),
        (lambda: binomial_table(10**5, 0.5), ["binomial table entries"]),
    ],
)
def test_distributions_refuse_absurd_sizes(build: Callable[[], object], words: list[str]) -> None:
    refused(build, *words)


def test_distributions_at_their_limits() -> None:
    n = limits.MAX_BINOMIAL_N
    error, seconds = timed(lambda: Dist.binomial(n, 0.3))
    assert error is None and seconds < 2 * QUICK
    d = Dist.binomial(n, 0.3)
    assert d.mean() == pytest.approx(0.3 * n, rel=1e-9)
    assert d.var() == pytest.approx(0.21 * n, rel=1e-9)
    error, seconds = timed(lambda: Dist.uniform(0, n).thin(0.5))
    assert error is None and seconds < 2 * QUICK
    assert Dist.uniform(0, n).thin(0.5).mean() == pytest.approx(n / 4, rel=1e-9)


# --------------------------------------------------------------------- the exact engine
def fifty_melta() -> mh.Weapon:
    return gun(abilities="[MELTA 5000]")


EXACT_REFUSALS: list[tuple[str, Callable[[], object], list[str]]] = [
    ("damage", lambda: mh.attack(gun(5000), SQUAD), ["damage of one attack", "got 5000"]),
    (
        "damage set",
        lambda: mh.attack(gun(), SQUAD, modifiers=mh.Modifiers(damage_set=100_000)),
        ["damage of one attack", "got 100000"],
    ),
    (
        "damage multiplied",
        lambda: mh.attack(gun(200), SQUAD, modifiers=mh.Modifiers(damage_multiply=10)),
        ["got 2000"],
    ),
    (
        "melta",
        lambda: mh.attack(fifty_melta(), SQUAD, context=mh.Context(half_range=True)),
        ["[MELTA] X", "got 5001"],
    ),
    (
        "mortal wounds",
        lambda: mh.attack([mh.MortalWounds(10**6)], SQUAD),
        ["mortal wounds of 'Mortal wounds 1000000' must be at most 100000"],
    ),
    (
        "sustained hits on many dice",
        lambda: mh.attack([(gun(abilities="[SUSTAINED HITS 30]"), 2000)], SQUAD),
        ["hits of pool 'Gun x2000'", "at most 15000; got 62000"],
    ),
    (
        "many sustained hits",
        lambda: mh.attack([(gun(abilities="[SUSTAINED HITS 1000000]"), 10)], SQUAD),
        ["got 10000010"],
    ),
    (
        "attack dice",
        lambda: mh.attack([(gun(attacks="D6"), 1000)], SQUAD),
        ["attack dice of pool 'Gun x1000' must be at most 5000; got 6000"],
    ),
    (
        "target wounds",
        lambda: mh.attack(gun(), mh.Unit.of("Horde", 12000, 3, 7, 1)),
        ["target wounds must be at most 10000"],
    ),
    (
        "states",
        lambda: mh.attack(
            gun(abilities="[PRECISION]"),
            mh.Unit(
                "Led",
                [mh.ModelGroup(1000, 4, 3, 2), mh.ModelGroup(1, 4, 3, 400, character=True)],
            ),
        ),
        ["target states must be at most 200000; got 802401"],
    ),
]


@pytest.mark.parametrize(
    ("build", "words"), [case[1:] for case in EXACT_REFUSALS], ids=[c[0] for c in EXACT_REFUSALS]
)
def test_exact_engine_refuses_each_size_naming_it(
    build: Callable[[], object], words: list[str]
) -> None:
    error = refused(build, *words)
    assert "use mathhammer.simulate" in str(error)
    assert error.field is not None and error.constraint is not None


@pytest.mark.system
def test_the_issue_inputs_end_in_a_clean_error_in_a_capped_process() -> None:
    """The inputs of issue 13 point 1, as given there, in an interpreter capped at 1 GiB."""
    report = run_capped(
        """
        import mathhammer as mh
        squad = mh.Unit.of("Squad", 5, 4, 3, 2)
        gun = lambda d=1, a="": mh.Weapon("Gun", 1, 3, 4, 0, d, abilities=a)
        cases = {
            "damage 10**9": lambda: mh.attack(gun(10**9), squad),
            "D6+1000000": lambda: mh.attack(gun("D6+1000000"), squad),
            "999999D6": lambda: mh.attack(gun("999999D6"), squad),
            "sustained 30": lambda: mh.attack([(gun(a="[SUSTAINED HITS 30]"), 2000)], squad),
            "sustained 10**6": lambda: mh.attack(
                [(gun(a="[SUSTAINED HITS 1000000]"), 10)], squad
            ),
            "melta 10**9": lambda: mh.attack(gun(a="[MELTA 1000000000]"), squad),
            "mortal 10**9": lambda: mh.attack([mh.MortalWounds(10**9)], squad),
            "binomial 10**6": lambda: mh.Dist.binomial(10**6, 0.5),
            "repeat 10**9": lambda: mh.Dist.uniform(1, 6).repeat(10**9),
            "simulate 999999D6": lambda: mh.simulate(gun("999999D6"), squad, trials=100),
            "simulate sustained 10**6": lambda: mh.simulate(
                [(gun(a="[SUSTAINED HITS 1000000]"), 10)], squad, trials=100
            ),
        }
        print(json.dumps({name: timed(f) for name, f in cases.items()}))
        """,
        memory=GIB,
        timeout=120,
    )
    for name, outcome in report.items():
        assert outcome["error"] in {"LimitError", "ProfileError"}, (name, outcome)
        assert outcome["seconds"] < QUICK, (name, outcome)


def test_plan_reads_the_sizes_at_their_largest() -> None:
    weapon = mh.Weapon("Gun", "D6", 3, 4, 0, "D3+1", abilities="[SUSTAINED HITS D3], [MELTA 2]")
    plan = plan_attack([(weapon, 10)], SQUAD, context=mh.Context(half_range=True))
    step = plan.steps[0]
    assert isinstance(step, mh.rules.PlannedPool)
    assert (step.attack_dice, step.hits, step.damage) == (60, 240, 6)
    doubled = plan_attack(weapon, SQUAD, modifiers=mh.Modifiers(damage_multiply=2, damage_add=1))
    assert doubled.steps[0].damage == 4 * 2 + 1  # type: ignore[union-attr]


def test_monte_carlo_takes_what_the_exact_engine_refuses() -> None:
    """The remedy named: Damage 5000 and [MELTA 5000] are beyond the exact engine only."""
    one = mh.Unit.of("Tank", 1, 10, 3, 12)
    for weapon, context in [(gun(5000), None), (fifty_melta(), mh.Context(half_range=True))]:
        with pytest.raises(LimitError):
            mh.attack(weapon, one, context=context)
        sim = mh.simulate(weapon, one, trials=4000, rng=1, context=context)
        # S4 vs T10 wounds on 6s, hits on 3+, Sv3+ fails on 1-2: P(kill) = 2/3 * 1/6 * 1/3
        assert abs(sim.killed.mean() - 1 / 27) < 5 * sim.killed_se


# --------------------------------------------------------------------- Monte Carlo trials
@pytest.mark.parametrize(
    ("trials", "words"),
    [
        (10**12, ["trials must be at most 10000000; got 1000000000000", "1/sqrt(trials)"]),
        (10**30, ["at most 10000000"]),
        pytest.param(10**5000, ["an integer of 5001 digits"], id="10**5000"),
        (limits.MAX_TRIALS + 1, ["at most 10000000"]),
        (1.5, ["trials must be an integer >= 2; got 1.5"]),
        ("100", ["an integer >= 2"]),
        (True, ["an integer >= 2"]),
        (1, ["an integer >= 2"]),
    ],
)
def test_simulate_refuses_absurd_trials_up_front(trials: Any, words: list[str]) -> None:
    with memory_cap(GIB):
        error, seconds = timed(lambda: mh.simulate(gun(), SQUAD, trials=trials, rng=1))
    assert isinstance(error, OptionError), error
    assert seconds < QUICK
    for word in words:
        assert word in str(error)


def test_the_most_trials_are_accepted() -> None:
    assert check_trials(limits.MAX_TRIALS) == limits.MAX_TRIALS
    assert check_trials(np.int64(2)) == 2


@pytest.mark.system
def test_the_cli_ends_absurd_trials_in_one_line() -> None:
    """``attack --trials 10**12`` and ``report --check-trials 30000000``: one line, exit 1."""
    report = run_capped(
        """
        import contextlib, io
        from mathhammer.cli import main
        runs = {
            "attack": ["attack", "-A", "2", "--skill", "3", "-S", "4", "--models", "5", "-T",
                       "4", "--save", "3", "-W", "2", "--trials", str(10**12)],
            "report": ["report", "--check-trials", "30000000"],
        }
        out = {}
        for name, argv in runs.items():
            err = io.StringIO()
            with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
                try:
                    status = main(argv)
                except SystemExit as exc:
                    status = exc.code
            out[name] = {"status": status, "stderr": err.getvalue()}
        print(json.dumps(out))
        """,
        memory=2 * GIB,
        timeout=120,
    )
    for name, outcome in report.items():
        lines = outcome["stderr"].splitlines()
        assert outcome["status"] == 1, (name, outcome)
        assert len(lines) == 1 and lines[0].startswith("mathhammer: error: "), (name, lines)
        assert "must be at most 10000000" in lines[0], (name, lines)


# --------------------------------------------------------------------- Monte Carlo memory
@pytest.mark.system
def test_simulate_memory_does_not_grow_with_trials() -> None:
    """Two million trials of three pools in 400 MB of address space.

    Per-trial arrays would need far more: the stage counts alone are 3 pools x 6 stages x
    2e6 trials x 8 bytes = 288 MB, and one pool's 20 attack dice a trial 2e6 x 20 x ~26
    bytes = 1 GB. The simulation keeps only counts, so its memory is one block's.
    """
    report = run_capped(
        """
        import mathhammer as mh
        bolt = mh.Weapon("Bolt rifle", 2, 3, 4, -1, 1)
        plasma = mh.Weapon("Plasma", 1, 3, 7, -2, 2)
        fist = mh.Weapon("Fist", 3, 3, 5, -1, 1, melee=True)
        squad = mh.Unit.of("Squad", 10, 4, 3, 2)
        weapons = [(bolt, 10), (plasma, 2), (fist, 5)]
        sim = mh.simulate(weapons, squad, trials=2_000_000, rng=1)
        exact = mh.attack(weapons, squad)
        z = (sim.killed.mean() - exact.killed.mean()) / sim.killed_se
        print(json.dumps({"trials": sim.trials, "pools": len(sim.pools), "z": z}))
        """,
        memory=400 * 2**20,
        timeout=180,
    )
    assert report["trials"] == 2_000_000 and report["pools"] == 3
    assert abs(report["z"]) < 5


@pytest.mark.system
def test_large_pools_are_simulated_in_smaller_blocks() -> None:
    """A 2,000-dice pool in blocks of 5,000 trials: 20,000 trials in 768 MB (one block of
    20,000 trials would roll 4e7 dice, about 1 GB)."""
    plan = plan_attack([(gun(), 2000)], mh.Unit.of("Squad", 10, 4, 3, 1))
    assert trial_dice(plan) == 2000
    assert block_size(plan, mc.BLOCK) == limits.BLOCK_DICE // 2000 == 5000
    assert block_size(plan_attack(gun(), SQUAD), mc.BLOCK) == mc.BLOCK
    report = run_capped(
        """
        import mathhammer as mh
        gun = mh.Weapon("Gun", 1, 3, 4, 0, 1)
        sim = mh.simulate([(gun, 2000)], mh.Unit.of("Squad", 10, 4, 3, 1), trials=20_000, rng=1)
        print(json.dumps({"killed": sim.killed.mean()}))
        """,
        memory=768 * 2**20,
        timeout=180,
    )
    assert report["killed"] == pytest.approx(10.0)


def test_simulate_refuses_what_one_trial_cannot_hold() -> None:
    error = refused(
        lambda: mh.simulate([(gun(abilities="[SUSTAINED HITS 1000000]"), 10)], SQUAD, trials=10),
        "dice one trial rolls at once in pool 'Gun x10' must be at most 1000000; got 10000010",
    )
    assert "simulate" not in (error.hint or "")
    huge = mh.Unit.of("Swarm", 100_000, 3, 7, 1000)
    refused(lambda: mh.simulate(gun(), huge, trials=10), "target wounds in a simulation")


def test_simulate_at_the_most_dice_a_trial_rolls() -> None:
    """10 dice with [SUSTAINED HITS 99999]: a trial rolls up to 1,000,000 wound dice."""
    weapons = [(gun(abilities="[SUSTAINED HITS 99999]"), 10)]
    plan = plan_attack(weapons, SQUAD)
    assert trial_dice(plan) == limits.MAX_TRIAL_DICE
    assert block_size(plan, mc.BLOCK) == 10
    error, seconds = timed(lambda: mh.simulate(plan, trials=20, rng=1))
    assert error is None and seconds < 10


def test_blocks_are_spawned_as_they_start() -> None:
    eager = mc.block_streams(7, 5, block=3)
    lazy = list(mc.iter_blocks(7, 5, 3))
    assert [n for _, n in eager] == [n for _, n in lazy] == [3, 3, 1]
    for (a, _), (b, _) in zip(eager, lazy, strict=True):
        assert a.integers(0, 2**62, 4).tolist() == b.integers(0, 2**62, 4).tolist()
    spawned = np.random.default_rng(5).spawn(3)
    assert spawned[2].integers(0, 2**62) == mc.block_streams(7, 5, block=3)[2][0].integers(0, 2**62)
