"""The layering rules of SPEC.md §1, proved from the source (an AST walk of every module).

`pipelines/` is plain Python + polars: it never imports dagster or the `assets` layer, not even
lazily inside a function (tests/imports.py reads them), so the domain code stays testable and
reusable without an orchestrator.
"""

from __future__ import annotations

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


def test_code_and_tests_import_the_one_package_name_only() -> None:
    for folder in ("pipelines", "assets", "tests"):
        assert violations(REPO / folder, BARE_NAMES) == [], folder


@pytest.mark.parametrize("source, expected", [
    ("import dagster\n", ["dagster"]),
    ("from housestyle.assets.resources import HousestyleSettings\n", ["housestyle.assets.resources"]),
    ("def f():\n    import dagster_webserver\n", ["dagster_webserver"]),
    ("import importlib\nimportlib.import_module('housestyle.assets.cli')\n", ["importlib", "housestyle.assets.cli"]),
    ("from . import sibling\n", []),
])
def test_the_walk_sees_every_import_form(tmp_path: Path, source: str, expected: list[str]) -> None:
    module = tmp_path / "m.py"
    module.write_text(source, encoding="utf-8")
    assert [name for name, _ in absolute_imports(module)] == expected
