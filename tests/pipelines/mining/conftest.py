"""The mining fixture TM, ingested once per session (real ingest, no mocks)."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest

from housestyle.pipelines.ingest import ingest_files
from housestyle.pipelines.mining.corpus import Corpus, corpus_from_units
from tests.conftest import REPO_ROOT

FIXTURE = REPO_ROOT / "tests" / "fixtures" / "mining" / "tiny_enfr.xliff"


@pytest.fixture(scope="session")
def tiny_units(tmp_path_factory: pytest.TempPathFactory) -> pl.DataFrame:
    out = tmp_path_factory.mktemp("tiny_units")
    ingest_files([FIXTURE], client="fixture", out_dir=out)
    return pl.read_parquet(out / "tm_units.parquet")


@pytest.fixture(scope="session")
def tico_dev(shared_data: Path, tmp_path_factory: pytest.TempPathFactory) -> Corpus:
    """The TICO-19 en→fr dev split of the demo client (real data), ingested once per session."""
    out = tmp_path_factory.mktemp("tico_dev")
    ingest_files([shared_data / "tico19" / "TM" / "all.en-fr.tmx"], client="demo", out_dir=out)
    dev = json.loads((REPO_ROOT / "inbox" / "demo" / "splits.json").read_text())["dev"]["unit_id"]
    units = pl.read_parquet(out / "tm_units.parquet").filter(pl.col("unit_id").is_in(sorted(dev)))
    return corpus_from_units(units, "en", "fr")


@pytest.fixture(scope="session")
def tiny(tiny_units: pl.DataFrame) -> Corpus:
    return corpus_from_units(tiny_units, "en", "fr")


def corpus_of(pairs: list[tuple[str, str]], tgt: str = "fr") -> Corpus:
    """A small in-memory corpus (unit ids u000…) for family tests."""
    return Corpus([f"u{i:03d}" for i in range(len(pairs))], [s for s, _ in pairs], [t for _, t in pairs], "en", tgt)


@pytest.fixture()
def make_corpus() -> object:
    return corpus_of


def fixture_path() -> Path:
    return FIXTURE
