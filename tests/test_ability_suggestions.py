"""Mistyped weapon abilities: the warning names the token and the ability it most likely means."""

from __future__ import annotations

import pytest

import mathhammer as mh
from mathhammer.model.ability_text import suggest_ability


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("SUSTAINED HIT 1", "SUSTAINED HITS 1"),
        ("[sustained hit d3]", "SUSTAINED HITS D3"),
        ("LETHAL HIT", "LETHAL HITS"),
        ("DEVESTATING WOUNDS", "DEVASTATING WOUNDS"),
        ("ANTI-INFANTRY 4", "ANTI-INFANTRY 4+"),
        ("ANTI VEHICLE 2", "ANTI-VEHICLE 2+"),
        ("RAPID FIR 2", "RAPID FIRE 2"),
        ("TWIN LINKED", "TWIN-LINKED"),
        ("IGNORE COVER", "IGNORES COVER"),
        ("HAZARDUS", "HAZARDOUS"),
        ("PISTLE", "PISTOL"),
        ("LETHAL HIT: VEHICLE", "LETHAL HITS: VEHICLE"),
    ],
)
def test_close_misspellings_are_suggested_with_their_numbers(typed: str, meant: str) -> None:
    assert suggest_ability(typed) == meant
    # the suggestion is itself a known ability
    assert not mh.Weapon("w", 1, 3, 4, 0, 1, meant).unknown_abilities


@pytest.mark.parametrize("typed", ["Waaagh! energy", "HEAVY HITS", "", "ANTI-INFANTRY 9"])
def test_unrelated_tokens_get_no_suggestion(typed: str) -> None:
    assert suggest_ability(typed) is None


def test_the_warning_carries_the_suggestion() -> None:
    with pytest.warns(mh.UnknownAbilityWarning) as caught:
        weapon = mh.Weapon("Bolter", 2, 3, 4, 0, 1, "[SUSTAINED HIT 1], [LETHAL HITS]")
    message = str(caught[0].message)
    assert "'SUSTAINED HIT 1' (did you mean 'SUSTAINED HITS 1'?)" in message
    assert weapon.unknown_abilities == ("SUSTAINED HIT 1",)
    assert [str(a) for a in weapon.abilities] == ["[LETHAL HITS]"]
