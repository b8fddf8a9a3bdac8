"""The README's code examples run as written."""

from __future__ import annotations

import re
from pathlib import Path

import matplotlib
import matplotlib.pyplot as plt

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_python_blocks_run() -> None:
    matplotlib.use("Agg")  # the Jupyter section draws plots
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
    # CI installs exactly what the README tells a new user to
    assert 'pip install --quiet ".[test,dask]"' in (README.parent / ".ci" / "run").read_text()


def test_readme_csv_examples_read(tmp_path: Path) -> None:
    from mathhammer.io import read_attackers, read_targets

    attackers, targets = re.findall(r"```csv\n(.*?)```", README.read_text(), re.S)
    (tmp_path / "a.csv").write_text(attackers)
    (tmp_path / "t.csv").write_text(targets)
    assert [u.name for u in read_attackers(tmp_path / "a.csv")] == ["Squad", "Flamers"]
    assert [t.unit.name for t in read_targets(tmp_path / "t.csv")] == ["Marines", "Horde"]


def test_a_new_user_learns_the_test_runs_time_skips_data_and_notebooks() -> None:
    """What a new user asked of the README: how long the tests take and why some skip,
    where the real data comes from, and how to open the notebooks."""
    import tomllib

    text = " ".join(README.read_text().split())
    assert "The default run takes about 4 minutes on 2 cores" in text
    assert "`python -m pytest -rs` lists each test skipped" in text
    assert "github.com/BSData/wh40k-11e" in text and "Wahapedia publishes" in text
    assert 'pip install ".[notebooks]" && jupyter lab notebooks/' in text
    project = tomllib.loads((README.parent / "pyproject.toml").read_text())["project"]
    assert any(d.startswith("jupyterlab") for d in project["optional-dependencies"]["notebooks"])
