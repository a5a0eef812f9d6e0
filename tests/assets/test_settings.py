"""Paths resolve at run time (field > environment > default), and the CLI's DAGSTER_HOME default."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from housestyle.pipelines.cli.dagster_home import ensure_dagster_home
from housestyle.assets.resources import HousestyleSettings
from housestyle.pipelines.project import ENV_INBOX, ENV_ROOT, ENV_STORAGE


def test_settings_read_environment_when_asked_not_at_import(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    settings = HousestyleSettings()
    monkeypatch.setenv(ENV_ROOT, str(tmp_path / "root"))
    monkeypatch.delenv(ENV_INBOX, raising=False)
    monkeypatch.delenv(ENV_STORAGE, raising=False)
    assert settings.inbox == tmp_path / "root" / "inbox"
    assert settings.storage == tmp_path / "root" / ".dagster" / "data"
    monkeypatch.setenv(ENV_INBOX, str(tmp_path / "elsewhere"))
    assert settings.inbox == tmp_path / "elsewhere"
    assert HousestyleSettings(inbox_root=str(tmp_path / "field")).inbox == tmp_path / "field"  # field wins


def test_latest_set_dir(tmp_path: Path) -> None:
    settings = HousestyleSettings(rules_out_root=str(tmp_path))
    assert settings.latest_set_dir("acme") is None
    (tmp_path / "acme").mkdir()
    (tmp_path / "acme" / "LATEST").write_text("abc123\n", encoding="utf-8")
    assert settings.latest_set_dir("acme") == tmp_path / "acme" / "abc123"


def test_cli_dagster_home_defaults_to_repo_dot_dagster(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "dagster.yaml").write_text("telemetry:\n  enabled: false\n", encoding="utf-8")
    monkeypatch.delenv("DAGSTER_HOME", raising=False)
    home = ensure_dagster_home(repo)
    assert home == repo / ".dagster" and os.environ["DAGSTER_HOME"] == str(home)
    assert (home / "dagster.yaml").read_text(encoding="utf-8") == "telemetry:\n  enabled: false\n"

    monkeypatch.setenv("DAGSTER_HOME", str(tmp_path / "mine"))
    assert ensure_dagster_home(repo) == tmp_path / "mine"  # a user's own instance is respected


def test_repo_dagster_yaml_is_local_sqlite_without_telemetry_or_dialog() -> None:
    import yaml

    config = yaml.safe_load((Path(__file__).resolve().parents[2] / "dagster.yaml").read_text(encoding="utf-8"))
    assert config["telemetry"] == {"enabled": False} and config["nux"] == {"enabled": False}
    assert "storage" not in config  # default: SQLite under $DAGSTER_HOME
