"""Fixtures for the command line: a project folder holding a registration spec and its gold sources."""

from __future__ import annotations

import shutil
from pathlib import Path

import polars as pl
import pytest

REGISTRATION_FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "registration"


@pytest.fixture()
def registration_repo(tmp_path: Path) -> Path:
    """A project folder for registrations: gold sources, inbox/fx/splits.json, the fixture spec
    (registrations/specs/fx.json), a tm_units.parquet and dagster.yaml."""
    (tmp_path / "gold_src").mkdir()
    for name in ("terms_facebook.csv", "mini.tbx"):
        shutil.copyfile(REGISTRATION_FIXTURES / name, tmp_path / "gold_src" / name)
    (tmp_path / "inbox" / "fx").mkdir(parents=True)
    shutil.copyfile(REGISTRATION_FIXTURES / "splits.json", tmp_path / "inbox" / "fx" / "splits.json")
    (tmp_path / "registrations" / "specs").mkdir(parents=True)
    shutil.copyfile(REGISTRATION_FIXTURES / "spec_fixture.json", tmp_path / "registrations" / "specs" / "fx.json")
    pl.read_ndjson(REGISTRATION_FIXTURES / "units.jsonl").write_parquet(tmp_path / "tm_units.parquet")
    (tmp_path / "dagster.yaml").write_text("", encoding="utf-8")  # a project: --project can name it
    return tmp_path
