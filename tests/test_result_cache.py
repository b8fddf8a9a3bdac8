"""The exact engine computes an attack once per value: a repeat with the same profiles
(whatever their names) against the same target reuses the distributions, under the
caller's labels, and never answers a different attack from the cache (issue 14)."""

from __future__ import annotations

import functools
import threading
from typing import Any

import numpy as np
import pytest

import mathhammer as mh
from mathhammer.core import caches
from mathhammer.exact.engine import RESULTS
from mathhammer.exact.layout import Layout
from mathhammer.examples import EXAMPLES
from mathhammer.rules.plan import as_plan, plan_pools

MELTA = mh.Weapon("Melta", 1, 3, 9, -4, "D6", "[MELTA 2]")
GUN = mh.Weapon("Gun", 2, 3, 4, -1, 1)
SQUAD = mh.Unit.of("Squad", 5, 4, 3, 2)


def dists(result: mh.AttackResult) -> list[np.ndarray]:
    """Every distribution of a result, in a fixed order (failed saves included)."""
    out = [result.killed.probabilities, result.damage.probabilities]
    out += [g.killed.probabilities for g in result.groups]
    for pool in result.pools:
        out += [d.probabilities for d in pool.stages().values()]
        out += [pool.killed.probabilities, pool.devastating.probabilities]
    return out


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.name)
def test_a_cached_result_is_the_computed_one_bit_for_bit(example: object) -> None:
    mh.clear_caches()
    fresh = mh.attack(example.weapons, example.target)  # type: ignore[attr-defined]
    again = mh.attack(example.weapons, example.target)  # type: ignore[attr-defined]
    assert again is fresh
    mh.clear_caches()
    recomputed = mh.attack(example.weapons, example.target)  # type: ignore[attr-defined]
    assert recomputed is not fresh
    for a, b in zip(dists(fresh), dists(recomputed), strict=True):
        assert np.array_equal(a, b)


def test_other_names_share_the_numbers_under_their_own_labels() -> None:
    mh.clear_caches()
    first = mh.attack([(GUN, 10), mh.MortalWounds(3)], SQUAD)
    rifle = mh.Weapon("Rifle", 2, 3, 4, -1, 1)
    second = mh.attack([(rifle, 10), mh.MortalWounds(3, name="Smite")], SQUAD)
    assert RESULTS.cache_info().items == 1
    assert [p.label for p in first.pools] == ["Gun x10", "Mortal wounds 3"]
    assert [p.label for p in second.pools] == ["Rifle x10", "Smite 3"]
    assert second.pools[0].weapons == ((rifle, 10),)
    assert second.killed is first.killed and second.pools[0].hits is first.pools[0].hits
    # the failed saves are computed once, on first access from either result
    assert second.pools[0].unsaved is first.pools[0].unsaved


MELEE = mh.Weapon("Melta", 1, 3, 9, -4, "D6", "[MELTA 2]", melee=True)


@pytest.mark.parametrize(
    ("change", "kwargs", "same_numbers"),
    [
        ("half range", {"context": mh.Context(half_range=True)}, False),
        ("a modifier", {"modifiers": mh.Modifiers(hit=1)}, False),
        (
            "more attacks",
            {"weapons": [(mh.Weapon("Melta", 2, 3, 9, -4, "D6", "[MELTA 2]"), 3)]},
            False,
        ),
        ("another count", {"weapons": [(MELTA, 4)]}, False),
        ("another target", {"target": mh.Unit.of("Squad", 5, 4, 3, 3)}, False),
        # AP-4 beats a 3+ and a 4+ save alike, and [MELTA] needs half range either way
        ("another save", {"target": mh.Unit.of("Squad", 5, 4, 4, 2)}, True),
        ("a melee profile", {"weapons": [(MELEE, 3)]}, True),
    ],
)
def test_a_different_attack_is_never_answered_from_the_cache(
    change: str, kwargs: dict[str, object], same_numbers: bool
) -> None:
    base: dict[str, object] = {"weapons": [(MELTA, 3)], "target": SQUAD}
    mh.clear_caches()
    cached = mh.attack(**base)  # type: ignore[arg-type]
    other = mh.attack(**{**base, **kwargs})  # type: ignore[arg-type]
    assert RESULTS.cache_info().items == 2 and other is not cached, change  # an entry of its own
    mh.clear_caches()
    fresh = mh.attack(**{**base, **kwargs})  # type: ignore[arg-type]
    for a, b in zip(dists(other), dists(fresh), strict=True):
        assert np.array_equal(a, b), change
    equal = all(
        a.shape == b.shape and np.array_equal(a, b)
        for a, b in zip(dists(cached), dists(other), strict=True)
    )
    assert equal == same_numbers, change


def test_the_classic_ruleset_has_its_own_entries() -> None:
    lasgun = mh.Weapon("Lasgun", attacks=1, bs=3, strength=3)
    troops = mh.Unit.of("Troops", 10, 3, 5, 1, keywords="INFANTRY", leadership=7)
    mh.clear_caches()
    classic = mh.attack([(lasgun, 6)], troops, rules="classic")
    assert classic.p_panic_test is not None and round(classic.p_panic_test, 4) == 0.0623
    assert mh.attack([(lasgun, 6)], troops, rules="classic") is classic


def test_threads_share_the_cache_and_agree_with_serial_results() -> None:
    cases = [(e.weapons, e.target) for e in EXAMPLES] * 4
    mh.clear_caches()
    serial = [dists(mh.attack(w, t)) for w, t in cases]
    mh.clear_caches()
    found: dict[int, list[np.ndarray]] = {}

    def work(offset: int) -> None:
        for i in range(offset, len(cases), 8):
            found[i] = dists(mh.attack(*cases[i]))

    threads = [threading.Thread(target=work, args=(k,)) for k in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for i, want in enumerate(serial):
        for a, b in zip(found[i], want, strict=True):
            assert np.array_equal(a, b)


def test_the_cache_is_bounded_and_registered() -> None:
    assert RESULTS in caches.registered()
    assert RESULTS.max_items == 32_768 and RESULTS.max_size == 192 * 2**20
    mh.clear_caches()
    for count in range(1, 30):
        mh.attack([(GUN, count)], SQUAD)
    items, size = RESULTS.cache_info()
    assert items == 29 and 0 < size < 29 * 200_000
    mh.clear_caches()
    assert RESULTS.cache_info() == (0, 0)


def test_a_result_larger_than_an_eighth_of_the_cache_is_not_kept(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from mathhammer.exact import engine

    monkeypatch.setattr(engine, "_footprint", lambda plan, result: RESULTS.max_size // 8 + 1)
    first = mh.attack([(GUN, 3)], SQUAD)
    assert RESULTS.cache_info().items == 0 and mh.attack([(GUN, 3)], SQUAD) is not first


def test_a_plan_is_made_once_for_the_same_inputs() -> None:
    mh.clear_caches()
    first = mh.plan_attack  # the uncached function stays as it was
    a = as_plan([(GUN, 10)], SQUAD, None, None, None)
    assert as_plan([(GUN, 10)], SQUAD, None, None, None) is a
    assert as_plan(((GUN, 10),), SQUAD, "11e", None, None) is a  # a tuple, the default rules
    assert first([(GUN, 10)], SQUAD) is not a
    # an unhashable entry is refused as before, with the same error, not a TypeError
    for _ in range(2):
        with pytest.raises(mh.ProfileError, match=r"weapons\[0\] must be a Weapon"):
            as_plan([[GUN, 10]], SQUAD, None, None, None)
    # a refused input is refused every time: errors are not cached
    for _ in range(2):
        with pytest.raises(mh.ProfileError):
            as_plan([(GUN, -1)], SQUAD, None, None, None)


def test_a_repeat_is_found_without_planning_and_refusals_still_refuse(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from mathhammer.exact import engine

    first = mh.attack([(GUN, 10)], SQUAD)
    planned: list[object] = []

    def counted(*args: Any) -> Any:
        planned.append(args)
        return as_plan(*args)

    def counted_plan(*args: Any, **kwargs: Any) -> Any:
        planned.append(args)
        return plan_pools(*args, **kwargs)

    monkeypatch.setattr(engine, "as_plan", counted)
    monkeypatch.setattr(engine, "plan_pools", counted_plan)
    first = mh.attack([(GUN, 10)], SQUAD)  # computed (and planned) once after the patch
    rifle = mh.Weapon("Rifle", 2, 3, 4, -1, 1)
    again = mh.attack(((rifle, 10),), SQUAD, rules="11e", context=mh.Context())
    assert len(planned) == 1 and again.killed is first.killed
    assert again.pools[0].label == "Rifle x10"
    # what the plan would refuse is still refused, cached results or not
    with pytest.raises(mh.ProfileError, match="context must be a Context"):
        mh.attack([(GUN, 10)], SQUAD, context="half range")  # type: ignore[arg-type]
    with pytest.raises(mh.RulesError):
        mh.attack([(GUN, 10)], SQUAD, rules="no such rules")
    with pytest.raises(mh.ProfileError):
        mh.attack([(GUN, 0)], SQUAD)
    assert len(planned) == 4


def _arrays_held(value: object, seen: set[int]) -> int:
    """The bytes of the numpy arrays a result reaches through its distributions, its
    pools' failed-saves sources (a partial's arguments, a layout's positions) and its
    state: what the footprint estimates, counted by walking it (each array once)."""
    if isinstance(value, np.ndarray):
        base = value if value.base is None else value.base
        if id(base) in seen or not isinstance(base, np.ndarray):
            return 0
        seen.add(id(base))
        return int(base.nbytes)
    if isinstance(value, mh.Dist):
        return _arrays_held(value.probabilities, seen) if value.held_bytes else 0
    if isinstance(value, functools.partial):
        return sum(_arrays_held(arg, seen) for arg in value.args)
    if isinstance(value, Layout):
        return _arrays_held(value.positions, seen)
    return 0


def _walked(result: mh.AttackResult) -> int:
    seen: set[int] = set()
    total = _arrays_held(result.killed, seen) + _arrays_held(result.damage, seen)
    total += sum(_arrays_held(g.killed, seen) for g in result.groups)
    for pool in result.pools:
        for held in (pool.killed, pool.devastating, pool.attacks, pool.hits, pool.wounds):
            total += _arrays_held(held, seen)
        total += _arrays_held(pool.unsaved_source, seen)
    if result.state is not None:
        total += _arrays_held(result.state.probabilities, seen)
        total += _arrays_held(result.state.positions, seen)
    return total


GUARD = mh.Unit(
    "Guard",
    [mh.ModelGroup(10, 4, 3, 2), mh.ModelGroup(1, 4, 2, 5, invuln=4, character=True)],
)


@pytest.mark.parametrize(
    ("weapons", "target"),
    [
        ([(GUN, 10)], SQUAD),  # the closed form, plain dice
        ([(mh.Weapon("Lance", 1, 3, 4, -1, 2, "[DEVASTATING WOUNDS]"), 60)], SQUAD),
        ([(mh.Weapon("Cannon", 1, 3, 4, -1, 2, "[SUSTAINED HITS 2]"), 40)], SQUAD),
        ([(mh.Weapon("Lance", 1, 3, 4, -1, 2, "[DEVASTATING WOUNDS]"), 60)], GUARD),  # layout
        ([(GUN, 10), mh.MortalWounds("D6"), (MELTA, 2)], GUARD),
    ],
)
def test_the_footprint_bounds_the_arrays_a_result_holds(weapons: Any, target: mh.Unit) -> None:
    """The footprint, taken from the plan's sizes, is at least the bytes of the arrays the
    result keeps (walked here), so that the cache's bound on its memory holds."""
    from mathhammer.exact import engine

    plan = as_plan(weapons, target, None, None, None)
    result = engine.run(plan)
    assert engine._footprint(plan, result) >= _walked(result)
