"""The Monte Carlo's result: an :class:`AttackResult` with the standard errors of its estimates.

:func:`mathhammer.simulate` fills it from the dice it rolls; its distributions are the
empirical ones of ``trials`` simulated attacks, so every estimate carries a standard error.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..core.dist import Dist
from .attack import AttackResult

__all__ = ["SimulationResult"]


@dataclass(frozen=True, repr=False)
class SimulationResult(AttackResult):
    """A Monte Carlo estimate, shaped like :class:`AttackResult`, with standard errors.

    Attributes
    ----------
    trials : int
        The number of simulated attacks.

    Examples
    --------
    >>> import mathhammer as mh
    >>> gun = mh.Weapon("Gun", attacks=2, skill=3, strength=4, ap=0, damage=1)
    >>> sim = mh.simulate([(gun, 5)], mh.Unit.of("Squad", 5, 4, 3, 1), trials=10_000, rng=1)
    >>> sim.trials, round(sim.killed.mean(), 2), round(sim.killed_se, 3)  # exact mean: 1.11
    (10000, 1.11, 0.01)
    """

    trials: int = 0

    def _standard_error(self, dist: Dist) -> float:
        if self.trials < 2:
            return float("nan")
        sample_variance = dist.var() * self.trials / (self.trials - 1)
        return float(np.sqrt(sample_variance / self.trials))

    @property
    def killed_se(self) -> float:
        """The standard error of ``killed.mean()``."""
        return self._standard_error(self.killed)

    @property
    def damage_se(self) -> float:
        """The standard error of ``damage.mean()``."""
        return self._standard_error(self.damage)

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
