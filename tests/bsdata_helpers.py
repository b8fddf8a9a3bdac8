"""BSData test helpers: the JSON form written as BattleScribe XML, and the committed excerpt.

``to_xml`` writes a catalogue or game system tree the way BattleScribe's ``.cat`` and
``.gst`` files hold it (lists as plural elements of singular children, scalars as
attributes, ``description``/``comment``/``readme`` as text elements, ``$text`` as an
element's text), so the XML reader is tested on the real data's own content.

``copy_excerpt``, ``edit``, ``shared_entry`` and ``find`` change a copy of the excerpt for
the bad-input tests.

``excerpt`` cuts the files of ``tests/data/bsdata`` out of the shared BSData snapshot: the
root links of a few datasheets and every shared entry, rule, profile and category they
reach, with crusade and enhancement content, detachment rules and modifier groups left
out and rules text cut to its first sentence. Rebuild them with::

    python tests/bsdata_helpers.py ../shared/data/bsdata-11e tests/data/bsdata
"""

from __future__ import annotations

import json
import re
import shutil
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path
from typing import Any

#: The committed excerpt.
DATA = Path(__file__).resolve().parent / "data" / "bsdata"
SCHEMAS = {
    "catalogue": "http://www.battlescribe.net/schema/catalogueSchema",
    "gameSystem": "http://www.battlescribe.net/schema/gameSystemSchema",
}
TEXT_ELEMENTS = ("description", "comment", "readme")

#: The datasheets of the committed excerpt, by the file offering them.
EXCERPT = {
    "Necrons.json": ("Necron Warriors", "Overlord", "Lokhust Destroyers"),
    "Orks.json": ("Boyz", "Burna Boyz"),
    "Tyranids.json": ("Termagants", "Hyperadapted Raveners", "The Red Terror"),
    "Unaligned Forces.json": (),
    "Library - Tyranids.json": (),
    "Warhammer 40,000.json": (),
}
#: Entries and groups an excerpt leaves out: none is part of a matched-play datasheet.
LEFT_OUT = {
    "Crusade",
    "Enhancements",
    "Enhancements - Upgrades",
    "Weapon Modifications",
    "Weapon Upgrades",
    "Specialisms",
}
#: Keys the reader does not use, left out of the excerpt to keep it small.
UNREAD = {
    "modifierGroups",
    "publicationId",
    "page",
    "sortIndex",
    "shared",
    "import",
    "collective",
    "flatten",
    "collapsible",
    "includeChildSelections",
    "includeChildForces",
}
#: The typeId of the ``pts`` cost in the 11th-edition game system.
PTS = "51b2-306e-1021-d207"
SHARED = (
    "sharedSelectionEntries",
    "sharedSelectionEntryGroups",
    "sharedProfiles",
    "sharedRules",
    "categoryEntries",
    "rules",
)


def singular(key: str) -> str:
    """The element name of a list's members: ``sharedSelectionEntries`` -> ``selectionEntry``."""
    key = key.removeprefix("shared")
    key = key[0].lower() + key[1:]
    return key[:-3] + "y" if key.endswith("ies") else key.removesuffix("s")


def to_xml(kind: str, body: dict[str, Any]) -> bytes:
    """A catalogue or game system tree as BattleScribe XML."""
    root = _element(kind, body)
    root.set("xmlns", SCHEMAS[kind])
    text: bytes = ElementTree.tostring(root, encoding="utf-8", xml_declaration=True)
    return text


def _element(tag: str, node: dict[str, Any]) -> ElementTree.Element:
    element = ElementTree.Element(tag)
    for key, value in node.items():
        if key == "xmlns":
            continue
        if key == "$text":
            element.text = str(value)
        elif isinstance(value, list) and all(isinstance(m, str) for m in value):
            for member in value:  # a repeated text element: a rule's aliases
                ElementTree.SubElement(element, key).text = member
        elif isinstance(value, list):
            container = ElementTree.SubElement(element, key)
            for member in value:
                container.append(_element(singular(key), member))
        elif key in TEXT_ELEMENTS:
            ElementTree.SubElement(element, key).text = str(value)
        elif isinstance(value, bool):
            element.set(key, "true" if value else "false")
        else:
            element.set(key, str(value))
    return element


def first_sentence(text: str) -> str:
    """The text up to its first full stop (the whole text if it has none)."""
    match = re.match(r"(.+?[.!?])(\s|$)", text, re.S)
    return match.group(1) if match else text


def excerpt(source: Path) -> dict[str, dict[str, Any]]:
    """The excerpt's files (name -> document) cut from the shared snapshot."""
    documents = {name: json.loads((source / name).read_text("utf-8")) for name in EXCERPT}
    bodies = {name: next(iter(doc.values())) for name, doc in documents.items()}
    index = {
        str(member["id"]): (name, member)
        for name, body in bodies.items()
        for key in SHARED
        for member in body.get(key, [])
    }
    kept: dict[str, dict[str, Any]] = {}
    pending: list[str] = []
    out: dict[str, dict[str, Any]] = {}
    for name, body in bodies.items():
        trimmed: dict[str, Any] = {k: v for k, v in body.items() if not isinstance(v, list)}
        for key in ("costTypes", "profileTypes", "catalogueLinks"):
            if key in body:
                trimmed[key] = body[key]
        links = [lk for lk in body.get("entryLinks", []) if lk["name"] in EXCERPT[name]]
        trimmed["entryLinks"] = [_prune(lk, pending) for lk in links]
        out[name] = {next(iter(documents[name])): trimmed}
    while pending:
        ident = pending.pop()
        if ident in kept or ident not in index:
            continue
        name, member = index[ident]
        kept[ident] = _prune(member, pending)
        body = next(iter(out[name].values()))
        key = next(k for k in SHARED if member in bodies[name].get(k, []))
        body.setdefault(key, []).append(kept[ident])
    return out


def _prune(node: dict[str, Any], pending: list[str]) -> dict[str, Any]:
    """A copy of a node without the content an excerpt leaves out; the ids it links are
    added to ``pending``."""
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key in UNREAD or (key == "typeId" and "$text" in node):
            continue
        if key == "description" or (key == "$text" and node.get("name") == "Description"):
            out[key] = first_sentence(str(value))
        elif isinstance(value, list):
            members = [m for m in value if isinstance(m, dict) and not _left_out(key, m)]
            out[key] = [_prune(m, pending) for m in members]
        else:
            out[key] = value
    if "targetId" in node and any(k in node for k in ("type", "primary", "name")):
        pending.append(str(node["targetId"]))
    return out


def _left_out(key: str, member: dict[str, Any]) -> bool:
    if key == "infoLinks" and member.get("type") == "infoGroup":
        return True
    if key == "costs" and member.get("name") != "pts":
        return True
    if key == "constraints" and member.get("field") != "selections":
        return True
    if key == "modifiers" and member.get("field") not in (PTS, "name"):
        return True
    if str(member.get("comment", "")).lower().startswith("crusade"):
        return True
    return key in ("entryLinks", "selectionEntryGroups", "selectionEntries") and (
        member.get("name") in LEFT_OUT
    )


def copy_excerpt(tmp_path: Path) -> Path:
    """A copy of the committed excerpt to change."""
    folder = tmp_path / "bsdata"
    shutil.copytree(DATA, folder)
    return folder


def edit(path: Path, change: Any) -> None:
    """Rewrite a JSON catalogue after ``change(body)``."""
    document = json.loads(path.read_text("utf-8"))
    change(next(iter(document.values())))
    path.write_text(json.dumps(document), encoding="utf-8")


def shared_entry(body: dict[str, Any], name: str) -> dict[str, Any]:
    """A catalogue's shared entry by name."""
    return next(e for e in body["sharedSelectionEntries"] if e["name"] == name)


def find(node: Any, name: str) -> dict[str, Any]:
    """The first dict named ``name`` in a tree, depth first."""
    if isinstance(node, dict):
        if node.get("name") == name:
            return node
        node = list(node.values())
    if isinstance(node, list):
        for member in node:
            try:
                return find(member, name)
            except LookupError:
                pass
    raise LookupError(name)


def main(argv: list[str]) -> None:
    """Write the excerpt: ``python tests/bsdata_helpers.py SOURCE TARGET``."""
    source, target = Path(argv[0]), Path(argv[1])
    target.mkdir(parents=True, exist_ok=True)
    for name, document in excerpt(source).items():
        text = json.dumps(document, ensure_ascii=False, separators=(",", ":"))
        (target / name).write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1:])
