"""The one import package (issue 28): pyproject maps housestyle.pipelines <- pipelines/, housestyle.assets
<- assets/ and housestyle.demo <- inbox/demo/ with an explicit package list; a folder missing from the list
would silently not ship. (The built wheel's top-level names are checked in tests/pipelines/cli/test_main.py.)"""

from __future__ import annotations

import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
MAPPED = {"housestyle.pipelines": "pipelines", "housestyle.assets": "assets", "housestyle.demo": "inbox/demo"}


def _listed() -> tuple[dict[str, str], set[str]]:
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    return config["package-dir"], set(config["packages"])


def test_every_code_and_demo_folder_is_a_listed_package() -> None:
    package_dir, listed = _listed()
    assert package_dir == MAPPED
    expected = set()
    for name, folder in MAPPED.items():
        root = REPO / folder
        for path in [root, *sorted(p for p in root.rglob("*") if p.is_dir() and "__pycache__" not in p.parts)]:
            rel = path.relative_to(root)
            expected.add(name if rel == Path(".") else ".".join([name, *rel.parts]))
    assert len(expected) > 20, "the walk found no folders: the check would be vacuous"
    assert sorted(expected - listed) == [], "folders missing from [tool.setuptools] packages"
    assert sorted(listed - expected) == [], "packages listed without a folder"


def test_no_other_top_level_name_is_installed() -> None:
    _, listed = _listed()
    assert {name.split(".")[0] for name in listed} == {"housestyle"}
