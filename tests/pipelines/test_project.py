"""Project folders (SPEC.md §3): found from --project, $HOUSESTYLE_ROOT or upward; written whole or not at all."""

from __future__ import annotations

from pathlib import Path

import pytest

from housestyle.pipelines.errors import ConfigError
from housestyle.pipelines.project import ENV_ROOT, ProjectLayout, find_upward, is_project, resolve_project, write_project
from tests.conftest import REPO_ROOT


def make_project(root: Path) -> Path:
    (root / "inbox").mkdir(parents=True)
    (root / "dagster.yaml").write_text("telemetry:\n  enabled: false\n", encoding="utf-8")
    return root


def test_this_repository_is_a_project() -> None:
    assert is_project(REPO_ROOT)
    assert find_upward(REPO_ROOT / "pipelines" / "readers") == REPO_ROOT


def test_resolution_order_flag_then_environment_then_upward(tmp_path: Path) -> None:
    outer, inner = make_project(tmp_path / "outer"), make_project(tmp_path / "outer" / "clients" / "inner")
    deep = inner / "inbox" / "acme" / "tm"
    deep.mkdir(parents=True)
    assert resolve_project(environ={}, cwd=deep) == inner  # the nearest one wins
    assert resolve_project(environ={}, cwd=outer / "clients") == outer
    assert resolve_project(environ={ENV_ROOT: str(outer)}, cwd=deep) == outer
    assert resolve_project(str(tmp_path / "elsewhere"), environ={ENV_ROOT: str(outer)}, cwd=deep) == tmp_path / "elsewhere"


def test_half_a_project_is_not_one(tmp_path: Path) -> None:
    (tmp_path / "only_inbox" / "inbox").mkdir(parents=True)
    (tmp_path / "only_yaml").mkdir()
    (tmp_path / "only_yaml" / "dagster.yaml").write_text("", encoding="utf-8")
    (tmp_path / "file_named_inbox").mkdir()
    (tmp_path / "file_named_inbox" / "inbox").write_text("", encoding="utf-8")
    (tmp_path / "file_named_inbox" / "dagster.yaml").write_text("", encoding="utf-8")
    for name in ("only_inbox", "only_yaml", "file_named_inbox"):
        assert not is_project(tmp_path / name)


def test_no_project_is_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as error:
        resolve_project(environ={}, cwd=tmp_path)
    assert "housestyle init" in str(error.value) and "\n" not in str(error.value)


def test_write_project_refuses_to_overwrite_and_writes_nothing(tmp_path: Path) -> None:
    source = tmp_path / "bundle"
    (source / "tm").mkdir(parents=True)
    (source / "tm" / "a.tmx").write_text("<tmx/>", encoding="utf-8")
    layout = ProjectLayout(files={"dagster.yaml": "x: 1\n"}, trees={"inbox/demo": source})
    target = tmp_path / "project"
    write_project(target, layout)
    assert is_project(target) and (target / "inbox" / "demo" / "tm" / "a.tmx").is_file()
    assert (target / "registrations").is_dir() and (target / "rules_out").is_dir()

    (target / "dagster.yaml").write_text("mine: true\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="already exists"):
        write_project(target, ProjectLayout(files={"workspace.yaml": "new\n", "dagster.yaml": "x: 2\n"}))
    assert (target / "dagster.yaml").read_text(encoding="utf-8") == "mine: true\n"
    assert not (target / "workspace.yaml").exists()  # checked before anything is written
    write_project(target, layout, force=True)
    assert (target / "dagster.yaml").read_text(encoding="utf-8") == "x: 1\n"

    a_file = tmp_path / "a_file"
    a_file.write_text("", encoding="utf-8")
    with pytest.raises(ConfigError, match="not a folder"):
        write_project(a_file, layout)


def test_project_folder_takes_the_flag_then_its_variable_then_the_project(tmp_path: Path) -> None:
    from housestyle.pipelines.project import ENV_INBOX, ENV_STORAGE, project_folder

    project = tmp_path / "p"
    env = {ENV_INBOX: str(tmp_path / "elsewhere")}
    assert project_folder("inbox", tmp_path / "flag", project=lambda: project, environ=env) == tmp_path / "flag"
    assert project_folder("inbox", None, project=lambda: project, environ=env) == tmp_path / "elsewhere"
    assert project_folder("rules_out", None, project=lambda: project, environ=env) == project / "rules_out"
    assert project_folder("storage", None, project=lambda: project, environ={ENV_STORAGE: ""}) == project / ".dagster" / "data"
    assert project_folder("inbox", None, environ={"HOUSESTYLE_ROOT": str(project)}) == project.resolve() / "inbox"
