"""Shared fixtures: where the real public data lives, and an isolated DAGSTER_HOME."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]


def find_shared_data() -> Path | None:
    """../shared/data beside the checkout, or $HOUSESTYLE_DATA; None when neither exists."""
    env = os.environ.get("HOUSESTYLE_DATA")
    candidates = [Path(env)] if env else []
    candidates.append(REPO_ROOT.parent / "shared" / "data")
    for candidate in candidates:
        if candidate.is_dir():
            return candidate
    return None


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """The real data folder; tests that need it skip with a clear reason when it is absent."""
    found = find_shared_data()
    if found is None:
        pytest.skip("real data not found: put ../shared/data beside the checkout or set HOUSESTYLE_DATA")
    return found


@pytest.fixture(scope="session")
def shared_gold(shared_data: Path) -> Path:
    """../shared/gold (hand-authored gold), beside the data folder."""
    gold = shared_data.parent / "gold"
    if not gold.is_dir():
        pytest.skip(f"gold folder not found beside {shared_data}")
    return gold


@pytest.fixture()
def dagster_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A throwaway Dagster instance folder, so tests never touch a user's instance."""
    home = tmp_path / "dagster_home"
    home.mkdir()
    (home / "dagster.yaml").write_text("telemetry:\n  enabled: false\n", encoding="utf-8")
    monkeypatch.setenv("DAGSTER_HOME", str(home))
    return home
