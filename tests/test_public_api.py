"""The public API line: ``dir(mathhammer)`` is its ``__all__``, and every name in it is
there (the readers loaded on first use, not by listing them)."""

from __future__ import annotations

import subprocess
import sys

import mathhammer as mh


def test_dir_is_all() -> None:
    assert dir(mh) == sorted(mh.__all__)
    assert len(mh.__all__) == len(set(mh.__all__))
    assert not [n for n in dir(mh) if n.startswith("_") and n != "__version__"]
    for subpackage in ("core", "exact", "montecarlo", "model", "rules", "results", "units"):
        assert subpackage not in dir(mh)  # reached through the names above, not listed


def test_every_public_name_resolves() -> None:
    for name in mh.__all__:
        assert getattr(mh, name) is not None, name
    assert mh.io.read_roster is mh.read_roster


def test_listing_the_names_loads_no_reader() -> None:
    """dir() lists the lazy readers without importing them (defusedxml comes with them)."""
    code = "import sys, mathhammer; dir(mathhammer); print('defusedxml' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
