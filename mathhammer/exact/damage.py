"""What one unsaved attack, and one devastating wound, take from a model of each group.

The attacker's Damage (set, multiplied, added to, [MELTA] X) meets the defender's
modifiers (halving, reduction) and Feel No Pain, which thins the wounds lost. Both the
engine and its cost estimates (:mod:`mathhammer.exact.budget`) read these.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ..core.binomial import binomial_thin
from ..core.caches import register
from ..core.dice import Dice
from ..core.dist import Dist
from ..core.frozen import HashedKey
from ..model.profiles import ModelGroup, Unit
from ..rules.base import PoolChecks, Ruleset
from ..rules.damage_rerolls import damage_rerolls, wound_lost

__all__ = [
    "CommandDamage",
    "LeftDamage",
    "command_damage",
    "damage_at",
    "damage_key",
    "group_damage",
    "never_zero",
    "wound_lost",
]


@dataclass(frozen=True, eq=False)
class LeftDamage:
    """The wounds one attack takes from a model of a group, by the wounds the model has
    left (``by_left[w]``, ``w = 0..W``): the attacker re-rolls damage with them in view
    (``Modifiers(reroll_damage="optimal")``, docs/rules.md D31)."""

    by_left: tuple[Dist, ...]

    @property
    def n(self) -> int:
        """The most wounds taken."""
        return max(d.n for d in self.by_left)


#: What a group loses to one attack: the same whatever the model has left, or not.
Damage = Dist | LeftDamage


def damage_at(damage: Damage, left: int) -> Dist:
    """What a model with ``left`` wounds left loses."""
    if isinstance(damage, Dist):
        return damage
    return damage.by_left[min(left, len(damage.by_left) - 1)]


def damage_key(damages: Sequence[Damage]) -> tuple[bytes, ...]:
    """A key equal for equal damage (a cache's)."""
    return tuple(
        b"".join(d.probabilities.tobytes() + b"|" for d in x.by_left)
        if isinstance(x, LeftDamage)
        else x.probabilities.tobytes()
        for x in damages
    )


def never_zero(damages: Sequence[Damage]) -> bool:
    """Whether every attack takes at least one wound, whatever the model has left."""
    return all(
        all(
            d.probabilities[0] == 0.0
            for d in (x.by_left[1:] if isinstance(x, LeftDamage) else (x,))
        )
        for x in damages
    )


def group_damage(
    checks: PoolChecks, target: Unit, ruleset: Ruleset
) -> tuple[tuple[Damage, ...], tuple[Damage, ...]]:
    """Per group: wounds lost to one unsaved attack, and to one devastating wound.

    Made once per damage profile and target's groups (cached).

    The Damage characteristic is set, multiplied and added to by the attacker ([MELTA]
    adds), then halved and reduced by the defender (fractions round up, minimum 1);
    Feel No Pain is rolled for every wound, so the wounds lost are a binomial thinning.
    A devastating wound deals mortal wounds equal to the attacker's D: the defender's
    halving and reduction apply to attacks' damage, not to mortal wounds (docs/rules.md D9),
    unless the group's rule says so (``reduce_mortal``). With a damage re-roll made with
    the model's wounds in view, each is a :class:`LeftDamage`.
    """
    key = (checks.damage.hashed, checks.melta, checks.damage_multiply, checks.damage_add)
    optimal = checks.reroll_damage == "optimal"
    return _group_damage(*key, checks.facing(target).groups_key, ruleset, optimal)


@register
@lru_cache(maxsize=4096)
def _group_damage(
    damage_key: HashedKey,
    melta: Dice | None,
    damage_multiply: int,
    damage_add: int,
    groups_key: HashedKey,
    ruleset: Ruleset,
    optimal: bool = False,
) -> tuple[tuple[Damage, ...], tuple[Damage, ...]]:
    """:func:`group_damage` by its parts (cached; the Damage characteristic and the
    groups as their own hashed keys, :attr:`Dice.hashed <mathhammer.core.dice.Dice>` and
    :attr:`Unit.groups_key <mathhammer.model.unit.Unit.groups_key>`): by the wounds left
    where the damage is re-rolled with them in view (``optimal``)."""
    (damage,) = damage_key.parts
    groups: tuple[ModelGroup, ...] = groups_key.parts
    key = (damage, melta, damage_multiply, damage_add, groups, ruleset)
    if optimal:
        attacks, mortals = _left_parts(*key, ("all",))
        return attacks, mortals
    if _unmodified(*key):
        return _thinned_damage(damage.dist, groups, ruleset)
    return _modified_damage(*key)


def _modified_damage(
    damage: Dice,
    melta: Dice | None,
    damage_multiply: int,
    damage_add: int,
    groups: tuple[ModelGroup, ...],
    ruleset: Ruleset,
) -> tuple[tuple[Damage, ...], tuple[Damage, ...]]:
    """:func:`_group_damage` of a Damage modified on the way (:func:`_rolls`): per group,
    the pmf of what each roll takes, thinned by Feel No Pain, for an attack, then for a
    devastating wound."""
    weights, _, taken = _rolls(damage, melta, damage_multiply, damage_add, groups, ruleset)
    pairs = list(zip(groups, taken, strict=True))
    return (
        tuple(_pmf_of(value, weights).thin(wound_lost(g, ruleset)) for g, (value, _) in pairs),
        tuple(
            _pmf_of(amount, weights).thin(wound_lost(g, ruleset, mortal=True))
            for g, (_, amount) in pairs
        ),
    )


def _thinned_damage(
    dist: Dist, groups: tuple[ModelGroup, ...], ruleset: Ruleset
) -> tuple[tuple[Damage, ...], tuple[Damage, ...]]:
    """:func:`_group_damage` of a rolled Damage every attack takes unchanged: per group,
    the roll thinned by the group's Feel No Pain (once per chance a wound is lost), against
    attacks, then against mortal wounds."""
    kept = {1.0: dist}  # the wounds lost, by the chance a wound is lost
    attacks_lost: list[Dist] = []
    mortal_lost: list[Dist] = []
    for g in groups:
        lost = wound_lost(g, ruleset)
        # the same Feel No Pain against mortal wounds unless the group has one for them
        mortal = lost if g.fnp_mortal is None else wound_lost(g, ruleset, mortal=True)
        for into, chance in ((attacks_lost, lost), (mortal_lost, mortal)):
            found = kept.get(chance)
            if found is None:  # Dist.thin, its checks passed: a chance of a table
                found = kept[chance] = Dist._trusted(binomial_thin(dist._pmf, chance))
            into.append(found)
    return tuple(attacks_lost), tuple(mortal_lost)


def _unmodified(
    damage: Dice,
    melta: Dice | None,
    damage_multiply: int,
    damage_add: int,
    groups: tuple[ModelGroup, ...],
    ruleset: Ruleset,
) -> bool:
    """Whether every attack takes its rolled Damage, unchanged: nothing multiplied, added,
    halved or reduced, every roll at least 1, under the ruleset's own rule for the
    modifiers (:meth:`~mathhammer.rules.base.Ruleset.modified_damage`, which raises a
    result to 1 at least)."""
    for g in groups:  # a loop, not any() over a generator: every pool asks (S3)
        if g.halve_damage or g.damage_reduction:
            return False
    return (
        (melta, damage_multiply, damage_add) == (None, 1, 0)
        and type(ruleset).modified_damage is Ruleset.modified_damage
        and damage.dist._pmf[0] == 0.0  # the pmf's slot: a property is a call (S3)
    )


def _rolls(
    damage: Dice,
    melta: Dice | None,
    damage_multiply: int,
    damage_add: int,
    groups: tuple[ModelGroup, ...],
    ruleset: Ruleset,
) -> tuple[np.ndarray, int, list[tuple[np.ndarray, np.ndarray]]]:
    """Every (rolled D, rolled [MELTA] X) pair, D major: its probability, the number of
    X values, and per group what the pair takes from a model as an attack's damage and
    as a devastating wound's mortal wounds (before Feel No Pain)."""
    d_values = np.arange(damage.dist.n + 1)
    extra = melta.dist if melta is not None else Dist.constant(0)
    x_values = np.arange(extra.n + 1)
    weights = np.outer(damage.dist.probabilities, extra.probabilities).ravel()
    d, x = np.repeat(d_values, len(x_values)), np.tile(x_values, len(d_values))
    add = damage_add + x
    mortal = ruleset.modified_damage(d, damage_multiply, add)
    taken = []
    for g in groups:
        value = ruleset.modified_damage(d, damage_multiply, add, g.halve_damage, g.damage_reduction)
        taken.append((value, value if g.reduce_mortal else mortal))
    return weights, len(x_values), taken


#: A pool's damage under a command re-roll (docs/rules.md D32): per group, what an attack
#: (then a devastating wound) takes when the roll is kept, and when it is rolled again.
CommandDamage = tuple[
    tuple[tuple[LeftDamage, ...], tuple[LeftDamage, ...]],
    tuple[tuple[LeftDamage, ...], tuple[LeftDamage, ...]],
]


def command_damage(checks: PoolChecks, target: Unit, ruleset: Ruleset) -> CommandDamage | None:
    """With a command re-roll of a damage roll, per group and by wounds left: the wounds
    an attack takes with its roll kept, and with it rolled again, the roll re-rolled
    where :func:`~mathhammer.rules.damage_rerolls.damage_rerolls` marks it; the same for
    a devastating wound. Each part is a share of the whole (their sum is the optimal
    re-roll's). None without one."""
    command = checks.reroll_one
    if command is None or command.step != "damage":
        return None
    key = (checks.damage, checks.melta, checks.damage_multiply, checks.damage_add)
    return _command_damage(*key, checks.facing(target).groups, ruleset)


@register
@lru_cache(maxsize=1024)
def _command_damage(
    damage: Dice,
    melta: Dice | None,
    damage_multiply: int,
    damage_add: int,
    groups: tuple[ModelGroup, ...],
    ruleset: Ruleset,
) -> CommandDamage:
    kept, rerolled, mortal_kept, mortal_rerolled = _left_parts(
        damage, melta, damage_multiply, damage_add, groups, ruleset, ("kept", "rerolled")
    )
    return (kept, rerolled), (mortal_kept, mortal_rerolled)


def _left_parts(
    damage: Dice,
    melta: Dice | None,
    damage_multiply: int,
    damage_add: int,
    groups: tuple[ModelGroup, ...],
    ruleset: Ruleset,
    parts: tuple[str, ...],
) -> list[tuple[LeftDamage, ...]]:
    """Per group, what an attack takes by wounds left (:func:`_left_damage`, the roll
    re-rolled where :func:`~mathhammer.rules.damage_rerolls.damage_rerolls` marks it), one
    tuple per part of ``parts``, then the same for a devastating wound."""
    weights, melta_values, taken = _rolls(
        damage, melta, damage_multiply, damage_add, groups, ruleset
    )
    profile = (ruleset, damage, melta, damage_multiply, damage_add)
    out: list[tuple[LeftDamage, ...]] = []
    for kind, is_mortal in enumerate((False, True)):  # an attack, then a devastating wound
        rolls = [  # per group: what each roll takes (taken[g][kind]), and which are re-rolled
            (g, pair[kind], damage_rerolls(*profile, g, is_mortal))
            for g, pair in zip(groups, taken, strict=True)
        ]
        out += [
            tuple(
                _left_damage(again, rolled, weights, melta_values, g, ruleset, is_mortal, part)
                for g, rolled, again in rolls
            )
            for part in parts
        ]
    return out


def _left_damage(
    again: np.ndarray,
    taken: np.ndarray,
    weights: np.ndarray,
    melta_values: int,
    group: ModelGroup,
    ruleset: Ruleset,
    mortal: bool,
    part: str = "all",
) -> LeftDamage:
    """Per wounds left ``w``: each (d, x) roll kept, or rolled again for a new d with
    the same x (``again[w, d, x]``), then thinned by Feel No Pain; only the rolls kept,
    or only those rolled again, with ``part="kept"`` or ``"rerolled"``."""
    size = int(taken.max()) + 1
    by_roll = np.zeros((len(taken), size))  # [(d, x), amount]
    by_roll[np.arange(len(taken)), taken] = 1.0
    # a new roll with the same x: the mixture over d of its amounts
    x = np.arange(len(taken)) % melta_values
    p_x = np.bincount(x, weights=weights, minlength=melta_values)
    fresh = np.zeros((melta_values, size))
    np.add.at(fresh, x, weights[:, None] * by_roll)
    fresh /= np.where(p_x > 0, p_x, 1.0)[:, None]
    lost = wound_lost(group, ruleset, mortal)
    keep = by_roll if part != "rerolled" else np.zeros_like(by_roll)
    again_rows = fresh[x] if part != "kept" else np.zeros_like(by_roll)
    out = []
    for w in range(again.shape[0]):
        rerolled = again[w].ravel()  # in the order of (d, x): d major, as taken is
        rows = np.where(rerolled[:, None], again_rows, keep)
        out.append(Dist._trusted(weights @ rows).thin(lost))
    return LeftDamage(tuple(out))


def _pmf_of(values: np.ndarray, weights: np.ndarray) -> Dist:
    return Dist._trusted(np.bincount(values, weights=weights).astype(np.float64))
