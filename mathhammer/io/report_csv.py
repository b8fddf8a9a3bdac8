"""A report's CSV, written row by row, and safe to open in a spreadsheet.

:class:`RowSpool` keeps a report's rows on disk as they come, with the columns they use,
and writes the CSV once the last row is known: the columns of a report are those of any
of its rows (points only where a side has them, a Monte Carlo check where one was asked
for), so the header waits for the rows, not the rows for memory. The CSV is the one
``frame.to_csv(index=False, float_format="%.6g")`` writes for the same rows.

Text that a spreadsheet would read as a formula (``=HYPERLINK(...)`` as a unit's name) is
written after a single quote, as OWASP recommends against CSV injection
(:func:`neutralise`); numbers are written as they are.

Examples
--------
>>> import io
>>> with RowSpool() as spool:
...     spool.add({"loadout": "=1+1", "target": "Horde", "mean_killed": -0.25})
...     spool.add({"loadout": "Guns", "target": "Tank", "mean_killed": 1.0,
...                "target_points": 160})
...     out = io.StringIO()
...     spool.write_csv(out)
>>> print(out.getvalue(), end="")
loadout,target,mean_killed,target_points
'=1+1,Horde,-0.25,
Guns,Tank,1,160
"""

from __future__ import annotations

import csv
import math
import pickle
import tempfile
from collections.abc import Iterator, Mapping
from typing import IO, Any

import numpy as np

from ..results.columns import columns_frame

__all__ = ["FORMULA_STARTS", "RowSpool", "csv_cell", "neutralise", "neutralised"]

#: The first characters that make a spreadsheet read a cell as a formula (OWASP's list).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def neutralise(text: str) -> str:
    """``text`` as a spreadsheet shows it but never evaluates it: after a ``'`` when it
    starts as a formula does.

    Examples
    --------
    >>> neutralise("=HYPERLINK(\\"http://x\\")"), neutralise("Intercessors")
    ('\\'=HYPERLINK("http://x")', 'Intercessors')
    """
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def neutralised(frame: Any) -> Any:
    """A copy of a frame whose text cells are :func:`neutralise` d (numbers unchanged); any
    other object as it is.

    Examples
    --------
    >>> import pandas as pd
    >>> neutralised(pd.DataFrame({"loadout": ["@x", "y"], "mean": [-1.0, 2.0]})).values.tolist()
    [["'@x", -1.0], ['y', 2.0]]
    """
    import pandas as pd

    if not isinstance(frame, pd.DataFrame):
        return frame
    text = {
        column: frame[column].map(lambda v: neutralise(v) if isinstance(v, str) else v)
        for column in frame.columns
        if not pd.api.types.is_numeric_dtype(frame[column])
    }
    return frame.assign(**text) if text else frame


def csv_cell(value: Any) -> str:
    """A value as the report's CSV writes it: numbers as ``%.6g`` (integers whole), none
    or NaN empty, text :func:`neutralise` d.

    Examples
    --------
    >>> [csv_cell(v) for v in (1 / 3, 160, None, float("nan"), True, "-5 pts")]
    ['0.333333', '160', '', '', 'True', "'-5 pts"]
    """
    if value is None:
        return ""
    if isinstance(value, bool | np.bool_):
        return str(bool(value))
    if isinstance(value, int | np.integer):
        return str(int(value))
    if isinstance(value, float | np.floating):
        return "" if math.isnan(value) else f"{value:.6g}"
    return neutralise(str(value))


class RowSpool:
    """Rows kept in an anonymous temporary file (gone when closed, or when the process
    ends however it ends), with the columns they use, then written as one CSV.

    Attributes
    ----------
    count : int
        The rows added.
    """

    def __init__(self) -> None:
        self._file: IO[bytes] = tempfile.TemporaryFile()  # noqa: SIM115 (closed by close())
        self._seen: dict[str, None] = {}
        self.count = 0

    def __enter__(self) -> RowSpool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._file.close()

    def add(self, row: Mapping[str, Any]) -> None:
        """Keep one row."""
        pickle.dump(dict(row), self._file, protocol=pickle.HIGHEST_PROTOCOL)
        self._seen.update(dict.fromkeys(row))
        self.count += 1

    @property
    def columns(self) -> list[str]:
        """The columns of the rows added, in the report's order."""
        if not self._seen:
            return []
        return list(columns_frame([dict.fromkeys(self._seen)]).columns)

    def rows(self) -> Iterator[dict[str, Any]]:
        """The rows added, in order."""
        self._file.flush()
        self._file.seek(0)
        for _ in range(self.count):
            yield pickle.load(self._file)  # noqa: S301 (our own file, written just now)
        self._file.seek(0, 2)  # back to the end, for more rows

    def write_csv(self, out: IO[str]) -> None:
        """Write the rows as CSV: a header of :attr:`columns`, a line per row."""
        columns = self.columns
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(columns)
        for row in self.rows():
            writer.writerow([csv_cell(row.get(column)) for column in columns])
