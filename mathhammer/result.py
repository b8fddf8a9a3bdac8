"""Result containers shared by the exact engine and the Monte Carlo.

They hold distributions only; nothing here computes an attack, so both engines can
fill them without depending on each other.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .dist import Dist
from .profiles import ModelGroup, Unit, Weapon

__all__ = ["AttackResult", "GroupResult", "PoolResult", "SimulationResult"]


@dataclass(frozen=True)
class PoolResult:
    """The stages of one pool of identical attacks.

    Attributes
    ----------
    label : str
        The weapons gathered, e.g. ``"Bolt rifle x10"``.
    weapons : tuple of (Weapon, int)
        The weapons and how many of each.
    attacks, hits, wounds : Dist
        Attack dice rolled; hits scored (critical hits included); wounds scored
        (critical and automatic wounds included).
    killed : Dist
        Models destroyed so far: by this pool and the pools before it.
    devastating : Dist
        Critical wounds of a [DEVASTATING WOUNDS] weapon, which skip the save step.
    abilities : tuple of str
        The abilities applied against this target, as printed (duplicates resolved).
    unsaved : Dist
        Save dice that inflicted damage (saves failed before the unit was destroyed;
        leftover attacks are not counted). Computed on first access by the exact engine.
    """

    label: str
    weapons: tuple[tuple[Weapon, int], ...]
    attacks: Dist
    hits: Dist
    wounds: Dist
    killed: Dist
    unsaved_source: Dist | Callable[[], Dist] = field(repr=False, compare=False)
    devastating: Dist = field(default_factory=lambda: Dist.constant(0))
    abilities: tuple[str, ...] = ()

    @property
    def unsaved(self) -> Dist:
        """Save dice that inflicted damage (see the class docstring)."""
        cached = self.__dict__.get("_unsaved")
        if cached is None:
            source = self.unsaved_source
            cached = source if isinstance(source, Dist) else source()
            self.__dict__["_unsaved"] = cached
        return cached

    def stages(self) -> dict[str, Dist]:
        """The stage distributions in sequence order."""
        return {
            "attacks": self.attacks,
            "hits": self.hits,
            "wounds": self.wounds,
            "unsaved": self.unsaved,
        }


@dataclass(frozen=True)
class GroupResult:
    """What happened to one allocation group."""

    group: ModelGroup
    killed: Dist

    @property
    def label(self) -> str:
        """The group's name or description."""
        return self.group.label

    @property
    def p_destroyed(self) -> float:
        """P(every model of the group is destroyed), e.g. P(the CHARACTER dies)."""
        return float(self.killed.at_least(self.group.count))


@dataclass(frozen=True)
class AttackResult:
    """The outcome of a unit's attacks against one target.

    Attributes
    ----------
    target : Unit
        The unit attacked.
    rules : str
        The ruleset used.
    killed : Dist
        Models destroyed.
    damage : Dist
        Wounds lost (wounds already lost before the attack are not counted).
    groups : tuple of GroupResult
        Per allocation group, in allocation order.
    pools : tuple of PoolResult
        Per pool, in resolution order.
    hazardous : Dist
        Mortal wounds the attacking unit suffers from its [HAZARDOUS] weapons.
    p_panic_test, p_panic_fail : float or None
        Classic ruleset: P(the target must take a Panic Test) and P(it takes one and
        fails it). None under rulesets without Panic Tests.
    """

    target: Unit
    rules: str
    killed: Dist
    damage: Dist
    groups: tuple[GroupResult, ...]
    pools: tuple[PoolResult, ...]
    hazardous: Dist = field(default_factory=lambda: Dist.constant(0))
    p_panic_test: float | None = None
    p_panic_fail: float | None = None

    @property
    def p_destroyed(self) -> float:
        """P(the whole unit is destroyed)."""
        return float(self.killed.at_least(self.target.models))

    def group(self, key: int | str) -> GroupResult:
        """One allocation group's result, by position or by label (e.g. ``"Captain"``)."""
        return self.groups[self.target.group_index(key)]

    def killed_in(self, key: int | str) -> Dist:
        """Models destroyed in one group: ``result.killed_in("Captain").at_least(1)``."""
        return self.group(key).killed

    def _headline(self) -> str:
        k = self.killed
        return (
            f"killed mean {k.mean():.3g} (sd {k.std():.3g}), "
            f"P(>=1) {k.at_least(1):.3f}, P(destroyed) {self.p_destroyed:.3f}; "
            f"damage mean {self.damage.mean():.3g}"
        )

    def __repr__(self) -> str:
        pools = ", ".join(p.label for p in self.pools)
        return (
            f"<{type(self).__name__} [{self.rules}] {pools} -> {self.target.name} "
            f"({self.target.models} models): {self._headline()}>"
        )


@dataclass(frozen=True, repr=False)
class SimulationResult(AttackResult):
    """A Monte Carlo estimate, shaped like :class:`AttackResult`, with standard errors.

    Attributes
    ----------
    trials : int
        The number of simulated attacks.
    killed_samples, damage_samples : ndarray
        Per-trial models destroyed and wounds lost.
    """

    trials: int = 0
    killed_samples: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    damage_samples: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))

    @property
    def killed_se(self) -> float:
        """The standard error of ``killed.mean()``."""
        return _se(self.killed_samples)

    @property
    def damage_se(self) -> float:
        """The standard error of ``damage.mean()``."""
        return _se(self.damage_samples)

    @property
    def p_destroyed_se(self) -> float:
        """The standard error of ``p_destroyed``."""
        p = self.p_destroyed
        return float(np.sqrt(p * (1.0 - p) / self.trials))

    def at_least_se(self, k: int) -> float:
        """The standard error of ``killed.at_least(k)``."""
        p = float(self.killed.at_least(k))
        return float(np.sqrt(p * (1.0 - p) / self.trials))

    def __repr__(self) -> str:
        return (
            super().__repr__()[:-1]
            + f"; {self.trials} trials, se(mean killed) {self.killed_se:.2g}>"
        )


def _se(samples: Any) -> float:
    samples = np.asarray(samples, dtype=np.float64)
    if samples.size < 2:
        return float("nan")
    return float(samples.std(ddof=1) / np.sqrt(samples.size))
