"""Target suites from JSON files, in the format of the bundled suite."""

from __future__ import annotations

import json
from pathlib import Path

from ..errors import ProfileError
from ..units.targets import Target, parse_suite

__all__ = ["load"]


def load(path: str | Path) -> tuple[Target, ...]:
    """Read a target suite from a JSON file in the format of the bundled one."""
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ProfileError(f"{path}:{exc.lineno}: not valid JSON: {exc.msg}") from None
    return parse_suite(data, str(path))
