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
    assert 'pip install ".[test]"' in commands[1] and "pytest" in commands[1]
