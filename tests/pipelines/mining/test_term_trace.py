"""The term trace (pipelines/mining/term_trace.py): one row per source term the miner considered,
with the decision and the figures that made it, sealed in the set as term_trace.parquet."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest

from housestyle.pipelines.mining.set_writer import write_set
from housestyle.pipelines.mining.corpus import Corpus
from housestyle.pipelines.mining.merge import MiningResult, empty_evidence
from housestyle.pipelines.mining.mine import mine_corpus
from housestyle.pipelines.mining.params import MiningParams
from housestyle.pipelines.mining.term_explain import explain
from housestyle.pipelines.mining.term_rules import mine_terms
from housestyle.pipelines.mining.term_trace import TRACE_FILE, TRACE_SCHEMA, _list_series


def test_every_candidate_has_one_decision_and_every_rule_its_row(tiny: Corpus) -> None:
    result = mine_corpus(tiny)
    trace = result.term_trace
    assert trace is not None and trace.schema == TRACE_SCHEMA
    assert trace.height == trace["src"].n_unique() > 0  # one row per term (one language pair)
    assert not trace["why"].str.contains("\n").any() and trace["decision"].null_count() == 0
    rules = {c.dimension.removeprefix("term:"): c.convention_id for c in result.conventions if c.rule == "term"}
    written = dict(trace.filter(pl.col("decision") == "rule").select("src", "convention_id").iter_rows())
    assert written == rules
    rejected = trace.filter(pl.col("decision") == "rejected")
    assert rejected.height and rejected["filter"].null_count() == 0 and (rejected["figures"].str.len_chars() > 0).all()
    stats = result.stats["term"]
    for name, count in rejected["filter"].value_counts().iter_rows():
        assert stats[name] == count, name  # the trace and the statistics tell the same story


def test_a_threshold_that_decides_is_named_with_its_figure(tiny: Corpus) -> None:
    result = mine_terms(tiny, MiningParams().with_({"terms.min_support": 4}))
    assert result.trace_frame is not None
    row = result.trace_frame.filter(pl.col("src") == "devices").row(0, named=True)
    assert row["decision"] == "rejected" and row["filter"] == "low_support"
    assert row["figures"] == "support 3 < terms.min_support 4"
    assert "rejected by low_support (chosen 'appareil'): support 3 < terms.min_support 4" in row["why"]
    assert row["units"] == 3 and len(row["unit_ids"]) == 3


def test_the_set_seals_the_trace(tiny: Corpus, tmp_path: Path) -> None:
    result = mine_corpus(tiny)
    written = write_set(result, client="fx", rules_out=tmp_path, inputs={"tm": "0" * 64}, params={}, split=None,
                        src_lang="en", tgt_lang="fr")
    manifest = json.loads((written.path / "manifest.json").read_text(encoding="utf-8"))
    assert TRACE_FILE in manifest["files"]
    assert pl.read_parquet(written.path / TRACE_FILE).equals(result.term_trace)
    # a result without a trace (e.g. authored rules only) still writes the file, empty
    bare = write_set(MiningResult([], empty_evidence()), client="bare", rules_out=tmp_path, inputs={}, params={},
                     split=None, src_lang="en", tgt_lang="fr")
    assert pl.read_parquet(bare.path / TRACE_FILE).height == 0


@pytest.mark.shared_data
def test_real_terms_of_the_dev_split(tico_dev: Corpus, tmp_path: Path) -> None:
    """TICO-19 en→fr dev split, terms in no gold list (checked with /tmp/goldcheck.sh)."""
    terms = mine_terms(tico_dev, MiningParams())
    result = MiningResult(terms.conventions, empty_evidence(), terms.conflicts, {}, [], terms.trace_frame)
    written = write_set(result, client="dev", rules_out=tmp_path, inputs={}, params={}, split="dev",
                        src_lang="en", tgt_lang="fr")
    for term, expected in REAL_TERMS.items():
        assert expected in explain(written.path, term), term


# term -> a line its explanation holds (dev split decisions, this miner)
REAL_TERMS: dict[str, str] = {
    "Countries": "countries [en→fr]: rule",
    "including": "including [en→fr]: no_rendering",
    "generally": "generally [en→fr]: rejected (no_majority)\n  why: coverage 0.50 <= terms.min_consistency 0.5, a tie",
    "ability": "ability [en→fr]: rejected (general_word)\n  why: a general word (zipf 5.0 >= terms.general_zipf 4.0), coverage 0.60",
    "of countries": "the miner never considered it (not a candidate: it starts or ends with 'of'",
}


def test_list_columns_built_through_arrow_are_polars_own() -> None:
    renderings = [[], [{"lemma_key": "taux", "form": "taux", "support": None, "coverage": None, "aligned": 3},
                       {"lemma_key": "prix", "form": "prix", "support": 2, "coverage": 0.5, "aligned": 1}], []]
    unit_ids: list[list[str]] = [["u1", "u2"], [], ["é"]]
    for name, rows in (("renderings", renderings), ("unit_ids", unit_ids)):
        assert _list_series(name, rows).equals(pl.Series(name, rows, dtype=TRACE_SCHEMA[name]), check_dtypes=True)
