"""A sweep written as it goes: a Parquet dataset of one file per task, and what made it.

The dataset is a folder: ``part-000042.parquet`` holds task 42's rows, written to a
temporary name and renamed when complete, so a file is there whole or not at all and a
task written twice (a resubmitted one) leaves one copy. ``_sweep.json`` records the inputs'
fingerprints; a sweep resumed into the folder must have the same inputs, and computes only
the tasks whose files are missing.
"""

from __future__ import annotations

import dataclasses
import hashlib
import io
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
    """A digest of a value's pickle by value: equal inputs give equal digests, whatever
    their objects have cached (a unit used in an attack keeps its states; a record is
    pickled as its class and its fields only).

    Examples
    --------
    >>> fingerprint((1, "a")) == fingerprint((1, "a")), fingerprint(1) == fingerprint(2)
    (True, False)
    >>> import mathhammer as mh
    >>> squad = mh.Unit.of("Squad", 5, 4, 3, 2)
    >>> before = fingerprint(squad)
    >>> squad.total_wounds  # cached on the object from now on
    10
    >>> fingerprint(squad) == before
    True
    """
    out = io.BytesIO()
    _ByValue(out, protocol=4).dump(value)
    return hashlib.sha256(out.getvalue()).hexdigest()[:16]


class _ByValue(pickle.Pickler):
    """A pickler that writes a dataclass instance as its class and its fields, leaving
    out what its instance caches beside them."""

    def reducer_override(self, obj: Any) -> Any:
        if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
            values = tuple(getattr(obj, f.name) for f in dataclasses.fields(obj))
            return type(obj), values
        return NotImplemented


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
        """The tasks whose rows are written whole: a part whose Parquet footer cannot be
        read (a file damaged since) is not, and its task is computed again."""
        arrow()
        import pyarrow.parquet as pq

        done = set()
        for part in self.path.glob("part-*.parquet"):
            try:
                pq.read_metadata(part)
            except (OSError, ValueError):  # pyarrow's ArrowInvalid is a ValueError
                continue
            done.add(int(part.stem.removeprefix("part-")))
        return done

    def write(self, index: int, frame: Any) -> None:
        """Write task ``index``'s rows, whole or not at all (written before, replaced)."""
        pa = arrow()
        import pyarrow.parquet as pq

        table = pa.Table.from_pandas(frame, schema=arrow_schema(), preserve_index=False)
        temporary = self.part(index).with_suffix(f".{os.getpid()}.tmp")
        pq.write_table(table, temporary)
        _synced(temporary)  # on disk before it takes the part's name
        os.replace(temporary, self.part(index))
        _synced(self.path)  # and the new name with it

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
    found = _manifest(manifest, path)
    differ = _differing(found.get("inputs", {}), wanted["inputs"])
    if differ or found.get("version") != _VERSION:
        raise OptionError(
            f"resume: the sweep in {str(path)!r} was written with other inputs "
            f"({', '.join(differ) or 'its format'} differ); give another path"
        )


def _manifest(manifest: Path, path: str | Path) -> dict[str, Any]:
    """The manifest of the sweep in ``path``; an error in one line if it cannot be read."""
    try:
        found = json.loads(manifest.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:  # JSONDecodeError and UnicodeDecodeError too
        raise _unreadable(path, str(exc)) from None
    if not isinstance(found, dict):
        raise _unreadable(path, "not a JSON object")
    return found


def _unreadable(path: str | Path, why: str) -> OptionError:
    return OptionError(
        f"resume: the manifest of the sweep in {str(path)!r} cannot be read ({why}); "
        "give another path"
    )


def _synced(path: Path) -> None:
    """Flush a file (or a folder's entries) to the disk."""
    handle = os.open(path, os.O_RDONLY)
    try:
        os.fsync(handle)
    finally:
        os.close(handle)


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
