"""Fixtures shared by the reader tests: the small hand-made files and a records helper."""

from __future__ import annotations

from pathlib import Path

import pytest

from housestyle.pipelines.readers.base import Reject, TranslationUnit
from housestyle.pipelines.readers.registry import FileError, FileStart, iter_sources

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "readers"


@pytest.fixture(scope="session")
def fixtures() -> Path:
    return FIXTURES


def read_all(path: Path) -> tuple[list[TranslationUnit], list[Reject], list[FileError]]:
    """Units, rejects and file errors of one path (every record kept in order)."""
    units: list[TranslationUnit] = []
    rejects: list[Reject] = []
    errors: list[FileError] = []
    for _info, record in iter_sources(path):
        if isinstance(record, TranslationUnit):
            units.append(record)
        elif isinstance(record, Reject):
            rejects.append(record)
        elif isinstance(record, FileError):
            errors.append(record)
        else:
            assert isinstance(record, FileStart)
    return units, rejects, errors
