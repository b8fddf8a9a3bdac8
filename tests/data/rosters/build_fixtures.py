"""Build the roster fixtures from the real BSData 11th-edition catalogues (run once).

No real roster file is committed, so these are built the way a list builder writes one:
each unit, model and piece of wargear taken is a ``selection`` of its catalogue entry
(``type``, ``number``, an ``entryId`` that is the path of link and entry ids, an
``entryGroupId`` when chosen from a group), carrying copies of the entry's profiles, its
rules (the rules its ``infoLinks`` point at), its categories (``categoryLinks``) and its
``pts`` cost times the number taken. Every list is written in the three forms a user
has: BattleScribe's ``.ros`` (XML in the roster schema's namespace), ``.rosz`` (a zip
holding the one ``.ros``) and New Recruit's JSON of the same tree.

    python tests/data/rosters/build_fixtures.py [path/to/bsdata-11e]

The outputs are committed; ids are drawn from a seeded generator, so a rerun on the same
catalogues writes the same files.
"""

from __future__ import annotations

import json
import random
import sys
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET  # writing only: nothing untrusted is parsed here

HERE = Path(__file__).resolve().parent
DATA = HERE.parents[2].parent / "shared" / "data" / "bsdata-11e"
NAMESPACE = "http://www.battlescribe.net/schema/rosterSchema"
#: The singular element of each list element of the roster schema.
ITEMS = {
    "costs": "cost",
    "costLimits": "costLimit",
    "forces": "force",
    "selections": "selection",
    "profiles": "profile",
    "characteristics": "characteristic",
    "rules": "rule",
    "categories": "category",
}
#: Child elements in the order of the roster schema (RosterElementBase, then the rest).
ORDER = (
    "characteristics",
    "rules",
    "profiles",
    "selections",
    "costs",
    "costLimits",
    "forces",
    "categories",
)
#: Keys New Recruit writes that the roster schema's XML does not have.
JSON_ONLY = ("from", "group", "xmlns")

Node = dict[str, Any]


@dataclass(frozen=True)
class Pick:
    """An entry taken: its name, how many, and what is taken below it."""

    name: str
    number: int = 1
    picks: tuple[Pick, ...] = ()


NECRONS = (
    Pick("Detachment", 1, (Pick("Awakened Dynasty"),)),
    Pick(
        "Overlord",
        1,
        (
            Pick(
                "Overlord's blade and tachyon arrow",
                1,
                (Pick("Overlord's blade"), Pick("Tachyon arrow")),
            ),
            Pick("Resurrection orb"),
        ),
    ),
    Pick(
        "Necron Warriors",
        1,
        (
            Pick(
                "Warrior w/ gauss flayer",
                10,
                (Pick("Gauss flayer", 10), Pick("Close combat weapon", 10)),
            ),
        ),
    ),
    Pick("Royal Warden", 1, (Pick("Close combat weapon"), Pick("Relic gauss blaster"))),
    Pick(
        "Immortals",
        1,
        (Pick("Immortal", 5, (Pick("Close combat weapon", 5), Pick("Gauss blaster", 5))),),
    ),
    Pick(
        "Canoptek Wraiths",
        1,
        (
            Pick(
                "Wraith w/ claws and beamer",
                1,
                (Pick("Vicious claws"), Pick("Transdimensional beamer")),
            ),
            Pick(
                "Wraith w/ claws and particle caster",
                1,
                (Pick("Vicious claws"), Pick("Particle caster")),
            ),
            Pick("Wraith w/ coils", 1, (Pick("Whip coils"),)),
        ),
    ),
    Pick(
        "Doomsday Ark",
        1,
        (Pick("Doomsday cannon"), Pick("Gauss flayer array", 2), Pick("Armoured bulk")),
    ),
)

ORKS = (
    Pick("Detachment", 1, (Pick("War Horde"),)),
    Pick(
        "Warboss",
        1,
        (Pick("Twin slugga"), Pick("Attack squig"), Pick("Power klaw"), Pick("Kombi-weapon")),
    ),
    Pick(
        "Boyz",
        1,
        (
            Pick("Boy w/ Slugga and choppa", 9, (Pick("Choppa", 9), Pick("Slugga", 9))),
            Pick(
                "Boss Nob",
                1,
                (Pick("Power klaw and slugga", 1, (Pick("Slugga"), Pick("Power klaw"))),),
            ),
        ),
    ),
    Pick(
        "Burna Boyz",
        1,
        (
            Pick(
                "1 Spanner and 4 Burna Boyz",
                1,
                (
                    Pick("Burna Boy", 4, (Pick("Cuttin' flames", 4), Pick("Burna", 4))),
                    Pick("Spanner", 1, (Pick("Close combat weapon"), Pick("Kustom mega-blasta"))),
                ),
            ),
        ),
    ),
    Pick(
        "Mek Gunz",
        1,
        (Pick("Mek Gun w/ Bubblechukka", 1, (Pick("Bubblechukka"), Pick("Grot crew"))),),
    ),
    Pick(
        "Battlewagon",
        1,
        (Pick("'Ard Case"), Pick("Zzap gun"), Pick("Deff rolla"), Pick("Big shoota", 2)),
    ),
)

#: (file stem, roster name, faction catalogue, points limit, picks, forms written)
ARMIES = (
    (
        "necrons",
        "Awakened Dynasty patrol",
        "Necrons.json",
        1000,
        NECRONS,
        (".json", ".ros", ".rosz"),
    ),
    ("orks", "Waaagh! patrol", "Orks.json", 1000, ORKS, (".rosz",)),
)


def _key(name: str) -> str:
    return " ".join(name.replace("\u2019", "'").split()).casefold()


class Catalogues:
    """The game system, one faction and the libraries it links, indexed by id."""

    def __init__(self, folder: Path, faction: str) -> None:
        self.system = json.loads((folder / "Warhammer 40,000.json").read_text())["gameSystem"]
        self.faction = json.loads((folder / faction).read_text())["catalogue"]
        files = [self.faction]
        for link in self.faction.get("catalogueLinks", []):
            files.append(json.loads((folder / f"{link['name']}.json").read_text())["catalogue"])
        self.ids: dict[str, Node] = {}
        for catalogue in [*files, self.system]:  # the faction's own ids first
            self._index(catalogue)
        self.pts = next(c["id"] for c in self.system["costTypes"] if c["name"] == "pts")
        self.rng = random.Random(f"{faction}-roster")

    def _index(self, node: Any) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("id"), str) and "targetId" not in node:
                self.ids.setdefault(node["id"], node)
            for value in node.values():
                self._index(value)
        elif isinstance(node, list):
            for value in node:
                self._index(value)

    def new_id(self) -> str:
        return "-".join(f"{self.rng.getrandbits(16):04x}" for _ in range(4))

    def root(self, name: str) -> tuple[Node, str]:
        """An entry the faction's roster may take, and its entry id prefix (its link)."""
        for link in self.faction.get("entryLinks", []):
            if _key(link["name"]) == _key(name):
                return self.ids[link["targetId"]], link["id"]
        raise KeyError(f"no root entry {name!r}")

    def children(self, entry: Node, prefix: str) -> Iterator[tuple[Node, str, Node | None]]:
        """Every entry selectable below ``entry``: (entry, its id prefix, its group)."""
        yield from self._children(entry, prefix, None)

    def _children(
        self, entry: Node, prefix: str, group: Node | None
    ) -> Iterator[tuple[Node, str, Node | None]]:
        for child in entry.get("selectionEntries", []):
            yield child, prefix, group
        for sub in entry.get("selectionEntryGroups", []):
            yield from self._children(sub, prefix, sub)
        for link in entry.get("entryLinks", []):
            target = self.ids.get(link["targetId"])
            if target is None:
                continue
            path = f"{prefix}::{link['id']}"
            if link.get("type") == "selectionEntryGroup":
                yield from self._children(target, path, target)
            else:
                yield {**target, "name": link.get("name", target["name"])}, path, group

    def select(self, entry: Node, prefix: str, pick: Pick, group: Node | None = None) -> Node:
        """The roster selection of ``pick`` taken from ``entry``, with its copies."""
        cost = sum(c["value"] for c in entry.get("costs", []) if c["typeId"] == self.pts)
        node: Node = {
            "id": self.new_id(),
            "name": entry["name"],
            "entryId": f"{prefix}::{entry['id']}",
        }
        if group is not None:
            node["entryGroupId"] = f"{prefix}::{group['id']}"
        node |= {
            "number": pick.number,
            "type": entry["type"],
            "from": "group" if group else "entry",
        }
        if group is not None:
            node["group"] = group["name"]
        rules, profiles = self._infos(entry, node["entryId"])
        if rules:
            node["rules"] = rules
        if profiles:
            node["profiles"] = profiles
        selections = [self._pick(entry, node["entryId"], p) for p in pick.picks]
        if selections:
            node["selections"] = selections
        node["costs"] = [{"name": "pts", "typeId": self.pts, "value": cost * pick.number}]
        categories = [
            {
                "id": self.new_id(),
                "name": c["name"],
                "entryId": c["targetId"],
                "primary": c["primary"],
            }
            for c in entry.get("categoryLinks", [])
        ]
        if categories:
            node["categories"] = categories
        return node

    def _pick(self, entry: Node, prefix: str, pick: Pick) -> Node:
        for child, path, group in self.children(entry, prefix):
            if _key(child["name"]) == _key(pick.name):
                return self.select(child, path, pick, group)
        raise KeyError(f"no entry {pick.name!r} below {entry['name']!r}")

    def _infos(self, entry: Node, prefix: str) -> tuple[list[Node], list[Node]]:
        rules = [self._rule(r, prefix) for r in entry.get("rules", []) if not r.get("hidden")]
        profiles = [
            self._profile(p, prefix) for p in entry.get("profiles", []) if not p.get("hidden")
        ]
        for link in entry.get("infoLinks", []):
            target = self.ids.get(link["targetId"])
            if link.get("hidden") or target is None:
                continue
            if link["type"] == "rule":
                rules.append(self._rule(target, prefix))
            elif link["type"] == "profile":
                profiles.append(self._profile(target, prefix))
        return rules, profiles

    @staticmethod
    def _rule(rule: Node, prefix: str) -> Node:
        return {"id": f"{prefix}::{rule['id']}", "name": rule["name"], "hidden": False,
                "description": rule.get("description", "")}  # fmt: skip

    @staticmethod
    def _profile(profile: Node, prefix: str) -> Node:
        characteristics = [
            {"name": c["name"], "typeId": c["typeId"], "$text": c.get("$text", "")}
            for c in profile.get("characteristics", [])
        ]
        return {"id": f"{prefix}::{profile['id']}", "name": profile["name"], "hidden": False,
                "typeId": profile["typeId"], "typeName": profile["typeName"],
                "characteristics": characteristics}  # fmt: skip


def build(folder: Path, name: str, faction: str, limit: int, picks: tuple[Pick, ...]) -> Node:
    """A roster of ``picks`` from ``faction``, in New Recruit's JSON form."""
    books = Catalogues(folder, faction)
    selections = []
    for pick in picks:
        entry, link = books.root(pick.name)
        selections.append(books.select(entry, link, pick))
    total = sum(_points(s, books.pts) for s in selections)
    categories: dict[str, Node] = {}
    for selection in selections:
        for category in selection.get("categories", []):
            categories.setdefault(category["entryId"], {**category, "primary": False})
    force = next(f for f in books.system["forceEntries"] if f["name"] == "Army Roster")
    cost = {"name": "pts", "typeId": books.pts}
    roster = {
        "id": books.new_id(),
        "name": name,
        "battleScribeVersion": "2.03",
        "gameSystemId": books.system["id"],
        "gameSystemName": books.system["name"],
        "gameSystemRevision": books.system["revision"],
        "xmlns": NAMESPACE,
        "costs": [{**cost, "value": total}],
        "costLimits": [{**cost, "value": limit}],
        "forces": [
            {
                "id": books.new_id(),
                "name": force["name"],
                "entryId": force["id"],
                "catalogueId": books.faction["id"],
                "catalogueRevision": books.faction["revision"],
                "catalogueName": books.faction["name"],
                "selections": selections,
                "categories": [{**c, "id": books.new_id()} for c in categories.values()],
            }
        ],
    }
    return {"roster": roster}


def _points(selection: Node, pts: str) -> int:
    own = sum(c["value"] for c in selection.get("costs", []) if c["typeId"] == pts)
    return int(own) + sum(_points(s, pts) for s in selection.get("selections", []))


def to_xml(tree: Node) -> bytes:
    """The roster in BattleScribe's XML form."""
    ET.register_namespace("", NAMESPACE)
    root = _element("roster", tree["roster"])
    ET.indent(root)
    body = ET.tostring(root, encoding="unicode")
    return ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' + body + "\n").encode()


def _element(tag: str, node: Node) -> ET.Element:
    element = ET.Element(f"{{{NAMESPACE}}}{tag}")
    for key, value in node.items():
        if key in JSON_ONLY or isinstance(value, list) or key in ("$text", "description"):
            continue
        element.set(key, _attribute(key, value))
    if "$text" in node:
        element.text = node["$text"]
    if "description" in node:
        ET.SubElement(element, f"{{{NAMESPACE}}}description").text = node["description"]
    for key in ORDER:
        if key in node:
            holder = ET.SubElement(element, f"{{{NAMESPACE}}}{key}")
            holder.extend(_element(ITEMS[key], item) for item in node[key])
    return element


def _attribute(key: str, value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if key == "value":  # BattleScribe writes costs as decimals
        return f"{float(value):.1f}"
    return str(value)


def write(stem: str, tree: Node, forms: tuple[str, ...]) -> list[Path]:
    """The roster in each of ``forms`` (".json", ".ros", ".rosz"), beside this script."""
    xml = to_xml(tree)
    paths = [HERE / f"{stem}{form}" for form in forms]
    for path in paths:
        if path.suffix == ".json":  # New Recruit writes its JSON on one line
            text = json.dumps(tree, ensure_ascii=False, separators=(",", ":"))
            path.write_text(text + "\n", encoding="utf-8")
        elif path.suffix == ".ros":
            path.write_bytes(xml)
        else:
            with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
                info = zipfile.ZipInfo(f"{stem}.ros", date_time=(2026, 7, 22, 0, 0, 0))
                info.compress_type = zipfile.ZIP_DEFLATED
                archive.writestr(info, xml)
    return paths


def main(argv: list[str]) -> int:
    folder = Path(argv[1]) if len(argv) > 1 else DATA
    for stem, name, faction, limit, picks, forms in ARMIES:
        tree = build(folder, name, faction, limit, picks)
        for path in write(stem, tree, forms):
            print(f"{path.relative_to(HERE)}: {path.stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
