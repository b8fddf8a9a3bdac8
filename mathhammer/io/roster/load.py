"""Roster files into one tree: ``.ros`` (XML), ``.rosz`` (a zip of one ``.ros``) and JSON.

BattleScribe writes a roster as XML in the namespace
``http://www.battlescribe.net/schema/rosterSchema``; New Recruit exports the same tree as
JSON, ``{"roster": {"costs": [...], "forces": [{"selections": [...]}]}}``, with each
element's attributes as keys, each list element (``costs``, ``forces``, ``selections``,
``profiles``, ``characteristics``, ``rules``, ``categories``) as a list, a
characteristic's text under ``"$text"`` and a rule's text under ``"description"``. The XML
is read into that same JSON shape, so one walker reads both.

User XML is read only through ``defusedxml``: a document type with entities, or any
external reference, is refused rather than expanded. A zip is opened only if it holds
exactly one ``.ros`` and that member stays within :data:`MAX_BYTES` and
:data:`MAX_RATIO` as it is read (the sizes a zip declares are not trusted).

Examples
--------
>>> import pathlib, tempfile
>>> xml = ('<roster xmlns="http://www.battlescribe.net/schema/rosterSchema" name="Demo">'
...        '<costs><cost name="pts" typeId="points" value="90.0"/></costs></roster>')
>>> with tempfile.TemporaryDirectory() as folder:
...     path = pathlib.Path(folder, "demo.ros")
...     _ = path.write_text(xml)
...     load_tree(path)
{'name': 'Demo', 'costs': [{'name': 'pts', 'typeId': 'points', 'value': '90.0'}]}
"""

from __future__ import annotations

import io
import json
import zipfile
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any
from xml.etree.ElementTree import Element, ParseError

import defusedxml
import defusedxml.ElementTree as SafeElementTree

from ...errors import InputFileError
from ..files import check_depth, read_input_bytes

__all__ = ["MAX_BYTES", "MAX_RATIO", "load_tree"]

#: The largest roster read, in bytes (uncompressed): a 2,000-point list is well under 2 MB.
MAX_BYTES = 32 * 1024 * 1024
#: The largest compression ratio of a zipped roster: XML packs about 10 to 30 times; a
#: zip bomb packs a thousand times and more.
MAX_RATIO = 200

#: Elements that hold a list of child elements, as the JSON form writes them.
LISTS = frozenset(
    {
        "attributes",
        "categories",
        "characteristics",
        "costLimits",
        "costs",
        "forces",
        "profiles",
        "publications",
        "rules",
        "selections",
        "tags",
    }
)
#: Elements whose text is the value.
TEXTS = frozenset({"comment", "customNotes", "description", "readme"})
#: Elements whose text the JSON form keeps under ``"$text"``.
TEXT_ITEMS = frozenset({"attribute", "characteristic"})


def load_tree(path: str | Path) -> dict[str, Any]:
    """The ``roster`` mapping of a roster file, in the JSON form whatever the file's form.

    The form is told by the suffix (``.rosz``, ``.ros``, ``.json``), except that a zip is
    read as a zip whatever its name; any other suffix is told by the content.

    Raises
    ------
    InputFileError
        The file is missing, too large, not one of the three forms, malformed, holds a
        document type with entities, or (a zip) holds no or several rosters.
    """
    file = str(path)
    data = read_input_bytes(path, limit=MAX_BYTES)  # a FIFO or device is refused, not read
    suffix = Path(path).suffix.lower()
    if suffix == ".rosz" or data.startswith(b"PK\x03\x04"):  # a zip, whatever its name
        member, data = _unzip(file, data)
        return _roster(file, _xml(f"{file}[{member}]", data))
    if _is_xml(suffix, data):
        return _roster(file, _xml(file, data))
    return _roster(file, _json(file, data))


def _is_xml(suffix: str, data: bytes) -> bool:
    """A ``.ros`` file, or (unless it says ``.json``) one whose text starts with ``<``."""
    return suffix == ".ros" or (
        suffix != ".json" and data.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] == b"<"
    )


def _error(file: str, problem: str) -> InputFileError:
    return InputFileError.at(file, None, None, problem)


def _unzip(file: str, data: bytes) -> tuple[str, bytes]:
    """The one ``.ros`` member of a zip, read within the size and ratio caps."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            info = _roster_member(file, archive)
            limit = min(MAX_BYTES, max(info.compress_size, 1) * MAX_RATIO)
            with archive.open(info) as handle:
                content = handle.read(limit + 1)
    except (
        zipfile.BadZipFile,
        zipfile.LargeZipFile,
        NotImplementedError,
        EOFError,
        zlib.error,  # a member's data corrupt
        ValueError,  # offsets that point outside the file ("negative seek value")
    ) as exc:
        raise _error(file, f"not a readable zip file ({exc})") from None
    except RuntimeError as exc:  # an encrypted member
        raise _error(file, f"cannot open the roster in the zip ({exc})") from None
    if len(content) > limit:
        raise _error(
            file,
            f"{info.filename!r} unpacks to more than {limit} bytes (a roster is at most "
            f"{MAX_BYTES} bytes and packs at most {MAX_RATIO} times): refused as a zip bomb",
        )
    return info.filename, content


def _roster_member(file: str, archive: zipfile.ZipFile) -> zipfile.ZipInfo:
    """The one ``.ros`` file of a zip; an error if it holds none or several."""
    members = _rosters_in(archive)
    if len(members) != 1:
        names = [info.filename for info in members]
        raise _error(
            file,
            f"a .rosz must hold exactly one .ros roster; it holds {len(names)}"
            + (f": {names}" if names else ""),
        )
    return members[0]


def _rosters_in(archive: zipfile.ZipFile) -> list[zipfile.ZipInfo]:
    """The ``.ros`` files of a zip."""
    return [
        info
        for info in archive.infolist()
        if not info.is_dir() and info.filename.lower().endswith(".ros")
    ]


def _xml(file: str, data: bytes) -> dict[str, Any]:
    try:
        root = SafeElementTree.fromstring(data)
    except defusedxml.DefusedXmlException as exc:
        raise _error(file, f"refused: the XML declares {type(exc).__name__} ({exc})") from None
    except ParseError as exc:
        line, column = exc.position
        raise InputFileError.at(
            file, line, None, f"malformed XML at column {column + 1}: {exc.msg}"
        ) from None
    name = _local(root.tag)
    if name != "roster":
        raise _error(file, _not_a_roster(name))
    check_depth(root, file, list)  # the conversion below is recursive
    return {"roster": _element(root)}


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _element(element: Element) -> dict[str, Any]:
    """One XML element in the JSON form: attributes, list elements, text elements."""
    out: dict[str, Any] = dict(element.attrib)
    if _local(element.tag) in TEXT_ITEMS:
        out["$text"] = _text(element)
    return out | _children(element)


def _children(element: Element) -> dict[str, Any]:
    """An element's list elements (each a list of entries) and text elements (its text)."""
    out: dict[str, Any] = {}
    for child in element:
        name = _local(child.tag)
        read = _CHILD_READERS.get(name)
        if read is not None:
            out[name] = read(child)
    return out


def _entries(element: Element) -> list[dict[str, Any]]:
    """A list element's entries, each in the JSON form."""
    return [_element(item) for item in element]


def _text(element: Element) -> str:
    """An element's text ("" without any)."""
    return element.text or ""


#: How a child element is read, by its name: a list element as its entries, a text
#: element as its text; any other child is not read.
_CHILD_READERS: dict[str, Callable[[Element], Any]] = {
    **dict.fromkeys(LISTS, _entries),
    **dict.fromkeys(TEXTS, _text),
}


def _json(file: str, data: bytes) -> dict[str, Any]:
    """A roster's JSON: an object (a catalogue's, or another single entry, refused)."""
    tree = _parse_json(file, data)
    check_depth(tree, file)  # the readers walk the tree recursively
    if not isinstance(tree, dict):
        raise _error(file, f"expected an object with a 'roster' entry; got {_kind(tree)}")
    if len(tree) == 1 and next(iter(tree)) != "roster":
        raise _error(file, _not_a_roster(next(iter(tree))))
    return tree


def _parse_json(file: str, data: bytes) -> Any:
    """The JSON value of a file's bytes; an error naming the file if they are not JSON."""
    try:
        return json.loads(data.decode("utf-8-sig"))
    except UnicodeDecodeError as exc:
        raise _error(file, f"not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    except json.JSONDecodeError as exc:
        raise InputFileError.at(
            file, exc.lineno, None, f"malformed JSON at column {exc.colno}: {exc.msg}"
        ) from None
    except RecursionError:
        raise _error(file, "cannot read: nested too deeply") from None
    except ValueError:  # Python's limit on the digits of an int read from text
        raise _error(file, "cannot read: a number has too many digits") from None


def _not_a_roster(name: str) -> str:
    if name in ("catalogue", "gameSystem"):
        return f"this is a {name}, not a roster (read catalogues with read_catalogue)"
    return f"expected a roster (a 'roster' element); got {name!r}"


def _roster(file: str, tree: dict[str, Any]) -> dict[str, Any]:
    if "roster" not in tree:
        raise _error(file, "expected an object with a 'roster' entry, as list builders export")
    roster = tree["roster"]
    if not isinstance(roster, dict):
        raise _error(file, f"'roster' must be an object; got {_kind(roster)}")
    return roster


def _kind(value: object) -> str:
    return "nothing" if value is None else type(value).__name__
