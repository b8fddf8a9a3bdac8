"""The tables of the Wahapedia export: pipe-delimited text as the site writes it.

Each file is UTF-8 with a byte-order mark, one header row naming the columns, and one
record per line with every field followed by ``|`` (so a line ends in ``|``). Fields are
never quoted: text holds HTML, ``"`` for inches and, in newer exports, raw line breaks.
A record is therefore complete when it holds as many ``|`` as the header; a record that
spans lines is joined back with its line breaks. The csv module and pandas both read a line
break as the end of a record unless the field is quoted, hence this reader.

Examples
--------
>>> import pathlib, tempfile
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> _ = (folder / "Factions.csv").write_text(
...     "\\ufeffid|name|link|\\nORK|Orks|https://example.invalid/orks|\\n", encoding="utf-8")
>>> table = read_table(folder / "Factions.csv", ("id", "name"))
>>> [(row.line, row["id"], row["name"]) for row in table.rows]
[(2, 'ORK', 'Orks')]
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from ...errors import CsvError
from ..files import read_input_text

__all__ = ["Row", "Table", "read_table"]


@dataclass(frozen=True)
class Row:
    """One record: its values by column and the line it starts on (the header is line 1)."""

    line: int
    values: dict[str, str]

    def __getitem__(self, column: str) -> str:
        return self.values[column]

    def get(self, column: str, default: str = "") -> str:
        """The value of a column the file may not have."""
        return self.values.get(column, default)


@dataclass(frozen=True)
class Table:
    """The records of one file, in file order."""

    path: Path
    columns: tuple[str, ...]
    rows: tuple[Row, ...]

    def error(self, line: int | None, column: str | None, problem: str) -> CsvError:
        """An error located in this file."""
        return CsvError.at(str(self.path), line, column, problem)

    def source(self, row: Row) -> str:
        """Where a record was read from: ``file:line``."""
        return f"{self.path}:{row.line}"


def _records(text: str, width: int, trailing: bool) -> Iterator[tuple[int, str]]:
    """(first line, record text) of every record after the header."""
    start, parts = 0, list[str]()
    for number, line in enumerate(text.split("\n")[1:], start=2):
        line = line.removesuffix("\r")
        if not parts:
            if not line.strip():
                continue
            start = number
        parts.append(line)
        record = "\n".join(parts)
        if _complete(record, width, trailing):
            parts = []
            yield start, record
    if parts:
        yield start, "\n".join(parts)


def _complete(record: str, width: int, trailing: bool) -> bool:
    """True if a record holds as many ``|`` as the header (and ends in one, as the header
    does)."""
    return record.count("|") >= width and (not trailing or record.endswith("|"))


def _read_text(path: Path) -> str:
    """A file of the export: a regular file (a FIFO or device is refused, not read) within
    the input size cap."""
    if not path.exists():
        raise CsvError.at(str(path), None, None, "no such file (a Wahapedia export file)")
    return read_input_text(path, error=CsvError)


def read_table(path: str | Path, required: Sequence[str]) -> Table:
    """Read one file of the export.

    Parameters
    ----------
    path : str or Path
        The file, e.g. ``wahapedia/Datasheets_wargear.csv``.
    required : sequence of str
        The columns the caller needs; other columns are kept as they are.

    Raises
    ------
    CsvError
        A missing or unreadable file, a missing column, or a record whose number of
        fields is not the header's: ``file:line: problem``.
    """
    path = Path(path)
    text = _read_text(path)
    header_line = text.split("\n", 1)[0].removesuffix("\r")
    table = Table(path, (), ())
    columns = _columns(table, header_line, required)
    trailing = header_line.endswith("|")
    width = header_line.count("|")
    rows = tuple(
        _row(table, columns, trailing, line, record)
        for line, record in _records(text, width, trailing)
    )
    return Table(path, columns, rows)


def _columns(table: Table, header_line: str, required: Sequence[str]) -> tuple[str, ...]:
    """The columns the header names, checked for the ``required`` ones."""
    if "|" not in header_line:
        raise table.error(1, None, "the header has no '|'; expected the pipe-delimited export")
    columns = tuple(c.strip() for c in header_line.removesuffix("|").split("|"))
    missing = [c for c in required if c not in columns]
    if missing:
        raise table.error(1, None, f"missing columns {missing}; the header has {list(columns)}")
    return columns


def _row(table: Table, columns: tuple[str, ...], trailing: bool, line: int, record: str) -> Row:
    """One record as a row of values by column, checked for its number of fields."""
    values = record.split("|")
    values = values[:-1] if trailing else values
    if len(values) != len(columns):
        raise table.error(
            line, None, f"expected {len(columns)} fields; got {len(values)}: {record[:60]!r}"
        )
    return Row(line, dict(zip(columns, values, strict=True)))
