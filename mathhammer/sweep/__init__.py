"""Sweeps: every attacker against every target in every context, on one machine or many.

:func:`sweep` cuts the work into tasks (:mod:`.work`), runs them where it is told
(:mod:`.executors`) and writes their rows as they come (:mod:`.store`).
"""

from __future__ import annotations

from .run import sweep

__all__ = ["sweep"]
