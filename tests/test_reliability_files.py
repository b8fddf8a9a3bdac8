"""Reliability of the readers: randomly mutated real input files give a report or one clean
error line, within a time and memory budget.

Hypothesis mutates the repository's small real inputs (:mod:`mutations`); each mutated file
is then read by ``mathhammer report`` and ``datasheets`` (the property of
:func:`hostile.problems`) and by every library reader of its kind (a result or a
``MathhammerError``), in capped children. Documents built to exhaust a reader (nested past
any recursion limit, zip and entity bombs, enormous rows) are read the same way.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest
from guarded import run_batch
from hostile import LONG, MEMORY, QUICK, check_calls, check_runs, run_cli
from hypothesis import given
from hypothesis import strategies as st
from mutations import SEEDS, Mutated, Seed, made, mutated, written

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
