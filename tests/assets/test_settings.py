"""Paths resolve at run time (field > environment > default), the CLI's DAGSTER_HOME default, and
convention sets published as versioned, reloadable folders."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from assets.convention_sets import publish_set
from assets.instance import ensure_dagster_home
from assets.resources import ENV_INBOX, ENV_ROOT, ENV_STORAGE, HousestyleSettings
from pipelines.conventions.io import load_conventions
from pipelines.conventions.model import Convention


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


def _conventions() -> list[Convention]:
    return [
        Convention(dimension="term:air mass", rule="term", src="air mass", expected_terms=["masse d'air"],
                   wrong_variants=["masse atmosphérique"], match_mode="caseless", src_lang="en", tgt_lang="fr"),
        Convention(dimension="number:decimal_separator", rule="numeric", match_mode="exact",
                   params={"decimal": ",", "group": "\u202f"}, src_lang="en", tgt_lang="fr"),
    ]


def test_publish_set_is_versioned_and_reloadable(tmp_path: Path) -> None:
    first = publish_set(_conventions(), client="acme", rules_out=tmp_path, inputs={"conventions/a.jsonl": "h1"})
    again = publish_set(list(reversed(_conventions())), client="acme", rules_out=tmp_path,
                        inputs={"conventions/a.jsonl": "h1"})
    assert first.set_version == again.set_version  # order-free, deterministic
    other = publish_set(_conventions(), client="acme", rules_out=tmp_path, inputs={"conventions/a.jsonl": "h2"})
    assert other.set_version != first.set_version
    assert (tmp_path / "acme" / "LATEST").read_text(encoding="utf-8").strip() == other.set_version

    manifest = json.loads((first.path / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["set_version"] == first.set_version and manifest["client"] == "acme"
    assert manifest["language_pairs"] == ["en→fr"] and manifest["inputs"] == {"conventions/a.jsonl": "h1"}
    ids = sorted(c.convention_id for c in _conventions())
    for name in ("conventions.jsonl", "conventions.parquet"):
        loaded = load_conventions(first.path / name)
        assert sorted(c.convention_id for c in loaded) == ids, name
        numeric = next(c for c in loaded if c.rule == "numeric")
        assert numeric.params == {"decimal": ",", "group": "\u202f"}
