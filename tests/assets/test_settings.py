"""Paths resolve at run time (field > environment > default), the same way the command line resolves them."""

from __future__ import annotations

from pathlib import Path

import pytest

from housestyle.assets.resources import HousestyleSettings
from housestyle.pipelines.project import ENV_INBOX, ENV_ROOT, ENV_STORAGE, project_folder, tm_table


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


def test_the_resource_and_the_command_line_find_the_same_tm_units(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """review-export reads the client's tm_units table where the assets wrote it, without the resource."""
    monkeypatch.setenv(ENV_STORAGE, str(tmp_path / "storage"))
    assert HousestyleSettings().tm_units_path("acme") == tm_table(project_folder("storage"), "acme") \
        == tmp_path / "storage" / "tm_units" / "acme" / "tm_units.parquet"
    assert HousestyleSettings().tm_rejects_path("acme").name == "tm_rejects.parquet"


def test_latest_set_dir(tmp_path: Path) -> None:
    settings = HousestyleSettings(rules_out_root=str(tmp_path))
    assert settings.latest_set_dir("acme") is None
    (tmp_path / "acme").mkdir()
    (tmp_path / "acme" / "LATEST").write_text("abc123\n", encoding="utf-8")
    assert settings.latest_set_dir("acme") == tmp_path / "acme" / "abc123"


def test_repo_dagster_yaml_is_local_sqlite_without_telemetry_or_dialog() -> None:
    import yaml

    config = yaml.safe_load((Path(__file__).resolve().parents[2] / "dagster.yaml").read_text(encoding="utf-8"))
    assert config["telemetry"] == {"enabled": False} and config["nux"] == {"enabled": False}
    assert "storage" not in config  # default: SQLite under $DAGSTER_HOME
