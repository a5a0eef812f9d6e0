"""The inbox a command works on: --inbox, else $HOUSESTYLE_INBOX, else the project's inbox/ (the one resolver,
``housestyle.pipelines.project.project_folder``, that the Dagster settings resource uses too)."""

from __future__ import annotations

from pathlib import Path

from housestyle.pipelines.paths import client_path
from housestyle.pipelines.project import project_folder


def inbox_root(explicit: Path | None) -> Path:
    """--inbox, else $HOUSESTYLE_INBOX (read now), else <project>/inbox."""
    return project_folder("inbox", explicit)


def client_folder(inbox: Path | None, client: str) -> Path:
    """inbox/<client>/ of ``inbox_root``; the name must be one safe path segment (``pipelines.paths``)."""
    return client_path(inbox_root(inbox), client, source="--client")
