"""Reliability of the readers: randomly mutated real input files give a report or one clean
error line, within a time and memory budget.

The seeds are the small real inputs of the repository (the bundled profiles CSVs and
target suite, ``tests/data``'s rosters, BSData catalogues and Wahapedia export, and the
quoted defensive abilities). Hypothesis mutates them as a careless editor, a broken
download or a hostile sender would: bytes, lines, CSV cells, XML attributes and JSON
values deleted, duplicated, swapped or replaced with hostile text, files truncated,
re-encoded, zips broken or given other members. Each mutated file is then read by
``mathhammer report`` and ``datasheets`` (the property of ``test_reliability_cli.py``) and
by every library reader of its kind (a result or a ``MathhammerError``), in capped children.
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

import pytest
from guarded import run_batch
from hostile import (
    JSONABLE,
    LONG,
    MEMORY,
    QUICK,
    TEXT_VALUES,
    check_calls,
    check_runs,
    run_cli,
)
from hypothesis import given
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
    except ValueError:
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


# ------------------------------------------------------------------ the runs
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


#: The library readers of each kind of input (a folder's readers take its folder).
READERS = {
    "attackers": ["read_attackers", "read_army"],
    "targets": ["read_targets", "targets.load"],
    "roster": ["read_roster", "read_army"],
    "catalogue": ["read_catalogue", "read_army"],
    "wahapedia": ["read_wahapedia", "read_army"],
    "defences": ["read_defences"],
}
FACTIONS = {"catalogue": "Necrons", "wahapedia": "Orks"}


def runs(seed: Seed, path: Path) -> tuple[list[list[str]], list[tuple[str, list[str]]]]:
    """The command lines and the library calls that read one mutated file."""
    source = str(path.parent if seed.folder else path)
    output = ["-o", "@new", "--no-progress"]
    readers = [r for r in READERS[seed.kind] if (r, seed.name) != ("read_targets", "suite.json")]
    faction = [FACTIONS[seed.kind]] if seed.kind in FACTIONS else []
    library = [("read_file", [r, source, *faction]) for r in readers]
    if seed.kind == "defences":  # read by the importers, not from a file of its own
        return [], library
    if seed.kind == "targets":
        cli = [["report", "@army", "--targets", source, *output]]
    else:
        faction = ["--faction", *faction] if faction else []
        rules = ["--rules", "classic"] if seed.name == "classic.csv" else []
        cli = [["report", source, "--targets", "@targets", *faction, *rules, *output]]
        if seed.kind != "attackers":
            cli.append(["datasheets", source, *faction])
    return cli, library


def check(recipes: list[Mutated]) -> None:
    with written([made(recipe) for recipe in recipes]) as paths:
        cli: list[list[str]] = []
        library: list[tuple[str, list[str]]] = []
        for seed, path in paths:
            more_cli, more_library = runs(seed, path)
            cli += more_cli
            library += more_library
        check_runs(cli)
        check_calls("library", library)


@QUICK
@given(st.lists(mutated(), min_size=12, max_size=12))
def test_mutated_inputs_give_a_report_or_one_clean_line(files: list[Mutated]) -> None:
    check(files)


@pytest.mark.slow
@LONG
@given(st.lists(mutated(), min_size=20, max_size=20))
def test_mutated_inputs_long(files: list[Mutated]) -> None:
    check(files)


def test_every_seed_unchanged_gives_a_report() -> None:
    """The seeds themselves read cleanly: an error of a mutated file is its mutation's."""
    with written([(seed, seed.data, Path(seed.name).suffix) for seed in SEEDS]) as paths:
        cli = [line for seed, path in paths for line in runs(seed, path)[0]]
        library = [call for seed, path in paths for call in runs(seed, path)[1]]
        failed = [
            (argv, out["stderr"][-300:])
            for argv, out in zip(cli, run_cli(cli), strict=True)
            if out["status"] != 0
        ]
        outcomes = run_batch("library", library, memory=MEMORY, seconds=60, call_seconds=20)
    assert not failed
    assert [out["outcome"] for out in outcomes] == ["ok"] * len(library)


def test_every_reader_is_given_every_kind_of_seed() -> None:
    import mathhammer as mh

    readers = {name for name in (*mh.__all__, *mh.io.__all__) if name.startswith("read_")}
    assert {seed.kind for seed in SEEDS} == set(READERS)
    assert readers <= {reader for kind in READERS.values() for reader in kind}


def _bomb() -> bytes:
    """A .rosz whose one member unpacks to 40 MB of spaces, past the roster cap (32 MiB), and
    packs to 40 kB."""
    out = io.BytesIO()
    with (
        zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive,
        archive.open("bomb.ros", "w") as member,
    ):
        member.write(b"<roster>")
        for _ in range(40):
            member.write(b" " * 2**20)
        member.write(b"</roster>")
    return out.getvalue()


DEEP = 100_000


def hostile_documents() -> dict[str, bytes]:
    """Documents built to exhaust a reader, by name (the suffix tells the reader): nested
    past any recursion limit, packed 1,000 to one, entities that expand a billion times,
    a CSV of 200,000 columns, a cell of 1 MB."""
    return {
        "deep.json": b'{"roster": ' + b"[" * DEEP + b"]" * DEEP + b"}",
        "deep-suite.json": b'{"targets": ' + b"[" * DEEP + b"]" * DEEP + b"}",
        "deep.ros": b"<roster>" + b"<a>" * DEEP + b"</a>" * DEEP + b"</roster>",
        "deep.cat": b"<catalogue>" + b"<a>" * DEEP + b"</a>" * DEEP + b"</catalogue>",
        "laughs.ros": (
            b'<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "aaaaaaaaaa">'
            + b"".join(
                b'<!ENTITY %c "%s">' % (ord("b") + i, (b"&%c;" % (ord("a") + i)) * 10)
                for i in range(8)
            )
            + b"]><roster>&i;</roster>"
        ),
        "bomb.rosz": _bomb(),
        "wide.csv": b"unit,weapon,count,A,BS/WS,S,AP,D,abilities\n" + b"x," * 200_000 + b"\n",
        "long-line.csv": b"unit,weapon,count,A,BS/WS,S,AP,D,abilities\n" + b"u" * 2**20,
    }


def test_documents_built_to_exhaust_a_reader_give_one_clean_line(tmp_path: Path) -> None:
    library = []
    cli = []
    for name, data in hostile_documents().items():
        path = tmp_path / name
        path.write_bytes(data)
        library += [("read_file", [reader, str(path)]) for reader in READERS_OF_ANY]
        cli += [["report", str(path), "-o", "@new"], ["report", "@army", "--targets", str(path)]]
        cli += [["datasheets", str(path)]]
    check_calls("library", library)
    check_runs(cli)


#: The package's readers (read_defences takes abilities, not a file: the test reads those).
READERS_OF_ANY = sorted({r for kind in READERS.values() for r in kind} - {"read_defences"})
