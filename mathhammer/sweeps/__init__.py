"""Sweeps: every attacker against every target in every context, on one machine or many.

:func:`sweep` cuts the work into tasks (:mod:`.work`), runs them where it is told
(:mod:`.executors`) and writes their rows as they come (:mod:`.store`); :func:`sweep_top`
reads the best attackers out of one, and :func:`mathhammer.plot_sweep` draws it.
"""

from __future__ import annotations

from .read import sweep_top
from .run import sweep

__all__ = ["sweep", "sweep_top"]
