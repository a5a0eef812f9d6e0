"""The layering rules of SPEC.md §1, proved from the source (an AST walk of every module).

`pipelines/` is plain Python + polars: it never imports dagster or the `assets` layer, not even
lazily inside a function (tests/imports.py reads them), so the domain code stays testable and
reusable without an orchestrator.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from tests.imports import absolute_imports

REPO = Path(__file__).resolve().parents[1]
PIPELINES = REPO / "pipelines"
FORBIDDEN_IN_PIPELINES = ("dagster", "dagster_webserver", "dagster_graphql", "housestyle.assets")
# The code is imported under one name only (housestyle.*): a bare `pipelines` / `assets` import would load a
# second copy of a module from the checkout (or fail in an installed wheel).
BARE_NAMES = ("pipelines", "assets", "inbox")


def violations(root: Path, forbidden: tuple[str, ...]) -> list[str]:
    bad = []
    for path in sorted(root.rglob("*.py")):
        for module, line in absolute_imports(path):
            if any(module == f or module.startswith(f + ".") for f in forbidden):
                bad.append(f"{path.relative_to(REPO)}:{line}: imports {module}")
    return bad


def test_pipelines_has_modules_to_check() -> None:
    """Guard against a vacuous pass (e.g. the walk pointed at the wrong folder)."""
    assert len(list(PIPELINES.rglob("*.py"))) >= 5


def test_pipelines_never_imports_dagster_or_assets() -> None:
    assert violations(PIPELINES, FORBIDDEN_IN_PIPELINES) == []


# The one module of pipelines/ that names Dagster-layer modules: as text, the code locations it hands to the
# `dagster` processes it starts (never imported, never given to importlib).
CODE_LOCATION_TEXT = PIPELINES / "cli" / "dagster_processes.py"
ASSETS_MODULE_NAME = re.compile(r"housestyle\.assets(\.\w+)*")


def test_pipelines_names_the_dagster_layer_only_as_code_locations() -> None:
    """No "housestyle.assets…" module name in pipelines/ that something could import (an importlib call, a
    registry list), except the code locations of the dagster processes; the CLI finds the graph commands
    through entry points."""
    named = []
    for path in sorted(PIPELINES.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and ASSETS_MODULE_NAME.fullmatch(node.value):
                named.append(f"{path.relative_to(REPO)}:{node.lineno}: {node.value}")
    assert named and all(n.startswith(str(CODE_LOCATION_TEXT.relative_to(REPO)) + ":") for n in named), named


def test_code_and_tests_import_the_one_package_name_only() -> None:
    for folder in ("pipelines", "assets", "tests"):
        assert violations(REPO / folder, BARE_NAMES) == [], folder


@pytest.mark.parametrize("source, expected", [
    ("import dagster\n", ["dagster"]),
    ("from housestyle.assets.resources import HousestyleSettings\n", ["housestyle.assets.resources"]),
    ("def f():\n    import dagster_webserver\n", ["dagster_webserver"]),
    ("import importlib\nimportlib.import_module('housestyle.assets.commands.run')\n",
     ["importlib", "housestyle.assets.commands.run"]),
    ("from . import sibling\n", []),
])
def test_the_walk_sees_every_import_form(tmp_path: Path, source: str, expected: list[str]) -> None:
    module = tmp_path / "m.py"
    module.write_text(source, encoding="utf-8")
    assert [name for name, _ in absolute_imports(module)] == expected
