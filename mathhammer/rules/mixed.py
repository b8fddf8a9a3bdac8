"""A roll read by one of several checks, chosen for each die by a roll made first.

The wound roll of a weapon with a random Strength is such a roll: the Strength is rolled for
each attack, and the wound roll is read against it (docs/rules.md D42). Both engines read
:class:`MixedRollCheck` as a :class:`~mathhammer.rules.base.RollCheck`: the exact engine by
its probabilities, the Monte Carlo by sharing the dice among the checks as the first roll
falls.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from .base import RollCheck

__all__ = ["MixedRollCheck"]


@dataclass(frozen=True)
class MixedRollCheck(RollCheck):
    """A roll read by one of several checks, chosen for each die by a roll made first: the
    wound roll of a weapon with a random Strength, rolled for each attack (docs/rules.md
    D42). ``components`` pairs each check with its probability; the re-rolls of each are its
    own (a die re-rolled keeps its Strength). ``first`` is the first component's, for what
    reads one face table only.

    Examples
    --------
    >>> from functools import partial
    >>> from mathhammer.rules.eleventh import wound_outcome
    >>> at = lambda needed: RollCheck(partial(wound_outcome, needed=needed))
    >>> mixed = MixedRollCheck.of([(0.5, at(3)), (0.5, at(5))])
    >>> (mixed.probabilities() * 12).round(9).tolist(), round(mixed.success(), 12)
    ([6.0, 4.0, 2.0], 0.5)
    """

    components: tuple[tuple[float, RollCheck], ...] = ()

    @classmethod
    def of(cls, components: Sequence[tuple[float, RollCheck]]) -> MixedRollCheck:
        """The mixture of these ``(probability, check)`` pairs."""
        parts = tuple((float(w), c) for w, c in components)
        if abs(sum(w for w, _ in parts) - 1.0) > 1e-9:  # no components (a sum of 0) too
            raise ValueError("a mixed check needs components whose probabilities sum to 1")
        return cls(first=parts[0][1].first, components=parts)

    @cached_property
    def key(self) -> Any:
        return ("mixed", tuple((w, c.key) for w, c in self.components))

    def probabilities(self) -> np.ndarray:
        return np.asarray(sum(w * c.probabilities() for w, c in self.components))

    def success(self) -> float:
        return float(sum(w * c.success() for w, c in self.components))
