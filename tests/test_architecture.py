"""The architecture: layers import only the layers below them, with no cycles.

The layers, bottom to top, are the package's subpackages; the modules at the top of the
package (the API, the command line, the facades) may import anything, and so may the
command line's own package, ``mathhammer.cli``, which sits at the top with them. A module-level
import (outside ``if TYPE_CHECKING:``) must go to its own layer or a lower one. A function
may import the views layer lazily (the presentation hooks ``summary``, ``plot`` and
``_repr_html_`` of distributions and results), and nothing else upward. The Monte Carlo
and the exact engine never import each other.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

import mathhammer

PACKAGE = Path(mathhammer.__file__).parent

#: Layers from the bottom up; modules of one layer may import each other.
LAYERS = (
    ("mathhammer.errors", "mathhammer.core"),
    ("mathhammer.model",),
    ("mathhammer.rules",),
    ("mathhammer.results",),
    ("mathhammer.exact", "mathhammer.montecarlo"),
    ("mathhammer.decisions",),
    ("mathhammer.units",),
    ("mathhammer.views",),
    ("mathhammer.io",),
    ("mathhammer.sweeps",),
    ("mathhammer.page",),
)

#: Subpackages at the top of the package, above every layer.
TOP = ("mathhammer.cli",)


def layer(module: str) -> int:
    """The layer of a module; the top of the package is above every layer."""
    for rank, prefixes in enumerate(LAYERS):
        if any(module == p or module.startswith(p + ".") for p in prefixes):
            return rank
    return len(LAYERS)


def module_name(path: Path) -> str:
    return ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts).removesuffix(
        ".__init__"
    )


def _type_checking_lines(tree: ast.Module) -> set[int]:
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.body:
                lines.update(range(child.lineno, (child.end_lineno or child.lineno) + 1))
    return lines


def imports(path: Path) -> list[tuple[str, bool]]:
    """(imported mathhammer module, imported inside a function) for one source file."""
    module = module_name(path)
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    tree = ast.parse(path.read_text())
    typing_only = _type_checking_lines(tree)
    in_function: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            in_function.update(range(node.lineno, (node.end_lineno or node.lineno) + 1))
    out = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Import | ast.ImportFrom) or node.lineno in typing_only:
            continue
        names: list[str] = []
        if isinstance(node, ast.ImportFrom):
            base = package
            for _ in range(node.level - 1):
                base = base.rsplit(".", 1)[0]
            if node.level and not node.module:
                names = [f"{base}.{alias.name}" for alias in node.names]
            elif node.level:
                names = [f"{base}.{node.module}"]
            elif node.module:
                names = [node.module]
        else:
            names = [alias.name for alias in node.names]
        out += [(n, node.lineno in in_function) for n in names if n.startswith("mathhammer")]
    return out


@functools.cache
def graph() -> dict[str, list[tuple[str, bool]]]:
    """Each module's imports, parsed once for every test of the module (not mutated)."""
    return {module_name(p): imports(p) for p in PACKAGE.rglob("*.py")}


def test_every_subpackage_is_in_a_layer() -> None:
    found = {module_name(p.parent) for p in PACKAGE.glob("*/__init__.py")}
    assert set(TOP) <= found, TOP
    layered = found - set(TOP)
    assert layered and all(layer(s) < len(LAYERS) for s in layered), layered
    assert all(layer(t) == len(LAYERS) for t in TOP)


@pytest.mark.parametrize("module", sorted(module_name(p) for p in PACKAGE.rglob("*.py")))
def test_imports_flow_downward(module: str) -> None:
    for imported, lazy in graph()[module]:
        if layer(imported) <= layer(module):
            continue
        assert lazy and imported.startswith("mathhammer.views"), (
            f"{module} (layer {layer(module)}) imports {imported} (layer {layer(imported)})"
        )


def test_engines_never_import_each_other() -> None:
    for module, deps in graph().items():
        for imported, _ in deps:
            if module.startswith("mathhammer.montecarlo"):
                assert not imported.startswith("mathhammer.exact"), (module, imported)
            if module.startswith("mathhammer.exact"):
                assert not imported.startswith("mathhammer.montecarlo"), (module, imported)


def _cycle(g: dict[str, set[str]]) -> list[str] | None:
    """A cycle of the import graph ``g`` (a module and its package excepted), or None."""
    state: dict[str, int] = {}

    def visit(node: str, path: list[str]) -> list[str] | None:
        state[node] = 1
        for dep in sorted(g.get(node, ())):
            if state.get(dep) == 1 and dep != node and not node.startswith(dep + "."):
                return [*path, node, dep]
            if dep not in state:
                found = visit(dep, [*path, node])
                if found:
                    return found
        state[node] = 2
        return None

    for node in sorted(g):
        if node not in state:
            found = visit(node, [])
            if found:
                return found
    return None


def _import_graph(lazy: bool) -> dict[str, set[str]]:
    """Who imports whom: at module level, and with ``lazy`` inside functions too (except
    the presentation hooks' lazy imports of the views layer from below it)."""

    def kept(module: str, dep: str, in_function: bool) -> bool:
        if dep == "mathhammer":
            return False
        if not in_function:
            return True
        hook = dep.startswith("mathhammer.views") and layer(dep) > layer(module)
        return lazy and not hook

    return {
        m: {d for d, in_function in deps if kept(m, d, in_function)}
        for m, deps in graph().items()
        if m != "mathhammer"
    }


def test_no_import_cycles_at_module_level() -> None:
    found = _cycle(_import_graph(lazy=False))
    assert found is None, " -> ".join(found or [])


def test_no_import_cycles_through_lazy_imports() -> None:
    # a cycle closed by an import inside a function is a cycle all the same: the layers
    # above cannot be read without those below, nor the other way round
    found = _cycle(_import_graph(lazy=True))
    assert found is None, " -> ".join(found or [])


def test_the_cycle_test_can_fail() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


def test_the_layer_test_can_fail() -> None:
    # an upward module-level import, as the test would see it
    assert layer("mathhammer.core.dist") < layer("mathhammer.views.plots")
    assert layer("mathhammer.cli") == layer("mathhammer.cli.commands") == len(LAYERS)
