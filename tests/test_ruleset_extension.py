"""A ruleset defined outside the package runs everywhere a ruleset name is accepted.

``tests/example_ruleset.py`` defines ``"11e-six-saves"``: the 11th edition where an
unmodified 6 always saves and a [HAZARDOUS] roll fails on a 1 only. It is one subclass
of :class:`mathhammer.rules.EleventhEdition` and one call to ``register_ruleset``; this
module shows that, with no change to the package, it runs through ``mh.attack``,
``mh.simulate``, ``mh.compare`` and the ``report`` command, and that its numbers are the
hand-derived ones.

Golden values, derived by hand
------------------------------
Each attack is a weapon at BS 3+ (P(hit) = 4/6: 3, 4, 5 hit and a 6 is a Critical Hit)
with S4 against T4 (4+ to wound: P = 3/6), against a unit of ten W1 models; three
attacks can destroy at most three models, so models destroyed ~ Binomial(3, p) with
p = 2/3 * 1/2 * P(the save fails). P(the save fails), by Sv, InSv and AP:

==========  ====  ======  ===============================  ===========================
Sv          InSv  AP      11e (no "6 always saves")        11e-six-saves
==========  ====  ======  ===============================  ===========================
7 (none)    -     -1      6/6: 1 + 1 >= 7 fails on every   5/6: only the natural 6
                          die, 6 - 1 = 5 < 7               saves
3+          -     -4      6/6: 6 - 4 = 2 < 3               5/6
3+          -     -1      3/6: 4, 5, 6 save                3/6: the 6 already saved
2+          -     0       1/6: a natural 1 never saves     1/6: still never
7 (none)    5+    -3      4/6: the invulnerable 5+ saves   4/6
==========  ====  ======  ===============================  ===========================

Hazardous: one hazard roll per weapon; under ``"11e-six-saves"`` it fails on a 1 only
(P = 1/6, against 2/6 in the 11th edition), and each failure costs 1 mortal wound
(3 for a MONSTER or VEHICLE attacker), so n weapons give 1 x Binomial(n, 1/6), mean n/6.
"""

from __future__ import annotations

import csv
from fractions import Fraction as F
from math import comb
from pathlib import Path

import numpy as np
import pytest
from example_ruleset import NAME, SixSaves
from statcheck import assert_matches, seed_for

import mathhammer as mh
from mathhammer.cli import main
from mathhammer.rules import EleventhEdition, get_ruleset, register_ruleset, ruleset_names

TOL = 1e-12
TRIALS = 50_000


def binomial(n: int, p: F) -> list[F]:
    """The Binomial(n, p) pmf, exactly."""
    return [comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)]


def assert_pmf(dist: mh.Dist, expected: list[F]) -> None:
    """The distribution is exactly ``expected`` (to 1e-12), with nothing beyond it."""
    want = np.array([float(x) for x in expected])
    got = np.zeros(max(dist.n + 1, len(want)))
    got[: dist.n + 1] = dist.probabilities
    padded = np.zeros(len(got))
    padded[: len(want)] = want
    np.testing.assert_allclose(got, padded, rtol=0, atol=TOL)


def lasgun(ap: int = -1) -> mh.Weapon:
    return mh.Weapon("Lasgun", attacks=1, skill=3, strength=4, ap=ap, damage=1)


def horde(save: int = 7, invuln: int | None = None) -> mh.Unit:
    return mh.Unit.of("Horde", models=10, toughness=4, save=save, wounds=1, invuln=invuln)


def hazardous_gun() -> mh.Weapon:
    return mh.Weapon("Plasma", 1, skill=3, strength=7, ap=-2, damage=2, abilities="[HAZARDOUS]")


# --------------------------------------------------------------------- registration
def test_the_ruleset_is_registered_by_its_import() -> None:
    assert NAME in ruleset_names()
    rules = get_ruleset(NAME)
    assert isinstance(rules, SixSaves) and rules.name == "11e-six-saves"
    assert get_ruleset(NAME.upper()) is rules  # names are case-insensitive, as for "11E"


@pytest.mark.parametrize(
    "ruleset",
    [SixSaves(), EleventhEdition()],
    ids=["the same ruleset again", "a built-in name"],
)
def test_register_ruleset_refuses_a_name_already_taken(ruleset: mh.rules.Ruleset) -> None:
    before = ruleset_names()
    with pytest.raises(mh.RulesError, match="ruleset name must be a name not yet registered"):
        register_ruleset(ruleset)
    assert ruleset_names() == before


def test_register_ruleset_refuses_a_name_differing_only_in_case() -> None:
    class Shouting(SixSaves):
        name = NAME.upper()

    with pytest.raises(mh.RulesError, match="not yet registered; got '11E-SIX-SAVES'"):
        register_ruleset(Shouting())


@pytest.mark.parametrize(
    "thing", [object(), SixSaves, NAME], ids=["an object", "the class", "the name"]
)
def test_register_ruleset_refuses_what_is_not_a_ruleset(thing: object) -> None:
    before = ruleset_names()
    with pytest.raises(mh.RulesError, match="ruleset must be a Ruleset instance"):
        register_ruleset(thing)  # type: ignore[arg-type]
    assert ruleset_names() == before


# --------------------------------------------------------------------- golden values
SAVE_TABLE = [
    # (Sv, InSv, AP, P(save fails) under 11e, under 11e-six-saves): see the module docstring
    (7, None, -1, F(6, 6), F(5, 6)),
    (3, None, -4, F(6, 6), F(5, 6)),
    (3, None, -1, F(3, 6), F(3, 6)),
    (2, None, 0, F(1, 6), F(1, 6)),
    (7, 5, -3, F(4, 6), F(4, 6)),
]


@pytest.mark.parametrize(("save", "invuln", "ap", "fails_11e", "fails_six"), SAVE_TABLE)
def test_hand_derived_distributions(
    save: int, invuln: int | None, ap: int, fails_11e: F, fails_six: F
) -> None:
    for rules, fails in (("11e", fails_11e), (NAME, fails_six)):
        res = mh.attack([(lasgun(ap), 3)], horde(save, invuln), rules=rules)
        assert res.rules == rules
        pool = res.pools[0]
        assert_pmf(pool.hits, binomial(3, F(2, 3)))
        assert_pmf(pool.wounds, binomial(3, F(1, 3)))
        assert_pmf(pool.unsaved, binomial(3, F(1, 3) * fails))
        assert_pmf(res.killed, binomial(3, F(1, 3) * fails))
        assert_pmf(res.damage, binomial(3, F(1, 3) * fails))
        assert res.killed.mean() == pytest.approx(float(F(1, 1) * fails), abs=TOL)


def test_no_save_at_ap_minus_one_exactly() -> None:
    """The headline case: Sv7 at AP -1 fails every die in the 11th edition; here a 6 saves."""
    res = mh.attack([(lasgun(-1), 3)], horde(7), rules=NAME)
    p = F(2, 3) * F(1, 2) * F(5, 6)  # 5/18 per attack
    assert p == F(5, 18)
    assert_pmf(res.killed, [F(2197, 5832), F(2535, 5832), F(975, 5832), F(125, 5832)])
    assert_pmf(res.killed, binomial(3, p))
    assert abs(res.killed.mean() - 15 / 18) <= TOL
    assert abs(mh.attack([(lasgun(-1), 3)], horde(7)).killed.mean() - 1.0) <= TOL


@pytest.mark.parametrize("n", [1, 4])
def test_hazardous_fails_on_a_one_only(n: int) -> None:
    target = horde(4)
    res = mh.attack([(hazardous_gun(), n)], target, rules=NAME)
    assert_pmf(res.hazardous, binomial(n, F(1, 6)))
    assert abs(res.hazardous.mean() - n / 6) <= TOL
    eleventh = mh.attack([(hazardous_gun(), n)], target)
    assert_pmf(eleventh.hazardous, binomial(n, F(2, 6)))
    monster = mh.attack(
        [(hazardous_gun(), n)],
        target,
        rules=NAME,
        context=mh.Context(attacker_monster_or_vehicle=True),
    )
    expected = [F(0)] * (3 * n + 1)
    for k, p in enumerate(binomial(n, F(1, 6))):
        expected[3 * k] = p  # 3 mortal wounds per failed roll
    assert_pmf(monster.hazardous, expected)


# --------------------------------------------------------------------- Monte Carlo
MC_CASES = {
    "no save at AP -1": ([(lasgun(-1), 12)], horde(7)),
    "hazardous plasma": ([(hazardous_gun(), 4)], horde(4)),
}


@pytest.mark.parametrize("case", list(MC_CASES))
def test_monte_carlo_agrees_with_exact(case: str) -> None:
    weapons, target = MC_CASES[case]
    exact = mh.attack(weapons, target, rules=NAME)
    sim = mh.simulate(weapons, target, rules=NAME, trials=TRIALS, rng=seed_for(NAME, case))
    assert sim.rules == NAME and sim.trials == TRIALS
    checks = [("killed", exact.killed, sim.killed), ("damage", exact.damage, sim.damage)]
    checks.append(("hazardous", exact.hazardous, sim.hazardous))
    for stage in ("attacks", "hits", "wounds", "unsaved", "killed"):
        checks.append((stage, getattr(exact.pools[0], stage), getattr(sim.pools[0], stage)))
    for label, e, s in checks:
        assert_matches(f"{case} {label}", e, s, TRIALS)


def test_monte_carlo_tells_the_rulesets_apart() -> None:
    """The check above can fail: the 11th-edition exact result is far outside 5 sigma."""
    weapons, target = MC_CASES["no save at AP -1"]
    sim = mh.simulate(weapons, target, rules=NAME, trials=TRIALS, rng=seed_for(NAME, "apart"))
    with pytest.raises(AssertionError, match="z="):
        assert_matches("mismatch", mh.attack(weapons, target).killed, sim.killed, TRIALS)


# --------------------------------------------------------------------- compare and the CLI
def test_compare_takes_the_ruleset_by_name() -> None:
    frame = mh.compare({"lasguns": [(lasgun(-1), 3)]}, {"Horde": horde(7)}, rules=NAME)
    assert abs(float(frame.mean_killed[0]) - 15 / 18) <= TOL
    baseline = mh.compare({"lasguns": [(lasgun(-1), 3)]}, {"Horde": horde(7)})
    assert abs(float(baseline.mean_killed[0]) - 1.0) <= TOL


ATTACKERS = """unit,weapon,count,A,BS/WS,S,AP,D,abilities,points
Guardsmen,Lasgun,3,1,3+,4,-1,1,,30
Plasma team,Plasma gun,4,1,3+,7,-2,2,[HAZARDOUS],60
"""
TARGETS = """unit,group,models,T,Sv,InSv,W,FNP,keywords,CHARACTER,Ld,points
Horde,,10,4,7+,-,1,-,INFANTRY,no,6,60
"""


def test_report_command_takes_the_ruleset(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    attackers, targets = tmp_path / "army.csv", tmp_path / "threats.csv"
    attackers.write_text(ATTACKERS)
    targets.write_text(TARGETS)
    out = tmp_path / "report.csv"
    argv = ["report", str(attackers), "--targets", str(targets), "--no-progress"]
    assert main([*argv, "--rules", NAME, "-o", str(out)]) == 0
    assert "2 rows written to" in capsys.readouterr().out
    with out.open(newline="") as handle:
        rows = {r["loadout"]: r for r in csv.DictReader(handle)}
    assert float(rows["Guardsmen"]["mean_killed"]) == pytest.approx(15 / 18, rel=1e-5)
    plasma = mh.attack([(hazardous_gun(), 4)], horde(7), rules=NAME)
    assert float(rows["Plasma team"]["mean_killed"]) == pytest.approx(
        plasma.killed.mean(), rel=1e-5
    )
    # the same files under the 11th edition give the 11th-edition numbers
    assert main([*argv, "--rules", "11e", "-o", str(out)]) == 0
    with out.open(newline="") as handle:
        rows = {r["loadout"]: r for r in csv.DictReader(handle)}
    assert float(rows["Guardsmen"]["mean_killed"]) == pytest.approx(1.0, rel=1e-5)


def test_attack_command_lists_and_takes_the_ruleset(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["attack", "--help"])
    assert NAME in capsys.readouterr().out
    argv = ["attack", "-A", "1", "--skill", "3+", "-S", "4", "--ap", "-1", "--count", "3"]
    target = ["--models", "10", "-T", "4", "--save", "-", "-W", "1"]
    assert main([*argv, *target, "--rules", NAME]) == 0
    printed = capsys.readouterr().out
    assert f"[{NAME}]" in printed and "mean 0.833" in printed
