"""The standard target suite and target files: ``mathhammer.targets``.

The bundled suite (horde, line, elite and heavy elite infantry, cavalry, a monster, a
vehicle, a super-heavy vehicle and a CHARACTER-led unit) is package data, read on first
use of :data:`STANDARD`; :func:`load` reads a suite of your own.

Examples
--------
>>> from mathhammer import targets
>>> [t.name for t in targets.STANDARD][:3]
['Horde infantry', 'Line infantry', 'Elite infantry']
>>> marines = targets.get("line infantry")
>>> marines.unit.models, marines.points
(10, 180)
"""

from __future__ import annotations

from typing import Any

from .io.targets_json import load
from .units.targets import Target, get, names, parse_suite, standard

__all__ = ["Target", "get", "load", "names", "parse_suite", "standard"]


def __getattr__(name: str) -> Any:
    if name == "STANDARD":
        return standard()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
