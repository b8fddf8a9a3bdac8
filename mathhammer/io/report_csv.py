"""A report's CSV, written row by row, and safe to open in a spreadsheet.

:class:`RowSpool` keeps a report's rows on disk as they come, with the columns they use,
and writes the CSV once the last row is known: the columns of a report are those of any
of its rows (points only where a side has them, a Monte Carlo check where one was asked
for), so the header waits for the rows, not the rows for memory. The CSV is the one
``frame.to_csv(index=False, float_format="%.6g")`` writes for the same rows, numbers
within 1e-12 of 0 written as 0.

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


#: Numbers closer to 0 than this are written as 0: the exact engine's results agree with
#: enumeration to 1e-12, so a smaller value is floating-point noise, not a probability.
TINY = 1e-12


def csv_cell(value: Any) -> str:
    """A value as the report's CSV writes it: numbers as ``%.6g`` (integers whole), a
    number within :data:`TINY` of 0 as ``0`` (below the engine's accuracy: floating-point
    noise such as ``1.6e-13`` or ``-0``), none or NaN empty, text :func:`neutralise` d.

    Examples
    --------
    >>> [csv_cell(v) for v in (1 / 3, 160, None, float("nan"), True, "-5 pts")]
    ['0.333333', '160', '', '', 'True', "'-5 pts"]
    >>> [csv_cell(v) for v in (1.6e-13, -0.0, -2e-17, 5.1e-7)]
    ['0', '0', '0', '5.1e-07']
    """
    if value is None:
        return ""
    if isinstance(value, bool | np.bool_):
        return str(bool(value))
    if isinstance(value, int | np.integer):
        return str(int(value))
    if isinstance(value, float | np.floating):
        return _float_cell(value)
    return neutralise(str(value))


def _float_cell(value: float | np.floating[Any]) -> str:
    """A float as the report's CSV writes it: ``%.6g``, noise below :data:`TINY` as ``0``,
    NaN empty."""
    if math.isnan(value):
        return ""
    return "0" if abs(float(value)) < TINY else f"{value:.6g}"


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
