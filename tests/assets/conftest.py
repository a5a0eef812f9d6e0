"""Fixtures for the Dagster layer: a throwaway installation (inbox, storage, rules_out) with one client."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from dagster import RepositoryDefinition

from housestyle.assets.resources import HousestyleSettings

FIXTURE_CLIENT = Path(__file__).resolve().parents[1] / "fixtures" / "assets" / "client"


@pytest.fixture()
def install_root(tmp_path: Path) -> Path:
    """<tmp>/inbox/acme = tests/fixtures/assets/client (tm/, systems/, conventions/)."""
    root = tmp_path / "install"
    shutil.copytree(FIXTURE_CLIENT, root / "inbox" / "acme")
    return root


@pytest.fixture()
def settings(install_root: Path) -> HousestyleSettings:
    return HousestyleSettings(
        repo_root=str(install_root),
        inbox_root=str(install_root / "inbox"),
        rules_out_root=str(install_root / "rules_out"),
        registrations_root=str(install_root / "registrations"),
        storage_root=str(install_root / "storage"),
    )


def load_repository() -> RepositoryDefinition:
    """The definitions, loaded with no current defs-state storage. An instance that Dagster enters and
    disposes inside a run (execute_in_process) leaves its storage in Dagster's context variable (dispose()
    does not close the instance's exit stack); once that instance is garbage-collected, loading
    definitions fails with "Attempted to resolve undefined DagsterInstance weakref" — when depends on the
    collector, hence the sensor tests' intermittent failures. We keep no defs state, so none is read."""
    from dagster._core.storage.defs_state.base import set_defs_state_storage

    with set_defs_state_storage(None):
        from housestyle.assets.definitions import build_definitions

        return build_definitions().get_repository_def()
