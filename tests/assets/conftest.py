"""Fixtures for the Dagster layer: a throwaway installation (inbox, storage, rules_out) with one client."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from assets.resources import HousestyleSettings

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
