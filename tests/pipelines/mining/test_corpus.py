"""Reading tm_units for mining (pipelines/mining/corpus.py): only the columns mining uses."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from pipelines.mining.corpus import MINING_COLUMNS, corpus_from_units, read_units_for_mining


def test_mining_reads_only_its_columns_and_mines_the_same_corpus(tiny_units: pl.DataFrame, tmp_path: Path) -> None:
    path = tmp_path / "tm_units.parquet"
    tiny_units.write_parquet(path)
    lean = read_units_for_mining(path)
    assert lean.columns == list(MINING_COLUMNS)
    assert {"source_markup", "target_markup", "props", "unit_hash"} <= set(tiny_units.columns) - set(lean.columns)
    full, few = corpus_from_units(tiny_units, "en", "fr"), corpus_from_units(lean, "en", "fr")
    assert (few.unit_ids, few.sources, few.targets, few.domains) == (full.unit_ids, full.sources, full.targets,
                                                                     full.domains)


def test_a_hand_made_file_without_optional_columns_still_reads(tmp_path: Path) -> None:
    path = tmp_path / "units.parquet"
    pl.DataFrame({"unit_id": ["u1"], "source": ["Fever."], "target": ["Fièvre."], "note": ["x"]}).write_parquet(path)
    assert read_units_for_mining(path).columns == ["unit_id", "source", "target"]
