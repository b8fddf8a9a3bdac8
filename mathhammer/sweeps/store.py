"""A sweep written as it goes: a Parquet dataset of one file per task, and what made it.

The dataset is a folder: ``part-000042.parquet`` holds task 42's rows, written to a
temporary name and renamed when complete, so a file is there whole or not at all and a
task written twice (a resubmitted one) leaves one copy. ``_sweep.json`` records the inputs'
fingerprints; a sweep resumed into the folder must have the same inputs, and computes only
the tasks whose files are missing.
"""

from __future__ import annotations

import hashlib
import json
import os
import pickle
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..errors import OptionError, field_error
from .work import arrow, arrow_schema

__all__ = ["SweepStore", "fingerprint", "holds_sweep"]

_MANIFEST = "_sweep.json"
_VERSION = 1


def holds_sweep(path: str | Path) -> bool:
    """True if the folder ``path`` holds a sweep (its manifest)."""
    return (Path(path) / _MANIFEST).is_file()


def fingerprint(value: Any) -> str:
    """A digest of a value's pickle: equal inputs give equal digests.

    Examples
    --------
    >>> fingerprint((1, "a")) == fingerprint((1, "a")), fingerprint(1) == fingerprint(2)
    (True, False)
    """
    return hashlib.sha256(pickle.dumps(value, protocol=4)).hexdigest()[:16]


class SweepStore:
    """The Parquet dataset of one sweep at ``path``.

    Parameters
    ----------
    path : str or Path
        The folder; made if missing.
    inputs : mapping of str to str
        Each input's fingerprint, by name (attackers, targets, contexts, ...).
    resume : bool
        Continue a sweep written there with the same inputs; without it a folder that
        holds a sweep is refused.
    """

    def __init__(self, path: str | Path, inputs: Mapping[str, str], *, resume: bool) -> None:
        self.path = Path(path)
        if self.path.exists() and not self.path.is_dir():
            raise field_error(OptionError, "path", "a folder (one file per task)", str(path))
        manifest = self.path / _MANIFEST
        wanted: dict[str, Any] = {"version": _VERSION, "inputs": dict(inputs)}
        if manifest.exists():
            _check_resumed(manifest, wanted, path, resume=resume)
        else:
            _check_empty(self.path, path)
            _start(manifest, wanted, path)

    def part(self, index: int) -> Path:
        return self.path / f"part-{index:06d}.parquet"

    def done(self) -> set[int]:
        """The tasks whose rows are written."""
        return {int(p.stem.removeprefix("part-")) for p in self.path.glob("part-*.parquet")}

    def write(self, index: int, frame: Any) -> None:
        """Write task ``index``'s rows, whole or not at all (written before, replaced)."""
        pa = arrow()
        import pyarrow.parquet as pq

        table = pa.Table.from_pandas(frame, schema=arrow_schema(), preserve_index=False)
        temporary = self.part(index).with_suffix(f".{os.getpid()}.tmp")
        pq.write_table(table, temporary)
        os.replace(temporary, self.part(index))

    def read(self) -> Any:
        """Every row written, in task order."""
        import pandas as pd

        arrow()
        import pyarrow.parquet as pq

        parts = sorted(self.done())
        if not parts:
            return pd.DataFrame()
        frames = [pq.read_table(self.part(i), use_threads=False).to_pandas() for i in parts]
        return pd.concat(frames, ignore_index=True)


def _check_resumed(
    manifest: Path, wanted: dict[str, Any], path: str | Path, *, resume: bool
) -> None:
    """Refuse to continue the sweep whose manifest is there: without ``resume``, or when
    it was written with other inputs (or in another format)."""
    if not resume:
        raise field_error(
            OptionError, "path", "a folder without a sweep, or resume=True", str(path),
            "give SweepOutput(path, resume=True) (--resume) to continue it, or another path",
        )  # fmt: skip
    found: dict[str, Any] = json.loads(manifest.read_text())
    differ = _differing(found.get("inputs", {}), wanted["inputs"])
    if differ or found.get("version") != _VERSION:
        raise OptionError(
            f"resume: the sweep in {str(path)!r} was written with other inputs "
            f"({', '.join(differ) or 'its format'} differ); give another path"
        )


def _differing(found: dict[str, Any], wanted: dict[str, Any]) -> list[str]:
    """The names of the inputs whose fingerprints differ (or are in one only), sorted."""
    return sorted(name for name in {*found, *wanted} if found.get(name) != wanted.get(name))


def _check_empty(folder: Path, path: str | Path) -> None:
    """Refuse a folder that holds other files: a new sweep needs a folder of its own."""
    if folder.exists() and any(folder.iterdir()):
        raise field_error(
            OptionError, "path", "a new or empty folder", str(path),
            "a sweep writes one file per task into a folder of its own",
        )  # fmt: skip


def _start(manifest: Path, wanted: dict[str, Any], path: str | Path) -> None:
    """Make the folder and write the new sweep's manifest there."""
    try:
        manifest.parent.mkdir(parents=True, exist_ok=True)
        _atomic_write(manifest, json.dumps(wanted, indent=1).encode())
    except OSError as exc:
        raise field_error(
            OptionError, "path", "a folder that can be written", str(path),
            exc.strerror or type(exc).__name__,
        ) from None  # fmt: skip


def _atomic_write(path: Path, data: bytes) -> None:
    temporary = path.with_suffix(f".{os.getpid()}.tmp")
    temporary.write_bytes(data)
    os.replace(temporary, path)
