"""The architecture: imports flow one way, and the Monte Carlo never imports the exact engine."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import mathhammer

PACKAGE = Path(mathhammer.__file__).parent


def internal_imports(path: Path) -> set[str]:
    """The mathhammer modules a source file imports (relative imports resolved)."""
    module = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    module = module.removesuffix(".__init__")
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            base = package
            for _ in range(node.level - 1):
                base = base.rsplit(".", 1)[0]
            name = f"{base}.{node.module}" if node.level and node.module else (node.module or base)
            if node.level and not node.module:
                out.update(f"{base}.{alias.name}" for alias in node.names)
            elif name.startswith("mathhammer"):
                out.add(name)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.startswith("mathhammer"))
    return out


def graph() -> dict[str, set[str]]:
    nodes = {}
    for path in PACKAGE.rglob("*.py"):
        module = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        nodes[module.removesuffix(".__init__")] = internal_imports(path)
    return nodes


EXACT_ENGINE = {"mathhammer.steps", "mathhammer.allocation", "mathhammer.attack"}


def test_monte_carlo_never_imports_the_exact_engine() -> None:
    g = graph()
    seen, todo = set(), ["mathhammer.montecarlo"]
    while todo:
        module = todo.pop()
        for dep in g.get(module, ()):
            if dep not in seen:
                seen.add(dep)
                todo.append(dep)
    assert not seen & EXACT_ENGINE, seen & EXACT_ENGINE


def test_no_import_cycles_below_the_package() -> None:
    g = {k: {d for d in v if d != "mathhammer"} for k, v in graph().items() if k != "mathhammer"}
    state: dict[str, int] = {}

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for dep in g.get(node, ()):
            if state.get(dep) == 1 and dep != node and not node.startswith(dep + "."):
                raise AssertionError(" -> ".join([*path, node, dep]))
            if dep not in state:
                visit(dep, [*path, node])
        state[node] = 2

    for node in g:
        if node not in state:
            visit(node, [])


def test_import_is_light() -> None:
    code = "import sys, mathhammer; print('matplotlib' in sys.modules, 'pandas' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]
