"""One grammar for characteristics: Python, the CSV readers and the command line read
``3+`` and ``3`` alike, ``N/A`` for a TORRENT weapon's BS, and Ld as ``6+`` or ``8``."""

from __future__ import annotations

import itertools
import re
from fractions import Fraction
from pathlib import Path

import pytest

import mathhammer as mh
from mathhammer import CsvError, read_attackers, read_targets
from mathhammer.errors import ProfileError
from mathhammer.model.values import (
    parse_bs,
    parse_leadership,
    parse_optional_roll,
    parse_roll,
    parse_save,
    parse_skill,
    roll_text,
)

TOL = 1e-12


def write(tmp_path: Path, text: str, name: str = "in.csv") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# --------------------------------------------------------------------------- the grammar
@pytest.mark.parametrize("text", ["3+", "3", " 3+ ", "3 +", 3])
def test_a_roll_is_written_with_or_without_the_plus(text: str | int) -> None:
    assert parse_roll(text) == 3


@pytest.mark.parametrize("text", ["3++", "+3", "three", "3.0", "", "1+", "7+", "0", "D6"])
def test_a_roll_in_another_form_names_the_accepted_forms(text: str) -> None:
    with pytest.raises(ProfileError) as info:
        parse_roll(text, "--skill")
    assert str(info.value) == (
        f"--skill must be a roll from 2+ to 6+, written '3+' or '3'; got {text!r}"
    )
    assert info.value.field == "--skill" and info.value.value == text


def test_an_int_keeps_the_integer_message() -> None:
    with pytest.raises(
        ProfileError, match=re.escape("skill must be an integer from 2 to 6; got 7")
    ):
        parse_roll(7, "skill")
    with pytest.raises(ProfileError, match="must be an integer from 2 to 6; got True"):
        parse_roll(True)


def test_a_torrent_weapon_s_bs_is_n_a_only_where_torrent_is_known() -> None:
    for text in ("N/A", "n/a", "-", " - "):
        assert parse_skill(text, torrent_ok=True) == 2
        with pytest.raises(ProfileError, match=r"or 'N/A' for a \[TORRENT\] weapon; got") as info:
            parse_skill(text, field="--skill")
        assert "only for [TORRENT] weapons" in info.value.hint
    assert parse_skill("4+", torrent_ok=True) == 4 and parse_skill("4") == 4


def test_saves_and_optional_rolls() -> None:
    assert [parse_save(x) for x in ("2+", "6", "7+", "-", "N/A", "none", 7)] == [
        2,
        6,
        7,
        7,
        7,
        7,
        7,
    ]
    with pytest.raises(ProfileError, match="or '-' for no save; got ''"):
        parse_save("", "ModelGroup.save")  # an empty Sv is a slip, not "no save"
    assert [parse_optional_roll(x) for x in ("4+", "4", "-", "", "N/A", None, 5)] == [
        4, 4, None, None, None, None, 5,
    ]  # fmt: skip
    with pytest.raises(ProfileError, match="or '-' for none; got '7\\+'"):
        parse_optional_roll("7+", "ModelGroup.invuln")


def test_the_classic_bs_is_a_characteristic_not_a_roll() -> None:
    assert parse_bs("4") == 4 and parse_bs(10) == 10
    with pytest.raises(ProfileError, match="give skill= instead"):
        parse_bs("3+")
    with pytest.raises(ProfileError, match="1 to 10, written '4'; got '11'") as info:
        parse_bs("11")
    assert info.value.hint == ""


def two_d6_at_least(n: int) -> Fraction:
    rolls = [a + b for a, b in itertools.product(range(1, 7), repeat=2)]
    return Fraction(sum(r >= n for r in rolls), 36)


def two_d6_at_most(n: int) -> Fraction:
    rolls = [a + b for a, b in itertools.product(range(1, 7), repeat=2)]
    return Fraction(sum(r <= n for r in rolls), 36)


@pytest.mark.parametrize("n", range(2, 13))
def test_ld_n_plus_becomes_the_classic_ld_with_the_same_chance_of_passing(n: int) -> None:
    stored = parse_leadership(f"{n}+")
    assert two_d6_at_most(stored) == two_d6_at_least(n)  # enumerated over all 36 rolls


def test_ld_as_printed() -> None:
    # 11th-edition Ld 6+ (Space Marines) passes on 26/36, as classic Ld 8 did
    assert parse_leadership("6+") == 8 and two_d6_at_least(6) == Fraction(26, 36)
    assert parse_leadership("7+") == 7 and parse_leadership("6") == 6
    assert parse_leadership(9) == 9
    for bad in ("13+", "1+", "0", "13", "Ld6", "6++", ""):
        with pytest.raises(ProfileError, match=r"must be '6\+' \(11th edition") as info:
            parse_leadership(bad, "--leadership")
        assert info.value.field == "--leadership"


def test_roll_text() -> None:
    assert [roll_text(x) for x in (2, 6, None)] == ["2+", "6+", "-"]


# --------------------------------------------------------------------------- Python
def test_weapon_takes_the_skill_as_printed() -> None:
    printed = mh.Weapon("Bolt rifle", 2, skill="3+", strength=4, ap=-1)
    assert printed.skill == 3
    assert printed == mh.Weapon("Bolt rifle", 2, skill=3, strength=4, ap=-1)
    assert mh.Weapon("Bolt rifle", 2, skill="3", strength=4, ap=-1) == printed
    melee = mh.Weapon("Choppa", 3, skill="3+", strength=4, ap=-1, melee=True)
    assert melee.skill == 3
    assert mh.Weapon("Lasgun", 1, bs="3", strength=3).bs == 3


def test_weapon_refuses_other_forms_naming_the_accepted_ones() -> None:
    with pytest.raises(ProfileError) as info:
        mh.Weapon("Gun", 1, skill="3x", strength=4)
    assert str(info.value) == (
        "Weapon.skill must be a roll from 2+ to 6+, written '3+' or '3'; got '3x'"
    )
    with pytest.raises(ProfileError, match=r"Weapon.skill must .* \[TORRENT\] weapon; got 'N/A'"):
        mh.Weapon("Gun", 1, skill="N/A", strength=4)
    with pytest.raises(ProfileError, match="Weapon.bs must be the classic BS characteristic"):
        mh.Weapon("Gun", 1, bs="4+", strength=4)


def test_a_torrent_weapon_takes_n_a_and_hits_automatically() -> None:
    flamer = mh.Weapon("Flamer", 6, skill="N/A", strength=4, abilities="[TORRENT]")
    typed = mh.Weapon("Flamer", 6, skill="-", strength=4, abilities=[mh.abilities.Torrent()])
    assert flamer.skill == typed.skill == 2
    # 6 automatic hits, S4 vs T3 wounds on 3+ (2/3), no save: 4 wounds, W1, 10 models
    horde = mh.Unit.of("Horde", 10, 3, "-", 1)
    assert abs(mh.attack(flamer, horde).killed.mean() - 4.0) < TOL


def test_model_groups_and_units_take_characteristics_as_printed() -> None:
    printed = mh.ModelGroup(5, 4, save="3+", wounds=2, invuln="4+", fnp="5+", fnp_mortal="6")
    assert printed == mh.ModelGroup(5, 4, 3, 2, invuln=4, fnp=5, fnp_mortal=6)
    assert mh.ModelGroup(5, 3, "-", 1, invuln="-").save == 7
    unit = mh.Unit.of("Marines", 5, 4, "3+", 2, invuln="4+", fnp="6+", leadership="6+")
    assert (unit.groups[0].save, unit.groups[0].invuln, unit.groups[0].fnp) == (3, 4, 6)
    assert unit.leadership == 8
    assert mh.Unit("x", printed, leadership="7").leadership == 7
    with pytest.raises(ProfileError, match=r"Unit.leadership must be '6\+'"):
        mh.Unit("x", printed, leadership="6++")
    with pytest.raises(ProfileError, match=r"ModelGroup.fnp must be a roll .* for none; got '1\+'"):
        mh.ModelGroup(5, 4, 3, 2, fnp="1+")


def test_ld_6_plus_gives_the_panic_test_of_classic_ld_8() -> None:
    lasgun = mh.Weapon("Lasgun", attacks=1, bs=3, strength=3)
    printed = mh.Unit.of("Troops", 10, 3, "5+", 1, keywords="INFANTRY", leadership="6+")
    classic = mh.Unit.of("Troops", 10, 3, 5, 1, keywords="INFANTRY", leadership=8)
    a = mh.attack([(lasgun, 6)], printed, rules="classic")
    b = mh.attack([(lasgun, 6)], classic, rules="classic")
    assert a.p_panic_test is not None and a.p_panic_fail is not None
    # a test taken fails on 2D6 > 8: 10/36
    assert abs(a.p_panic_fail / a.p_panic_test - 10 / 36) < TOL
    assert a.p_panic_fail == b.p_panic_fail


# --------------------------------------------------------------------------- CSV
def test_the_attackers_csv_takes_bs_3_as_3_plus(tmp_path: Path) -> None:
    header = "unit,weapon,count,A,BS/WS,S,AP,D,abilities,points\n"
    plain = read_attackers(write(tmp_path, header + "Squad,Gun,5,2,3,4,-1,1,,90\n", "a.csv"))
    plus = read_attackers(write(tmp_path, header + "Squad,Gun,5,2,3+,4,-1,1,,90\n", "b.csv"))
    assert plain[0].weapon_counts == plus[0].weapon_counts
    assert plain[0].weapon_counts[0][0].skill == 3


def test_the_targets_csv_takes_rolls_and_ld_as_printed(tmp_path: Path) -> None:
    text = "unit,models,T,Sv,InSv,W,FNP,Ld\nMarines,5,4,3,4,2,6+,6+\nGuard,10,3,5+,-,1,,7\n"
    marines, guard = read_targets(write(tmp_path, text))
    group = marines.unit.groups[0]
    assert (group.save, group.invuln, group.fnp) == (3, 4, 6)
    assert marines.unit.leadership == 8 and guard.unit.leadership == 7


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ("U,5,4,3x,,1,,", ":2: column 'Sv': expected a roll written '3+' or '3'; got '3x'"),
        ("U,5,4,3+,4++,1,,", ":2: column 'InSv': expected a roll written '3+' or '3'; got '4++'"),
        ("U,5,4,3+,,1,,6++", ":2: column 'Ld': expected '6+' (11th edition: 2D6 >= 6 passes"),
        ("U,5,4,3+,,1,,13", ":2: column 'Ld': unit 'U': Unit.leadership must be an integer"),
    ],
)
def test_the_targets_csv_names_the_accepted_forms(tmp_path: Path, row: str, message: str) -> None:
    path = write(tmp_path, f"unit,models,T,Sv,InSv,W,FNP,Ld\n{row}\n")
    with pytest.raises(CsvError, match=re.escape(str(path) + message)):
        read_targets(path)
