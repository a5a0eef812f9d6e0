"""The Dagster instance the CLI uses: $DAGSTER_HOME if set, else <repo>/.dagster with the repo's dagster.yaml."""

from __future__ import annotations

import os
from pathlib import Path

from assets.resources import REPO_ROOT_DEFAULT
from pipelines import atomic


def ensure_dagster_home(repo: Path = REPO_ROOT_DEFAULT) -> Path:
    """Point DAGSTER_HOME at <repo>/.dagster (unless already set) and keep its dagster.yaml in step with the repo's."""
    existing = os.environ.get("DAGSTER_HOME")
    if existing:
        Path(existing).mkdir(parents=True, exist_ok=True)
        return Path(existing)
    home = repo / ".dagster"
    home.mkdir(parents=True, exist_ok=True)
    source = repo / "dagster.yaml"
    target = home / "dagster.yaml"
    if source.is_file() and (not target.is_file() or target.read_bytes() != source.read_bytes()):
        atomic.copy_file(source, target)
    os.environ["DAGSTER_HOME"] = str(home)
    return home
