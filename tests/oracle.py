"""A brute-force oracle for the 11e attack sequence, abilities included.

Every die face is enumerated and weighted with an exact rational: GMP's ``mpq``
through gmpy2, the arithmetic of :class:`fractions.Fraction` in C;
the rules are applied literally, one die at a time. It is deliberately slow and simple:
use it only for tiny cases (a handful of dice per stage).

Nothing from the exact engine is used: only the public inputs are read (``Weapon``,
``ModelGroup``, ``Unit``, ``MortalWounds``, ``Context``, ``Modifiers`` and the typed
abilities of ``Weapon.abilities``), through their plain fields. The rules below are
this module's own reading of docs/rules.md and of its decisions (§6), written
independently of ``mathhammer.rules``, and ``mathhammer.exact``.

The walk is stage by stage, each stage a ``dict`` from outcome to probability:

1. attacks: every weapon copy rolls its own A, plus [BLAST]/[CLEAVE] dice per full five
   models standing at declaration and [RAPID FIRE] dice within half range; identical
   weapons pool their dice;
2. hits: one D6 per attack, re-rolled at most once (before modifiers), then read by the
   first matching line: unmodified <= ``fail_at_most`` fails (1; [INDIRECT FIRE] 1-5, or
   1-3 when stationary and spotted), unmodified >= the critical threshold is a Critical
   Hit, modified >= BS/WS hits. [TORRENT] hits automatically, never critically.
   A Critical Hit scores X extra (non-critical) hits with [SUSTAINED HITS X] and wounds
   automatically with [LETHAL HITS] (a normal wound, never a Critical Wound);
3. wounds: one D6 per remaining hit, re-rolled at most once: natural 1 fails, natural >=
   the critical threshold (lowered by [ANTI-KW X+]) is a Critical Wound, modified >= the
   S-vs-T ladder wounds. With [DEVASTATING WOUNDS] a Critical Wound skips the save;
4. saves: one D6 per wound, all rolled at once (the defender's re-roll of 1s or of the
   dice that fail against the model current as they are rolled made at once), then
   **sorted from lowest to highest**
   and resolved one at a time against the current model (the [PRECISION] group while its
   model lives; otherwise the first non-CHARACTER group with models left, then wounded
   CHARACTER groups before unwounded ones; within a group the wounded model);
5. damage: the damage dice are rolled per unsaved attack and modified (set, multiply,
   add, [MELTA], then the defender's halving and reduction; at least 1); Feel No Pain is
   one D6 per wound of that attack; the model loses min(wounds left, unprevented wounds);
   excess is lost, and so are save dice left over once the unit is destroyed;
6. devastating wounds: after the save dice, each Critical Wound of a [DEVASTATING
   WOUNDS] pool deals mortal wounds equal to the attacker's modified D to the current
   model only (FNP per wound; excess lost).

Pools resolve in order of first declaration and the unit's state carries over;
``MortalWounds`` steps resolve where they stand, one wound at a time, spilling over.
[HAZARDOUS] rolls one D6 per weapon of the pool; 1-2 costs the attacker 1 mortal wound
(3 for a MONSTER/VEHICLE attacker).

The target as it stands when the attacks are declared (docs/rules.md D34) is read once
for the whole attack, for every pool of it: the unit as given (every model, the first
group current), or, carrying on from an earlier attack's states (``start=``), each
start state on its own: the attack is resolved from every start state separately and
the results weighted by the states' probabilities. Against a state, [BLAST] and [CLEAVE]
count its models standing; the unit's T is the highest among its non-CHARACTER models
standing, else among its CHARACTERs standing; [PRECISION] picks the named CHARACTER
group if it stands, else the first CHARACTER standing, and with none does nothing; a
command re-roll values a wound by the save of the group taking the pool's first save
(the [PRECISION] group, else the state's current group), the defender's re-rolls of 1s
or failures counted.

Examples
--------
One attack, BS 3+, S4 vs T4 (wounds on 4+), AP 0, D1 against one Sv 4+ W1 model:
P(kill) = 4/6 * 3/6 * 3/6 = 1/6.

>>> from mathhammer import ModelGroup, Unit, Weapon
>>> gun = Weapon("gun", attacks=1, skill=3, strength=4, ap=0, damage=1)
>>> target = Unit("one", [ModelGroup(1, toughness=4, save=4, wounds=1)])
>>> oracle_attack(gun, target).killed
{0: mpq(5,6), 1: mpq(1,6)}

With [SUSTAINED HITS 1] a natural 6 scores two hits:

>>> sustained = Weapon("gun", 1, 3, 4, 0, 1, "[SUSTAINED HITS 1]")
>>> oracle_attack(sustained, target).pools[0].hits
{0: mpq(1,3), 1: mpq(1,2), 2: mpq(1,6)}
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

if TYPE_CHECKING:
    # gmpy2 ships no type information; its mpq is an exact rational (numbers.Rational)
    # with the arithmetic of fractions.Fraction, which the type checker reads in its place
    from fractions import Fraction as mpq
else:
    from gmpy2 import mpq

from mathhammer import Context, ModelGroup, Modifiers, MortalWounds, Unit, Weapon
from mathhammer.abilities import (
    Ability,
    Anti,
    Blast,
    Cleave,
    DevastatingWounds,
    ExtraAttacks,
    Hazardous,
    Heavy,
    IgnoresCover,
    IndirectFire,
    Lance,
    LethalHits,
    Melta,
    NoEffect,
    Precision,
    RapidFire,
    SustainedHits,
    Torrent,
    TwinLinked,
)

__all__ = [
    "OracleResult",
    "PoolOutcome",
    "Profile",
    "gather_entries",
    "joint",
    "oracle_attack",
    "oracle_pools",
    "pool_profile",
    "positions_of",
    "wound_target",
]

D6 = tuple(range(1, 7))
#: Re-roll policies from the weakest to the strongest.
REROLL_STRENGTH = {None: 0, "ones": 1, "failures": 2, "non_critical": 3}
FAIL, HIT, CRIT = 0, 1, 2

Entry = tuple[Weapon, int]
Step = list[Entry] | MortalWounds
DiceT = tuple[int, int, int]  # (count, sides, bonus)
# One group's state: the remaining wounds of each model still alive, sorted ascending so
# that equal states compare equal.  The unit's state is one such tuple per group.
State = tuple[tuple[int, ...], ...]
PMF = dict[int, mpq]
K = TypeVar("K")


# --------------------------------------------------------------------------- inputs


def _dice_tuple(dice: Any) -> DiceT:
    return (dice.count, dice.sides, dice.bonus)


def _dice_mean(dice: Any) -> mpq:
    count, sides, bonus = _dice_tuple(dice)
    if count == 0 or sides == 0:
        return mpq(bonus)
    return mpq(count * (sides + 1), 2) + bonus


def _pool_key(weapon: Weapon) -> tuple[Any, ...]:
    """Identical attacks (docs/rules.md §2.4, D10): same BS/WS, S, AP, D, abilities; not name, A.
    A buff on some of the attacks (docs/rules.md §2.4) sets them apart."""
    return (
        weapon.skill,
        weapon.strength,
        weapon.ap,
        _dice_tuple(weapon.damage),
        tuple(sorted(str(a) for a in weapon.abilities)),
        weapon.modifiers,
        weapon.context,
    )


def _entries(weapons: Any) -> list[Entry | MortalWounds]:
    """The accepted forms: a Weapon, or a list of Weapons, (Weapon, count) and MortalWounds."""
    if isinstance(weapons, Weapon | MortalWounds):
        weapons = [weapons]
    out: list[Entry | MortalWounds] = []
    for item in weapons:
        if isinstance(item, Weapon):
            out.append((item, 1))
        elif isinstance(item, MortalWounds):
            out.append(item)
        else:
            weapon, count = item
            out.append((weapon, count))
    return out


def gather_entries(weapons: Any) -> list[Step]:
    """Weapons gathered into pools of identical attacks, in order of first declaration.

    ``MortalWounds`` entries stay where they stand, as steps of their own.
    """
    steps: dict[Any, Step] = {}
    for entry in _entries(weapons):
        if isinstance(entry, MortalWounds):
            steps[("mortal", len(steps))] = entry
        else:
            pool = steps.setdefault(_pool_key(entry[0]), [])
            assert isinstance(pool, list)
            pool.append(entry)
    return list(steps.values())


def _toughness(unit: Unit, standing: State) -> int:
    """The unit's T (D21, D34): the highest T among the non-CHARACTER models standing;
    once none stands, the highest among the CHARACTERs standing; with nothing standing
    (nothing left to wound), the unit's T as given."""
    alive = [g for g, models in zip(unit.groups, standing, strict=True) if models]
    bodies = [g.toughness for g in alive if not g.character]
    characters = [g.toughness for g in alive if g.character]
    given = [g.toughness for g in unit.groups if not g.character]
    return max(bodies or characters or given or [g.toughness for g in unit.groups])


def wound_target(strength: int, toughness: int) -> int:
    """The wound roll needed; the 6+ rung is checked before the 5+ rung.

    >>> [wound_target(s, 4) for s in (8, 7, 5, 4, 3, 2)]
    [2, 3, 3, 4, 5, 6]
    >>> wound_target(4, 8), wound_target(4, 7)
    (6, 5)
    """
    if strength >= 2 * toughness:
        return 2
    if strength > toughness:
        return 3
    if strength == toughness:
        return 4
    if 2 * strength <= toughness:
        return 6
    return 5


# --------------------------------------------------------------------------- abilities


def _applies(ability: Any, keywords: set[str]) -> bool:
    """``[ABILITY: KW1/KW2]`` needs one of the keywords; ``[ABILITY: NON-KW1/KW2]`` needs
    none of them (D36); ``[ANTI-KW X+]`` needs KW."""
    listed = [k.upper() for k in ability.keywords]
    if listed and listed[0].startswith("NON-"):
        if keywords & {k.removeprefix("NON-") for k in listed}:
            return False
    elif listed and not keywords & set(listed):
        return False
    if isinstance(ability, Anti):
        return ability.keyword.upper() in keywords
    return True


def _better(new: Ability, old: Ability) -> bool:
    """Of two duplicates, is ``new`` the better one? Lower Anti threshold, higher X."""
    if isinstance(new, Anti) and isinstance(old, Anti):
        return new.threshold < old.threshold
    if isinstance(new, Blast | Cleave) and isinstance(old, Blast | Cleave):
        return new.value > old.value
    dice_valued = SustainedHits | RapidFire | Melta
    if isinstance(new, dice_valued) and isinstance(old, dice_valued):
        return _dice_mean(new.value) > _dice_mean(old.value)
    return False


def _chosen(weapon: Weapon, keywords: set[str]) -> dict[type, Any]:
    """One instance per ability type: the best of those applying against the target."""
    best: dict[type, Any] = {}
    for ability in weapon.abilities:
        if isinstance(ability, NoEffect | ExtraAttacks) or not _applies(ability, keywords):
            continue  # selection rules only
        kind = type(ability)
        if kind not in best or _better(ability, best[kind]):
            best[kind] = ability
    return best


def _clamp(value: int, low: int, high: int) -> int:
    return max(low, min(high, value))


def _stronger(a: str | None, b: str | None) -> str | None:
    return a if REROLL_STRENGTH[a] >= REROLL_STRENGTH[b] else b


@dataclass(frozen=True)
class Profile:
    """What one pool's attacks do against this target in this context."""

    bonus_attacks: tuple[DiceT, ...]  # extra attack dice per weapon copy
    torrent: bool
    skill: int
    hit_modifier: int
    fail_at_most: int
    critical_hit: int
    reroll_hits: str | None
    sustained: DiceT | None
    lethal: bool
    wound_needed: int
    wound_modifier: int
    critical_wound: int
    reroll_wounds: str | None
    devastating: bool
    ap: int
    damage: DiceT
    multiply: int
    add: int
    melta: DiceT | None
    precision: int | None  # the CHARACTER group that is current while it lives
    hazardous: bool
    used: tuple[str, ...]  # the abilities in effect, as printed, in printed order
    damage_reroll: int = 0  # each damage die showing this or less is rolled again
    damage_optimal: bool = False  # the damage roll is rolled again as D31 decides
    reroll_one: str | None = None  # the step of a command re-roll: "hit" or "wound"
    fish: bool = False  # the command re-roll takes a success when no die failed


def _precision_group(unit: Unit, context: Context, standing: State) -> int | None:
    """The CHARACTER group [PRECISION] makes current (D18, D34): the one the context
    names (an index or a label) if it stands, else the first CHARACTER group standing;
    None when no CHARACTER stands."""
    characters = [i for i, g in enumerate(unit.groups) if g.character and standing[i]]
    named = context.precision_group
    if isinstance(named, str):
        named = [g.label for g in unit.groups].index(named)
    if named in characters:
        return named
    return characters[0] if characters else None


def _buffed(weapon: Weapon, context: Context, modifiers: Modifiers) -> tuple[Context, Modifiers]:
    """The attack's context and modifiers with the weapon's own buff on top: a context
    field the buff sets replaces the attack's; numbers add (the multiplier multiplies),
    the lower critical threshold and the wider re-roll win, the buff's damage set wins."""
    buff_context, buff = weapon.context, weapon.modifiers
    if buff_context is not None:
        plain = Context()
        changed = {
            f.name: getattr(buff_context, f.name)
            for f in dataclasses.fields(Context)
            if getattr(buff_context, f.name) != getattr(plain, f.name)
        }
        context = dataclasses.replace(context, **changed)
    if buff is not None:
        order = [None, "ones", "failures", "non_critical"]
        modifiers = Modifiers(
            hit=buff.hit + modifiers.hit,
            wound=buff.wound + modifiers.wound,
            skill=buff.skill + modifiers.skill,
            strength=buff.strength + modifiers.strength,
            ap=buff.ap + modifiers.ap,
            damage_set=buff.damage_set if buff.damage_set is not None else modifiers.damage_set,
            damage_multiply=buff.damage_multiply * modifiers.damage_multiply,
            damage_add=buff.damage_add + modifiers.damage_add,
            critical_hit=min(buff.critical_hit, modifiers.critical_hit),
            critical_wound=min(buff.critical_wound, modifiers.critical_wound),
            reroll_hits=max(buff.reroll_hits, modifiers.reroll_hits, key=order.index),
            reroll_wounds=max(buff.reroll_wounds, modifiers.reroll_wounds, key=order.index),
        )
    return context, modifiers


def pool_profile(
    weapon: Weapon,
    unit: Unit,
    context: Context,
    modifiers: Modifiers,
    standing: State | None = None,
) -> Profile:
    """Read the weapon, the target, the context and the modifiers into one pool profile.

    ``standing`` is the target as it stands when the attacks are declared (D34): the
    state an earlier attack left, or the unit as given (None). [BLAST] and [CLEAVE]
    count its models, the wound roll reads its Toughness and [PRECISION] its
    CHARACTERs."""
    standing = _initial_state(unit) if standing is None else standing
    ranged = not context.melee
    chosen = _chosen(weapon, set(unit.keywords))
    # An 11th-edition weapon has a skill (a classic one has bs instead), and every weapon
    # has a strength; Weapon checks both, the annotations only allow None for the defaults.
    assert weapon.skill is not None and weapon.strength is not None

    def has(kind: type) -> bool:
        return kind in chosen

    moved_little = context.remained_stationary or context.moved_at_most_3
    heavy = (
        has(Heavy)
        and ranged
        and moved_little
        and not context.engaged
        and not context.set_up_this_turn
    )
    lance = has(Lance) and context.charged
    indirect = has(IndirectFire) and ranged
    cover = (
        ranged and not has(IgnoresCover) and (context.target_in_cover or unit.stealth or indirect)
    )
    per_five = sum(len(models) for models in standing) // 5
    bonus: list[DiceT] = []
    if has(Blast):
        bonus.append((0, 0, chosen[Blast].value * per_five))
    cleave = has(Cleave) and context.melee and context.single_target
    if cleave:
        bonus.append((0, 0, chosen[Cleave].value * per_five))
    if has(RapidFire) and context.half_range:
        bonus.append(_dice_tuple(chosen[RapidFire].value))
    melta = _dice_tuple(chosen[Melta].value) if has(Melta) and context.half_range else None

    fail_at_most = 1  # an unmodified 1 fails; [INDIRECT FIRE]: 1-5, or 1-3 when spotted
    if indirect:
        fail_at_most = 3 if context.remained_stationary and context.spotted else 5
    critical_wound = modifiers.critical_wound
    if has(Anti):
        critical_wound = min(critical_wound, chosen[Anti].threshold)
    reroll_wounds = modifiers.reroll_wounds
    if has(TwinLinked):
        reroll_wounds = _stronger(reroll_wounds, context.reroll_policy)
    damage = modifiers.damage_set if modifiers.damage_set is not None else weapon.damage
    assert isinstance(weapon.strength, int)  # the oracle rolls a fixed Strength
    strength = max(1, weapon.strength + modifiers.strength)

    precision = _precision_group(unit, context, standing) if has(Precision) else None
    # Reported as used: the chosen instances whose condition holds in this context.
    # [TORRENT] makes no hit roll, so no Critical Hit can trigger [SUSTAINED HITS] or
    # [LETHAL HITS], and [HEAVY] or [INDIRECT FIRE] change nothing; [LETHAL HITS] is not
    # used when the attacker chooses to roll; [PRECISION] needs a CHARACTER standing.
    in_effect = {
        Heavy: heavy and not has(Torrent),
        Lance: lance,
        IndirectFire: indirect and not has(Torrent),
        Cleave: cleave,
        RapidFire: has(RapidFire) and context.half_range,
        Melta: melta is not None,
        SustainedHits: not has(Torrent),
        LethalHits: not has(Torrent) and context.lethal_hits == "auto",
        Precision: precision is not None,
    }
    used = tuple(str(a) for a in chosen.values() if in_effect.get(type(a), True))
    printed = [str(a) for a in weapon.abilities]
    return Profile(
        bonus_attacks=tuple(bonus),
        torrent=has(Torrent),
        skill=_clamp(weapon.skill + modifiers.skill + (1 if cover else 0), 2, 6),
        hit_modifier=_clamp(modifiers.hit + (1 if heavy else 0), -1, 1),
        fail_at_most=fail_at_most,
        critical_hit=modifiers.critical_hit,
        reroll_hits=None if indirect else modifiers.reroll_hits,
        sustained=_dice_tuple(chosen[SustainedHits].value) if has(SustainedHits) else None,
        lethal=has(LethalHits) and context.lethal_hits == "auto",
        wound_needed=wound_target(strength, _toughness(unit, standing)),
        wound_modifier=_clamp(modifiers.wound + (1 if lance else 0), -1, 1),
        critical_wound=critical_wound,
        reroll_wounds=reroll_wounds,
        devastating=has(DevastatingWounds),
        ap=min(0, weapon.ap + modifiers.ap + unit.worsen_ap),  # the target may worsen AP
        damage=_dice_tuple(damage),
        damage_reroll=_damage_reroll(modifiers.reroll_damage),
        damage_optimal=modifiers.reroll_damage == "optimal",
        multiply=modifiers.damage_multiply,
        add=modifiers.damage_add,
        melta=melta,
        precision=precision,
        hazardous=has(Hazardous),
        used=tuple(sorted(used, key=printed.index)),
    )


def _save_fails(group: ModelGroup, ap: int, policy: str | None) -> mpq:
    """One save die's chance to fail against ``group``, once the defender has rolled
    again its 1s (``"ones"``) or its failures (``"failures"``) (D29); the defender's
    command re-roll of one save (``"command"``, D33) is not counted (D30)."""
    p = mpq(0)
    for face in D6:
        failed = not _saved(face, ap, group)
        if (policy == "ones" and face == 1) or (policy == "failures" and failed):
            p += mpq(sum(not _saved(again, ap, group) for again in D6), 36)
        elif failed:
            p += mpq(1, 6)
    return p


def _command(prof: Profile, modifiers: Modifiers, unit: Unit, current: int) -> Profile:
    """The command re-roll of ``modifiers.reroll_one`` (docs/rules.md D30): its step, and
    whether it takes a success when no die failed. It does to raise the expected wounds
    past the save of the group that takes the pool's first save (per point of damage):
    the [PRECISION] group if the pool has one, else ``current``, the current group of the
    target as it stands at declaration. A wound is worth u = P(that save fails, the
    defender's re-rolls of 1s or failures made), a devastating one 1; a hit its wound
    roll's worth; a critical hit its lethal wound (u) or its hit, plus X more hits of
    [SUSTAINED HITS X]. A success is taken when a fresh die's worth exceeds a success's;
    never with ":at_least"."""
    if modifiers.reroll_one is None:
        return prof
    step, _, goal = modifiers.reroll_one.partition(":")
    if step == "hit" and prof.torrent:
        return prof
    saving = unit.groups[current if prof.precision is None else prof.precision]
    u = _save_fails(saving, prof.ap, unit.reroll_saves)
    wound = dict(_wound_die(prof))
    crit_wound = mpq(1) if prof.devastating else u
    per_hit = wound.get(HIT, 0) * u + wound.get(CRIT, 0) * crit_wound
    if step == "wound":
        success, critical, fresh = u, crit_wound, dict(_one_die(_wound_reader(prof), None))
    else:
        extra = (
            sum((v * p for v, p in _faces(prof.sustained)), mpq(0)) if prof.sustained else mpq(0)
        )
        success = per_hit
        critical = (u if prof.lethal else per_hit) + extra * per_hit
        fresh = dict(_one_die(_hit_reader(prof), None))
    worth = fresh.get(HIT, 0) * success + fresh.get(CRIT, 0) * critical
    fish = goal != "at_least" and worth > success
    return dataclasses.replace(prof, reroll_one=step, fish=fish)


# --------------------------------------------------------------------------- dice


def _faces(dice: DiceT, reroll: int = 0) -> list[tuple[int, mpq]]:
    """Every outcome of ``count``D``sides``+``bonus``, face by face, with its probability;
    with ``reroll``, a die showing that or less is rolled again (once) and the new face
    kept."""
    count, sides, bonus = dice
    if sides == 0 or count == 0:
        return [(bonus, mpq(1))]
    die: list[tuple[int, mpq]] = []
    for face in range(1, sides + 1):
        if face <= reroll:
            die += [(again, mpq(1, sides * sides)) for again in range(1, sides + 1)]
        else:
            die.append((face, mpq(1, sides)))
    out = []
    for roll in itertools.product(die, repeat=count):
        p = mpq(1)
        for _, q in roll:
            p *= q
        out.append((sum(f for f, _ in roll) + bonus, p))
    return out


def _damage_reroll(option: str | None) -> int:
    """The face at or below which a damage die is rolled again: "ones" is 1, "below:N" N
    ("optimal" decides roll by roll: :func:`_optimal_damage`)."""
    if option is None or option == "optimal":
        return 0
    return 1 if option == "ones" else int(option.split(":")[1])


def _add(pmf: dict[Any, mpq], key: Any, p: mpq) -> None:
    pmf[key] = pmf.get(key, mpq(0)) + p


def _sum_of(dice: Sequence[DiceT]) -> PMF:
    """The sum of independent dice expressions, every combination of faces enumerated."""
    pmf: PMF = {}
    for combo in itertools.product(*(_faces(d) for d in dice)):
        p = mpq(1)
        for _, q in combo:
            p *= q
        _add(pmf, sum(v for v, _ in combo), p)
    return pmf


def _attack_pmf(entries: Sequence[Entry], bonus: Sequence[DiceT]) -> PMF:
    """Attack dice in the pool: every weapon copy rolls its own A plus its bonus dice."""
    copies = [d for w, n in entries for _ in range(n) for d in (_dice_tuple(w.attacks), *bonus)]
    return _sum_of(copies)


def _rerolled(policy: str | None, face: int, result: int) -> bool:
    """Is this die re-rolled? ``ones``: a natural 1; ``failures``: a failed result;
    ``non_critical``: any result that is not critical."""
    if policy == "ones":
        return face == 1
    if policy == "failures":
        return result == FAIL
    if policy == "non_critical":
        return result != CRIT
    return False


def _one_die(read: Callable[[int], int], policy: str | None) -> tuple[tuple[int, mpq], ...]:
    """One D6, re-rolled at most once under the policy: result -> probability."""
    out: dict[int, mpq] = {}
    for face in D6:
        result = read(face)
        if _rerolled(policy, face, result):
            for again in D6:
                _add(out, read(again), mpq(1, 36))
        else:
            _add(out, result, mpq(1, 6))
    return tuple(sorted(out.items()))


def _stands(
    read: Callable[[int], int], policy: str | None
) -> tuple[tuple[tuple[int, bool], mpq], ...]:
    """One D6 as :func:`_one_die` rolls it: (result, whether its first roll stands)."""
    out: dict[tuple[int, bool], mpq] = {}
    for face in D6:
        result = read(face)
        if _rerolled(policy, face, result):
            for again in D6:
                _add(out, (read(again), False), mpq(1, 36))
        else:
            _add(out, (result, True), mpq(1, 6))
    return tuple(sorted(out.items()))


@cache
def _roll_command(
    n: int,
    die: tuple[tuple[tuple[int, bool], mpq], ...],
    fresh: tuple[tuple[int, mpq], ...],
    fish: bool,
) -> dict[tuple[int, int], mpq]:
    """n dice rolled at once, then the command re-roll: a die whose first roll stood and
    failed is rolled again, or (``fish``) when there is none, one that stood and succeeded
    but not critically. (successes, criticals) -> probability."""
    # (successes, criticals, a standing failure seen, a standing success seen)
    pmf: dict[tuple[int, int, bool, bool], mpq] = {(0, 0, False, False): mpq(1)}
    for _ in range(n):
        nxt: dict[tuple[int, int, bool, bool], mpq] = {}
        for (ok, crit, failed, hit), p in pmf.items():
            for (result, stands), q in die:
                key = (
                    ok + (result != FAIL),
                    crit + (result == CRIT),
                    failed or (stands and result == FAIL),
                    hit or (stands and result == HIT),
                )
                _add(nxt, key, p * q)
        pmf = nxt
    out: dict[tuple[int, int], mpq] = {}
    for (ok, crit, failed, hit), p in pmf.items():
        if not failed and not (fish and hit):
            _add(out, (ok, crit), p)
            continue
        ok -= 0 if failed else 1  # the success taken away
        for result, q in fresh:
            _add(out, (ok + (result != FAIL), crit + (result == CRIT)), p * q)
    return out


@cache
def _roll(n: int, die: tuple[tuple[int, mpq], ...]) -> dict[tuple[int, int], mpq]:
    """n such dice rolled at once: (successes, criticals) -> probability, die by die."""
    pmf: dict[tuple[int, int], mpq] = {(0, 0): mpq(1)}
    for _ in range(n):
        nxt: dict[tuple[int, int], mpq] = {}
        for (ok, crit), p in pmf.items():
            for result, q in die:
                _add(nxt, (ok + (result != FAIL), crit + (result == CRIT)), p * q)
        pmf = nxt
    return pmf


def _hit_reader(prof: Profile) -> Callable[[int], int]:
    def read(face: int) -> int:
        if face <= prof.fail_at_most:
            return FAIL
        if face >= prof.critical_hit:
            return CRIT
        if face + prof.hit_modifier >= prof.skill:
            return HIT
        return FAIL

    return read


def _wound_reader(prof: Profile) -> Callable[[int], int]:
    def read(face: int) -> int:
        if face == 1:
            return FAIL
        if face >= prof.critical_wound:
            return CRIT
        if face + prof.wound_modifier >= prof.wound_needed:
            return HIT
        return FAIL

    return read


def _hit_die(prof: Profile) -> tuple[tuple[int, mpq], ...]:
    return _one_die(_hit_reader(prof), prof.reroll_hits)


def _wound_die(prof: Profile) -> tuple[tuple[int, mpq], ...]:
    return _one_die(_wound_reader(prof), prof.reroll_wounds)


def _rolls(n: int, prof: Profile, step: str) -> dict[tuple[int, int], mpq]:
    """n hit or wound dice: (successes, criticals) -> probability, with the pool's
    command re-roll where it re-rolls this step."""
    read, policy = (
        (_hit_reader(prof), prof.reroll_hits)
        if step == "hit"
        else (_wound_reader(prof), prof.reroll_wounds)
    )
    if prof.reroll_one != step:
        return _roll(n, _one_die(read, policy))
    return _roll_command(n, _stands(read, policy), _one_die(read, None), prof.fish)


# --------------------------------------------------------------------------- saves and damage


def _initial_state(unit: Unit) -> State:
    """Every model's remaining wounds; a group's first model carries its wounds_lost."""
    state = []
    for g in unit.groups:
        models = [g.wounds] * g.count
        models[0] -= g.wounds_lost
        state.append(tuple(sorted(models)))
    return tuple(state)


def _model(group: ModelGroup, models: tuple[int, ...]) -> int:
    """Within a group, the model that has lost wounds must be chosen."""
    wounded = [mi for mi, left in enumerate(models) if left < group.wounds]
    return wounded[0] if wounded else 0


def _current(
    groups: Sequence[ModelGroup], state: State, focus: int | None = None
) -> tuple[int, int] | None:
    """(group, model) to allocate to, or None once the unit is destroyed.

    The ``focus`` ([PRECISION]) group while its model lives; otherwise the first
    non-CHARACTER group with models left; otherwise a wounded CHARACTER group before
    unwounded ones, each in declared order.
    """
    if focus is not None and state[focus]:
        return focus, _model(groups[focus], state[focus])
    alive = [gi for gi, models in enumerate(state) if models]
    bodies = [gi for gi in alive if not groups[gi].character]
    wounded = [gi for gi in alive if groups[gi].character and state[gi][0] < groups[gi].wounds]
    for gi in bodies + wounded + alive:
        return gi, _model(groups[gi], state[gi])
    return None


def _saved(face: int, ap: int, group: ModelGroup) -> bool:
    """Check save roll, first match: natural 1 fails; InSv (AP ignored); armour save + AP."""
    if face == 1:
        return False
    if group.invuln is not None and face >= group.invuln:
        return True
    return face + ap >= group.save


@cache
def _wounds_lost(damage: int, left: int, fnp: int | None) -> tuple[tuple[int, mpq], ...]:
    """Wounds a model with ``left`` wounds loses to ``damage``: FNP is a D6 per wound."""
    if fnp is None:
        return ((min(left, damage), mpq(1)),)
    through: dict[int, mpq] = {0: mpq(1)}  # wounds not prevented so far
    for _ in range(damage):
        nxt: dict[int, mpq] = {}
        for k, p in through.items():
            for face in D6:
                _add(nxt, k + (face < fnp), p / 6)
        through = nxt
    out: dict[int, mpq] = {}
    for k, p in through.items():
        _add(out, min(left, k), p)
    return tuple(sorted(out.items()))


def _apply(state: State, gi: int, mi: int, lost: int) -> State:
    models = list(state[gi])
    models[mi] -= lost
    if models[mi] <= 0:
        del models[mi]  # destroyed
    new = list(state)
    new[gi] = tuple(sorted(models))
    return tuple(new)


def _attacker_damage(prof: Profile) -> PMF:
    """The attacker's D: set (or printed), multiplied, added to, plus [MELTA] X."""
    pmf: PMF = {}
    for d, p in _faces(prof.damage, prof.damage_reroll):
        for m, q in _faces(prof.melta or (0, 0, 0)):
            _add(pmf, d * prof.multiply + prof.add + m, p * q)
    return pmf


def _defender_damage(attacker: PMF, group: ModelGroup) -> PMF:
    """Then the defender's group: halve (rounding up), subtract; at least 1."""
    pmf: PMF = {}
    for d, p in attacker.items():
        if group.halve_damage:
            d = -(-d // 2)
        _add(pmf, max(1, d - group.damage_reduction), p)
    return pmf


def _judged_rolls(
    prof: Profile, group: ModelGroup, mortal: bool, left: int
) -> list[tuple[int, mpq, bool]]:
    """Every damage roll against a model of ``group`` with ``left`` wounds left, as
    (amount taken before Feel No Pain, probability, rolled again): a roll of D is made
    again when a new roll (with the same [MELTA] X) takes more of the model's wounds on
    average, FNP counted and no more than ``left`` (docs/rules.md D31, D32)."""
    fnp = _mortal_fnp(group) if mortal else group.fnp

    def taken(d: int, x: int) -> int:
        amount = d * prof.multiply + prof.add + x
        if mortal and not group.reduce_mortal:
            return max(1, amount)
        return next(iter(_defender_damage({amount: mpq(1)}, group)))

    def worth(amount: int) -> mpq:
        return sum((k * q for k, q in _wounds_lost(amount, left, fnp)), mpq(0))

    rolls = _faces(prof.damage)
    out: list[tuple[int, mpq, bool]] = []
    for x, q in _faces(prof.melta or (0, 0, 0)):
        fresh = sum((p * worth(taken(d, x)) for d, p in rolls), mpq(0))
        for d, p in rolls:
            if worth(taken(d, x)) < fresh:
                out.extend((taken(d2, x), q * p * p2, True) for d2, p2 in rolls)
            else:
                out.append((taken(d, x), q * p, False))
    return out


def _optimal_damage(prof: Profile, group: ModelGroup, mortal: bool) -> Callable[[int], PMF]:
    """Damage before Feel No Pain against a model with ``left`` wounds left, each roll
    made again where :func:`_judged_rolls` says (docs/rules.md D31)."""

    def at(left: int) -> PMF:
        pmf: PMF = {}
        for amount, p, _ in _judged_rolls(prof, group, mortal, left):
            _add(pmf, amount, p)
        return pmf

    return at


class _Resolver:
    """Save dice then devastating wounds for one pool against one unit, memoised."""

    def __init__(
        self,
        groups: Sequence[ModelGroup],
        ap: int,
        per_attack: Sequence[PMF | Callable[[int], PMF]],
        per_mortal: Sequence[PMF | Callable[[int], PMF]],
        focus: int | None,
        command: Profile | None = None,
        save_command: bool = False,
    ):
        self.command = command  # a command re-roll of one damage roll (D32), unused
        self.save_command = save_command  # the defender's of one save (D33)
        self.groups = groups
        self.ap = ap
        self.per_attack = per_attack  # per group
        self.per_mortal = per_mortal  # per group: a rule may reduce mortal wounds too
        self.focus = focus
        self.memo: dict[
            tuple[State, tuple[int, ...], bool], dict[tuple[State, int, bool], mpq]
        ] = {}
        self.mortal_memo: dict[tuple[State, int, bool], dict[State, mpq]] = {}

    def _damage(self, gi: int, left: int, used: bool, mortal: bool) -> list[tuple[int, mpq, bool]]:
        """(amount, probability, the command re-roll used after it) of one damage roll."""
        if self.command is None or used:
            per = self.per_mortal if mortal else self.per_attack
            return [(d, p, used) for d, p in _at(per[gi], left).items()]
        return _judged_rolls(self.command, self.groups[gi], mortal, left)

    def saves(
        self, state: State, dice: tuple[int, ...], used: bool = False
    ) -> dict[tuple[State, int, bool], mpq]:
        """Resolve ``dice`` in the given order: (final state, failed saves, command re-roll
        used) -> probability."""
        key = (state, dice, used)
        if key in self.memo:
            return self.memo[key]
        out: dict[tuple[State, int, bool], mpq] = {}
        where = _current(self.groups, state, self.focus)
        if not dice or where is None:
            out[(state, 0, used)] = mpq(1)  # done, or leftover dice lost
        else:
            gi, mi = where
            group = self.groups[gi]
            if _saved(dice[0], self.ap, group):
                out = dict(self.saves(state, dice[1:], used))
            elif self.save_command and not used:
                # the defender rolls this one again, checked against the same model (D33)
                for face in D6:
                    for key2, r in self.saves(state, (face, *dice[1:]), True).items():
                        _add(out, key2, r / 6)
            else:
                left = state[gi][mi]
                for dmg, p, now in self._damage(gi, left, used, mortal=False):
                    for lost, q in _wounds_lost(dmg, left, group.fnp):
                        after = _apply(state, gi, mi, lost)
                        for (final, unsaved, last), r in self.saves(after, dice[1:], now).items():
                            _add(out, (final, unsaved + 1, last), p * q * r)
        self.memo[key] = out
        return out

    def mortal(self, state: State, count: int, used: bool = False) -> dict[State, mpq]:
        """``count`` devastating wounds, each damaging the current model only."""
        key = (state, count, used)
        if key in self.mortal_memo:
            return self.mortal_memo[key]
        where = _current(self.groups, state, self.focus)
        out: dict[State, mpq] = {}
        if count == 0 or where is None:
            out[state] = mpq(1)
        else:
            gi, mi = where
            left = state[gi][mi]
            for dmg, p, now in self._damage(gi, left, used, mortal=True):
                for lost, q in _wounds_lost(dmg, left, _mortal_fnp(self.groups[gi])):
                    after = _apply(state, gi, mi, lost)
                    for final, r in self.mortal(after, count - 1, now).items():
                        _add(out, final, p * q * r)
        self.mortal_memo[key] = out
        return out


def _at(damage: PMF | Callable[[int], PMF], left: int) -> PMF:
    """The damage a model with ``left`` wounds left takes."""
    return damage(left) if callable(damage) else damage


def _mortal_fnp(group: ModelGroup) -> int | None:
    """The Feel No Pain against a mortal wound: the lower of FNP and FNP (mortal)."""
    thresholds = [t for t in (group.fnp, group.fnp_mortal) if t is not None]
    return min(thresholds) if thresholds else None


@cache
def _save_rolls(n: int, sort: bool) -> tuple[tuple[tuple[int, ...], mpq], ...]:
    """All n save dice rolled at once; sorted lowest to highest unless ``sort`` is False.

    Sorted, each multiset of faces is listed once with its multinomial weight.
    """
    if not sort:
        return tuple((roll, mpq(1, 6**n)) for roll in itertools.product(D6, repeat=n))
    out = []
    for dice in itertools.combinations_with_replacement(D6, n):
        ways = math.factorial(n)
        for face in set(dice):
            ways //= math.factorial(dice.count(face))
        out.append((dice, mpq(ways, 6**n)))
    return tuple(out)


@cache
def _rerolled_save_rolls(n: int, again: frozenset[int]) -> tuple[tuple[tuple[int, ...], mpq], ...]:
    """All n save dice rolled at once, each die showing a face in ``again`` rolled once
    more, then sorted lowest to highest (docs/rules.md D29)."""
    one: dict[int, mpq] = defaultdict(mpq)  # a die's face once re-rolled
    for first in D6:
        for second in D6 if first in again else (first,):
            one[second] += mpq(1, 36) if first in again else mpq(1, 6)
    out = []
    for dice in itertools.combinations_with_replacement(D6, n):
        ways = math.factorial(n)
        p = mpq(1)
        for face in set(dice):
            ways //= math.factorial(dice.count(face))
            p *= one[face] ** dice.count(face)
        out.append((dice, ways * p))
    return tuple(out)


def _save_rerolls(
    policy: str | None, groups: Sequence[ModelGroup], state: State, ap: int, focus: int | None
) -> frozenset[int] | None:
    """The faces a defender rolls again: 1s, or the faces that fail against the model
    current as the dice are rolled; None when it re-rolls nothing."""
    if policy is None or policy == "command":  # a command re-roll: as the dice resolve
        return None
    if policy == "ones":
        return frozenset({1})
    where = _current(groups, state, focus)
    if where is None:
        return frozenset()
    return frozenset(f for f in D6 if not _saved(f, ap, groups[where[0]]))


def _mortal_wounds(groups: Sequence[ModelGroup], state: State, count: int) -> dict[State, mpq]:
    """``count`` mortal wounds one at a time to the current model, FNP each, spilling over."""
    states = {state: mpq(1)}
    for _ in range(count):
        nxt: dict[State, mpq] = defaultdict(mpq)
        for s, p in states.items():
            where = _current(groups, s)
            if where is None:
                nxt[s] += p
                continue
            gi, mi = where
            fnp = _mortal_fnp(groups[gi])
            for face in D6:
                prevented = fnp is not None and face >= fnp
                nxt[s if prevented else _apply(s, gi, mi, 1)] += p / 6
        states = dict(nxt)
    return states


# --------------------------------------------------------------------------- the sequence


@dataclass(frozen=True)
class PoolOutcome:
    """Stage distributions of one pool, as exact ``{value: probability}`` dicts."""

    attacks: PMF
    hits: PMF
    wounds: PMF
    unsaved: PMF
    killed: PMF  # models destroyed so far, cumulative over the pools
    devastating: PMF  # critical wounds of a [DEVASTATING WOUNDS] pool
    abilities: tuple[str, ...] = ()  # abilities in effect, as printed


@dataclass(frozen=True)
class OracleResult:
    """Exact distributions of the whole attack, as ``{value: probability}`` dicts."""

    killed: PMF
    damage: PMF
    groups: tuple[PMF, ...]  # models destroyed in each allocation group
    pools: tuple[PoolOutcome, ...]
    states: dict[State, mpq]
    hazardous: PMF  # mortal wounds suffered by the attacker

    @property
    def p_destroyed(self) -> mpq:
        """P(every model destroyed)."""
        return sum((p for s, p in self.states.items() if not any(s)), mpq(0))


def _marginal(states: dict[State, mpq], stat: Any) -> PMF:
    out: PMF = defaultdict(mpq)
    for state, p in states.items():
        out[stat(state)] += p
    return dict(sorted(out.items()))


def _sorted(pmf: dict[int, mpq]) -> PMF:
    return dict(sorted(pmf.items()))


def _convolve(a: PMF, b: PMF) -> PMF:
    out: PMF = {}
    for x, p in a.items():
        for y, q in b.items():
            _add(out, x + y, p * q)
    return out


def _hazard(weapons: int, per_fail: int) -> PMF:
    """One D6 per Hazardous weapon; each 1-2 costs ``per_fail`` mortal wounds."""
    pmf: PMF = {0: mpq(1)}
    for _ in range(weapons):
        one: PMF = {}
        for face in D6:
            _add(one, per_fail if face <= 2 else 0, mpq(1, 6))
        pmf = _convolve(pmf, one)
    return pmf


def _roll_pool(
    entries: Sequence[Entry], prof: Profile
) -> tuple[PMF, PMF, PMF, PMF, dict[tuple[int, int], mpq]]:
    """Attacks, hits, wounds and devastating pmfs, and the joint (save dice, devastating)."""
    attacks = _attack_pmf(entries, prof.bonus_attacks)
    # (hits in all, dice rolling to wound, automatic wounds)
    hit_stage: dict[tuple[int, int, int], mpq] = {}
    for n, p in attacks.items():
        rolled = {(n, 0): mpq(1)} if prof.torrent else _rolls(n, prof, "hit")
        for (hits, crits), q in rolled.items():
            extra = _sum_of([prof.sustained] * crits) if prof.sustained else {0: mpq(1)}
            auto = crits if prof.lethal else 0
            for x, r in extra.items():
                _add(hit_stage, (hits + x, hits + x - auto, auto), p * q * r)
    hits_pmf: PMF = {}
    wounds_pmf: PMF = {}
    dev_pmf: PMF = {}
    to_save: dict[tuple[int, int], mpq] = {}
    for (hits, rolling, auto), p in hit_stage.items():
        _add(hits_pmf, hits, p)
        for (wounds, crits), q in _rolls(rolling, prof, "wound").items():
            dev = crits if prof.devastating else 0
            _add(wounds_pmf, wounds + auto, p * q)
            _add(dev_pmf, dev, p * q)
            _add(to_save, (wounds + auto - dev, dev), p * q)
    return attacks, _sorted(hits_pmf), _sorted(wounds_pmf), _sorted(dev_pmf), to_save


def oracle_pools(
    pools: Sequence[Step],
    unit: Unit,
    *,
    context: Context | None = None,
    modifiers: Modifiers | None = None,
    sort_saves: bool = True,
    devastating_first: bool = False,
    start: dict[State, mpq] | None = None,
    as_given: bool = False,
) -> OracleResult:
    """Resolve the given pools (and MortalWounds steps) in order, against the unit.

    ``start`` carries on from the states an earlier call left (its ``states``): the
    distributions then count from the unit's own start, earlier attacks included. The
    attack is resolved from each start state on its own, every rule that reads the
    target read against the models standing in that state (docs/rules.md D34), and the
    results are weighted by the states' probabilities.

    ``pools`` is taken as given (no gathering), so splitting identical attacks into
    several pools can be studied.  ``sort_saves=False`` resolves each pool's save dice
    in the order rolled (i.e. a random order) instead of lowest to highest,
    ``devastating_first=True`` resolves devastating wounds before the save dice instead
    of after them, and ``as_given=True`` reads the target as first given (every model
    standing, the first group current) whatever the start state: all three are wrong
    readings, kept to show that the order and the standing matter.
    """
    context = Context() if context is None else context
    modifiers = Modifiers() if modifiers is None else modifiers
    full = _initial_state(unit)
    parts: list[tuple[mpq, OracleResult]] = []
    for state, p in ({full: mpq(1)} if start is None else start).items():
        if start is None or as_given:
            standing, current = full, 0  # the unit as given: a valid order starts with 0
        else:
            where = _current(unit.groups, state)
            standing, current = state, 0 if where is None else where[0]
        resolved = _from_state(
            pools, unit, context, modifiers, sort_saves, devastating_first,
            state, standing, current,
        )  # fmt: skip
        parts.append((p, resolved))
    if len(parts) == 1 and parts[0][0] == 1:
        return parts[0][1]
    printed = [
        [] if isinstance(step, MortalWounds) else [str(a) for a in step[0][0].abilities]
        for step in pools
    ]
    return _mixture(parts, printed)


def _weighted(parts: Sequence[tuple[mpq, dict[K, mpq]]]) -> dict[K, mpq]:
    """The mixture of distributions, each weighted by its probability."""
    out: dict[K, mpq] = {}
    for w, pmf in parts:
        for key, p in pmf.items():
            _add(out, key, w * p)
    return out


def _mixture(
    parts: Sequence[tuple[mpq, OracleResult]], printed: Sequence[Sequence[str]]
) -> OracleResult:
    """The attack from several start states: every distribution weighted by the start
    state's probability; each pool's abilities in effect in any of them, in the order
    ``printed`` on its weapon."""
    weights = [w for w, _ in parts]
    results = [r for _, r in parts]

    def mix(pmfs: Sequence[PMF]) -> PMF:
        return _sorted(_weighted(list(zip(weights, pmfs, strict=True))))

    outcomes = []
    for j in range(len(results[0].pools)):
        pools = [r.pools[j] for r in results]
        used = {name for pool in pools for name in pool.abilities}
        abilities = [name for name in printed[j] if name in used]
        outcomes.append(
            PoolOutcome(
                attacks=mix([pool.attacks for pool in pools]),
                hits=mix([pool.hits for pool in pools]),
                wounds=mix([pool.wounds for pool in pools]),
                unsaved=mix([pool.unsaved for pool in pools]),
                killed=mix([pool.killed for pool in pools]),
                devastating=mix([pool.devastating for pool in pools]),
                abilities=tuple(abilities),
            )
        )
    return OracleResult(
        killed=mix([r.killed for r in results]),
        damage=mix([r.damage for r in results]),
        groups=tuple(mix([r.groups[gi] for r in results]) for gi in range(len(results[0].groups))),
        pools=tuple(outcomes),
        states=_weighted(list(zip(weights, [r.states for r in results], strict=True))),
        hazardous=mix([r.hazardous for r in results]),
    )


def _from_state(
    pools: Sequence[Step],
    unit: Unit,
    context: Context,
    modifiers: Modifiers,
    sort_saves: bool,
    devastating_first: bool,
    origin: State,
    standing: State,
    current: int,
) -> OracleResult:
    """The pools resolved in order from one start state, ``origin``, the target read as
    ``standing`` (its ``current`` group taking the first save) for every pool of the
    attack: the first pool's kills do not change the second pool's [BLAST]."""
    groups = unit.groups
    full = _initial_state(unit)
    initial_models = [len(m) for m in full]
    initial_wounds = sum(sum(m) for m in full)

    def killed(state: State) -> int:
        return sum(initial_models) - sum(len(m) for m in state)

    states: dict[State, mpq] = {origin: mpq(1)}
    hazardous: PMF = {0: mpq(1)}
    outcomes = []
    for step in pools:
        after: dict[State, mpq] = defaultdict(mpq)
        if isinstance(step, MortalWounds):
            amount = _sorted(_sum_of([_dice_tuple(step.amount)]))
            for state, p in states.items():
                for k, q in amount.items():
                    for final, r in _mortal_wounds(groups, state, k).items():
                        after[final] += p * q * r
            states = dict(after)
            outcomes.append(
                PoolOutcome(amount, amount, amount, amount, _marginal(states, killed), {0: mpq(1)})
            )
            continue
        weapon = step[0][0]
        keys = {_pool_key(w) for w, _ in step}
        if len(keys) != 1:
            raise ValueError(f"a pool must hold identical attacks; got {len(keys)} profiles")
        here_context, here_modifiers = _buffed(weapon, context, modifiers)
        prof = _command(
            pool_profile(weapon, unit, here_context, here_modifiers, standing),
            here_modifiers,
            unit,
            current,
        )
        attacks, hits, wounds, devastating, to_save = _roll_pool(step, prof)
        attacker = _attacker_damage(prof)
        per_attack: list[PMF | Callable[[int], PMF]] = [
            _defender_damage(attacker, g) for g in groups
        ]
        per_mortal: list[PMF | Callable[[int], PMF]] = [
            _defender_damage(attacker, g)
            if g.reduce_mortal
            else {max(1, d): p for d, p in attacker.items()}
            for g in groups
        ]
        if prof.damage_optimal:
            per_attack = [_optimal_damage(prof, g, mortal=False) for g in groups]
            per_mortal = [_optimal_damage(prof, g, mortal=True) for g in groups]
        command = prof if here_modifiers.reroll_one == "damage" else None
        resolver = _Resolver(
            groups, prof.ap, per_attack, per_mortal, prof.precision, command,
            save_command=unit.reroll_saves == "command",
        )  # fmt: skip
        unsaved: PMF = defaultdict(mpq)
        for (n, dev), p_n in to_save.items():
            for state, p_s in states.items():
                first = resolver.mortal(state, dev) if devastating_first else {state: mpq(1)}
                for mid, p_m in first.items():
                    again = _save_rerolls(unit.reroll_saves, groups, mid, prof.ap, prof.precision)
                    rolls = (
                        _save_rolls(n, sort_saves)
                        if again is None
                        else _rerolled_save_rolls(n, again)
                    )
                    for dice, p_d in rolls:
                        resolved = resolver.saves(mid, dice).items()
                        for (saved_state, failed, used), p_f in resolved:
                            last = (
                                {saved_state: mpq(1)}
                                if devastating_first
                                else resolver.mortal(saved_state, dev, used)
                            )
                            for final, p_v in last.items():
                                p = p_n * p_s * p_m * p_d * p_f * p_v
                                after[final] += p
                                unsaved[failed] += p
        states = dict(after)
        if prof.hazardous:
            per_fail = 3 if context.attacker_monster_or_vehicle else 1
            weapons = sum(n for _, n in step)
            hazardous = _convolve(hazardous, _hazard(weapons, per_fail))
        outcomes.append(
            PoolOutcome(
                attacks=_sorted(attacks),
                hits=hits,
                wounds=wounds,
                unsaved=_sorted(unsaved),
                killed=_marginal(states, killed),
                devastating=devastating,
                abilities=prof.used,
            )
        )
    per_group = tuple(
        _marginal(states, lambda s, gi=gi: initial_models[gi] - len(s[gi]))
        for gi in range(len(groups))
    )
    return OracleResult(
        killed=_marginal(states, killed),
        damage=_marginal(states, lambda s: initial_wounds - sum(sum(m) for m in s)),
        groups=per_group,
        pools=tuple(outcomes),
        states=states,
        hazardous=_sorted(hazardous),
    )


def oracle_attack(
    weapons: Any,
    unit: Unit,
    *,
    context: Context | None = None,
    modifiers: Modifiers | None = None,
    sort_saves: bool = True,
    devastating_first: bool = False,
    start: dict[State, mpq] | None = None,
    as_given: bool = False,
) -> OracleResult:
    """The whole attack: gather identical weapons into pools, then resolve them in order
    (from ``start``, the states an earlier attack left, where given)."""
    return oracle_pools(
        gather_entries(weapons),
        unit,
        context=context,
        modifiers=modifiers,
        sort_saves=sort_saves,
        devastating_first=devastating_first,
        start=start,
        as_given=as_given,
    )


def total(pmf: PMF) -> mpq:
    """The total probability of a pmf (1 for a complete distribution)."""
    return sum(pmf.values(), mpq(0))


def as_list(pmf: PMF, length: int) -> list[float]:
    """The pmf as floats for values 0..length-1 (zeros where absent)."""
    if any(k < 0 or k >= length for k in pmf):
        raise ValueError(f"pmf support {sorted(pmf)} does not fit in 0..{length - 1}")
    return [float(pmf.get(k, 0)) for k in range(length)]


# --------------------------------------------------------------------------- comparison

#: Engine and oracle agree to this absolute tolerance.
ATOL = 1e-12


def assert_pmf(got: Any, expected: dict[int, mpq], what: str = "") -> None:
    """Engine pmf (array) vs oracle pmf (dict), after padding both with zeros."""
    got = np.asarray(got, dtype=float)
    length = max(len(got), max(expected, default=0) + 1)
    assert min(expected, default=0) >= 0
    want = np.array([float(expected.get(k, 0)) for k in range(length)])
    have = np.zeros(length)
    have[: len(got)] = got
    np.testing.assert_allclose(have, want, rtol=0, atol=ATOL, err_msg=what)


def positions_of(unit: Unit, states: dict[State, mpq]) -> dict[tuple[int, ...], float]:
    """The oracle's states as each group's wounds lost since the start (the engine's
    ``UnitState.positions``), with their probabilities."""
    full = [g.total_wounds for g in unit.groups]
    out: dict[tuple[int, ...], float] = defaultdict(float)
    for state, p in states.items():
        out[tuple(w - sum(models) for w, models in zip(full, state, strict=True))] += float(p)
    return {k: v for k, v in out.items() if v > 0}


def joint(state: Any) -> dict[tuple[int, ...], float]:
    """An engine's ``UnitState`` as each group's wounds lost since the start, with their
    probabilities (equal rows summed, none below 1e-15)."""
    out: dict[tuple[int, ...], float] = defaultdict(float)
    for row, p in zip(state.positions.tolist(), state.probabilities.tolist(), strict=True):
        out[tuple(row)] += p
    return {k: v for k, v in out.items() if v > 1e-15}


def pmf_close(got: Any, expected: dict[int, mpq]) -> bool:
    """True if :func:`assert_pmf` holds."""
    try:
        assert_pmf(got, expected)
    except AssertionError:
        return False
    return True


def exact(pmf: dict[int, mpq]) -> dict[int, mpq]:
    """Drop zero-probability entries, so two exact pmfs compare by their support."""
    return {k: p for k, p in pmf.items() if p}
