"""The exact engine: a unit's pools of attacks, in order, against one target unit."""

from __future__ import annotations

from functools import partial
from types import ModuleType
from typing import Any

import numpy as np

from .abilities import warn_unsupported
from .allocation import Layout, resolve_saves, unsaved_distribution
from .dist import Dist
from .errors import LimitError, ProfileError, field_error
from .profiles import Pool, Unit, gather_pools
from .result import AttackResult, GroupResult, PoolResult
from .rules import get_ruleset
from .rules.common import FACES
from .steps import hit_and_wound

__all__ = ["MAX_POOL_DICE", "MAX_UNIT_WOUNDS", "attack", "pool_saves"]

#: The most attack dice one pool may roll in the exact engine.
MAX_POOL_DICE = 2000
#: The most wounds a target unit may have in the exact engine.
MAX_UNIT_WOUNDS = 5000


def _check_sizes(pools: tuple[Pool, ...], target: Unit) -> None:
    hint = "use mathhammer.simulate for larger attacks"
    if target.total_wounds > MAX_UNIT_WOUNDS:
        raise field_error(
            LimitError, "target wounds", f"at most {MAX_UNIT_WOUNDS}", target.total_wounds, hint
        )
    for pool in pools:
        dice = sum(n * w.attacks.max for w, n in pool.weapons)  # type: ignore[union-attr]
        if dice > MAX_POOL_DICE:
            raise field_error(
                LimitError,
                f"attack dice of pool {pool.label!r}",
                f"at most {MAX_POOL_DICE}",
                dice,
                hint,
            )


def pool_saves(pool: Pool, target: Unit, ruleset: ModuleType) -> tuple[np.ndarray, list[Dist]]:
    """Per group: the faces that save against the pool, and the wounds lost per unsaved attack.

    Feel No Pain is rolled for every wound that would be lost: each is prevented with
    probability P(roll >= FNP), so the wounds lost are a binomial thinning of D.
    """
    weapon = pool.weapon
    faces = np.asarray(FACES)
    saved = np.array(
        [ruleset.save_outcome(faces, weapon.ap, g.save, g.invuln) for g in target.groups],
        dtype=bool,
    )
    damage = weapon.damage.dist  # type: ignore[union-attr]
    effective = []
    for g in target.groups:
        if g.fnp is None:
            effective.append(damage)
        else:
            p_lost = float(np.mean(~ruleset.fnp_outcome(faces, g.fnp)))
            effective.append(damage.thin(p_lost))
    return saved, effective


def attack(weapons: Any, target: Unit, *, rules: str = "11e") -> AttackResult:
    """The exact distributions of a unit's attacks against one target unit.

    Parameters
    ----------
    weapons : Weapon, list of Weapon, or list of (Weapon, count)
        The attacking unit's weapons. Identical attacks (same BS/WS, S, AP, D and
        abilities) are pooled; pools resolve in the order first declared, each one
        changing the target's state (wounded models carry over between pools).
    target : Unit
        The target, its groups in allocation order.
    rules : str
        The ruleset: ``"11e"``.

    Returns
    -------
    AttackResult

    Examples
    --------
    >>> import mathhammer as mh
    >>> bolter = mh.Weapon("Bolt rifle", attacks=2, skill=3, strength=4, ap=-1, damage=1)
    >>> marines = mh.Unit.of("Intercessors", models=5, toughness=4, save=3, wounds=2)
    >>> res = mh.attack([(bolter, 10)], marines)

    Each of the 20 attacks hits on 3+ (2/3), wounds S4 vs T4 on 4+ (1/2) and beats
    the 3+ save at AP -1 on a natural 1-3 (1/2): 1/6 unsaved, so about 20/6 wounds.

    >>> round(res.damage.mean(), 4), round(res.killed.at_least(2), 4)
    (3.3332, 0.4335)
    """
    if not isinstance(target, Unit):
        raise field_error(ProfileError, "target", "a Unit", target)
    ruleset = get_ruleset(rules)
    pools = gather_pools(weapons)
    _check_sizes(pools, target)
    layout = Layout(target)
    state = layout.initial_state()
    pool_results = []
    for pool in pools:
        warn_unsupported(pool.weapon.name, pool.weapon.ability_tokens)
        steps = hit_and_wound(pool, target, ruleset)
        save_dice = Dist._trusted(steps.to_save[:, 0])
        saved, effective = pool_saves(pool, target, ruleset)
        before = state
        state = resolve_saves(layout, before, save_dice, saved, effective)
        pool_results.append(
            PoolResult(
                label=pool.label,
                weapons=pool.weapons,
                attacks=steps.attacks,
                hits=steps.hits,
                wounds=steps.wounds,
                killed=layout.distribution(state, layout.killed),
                unsaved_source=partial(
                    unsaved_distribution, layout, before, save_dice, saved, effective
                ),
            )
        )
    groups = tuple(
        GroupResult(g, layout.distribution(state, layout.killed_in_group(i)))
        for i, g in enumerate(target.groups)
    )
    return AttackResult(
        target=target,
        rules=ruleset.NAME,
        killed=layout.distribution(state, layout.killed),
        damage=layout.distribution(state, layout.damage),
        groups=groups,
        pools=tuple(pool_results),
    )
