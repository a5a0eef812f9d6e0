"""No import circles in pipelines/ or assets/: not between two modules, directly or round a circle
(not even for types only), and not between packages (``housestyle.pipelines.mining`` -> ``housestyle.pipelines.conventionset``
-> back is a circle even when no single module is on it). A circle makes import order matter and
hides which package owns what. The allow-list is empty and stays empty.

Run with ``-s`` to see the import graph summary the test prints.
"""

from __future__ import annotations

from tests.conftest import REPO_ROOT
from tests.imports import circles, module_graph, module_index, package_graph

KNOWN: list[set[str]] = []


def _summary(graph: dict[str, set[str]], units: dict[str, set[str]]) -> str:
    edges = sum(len(t) for t in graph.values())
    lines = [f"import graph: {len(graph)} modules, {edges} module edges; "
             f"{len(units)} packages with outgoing edges, {sum(len(t) for t in units.values())} package edges"]
    lines += [f"  {unit} -> {', '.join(sorted(t))}" for unit, t in sorted(units.items())]
    return "\n".join(lines)


def test_no_import_circles_between_modules_or_packages() -> None:
    index = module_index(REPO_ROOT, ("pipelines", "assets"))
    assert "housestyle.assets.definitions" in index and "housestyle.pipelines.scoring.engine" in index, "walk points at the wrong folder"
    graph = module_graph(index)
    units = package_graph(graph)
    print(_summary(graph, units))
    found = [c for c in circles(graph) + circles(units) if c not in KNOWN]
    print(f"circles: {len(found)}")
    assert found == []


def test_the_circle_finder_finds_a_circle() -> None:
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [{"a", "b", "c"}]


def test_package_circles_are_found_without_a_module_circle() -> None:
    graph = {"h.p.a.x": {"h.p.b.y"}, "h.p.b.y": set(), "h.p.b.z": {"h.p.a.w"}, "h.p.a.w": set()}
    assert circles(graph) == []
    assert circles(package_graph(graph)) == [{"h.p.a", "h.p.b"}]
