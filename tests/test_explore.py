"""``mh.explore``: loadouts compared with controls in a notebook cell.

The state behind the controls is checked against :func:`mathhammer.attack` and a
hand-derived value; the controls (Panel widgets, driven as a notebook user drives them)
are checked to redraw the table and the curves with the numbers of the state.
"""

from __future__ import annotations

import time
from fractions import Fraction
from math import comb
from typing import Any

import pytest

import mathhammer as mh
from mathhammer.errors import OptionError, ProfileError
from mathhammer.page.explore import MAX_COUNT, ExploreState, explore_layout
from mathhammer.units.options import AttackOptions

pn = pytest.importorskip("panel")

BOLT = mh.Weapon("Bolt rifle", attacks=2, skill=3, strength=4, ap=-1, damage=1)
MELTA = mh.Weapon("Melta rifle", attacks=1, skill=3, strength=9, ap=-4, damage="D6")
LOADOUTS = {"bolters": ([(BOLT, 10)], 180), "meltas": [(MELTA, 4), (BOLT, 1)]}


def _capped_melta_damage(shots: int, p: Fraction, wounds: int) -> Fraction:
    """E[min(sum of the D6 of each unsaved shot, wounds)]: every die face enumerated."""
    total = Fraction(0)
    for n in range(shots + 1):
        sums = {0: Fraction(1)}
        for _ in range(n):
            nxt: dict[int, Fraction] = {}
            for s, q in sums.items():
                for face in range(1, 7):
                    nxt[s + face] = nxt.get(s + face, Fraction(0)) + q / 6
            sums = nxt
        weight = comb(shots, n) * p**n * (1 - p) ** (shots - n)
        total += weight * sum(min(s, wounds) * q for s, q in sums.items())
    return total


def test_the_state_gives_the_attack_of_each_loadout_at_its_counts() -> None:
    state = ExploreState.of(LOADOUTS, "Vehicle")
    state.set_count("meltas", 0, 6)
    state.set_count("meltas", 1, 0)
    state.hit = 1
    # 6 melta shots: hit on 2+ (BS3+, +1), wound T10 on 5+, AP-4 leaves no save; D6 each,
    # capped at the tank's 12 wounds
    expected = _capped_melta_damage(6, Fraction(5, 6) * Fraction(1, 3), 12)
    results = state.results()
    assert results["meltas"].damage.mean() == pytest.approx(float(expected), rel=1e-12)
    tank = mh.targets.get("Vehicle").unit
    same = mh.attack([(MELTA, 6)], tank, modifiers=mh.Modifiers(hit=1))
    assert results["meltas"].damage.pmf == pytest.approx(same.damage.pmf, abs=1e-15)
    frame = state.table().set_index("loadout")
    assert frame.loc["meltas", "mean_damage"] == pytest.approx(float(expected), rel=1e-12)
    # 20 bolt shots: 5/6 hit, 1/6 wound, half saved: 1.389 damage
    assert frame.loc["bolters", "mean_damage"] == pytest.approx(20 * 5 / 6 / 6 / 2)


def test_points_are_kept_only_at_the_loadouts_own_counts() -> None:
    state = ExploreState.of(LOADOUTS, "Vehicle")
    assert getattr(state.loadout("bolters"), "points", None) == 180
    state.set_count("bolters", 0, 5)
    changed = state.loadout("bolters")
    assert changed is not None and changed.points is None
    assert changed.weapons == ((BOLT, 5),)
    state.set_count("bolters", 0, 0)  # no weapon left: not drawn
    assert state.loadout("bolters") is None
    assert [x.name for x in state.drawn()] == ["meltas"]
    assert list(state.table().loadout) == ["meltas"]


def test_situation_rerolls_and_ruleset_reach_the_attack() -> None:
    state = ExploreState.of(LOADOUTS, ["Vehicle", "Elite infantry"])
    state.target, state.shown = "Elite infantry", ("bolters",)
    state.situation = ("half_range", "target_in_cover")
    state.reroll_hits, state.wound, state.rules = "ones", -1, "10e"
    unit = mh.targets.get("Elite infantry").unit
    context = mh.Context(half_range=True, target_in_cover=True)
    modifiers = mh.Modifiers(wound=-1, reroll_hits="ones")
    same = mh.attack([(BOLT, 10)], unit, rules="10e", context=context, modifiers=modifiers)
    assert state.results()["bolters"].killed.pmf == pytest.approx(same.killed.pmf, abs=1e-15)


@pytest.mark.parametrize(
    "change, error",
    [
        ({"count": MAX_COUNT + 1}, "count must be an integer"),
        ({"count": True}, "count must be an integer"),
        ({"index": 3}, "index must be a weapon entry"),
        ({"name": "nobody"}, "loadout must be one of 'bolters', 'meltas'"),
        ({"hit": 2}, "hit must be one of -1, 0, 1"),
        ({"target": "Titan"}, "target must be one of"),
        ({"situation": ("asleep",)}, "situation must be"),
        ({"reroll_hits": "all"}, "reroll_hits must be"),
    ],
)
def test_a_choice_no_control_offers_is_one_clear_error(change: dict[str, Any], error: str) -> None:
    state = ExploreState.of(LOADOUTS, "Vehicle")
    count = {"name": "bolters", "index": 0, "count": 1}
    with pytest.raises(OptionError, match=error):
        if set(change) <= set(count):
            state.set_count(**{**count, **change})
        else:
            for name, value in change.items():
                setattr(state, name, value)
            state.table()


def test_a_units_options_in_a_phase_are_offered_one_loadout_each() -> None:
    charged = mh.Context(charged=True)
    options = AttackOptions("Squad", [[(BOLT, 10)], [(MELTA, 2)]], "shooting", 90, charged)
    plain = mh.Loadout("Bolters", [(BOLT, 5)])
    state = ExploreState.of([options, plain], "Vehicle")
    names = ["Squad: 10x Bolt rifle", "Squad: 2x Melta rifle", "Bolters"]
    assert list(state.counts) == names
    assert state.shown == ("Squad: 10x Bolt rifle", "Bolters")  # a unit's first option
    state.shown = tuple(names)
    frame = state.table().set_index("loadout")
    assert list(frame.index) == names
    assert list(frame.loadout_points[:2]) == [90, 90]  # the unit's price, each option
    tank = mh.targets.get("Vehicle").unit
    same = mh.attack([(MELTA, 2)], tank, context=charged)
    assert frame.loc["Squad: 2x Melta rifle", "mean_damage"] == same.damage.mean()
    with pytest.raises(ProfileError, match="loadout names must be unique"):
        ExploreState.of([options, mh.Loadout("Squad: 2x Melta rifle", [(BOLT, 1)])])


def _widgets(layout: Any) -> dict[str, Any]:
    """The cell's widgets by label (a weapon's count by ``loadout/weapon``)."""
    found: dict[str, Any] = {}
    for card in layout.select(pn.Card):
        for widget in card.select(pn.widgets.IntInput):
            found[f"{card.title}/{widget.label}"] = widget
    for widget in layout.select(pn.widgets.Widget):
        label = getattr(widget, "label", "") or type(widget).__name__
        found.setdefault(label, widget)
    return found


def test_the_controls_redraw_the_table_and_the_curves_with_the_states_numbers() -> None:
    state = ExploreState.of(LOADOUTS, ["Vehicle", "Elite infantry"])
    cell = explore_layout(state)
    widgets = _widgets(cell)
    table = next(iter(cell.select(pn.widgets.Tabulator)))
    curves = next(iter(cell.select(pn.pane.Matplotlib)))
    before = table.value.set_index("loadout").mean_damage.to_dict()
    widgets["meltas/Melta rifle"].value = 6
    widgets["Hit modifier"].value = 1
    after = table.value.set_index("loadout").mean_damage.to_dict()
    tank = mh.targets.get("Vehicle").unit
    same = mh.attack([(MELTA, 6), (BOLT, 1)], tank, modifiers=mh.Modifiers(hit=1))
    assert after["meltas"] == pytest.approx(same.damage.mean(), rel=1e-12)
    assert after["meltas"] > before["meltas"]
    axes = curves.object.axes[0]
    assert [line.get_label() for line in axes.lines] == ["bolters", "meltas"]
    widgets["Loadouts"].value = ["meltas"]
    assert list(table.value.loadout) == ["meltas"]
    widgets["Target"].value = "Elite infantry"
    assert list(table.value.target) == ["Elite infantry"]


def test_a_change_answers_well_under_a_second() -> None:
    cell = explore_layout(ExploreState.of(LOADOUTS))
    widgets = _widgets(cell)
    widgets["Hit modifier"].value = 1
    widgets["Hit modifier"].value = 0
    started = time.perf_counter()
    widgets["Hit modifier"].value = 1  # computed before: every attack from the cache
    assert time.perf_counter() - started < 0.5
    started = time.perf_counter()
    widgets["bolters/Bolt rifle"].value = 7  # a new count: attacked afresh
    assert time.perf_counter() - started < 1.0


def test_explore_is_the_packages() -> None:
    cell = mh.explore({"bolters": [(BOLT, 10)]}, "Vehicle")
    assert cell.select(pn.widgets.Tabulator)
