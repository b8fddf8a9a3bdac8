"""Mergeable counts of simulated outcomes: memory independent of the number of trials.

A block of trials is summarised as histograms (counts per value) of every quantity the
result reports. Histograms of disjoint blocks add up, in any grouping and any order, to
exactly the histogram of all the trials, so blocks can run in separate processes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

__all__ = ["Tally"]


def _add(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    size = max(len(a), len(b))
    out = np.zeros(size, dtype=np.int64)
    out[: len(a)] += a
    out[: len(b)] += b
    return out


@dataclass
class Tally:
    """Histograms of simulated quantities by name, and the number of trials.

    Examples
    --------
    >>> a, b = Tally(), Tally()
    >>> a.count("killed", np.array([0, 1, 1]))
    >>> b.count("killed", np.array([3]))
    >>> a.merge(b).counts["killed"].tolist(), a.merge(b).trials
    ([1, 2, 0, 1], 4)
    """

    counts: dict[str, np.ndarray] = field(default_factory=dict)
    trials: int = 0

    def count(self, name: str, values: Any) -> None:
        """Add the values of one block (a non-negative integer per trial)."""
        values = np.asarray(values, dtype=np.int64)
        self.counts[name] = _add(self.counts.get(name, np.zeros(0, np.int64)), np.bincount(values))
        if name == "killed":
            self.trials += len(values)

    def merge(self, other: Tally) -> Tally:
        """The tally of both blocks of trials."""
        names = list(self.counts) + [n for n in other.counts if n not in self.counts]
        empty = np.zeros(0, np.int64)
        counts = {n: _add(self.counts.get(n, empty), other.counts.get(n, empty)) for n in names}
        return Tally(counts, self.trials + other.trials)

    def probabilities(self, name: str, minlength: int = 0) -> np.ndarray:
        """The empirical pmf of a quantity (at least ``minlength`` entries)."""
        counts = self.counts[name]
        out = np.zeros(max(len(counts), minlength))
        out[: len(counts)] = counts / self.trials
        return out
