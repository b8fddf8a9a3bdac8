"""Result containers shared by the exact engine and the Monte Carlo.

:mod:`.attack` holds the exact result (:class:`AttackResult`, with :class:`PoolResult`,
:class:`GroupResult` and :class:`TestResult`), :mod:`.simulation` the Monte Carlo's
(:class:`SimulationResult`), and :mod:`.columns` the one vocabulary of summary columns.
"""

from __future__ import annotations

from .attack import AttackResult, GroupResult, PoolResult, TestResult
from .simulation import SimulationResult

__all__ = ["AttackResult", "GroupResult", "PoolResult", "SimulationResult", "TestResult"]
