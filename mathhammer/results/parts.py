"""The parts of an attack's result: per pool, per allocation group, per after-attack test.

:class:`~mathhammer.results.attack.AttackResult` holds them; both engines build them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ..core.dist import Dist
from ..core.frozen import fast_init
from ..model.profiles import ModelGroup, Weapon

__all__ = ["GroupResult", "PoolResult", "TestResult"]


@fast_init
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

    @classmethod
    def mortal(cls, label: str, count: Dist, killed: Dist) -> PoolResult:
        """A mortal-wound step: ``count`` mortal wounds, each one "attack" through to damage."""
        return cls(
            label=label,
            weapons=(),
            attacks=count,
            hits=count,
            wounds=count,
            killed=killed,
            unsaved_source=count,
        )

    def stages(self) -> dict[str, Dist]:
        """The stage distributions in sequence order."""
        return {
            "attacks": self.attacks,
            "hits": self.hits,
            "wounds": self.wounds,
            "unsaved": self.unsaved,
        }


@dataclass(frozen=True)
class TestResult:
    """A test the target takes after the attacks (the classic Panic Test).

    Attributes
    ----------
    name : str
        E.g. ``"panic test"``.
    p_taken : float
        P(the target must take the test).
    p_failed : float
        P(the target takes the test and fails it).
    """

    name: str
    p_taken: float
    p_failed: float


@fast_init
@dataclass(frozen=True)
class GroupResult:
    """What happened to one allocation group.

    Attributes
    ----------
    group : ModelGroup
        The group.
    killed : Dist
        Its models destroyed.
    damage : Dist or None
        The wounds it lost since the attack began (damage beyond a model's wounds is
        lost, so never more than it had). An :class:`AttackResult` reads it off the
        unit's wounds lost when an engine does not record it and the groups were used
        up in allocation order; None when neither tells (attacks with [PRECISION]
        against a CHARACTER-led unit, from an engine that does not record it).
    """

    group: ModelGroup
    killed: Dist
    damage: Dist | None = None

    @property
    def label(self) -> str:
        """The group's name or description."""
        return self.group.label

    @property
    def p_destroyed(self) -> float:
        """P(every model of the group is destroyed), e.g. P(the CHARACTER dies)."""
        return float(self.killed.at_least(self.group.count))
