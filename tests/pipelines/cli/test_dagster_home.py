"""The instance the command line uses: <project>/.dagster with the project's dagster.yaml, unless $DAGSTER_HOME is set."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from housestyle.pipelines.cli.dagster_home import ensure_dagster_home


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
