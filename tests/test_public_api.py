"""The public API line: what a user may import, from where, and nothing twice.

A handful of modules are public (:data:`PUBLIC_MODULES`). Each lists its public names in
``__all__``, and ``dir()`` of each shows exactly those; every object (a class, function or
module) appears in one public ``__all__`` only, so it has one documented place; every other
package says in its docstring's first word that it is internal, and the guide points only at
public names. numpy keeps the same line with its ``test_public_api.py``.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
import subprocess
import sys
import types
from collections import defaultdict
from collections.abc import Callable
from dataclasses import fields, is_dataclass
from pathlib import Path

import pytest

import mathhammer

#: The documented namespaces; everything else in the package is internal.
PUBLIC_MODULES = (
    "mathhammer",
    "mathhammer.abilities",
    "mathhammer.cli",
    "mathhammer.io",
    "mathhammer.io.rules_text",
    "mathhammer.rules",
    "mathhammer.targets",
)

ROOT = Path(__file__).resolve().parents[1]


def _all_modules() -> list[pkgutil.ModuleInfo]:
    """Every module and package below :mod:`mathhammer`."""
    return list(pkgutil.walk_packages(mathhammer.__path__, "mathhammer."))


def _is_object(value: object) -> bool:
    """A class, function or module: a thing with an identity worth one place (constants
    such as small integers share identities by accident and are not counted)."""
    return inspect.isclass(value) or inspect.isroutine(value) or isinstance(value, types.ModuleType)


@pytest.mark.parametrize("name", PUBLIC_MODULES)
def test_dir_is_all(name: str) -> None:
    module = importlib.import_module(name)
    names = module.__all__
    assert len(names) == len(set(names)), f"{name}.__all__ lists a name twice"
    assert dir(module) == sorted(names)
    for public in names:
        assert getattr(module, public) is not None


def test_internal_packages_are_not_listed() -> None:
    for internal in ("core", "exact", "montecarlo", "model", "results", "units", "views"):
        assert internal not in dir(mathhammer)  # reached through the names above
    assert not [n for n in dir(mathhammer) if n.startswith("_") and n != "__version__"]


@pytest.mark.system
def test_listing_the_names_loads_no_reader() -> None:
    """dir() lists the lazy readers without importing them (defusedxml comes with them)."""
    code = "import sys, mathhammer; dir(mathhammer); print('defusedxml' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
    assert mathhammer.read_roster is importlib.import_module("mathhammer.io.roster").read_roster


def test_every_object_has_one_public_place() -> None:
    places: dict[int, list[str]] = defaultdict(list)
    for name in PUBLIC_MODULES:
        module = importlib.import_module(name)
        for public in module.__all__:
            value = getattr(module, public)
            if _is_object(value):
                places[id(value)].append(f"{name}.{public}")
    twice = sorted(where for where in places.values() if len(where) > 1)
    assert not twice, "\n".join(map(str, twice))


def test_public_modules_are_reached_from_the_top() -> None:
    """Each public module other than the top is a name of the top-level ``__all__`` (the
    command line is reached as the ``mathhammer`` command instead)."""
    for name in PUBLIC_MODULES[1:]:
        if name == "mathhammer.cli":
            continue
        parent, _, last = name.rpartition(".")
        assert last in importlib.import_module(parent).__all__, name


def test_other_packages_say_they_are_internal() -> None:
    public = set(PUBLIC_MODULES)
    unmarked = []
    for info in _all_modules():
        if not info.ispkg or info.name in public:
            continue
        doc = importlib.import_module(info.name).__doc__ or ""
        if not doc.lstrip().startswith("Internal"):
            unmarked.append(info.name)
    assert not unmarked, "\n".join(map(str, unmarked))


def test_public_modules_exist_and_nothing_else_is_public() -> None:
    """The list above names real modules, and a new public namespace means editing it."""
    known = {info.name for info in _all_modules()} | {"mathhammer"}
    assert set(PUBLIC_MODULES) <= known


def _documented_paths() -> list[tuple[str, str]]:
    """Every dotted ``mathhammer.x.y`` or ``mh.x.y`` path the README and the guide print."""
    pages = [ROOT / "README.md", *sorted((ROOT / "docs" / "guide").glob("*.md"))]
    found = []
    for page in pages:
        for match in re.finditer(r"\b(?:mathhammer|mh)((?:\.[A-Za-z_]\w*)+)", page.read_text()):
            found.append((page.name, "mathhammer" + match.group(1)))
    return found


def test_the_guide_names_only_public_places() -> None:
    """A path the guide prints is a public module or a name of one: ``mh.io.read_defences``
    and ``mathhammer.rules.Classic`` pass, ``mathhammer.results.columns`` would not."""
    public = set(PUBLIC_MODULES)
    wrong = []
    for page, path in _documented_paths():
        if path in public:
            continue
        parent, _, last = path.rpartition(".")
        while parent and parent not in public:  # attributes of a public name: mh.Dist.mean
            parent, _, last = parent.rpartition(".")
        if not parent or last not in importlib.import_module(parent).__all__:
            wrong.append(f"{page}: {path}")
    assert not wrong, "\n".join(map(str, wrong))


#: At most this many parameters for a public function or method (``self``/``cls`` aside).
MAX_PARAMETERS = 10


def _public_routines() -> list[tuple[str, Callable[..., object], type | None]]:
    """Every public function and public method (its class with it) of the public modules."""
    found: list[tuple[str, Callable[..., object], type | None]] = []
    for name in PUBLIC_MODULES:
        module = importlib.import_module(name)
        for public in module.__all__:
            value = getattr(module, public)
            if inspect.isfunction(value):
                found.append((f"{name}.{public}", value, None))
            elif inspect.isclass(value):
                for attr, member in vars(value).items():
                    if attr.startswith("_") and attr != "__init__":
                        continue
                    routine = getattr(member, "__func__", member)
                    if inspect.isfunction(routine):
                        found.append((f"{name}.{public}.{attr}", routine, value))
    return found


def _parameters(routine: Callable[..., object]) -> list[str]:
    """The names a caller may pass (``self`` and ``cls`` aside)."""
    names = inspect.signature(routine).parameters
    return [p for p in names if p not in ("self", "cls")]


def _is_record_constructor(qualified: str, owner: type | None, names: list[str]) -> bool:
    """A record's constructor: its parameters are the record's fields, one each, in order.

    A record (a result, a profile, the modifiers of an attack) is its fields; its
    constructor lists them as :mod:`dataclasses` would, whether generated or written to
    convert "3+" to 3 (docs/architecture.md §1.1). Any other function counts.
    """
    if owner is None or not qualified.endswith(".__init__") or not is_dataclass(owner):
        return False
    return names == [f.name for f in fields(owner) if f.init]


def test_no_public_function_takes_more_than_ten_parameters() -> None:
    routines = _public_routines()
    assert len(routines) > 300  # the walk reaches the methods of the public classes
    long = []
    for qualified, routine, owner in routines:
        names = _parameters(routine)
        if len(names) > MAX_PARAMETERS and not _is_record_constructor(qualified, owner, names):
            long.append(f"{qualified}: {len(names)}")
    assert not long, "\n".join(long)


def test_the_record_constructors_are_the_records() -> None:
    """The exception above is what it says: each long constructor lists its record's fields,
    and they are the known records (a new one is a decision, made here)."""
    records = {
        qualified.rsplit(".", 2)[-2]
        for qualified, routine, owner in _public_routines()
        if len(_parameters(routine)) > MAX_PARAMETERS
    }
    assert records == {
        "AttackResult",
        "Context",
        "Datasheet",
        "ModelGroup",
        "ModelProfile",
        "Modifiers",
        "PoolChecks",
        "SimulationResult",
        "TargetPlan",
        "Weapon",
    }
