"""``import mathhammer`` stays light: the heavy libraries load only when they are used.

scipy.signal alone once cost ``import mathhammer`` 0.4 s of its 0.6 s; pandas and
matplotlib are needed only for tables and plots. Each check runs in a fresh interpreter,
since this test session has long since imported all of them.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

#: Imported on first use, never by ``import mathhammer``.
HEAVY = ("scipy.signal", "scipy.sparse", "pandas", "matplotlib")


def loaded_after(code: str) -> set[str]:
    """The HEAVY modules present in ``sys.modules`` after running ``code`` in a new process."""
    probe = f"{code}\nimport sys\nprint(' '.join(m for m in {HEAVY!r} if m in sys.modules))"
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout
    return set(out.split())


@pytest.mark.parametrize(
    "code",
    [
        "import mathhammer",
        "from mathhammer.cli import build_parser; build_parser()",
    ],
)
def test_import_loads_no_heavy_library(code: str) -> None:
    assert loaded_after(code) == set()


def test_the_probe_sees_heavy_libraries_once_they_are_used() -> None:
    # The same check after work that needs them, so the empty answers above mean something:
    # a horde of two groups takes sparse matrices (one group has its closed form), a summary
    # pandas, a plot matplotlib.
    code = (
        "import matplotlib\n"
        "matplotlib.use('Agg')\n"
        "import mathhammer as mh\n"
        "horde = mh.Unit('Horde', [mh.ModelGroup(100, 4, 3, 3), mh.ModelGroup(100, 4, 4, 3)])\n"
        "gun = mh.Weapon('Gun', attacks=2, skill=3, strength=4, ap=0, damage=1)\n"
        "res = mh.attack([(gun, 10)], horde)\n"
        "res.summary()\n"
        "res.killed.plot()\n"
    )
    assert loaded_after(code) == {"scipy.sparse", "pandas", "matplotlib"}
