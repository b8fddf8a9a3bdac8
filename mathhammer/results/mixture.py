"""An attack's result as a mixture of the results of its parts.

An attack carried on from a target that may stand in several ways is resolved from each
(docs/rules.md D34): each part starts from some of the states, with its own declaration.
Its result is the parts' results weighted by the probability of their states: every
distribution the mixture of theirs, the tests' chances and the mass trimmed their weighted
sums, the final state the weighted union of their states.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from itertools import chain

import numpy as np

from ..core.dist import Dist
from ..model.profiles import Weapon
from .attack import AttackResult, GroupResult, PoolResult, TestResult
from .state import UnitState

__all__ = ["mixed", "used_in_any"]


def _mix(weights: Sequence[float], dists: Sequence[Dist]) -> Dist:
    """``sum(w_i * dists[i])``, on the longest support."""
    out = np.zeros(max(d.n for d in dists) + 1)
    for w, d in zip(weights, dists, strict=True):
        out[: d.n + 1] += w * d.probabilities
    return Dist._trusted(out)


def used_in_any(
    weapons: Sequence[tuple[Weapon, int]], used: Sequence[Sequence[str]]
) -> tuple[str, ...]:
    """The abilities a pool used in any part, in the order printed on its weapon (any
    other after them, in the order first met).

    Examples
    --------
    >>> from mathhammer.model.profiles import Weapon
    >>> gun = Weapon("Gun", 1, 3, 4, abilities="[PRECISION], [DEVASTATING WOUNDS]")
    >>> parts = [("[DEVASTATING WOUNDS]",), ("[PRECISION]", "[DEVASTATING WOUNDS]")]
    >>> used_in_any([(gun, 1)], parts)
    ('[PRECISION]', '[DEVASTATING WOUNDS]')
    """
    found = dict.fromkeys(chain.from_iterable(used))
    printed = _printed(weapons)
    first = [a for a in printed if a in found]
    return (*first, *(a for a in found if a not in printed))


def _printed(weapons: Sequence[tuple[Weapon, int]]) -> list[str]:
    """The abilities printed on a pool's weapon (none for a pool of mortal wounds)."""
    return [str(a) for a in weapons[0][0].abilities] if weapons else []


def _mixed_unsaved(weights: Sequence[float], pools: Sequence[PoolResult]) -> Dist:
    """The pools' failed saves mixed (each computed when first asked for)."""
    return _mix(weights, [p.unsaved for p in pools])


def _pool(weights: Sequence[float], pools: Sequence[PoolResult]) -> PoolResult:
    first = pools[0]

    def mix(read: Callable[[PoolResult], Dist]) -> Dist:
        return _mix(weights, [read(p) for p in pools])

    return PoolResult(
        label=first.label,
        weapons=first.weapons,
        attacks=mix(lambda p: p.attacks),
        hits=mix(lambda p: p.hits),
        wounds=mix(lambda p: p.wounds),
        killed=mix(lambda p: p.killed),
        unsaved_source=partial(_mixed_unsaved, tuple(weights), tuple(pools)),
        devastating=mix(lambda p: p.devastating),
        abilities=used_in_any(pools[0].weapons, [p.abilities for p in pools]),
    )


def _group(weights: Sequence[float], groups: Sequence[GroupResult]) -> GroupResult:
    killed = _mix(weights, [g.killed for g in groups])
    damages = [g.damage for g in groups]
    damage = None if None in damages else _mix(weights, damages)  # type: ignore[arg-type]
    return GroupResult(groups[0].group, killed, damage=damage)


def _pools(weights: Sequence[float], results: Sequence[AttackResult]) -> tuple[PoolResult, ...]:
    """Each pool of the parts' results mixed with its counterparts (the i-th of each)."""
    count = len(results[0].pools)
    return tuple(_pool(weights, [r.pools[i] for r in results]) for i in range(count))


def _groups(weights: Sequence[float], results: Sequence[AttackResult]) -> tuple[GroupResult, ...]:
    """Each group of the parts' results mixed with its counterparts (the i-th of each)."""
    count = len(results[0].groups)
    return tuple(_group(weights, [r.groups[i] for r in results]) for i in range(count))


def _tests(weights: Sequence[float], results: Sequence[AttackResult]) -> tuple[TestResult, ...]:
    taken: dict[str, list[float]] = {}
    for w, result in zip(weights, results, strict=True):
        for test in result.tests:
            total = taken.setdefault(test.name, [0.0, 0.0])
            total[0] += w * test.p_taken
            total[1] += w * test.p_failed
    return tuple(TestResult(name, p, f) for name, (p, f) in taken.items())


def _state(weights: Sequence[float], states: Sequence[UnitState | None]) -> UnitState | None:
    """The parts' states, each weighted, as one distribution (equal states summed)."""
    held = [s for s in states if s is not None]
    if len(held) != len(states):
        return None
    found, probabilities = _summed(weights, held)
    focus = tuple(sorted({g for s in held for g in s.focus}))
    first = held[0]
    return UnitState(first.unit, first.rules, found, probabilities, focus)


def _summed(weights: Sequence[float], states: Sequence[UnitState]) -> tuple[np.ndarray, np.ndarray]:
    """Every position any of ``states`` reaches, once, and its probability: the states'
    probabilities weighted and summed."""
    positions = np.concatenate([s.positions for s in states])
    weighted = np.concatenate([w * s.probabilities for w, s in zip(weights, states, strict=True)])
    found, rows = np.unique(positions, axis=0, return_inverse=True)
    probabilities = np.bincount(rows.reshape(-1), weights=weighted, minlength=len(found))
    return found, probabilities


def mixed(parts: Sequence[tuple[float, AttackResult]]) -> AttackResult:
    """The result of an attack made of ``parts``: (the probability of the part's states,
    the attack's result from them, scaled to sum to 1), the parts' pools and groups
    alike.

    Examples
    --------
    >>> import mathhammer as mh
    >>> gun = mh.Weapon("Gun", attacks=1, skill=2, strength=8, ap=-3, damage=1)
    >>> squad = mh.Unit.of("Squad", 2, 4, 7, 1)
    >>> one, two = mh.attack([(gun, 1)], squad), mh.attack([(gun, 2)], squad)
    >>> both = mixed([(0.5, one), (0.5, two)])
    >>> bool(both.killed.allclose(mh.Dist.mixture([0.5, 0.5], [one.killed, two.killed])))
    True
    >>> both.pools[0].attacks.probabilities.tolist()
    [0.0, 0.5, 0.5]
    """
    if len(parts) == 1:
        return parts[0][1]
    weights, results = zip(*parts, strict=True)
    first = results[0]

    def mix(read: Callable[[AttackResult], Dist]) -> Dist:
        return _mix(weights, [read(r) for r in results])

    return AttackResult(
        target=first.target,
        rules=first.rules,
        killed=mix(lambda r: r.killed),
        damage=mix(lambda r: r.damage),
        groups=_groups(weights, results),
        pools=_pools(weights, results),
        hazardous=mix(lambda r: r.hazardous),
        tests=_tests(weights, results),
        trimmed=float(sum(w * r.trimmed for w, r in zip(weights, results, strict=True))),
        state=_state(weights, [r.state for r in results]),
        choices=first.choices,
    )
