"""The catalogue set: a game system, its catalogues and the libraries they link, links resolved.

A BSData catalogue refers to entries by id: an ``entryLink`` (a selection entry or
group), an ``infoLink`` (a rule, profile or info group) or a ``categoryLink`` (a
keyword) names its target by ``targetId``. A target lives in the catalogue itself, in a
catalogue it links through ``catalogueLinks`` (libraries, followed transitively) or in the
game system, searched in that order: ids are only unique within such a set. Every link
of every file read is resolved when the set is built, so a dangling ``targetId`` or a
missing linked catalogue is one error naming the file and the entry, before any
datasheet is read.

Examples
--------
>>> system = {"id": "gs", "name": "Game", "sharedRules": [{"id": "r1", "name": "Stealth"}]}
>>> faction = {"id": "c1", "name": "Xenos", "gameSystemId": "gs",
...            "infoLinks": [{"id": "l1", "name": "Stealth", "type": "rule", "targetId": "r1"}]}
>>> books = CatalogueSet([Book("game.gst", "gameSystem", system),
...                       Book("xenos.cat", "catalogue", faction)])
>>> owner, rule = books.resolve(books.book("c1"), faction["infoLinks"][0])
>>> owner.file, rule["name"]
('game.gst', 'Stealth')
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...errors import InputFileError

__all__ = ["Book", "CatalogueSet", "nodes", "number", "with_link"]

Node = dict[str, Any]

#: The lists of a catalogue whose members other catalogues may link to.
SHARED = (
    "sharedSelectionEntries",
    "sharedSelectionEntryGroups",
    "sharedProfiles",
    "sharedRules",
    "sharedInfoGroups",
    "categoryEntries",
    "rules",
    "profileTypes",
    "costTypes",
    "forceEntries",
)
#: The kinds of link resolved across the set.
LINKS = ("entryLinks", "infoLinks", "categoryLinks")


def nodes(node: Node, key: str) -> list[Node]:
    """The members of the list ``key`` of a node (empty if absent or not a list)."""
    value = node.get(key)
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


def with_link(node: Node, link: Node | None) -> tuple[Node, ...]:
    """A node and, if it was reached through one, its link: where its attributes are set."""
    return (node, link) if link else (node,)


def number(value: Any) -> int | float | None:
    """A JSON number as it is (``true`` and ``false`` are not numbers); None for anything
    else."""
    return value if isinstance(value, int | float) and not isinstance(value, bool) else None


@dataclass
class Book:
    """One file of the set: where it came from, its kind and its tree."""

    file: str
    kind: str
    body: Node
    index: dict[str, Node] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        for key in SHARED:
            for member in nodes(self.body, key):
                self.index.setdefault(str(member.get("id", "")), member)

    @property
    def id(self) -> str:
        """The catalogue's or game system's id."""
        return str(self.body.get("id", ""))

    @property
    def name(self) -> str:
        """The catalogue's or game system's name (``"Xenos - Necrons"``)."""
        return str(self.body.get("name", "") or Path(self.file).stem)


class CatalogueSet:
    """Game systems and catalogues, with every link checked and resolvable.

    Parameters
    ----------
    books : sequence of Book
        The files read.

    Raises
    ------
    InputFileError
        Two files with one id, a catalogue whose game system or linked catalogue is not
        among the files, or a link whose ``targetId`` matches nothing it can see.
    """

    def __init__(self, books: Sequence[Book]) -> None:
        self.books = _by_id(books)
        self.scopes = {book.id: self._scope(book) for book in self.books.values()}
        for book in self.books.values():
            self._check_links(book)

    def book(self, id: str) -> Book:
        """A file of the set by its id."""
        return self.books[id]

    def catalogues(self) -> Iterator[Book]:
        """Every file of the set, the game systems first."""
        yield from sorted(self.books.values(), key=lambda b: b.kind != "gameSystem")

    def _scope(self, book: Book) -> tuple[Book, ...]:
        """The files whose entries ``book`` sees: itself, what it links, its game system."""
        seen = self._linked(book)
        if book.kind != "gameSystem":
            system = self._game_system(book)
            if system not in seen:
                seen.append(system)
        return tuple(seen)

    def _linked(self, book: Book) -> list[Book]:
        """``book`` and the files it links, transitively, nearest first."""
        seen = [book]
        pending = [book]
        while pending:
            current = pending.pop(0)
            for link in nodes(current.body, "catalogueLinks"):
                target = self._link_target(current, link)
                if target not in seen:
                    seen.append(target)
                    pending.append(target)
        return seen

    def _link_target(self, book: Book, link: Node) -> Book:
        """The file a ``catalogueLink`` of ``book`` names; an error if it is not among the
        files."""
        target = self.books.get(str(link.get("targetId", "")))
        if target is None:
            raise InputFileError.at(
                book.file,
                None,
                None,
                f"catalogueLink {link.get('name')!r} names catalogue id "
                f"{link.get('targetId')!r}, which is not among the files read "
                "(add the linked catalogue's file beside it)",
            )
        return target

    def _game_system(self, book: Book) -> Book:
        """The game system of a catalogue; an error if it is not among the files."""
        system = self.books.get(str(book.body.get("gameSystemId", "")))
        if system is None:
            raise InputFileError.at(
                book.file,
                None,
                None,
                f"its game system (id {book.body.get('gameSystemId')!r}) is not among the "
                "files read (add the .gst or game system file beside it)",
            )
        return system

    def find(self, book: Book, target: str) -> tuple[Book, Node] | None:
        """The node with id ``target`` as ``book`` sees it, and its file; or None."""
        for candidate in self.scopes[book.id]:
            found = candidate.index.get(target)
            if found is not None:
                return candidate, found
        return None

    def resolve(self, book: Book, link: Node) -> tuple[Book, Node]:
        """The target of a link in ``book``, and the file it is in.

        The links of the target resolve in that file: a library's entries see the
        library's links, whichever catalogue reached them.
        """
        found = self.find(book, str(link.get("targetId", "")))
        if found is None:
            raise self._dangling(book, link, "")
        return found

    def _check_links(self, book: Book) -> None:
        for owner, link in _links(book.body):
            if self.find(book, str(link.get("targetId", ""))) is None:
                raise self._dangling(book, link, owner)

    def _dangling(self, book: Book, link: Node, owner: str) -> InputFileError:
        kind = link.get("type") or "category"
        where = f" in {owner!r}" if owner else ""
        names = ", ".join(repr(b.name) for b in self.scopes[book.id])
        return InputFileError.at(
            book.file,
            None,
            None,
            f"{kind} link {link.get('name')!r} (id {link.get('id')!r}){where}: targetId "
            f"{link.get('targetId')!r} matches no entry of {names}",
        )


def _by_id(books: Sequence[Book]) -> dict[str, Book]:
    """The files by id; an error for two files with one id."""
    by_id: dict[str, Book] = {}
    for book in books:
        known = by_id.get(book.id)
        if known is not None:
            raise InputFileError.at(
                book.file,
                None,
                None,
                f"{book.kind} id {book.id!r} is also the id of {known.file}: "
                "read one copy of each catalogue",
            )
        by_id[book.id] = book
    return by_id


def _links(node: Node, owner: str = "") -> Iterator[tuple[str, Node]]:
    """Every link in a tree, with the name of the node holding it."""
    name = str(node.get("name", owner))
    for key in node:
        for member in nodes(node, key):
            if key in LINKS:
                yield name, member
            yield from _links(member, name)
