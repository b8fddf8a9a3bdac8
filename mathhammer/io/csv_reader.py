"""Reading a CSV file of profiles: rows with their line numbers, values as datasheets print
them, and errors placed at their file, line and column.

The readers of :mod:`mathhammer.io.attackers_csv` and :mod:`mathhammer.io.targets_csv` are
built on :class:`CsvReader`; a problem is a :class:`~mathhammer.errors.CsvError` of one line,
``file:line: column 'S': expected an integer; got 'x'``.
"""

from __future__ import annotations

import csv
import io
import re
import warnings
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TypeVar

from ..core.caller import outside_stacklevel
from ..core.dice import Dice
from ..errors import CsvError, DiceSyntaxError, InputFileWarning, MathhammerError, shown
from ..model.fields import read_dice
from ..model.values import parse_leadership, parse_roll
from .files import read_input_text

T = TypeVar("T")

__all__ = [
    "MAX_DIGITS",
    "MAX_ROWS",
    "NO",
    "NONE",
    "YES",
    "CsvReader",
    "agree",
    "dice_reader",
    "flag",
    "integer",
    "leadership",
    "optional_flag",
    "optional_integer",
    "threshold",
]

NONE = {"", "-", "n/a", "none"}
#: The most digits of a whole number in a cell: more than any characteristic, count or
#: points value needs, and far fewer than Python's own limit on reading one (4,300).
MAX_DIGITS = 9
#: The most rows a CSV file of profiles holds: a faction's every weapon is a few thousand
#: (6,765 Wahapedia wargear rows); 1.7 million rows took 200 s and 2.7 GB to read.
MAX_ROWS = 20_000
_INTEGER = re.compile(r"[+-]?[0-9]+")
#: A classic characteristic: a number without a sign, of at most MAX_DIGITS digits.
_PLAIN_NUMBER = re.compile(rf"[0-9]{{1,{MAX_DIGITS}}}")
YES = {"yes", "y", "true", "1"}
NO = {"no", "n", "false", "0", ""}


class CsvReader:
    """Reads one CSV file's rows; builds located errors.

    Parameters
    ----------
    path : str or Path
        The file.
    required, optional : tuple of str
        The columns the caller reads, as they are named in its rows; the caller decides
        which are required. A header names a column in any case and with spaces around
        it (``" insv "`` is ``InSv``); a column that is neither required nor optional is
        warned about (:class:`~mathhammer.errors.InputFileWarning`, naming the file and
        the column) and kept in the rows under its own name, but not read.

    Attributes
    ----------
    rows : list of (int, dict)
        The line of each row that is not blank, and its values by column name.
    extra_columns : tuple of str
        The columns of the file the caller does not read, as the header spells them.
    """

    def __init__(self, path: str | Path, required: tuple[str, ...], optional: tuple[str, ...]):
        self.path = Path(path)
        self.name = str(path)
        # a regular file of at most 64 MiB: never a device, a FIFO or an endless stream
        text = read_input_text(path, error=CsvError)
        if not text.strip():
            raise self.error(None, None, "the file is empty; expected a header row")
        self.delimiter = _delimiter(text)
        reader = csv.reader(io.StringIO(text), delimiter=self.delimiter)
        self.rows = self._rows(reader, required, optional)
        if not self.rows:
            raise self.error(None, None, "no rows after the header")

    def _rows(
        self, reader: Any, required: tuple[str, ...], optional: tuple[str, ...]
    ) -> list[tuple[int, dict[str, str]]]:
        """Each row that is not blank, with its line; the header read first."""
        rows: list[tuple[int, dict[str, str]]] = []
        try:
            header = self._header(next(reader), required, optional)
            for number, values in enumerate(reader, start=2):
                if any(v.strip() for v in values):
                    rows.append((number, self._row(number, header, values)))
                if len(rows) > MAX_ROWS:
                    raise self.error(number, None, f"more than {MAX_ROWS} rows; split the file")
        except csv.Error as exc:  # a cell past csv.field_size_limit(), say
            raise self.error(reader.line_num, None, f"cannot read the row: {exc}") from None
        return rows

    def _row(self, number: int, header: list[str], values: list[str]) -> dict[str, str]:
        """A row's values by column name; an error if it has more or fewer than the header."""
        if len(values) != len(header):
            problem = f"expected {len(header)} values; got {len(values)}"
            raise self.error(number, None, problem)
        return {h: v.strip() for h, v in zip(header, values, strict=True)}

    def _header(
        self, cells: list[str], required: tuple[str, ...], optional: tuple[str, ...]
    ) -> list[str]:
        """The column names of the header row, spelt as the caller reads them."""
        header = [h.strip() for h in cells]
        self._check_split(header)
        known = {c.casefold(): c for c in required + optional}
        names = [known.get(h.casefold(), h) for h in header]
        self._check_unique(header, names)
        self._check_required(names, required)
        self._keep_extra(names, required + optional)
        return names

    def _keep_extra(self, names: list[str], read: tuple[str, ...]) -> None:
        """Keep the columns the caller does not read as ``extra_columns``, and warn of each."""
        self.extra_columns = tuple(n for n in names if n and n not in read)
        for warning in self._extra_warnings(read):
            warnings.warn(warning, stacklevel=outside_stacklevel())

    def _check_split(self, header: list[str]) -> None:
        """Refuse a header of one column holding a separator this reader does not split on."""
        if len(header) == 1 and "|" in header[0]:
            raise self.error(
                1,
                None,
                "the header is one column containing '|'; expected values "
                "separated by commas (or semicolons, or tabs): in Excel, Save As "
                "'CSV (comma delimited)'",
            )

    def _check_unique(self, header: list[str], names: list[str]) -> None:
        """Refuse a column the header names twice (in any case or spacing)."""
        seen: dict[str, str] = {}
        for given, name in zip(header, names, strict=True):
            if name and name in seen:
                raise self.error(1, name, f"given twice, as {seen[name]!r} and {given!r}; keep one")
            seen[name] = given

    def _check_required(self, names: list[str], required: tuple[str, ...]) -> None:
        """Refuse a header without every required column."""
        missing = [c for c in required if c not in names]
        if missing:
            raise self.error(1, None, f"missing columns {missing}; expected {list(required)}")

    def _extra_warnings(self, read: tuple[str, ...]) -> list[InputFileWarning]:
        """A warning for each of the extra columns, which are kept but not read."""
        return [
            InputFileWarning(
                f"{self.name}:1: column {name!r}: not a column this reader knows; kept but not "
                f"used (the columns read are {list(read)})",
                self.name,
                1,
                name,
            )
            for name in self.extra_columns
        ]

    def error(
        self,
        line: int | None,
        column: str | None,
        problem: str,
        cause: BaseException | None = None,
    ) -> CsvError:
        return CsvError.at(self.name, line, column, problem, cause)

    def value(
        self, line: int, row: dict[str, str], column: str, parse: Callable[[str], Any]
    ) -> Any:
        """The column's value, read by ``parse``; any error is placed at the column."""
        try:
            return parse(row.get(column, ""))
        except (ValueError, MathhammerError) as exc:
            raise self.error(line, column, str(exc), exc) from None

    def build(self, line: int, columns: Mapping[str, str], make: Callable[[], T]) -> T:
        """``make()``; a profile's error is placed at the column its field is read from."""
        try:
            return make()
        except MathhammerError as exc:
            column = columns.get(exc.field) if exc.field else None
            raise self.error(line, column, str(exc), exc) from None

    def source(self, line: int) -> str:
        return f"{self.name}:{line}"

    def unit_name(self, line: int, row: dict[str, str]) -> str:
        """The unit a row belongs to: its ``unit`` column, which must not be blank."""
        name = row["unit"]
        if not name:
            raise self.error(line, "unit", "expected a unit name; got ''")
        return name


def integer(raw: str) -> int:
    """A whole number written with the digits 0-9 and an optional sign: ``"4"``, ``"-1"``.

    ``"1_0"``, ``"٣"`` (an Arabic-Indic 3) and ``"１"`` (a full-width 1) are not numbers
    in a profile, though Python's ``int`` reads them; nor is a number of more than
    :data:`MAX_DIGITS` digits, beyond any characteristic or points value.

    Examples
    --------
    >>> integer(" -1 "), integer("+4")
    (-1, 4)
    >>> integer("1_0")
    Traceback (most recent call last):
    ...
    ValueError: expected an integer; got '1_0'
    """
    text = raw.strip()
    if _INTEGER.fullmatch(text) is None:
        raise ValueError(f"expected an integer; got {shown(raw)}")
    if len(text.lstrip("+-")) > MAX_DIGITS:
        raise ValueError(f"expected an integer of at most {MAX_DIGITS} digits; got {shown(raw)}")
    return int(text)


def optional_integer(raw: str) -> int | None:
    return None if raw.strip().lower() in NONE else integer(raw)


def threshold(raw: str) -> int | None:
    """A roll as :func:`~mathhammer.model.values.parse_roll` reads it: ``"3+"`` or ``"3"``
    -> 3; ``"-"``, ``"N/A"`` or empty -> None. The profile the value feeds checks its range.

    Examples
    --------
    >>> threshold("3+"), threshold("3"), threshold("-")
    (3, 3, None)
    """
    if raw.strip().lower() in NONE:
        return None
    try:
        return parse_roll(raw, low=0, high=99)
    except MathhammerError:
        raise ValueError(f"expected a roll written '3+' or '3'; got {shown(raw)}") from None


def leadership(raw: str) -> int | None:
    """Ld as :func:`~mathhammer.model.values.parse_leadership` reads it: ``"6+"`` -> 8 (the
    classic characteristic with the same chance of passing), ``"8"`` -> 8; ``"-"`` or empty
    -> None. Like :func:`threshold`, the unit checks the range of a plain number.

    Examples
    --------
    >>> leadership("6+"), leadership("7"), leadership("")
    (8, 7, None)
    """
    text = raw.strip()
    if text.lower() in NONE:
        return None
    if _PLAIN_NUMBER.fullmatch(text):
        return int(text)
    try:
        return parse_leadership(raw)
    except MathhammerError as exc:
        raise ValueError(f"expected {exc.constraint}; got {shown(raw)}") from None


#: Each spelling of yes and no a flag column takes, with its value.
_FLAG_VALUES = {**dict.fromkeys(YES, True), **dict.fromkeys(NO, False)}


def flag(raw: str) -> bool:
    value = _FLAG_VALUES.get(raw.strip().lower())
    if value is None:
        raise ValueError(f"expected yes or no; got {shown(raw)}")
    return value


def optional_flag(raw: str) -> bool | None:
    return None if not raw.strip() else flag(raw)


def dice_reader(field: str) -> Callable[[str], Dice]:
    """A reader of a dice column; its errors name the field it feeds.

    Examples
    --------
    >>> dice_reader("Weapon.damage")("D3+1")
    Dice('D3+1')
    """

    def parse(raw: str) -> Dice:
        if not raw.strip():
            raise ValueError("expected a number or dice such as 'D6+1'; got ''")
        try:
            return read_dice(raw, field)
        except DiceSyntaxError as exc:
            raise exc.prefixed(field, field=field) from None

    return parse


def agree(reader: CsvReader, line: int, unit: str, column: str, first: Any, value: Any) -> None:
    if None not in (first, value) and first != value:
        raise reader.error(
            line, column, f"unit {unit!r} has {first!r} on an earlier row but {value!r} here"
        )


#: The context flags of an attacking unit: Context field -> column.
_FLAGS = {
    "half_range": "half_range",
    "remained_stationary": "stationary",
    "charged": "charged",
    "target_in_cover": "in_cover",
}


def _delimiter(text: str) -> str:
    """What separates the values: a comma, or the semicolon a spreadsheet set to a
    language with decimal commas writes (or a tab), when the header has no comma.

    >>> _delimiter("unit;weapon;count\\n"), _delimiter("unit,weapon\\n"), _delimiter("a\\tb")
    (';', ',', '\\t')
    """
    header = text.lstrip("\ufeff").split("\n", 1)[0]
    return next((sep for sep in (",", ";", "\t") if sep in header), ",")
