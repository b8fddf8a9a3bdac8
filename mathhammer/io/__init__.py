"""Reading and writing profiles and reports."""

from __future__ import annotations

from .profiles_csv import (
    ATTACKER_COLUMNS,
    TARGET_COLUMNS,
    AttackingUnit,
    CsvError,
    TargetUnit,
    read_attackers,
    read_targets,
)

__all__ = [
    "ATTACKER_COLUMNS",
    "TARGET_COLUMNS",
    "AttackingUnit",
    "CsvError",
    "TargetUnit",
    "read_attackers",
    "read_targets",
]
