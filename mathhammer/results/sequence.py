"""The result of attacks in sequence against one target: the target after each step."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..model.profiles import Unit
from .attack import AttackResult

if TYPE_CHECKING:  # pandas is imported where a table is made: import time matters
    import pandas as pd

__all__ = ["SequenceResult"]


@dataclass(frozen=True)
class SequenceResult:
    """Attacks resolved one after another against one target, its state carried on.

    Attributes
    ----------
    target : Unit
        The target before the first step.
    labels : tuple of str
        Each step's label.
    results : tuple of AttackResult
        The result after each step, counting from the start of the sequence (the last
        one is the whole sequence's).
    """

    target: Unit
    labels: tuple[str, ...]
    results: tuple[AttackResult, ...]

    @property
    def final(self) -> AttackResult:
        """The result after the last step."""
        return self.results[-1]

    @property
    def p_destroyed(self) -> tuple[float, ...]:
        """P(the target is destroyed) after each step."""
        return tuple(r.p_destroyed for r in self.results)

    def frame(self) -> pd.DataFrame:
        """One row per step: its label, the expected models destroyed and wounds lost so
        far, P(destroyed) after it, and the chance the step itself destroyed the unit."""
        import pandas as pd

        rows = []
        before = 0.0
        for i, (label, result) in enumerate(zip(self.labels, self.results, strict=True), 1):
            rows.append(
                {
                    "step": i,
                    "attacker": label,
                    "killed_mean": result.killed.mean(),
                    "damage_mean": result.damage.mean(),
                    "p_destroyed": result.p_destroyed,
                    "p_destroyed_by_step": result.p_destroyed - before,
                }
            )
            before = result.p_destroyed
        return pd.DataFrame(rows).set_index("step")

    def __len__(self) -> int:
        return len(self.results)

    def __repr__(self) -> str:
        chances = ", ".join(f"{p:.3f}" for p in self.p_destroyed)
        return (
            f"<SequenceResult {len(self)} steps -> {self.target.name}: "
            f"P(destroyed) by step {chances}>"
        )
