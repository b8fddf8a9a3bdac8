"""A brute-force oracle for the 11e attack sequence (RULES.md sections 1 and 2).

Every die face is enumerated with :func:`itertools.product` and weighted with an exact
:class:`~fractions.Fraction`; the rules are applied literally, one die at a time. It is
deliberately slow and simple: use it only for tiny cases (a handful of dice per stage).

Nothing from the exact engine is used: only the public profile classes are read
(``Weapon``, ``ModelGroup``, ``Unit``), through their plain fields.

The walk is stage by stage, each stage a ``dict`` from outcome to probability:

1. attacks: every weapon copy rolls its own A; identical weapons pool their dice;
2. hits: one D6 per attack (unmodified 1 fails, unmodified 6 is a critical hit, else
   a roll >= BS/WS hits);
3. wounds: one D6 per hit against the S-vs-T ladder (natural 1 fails, natural 6 wounds);
4. saves: one D6 per wound, all rolled at once, then **sorted from lowest to highest**
   and resolved one at a time against the current model (first group with models left;
   within it the wounded model if there is one);
5. damage: the damage dice are rolled per unsaved attack; Feel No Pain is one D6 per
   wound of that attack; the model loses min(wounds left, unprevented wounds); excess
   is lost, and so are save dice left over once the unit is destroyed.

Pools resolve in order of first declaration and the unit's state carries over.

Examples
--------
One attack, BS 3+, S4 vs T4 (wounds on 4+), AP 0, D1 against one Sv 4+ W1 model:
P(kill) = 4/6 * 3/6 * 3/6 = 1/6.

>>> from mathhammer import ModelGroup, Unit, Weapon
>>> gun = Weapon("gun", attacks=1, skill=3, strength=4, ap=0, damage=1)
>>> target = Unit("one", [ModelGroup(1, toughness=4, save=4, wounds=1)])
>>> oracle_attack(gun, target).killed
{0: Fraction(5, 6), 1: Fraction(1, 6)}
"""

from __future__ import annotations

import itertools
from collections import Counter, defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

from mathhammer import ModelGroup, Unit, Weapon

__all__ = [
    "OracleResult",
    "PoolOutcome",
    "gather_entries",
    "oracle_attack",
    "oracle_pools",
    "wound_target",
]

D6 = tuple(range(1, 7))
#: Abilities that only govern weapon selection; anything else is out of the oracle's scope.
NO_EFFECT = frozenset({"ASSAULT", "PISTOL", "CLOSE-QUARTERS", "PSYCHIC", "ONE SHOT"})

Entry = tuple[Weapon, int]
# One group's state: the remaining wounds of each model still alive, sorted ascending so
# that equal states compare equal.  The unit's state is one such tuple per group.
State = tuple[tuple[int, ...], ...]
PMF = dict[int, Fraction]


# --------------------------------------------------------------------------- inputs


def _ability_tokens(weapon: Weapon) -> tuple[str, ...]:
    text = weapon.abilities.replace("[", " ").replace("]", " ")
    tokens = tuple(sorted(" ".join(t.split()).upper() for t in text.split(",") if t.strip()))
    unknown = [t for t in tokens if t not in NO_EFFECT]
    if unknown:
        raise NotImplementedError(f"the oracle does not model abilities {unknown}")
    return tokens


def _dice_tuple(dice: Any) -> tuple[int, int, int]:
    return (dice.count, dice.sides, dice.bonus)


def _pool_key(weapon: Weapon) -> tuple[Any, ...]:
    """Identical attacks (seed 002): same BS/WS, S, AP, D and abilities; not name, not A."""
    return (
        weapon.skill,
        weapon.strength,
        weapon.ap,
        _dice_tuple(weapon.damage),
        _ability_tokens(weapon),
    )


def _entries(weapons: Any) -> list[Entry]:
    """The three accepted forms: a Weapon, a list of Weapons, a list of (Weapon, count)."""
    if isinstance(weapons, Weapon):
        return [(weapons, 1)]
    out = []
    for item in weapons:
        if isinstance(item, Weapon):
            out.append((item, 1))
        else:
            weapon, count = item
            out.append((weapon, count))
    return out


def gather_entries(weapons: Any) -> list[list[Entry]]:
    """Weapons gathered into pools of identical attacks, in order of first declaration."""
    pools: dict[tuple[Any, ...], list[Entry]] = {}
    for weapon, count in _entries(weapons):
        pools.setdefault(_pool_key(weapon), []).append((weapon, count))
    return list(pools.values())


def _toughness(unit: Unit) -> int:
    """The unit's T: the highest T among its non-CHARACTER models (all models if none)."""
    bodies = [g.toughness for g in unit.groups if not g.character]
    return max(bodies or [g.toughness for g in unit.groups])


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


# --------------------------------------------------------------------------- dice


def _faces(dice: tuple[int, int, int]) -> Iterator[tuple[int, Fraction]]:
    """Every outcome of ``count``D``sides``+``bonus``, face by face, with its probability."""
    count, sides, bonus = dice
    if sides == 0 or count == 0:
        yield bonus, Fraction(1)
        return
    weight = Fraction(1, sides**count)
    for roll in itertools.product(range(1, sides + 1), repeat=count):
        yield sum(roll) + bonus, weight


def _add(pmf: dict[Any, Fraction], key: Any, p: Fraction) -> None:
    pmf[key] = pmf.get(key, Fraction(0)) + p


def _attack_pmf(entries: Sequence[Entry]) -> PMF:
    """Attack dice in the pool: every weapon copy rolls its own A, then they are summed."""
    copies = [_dice_tuple(w.attacks) for w, n in entries for _ in range(n)]
    pmf: PMF = {}
    for combo in itertools.product(*(list(_faces(d)) for d in copies)):
        p = Fraction(1)
        for _, q in combo:
            p *= q
        _add(pmf, sum(v for v, _ in combo), p)
    return pmf


def _hit_passes(face: int, skill: int) -> bool:
    """Hit roll, first match: unmodified 1 fails; unmodified 6 is a Critical Hit (a hit)."""
    if face == 1:
        return False
    if face == 6:
        return True
    return face >= skill


def _wound_passes(face: int, required: int) -> bool:
    """Wound roll, first match: natural 1 fails; natural 6 is a Critical Wound (a wound)."""
    if face == 1:
        return False
    if face == 6:
        return True
    return face >= required


_RULES = {"hit": _hit_passes, "wound": _wound_passes}


@cache
def _successes(n: int, rule: str, threshold: int) -> tuple[tuple[int, Fraction], ...]:
    """Roll n D6 at once; the distribution of how many pass the rule."""
    passes = _RULES[rule]
    counts: Counter[int] = Counter(
        sum(passes(face, threshold) for face in roll) for roll in itertools.product(D6, repeat=n)
    )
    return tuple((k, Fraction(c, 6**n)) for k, c in sorted(counts.items()))


def _thin(pmf: PMF, rule: str, threshold: int) -> PMF:
    out: PMF = {}
    for n, p in pmf.items():
        for k, q in _successes(n, rule, threshold):
            _add(out, k, p * q)
    return out


# --------------------------------------------------------------------------- saves and damage


def _initial_state(unit: Unit) -> State:
    """Every model's remaining wounds; a group's first model carries its wounds_lost."""
    state = []
    for g in unit.groups:
        models = [g.wounds] * g.count
        models[0] -= g.wounds_lost
        state.append(tuple(sorted(models)))
    return tuple(state)


def _current(groups: Sequence[ModelGroup], state: State) -> tuple[int, int] | None:
    """(group, model) to allocate to: first group with models left, its wounded model first."""
    for gi, models in enumerate(state):
        if not models:
            continue
        wounded = [mi for mi, left in enumerate(models) if left < groups[gi].wounds]
        return gi, (wounded[0] if wounded else 0)
    return None  # the unit is destroyed


def _saved(face: int, ap: int, group: ModelGroup) -> bool:
    """Check save roll, first match: natural 1 fails; InSv (AP ignored); armour save + AP."""
    if face == 1:
        return False
    if group.invuln is not None and face >= group.invuln:
        return True
    return face + ap >= group.save


@cache
def _wounds_lost(damage: int, left: int, fnp: int | None) -> tuple[tuple[int, Fraction], ...]:
    """Wounds the model loses from one attack of ``damage``: FNP is a D6 per wound.

    Every FNP roll is enumerated; the result is cached because it depends only on the
    arguments.
    """
    if fnp is None:
        return ((min(left, damage), Fraction(1)),)
    counts: Counter[int] = Counter()
    for rolls in itertools.product(D6, repeat=damage):
        prevented = sum(r >= fnp for r in rolls)
        counts[min(left, damage - prevented)] += 1
    return tuple((lost, Fraction(c, 6**damage)) for lost, c in sorted(counts.items()))


def _apply(state: State, gi: int, mi: int, lost: int) -> State:
    models = list(state[gi])
    models[mi] -= lost
    if models[mi] <= 0:
        del models[mi]  # destroyed
    new = list(state)
    new[gi] = tuple(sorted(models))
    return tuple(new)


class _Resolver:
    """Save resolution for one pool profile against one unit, memoised on (state, dice)."""

    def __init__(self, groups: Sequence[ModelGroup], ap: int, damage: tuple[int, int, int]):
        self.groups = groups
        self.ap = ap
        self.damage = damage
        self.memo: dict[tuple[State, tuple[int, ...]], dict[tuple[State, int], Fraction]] = {}

    def resolve(self, state: State, dice: tuple[int, ...]) -> dict[tuple[State, int], Fraction]:
        """Resolve ``dice`` in the given order: (final state, failed saves) -> probability."""
        key = (state, dice)
        if key in self.memo:
            return self.memo[key]
        out: dict[tuple[State, int], Fraction] = {}
        where = _current(self.groups, state)
        if not dice or where is None:
            out[(state, 0)] = Fraction(1)  # done, or leftover dice lost on a destroyed unit
        else:
            gi, mi = where
            group = self.groups[gi]
            if _saved(dice[0], self.ap, group):
                out = dict(self.resolve(state, dice[1:]))
            else:
                left = state[gi][mi]
                for dmg, p in _faces(self.damage):
                    for lost, q in _wounds_lost(dmg, left, group.fnp):
                        after = _apply(state, gi, mi, lost)
                        for (final, unsaved), r in self.resolve(after, dice[1:]).items():
                            _add(out, (final, unsaved + 1), p * q * r)
        self.memo[key] = out
        return out


def _save_rolls(n: int, sort: bool) -> dict[tuple[int, ...], Fraction]:
    """All n save dice rolled at once; sorted lowest to highest unless ``sort`` is False."""
    counts = Counter(
        tuple(sorted(roll)) if sort else roll for roll in itertools.product(D6, repeat=n)
    )
    return {dice: Fraction(c, 6**n) for dice, c in counts.items()}


# --------------------------------------------------------------------------- the sequence


@dataclass(frozen=True)
class PoolOutcome:
    """Stage distributions of one pool, as exact ``{value: probability}`` dicts."""

    attacks: PMF
    hits: PMF
    wounds: PMF
    unsaved: PMF
    killed: PMF  # models destroyed so far, cumulative over the pools


@dataclass(frozen=True)
class OracleResult:
    """Exact distributions of the whole attack, as ``{value: probability}`` dicts."""

    killed: PMF
    damage: PMF
    groups: tuple[PMF, ...]  # models destroyed in each allocation group
    pools: tuple[PoolOutcome, ...]
    states: dict[State, Fraction]

    @property
    def p_destroyed(self) -> Fraction:
        """P(every model destroyed)."""
        return sum((p for s, p in self.states.items() if not any(s)), Fraction(0))


def _marginal(states: dict[State, Fraction], stat: Any) -> PMF:
    out: PMF = defaultdict(Fraction)
    for state, p in states.items():
        out[stat(state)] += p
    return dict(sorted(out.items()))


def oracle_pools(
    pools: Sequence[Sequence[Entry]], unit: Unit, *, sort_saves: bool = True
) -> OracleResult:
    """Resolve the given pools in order, against the unit.

    ``pools`` is taken as given (no gathering), so splitting identical attacks into
    several pools can be studied.  ``sort_saves=False`` resolves each pool's save dice
    in the order rolled (i.e. a random order) instead of lowest to highest.
    """
    groups = unit.groups
    toughness = _toughness(unit)
    start = _initial_state(unit)
    initial_models = [len(m) for m in start]
    initial_wounds = sum(sum(m) for m in start)

    def killed(state: State) -> int:
        return sum(initial_models) - sum(len(m) for m in state)

    states: dict[State, Fraction] = {start: Fraction(1)}
    outcomes = []
    for entries in pools:
        weapon = entries[0][0]
        keys = {_pool_key(w) for w, _ in entries}
        if len(keys) != 1:
            raise ValueError(f"a pool must hold identical attacks; got {len(keys)} profiles")
        attacks = _attack_pmf(entries)
        hits = _thin(attacks, "hit", weapon.skill)
        wounds = _thin(hits, "wound", wound_target(weapon.strength, toughness))
        resolver = _Resolver(groups, weapon.ap, _dice_tuple(weapon.damage))
        after: dict[State, Fraction] = defaultdict(Fraction)
        unsaved: PMF = defaultdict(Fraction)
        for n, p_n in wounds.items():
            rolls = _save_rolls(n, sort_saves)
            for state, p_s in states.items():
                for dice, p_d in rolls.items():
                    for (final, failed), p_f in resolver.resolve(state, dice).items():
                        p = p_n * p_s * p_d * p_f
                        after[final] += p
                        unsaved[failed] += p
        states = dict(after)
        outcomes.append(
            PoolOutcome(
                attacks=dict(sorted(attacks.items())),
                hits=dict(sorted(hits.items())),
                wounds=dict(sorted(wounds.items())),
                unsaved=dict(sorted(unsaved.items())),
                killed=_marginal(states, killed),
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
    )


def oracle_attack(weapons: Any, unit: Unit, *, sort_saves: bool = True) -> OracleResult:
    """The whole attack: gather identical weapons into pools, then resolve them in order."""
    return oracle_pools(gather_entries(weapons), unit, sort_saves=sort_saves)


def total(pmf: PMF) -> Fraction:
    """The total probability of a pmf (1 for a complete distribution)."""
    return sum(pmf.values(), Fraction(0))


def as_list(pmf: PMF, length: int) -> list[float]:
    """The pmf as floats for values 0..length-1 (zeros where absent)."""
    if any(k < 0 or k >= length for k in pmf):
        raise ValueError(f"pmf support {sorted(pmf)} does not fit in 0..{length - 1}")
    return [float(pmf.get(k, 0)) for k in range(length)]
