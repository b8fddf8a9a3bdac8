"""Properties of the exact engine (hypothesis), docs/architecture.md §4.4.

Monotonicity
    Couple two attacks die by die (same faces, same damage and FNP rolls per die). The state
    of the target is a position on the line of model-wound states and only moves forward.
    One die moves a state ``s`` at most to ``s + d`` or to the next model's first state, so
    if ``s <= s'`` before a die, then ``s <= s'`` after it, whatever the groups' saves (in the
    same model both see the same group). Hence, pathwise and so in distribution:

    * a better defence (lower Sv, an invulnerable save, a better FNP) saves a superset of faces
      and never raises models destroyed or wounds lost: ``P(>= k)`` and the mean never go up;
    * an extra die inserted into the sorted pool only moves the state forward, so more attacks
      (or a higher S, which wounds more often) never lower them, for mixed units too,
      as long as the pooling of the weapons is unchanged.

Pooling
    Pooling depends on the profile only (docs/rules.md §2.4, D10), so ``[(w, 3)]``,
    ``[w, w, w]`` and ``[(w, 1), (w, 2)]`` give the same result, and a renamed copy of ``w``
    joins its pool.
    For a *homogeneous* unit every model saves the same faces, so which die meets which model
    does not matter: splitting identical attacks into two pools (here by the ``[ASSAULT]``
    tag, which has no effect on the maths but makes a different pool) gives the same final
    distribution, whatever W, FNP, random damage or a wounded first model. For a *mixed* unit
    it does not: sorting the pooled dice sends the lowest one to the first group (a
    hand-derived example at the end).

Abilities, context and modifiers (docs/rules.md §3), by the same coupling
    * [SUSTAINED HITS X] adds extra hits to a Critical Hit and changes nothing else: extra
      dice are inserted, so kills never go down.
    * [LETHAL HITS] replaces the wound roll of a Critical Hit by an automatic wound: the set
      of wounds only grows. (Not with [DEVASTATING WOUNDS]: an automatic wound is not a
      Critical Wound, so it goes to the save step instead of skipping it, and kills can go
      down; the property is only asserted without it.) Declining it
      (``lethal_hits="roll"``) is the same as not having it.
    * Re-rolling natural 1s or failed results only turns failures into successes (a die is
      re-rolled at most once), and +1 to hit or to wound only adds faces that succeed: kills
      never go down. (Re-rolling every non-critical result can turn a success into a failure,
      so it is not asserted.)
    * Cover (or Stealth) worsens BS by one: a subset of faces hit, so kills never go up.

Tolerances: 1e-9 for inequalities, 1e-10 for identities between two exact computations.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import numpy as np
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import mathhammer as mh

SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
INEQ = 1e-9
IDENT = 1e-10

Entries = list[tuple[mh.Weapon, int]]

ATTACKS: st.SearchStrategy[int | str] = st.sampled_from([1, 2, 3, "D3", "D6"])
DAMAGE: st.SearchStrategy[int | str] = st.sampled_from([1, 2, 3, "D3", "D6", "D6+1"])
SAVES = st.integers(2, 7)
THRESHOLDS = st.one_of(st.none(), st.integers(3, 6))


@st.composite
def weapons(draw: st.DrawFn, name: str = "w") -> mh.Weapon:
    return mh.Weapon(
        name,
        attacks=draw(ATTACKS),
        skill=draw(st.integers(2, 6)),
        strength=draw(st.integers(1, 12)),
        ap=draw(st.integers(-4, 0)),
        damage=draw(DAMAGE),
    )


@st.composite
def weapon_lists(draw: st.DrawFn) -> Entries:
    n = draw(st.integers(1, 3))
    return [(draw(weapons(name=f"w{i}")), draw(st.integers(1, 3))) for i in range(n)]


@st.composite
def homogeneous_units(draw: st.DrawFn) -> mh.Unit:
    wounds = draw(st.integers(1, 4))
    group = mh.ModelGroup(
        draw(st.integers(1, 6)),
        toughness=draw(st.integers(2, 10)),
        save=draw(SAVES),
        wounds=wounds,
        invuln=draw(THRESHOLDS),
        fnp=draw(THRESHOLDS),
        wounds_lost=draw(st.integers(0, wounds - 1)),
    )
    return mh.Unit("homogeneous", [group])


@st.composite
def mixed_units(draw: st.DrawFn) -> mh.Unit:
    groups = []
    keys = set()
    for i in range(draw(st.integers(1, 2))):
        wounds = draw(st.integers(1, 3))
        g = mh.ModelGroup(
            draw(st.integers(1, 3)),
            toughness=draw(st.integers(2, 8)),
            save=draw(SAVES),
            wounds=wounds,
            invuln=draw(THRESHOLDS),
            fnp=draw(THRESHOLDS),
            name=f"body{i}",
            wounds_lost=draw(st.integers(0, wounds - 1)) if i == 0 else 0,
        )
        key = (g.wounds, g.save, g.invuln)
        assume(key not in keys)
        keys.add(key)
        groups.append(g)
    if draw(st.booleans()):
        wounds = draw(st.integers(1, 5))
        groups.append(
            mh.ModelGroup(
                1,
                toughness=draw(st.integers(2, 8)),
                save=draw(SAVES),
                wounds=wounds,
                invuln=draw(THRESHOLDS),
                fnp=draw(THRESHOLDS),
                character=True,
                name="character",
                wounds_lost=draw(st.integers(0, wounds - 1)),
            )
        )
    return mh.Unit("mixed", groups)


UNITS = st.one_of(homogeneous_units(), mixed_units())


def assert_not_more(better: mh.AttackResult, worse: mh.AttackResult) -> None:
    """``better`` is stochastically no larger than ``worse`` in kills and damage."""
    for a, b in ((better.killed, worse.killed), (better.damage, worse.damage)):
        ks = np.arange(max(a.n, b.n) + 2)
        assert np.all(a.at_least(ks) <= b.at_least(ks) + INEQ)
        assert a.mean() <= b.mean() + INEQ


def assert_same(a: mh.AttackResult, b: mh.AttackResult, atol: float = IDENT) -> None:
    assert a.killed.allclose(b.killed, atol=atol)
    assert a.damage.allclose(b.damage, atol=atol)
    assert abs(a.p_destroyed - b.p_destroyed) <= atol
    for ga, gb in zip(a.groups, b.groups, strict=True):
        assert ga.killed.allclose(gb.killed, atol=atol)


def replace_group(unit: mh.Unit, index: int, **changes: int) -> mh.Unit:
    groups = list(unit.groups)
    # The changes are int characteristics (save, invuln, fnp); mypy checks a **dict against
    # every field, the bool and str ones included, and replace() checks the names at run time.
    groups[index] = dataclasses.replace(groups[index], **changes)  # type: ignore[arg-type]
    try:
        return mh.Unit(unit.name, groups)
    except mh.AllocationOrderError:
        assume(False)  # the change merged two groups: not the same unit shape
        raise


# --------------------------------------------------------------------------- monotonicity
@SETTINGS
@given(unit=UNITS, ws=weapon_lists(), data=st.data())
def test_a_better_save_never_raises_kills(unit: mh.Unit, ws: Entries, data: st.DataObject) -> None:
    i = data.draw(st.integers(0, len(unit.groups) - 1), label="group")
    g = unit.groups[i]
    assume(g.save > 2)
    better = replace_group(unit, i, save=g.save - data.draw(st.integers(1, g.save - 2)))
    assert_not_more(mh.attack(ws, better), mh.attack(ws, unit))


@SETTINGS
@given(unit=UNITS, ws=weapon_lists(), data=st.data())
def test_a_better_invuln_or_fnp_never_raises_kills(
    unit: mh.Unit, ws: Entries, data: st.DataObject
) -> None:
    i = data.draw(st.integers(0, len(unit.groups) - 1), label="group")
    which = data.draw(st.sampled_from(["invuln", "fnp"]), label="characteristic")
    current = getattr(unit.groups[i], which)
    now = 7 if current is None else current
    assume(now > 2)
    better = replace_group(unit, i, **{which: data.draw(st.integers(2, now - 1))})
    assert_not_more(mh.attack(ws, better), mh.attack(ws, unit))


@SETTINGS
@given(unit=UNITS, ws=weapon_lists(), data=st.data())
def test_more_attacks_never_lower_kills(unit: mh.Unit, ws: Entries, data: st.DataObject) -> None:
    j = data.draw(st.integers(0, len(ws) - 1), label="entry")
    more = list(ws)
    more[j] = (ws[j][0], ws[j][1] + data.draw(st.integers(1, 2)))
    assert_not_more(mh.attack(ws, unit), mh.attack(more, unit))


@SETTINGS
@given(unit=UNITS, w=weapons(), n=st.integers(1, 4), extra=st.integers(1, 6))
def test_a_higher_strength_never_lowers_kills(
    unit: mh.Unit, w: mh.Weapon, n: int, extra: int
) -> None:
    assert isinstance(w.strength, int)  # weapons() always draws a fixed one
    stronger = w.replace(strength=w.strength + extra)
    assert_not_more(mh.attack([(w, n)], unit), mh.attack([(stronger, n)], unit))


@SETTINGS
@given(unit=UNITS, ws=weapon_lists(), data=st.data())
def test_a_higher_strength_never_lowers_kills_among_other_pools(
    unit: mh.Unit, ws: Entries, data: st.DataObject
) -> None:
    j = data.draw(st.integers(0, len(ws) - 1), label="entry")
    stronger = list(ws)
    w = ws[j][0]
    assert w.strength is not None  # weapons() always draws one
    stronger[j] = (
        w.replace(strength=int(w.strength) + data.draw(st.integers(1, 6))),
        ws[j][1],
    )
    # the pooling must not change (raising S could merge two pools)
    assume(len(mh.gather_pools(stronger)) == len(mh.gather_pools(ws)))
    assert_not_more(mh.attack(ws, unit), mh.attack(stronger, unit))


# --------------------------------------------------------------------------- pooling
@SETTINGS
@given(unit=UNITS, w=weapons())
def test_equivalent_weapon_lists_pool_identically(unit: mh.Unit, w: mh.Weapon) -> None:
    ref = mh.attack([(w, 3)], unit)
    spellings: tuple[mh.WeaponsLike, ...] = ([w, w, w], [(w, 1), (w, 2)], [(w, 2), w])
    for spelling in spellings:
        res = mh.attack(spelling, unit)
        assert len(res.pools) == 1
        assert_same(res, ref)
        for stage in ("attacks", "hits", "wounds", "unsaved", "killed"):
            assert getattr(res.pools[0], stage).allclose(getattr(ref.pools[0], stage), atol=IDENT)


@SETTINGS
@given(unit=UNITS, w=weapons(), a=st.integers(1, 3), b=st.integers(1, 3))
def test_a_renamed_weapon_joins_the_pool(unit: mh.Unit, w: mh.Weapon, a: int, b: int) -> None:
    renamed = w.replace(name="Sergeant's " + w.name)
    res = mh.attack([(w, a), (renamed, b)], unit)
    assert len(res.pools) == 1
    assert_same(res, mh.attack([(w, a + b)], unit))


@SETTINGS
@given(unit=UNITS, w=weapons(), other=ATTACKS)
def test_a_renamed_weapon_with_other_attacks_joins_the_pool(
    unit: mh.Unit, w: mh.Weapon, other: int | str
) -> None:
    # the A characteristic is not part of the pool key: each weapon rolls its own A
    sarge = w.replace(name="Sergeant", attacks=other)
    res = mh.attack([(w, 2), sarge], unit)
    assert len(res.pools) == 1
    expected = 2 * mh.parse_dice(w.attacks).mean + mh.parse_dice(other).mean
    assert abs(res.pools[0].attacks.mean() - expected) <= IDENT
    swapped = mh.attack([sarge, (w, 2)], unit)
    assert_same(res, swapped)


@SETTINGS
@given(unit=homogeneous_units(), w=weapons(), a=st.integers(1, 4), b=st.integers(1, 4))
def test_splitting_a_pool_does_not_matter_for_a_homogeneous_unit(
    unit: mh.Unit, w: mh.Weapon, a: int, b: int
) -> None:
    tagged = w.replace(abilities="[ASSAULT]")  # no effect, but its own pool
    split = mh.attack([(w, a), (tagged, b)], unit)
    assert len(split.pools) == 2
    assert_same(split, mh.attack([(w, a + b)], unit))
    assert_same(mh.attack([(tagged, b), (w, a)], unit), split)


@SETTINGS
@given(unit=UNITS, ws=weapon_lists())
def test_mass_is_conserved(unit: mh.Unit, ws: Entries) -> None:
    res = mh.attack(ws, unit)
    dists = [res.killed, res.damage] + [g.killed for g in res.groups]
    for p in res.pools:
        dists += [p.attacks, p.hits, p.wounds, p.unsaved, p.killed]
    for d in dists:
        assert abs(float(d.probabilities.sum()) - 1.0) <= 1e-12
        assert np.all(d.probabilities >= 0.0)
    assert res.killed.support()[1] <= unit.models
    assert res.damage.support()[1] <= unit.total_wounds


def test_pooling_matters_for_a_mixed_unit() -> None:
    # A hard bodyguard (W1 Sv2+) and a CHARACTER with no save (W1 Sv7); two dice that hit on
    # 2+ and wound on 2+: each reaches the save step with p = 25/36.
    # Pooled, the dice are sorted: the character dies only if the LOWER die is a 1 (it kills
    # the bodyguard) and the higher one is then allocated to it: P = p^2 * 11/36.
    # In two pools, the first die must be a 1 (1/6) and the second then kills the character:
    # P = p^2 / 6.
    body = mh.ModelGroup(1, toughness=3, save=2, wounds=1, name="Bodyguard")
    boss = mh.ModelGroup(1, toughness=3, save=7, wounds=1, character=True, name="Boss")
    unit = mh.Unit("pair", [body, boss])
    w = mh.Weapon("gun", attacks=1, skill=2, strength=6, ap=0, damage=1)
    tagged = w.replace(abilities="[ASSAULT]")
    p = Fraction(25, 36)
    pooled = mh.attack([(w, 2)], unit)
    split = mh.attack([w, tagged], unit)
    assert abs(pooled.killed_in("Boss").at_least(1) - float(p**2 * Fraction(11, 36))) <= 1e-12
    assert abs(split.killed_in("Boss").at_least(1) - float(p**2 / 6)) <= 1e-12
    # the bodyguard dies with the same probability either way: the lowest die meets it
    body_dies = float(p * Fraction(1, 6) * 2 - p**2 * Fraction(1, 36))
    assert abs(pooled.killed_in("Bodyguard").at_least(1) - body_dies) <= 1e-12
    assert abs(split.killed_in("Bodyguard").at_least(1) - body_dies) <= 1e-12


# --------------------------------------------------------------------------- abilities
SUSTAINED = st.sampled_from(["1", "2", "D3"])


@SETTINGS
@given(unit=UNITS, w=weapons(), n=st.integers(1, 3), x=SUSTAINED, lethal=st.booleans())
def test_sustained_hits_never_lower_kills(
    unit: mh.Unit, w: mh.Weapon, n: int, x: str, lethal: bool
) -> None:
    base = "[LETHAL HITS]" if lethal else ""
    plain = w.replace(abilities=base)
    sustained = w.replace(abilities=f"{base}, [SUSTAINED HITS {x}]")
    assert_not_more(mh.attack([(plain, n)], unit), mh.attack([(sustained, n)], unit))


@SETTINGS
@given(
    unit=UNITS,
    w=weapons(),
    n=st.integers(1, 3),
    other=st.sampled_from(["", "[SUSTAINED HITS 1]", "[TWIN-LINKED]", "[ANTI-INFANTRY 4+]"]),
    infantry=st.booleans(),
)
def test_lethal_hits_never_lower_kills_without_devastating_wounds(
    unit: mh.Unit, w: mh.Weapon, n: int, other: str, infantry: bool
) -> None:
    if infantry:
        unit = dataclasses.replace(unit, keywords=("INFANTRY",))
    plain = w.replace(abilities=other)
    lethal = w.replace(abilities=f"{other}, [LETHAL HITS]")
    assert_not_more(mh.attack([(plain, n)], unit), mh.attack([(lethal, n)], unit))
    # declining Lethal Hits is not having it
    declined = mh.attack([(lethal, n)], unit, context=mh.Context(lethal_hits="roll"))
    assert_same(declined, mh.attack([(plain, n)], unit))


def test_lethal_hits_can_lower_kills_with_devastating_wounds() -> None:
    # why the property above excludes [DEVASTATING WOUNDS]: S4 vs T4, one W1 model with a 2+
    # save. Rolled, a 6 to hit then a 6 to wound is a mortal wound; automatic, it faces the
    # save. One attack hitting on 6+ only (BS 6+ with a critical on 6): P(kill) =
    # rolled: 1/6 * (1/6 + 2/6 * 1/6) = 1/27; automatic: 1/6 * 1/6 (a natural 1 fails the
    # save) = 1/36.
    target = mh.Unit.of("Lone hero", models=1, toughness=4, save=2, wounds=1)
    w = mh.Weapon(
        "Gauss",
        attacks=1,
        skill=6,
        strength=4,
        ap=0,
        damage=1,
        abilities="[LETHAL HITS], [DEVASTATING WOUNDS]",
    )
    rolled = mh.attack(w, target, context=mh.Context(lethal_hits="roll"))
    automatic = mh.attack(w, target)
    assert abs(rolled.killed.at_least(1) - float(Fraction(1, 27))) <= 1e-12
    assert abs(automatic.killed.at_least(1) - float(Fraction(1, 36))) <= 1e-12


REROLLS = st.sampled_from([None, "ones", "failures"])


@SETTINGS
@given(unit=UNITS, ws=weapon_lists(), hits=REROLLS, wounds=REROLLS)
def test_rerolling_failures_never_lowers_kills(
    unit: mh.Unit, ws: Entries, hits: str | None, wounds: str | None
) -> None:
    rerolled = mh.Modifiers(reroll_hits=hits, reroll_wounds=wounds)
    assert_not_more(mh.attack(ws, unit), mh.attack(ws, unit, modifiers=rerolled))


def to_hit_or_wound(roll: str, value: int) -> mh.Modifiers:
    """A modifier of ``value`` to the ``roll`` ("hit" or "wound")."""
    return mh.Modifiers(hit=value) if roll == "hit" else mh.Modifiers(wound=value)


@SETTINGS
@given(
    unit=UNITS, ws=weapon_lists(), roll=st.sampled_from(["hit", "wound"]), base=st.integers(-1, 0)
)
def test_plus_one_to_hit_or_wound_never_lowers_kills(
    unit: mh.Unit, ws: Entries, roll: str, base: int
) -> None:
    worse = to_hit_or_wound(roll, base)
    better = to_hit_or_wound(roll, base + 1)
    assert_not_more(mh.attack(ws, unit, modifiers=worse), mh.attack(ws, unit, modifiers=better))


@SETTINGS
@given(unit=UNITS, ws=weapon_lists(), stealth=st.booleans())
def test_cover_never_raises_kills(unit: mh.Unit, ws: Entries, stealth: bool) -> None:
    if stealth:
        covered = mh.attack(ws, dataclasses.replace(unit, stealth=True))
    else:
        covered = mh.attack(ws, unit, context=mh.Context(target_in_cover=True))
    assert_not_more(covered, mh.attack(ws, unit))
    # in melee, cover does not apply
    melee = mh.Context(melee=True, target_in_cover=True)
    assert_same(mh.attack(ws, unit, context=melee), mh.attack(ws, unit))
