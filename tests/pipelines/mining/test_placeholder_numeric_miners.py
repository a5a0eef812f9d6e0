"""The placeholder and numeric miners: markup written as text becomes a placeholder pattern, and
number formats are learned with the checker's number grammar."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import polars as pl

from housestyle.pipelines.ingest import ingest_files
from housestyle.pipelines.mining.corpus import Corpus, corpus_from_units
from housestyle.pipelines.mining.mine import proposer_group
from housestyle.pipelines.mining.numeric import learn_formats
from housestyle.pipelines.mining.params import MiningParams
from housestyle.pipelines.mining.placeholder import mine_placeholder
from housestyle.pipelines.rules.placeholder import MARKUP_PATTERN
from housestyle.pipelines.scoring.check import check_item

MakeCorpus = Callable[[list[tuple[str, str]]], Corpus]
TAGGED = [
    ('Read <a href="/terms">the terms</a>.', 'Lisez <a href="/terms">les conditions</a>.'),
    ("This <em>will</em> help.", "Cela <em>aidera</em>."),
    ("Press <b>Save</b> now.", "Appuyez sur <b>Enregistrer</b>."),
    ("Line one<br/>line two", "Ligne un<br/>ligne deux"),
]
PLAIN = [(f"plain sentence {i}", f"phrase simple {i}") for i in range(20)]


def _placeholder(corpus: Corpus) -> object | None:
    mined, _ = proposer_group(corpus, ("placeholder",), MiningParams())
    return next((m for m in mined if m.conv.rule == "placeholder"), None)


def test_markup_in_the_sources_becomes_a_placeholder_pattern(make_corpus: MakeCorpus) -> None:
    found = _placeholder(make_corpus(TAGGED + PLAIN))
    assert found is not None
    rule = found.conv  # type: ignore[attr-defined]
    assert rule.params == {"patterns": [MARKUP_PATTERN]}
    # evidence: the units whose target shows a tag, not the 20 that pass because neither side has one
    assert (rule.support, rule.consistency) == (4, 1.0)
    dropped = check_item(rule, "This <em>will</em> help.", "Cela aidera.")
    assert dropped is not None and dropped.missing_expected == ["<em>", "</em>"]
    swapped = check_item(rule, "<b>Save</b> <em>now</em>", "<em>maintenant</em> <b>Enregistrer</b>")
    assert swapped is not None and swapped.full_pass  # paired tags may be reordered


def test_too_little_markup_proposes_nothing(make_corpus: MakeCorpus) -> None:
    corpus = make_corpus(TAGGED[:2] + PLAIN)
    assert mine_placeholder(corpus, list(range(len(corpus))), MiningParams()) == []  # 2 units < min support 3


def test_a_tm_that_drops_its_tags_gets_no_rule(make_corpus: MakeCorpus) -> None:
    lossy = [(s, t.replace("<em>", "").replace("</em>", "").replace("<b>", "").replace("</b>", "")) for s, t in TAGGED]
    assert _placeholder(make_corpus(lossy + PLAIN)) is None  # 2 of 4 tagged units keep their tags: < 0.9


def test_po_text_keeps_its_markup_from_file_to_rule(tmp_path: Path) -> None:
    """A PO file (plain-text format): ingest keeps the tags as text, the miner proposes the pattern."""
    entries = "".join(f'msgid "{s}"\nmsgstr "{t}"\n\n' for s, t in [(s.replace('"', '\\"'), t.replace('"', '\\"'))
                                                                  for s, t in TAGGED + PLAIN[:5]])
    po = tmp_path / "fr" / "LC_MESSAGES" / "site.po"
    po.parent.mkdir(parents=True)
    po.write_text('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Language: fr\\n"\n\n' + entries,
                  encoding="utf-8")
    ingest_files([po], client="t", out_dir=tmp_path / "units")
    units = pl.read_parquet(tmp_path / "units" / "tm_units.parquet")
    assert any("This <em>will</em> help." == s for s in units["source"])
    found = _placeholder(corpus_from_units(units, "en", "fr"))
    assert found is not None and MARKUP_PATTERN in found.conv.params["patterns"]  # type: ignore[attr-defined]


def test_identifiers_teach_nothing_about_number_formats(make_corpus: MakeCorpus) -> None:
    pairs = [("version 3.2.1", "version 3.2.1"), ("ID 20-0097189", "ID 20-0097189"), ("call 1-800-555-0199", "appel 1-800-555-0199"),
             ("it is 4.5 km", "c'est 4,5 km"), ("12,000 people", "12 000 personnes"), ("CI 3.51-4.05", "IC 3,51-4,05")]
    decimals, groups = learn_formats(make_corpus(pairs), list(range(len(pairs))))
    assert dict(decimals) == {",": 3}  # 4.5, and both sides of the range; never the dots of 3.2.1
    assert dict(groups) == {" ": 1}
