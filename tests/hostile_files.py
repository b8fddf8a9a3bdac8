"""Hostile and absurd army files, made by hand for the importers' suite.

Each maker writes one case into a folder of its own (a catalogue finds its game system
beside it, so no case may see another's files) and returns the path to read and, where a
reader needs one, the faction. The cases are those a reliability run found: link graphs,
huge model and wargear counts, loadouts repeated thousands of times, counts and numbers no
army holds, odd zips, deep nesting, amplified attributes and unusual encodings.
"""

from __future__ import annotations

import io
import json
import shutil
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"

#: A case: the folder to write it in -> the path to read and the faction (or None).
Maker = Callable[[Path], tuple[Path, str | None]]

_SYSTEM = {"gameSystem": {"id": "gs", "name": "Warhammer 40,000 11th Edition", "costTypes": []}}


def _profile(name: str, kind: str, values: list[tuple[str, str]]) -> dict[str, Any]:
    characteristics = [{"name": n, "$text": v} for n, v in values]
    return {"id": f"p-{name}", "name": name, "typeName": kind, "characteristics": characteristics}


def _gun() -> dict[str, Any]:
    values = [("Range", '24"'), ("A", "2"), ("BS", "3+"), ("S", "4"), ("AP", "-1"), ("D", "1")]
    return _profile("Gun", "Ranged Weapons", [*values, ("Keywords", "-")])


def _body(name: str) -> dict[str, Any]:
    values = [("M", '6"'), ("T", "4"), ("SV", "3+"), ("W", "2"), ("LD", "6+"), ("OC", "1")]
    return _profile(name, "Unit", values)


def _limits(low: int, high: int) -> list[dict[str, Any]]:
    return [
        {"type": kind, "value": value, "field": "selections", "scope": "parent", "id": kind}
        for kind, value in (("min", low), ("max", high))
    ]


def _catalogue(entries: list[dict[str, Any]], shared: list[dict[str, Any]]) -> dict[str, Any]:
    links = [
        {"id": f"root-{e['id']}", "name": e["name"], "type": "selectionEntry", "targetId": e["id"]}
        for e in entries
    ]
    body = {
        "id": "cat", "name": "Xenos - Hostile", "gameSystemId": "gs",
        "sharedSelectionEntries": entries + shared, "entryLinks": links,
    }  # fmt: skip
    return {"catalogue": body}


def _unit(models: int, guns: int, ident: str = "u") -> dict[str, Any]:
    """A unit of ``models`` models (at most), each carrying ``guns`` guns."""
    gun = {"id": f"{ident}-gun", "name": "Gun", "type": "upgrade", "profiles": [_gun()]}
    gun["constraints"] = _limits(guns, guns)
    model = {"id": f"{ident}-m", "name": "Trooper", "type": "model", "profiles": [_body("Trooper")]}
    model["selectionEntries"] = [gun]
    model["constraints"] = _limits(1, models)
    return {"id": ident, "name": "Squad", "type": "unit", "selectionEntries": [model]}


def _write_catalogue(folder: Path, catalogue: dict[str, Any]) -> tuple[Path, str | None]:
    (folder / "system.json").write_text(json.dumps(_SYSTEM))
    path = folder / "hostile.json"
    path.write_text(json.dumps(catalogue))
    return path, "Hostile"


def link_graph(levels: int) -> Maker:
    """A unit whose entries link, level after level, to both entries of the next: 2 ** levels
    paths through a catalogue of 2 * levels entries."""

    def make(folder: Path) -> tuple[Path, str | None]:
        shared = []
        for level in range(levels):
            for side in "ab":
                entry: dict[str, Any] = {"id": f"e{level}{side}", "name": f"E{level}{side}"}
                entry["type"] = "upgrade"
                if level + 1 < levels:
                    entry["entryLinks"] = [
                        {"id": f"l{level}{side}{n}", "name": "next", "type": "selectionEntry",
                         "targetId": f"e{level + 1}{n}"}
                        for n in "ab"
                    ]  # fmt: skip
                shared.append(entry)
        unit = _unit(5, 1)
        unit["entryLinks"] = [
            {"id": "top", "name": "top", "type": "selectionEntry", "targetId": "e0a"}
        ]
        return _write_catalogue(folder, _catalogue([unit], shared))

    return make


def link_chain(levels: int) -> Maker:
    """A unit whose one entry links to the next, and that one to the next, ``levels``
    entries deep: a selection tree as deep as its catalogue is long."""

    def make(folder: Path) -> tuple[Path, str | None]:
        shared = []
        for level in range(levels):
            entry: dict[str, Any] = {"id": f"e{level}", "name": f"E{level}", "type": "upgrade"}
            if level + 1 < levels:
                next_one = {"id": f"l{level}", "name": "next", "type": "selectionEntry"}
                entry["entryLinks"] = [{**next_one, "targetId": f"e{level + 1}"}]
            shared.append(entry)
        unit = _unit(5, 1)
        top = {"id": "top", "name": "top", "type": "selectionEntry", "targetId": "e0"}
        unit["entryLinks"] = [top]
        return _write_catalogue(folder, _catalogue([unit], shared))

    return make


def model_count(most: int) -> Maker:
    """A unit of up to ``most`` models."""
    return lambda folder: _write_catalogue(folder, _catalogue([_unit(most, 1)], []))


def wargear_count(copies: int) -> Maker:
    """A unit whose every model carries ``copies`` of its gun."""
    return lambda folder: _write_catalogue(folder, _catalogue([_unit(5, copies)], []))


def amplified_attributes(megabytes: int) -> Maker:
    """An XML catalogue of ``megabytes`` MB made of short attributes (about nine bytes
    each), which a parser turns into far larger objects."""

    def make(folder: Path) -> tuple[Path, str | None]:
        (folder / "system.json").write_text(json.dumps(_SYSTEM))
        names = [a + b for a in "abcdefghijklmnopqrstuvwxyz" for b in "abcdefghij"]
        row = "<selectionEntry " + " ".join(f'{n}="1"' for n in names) + "/>"
        rows = row * (megabytes * 2**20 // len(row))
        path = folder / "hostile.cat"
        path.write_text(
            '<?xml version="1.0"?><catalogue id="cat" name="Xenos - Hostile" gameSystemId="gs">'
            f"<sharedSelectionEntries>{rows}</sharedSelectionEntries></catalogue>"
        )
        return path, "Hostile"

    return make


def roster_json(count: Any) -> Maker:
    """A New Recruit roster whose one model selection has ``count`` as its number (written
    as JSON writes it: ``1e308`` and 5,000-digit numbers as they are)."""

    def make(folder: Path) -> tuple[Path, str | None]:
        text = (DATA / "rosters" / "necrons.json").read_text()
        roster = json.loads(text)
        selection = _first_model(roster["roster"])
        selection["number"] = "COUNT"
        path = folder / "hostile.json"
        path.write_text(json.dumps(roster).replace('"COUNT"', str(count)))
        return path, None

    return make


def _first_model(node: Any) -> dict[str, Any]:
    """The first selection of type ``model`` in a roster tree."""
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if item.get("type") == "model" and "number" in item:
                return item
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(reversed(item))
    raise LookupError("no model selection")


def deep_roster(levels: int) -> Maker:
    """A ``.ros`` of selections nested ``levels`` deep."""

    def make(folder: Path) -> tuple[Path, str | None]:
        opening = '<selection name="x" type="upgrade" number="1"><selections>' * levels
        closing = "</selections></selection>" * levels
        path = folder / "deep.ros"
        path.write_text(
            '<?xml version="1.0"?><roster gameSystemName="Warhammer 40,000 11th Edition">'
            f"<forces><force><selections>{opening}{closing}</selections></force></forces>"
            "</roster>"
        )
        return path, None

    return make


def _zipped(name: str, data: bytes, method: int, flags: int = 0) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(name, data)
    raw = bytearray(out.getvalue())
    # the local header and the central directory both carry the method and the flags
    for at in (0, raw.rfind(b"PK\x01\x02")):
        offset = 8 if at == 0 else 10
        raw[at + offset : at + offset + 2] = method.to_bytes(2, "little")
        flag_at = offset - 2
        raw[at + flag_at : at + flag_at + 2] = flags.to_bytes(2, "little")
    return bytes(raw)


def odd_zip(kind: str) -> Maker:
    """A zipped catalogue whose one member is Deflate64 (method 9), flagged encrypted, or
    corrupt."""

    def make(folder: Path) -> tuple[Path, str | None]:
        (folder / "system.json").write_text(json.dumps(_SYSTEM))
        xml = b'<?xml version="1.0"?><catalogue id="cat" name="Xenos - Hostile" gameSystemId="gs"/>'
        if kind == "deflate64":
            data = _zipped("hostile.cat", xml, 9)
        elif kind == "encrypted":
            data = _zipped("hostile.cat", xml, 8, flags=1)
        else:
            broken = bytearray(_zipped("hostile.cat", xml * 50, 8))
            broken[40:60] = bytes(20)
            data = bytes(broken)
        path = folder / "hostile.catz"
        path.write_bytes(data)
        return path, "Hostile"

    return make


def encoded_roster(encoding: str) -> Maker:
    """A real ``.ros`` re-encoded (UTF-16 with its byte-order mark, or Latin-1 with the
    declaration saying so)."""

    def make(folder: Path) -> tuple[Path, str | None]:
        text = (DATA / "rosters" / "necrons.ros").read_text(encoding="utf-8")
        declared = text.replace('encoding="UTF-8"', f'encoding="{encoding}"', 1)
        path = folder / "encoded.ros"
        path.write_bytes(declared.encode(encoding, errors="replace"))
        return path, None

    return make


def wahapedia_copies(copies: int) -> Maker:
    """The Wahapedia excerpt with one datasheet's loadout naming a piece ``copies`` times."""

    def make(folder: Path) -> tuple[Path, str | None]:
        place = folder / "wahapedia"
        shutil.copytree(DATA / "wahapedia-10e", place)
        sheets = place / "Datasheets.csv"
        text = sheets.read_text(encoding="utf-8-sig")
        marker = "equipped with:</b> "
        at = text.index(marker) + len(marker)
        sheets.write_text(text[:at] + f"{copies} " + text[at:], encoding="utf-8-sig")
        return place, "Orks"

    return make


def long_csv(rows: int) -> Maker:
    """An attackers CSV of ``rows`` weapon lines."""

    def make(folder: Path) -> tuple[Path, str | None]:
        lines = ["unit,weapon,count,A,BS/WS,S,AP,D,abilities"]
        lines += [f"Unit {i % 500},Gun {i},1,2,3+,4,-1,1," for i in range(rows)]
        path = folder / "attackers.csv"
        path.write_text("\n".join(lines) + "\n")
        return path, None

    return make


def big_folder(megabytes: int) -> Maker:
    """A folder of catalogue files of ``megabytes`` MB in all (sparse: nothing is written)."""

    def make(folder: Path) -> tuple[Path, str | None]:
        (folder / "system.json").write_text(json.dumps(_SYSTEM))
        for n in range(4):
            with (folder / f"part{n}.json").open("wb") as handle:
                handle.truncate(megabytes * 2**20 // 4)
        return folder, None

    return make


#: Every case, by name: the reliability run's findings and their neighbours at each limit.
CASES: dict[str, Maker] = {
    "link graph 20 levels": link_graph(20),
    "link graph 26 levels": link_graph(26),
    "link chain 50 levels": link_chain(50),
    "link chain 51 levels": link_chain(51),
    "link chain 5,000 levels": link_chain(5000),
    "5,000,000 models": model_count(5_000_000),
    "999,999,999 models": model_count(999_999_999),
    "10,000,000 guns a model": wargear_count(10_000_000),
    "20 guns a model": wargear_count(20),
    "amplified attributes 30 MB": amplified_attributes(30),
    "amplified attributes 60 MB": amplified_attributes(60),
    "roster count 1e9": roster_json(10**9),
    "roster count 1e308": roster_json("1e308"),
    "roster count '1e15'": roster_json('"1e15"'),
    "roster count of 5,000 digits": roster_json("9" * 5000),
    "roster nested 400": deep_roster(400),
    "roster nested 2,000": deep_roster(2000),
    "roster nested 100,000": deep_roster(100_000),
    "deflate64 catz": odd_zip("deflate64"),
    "encrypted catz": odd_zip("encrypted"),
    "corrupt catz": odd_zip("corrupt"),
    "utf-16 roster": encoded_roster("utf-16"),
    "latin-1 roster": encoded_roster("latin-1"),
    "wahapedia 20,000 copies": wahapedia_copies(20_000),
    "wahapedia 999,999,999 copies": wahapedia_copies(999_999_999),
    "attackers CSV of 20,001 rows": long_csv(20_001),
    "catalogue folder of 200 MB": big_folder(200),
}
