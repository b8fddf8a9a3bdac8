"""Named states assumed (docs/rules.md D37): the rules that need them apply, the names are
checked against what the rules mention, and every row says what was applied and assumed.

The list is the committed excerpt of a real New Recruit export (Breaka Boyz with a
supporting Bigboss, a Beastboss on Squigosaur): the Orks army rule "Waaagh!" gives a
riled-up unit a 5+ invulnerable save and [ASSAULT] ranged attacks.
"""

from __future__ import annotations

import csv
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

import mathhammer as mh
from mathhammer.cli import main
from mathhammer.errors import OptionError
from mathhammer.units.assume import assuming, check_assumed, named_states

EXCERPT = Path(__file__).parent / "data" / "rosters" / "real" / "orks_11e_attached.json"
BOYZ = "Breaka Boyz led by Bigboss"


def boyz_target() -> mh.Target:
    return {t.name: t for t in mh.read_roster(EXCERPT).targets()}[BOYZ]


def test_the_states_the_rules_mention_and_a_typo_suggested() -> None:
    army = mh.read_roster(EXCERPT)
    assert named_states(army.loadouts()) == {"riled up"}
    assert named_states(targets=army.targets()) == {"riled up"}
    assert check_assumed([" Riled  Up! "], army.loadouts()) == {"riled up"}
    with pytest.raises(OptionError, match=r"did you mean 'riled up'\?"):
        check_assumed(["rilled up"], army.loadouts())
    with pytest.raises(OptionError, match=r"the rules mention: 'riled up'"):
        check_assumed(["objective"], army.loadouts())
    with pytest.raises(OptionError, match=r"they mention none"):
        check_assumed(["riled up"], [mh.Loadout("x", [(mh.Weapon("Gun", 1, 3, 4), 1)])])


def test_an_assumed_invulnerable_save_is_the_unit_built_with_it() -> None:
    # "While a unit is riled up: that unit has a 5+ invulnerable save": assumed, the led
    # unit is attacked exactly as the same unit with InSv 5+ on every model
    target = boyz_target()
    gun = mh.Weapon("Lascannon", 2, 3, 12, -3, "D6+1")
    unit = target.unit
    groups = [replace(g, invuln=5) for g in unit.groups]
    by_hand = mh.Unit(unit.name, groups, keywords=unit.keywords, stealth=unit.stealth)
    assert by_hand != target.unit
    riled = mh.Context(assume="riled up")
    got = mh.attack([(gun, 3)], target.unit, context=riled)
    want = mh.attack([(gun, 3)], by_hand)
    assert got.killed.allclose(want.killed, atol=1e-12)
    assert got.damage.allclose(want.damage, atol=1e-12)
    assert got.rules_applied == ("Waaagh! (5+ invulnerable save if riled up)",)
    plain = mh.attack([(gun, 3)], target.unit)
    assert plain.rules_applied == ()
    assert plain.damage.mean() > got.damage.mean() + 0.5  # the save matters here


def test_the_monte_carlo_agrees_on_the_led_unit_with_its_conditional_rules() -> None:
    # the led unit's own melee attacks (armed with the Bigboss's +1 to hit) against itself
    # riled up (5+ invulnerable save): the Monte Carlo rolls the same rules
    army = mh.read_roster(EXCERPT)
    melee = {x.name: x for x in army.loadouts()}[f"{BOYZ} (melee)"]
    target = boyz_target()
    riled = mh.Context(assume="riled up", melee=True)
    exact = mh.attack(list(melee.weapons), target.unit, context=riled)
    trials = 40_000
    mc = mh.simulate(
        list(melee.weapons), target.unit, trials=trials, context=riled, rng=np.random.default_rng(7)
    )
    sd = exact.damage.std() / np.sqrt(trials)
    assert abs(mc.damage.mean() - exact.damage.mean()) < 4 * sd
    assert set(exact.rules_applied) == {
        "Sumfin' to Prove (melee: +1 to hit)",
        "Waaagh! (5+ invulnerable save if riled up)",
    }


def test_assuming_gives_every_loadout_the_state_and_keeps_its_own() -> None:
    gun = mh.Weapon("Gun", 1, 3, 4)
    own = mh.Loadout("close", [(gun, 5)], context=mh.Context(half_range=True, assume="waaagh"))
    bare = mh.Loadout("bare", [(gun, 5)])
    close, plain = assuming([own, bare], {"riled up"})
    assert close.context == mh.Context(half_range=True, assume={"waaagh", "riled up"})
    assert plain.context == mh.Context(assume="riled up")
    assert assuming([own], ()) == [own]


def test_the_report_says_what_was_applied_and_assumed(tmp_path: Path) -> None:
    out = tmp_path / "riled.csv"
    code = main(
        [
            "report",
            "--targets",
            str(EXCERPT),
            "--assume",
            "Riled up",
            "-o",
            str(out),
            "--no-progress",
        ]
    )
    assert code == 0
    with out.open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    against = [r for r in rows if r["target"] == BOYZ]
    assert against and all(r["assumed"] == "riled up" for r in against)
    assert all(r["rules_applied"] == "Waaagh! (5+ invulnerable save if riled up)" for r in against)
    plain = tmp_path / "plain.csv"
    assert main(["report", "--targets", str(EXCERPT), "-o", str(plain), "--no-progress"]) == 0
    with plain.open(encoding="utf-8") as f:
        header = next(csv.reader(f))
    assert "assumed" not in header and "rules_applied" not in header


def test_a_state_no_rule_mentions_is_refused_on_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = str(tmp_path / "r.csv")
    code = main(["report", str(EXCERPT), "--assume", "riled upp", "-o", out, "--no-progress"])
    assert code != 0
    err = capsys.readouterr().err
    assert "--assume must be a state the rules of the units mention" in err
    assert "did you mean 'riled up'?" in err


def test_a_plain_report_names_the_rules_not_applied(
    shared_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # the Painboy's "Hold Still and Say 'Aargh!'" (mortal wounds on a critical wound) is not
    # applied: a plain report says so, one line per unit, without --import-report; the Chaos
    # Lords' rules are all read now ("Dark Pacts" as a choice, "Chance for Glory" once per
    # battle), and the Flash Gitz' "Gun-crazy Show-offs" (an attacks characteristic set, D43)
    orks = shared_data / "bsdata-11e" / "Orks.json"
    out = str(tmp_path / "r.csv")
    assert main(["report", str(orks), "--faction", "Orks", "-o", out, "--no-progress"]) == 0
    lines = [x for x in capsys.readouterr().err.splitlines() if "rules not applied" in x]
    assert any("Painboy: rules not applied: Hold Still and Say" in x for x in lines)
    assert not any("Flash Gitz:" in x for x in lines)
    roster = shared_data / "rosters" / "11e_csm_chaos_lords_nr_probhammer.json"
    assert main(["report", str(roster), "-o", out, "--no-progress", "--force"]) == 0
    assert "rules not applied" not in capsys.readouterr().err
