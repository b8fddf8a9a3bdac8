"""Mutations of the repository's real inputs, for the reliability suite.

The seeds (:data:`SEEDS`) are the small real inputs: the bundled profiles CSVs and target
suite, ``tests/data``'s rosters, BSData catalogues, Wahapedia export and quoted defensive
abilities. :func:`mutated` draws a recipe of changes to one of them, as a careless editor,
a broken download or a hostile sender would make them: bytes, lines, CSV cells, XML
attributes and JSON values deleted, repeated, swapped or replaced with hostile text,
truncations, re-encodings, broken, doubled and renamed zip members. A recipe is short and
printable (a failing example reads as what was done); :func:`made` applies it, and
:func:`written` puts the results on disk, a file of a folder of inputs in a copy of its
folder.
"""

from __future__ import annotations

import io
import json
import re
import shutil
import tempfile
import zipfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hostile import JSONABLE, TEXT_VALUES
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
TARGETS_CSV = (
    "unit,group,models,T,Sv,InSv,W,FNP,keywords,CHARACTER,Ld,points\n"
    "Guard,,10,3,5+,,1,,INFANTRY,no,7,60\n"
    "Command,Troops,4,3,5+,,1,,INFANTRY,no,7,40\n"
    "Command,Captain,1,4,3+,4+,5,6+,INFANTRY,yes,7,70\n"
    "Tank,,1,11,2+,,13,,VEHICLE,no,7,180\n"
)


@dataclass(frozen=True)
class Seed:
    """A real input: its name, its bytes and how it is read."""

    name: str
    data: bytes
    kind: str  # attackers, targets, roster, catalogue, wahapedia
    folder: str = ""  # for a file of a folder of inputs: the folder it is copied with


def _seeds() -> list[Seed]:
    package = ROOT / "mathhammer" / "data"
    seeds = [
        Seed("attackers.csv", (package / "example_attackers.csv").read_bytes(), "attackers"),
        Seed("classic.csv", (package / "example_attackers_classic.csv").read_bytes(), "attackers"),
        Seed("targets.csv", TARGETS_CSV.encode(), "targets"),
        Seed("suite.json", (package / "targets.json").read_bytes(), "targets"),
    ]
    for path in sorted((DATA / "rosters").glob("*.[rj]*")):
        if path.suffix in (".ros", ".rosz", ".json"):
            seeds.append(Seed(path.name, path.read_bytes(), "roster"))
    defences = DATA / "defences" / "abilities.json"
    seeds.append(Seed(defences.name, defences.read_bytes(), "defences"))
    for kind, folder in (("catalogue", "bsdata"), ("wahapedia", "wahapedia-10e")):
        for path in sorted((DATA / folder).iterdir()):
            if path.suffix in (".json", ".csv"):
                seeds.append(Seed(path.name, path.read_bytes(), kind, folder))
    return seeds


SEEDS = _seeds()


# ------------------------------------------------------------------ mutations
def _at(data: bytes | list[Any], where: float) -> int:
    return min(int(where * len(data)), max(len(data) - 1, 0))


def _lines(data: bytes, change: Callable[[list[bytes]], list[bytes]]) -> bytes:
    return b"".join(change(data.splitlines(keepends=True)))


def _cells(data: bytes, where: float, cell: float, text: str) -> bytes:
    """A CSV cell (comma- or pipe-separated) replaced by ``text``."""

    def change(lines: list[bytes]) -> list[bytes]:
        if lines:
            i = _at(lines, where)
            sep = b"|" if lines[i].count(b"|") > lines[i].count(b",") else b","
            cells = lines[i].split(sep)
            cells[_at(cells, cell)] = text.encode("utf-8", "surrogatepass")
            lines[i] = sep.join(cells)
        return lines

    return _lines(data, change)


def _attribute(data: bytes, where: float, text: str) -> bytes:
    """An XML attribute's value (``="..."``) replaced by ``text``, escaped or not."""
    starts = [m.start() for m in re.finditer(b'="', data)]
    if not starts:
        return data
    start = starts[_at(starts, where)] + 2
    end = data.find(b'"', start)
    return data[:start] + text.encode() + data[end if end >= 0 else start :]


def _json_value(data: bytes, path: list[float], value: Any) -> bytes:
    """A value somewhere in a JSON document replaced (None: the key or item deleted)."""
    try:
        document = json.loads(data.decode("utf-8-sig"))
    except (ValueError, RecursionError):  # a mutation may nest past the parser's depth
        return data
    node = document
    for depth, step in enumerate(path):
        if not isinstance(node, dict | list) or not node:
            break
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        key = keys[_at(keys, step)]
        if isinstance(node[key], dict | list) and depth < len(path) - 1:
            node = node[key]
            continue
        if value is None:
            del node[key]
        else:
            node[key] = value
        break
    return json.dumps(document).encode()


def _rezip(data: bytes, change: Callable[[str, bytes], list[tuple[str, bytes]]]) -> bytes:
    """A zip's members changed (each ``(name, bytes)`` becomes a list of members)."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            members = [(i.filename, archive.read(i)) for i in archive.infolist()]
    except Exception:  # a zip broken by an earlier change: zlib's, zipfile's, EOF ...
        return data
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, body in members:
            for new_name, new_body in change(name, body):
                archive.writestr(new_name, new_body)
    return out.getvalue()


POSITION = st.floats(0, 1, exclude_max=True)
TEXT = st.one_of(st.sampled_from(TEXT_VALUES), st.text(max_size=30))
BYTES = st.one_of(TEXT.map(lambda t: t.encode("utf-8", "surrogatepass")), st.binary(max_size=40))
ENCODINGS = st.sampled_from(["utf-16", "utf-16-be", "latin-1", "cp1252", "utf-8-sig", "crlf"])


def _reencode(data: bytes, encoding: str) -> bytes:
    text = data.decode("utf-8", "replace")
    if encoding == "crlf":
        return text.replace("\n", "\r\n").encode()
    return text.encode(encoding, "replace")


#: A change to a file's bytes: its name, then its arguments (see :func:`apply`).
Mutation = tuple[Any, ...]


@st.composite
def mutation(draw: st.DrawFn, depth: int = 0) -> Mutation:
    """One change to a file's bytes, drawn as a short, printable recipe."""
    kinds = ["delete", "repeat", "insert", "truncate", "byte", "swap lines", "line times"]
    kinds += ["cell", "attribute", "json", "encoding", "end twice"]
    kind = draw(st.sampled_from(kinds + (["zip member"] if depth == 0 else [])))
    a, b = draw(POSITION), draw(POSITION)
    extra: dict[str, st.SearchStrategy[Any]] = {
        "insert": BYTES,
        "byte": st.integers(0, 255),
        "line times": st.sampled_from([0, 2, 50]),
        "cell": TEXT,
        "attribute": TEXT,
        "json": st.tuples(st.lists(POSITION, min_size=1, max_size=6), JSONABLE),
        "encoding": ENCODINGS,
        "zip member": st.tuples(st.integers(0, 2), mutation(depth + 1)),
    }
    return (kind, a, b, draw(extra[kind])) if kind in extra else (kind, a, b)


def apply(change: Mutation, d: bytes) -> bytes:
    """The bytes ``d`` changed as the recipe says."""
    kind, a, b, *more = change
    low, high = _at(d, min(a, b)), _at(d, max(a, b))
    if kind in ("delete", "repeat"):
        return d[:low] + d[high:] if kind == "delete" else d[:high] + d[low:]
    if kind in ("insert", "byte"):
        payload = more[0] if kind == "insert" else bytes([more[0]])
        return d[:low] + payload + d[low + (kind == "byte") :]
    if kind == "truncate":
        return d[:low]
    if kind == "swap lines":
        return _lines(d, lambda ls: _swapped(ls, _at(ls, a), _at(ls, b)))
    if kind == "line times":
        return _lines(d, lambda ls: _repeated(ls, _at(ls, a), more[0]))
    if kind == "cell":
        return _cells(d, a, b, more[0])
    if kind == "attribute":
        return _attribute(d, a, more[0])
    if kind == "json":
        return _json_value(d, *more[0])
    if kind == "encoding":
        return _reencode(d, more[0])
    if kind == "zip member":
        how, inner = more[0]
        return _rezip(d, lambda name, body: _member(name, body, inner, how))
    return d[:low] + d[low:] * 2  # the end twice


def _swapped(lines: list[bytes], i: int, j: int) -> list[bytes]:
    if lines:
        lines[i], lines[j] = lines[j], lines[i]
    return lines


def _repeated(lines: list[bytes], i: int, times: int) -> list[bytes]:
    return lines[:i] + lines[i : i + 1] * times + lines[i + 1 :] if lines else lines


def _member(name: str, body: bytes, inner: Mutation, how: int) -> list[tuple[str, bytes]]:
    """A zip's member mutated; or kept, with a mutated copy beside it; or renamed."""
    if how == 0:
        return [(name, apply(inner, body))]
    if how == 1:
        return [(name, body), ("second.ros", apply(inner, body))]
    return [(name + ".txt", body)]


#: A mutated input: the seed's name, the changes made to it and the suffix of its name.
Mutated = tuple[str, list[Mutation], str]
BY_NAME = {seed.name: seed for seed in SEEDS}


@st.composite
def mutated(draw: st.DrawFn) -> Mutated:
    """A seed, the changes to make to it and the suffix the mutated file is given (now and
    then not its own: what the content is must then be told)."""
    seed = draw(st.sampled_from(SEEDS))
    changes = draw(st.lists(mutation(), min_size=1, max_size=3))
    suffix = Path(seed.name).suffix
    if draw(st.integers(0, 9)) == 0:
        suffix = draw(st.sampled_from([".csv", ".json", ".ros", ".rosz", ".txt", ""]))
    return seed.name, changes, suffix


def made(recipe: Mutated) -> tuple[Seed, bytes, str]:
    name, changes, suffix = recipe
    seed = BY_NAME[name]
    data = seed.data
    for change in changes:
        data = apply(change, data)
    return seed, data, suffix


# ------------------------------------------------------------------ on disk
@contextmanager
def written(files: list[tuple[Seed, bytes, str]]) -> Iterator[list[tuple[Seed, Path]]]:
    """The mutated files on disk; a file of a folder of inputs, in a copy of its folder."""
    root = Path(tempfile.mkdtemp(prefix="mathhammer-mutated-"))
    try:
        out = []
        for n, (seed, data, suffix) in enumerate(files):
            place = root / str(n)
            if seed.folder:
                shutil.copytree(DATA / seed.folder, place)
                (place / seed.name).unlink()
            else:
                place.mkdir()
            path = place / (Path(seed.name).stem + suffix)
            path.write_bytes(data)
            out.append((seed, path))
        yield out
    finally:
        shutil.rmtree(root, ignore_errors=True)
