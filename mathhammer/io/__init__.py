"""Reading and writing profiles and reports."""

from __future__ import annotations

from ..errors import CsvError, InputFileError
from .profiles_csv import ATTACKER_COLUMNS, TARGET_COLUMNS, read_attackers, read_targets

__all__ = [
    "ATTACKER_COLUMNS",
    "TARGET_COLUMNS",
    "CsvError",
    "InputFileError",
    "read_attackers",
    "read_targets",
]
