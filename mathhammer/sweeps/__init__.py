"""Internal: sweeps: every attacker against every target in every context, on one machine or
many.

:func:`mathhammer.sweep` cuts the work into tasks (:mod:`.work`), runs them where it is told
(:mod:`.executors`) and writes their rows as they come (:mod:`.store`); :func:`mathhammer.sweep_top`
reads the best attackers out of one, and :func:`mathhammer.plot_sweep` draws it.

Its public names are reached through :mod:`mathhammer`; the modules here may change
without notice.
"""

from __future__ import annotations

__all__: list[str] = []
