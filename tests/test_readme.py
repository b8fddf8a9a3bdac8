"""The README, a landing page: its setup commands, its code examples run as written, its
length, and the facts a new user asked of it. The guide's pages are tested in test_guide.py."""

from __future__ import annotations

import re
from pathlib import Path

import matplotlib
import matplotlib.pyplot as plt

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_python_blocks_run() -> None:
    matplotlib.use("Agg")  # an example may draw a plot
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)
    assert len(blocks) >= 3
    namespace: dict[str, object] = {}
    try:
        for block in blocks:  # later blocks use names from earlier ones, as a reader would
            exec(compile(block, str(README), "exec"), namespace)
    finally:
        plt.close("all")


def test_readme_opens_with_the_two_setup_commands() -> None:
    commands = re.findall(r"```bash\n(.*?)```", README.read_text(), re.S)[:2]
    assert "pip install ." in commands[0] and "mathhammer" in commands[0]
    assert 'pip install ".[test,dask]"' in commands[1] and "pytest" in commands[1]
    # CI installs exactly what the README tells a new user to: the same command, with only
    # options that change what pip prints and whether it precompiles bytecode, not what it installs
    ci = (README.parent / ".ci" / "run").read_text()
    installs = re.findall(r"^pip install ((?:--[a-z-]+ )*)\"\.\[test,dask\]\"", ci, re.M)
    assert len(installs) == 1, installs
    assert set(installs[0].split()) <= {"--quiet", "--no-compile"}, installs[0]


def test_readme_is_a_landing_page() -> None:
    """At most 250 lines, leading to every page of the guide and to the two docs."""
    text = README.read_text()
    assert len(text.splitlines()) <= 250
    guide = sorted((README.parent / "docs" / "guide").glob("*.md"))
    assert len(guide) >= 10
    for target in [
        *(f"docs/guide/{p.name}" for p in guide),
        "docs/rules.md",
        "docs/architecture.md",
    ]:
        assert f"]({target})" in text, f"the README does not link to {target}"


def test_a_new_user_learns_the_test_runs_time_skips_data_and_notebooks() -> None:
    """What a new user asked of the README: how long the tests take and why some skip,
    where the real data comes from, and how to open the notebooks."""
    import tomllib

    text = " ".join(README.read_text().split())
    assert "The default run of 17,000 tests took 8:54 on a busy 2-core machine" in text
    assert "python -m pytest -n 2" in text  # the same across both cores
    assert "`python -m pytest -rs` lists each test skipped" in text
    assert "github.com/BSData/wh40k-11e" in text and "Wahapedia publishes" in text
    assert 'pip install ".[notebooks]" && jupyter lab notebooks/' in text
    project = tomllib.loads((README.parent / "pyproject.toml").read_text())["project"]
    assert any(d.startswith("jupyterlab") for d in project["optional-dependencies"]["notebooks"])
