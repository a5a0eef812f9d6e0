"""The one import walker every test that reads imports uses (layering, cycles, gold isolation).

Imports are read from the AST of each file at every nesting level (a lazy import inside a function
counts), relative imports are resolved against the module's package, and ``importlib.import_module``
/ ``__import__`` with a literal name count as imports too.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

PACKAGES = ("pipelines", "assets")  # folders of the checkout
IMPORT_PACKAGE = "housestyle"  # their import names: housestyle.pipelines, housestyle.assets (pyproject package-dir)


@dataclass(frozen=True)
class Imported:
    """One imported module: its dotted name (relative ones resolved), the names taken from it, its line."""

    module: str
    names: tuple[str, ...]
    line: int
    relative: bool = False


def _dynamic_import_name(node: ast.Call) -> str:
    func = node.func
    called = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    if called in ("import_module", "__import__") and node.args:
        arg = node.args[0]
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            return arg.value
    return ""


def imports_in(path: Path, package: str = "") -> list[Imported]:
    """Every import of a file; ``package`` (the module's package) resolves relative ones."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: list[Imported] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [Imported(alias.name, (), node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".") if package else []
                anchor = parts[: len(parts) - (node.level - 1)]
                base = ".".join(anchor + ([node.module] if node.module else []))
            names = tuple(alias.name for alias in node.names)
            found.append(Imported(base, names, node.lineno, relative=bool(node.level)))
        elif isinstance(node, ast.Call) and _dynamic_import_name(node):
            found.append(Imported(_dynamic_import_name(node), (), node.lineno))
    return found


def absolute_imports(path: Path) -> list[tuple[str, int]]:
    """(module, line) of every absolute import of a file (what a layering rule forbids by name)."""
    return [(i.module, i.line) for i in imports_in(path) if not i.relative and i.module]


def module_index(root: Path, packages: tuple[str, ...] = PACKAGES) -> dict[str, Path]:
    """Dotted module name -> file, for every .py under the given top-level packages."""
    index: dict[str, Path] = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            index[".".join([IMPORT_PACKAGE, *parts])] = path
    return index


def parents(name: str) -> list[str]:
    parts = name.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts))]


def imports_of(name: str, path: Path, index: dict[str, Path]) -> set[str]:
    """Internal modules ``name`` imports (any nesting level), with the packages Python runs on the way."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for imported in imports_in(path, package):
        for target in [imported.module, *(f"{imported.module}.{n}" for n in imported.names)]:
            found.update(c for c in [*parents(target), target] if c in index)
    found.update(p for p in parents(name) if p in index)  # importing a.b.c runs a and a.b first
    found.discard(name)
    return found


def module_graph(index: dict[str, Path]) -> dict[str, set[str]]:
    """module -> internal modules it imports. A package's parents run first but do not import it
    back, so an edge to one's own parent package is left out."""
    return {name: {t for t in imports_of(name, path, index) if not name.startswith(t + ".")}
            for name, path in index.items()}


def unit_of(name: str) -> str:
    """The package-level unit of a module: ``housestyle.pipelines.mining.x`` -> ``housestyle.pipelines.mining``; a
    top-level module (``housestyle.pipelines.atomic``, ``housestyle.assets.sensors``) is its own unit."""
    return ".".join(name.split(".")[:3])


def package_graph(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """unit -> units it imports (edges to a bare top-level package, e.g. ``pipelines``, left out)."""
    out: dict[str, set[str]] = {}
    for name, targets in graph.items():
        for target in targets:
            if target.count(".") >= 2 and unit_of(target) != unit_of(name):
                out.setdefault(unit_of(name), set()).add(unit_of(target))
    return out


def circles(graph: dict[str, set[str]]) -> list[set[str]]:
    """Strongly connected components with more than one node (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[set[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.add(member)
                if member == node:
                    break
            if len(component) > 1:
                out.append(component)

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return out


def reach(start: str, index: dict[str, Path]) -> dict[str, str]:
    """Every module transitively imported from ``start``: module -> the module that imported it first."""
    came_from: dict[str, str] = {start: ""}
    stack = [start]
    while stack:
        current = stack.pop()
        for target in sorted(imports_of(current, index[current], index)):
            if target not in came_from:
                came_from[target] = current
                stack.append(target)
    return came_from


def chain(came_from: dict[str, str], end: str) -> str:
    path = [end]
    while came_from[path[-1]]:
        path.append(came_from[path[-1]])
    return " -> ".join(reversed(path))


def forbidden_reaches(index: dict[str, Path], sources: tuple[str, ...], forbidden: str) -> list[str]:
    """Import chains from any module under ``sources`` to ``forbidden`` (or a module under it)."""
    bad = []
    for name in sorted(index):
        if any(name == s or name.startswith(s + ".") for s in sources):
            came_from = reach(name, index)
            for target in sorted(came_from):
                if target == forbidden or target.startswith(forbidden + "."):
                    bad.append(chain(came_from, target))
    return bad
