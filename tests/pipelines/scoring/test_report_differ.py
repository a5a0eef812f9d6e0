"""The report shows what a failed item misses by its literal forms, never the regex entry."""

from __future__ import annotations

from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.mining.inflection import alternatives
from housestyle.pipelines.scoring.report_differ import _example_row


def test_a_missing_regex_entry_is_shown_by_its_literal_forms() -> None:
    entry, is_regex = alternatives(["porte-clé", "porte-clés"])
    assert is_regex and "(?<!" in entry  # the miner's entry carries the word-boundary lookarounds
    conv = Convention(dimension="term:key ring", rule="term", src="key ring", expected_terms=[entry],
                      regex=True, src_lang="en", tgt_lang="fr")
    failure = {"system": "mt", "dimension": conv.dimension, "convention_id": conv.convention_id, "segment_id": "s1",
               "output": "un anneau", "spans": [], "missing_expected": [entry], "found_wrong": []}
    html = _example_row(conv.dimension, 3, ["mt"], {("mt", conv.dimension): {"scored": 1, "passed": 0}},
                        {("mt", conv.dimension): [failure]}, [conv.to_dict()])
    assert "missing: <code>porte-clé</code>, <code>porte-clés</code>" in html
    assert "(?&lt;!" not in html
