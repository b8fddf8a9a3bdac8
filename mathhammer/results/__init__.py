"""Result containers shared by the exact engine and the Monte Carlo.

:mod:`.attack` holds the exact result (:class:`AttackResult`), :mod:`.parts` its parts
(:class:`PoolResult`, :class:`GroupResult` and :class:`TestResult`, served by
:mod:`.attack` too), :mod:`.allocation` what the allocation order says about each
group, :mod:`.simulation` the Monte Carlo's result (:class:`SimulationResult`), and
:mod:`.columns` the one vocabulary of summary columns.
"""

from __future__ import annotations

from .attack import AttackResult, GroupResult, PoolResult, TestResult
from .simulation import SimulationResult

__all__ = ["AttackResult", "GroupResult", "PoolResult", "SimulationResult", "TestResult"]
