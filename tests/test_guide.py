"""The guide in docs/guide/ runs as written, and its links and the README's lead somewhere.

Every ```python block of a guide page is executed, the blocks of one page in order in one
namespace, as a reader typing them in would; the ```csv examples are read by the CSV readers;
every relative link of README.md and the guide names a file of the repository and, with an
``#anchor``, a heading of that file.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import matplotlib
import matplotlib.pyplot as plt
import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
GUIDE = ROOT / "docs" / "guide"
PAGES = sorted(GUIDE.glob("*.md"))
TOPICS = [p for p in PAGES if p.name != "README.md"]

PYTHON = re.compile(r"```python\n(.*?)```", re.S)
FENCE = re.compile(r"```.*?```", re.S)
CODE_SPAN = re.compile(r"`[^`\n]*`")
LINK = re.compile(r"\]\((?P<target>[^)\s]+)\)")


def python_blocks(path: Path) -> list[str]:
    return PYTHON.findall(path.read_text(encoding="utf-8"))


def _slug(heading: str) -> str:
    """The anchor GitHub generates for a Markdown heading."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def headings(path: Path) -> set[str]:
    """The link anchors of a Markdown file: its headings' slugs and its ``<a id>`` anchors."""
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    found = {_slug(m[1]) for m in re.finditer(r"^#{1,6} (.+)$", text, re.M)}
    return found | set(re.findall(r'<a id="([^"]+)"></a>', text))


def relative_links(path: Path) -> Iterator[str]:
    """The link targets of a Markdown file that are not web addresses, outside code."""
    text = CODE_SPAN.sub("", FENCE.sub("", path.read_text(encoding="utf-8")))
    for m in LINK.finditer(text):
        target = m["target"]
        if not re.match(r"[a-z]+:", target):
            yield target


@pytest.fixture
def in_the_repository(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Run from the repository's root, where the examples' relative paths point, drawing
    off screen and closing every figure afterwards."""
    matplotlib.use("Agg")
    monkeypatch.chdir(ROOT)
    try:
        yield
    finally:
        plt.close("all")


def test_the_guide_has_one_page_per_topic() -> None:
    assert len(TOPICS) >= 10
    for page in TOPICS:
        text = page.read_text(encoding="utf-8")
        assert text.startswith("# "), f"{page.name} has no title"
        intro = text.split("\n\n")[1]
        assert not intro.startswith(("#", "```", "-", "|")), f"{page.name} has no intro"
        assert "## Related pages" in text, f"{page.name} links to no related page"
    index = (GUIDE / "README.md").read_text(encoding="utf-8")
    assert [p.name for p in TOPICS if f"]({p.name})" not in index] == []


def test_the_guide_has_examples() -> None:
    assert sum(len(python_blocks(p)) for p in PAGES) >= 15


@pytest.mark.usefixtures("in_the_repository")
@pytest.mark.parametrize("page", [p for p in PAGES if python_blocks(p)], ids=lambda p: p.name)
def test_the_python_examples_run(page: Path) -> None:
    namespace: dict[str, object] = {}
    for block in python_blocks(page):  # later blocks use names from earlier ones
        exec(compile(block, str(page), "exec"), namespace)


def test_the_csv_examples_read(tmp_path: Path) -> None:
    from mathhammer.io import read_attackers, read_targets

    page = GUIDE / "csv-files.md"
    attackers, targets = re.findall(r"```csv\n(.*?)```", page.read_text(encoding="utf-8"), re.S)
    (tmp_path / "a.csv").write_text(attackers)
    (tmp_path / "t.csv").write_text(targets)
    assert [u.name for u in read_attackers(tmp_path / "a.csv")] == ["Squad", "Flamers"]
    assert [t.unit.name for t in read_targets(tmp_path / "t.csv")] == ["Marines", "Horde"]


@pytest.mark.parametrize("path", [README, *PAGES], ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(path: Path) -> None:
    problems = []
    for target in relative_links(path):
        name, _, anchor = target.partition("#")
        linked = (path.parent / name).resolve() if name else path
        if not linked.exists():
            problems.append(f"{target}: no such file")
        elif anchor and linked.suffix == ".md" and anchor not in headings(linked):
            problems.append(f"{target}: no heading #{anchor}")
    assert not problems, f"{path.relative_to(ROOT)} links to what does not exist: {problems}"


def test_the_link_check_finds_links_and_rejects_broken_ones(tmp_path: Path) -> None:
    assert len(list(relative_links(README))) >= len(TOPICS) + 2
    page = tmp_path / "page.md"
    page.write_text("# A page\n\n[ok](page.md#a-page) `[code](x.md)` [web](https://x.org)\n")
    assert list(relative_links(page)) == ["page.md#a-page"]
    assert headings(page) == {"a-page"}
