"""``read_catalogue``: BSData catalogues in, datasheets out.

Examples
--------
A game system and a faction, written as JSON the way BSData ships them:

>>> import json, tempfile
>>> from pathlib import Path
>>> system = {"gameSystem": {"id": "gs", "name": "Game", "costTypes": [
...     {"id": "pts", "name": "pts"}]}}
>>> unit = {"id": "e1", "name": "Warriors", "type": "model",
...         "costs": [{"name": "pts", "typeId": "pts", "value": 20}],
...         "categoryLinks": [{"id": "k1", "name": "Infantry", "targetId": "c1"}],
...         "profiles": [{"id": "p1", "name": "Warrior", "typeName": "Unit",
...             "characteristics": [{"name": n, "$text": v} for n, v in
...                 [("M", '6"'), ("T", "4"), ("Sv", "3+"), ("W", "2"), ("InSv", "")]]}]}
>>> faction = {"catalogue": {"id": "cat", "name": "Xenos - Example", "gameSystemId": "gs",
...     "categoryEntries": [{"id": "c1", "name": "Infantry"}],
...     "sharedSelectionEntries": [unit],
...     "entryLinks": [{"id": "l1", "name": "Warriors", "type": "selectionEntry",
...                     "targetId": "e1"}]}}
>>> folder = Path(tempfile.mkdtemp())
>>> _ = (folder / "Game.json").write_text(json.dumps(system))
>>> _ = (folder / "Example.json").write_text(json.dumps(faction))
>>> catalogue = read_catalogue(folder / "Example.json")
>>> catalogue
Catalogue(1 datasheet of 1 faction)
>>> sheet = catalogue.get("warriors")
>>> sheet.faction, sheet.keywords, sheet.points_for(), sheet.unit().groups[0].label
('Xenos - Example', ('INFANTRY',), 20, 'Warrior')
>>> [s.name for s in catalogue.faction("Example")], catalogue.report.datasheets
(['Warriors'], 1)
"""

from __future__ import annotations

import stat
from dataclasses import dataclass
from pathlib import Path

from ...errors import InputFileError
from ...units.parts import AbilityText, Detachment
from ..files import input_kind
from ..import_report import ImportReport
from ..library import DatasheetLibrary
from ..roster.system import check_readable, game_system
from .datasheets import DatasheetReader
from .files import EXTENSIONS, load_tree, unpacked_bound
from .links import Book, CatalogueSet, Node, nodes
from .profiles import clean_text

__all__ = ["MAX_FOLDER_BYTES", "Catalogue", "read_catalogue"]

#: The most bytes of catalogue files one folder may hold: they link each other, so they are
#: read together (a folder of six factions with its game system is 12 MB, read in 1.7-2 s and
#: 80 MB; at 32 MiB, some 220 MB). A zipped file counts as what it may unpack to.
MAX_FOLDER_BYTES = 32 * 2**20


@dataclass(frozen=True)
class Catalogue(DatasheetLibrary):
    """The datasheets read from a set of BSData catalogues, by faction, with the import
    report: a :class:`~mathhammer.io.library.DatasheetLibrary`."""

    def __repr__(self) -> str:
        n, f = len(self.datasheets), len(self.factions)
        return f"Catalogue({n} datasheet{'s' * (n != 1)} of {f} faction{'s' * (f != 1)})"


def read_catalogue(path: str | Path, *, strict: bool = False) -> Catalogue:
    """Read BSData catalogues: a file with what it links, or a directory of them.

    Parameters
    ----------
    path : str or Path
        A catalogue or game system file (``.json``, ``.cat``, ``.gst``, ``.catz``,
        ``.gstz``), whose game system and linked libraries are found beside it; or a
        directory, every catalogue of which is read.
    strict : bool
        A weapon ability the engine does not know is an error instead of a token
        listed in ``catalogue.report.unknown_abilities``.

    Returns
    -------
    Catalogue
        The datasheets by faction, with the import report.

    Raises
    ------
    InputFileError
        A file cannot be read or is malformed, a linked catalogue or the game system is
        missing, a link's ``targetId`` matches nothing, or (``strict``) a weapon ability
        is unknown. The message names the file and the entry.
    """
    path = Path(path)
    if input_kind(path) == "folder":  # a device or FIFO is refused, never read
        books = [_book(p) for p in _checked_folder(path)]
        if not books:
            raise InputFileError.at(
                str(path), None, None, f"no catalogue files ({', '.join(EXTENSIONS)}) in it"
            )
    else:
        books = _with_links(_book(path))
    report = ImportReport(str(path))
    reader = DatasheetReader(CatalogueSet(books), report, strict=strict)
    edition = _edition(books)
    return Catalogue(tuple(reader.read_all()), report, _detachments(books), edition)


def _edition(books: list[Book]) -> str | None:
    """The ruleset of the edition the game system among ``books`` names, if one does; a
    game system of another game or of an edition whose profiles are not read is refused
    in one line, as a roster of it is (:func:`~mathhammer.io.roster.system.check_readable`)."""
    systems = [b for b in books if b.kind == "gameSystem"]
    for book in systems:
        system = game_system({"gameSystemName": book.body.get("name")})
        check_readable(system, book.file, "catalogue")
    named = (game_system({"gameSystemName": b.body.get("name")}) for b in systems)
    return next((s.ruleset for s in named if s.ruleset), None)


def _detachments(books: list[Book]) -> tuple[Detachment, ...]:
    """The detachments of each faction: the entries of its ``Detachment`` group, with their
    rules as printed."""
    return tuple(detachment for book in books for detachment in _book_detachments(book))


def _book_detachments(book: Book) -> list[Detachment]:
    """The detachments of one file: the entries of its ``Detachment`` groups."""
    return [
        Detachment(str(entry.get("name", "")), _printed_rules(entry), book.name)
        for group in nodes(book.body, "sharedSelectionEntryGroups")
        if group.get("name") == "Detachment"
        for entry in nodes(group, "selectionEntries")
    ]


def _printed_rules(entry: Node) -> tuple[AbilityText, ...]:
    """The named rules of an entry, with their text as printed."""
    return tuple(
        AbilityText(str(r.get("name", "")), clean_text(r.get("description", "")))
        for r in nodes(entry, "rules")
        if r.get("name")
    )


def _book(path: Path) -> Book:
    kind, body = load_tree(path)
    return Book(str(path), kind, body)


def _game_system(path: Path) -> bool:
    """A file that looks like a game system, from its name ending or its first bytes."""
    suffix = path.suffix.lower()
    if suffix != ".json":
        return suffix in (".gst", ".gstz")
    with path.open("rb") as handle:  # a regular file: _candidates passed over the rest
        return b'"gameSystem"' in handle.read(64)


def _checked_folder(folder: Path) -> list[Path]:
    """The catalogue files of a folder, refused together past :data:`MAX_FOLDER_BYTES`
    before any is read."""
    files = _candidates(folder)
    total = sum(unpacked_bound(p) for p in files)
    if total > MAX_FOLDER_BYTES:
        problem = (
            f"its {len(files)} catalogue files hold up to {total:,} bytes: at most "
            f"{MAX_FOLDER_BYTES:,} are read together; name one catalogue file instead (the "
            "files it links are found beside it)"
        )
        raise InputFileError.at(str(folder), None, None, problem)
    return files


def _candidates(folder: Path) -> list[Path]:
    """The catalogue files of a folder: regular files (or links to them) only, so that a
    FIFO or device named like a catalogue is passed over rather than read."""
    return sorted(
        p for p in folder.iterdir() if p.suffix.lower() in EXTENSIONS and _regular_file(p)
    )


def _regular_file(path: Path) -> bool:
    try:
        return stat.S_ISREG(path.stat().st_mode)
    except (OSError, ValueError):
        return False


def _with_links(first: Book) -> list[Book]:
    """A file and every file it needs, found beside it: the game system and the
    catalogues it links, transitively. Files named like a link are tried first."""
    books = {first.id: first}
    others = _beside(first)
    loaded: dict[Path, Book] = {}
    pending = [first]
    while pending:
        book = pending.pop()
        for ident, name in _wanted(book):
            if ident in books:
                continue
            found = _find(ident, name, others, loaded)
            if found is not None:  # a missing one is reported by the CatalogueSet
                books[ident] = found
                pending.append(found)
    return list(books.values())


def _beside(book: Book) -> list[Path]:
    """The catalogue files in the folder of a file, other than that file."""
    here = Path(book.file).resolve()
    return [p for p in _candidates(here.parent) if p.resolve() != here]


def _wanted(book: Book) -> list[tuple[str, str]]:
    """(id, name) of each file a file needs: the catalogues it links, its game system."""
    wanted = [
        (str(link.get("targetId")), str(link.get("name", "")))
        for link in nodes(book.body, "catalogueLinks")
    ]
    if book.kind != "gameSystem":
        wanted.append((str(book.body.get("gameSystemId", "")), ""))
    return wanted


def _find(ident: str, name: str, others: list[Path], loaded: dict[Path, Book]) -> Book | None:
    """The file of catalogue ``ident`` among ``others``: files named like the link first,
    then game systems, so that the search rarely reads a file it does not need."""

    def likely(p: Path) -> tuple[bool, bool]:
        return p.stem.casefold() != name.casefold(), not _game_system(p)

    for path in sorted(others, key=likely):
        if path not in loaded:
            loaded[path] = _book(path)
        if loaded[path].id == ident:
            return loaded[path]
    return None
