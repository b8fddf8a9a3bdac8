"""Army and detachment rules (docs/rules.md D39): read with the units they name, applied to
the units of a list with those keywords, and exactly what the same units built by hand do.

The list is the committed excerpt of a real New Recruit export (Breaka Boyz with a
supporting Bigboss, a Beastboss on Squigosaur); the detachments' texts are those of the
Orks catalogue of the July 2026 BSData snapshot.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import mathhammer as mh
from mathhammer.abilities import SustainedHits
from mathhammer.io.rules_text import read_rule
from mathhammer.model.effects import Effect
from mathhammer.units.parts import AbilityText, Detachment

EXCERPT = Path(__file__).parent / "data" / "rosters" / "real" / "orks_11e_attached.json"
BOYZ = "Breaka Boyz led by Bigboss"

WAR_HORDE = Detachment(
    "War Horde",
    (
        AbilityText(
            "Get Stuck In",
            "Melee weapons equipped by **^^Orks^^** models from your army have the "
            "**[SUSTAINED HITS 1]** ability.",
        ),
    ),
    "Xenos - Orks",
)
RAMSHIP = Detachment(
    "Ramship Raiders",
    (
        AbilityText(
            "Belligerent Boarders",
            "Each time an attack targets an **^^Orks^^** unit from your army (excluding "
            "**^^Grots^^** units), if the Strength characteristic of that attack is greater "
            "than the Toughness characteristic of that **^^Orks^^** unit, subtract 1 from the "
            "Wound roll.",
        ),
    ),
)
GREEN_TIDE = Detachment(
    "Green Tide",
    (
        AbilityText(
            "Mob Mentality",
            "Each time an attack targets a **BOYZ** unit from your army, models in that unit "
            "have a 6+ invulnerable save against that attack.",
        ),
    ),
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Melee weapons equipped by **^^Orks^^** models from your army have the "
            "**[SUSTAINED HITS 1]** ability.",
            ["melee: ORKS units: [SUSTAINED HITS 1]"],
        ),
        (
            "Friendly **ORKS INFANTRY** units\u2019 ranged attacks have **[ASSAULT]**. - In your "
            "Shooting phase, if the Waaagh! is active for your army, friendly **ORKS INFANTRY** "
            "units\u2019 ranged attacks have **[SUSTAINED HITS 1]**.",
            [
                "ranged: ORKS INFANTRY units: [ASSAULT]",
                "ranged: ORKS INFANTRY units: [SUSTAINED HITS 1] if waaagh",
            ],
        ),
        (
            "Each time an attack targets a **BOYZ** unit from your army, models in that unit "
            "have a 6+ invulnerable save against that attack.",
            ["BOYZ units: 6+ invulnerable save"],
        ),
        (
            RAMSHIP.rules[0].text,
            ["ORKS/NON-GROTS units: -1 to wound rolls that target it if S > T"],
        ),
        (
            "Each time a model in an **^^Orks Infantry^^**, **^^Orks Mounted^^** or **^^Orks "
            "Walker^^** unit from your army makes an attack that targets a MONSTER unit, add 1 "
            "to the Hit roll.",
            ["ORKS INFANTRY/ORKS MOUNTED/ORKS WALKER units: +1 to hit if target MONSTER"],
        ),
        (
            "In your Shooting phase, when a friendly **HERETIC ASTARTES PSYKER** unit "
            "(excluding **DAEMON** units) is **selected to shoot**, if that unit makes a "
            "**Dark Pact**, that unit\u2019s ranged attacks have +1 **S**.",
            [
                "ranged: HERETIC ASTARTES PSYKER/NON-DAEMON units: +1 S if that unit makes a "
                "dark pact"
            ],
        ),
    ],
)
def test_army_phrasings_read_with_the_units_they_name(text: str, expected: list[str]) -> None:
    reading = read_rule(AbilityText("Rule", text), army=True)
    assert [e.text for e in reading.effects] == expected
    assert reading.status == "understood"


def test_a_rule_that_names_no_units_is_listed_not_applied_to_all() -> None:
    reading = read_rule(
        AbilityText("Odd", "That unit's melee attacks have +1 to **hit rolls**."), army=True
    )
    assert reading.status == "not understood"
    assert "names no units of the army" in reading.reason
    reading = read_rule(
        AbilityText("Lissen", "Friendly **STORMBOYZ** units have **BATTLELINE**."), army=True
    )
    assert reading.status == "not relevant"


def test_keyword_phrases_match_whole_keywords() -> None:
    boyz = Effect("invuln", 6, units=("BOYZ",))
    assert boyz.for_unit(["ORKS", "INFANTRY", "BOYZ", "MOB"])
    assert not boyz.for_unit(["ORKS", "INFANTRY", "BREAKA BOYZ"])  # a keyword, not a word
    assert Effect("hit", 1, units=("ORKS INFANTRY",)).for_unit(["INFANTRY", "ORKS"])
    assert not Effect("hit", 1, units=("ORKS INFANTRY",)).for_unit(["ORKS", "MONSTER"])
    with pytest.raises(mh.ProfileError, match="Effect.units"):
        Effect("hit", 1, units="ORKS")  # type: ignore[arg-type]


def melee_of(army: Any, name: str) -> Any:
    return {x.name: x for x in army.loadouts()}[f"{name} (melee)"]


def test_a_detachment_arms_the_units_it_names_exactly_as_by_hand() -> None:
    army = mh.read_roster(EXCERPT)
    horde = army.with_detachment(WAR_HORDE)
    target = mh.targets.get("Line infantry").unit
    melee = mh.Context(melee=True)
    for name in (BOYZ, "Beastboss on Squigosaur"):
        plain = melee_of(army, name)
        armed = melee_of(horde, name)
        by_hand = [
            (w.replace(abilities=(*w.abilities, SustainedHits.of(1))), n)
            for w, n in plain.weapon_counts
        ]
        got = mh.attack(list(armed.weapons), target, context=melee)
        want = mh.attack(by_hand, target, context=melee)
        assert got.killed.allclose(want.killed, atol=1e-12)
        assert (
            got.damage.mean() > mh.attack(list(plain.weapons), target, context=melee).damage.mean()
        )
    ranged = {x.name: x for x in horde.loadouts()}[f"{BOYZ} (ranged)"]
    assert not any("SUSTAINED" in w.abilities_text for w, _ in ranged.weapon_counts)


def test_a_detachment_guards_the_units_it_names_exactly_as_a_modifier() -> None:
    army = mh.read_roster(EXCERPT).with_detachment(RAMSHIP)
    led = {t.name: t for t in army.targets()}[BOYZ].unit
    bare = {t.name: t for t in mh.read_roster(EXCERPT).targets()}[BOYZ].unit
    strong = mh.Weapon("Heavy bolter", 3, 3, 6, -1, 2)  # S6 > T5: -1 to wound
    weak = mh.Weapon("Bolter", 2, 3, 4, 0, 1)  # S4: no change
    got = mh.attack([(strong, 4)], led)
    want = mh.attack([(strong, 4)], bare, modifiers=mh.Modifiers(wound=-1))
    assert got.killed.allclose(want.killed, atol=1e-12)
    assert got.rules_applied == (
        "Belligerent Boarders (ORKS/NON-GROTS units: -1 to wound rolls that target it if S > T)",
    )
    assert mh.attack([(weak, 10)], led).killed.allclose(mh.attack([(weak, 10)], bare).killed)
    # Green Tide names BOYZ units: Breaka Boyz are not (BREAKA BOYZ is their keyword)
    tide = mh.read_roster(EXCERPT).with_detachment(GREEN_TIDE)
    assert {t.name: t for t in tide.targets()}[BOYZ].unit == bare


def test_the_monte_carlo_agrees_on_a_led_unit_under_a_detachment() -> None:
    army = mh.read_roster(EXCERPT).with_detachment(WAR_HORDE)
    melee = melee_of(army, BOYZ)
    target = {t.name: t for t in army.targets()}["Beastboss on Squigosaur"].unit
    riled = mh.Context(melee=True, assume="riled up")
    exact = mh.attack(list(melee.weapons), target, context=riled)
    trials = 40_000
    rng = np.random.default_rng(11)
    mc = mh.simulate(list(melee.weapons), target, trials=trials, context=riled, rng=rng)
    sd = exact.damage.std() / np.sqrt(trials)
    assert abs(mc.damage.mean() - exact.damage.mean()) < 4 * sd
    # an unconditional granted ability is the weapon's own (duplicates not cumulative)
    assert "[SUSTAINED HITS 1]" in melee.weapon_counts[0][0].abilities_text
    assert exact.rules_applied == (
        "Sumfin' to Prove (melee: +1 to hit)",
        "Waaagh! (5+ invulnerable save if riled up)",
    )


def with_detachments(tmp_path: Path, *chosen: tuple[str, str, str]) -> Path:
    tree = json.loads(EXCERPT.read_text(encoding="utf-8"))
    force = tree["roster"]["forces"][0]
    picks = [
        {"name": name, "type": "upgrade", "number": 1,
         "rules": [{"name": rule, "description": text}]}
        for name, rule, text in chosen
    ]  # fmt: skip
    force["selections"].append(
        {"name": "Detachment", "type": "upgrade", "number": 1, "selections": picks}
    )
    path = tmp_path / "army.json"
    path.write_text(json.dumps(copy.deepcopy(tree)), encoding="utf-8")
    return path


def test_the_detachment_is_read_from_the_file(tmp_path: Path) -> None:
    rule = WAR_HORDE.rules[0]
    path = with_detachments(tmp_path, ("War Horde", rule.name, rule.text))
    army = mh.read_roster(path)
    assert army.detachment == Detachment("War Horde", (rule,), "Xenos - Orks")
    assert [e.text for e in army.army_rules.effects] == ["melee: ORKS units: [SUSTAINED HITS 1]"]
    assert army.loadouts() == army.with_detachment(WAR_HORDE).loadouts()
    assert army.with_detachment(None).loadouts() == mh.read_roster(EXCERPT).loadouts()
    # "Waaagh!", the force's rule, is each unit's own: not read twice
    assert "Waaagh!" in [r.name for r in army.rules]
    assert army.army_rules.unapplied == ()


def test_a_detachment_rule_not_understood_is_listed(tmp_path: Path) -> None:
    text = (
        "Each time a **BEAST SNAGGA** unit from your army is selected to fight, you can select "
        "one of the following: its attacks have [LETHAL HITS]; its attacks have [PRECISION]."
    )
    path = with_detachments(tmp_path, ("Da Big Hunt", "Da Hunt Is On", text),
                            ("War Horde", "Get Stuck In", WAR_HORDE.rules[0].text))  # fmt: skip
    army = mh.read_roster(path)
    assert army.detachment is not None and army.detachment.name == "Da Big Hunt"
    assert army.report is not None
    assert [(w, n) for w, n, _ in army.report.not_understood if w.startswith("army")] == [
        ("army (Da Big Hunt)", "Da Hunt Is On")
    ]
    assert any("a second detachment" in s.reason for s in army.report.skipped)


def test_the_catalogue_holds_each_factions_detachments(
    shared_catalogue: Callable[[str], mh.io.Catalogue],
) -> None:
    catalogue = shared_catalogue("bsdata-11e")
    orks = catalogue.faction("Orks")
    assert len(orks.detachments) == 15
    horde = orks.detachment("war horde")
    assert [e.text for e in read_rule(horde.rules[0], army=True).effects] == [
        "melee: ORKS units: [SUSTAINED HITS 1]"
    ]
    with pytest.raises(mh.OptionError, match="did you mean 'War Horde'"):
        orks.detachment("War Hord")
    army = mh.read_roster(EXCERPT)
    scored = {
        d.name: sum(
            mh.units.options.choose(x, mh.targets.get("Line infantry")).row["mean_killed"]
            for x in army.with_detachment(d).loadouts()
        )
        for d in orks.detachments
    }
    assert max(scored, key=scored.__getitem__) == "War Horde"


def test_a_roster_names_its_detachment(shared_data: Path) -> None:
    orks = mh.read_roster(shared_data / "rosters" / "11e_orks_breaka_boyz_nr_probhammer.json")
    assert orks.detachment is not None and orks.detachment.name == "Blitz Brigade"
    assert orks.army_rules.effects == ()  # charge and advance rolls only
    csm = mh.read_roster(shared_data / "rosters" / "11e_csm_chaos_lords_nr_probhammer.json")
    assert csm.detachment is not None and csm.detachment.name == "Cabal of Chaos"
    assert [c.value for e in csm.army_rules.effects for c in e.conditions] == [
        "that unit makes a dark pact"
    ] * 3


def test_compare_detachments_is_the_sum_of_the_units_rows() -> None:
    army = mh.read_roster(EXCERPT)
    targets = [mh.targets.get("Line infantry"), mh.targets.get("Vehicle")]
    table = mh.io.compare_detachments(army, [None, WAR_HORDE], targets)
    assert list(table.columns) == list(mh.io.roster.detachments.DETACHMENT_COLUMNS)
    for detachment in (None, WAR_HORDE):
        listed = army.with_detachment(detachment)
        for target in targets:
            rows = [mh.units.options.choose(x, target).row for x in listed.loadouts()]
            name = "none" if detachment is None else detachment.name
            got = table[(table.detachment == name) & (table.target == target.name)].iloc[0]
            assert got.mean_killed == pytest.approx(sum(r["mean_killed"] for r in rows), abs=1e-12)
            assert got.points_destroyed == pytest.approx(
                sum(r["points_destroyed"] for r in rows), abs=1e-12
            )
    armed = table[table.detachment == "War Horde"].iloc[0]
    assert armed.units_armed == 3
    assert armed.rules_applied == "Get Stuck In (melee: ORKS units: [SUSTAINED HITS 1])"
    with pytest.raises(mh.OptionError, match="detachments must be at least one"):
        mh.io.compare_detachments(army, [], targets)


def test_the_command_line_ranks_the_factions_detachments(
    shared_data: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from mathhammer.cli import main

    roster = shared_data / "rosters" / "11e_orks_breaka_boyz_nr_probhammer.json"
    out = tmp_path / "detachments.csv"
    catalogue = shared_data / "bsdata-11e" / "Orks.json"  # with the files it links
    args = ["detachments", str(roster), "--catalogue", str(catalogue)]
    assert main([*args, "--assume", "waaagh", "-o", str(out)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].startswith("War Horde ")
    assert any(line.startswith("Blitz Brigade *") for line in lines)
    import pandas as pd

    table = pd.read_csv(out)
    assert len(table) == 16 * 9  # none, the roster's own and 14 others; the standard suite
    assert main([*args, "--assume", "waagh"]) != 0
    assert "did you mean 'waaagh'?" in capsys.readouterr().err


def test_an_army_subject_that_contradicts_its_phase_is_not_read_not_raised() -> None:
    # "in the Fight phase" then "selected to shoot": both melee and ranged attacks; the
    # reading says so as for any sentence it cannot read, rather than raising
    text = (
        "In the Fight phase, each time a friendly ORKS unit is selected to shoot, "
        "add 1 to the Hit roll."
    )
    reading = read_rule(AbilityText("Odd", text), army=True)
    assert reading.effects == ()
    assert reading.status != "read"
