"""Reading tm_units for mining (pipelines/mining/corpus.py): only the columns mining uses, held as
columns and read in batches with the same results as whole lists."""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import polars as pl
import pytest

import housestyle.pipelines.mining.corpus as corpus_module

from housestyle.pipelines.conventions.code_spans import mask_code
from housestyle.pipelines.mining.corpus import (
    MINING_COLUMNS,
    Corpus,
    Texts,
    corpus_from_units,
    hashed_sample,
    read_units_for_mining,
)
from housestyle.pipelines.mining.tokens import fold_count


def test_mining_reads_only_its_columns_and_mines_the_same_corpus(tiny_units: pl.DataFrame, tmp_path: Path) -> None:
    path = tmp_path / "tm_units.parquet"
    tiny_units.write_parquet(path)
    lean = read_units_for_mining(path)
    assert lean.columns == list(MINING_COLUMNS)
    assert {"source_markup", "target_markup", "props", "unit_hash"} <= set(tiny_units.columns) - set(lean.columns)
    full, few = corpus_from_units(tiny_units, "en", "fr"), corpus_from_units(lean, "en", "fr")
    assert [list(c.unit_ids) for c in (few, full)] == [list(full.unit_ids)] * 2
    assert (list(few.sources), list(few.targets), few.domains) == (list(full.sources), list(full.targets), full.domains)
    assert few.tm_order is not None and full.tm_order is not None
    assert [a.tolist() for a in few.tm_order] == [a.tolist() for a in full.tm_order]


def test_the_tm_order_is_each_units_file_and_position_there_whatever_the_ids() -> None:
    """Units are held sorted by id; ``tm_order`` keeps where each sat in its file (misaligned_runs)."""
    units = pl.DataFrame({"unit_id": ["b:2", "b:10", "a:1", "a:3"], "source": ["One.", "Two.", "Three.", "Four."],
                          "target": ["Un.", "Deux.", "Trois.", "Quatre."], "source_file": ["y.tmx", "y.tmx", "x.tmx", "x.tmx"],
                          "unit_ordinal": [5, 9, 2, 1]})
    corpus = corpus_from_units(units, "en", "fr")
    assert list(corpus.unit_ids) == ["a:1", "a:3", "b:10", "b:2"]
    assert corpus.tm_order is not None
    assert [a.tolist() for a in corpus.tm_order] == [[1, 1, 2, 2], [2, 1, 9, 5]]
    assert corpus.subset([3, 0]).tm_order is not None
    assert corpus_from_units(units.drop("source_file"), "en", "fr").tm_order is None


def test_a_hand_made_file_without_optional_columns_still_reads(tmp_path: Path) -> None:
    path = tmp_path / "units.parquet"
    pl.DataFrame({"unit_id": ["u1"], "source": ["Fever."], "target": ["Fièvre."], "note": ["x"]}).write_parquet(path)
    assert read_units_for_mining(path).columns == ["unit_id", "source", "target"]


def test_texts_read_in_batches_are_the_column(tiny: Corpus) -> None:
    texts = tiny.sources
    whole = tiny.frame["source"].to_list()
    for size in (1, 3, len(whole), len(whole) + 5):
        assert [t for _, batch in texts.batches(size) for t in batch] == whole
        assert [offset for offset, _ in texts.batches(size)] == list(range(0, len(whole), size))
    assert list(texts) == whole and len(texts) == len(whole)
    assert (texts[0], texts[-1], texts[1:3], texts[::2]) == (whole[0], whole[-1], whole[1:3], whole[::2])
    assert texts.gather([4, 0, 4]) == [whole[4], whole[0], whole[4]]
    with pytest.raises(IndexError):
        texts[len(whole)]
    listed = tiny.listed()
    assert (listed.sources[2], list(listed.targets), listed.unit_ids.gather([1])) == (
        whole[2], list(tiny.targets), [tiny.unit_ids[1]])


def test_a_gathered_column_reads_the_same_from_its_list_or_from_the_series(tiny: Corpus) -> None:
    whole = tiny.frame["target"].to_list()
    listed, large = Texts(tiny.frame["target"]), Texts(tiny.frame["target"])
    picks = np.array([3, 0, 3, len(whole) - 1], dtype=np.int32)
    assert listed.gather(picks) == [whole[i] for i in picks] and listed.values == whole  # small: listed once
    corpus_module.LISTED_MAX, before = 0, corpus_module.LISTED_MAX
    try:
        assert large.gather(picks) == listed.gather(picks.tolist()) and large.values is None
    finally:
        corpus_module.LISTED_MAX = before
    assert [t for _, batch in listed.batches(2) for t in batch] == whole


def test_a_subset_keeps_its_units_and_their_folds(tiny: Corpus) -> None:
    rows = [5, 0, 3]
    folded = list(tiny.folded_targets)  # folds made before the subset are gathered, not made again
    part = tiny.subset(rows)
    assert list(part.unit_ids) == [tiny.unit_ids[i] for i in rows]
    assert list(part.folded_targets) == [folded[i] for i in rows] == [fold_count(mask_code(tiny.targets[i])) for i in rows]
    assert list(part.folded_sources) == [fold_count(mask_code(tiny.sources[i])) for i in rows]
    tiny.release_folds()
    assert list(tiny.folded_targets) == folded
    assert len(tiny.subset([])) == 0 and list(tiny.subset([]).folded_sources) == []


def test_a_corpus_from_lists_and_one_from_another_corpus_hold_the_same_units(tiny: Corpus) -> None:
    again = Corpus(tiny.unit_ids, tiny.sources, list(tiny.targets), tiny.src_lang, tiny.tgt_lang)
    assert again.frame.drop("domain", "tm_file", "tm_ordinal").equals(tiny.frame.drop("domain", "tm_file", "tm_ordinal"))
    assert again.tm_order is None and tiny.tm_order is not None  # lists carry no TM order unless given one
    assert again.domains == [None] * len(tiny)


def test_the_hashed_sample_is_the_units_with_the_smallest_id_hash(tiny: Corpus) -> None:
    ids = list(tiny.unit_ids)
    by_hash = sorted(range(len(ids)), key=lambda i: hashlib.sha1(ids[i].encode()).hexdigest())
    for limit in (1, 5, len(ids) - 1):
        assert hashed_sample(tiny, limit) == sorted(by_hash[:limit])
    assert hashed_sample(tiny, len(ids)) == list(range(len(ids)))
    twins = Corpus(["b", "a", "b", "c", "b"], ["s"] * 5, ["t"] * 5, "en", "fr")  # equal ids: first positions win
    expected = sorted(sorted(range(5), key=lambda i: hashlib.sha1(twins.unit_ids[i].encode()).hexdigest())[:2])
    assert hashed_sample(twins, 2) == expected


def test_texts_are_folded_with_their_code_spans_blanked() -> None:
    """A term in a msgid key, a placeholder or a URL is no occurrence of it, nor a rendering in a
    target's URL: the miner counts units as the checker reads them (``code_spans.trigger_text``,
    ``entry_text``)."""
    corpus = Corpus(["a", "b"], ["heading_group_members", "The Group of {group} at http://x.org/group"],
                    ["Membres", "Le groupe de {group} sur http://x.org/groupe"], "en", "fr")
    assert [t.split() for t in corpus.folded_sources] == [[], ["the", "group", "of", "at"]]
    assert [t.split() for t in corpus.folded_targets] == [["membres"], ["le", "groupe", "de", "sur"]]
