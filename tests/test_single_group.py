"""The closed form for a one-group target equals the engine on the target's layout.

:mod:`mathhammer.exact.single` replaces, for a target of one model group, the layout,
its damage matrix and the sorted-dice chain by a binomial thinning and a banded
transition. Every distribution of the result (killed, damage, per pool: hits, wounds,
killed so far, failed saves) is checked against the layout's engine on a registry of
cases, and its states and transition against the layout's own.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from example_ruleset import NAME as SIX_SAVES

import mathhammer as mh
from mathhammer.core.dist import Dist
from mathhammer.exact import on_layout, on_line, single
from mathhammer.exact.layout import Layout, damage_matrix
from mathhammer.model.pools import MortalWounds
from mathhammer.model.unit import ModelGroup, Unit
from mathhammer.rules import EleventhEdition
from mathhammer.rules.plan import as_plan

ATOL = 1e-12

BOLTER = mh.Weapon("Bolter", 2, 3, 4, 0, 1)
PLASMA = mh.Weapon("Plasma", 1, 3, 7, -2, "D6")
MELTA = mh.Weapon("Melta", 1, 3, 9, -4, "D6", abilities="[MELTA 2]")
CHAIN = mh.Weapon("Chain", "D6", 3, 4, 0, 1, abilities="[SUSTAINED HITS 1], [LETHAL HITS]")
HAZARD = mh.Weapon("Hazard", 2, 4, 8, -3, 2, abilities="[HAZARDOUS]")
TORRENT = mh.Weapon("Flamer", "D6", 3, 4, 0, 1, abilities="[TORRENT]")
D3 = mh.Weapon("Launcher", "D3", 4, 5, -1, "D3")
POWER = mh.Weapon("Power weapon", 1, 3, 5, -1, "D3")

#: name -> (weapons, target, keyword arguments of attack)
CASES: dict[str, tuple[Any, Unit, dict[str, Any]]] = {
    "W1 line": ([(BOLTER, 10)], Unit.of("Line", 10, 4, 3, 1), {}),
    "D6 vs W4": ([(PLASMA, 6)], Unit.of("Bikers", 5, 5, 3, 4), {}),
    "FNP": ([(D3, 12)], Unit.of("Zombies", 5, 4, 3, 3, fnp=5), {}),
    # a number of dice against a small line: the power of one die's transition
    "FNP, a number of dice": ([(POWER, 12)], Unit.of("Zealots", 5, 4, 3, 3, fnp=5), {}),
    "a number of dice, then more": (
        [(POWER, 7), (PLASMA, 16)],
        Unit.of("Squad", 8, 4, 3, 2, fnp=6),
        {},
    ),
    "vehicle": ([(MELTA, 4)], Unit.of("Tank", 1, 10, 3, 12), {}),
    "invulnerable": ([(PLASMA, 8)], Unit.of("Terminators", 5, 5, 2, 3, invuln=4), {}),
    "pre-wounded": (
        [(PLASMA, 6)],
        Unit("Wounded", [ModelGroup(3, 5, 3, 4, wounds_lost=3)]),
        {},
    ),
    "three pools": (
        [(BOLTER, 10), (PLASMA, 3), (D3, 4)],
        Unit.of("Squad", 6, 4, 3, 2),
        {},
    ),
    "sustained and lethal": ([(CHAIN, 8)], Unit.of("Guard", 10, 3, 5, 1), {}),
    "torrent": ([(TORRENT, 3)], Unit.of("Guard", 10, 3, 5, 1), {}),
    "hazardous": ([(HAZARD, 5)], Unit.of("Elite", 3, 4, 3, 3), {}),
    "half damage": ([(PLASMA, 6)], Unit("Dread", ModelGroup(1, 9, 2, 12, damage_reduction=1)), {}),
    "modifiers": (
        [(PLASMA, 6)],
        Unit.of("Bikers", 5, 5, 3, 4),
        {"modifiers": mh.Modifiers(hit=1, reroll_wounds="ones")},
    ),
    "cover": (
        [(BOLTER, 10)],
        Unit.of("Line", 10, 4, 4, 1),
        {"context": mh.Context(target_in_cover=True)},
    ),
    "banded (over 320 states)": ([(PLASMA, 120)], Unit.of("Horde", 120, 4, 5, 3), {}),
    "banded with FNP": ([(D3, 90)], Unit.of("Horde", 110, 4, 5, 3, fnp=6), {}),
    "certain damage past the wounds left": (
        [(mh.Weapon("Rifle", 1, 3, 5, -1, 2), 8)],
        Unit("Wounded", [ModelGroup(4, 4, 3, 3, wounds_lost=1)]),
        {},
    ),
    "certain damage after a spread of states": (
        [(PLASMA, 3), (BOLTER, 10)],
        Unit.of("Squad", 6, 4, 3, 2),
        {},
    ),
    "random attacks with [BLAST]": (
        [(mh.Weapon("Frag", "D6", 4, 4, 0, 1, abilities="[BLAST]"), 3)],
        Unit.of("Mob", 11, 4, 6, 1),
        {},
    ),
    "one pool of fixed and random attacks": (
        [(mh.Weapon("Pistol", 1, 3, 4, 0, 1), 3), (mh.Weapon("Rifle", "D3", 3, 4, 0, 1), 2)],
        Unit.of("Squad", 5, 4, 4, 1),
        {},
    ),
    "anti without devastating wounds": (
        [(mh.Weapon("Anti", 2, 3, 4, 0, 1, abilities="[ANTI-INFANTRY 4+]"), 5)],
        Unit.of("Guard", 10, 3, 5, 1, keywords="INFANTRY"),
        {"modifiers": mh.Modifiers(reroll_hits="failures")},
    ),
    "devastating wounds": (
        [(mh.Weapon("Dev", 1, 3, 4, 0, 2, abilities="[DEVASTATING WOUNDS]"), 10)],
        Unit.of("Squad", 5, 4, 3, 2),
        {},
    ),
    "devastating wounds, random damage and Feel No Pain": (
        [(mh.Weapon("Dev", "D3", 3, 5, -1, "D3", abilities="[DEVASTATING WOUNDS]"), 6)],
        Unit.of("Zombies", 6, 4, 3, 3, fnp=5),
        {},
    ),
    "devastating wounds with anti, sustained and lethal hits": (
        [
            (
                mh.Weapon(
                    "Dev",
                    2,
                    3,
                    4,
                    -1,
                    2,
                    abilities="[ANTI-INFANTRY 4+], [DEVASTATING WOUNDS], [SUSTAINED HITS 1], "
                    "[LETHAL HITS]",
                ),
                5,
            )
        ],
        Unit.of("Guard", 10, 3, 5, 1, keywords="INFANTRY"),
        {},
    ),
    "devastating wounds past the wounds of a pre-wounded unit": (
        [(mh.Weapon("Dev", 2, 2, 6, -2, "D6", abilities="[DEVASTATING WOUNDS]"), 8)],
        Unit("Wounded", [ModelGroup(2, 6, 3, 4, wounds_lost=2)]),
        {},
    ),
    "devastating wounds against mortal-wound Feel No Pain": (
        [(mh.Weapon("Dev", 3, 3, 4, 0, 1, abilities="[DEVASTATING WOUNDS]"), 4), (PLASMA, 3)],
        Unit("Psykers", [ModelGroup(4, 4, 4, 2, fnp_mortal=4)]),
        {},
    ),
    "devastating wounds, banded (over 320 states)": (
        [(mh.Weapon("Dev", 1, 3, 4, 0, "D3", abilities="[DEVASTATING WOUNDS]"), 60)],
        Unit.of("Horde", 120, 4, 5, 3),
        {},
    ),
    "classic": (
        [(mh.Weapon("Lasgun", 1, bs=3, strength=3), 12)],
        Unit.of("Troops", 10, 3, 5, 1, keywords="INFANTRY", leadership=7),
        {"rules": "classic"},
    ),
    "another ruleset": ([(PLASMA, 6)], Unit.of("No save", 4, 4, 7, 2), {"rules": SIX_SAVES}),
}


def _plan(name: str) -> Any:
    weapons, target, kwargs = CASES[name]
    return as_plan(
        weapons, target, kwargs.get("rules"), kwargs.get("context"), kwargs.get("modifiers")
    )


def _close(a: Dist, b: Dist) -> None:
    x, y = a.probabilities, b.probabilities
    assert len(x) == len(y)
    np.testing.assert_allclose(x, y, rtol=0, atol=ATOL)


@pytest.mark.parametrize("name", list(CASES))
def test_the_closed_form_equals_the_layout_engine(name: str) -> None:
    plan = _plan(name)
    fast = on_line.run_line(plan)
    assert fast is not None, "the closed form applies to every case of the registry"
    general = on_layout.run_layout(plan)
    _close(fast.killed, general.killed)
    _close(fast.damage, general.damage)
    for group, other in zip(fast.groups, general.groups, strict=True):
        assert group.damage is not None and other.damage is not None
        _close(group.killed, other.killed)
        _close(group.damage, other.damage)
    for pool, same in zip(fast.pools, general.pools, strict=True):
        for field in ("attacks", "hits", "wounds", "killed", "devastating", "unsaved"):
            _close(getattr(pool, field), getattr(same, field))
        assert pool.label == same.label and pool.abilities == same.abilities
    _close(fast.hazardous, general.hazardous)
    for t_fast, t_general in zip(fast.tests, general.tests, strict=True):
        assert t_fast.name == t_general.name
        assert t_fast.p_taken == pytest.approx(t_general.p_taken, abs=ATOL)
        assert t_fast.p_failed == pytest.approx(t_general.p_failed, abs=ATOL)
    assert 0.0 <= fast.trimmed <= 1e-17 and 0.0 <= general.trimmed <= 1e-17
    assert fast.killed.probabilities.sum() == pytest.approx(1.0, abs=ATOL)


def test_attack_takes_the_closed_form_for_one_group(monkeypatch: pytest.MonkeyPatch) -> None:
    """``attack`` computes a one-group case without a layout (none is built)."""

    def refuse(*args: Any, **kwargs: Any) -> Layout:
        raise AssertionError("a layout was built")

    monkeypatch.setattr(Layout, "of", refuse)
    res = mh.attack([(PLASMA, 6)], Unit.of("Bikers", 5, 5, 3, 4))
    assert res.killed.mean() > 0


@pytest.mark.parametrize(
    "weapons, target, kwargs",
    [
        pytest.param(
            [(BOLTER, 10)],
            Unit("Two groups", [ModelGroup(5, 4, 3, 1), ModelGroup(1, 4, 2, 4, character=True)]),
            {},
            id="two groups",
        ),
        pytest.param(
            [(BOLTER, 10), MortalWounds("D3", "Smite")],
            Unit.of("Squad", 5, 4, 3, 2),
            {},
            id="a mortal-wound step",
        ),
    ],
)
def test_the_closed_form_leaves_what_it_does_not_cover(
    weapons: Any, target: Unit, kwargs: dict[str, Any]
) -> None:
    plan = as_plan(weapons, target, None, None, None)
    assert on_line.run_line(plan) is None
    assert mh.attack(weapons, target).killed.probabilities.sum() == pytest.approx(1.0)


def test_a_ruleset_with_its_own_allocation_order_uses_the_layout() -> None:
    class Backwards(EleventhEdition):
        name = "backwards"

        def current_group(self, alive: Any, wounded: Any, character: Any, focus: Any) -> Any:
            return super().current_group(alive, wounded, character, focus)

    plan = as_plan([(BOLTER, 10)], Unit.of("Line", 10, 4, 3, 1), Backwards(), None, None)
    assert on_line.run_line(plan) is None


def test_a_chain_past_its_work_bound_goes_to_the_layout(monkeypatch: pytest.MonkeyPatch) -> None:
    plan = _plan("D6 vs W4")
    monkeypatch.setattr(on_line, "LINE_WORK", 10)
    assert on_line.run_line(plan) is None


@pytest.mark.parametrize(
    "group",
    [
        ModelGroup(10, 4, 3, 1),
        ModelGroup(5, 4, 3, 4),
        ModelGroup(3, 5, 3, 4, wounds_lost=3),
        ModelGroup(1, 10, 3, 12, wounds_lost=5),
        ModelGroup(120, 4, 5, 3),
    ],
)
@pytest.mark.parametrize(
    "damage",
    [[0.0, 1.0], [0.0, *[1 / 6] * 6], [0.2, 0.3, 0.5], [0.0] * 8 + [1.0], [0.5, 0.5]],
)
def test_the_line_is_the_layout_of_one_group(group: ModelGroup, damage: list[float]) -> None:
    line = single.Line(group)
    layout = Layout(Unit("u", [group]))
    assert line.size + 1 == layout.size
    assert line.killed.tolist() == layout.killed.tolist()
    assert line.left.tolist() == layout.wounds_left(layout.current_group()).tolist()
    pmf = np.asarray(damage)
    matrix = damage_matrix(layout, [Dist(pmf)], sparse=True)
    assert not isinstance(matrix, np.ndarray)
    expected = np.asarray(matrix.todense())
    t = line.transition(pmf)
    if not line.dense:
        dense = np.zeros_like(expected)
        for d in range(len(t)):
            idx = np.arange(line.size + 1 - d)
            dense[idx, idx + d] = t[d, : line.size + 1 - d]
        t = dense
    np.testing.assert_allclose(t, expected, rtol=0, atol=1e-15)


def test_the_line_by_hand() -> None:
    """Two W2 models, 2 dice failing on 1/2, each D1: 0, 1 or 2 wounds lost as 1:2:1, and
    a model destroyed only when both fail."""
    line = single.Line(ModelGroup(2, 4, 3, 2))
    start = np.zeros(line.size + 1)
    start[0] = 1.0
    failed = single.failed_saves(np.array([0.0, 0.0, 1.0]), np.array([0.0, 1.0]), 0.5)
    assert failed.tolist() == [0.25, 0.5, 0.25]
    after = line.apply(start, failed, np.array([0.0, 1.0]))
    assert after.tolist() == [0.25, 0.5, 0.25, 0.0, 0.0]
    killed = np.bincount(line.killed, weights=after)
    assert killed.tolist() == [0.75, 0.25, 0.0]
