"""The documentation stands alone: every citation resolves inside the repository.

Comments, docstrings, tests, the READMEs and the guide (docs/guide/) cite the rules as
``docs/rules.md §1.7``, ``docs/rules.md §2.4, D10`` or ``docs/rules.md D23-D27``, and the design
as ``docs/architecture.md §4.3``. Each cited section must be a heading (or an explicit
``<a id>`` anchor) of that file and each cited decision a ``D<n>`` of docs/rules.md §6; a
Markdown link ``docs/x.md#anchor`` must name an anchor GitHub would generate. No file may
cite a document outside the repository (the old rules, design and style notes, or the
numbered rules texts they were written from).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ("rules", "architecture")
#: Where citations live; the docs themselves are checked through the anchors they define.
SCANNED_DIRS = ("mathhammer", "tests", "benchmarks", "notebooks", "docs/guide")
SCANNED_FILES = ("README.md", "CONTRIBUTING.md", "benchmarks/README.md", "notebooks/README.md")
SUFFIXES = (".py", ".md", ".ipynb")

_REF = r"(?:§\d+(?:\.\d+)?|D\d+)"
#: ``docs/rules.md`` followed by a list of references: "§2.4, D10", "§2.1-§2.3", "§1 and §2".
CITATION = re.compile(rf"docs/(?P<doc>{'|'.join(DOCS)})\.md(?P<refs>(?:\s*(?:,|-|and)?\s*{_REF})+)")
TOKEN = re.compile(_REF)
#: A link from the root (``docs/rules.md#…``) or from docs/guide/ (``../rules.md#…``).
LINK = re.compile(rf"\((?:docs/|\.\./)(?P<doc>{'|'.join(DOCS)})\.md#(?P<anchor>[^)\s]+)\)")
# Spelled in pieces so that this file does not cite what it forbids; the outside notes'
# names are upper case, unlike docs/rules.md.
OUTSIDE = re.compile(
    "|".join(
        [
            r"\b(?:RULES|DESIGN|" + r"STYLE)\.md\b",
            r"(?i:\bseeds? \d{3}\b)",
            r"\b" + "shared" + r"/(?:RULES|DESIGN|STYLE)",
        ]
    )
)


def _slug(heading: str) -> str:
    """The anchor GitHub generates for a Markdown heading."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(doc: str) -> tuple[set[str], set[str], set[str]]:
    """The sections (``"1"``, ``"1.7"``), decisions (``"D9"``) and link anchors of a doc."""
    text = (ROOT / "docs" / f"{doc}.md").read_text(encoding="utf-8")
    sections, decisions, links = set(), set(), set()
    for m in re.finditer(r"^#{2,4} (?P<title>.+)$", text, re.MULTILINE):
        title = m["title"]
        links.add(_slug(title))
        if sec := re.match(r"(\d+(?:\.\d+)?)\.?\s", title):
            sections.add(sec[1])
        if dec := re.match(r"(D\d+)\.\s", title):
            decisions.add(dec[1])
    links.update(re.findall(r'<a id="([^"]+)"></a>', text))
    return sections, decisions, links


ANCHORS = {doc: anchors(doc) for doc in DOCS}


def unresolved(doc: str, refs: str) -> list[str]:
    """The references of one citation that name no section or decision of ``doc``."""
    sections, decisions, _ = ANCHORS[doc]
    bad = []
    for token in TOKEN.findall(refs):
        known = decisions if token.startswith("D") else sections
        name = token.lstrip("§")
        # Decisions are numbered in docs/rules.md only.
        if (doc != "rules" and token.startswith("D")) or name not in known:
            bad.append(token)
    return bad


def scanned_files() -> list[Path]:
    files = {ROOT / f for f in SCANNED_FILES if (ROOT / f).exists()}
    for d in SCANNED_DIRS:
        files.update(p for p in (ROOT / d).rglob("*") if p.suffix in SUFFIXES)
    return sorted(p for p in files if p.is_file() and p.name != Path(__file__).name)


FILES = scanned_files()


def _lineno(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


def test_docs_define_the_cited_anchors() -> None:
    sections, decisions, links = ANCHORS["rules"]
    assert {"1", "1.7", "5", "5.5", "6"} <= sections
    assert {f"D{n}" for n in range(1, 28)} <= decisions
    assert {"s1-7", "d9", "6-decisions", "5-the-classic-ruleset"} <= links
    assert {"2", "4.3", "4.6"} <= ANCHORS["architecture"][0]


def test_the_checker_rejects_what_does_not_exist() -> None:
    assert unresolved("rules", " §1.7, D9") == []
    assert unresolved("rules", " §9.9, D99") == ["§9.9", "D99"]
    assert unresolved("architecture", " §4.3, D1") == ["D1"]
    assert OUTSIDE.search("as " + "RULES" + ".md §3 says")
    assert OUTSIDE.search("pooling (" + "seed" + " 002)")
    assert not OUTSIDE.search("mathhammer demo --seed 7")


def test_the_code_cites_the_docs() -> None:
    # Guards the scan itself: if it found nothing, every other check would pass vacuously.
    found = sum(len(CITATION.findall(p.read_text(encoding="utf-8"))) for p in FILES)
    assert found >= 30, f"only {found} citations of docs/ found"


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_citation_resolves(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    problems = []
    for m in CITATION.finditer(text):
        for token in unresolved(m["doc"], m["refs"]):
            problems.append(f"line {_lineno(text, m.start())}: docs/{m['doc']}.md {token}")
    for m in LINK.finditer(text):
        if m["anchor"] not in ANCHORS[m["doc"]][2]:
            problems.append(f"line {_lineno(text, m.start())}: no anchor #{m['anchor']}")
    assert not problems, f"{path.relative_to(ROOT)} cites what docs/ does not define: {problems}"


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_citation_of_outside_documents(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    hits = [f"line {_lineno(text, m.start())}: {m[0]!r}" for m in OUTSIDE.finditer(text)]
    assert not hits, f"{path.relative_to(ROOT)} cites documents outside the repository: {hits}"
