"""Context and Modifiers: validation with clear messages."""

from __future__ import annotations

import re

import pytest

import mathhammer as mh


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (
            lambda: mh.Context(half_range="yes"),  # type: ignore[arg-type]
            "Context.half_range must be True or False; got 'yes'",
        ),
        (lambda: mh.Context(lethal_hits="always"), "Context.lethal_hits must be 'auto' or 'roll'"),
        (lambda: mh.Context(reroll_policy="ones"), "Context.reroll_policy must be 'failures' or"),
        (
            lambda: mh.Modifiers(hit=1.5),  # type: ignore[arg-type]
            "Modifiers.hit must be an integer from -20 to 20; got 1.5",
        ),
        (
            lambda: mh.Modifiers(critical_hit=1),
            "Modifiers.critical_hit must be an integer from 2 to 6",
        ),
        (
            lambda: mh.Modifiers(damage_multiply=0),
            "Modifiers.damage_multiply must be an integer from 1",
        ),
        (lambda: mh.Modifiers(reroll_hits="all"), "Modifiers.reroll_hits must be None or one of"),
        (lambda: mh.Modifiers(damage_set=0), "Modifiers.damage_set must be at least 1; got '0'"),
        (lambda: mh.Modifiers(damage_set="D"), "cannot read dice expression 'D'"),
    ],
)
def test_invalid_inputs(make, message: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError, match=re.escape(message)):
        make()


def test_heavy_eligibility() -> None:
    assert mh.Context(moved_at_most_3=True).heavy_eligible
    assert not mh.Context(remained_stationary=True, engaged=True).heavy_eligible
    assert not mh.Context(remained_stationary=True, set_up_this_turn=True).heavy_eligible


def test_attack_checks_its_context_and_modifiers() -> None:
    w = mh.Weapon("w", 1, 3, 4, 0, 1)
    unit = mh.Unit.of("u", 1, 4, 3, 1)
    with pytest.raises(mh.ProfileError, match="context must be a Context"):
        mh.attack(w, unit, context={"half_range": True})  # type: ignore[arg-type]
    with pytest.raises(mh.ProfileError, match="modifiers must be a Modifiers"):
        mh.simulate(w, unit, modifiers=1)  # type: ignore[arg-type]


def test_precision_group_must_be_a_character() -> None:
    unit = mh.Unit(
        "u",
        [
            mh.ModelGroup(3, 4, 3, 1, name="Guard"),
            mh.ModelGroup(1, 4, 3, 3, character=True, name="Boss"),
        ],
    )
    sniper = mh.Weapon("s", 1, 3, 4, 0, 1, "PRECISION")
    with pytest.raises(mh.ProfileError, match="Context.precision_group must be a CHARACTER group"):
        mh.attack(sniper, unit, context=mh.Context(precision_group="Guard"))
    res = mh.attack(sniper, unit, context=mh.Context(precision_group="Boss"))
    assert res.killed_in("Guard").mean() == 0


def test_numpy_scalars_are_accepted() -> None:
    import numpy as np

    # The fields are annotated with the stored builtins; __post_init__ converts numpy scalars.
    assert mh.Context(half_range=np.True_).half_range is True  # type: ignore[arg-type]
    hit = mh.Modifiers(hit=np.int64(1)).hit  # type: ignore[arg-type]
    assert hit == 1 and type(hit) is int
