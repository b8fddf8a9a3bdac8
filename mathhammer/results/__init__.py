"""Internal: result containers shared by the exact engine and the Monte Carlo.

:mod:`.attack` holds the exact result (:class:`AttackResult`), :mod:`.parts` its parts
(:class:`PoolResult`, :class:`GroupResult` and :class:`TestResult`, served by
:mod:`.attack` too), :mod:`.allocation` what the allocation order says about each
group, :mod:`.simulation` the Monte Carlo's result (:class:`SimulationResult`), and
:mod:`.columns` the one vocabulary of summary columns.

Its public names are reached through :mod:`mathhammer`; the modules here may change
without notice.
"""

from __future__ import annotations

__all__: list[str] = []
