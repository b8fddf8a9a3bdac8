"""BSData files in every form they ship in, read into one tree shape.

A catalogue or game system comes as JSON (``.json``), as BattleScribe XML (``.cat``,
``.gst``) or zipped XML (``.catz``, ``.gstz``: a zip holding one XML file). Each is read
into the tree the JSON form already has, so one reader serves all of them:

- an element's attributes are keys (``"true"``/``"false"`` become booleans, a numeric
  ``value`` a number, as in the JSON);
- a list element (``<selectionEntries>``) is a list of its children's trees, in order;
- an element holding only text (``<description>``) is that string;
- the text of an element with attributes (``<characteristic name="T">4</characteristic>``)
  is its ``"$text"``.

XML is parsed with defusedxml, which refuses entity declarations (the "billion laughs"),
and a zip is read only up to a size and compression-ratio limit (a "zip bomb" is a small
file that expands hugely). Every problem with a file is one :class:`InputFileError`
naming it.

Examples
--------
>>> xml = '''<catalogue xmlns="http://www.battlescribe.net/schema/catalogueSchema"
...   id="c1" name="Xenos - Example" library="false">
...   <sharedSelectionEntries>
...     <selectionEntry type="model" name="Warrior" id="e1">
...       <profiles><profile name="Warrior" typeName="Unit" id="p1"><characteristics>
...         <characteristic name="T">4</characteristic>
...       </characteristics></profile></profiles>
...     </selectionEntry>
...   </sharedSelectionEntries>
... </catalogue>'''
>>> kind, body = read_tree(xml.encode(), "example.cat")
>>> kind, body["library"], body["sharedSelectionEntries"][0]["profiles"][0]["characteristics"]
('catalogue', False, [{'name': 'T', '$text': '4'}])
"""

from __future__ import annotations

import io
import json
import re
import zipfile
import zlib
from pathlib import Path
from typing import Any

import defusedxml.ElementTree as SafeTree
from defusedxml import DefusedXmlException

from ...errors import InputFileError
from ..files import check_depth, read_input_bytes

__all__ = [
    "EXTENSIONS",
    "MAX_RATIO",
    "unpacked_bound",
    "MAX_UNCOMPRESSED",
    "load_tree",
    "read_tree",
]

#: The file name endings of catalogues and game systems, in every form.
EXTENSIONS = (".json", ".cat", ".gst", ".catz", ".gstz")
#: The largest catalogue read, as it is or as its zip expands to: the largest real one is
#: about 4 MB, and 32 MiB of the shortest XML attributes parse in about 4 s and 300 MB.
MAX_UNCOMPRESSED = 32 * 2**20
#: The largest compression ratio accepted (XML catalogues compress about 10 to 20 times).
MAX_RATIO = 100
#: The root keys of the two kinds of file this reader accepts.
KINDS = ("catalogue", "gameSystem")

_NUMBER = re.compile(r"-?\d+(\.\d+)?")
Tree = dict[str, Any]


def unpacked_bound(path: Path) -> int:
    """The most bytes a catalogue file can be read as: its size, or for a zipped one what
    its size may unpack to within :data:`MAX_RATIO` and :data:`MAX_UNCOMPRESSED`.

    Examples
    --------
    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = (folder / "a.json").write_bytes(b"{}"); _ = (folder / "a.catz").write_bytes(b"x" * 10)
    >>> unpacked_bound(folder / "a.json"), unpacked_bound(folder / "a.catz")
    (2, 1000)
    """
    size = path.stat().st_size
    if path.suffix.lower().endswith("z"):
        return min(size * MAX_RATIO, MAX_UNCOMPRESSED)
    return size


def load_tree(path: str | Path) -> tuple[str, Tree]:
    """Read one catalogue or game system file: its kind and its tree.

    Parameters
    ----------
    path : str or Path
        A ``.json``, ``.cat``, ``.gst``, ``.catz`` or ``.gstz`` file.

    Returns
    -------
    (str, dict)
        ``"catalogue"`` or ``"gameSystem"``, and the body under that root.

    Raises
    ------
    InputFileError
        The file cannot be read, is malformed, is not a catalogue or game system, or is
        a zip with no or several files, or one past the size limits.
    """
    path = Path(path)
    if path.suffix.lower() in (".catz", ".gstz"):  # expanded within MAX_UNCOMPRESSED
        return read_tree(_unzip(read_input_bytes(path), str(path)), str(path))
    raw = read_input_bytes(path, limit=MAX_UNCOMPRESSED)  # a FIFO or device is refused
    return read_tree(raw, str(path))


def read_tree(raw: bytes, name: str) -> tuple[str, Tree]:
    """The kind and tree of a file's bytes: JSON if ``name`` ends ``.json``, else XML."""
    json_form = name.lower().endswith(".json")
    document = _parse_json(raw, name) if json_form else _parse_xml(raw, name)
    if json_form:  # the readers walk the tree recursively (an XML tree is checked parsing)
        check_depth(document, name)
    return _root(document, name)


def _root(document: Any, name: str) -> tuple[str, Tree]:
    """The kind and body of a parsed file's one root; an error unless it is a catalogue or
    game system."""
    if not isinstance(document, dict) or len(document) != 1:
        raise _not_bsdata(name, "a document with several roots")
    ((kind, body),) = document.items()
    if kind not in KINDS or not isinstance(body, dict):
        raise _not_bsdata(name, f"a {kind!r} document")
    return kind, body


def _not_bsdata(name: str, found: str) -> InputFileError:
    hint = " (rosters are read by read_roster)" if "roster" in found else ""
    return InputFileError.at(
        name, None, None, f"expected a BattleScribe catalogue or game system; got {found}{hint}"
    )


def _parse_json(raw: bytes, name: str) -> Any:
    try:
        return json.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError as exc:
        raise InputFileError.at(name, None, None, f"not UTF-8 text: {exc}") from None
    except json.JSONDecodeError as exc:
        raise InputFileError.at(name, exc.lineno, None, f"malformed JSON: {exc.msg}") from None
    except RecursionError:
        raise InputFileError.at(name, None, None, "cannot read: nested too deeply") from None
    except ValueError:  # Python's limit on the digits of an int read from text
        problem = "cannot read: a number has too many digits"
        raise InputFileError.at(name, None, None, problem) from None


def _parse_xml(raw: bytes, name: str) -> Tree:
    """An XML file's tree, in the shape of the JSON form."""
    root = _xml_root(raw, name)
    check_depth(root, name, list)  # the conversion below is recursive
    return {_local(root.tag): _element(root)}


def _xml_root(raw: bytes, name: str) -> Any:
    """The root element of an XML file, parsed safely; an error naming the file if it is
    malformed or uses a forbidden construct."""
    try:
        return SafeTree.fromstring(raw)
    except DefusedXmlException as exc:
        problem = f"XML with a forbidden construct ({type(exc).__name__}): entity and DTD "
        problem += "declarations are refused"
        raise InputFileError.at(name, None, None, problem) from None
    except SafeTree.ParseError as exc:
        line = exc.position[0] if exc.position else None
        raise InputFileError.at(name, line, None, f"malformed XML: {exc}") from None


def _local(tag: str) -> str:
    """A tag without its namespace: ``{http://...}catalogue`` -> ``catalogue``."""
    return tag.rsplit("}", 1)[-1]


def _attribute(key: str, value: str) -> Any:
    if value in ("true", "false"):
        return value == "true"
    if key == "value" and _NUMBER.fullmatch(value):
        number = float(value)
        return int(number) if number.is_integer() else number
    return value


def _element(element: Any) -> Any:
    """One XML element as the JSON form has it (see the module docstring)."""
    children = list(element)
    if not element.attrib:
        return _plain(element, children)
    return _attributed(element, children)


def _attributed(element: Any, children: list[Any]) -> Tree:
    """An element with attributes: its attributes and children by name, and its text (if
    it has no children) as ``"$text"``."""
    node: Tree = {key: _attribute(key, value) for key, value in element.attrib.items()}
    _add_children(node, children)
    if (element.text or "").strip() and not children:
        node["$text"] = element.text
    return node


def _plain(element: Any, children: list[Any]) -> Any:
    """An element without attributes: the list of its children, else its text."""
    if children:
        return [_element(child) for child in children]
    return element.text or ""


def _add_children(node: Tree, children: list[Any]) -> None:
    """Put each child element under its tag; a tag repeated holds the list of them."""
    repeated: set[str] = set()
    for child in children:
        tag, value = _local(child.tag), _element(child)
        if tag in repeated:  # a repeated text element (a rule's aliases): a list
            node[tag] = [*node[tag], value] if isinstance(node[tag], list) else [node[tag], value]
        else:
            node[tag] = value
        repeated.add(tag)


def _unzip(raw: bytes, name: str) -> bytes:
    """The one file of a zip, read only within the size and ratio limits."""
    archive, member = _only_member(raw, name)
    try:
        with archive.open(member) as handle:
            # zipfile reads no further than the size the header states (checked above), and
            # a header that understates it fails the CRC check
            return handle.read(MAX_UNCOMPRESSED)
    except (
        zipfile.BadZipFile,
        OSError,
        EOFError,
        ValueError,
        zlib.error,  # its data corrupt
        NotImplementedError,  # compressed by a method zipfile does not read (Deflate64)
    ) as exc:
        problem = f"cannot unzip {member.filename!r}: {exc}"
        raise InputFileError.at(name, None, None, problem) from None
    except RuntimeError:  # flagged encrypted
        problem = f"cannot unzip {member.filename!r}: it is encrypted; give it unzipped"
        raise InputFileError.at(name, None, None, problem) from None


def _only_member(raw: bytes, name: str) -> tuple[zipfile.ZipFile, zipfile.ZipInfo]:
    """The zip and its one file; an error if it holds more, or would expand too far."""
    archive = _open_zip(raw, name)
    members = [m for m in archive.infolist() if not m.is_dir()]
    if len(members) != 1:
        names = [m.filename for m in members]
        raise InputFileError.at(
            name, None, None, f"a zipped catalogue must hold exactly one file; got {names}"
        )
    _check_size(name, members[0])
    return archive, members[0]


def _open_zip(raw: bytes, name: str) -> zipfile.ZipFile:
    """The bytes as a zip archive; an error if they are not a readable one."""
    try:
        return zipfile.ZipFile(io.BytesIO(raw))
    except (zipfile.BadZipFile, OSError) as exc:
        raise InputFileError.at(name, None, None, f"not a readable zip file: {exc}") from None


def _check_size(name: str, member: zipfile.ZipInfo) -> None:
    """Refuse a file that would expand past the size or ratio limits (a zip bomb)."""
    ratio = member.file_size / max(member.compress_size, 1)
    if member.file_size > MAX_UNCOMPRESSED or ratio > MAX_RATIO:
        raise _bomb(name, member.filename, member.file_size)


def _bomb(name: str, member: str, size: int) -> InputFileError:
    return InputFileError.at(
        name,
        None,
        None,
        f"{member!r} would expand to {size} bytes: a zipped catalogue must expand to at most "
        f"{MAX_UNCOMPRESSED} bytes and {MAX_RATIO} times its compressed size",
    )
