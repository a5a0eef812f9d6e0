"""Paths to the meta-evaluation fixtures and to the real WMT21 TED MQM files."""

from __future__ import annotations

from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "metaeval"


@pytest.fixture(scope="session")
def toy_ende() -> Path:
    return FIXTURES / "mqm_toy_ende.tsv"


@pytest.fixture(scope="session")
def toy_zhen() -> Path:
    return FIXTURES / "mqm_toy_zhen.tsv"


@pytest.fixture(scope="session")
def ted(shared_data: Path) -> dict[str, Path]:
    root = shared_data / "wmt-mqm" / "ted"
    files = {"en-de": root / "ende" / "mqm_ted_ende.tsv", "zh-en": root / "zhen" / "mqm_ted_zhen.tsv"}
    if not all(f.is_file() for f in files.values()):
        pytest.skip(f"WMT TED MQM files not found under {root}")
    return files
