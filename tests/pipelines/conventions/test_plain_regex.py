"""plain_regex: a regex entry bounded like a plain string, so the checker gives a plain entry and its
one-form regex the same verdict (SPEC §2: hyphen-joined words are one word, apostrophes are
boundaries, no boundary in the no-space scripts)."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from housestyle.pipelines.conventions.compiled import make_entry
from housestyle.pipelines.conventions.folding import fold_text
from housestyle.pipelines.conventions.matching import HYPHENS, find_plain, is_no_space_script, no_space_target, plain_regex

MODES = ["exact", "caseless", "typographic", "nfkc"]
# Pieces of text: words, the raw hyphens, the other dashes the folds write as "-", apostrophes,
# spaces (NBSP too), an underscore, a decomposed accent, digits, Cyrillic, Han, Thai.
PIECES = ["virus", "anti", "Virus", "covid", "19", "l", "e\u0301", "\u0301", "-", "\u2010", "\u2011", "\u2012", "–",
          "—", "−", "\uff0d", "'", "’", "ʼ", " ", "\u00a0", "_", ".", "вирус", "疫苗", "ไวรัส", "x", "é"]
LITERALS = ["virus", "anti-virus", "covid-19", "covid", "l'virus", "вирус", "疫苗", "ไวรัส", "virus 19", "é", "-virus", "x"]
texts = st.lists(st.sampled_from(PIECES), max_size=8).map("".join)
# Dashes a fold may write as "-" although they are no hyphen of the raw text.
_NOT_HYPHENS = "\u2012–—−\ufe63\uff0d"


def _ambiguous(raw: str, mode: str) -> bool:
    """Whether the fold of ``mode`` wrote a non-hyphen dash as "-" (only the raw text tells it then)."""
    return mode in ("typographic", "nfkc") and any(c in raw for c in _NOT_HYPHENS)


@settings(max_examples=400, deadline=None)
@given(raw=texts, literal=st.sampled_from(LITERALS), mode=st.sampled_from(MODES))
def test_the_checker_gives_a_plain_entry_and_its_one_form_regex_one_verdict(raw: str, literal: str, mode: str) -> None:
    folded = fold_text(raw, mode)
    plain = make_entry(literal, mode, regex=False)
    bounded = make_entry(plain_regex([literal], mode, no_space_neighbours=True), mode, regex=True)
    # The cheaper boundary (a target not written in a no-space script): exact on every text without
    # Han/Kana/Thai, stricter beside them.
    spaced = make_entry(plain_regex([literal], mode, no_space_neighbours=False), mode, regex=True)
    if not any(is_no_space_script(c) for c in raw + literal):
        assert spaced.find(folded, first_only=True) == bounded.find(folded, first_only=True)
    elif bounded.find(folded, first_only=True) == []:
        assert spaced.find(folded, first_only=True) == []
    # On the folded text alone (every folded "-" a hyphen) the two are the same matcher, spans included.
    alone = find_plain(folded, fold_text(literal, mode), mode=mode, first_only=True)
    assert bounded.find(folded, first_only=True) == alone
    # With the raw text at hand the checker agrees wherever the fold kept dashes apart.
    if not _ambiguous(raw, mode):
        assert bounded.present(folded, raw) == plain.present(folded, raw)


@settings(max_examples=200, deadline=None)
@given(raw=texts, literals=st.lists(st.sampled_from(LITERALS), min_size=1, max_size=4), mode=st.sampled_from(MODES))
def test_an_alternation_matches_where_one_of_its_literals_would(raw: str, literals: list[str], mode: str) -> None:
    folded = fold_text(raw, mode)
    want = any(find_plain(folded, fold_text(x, mode), mode=mode, first_only=True) for x in literals)
    assert bool(re.search(plain_regex(literals, mode, no_space_neighbours=True), folded)) == want


def test_hyphen_joined_words_are_one_word_unlike_python_backslash_b() -> None:
    rule = re.compile(plain_regex(["virus", "viruses"], "typographic", no_space_neighbours=True))
    assert re.search(r"\bvirus\b", "anti-virus") and not rule.search("anti-virus")
    assert not rule.search("virus-like") and not rule.search("sars‑virus")  # U+2011 as well
    assert rule.search("l'virus") and rule.search("l’virus".replace("’", "'")) and rule.search("virus.")
    assert rule.search("le virus – et") and rule.search("疫苗virus")  # a spaced dash; a Han neighbour
    assert not rule.search("virusé") and not rule.search("e\u0301virus")  # a letter, a combining accent


def test_only_the_edges_a_plain_string_checks_are_bounded() -> None:
    assert plain_regex(["-19"], "exact").startswith(re.escape("-"))  # a hyphen edge: never checked
    assert plain_regex(["疫苗"], "exact") == "疫苗"
    mixed = plain_regex(["-19", "19"], "exact")
    assert re.search(mixed, "covid-19") and not re.search(mixed, "x19")


def test_a_raw_dash_the_fold_writes_as_a_hyphen_is_the_one_case_only_the_raw_text_tells() -> None:
    raw = "covid–19"  # an en dash: a boundary for the plain string, which sees the raw text
    folded = fold_text(raw, "typographic")
    assert folded == "covid-19" and "–" not in HYPHENS
    assert make_entry("covid", "typographic", regex=False).present(folded, raw)
    assert not make_entry(plain_regex(["covid"], "typographic"), "typographic", regex=True).present(folded, raw)


def test_the_exact_no_space_boundary_is_written_for_targets_in_those_scripts() -> None:
    """Beside a Han character a plain entry matches (no boundary in no-space scripts); the regex of a
    zh/ja/th target keeps that, others are stricter there, and cheap to compile."""
    folded = fold_text("新冠covid-19疫情", "typographic")
    zh = plain_regex(["covid-19", "covid-19s"], "typographic", no_space_neighbours=no_space_target("zh-CN"))
    fr = plain_regex(["covid-19", "covid-19s"], "typographic", no_space_neighbours=no_space_target("fr"))
    assert re.search(zh, folded) and not re.search(fr, folded)
    assert len(fr) < len(zh) / 3
    assert plain_regex(["疫苗", "疫苗x"], "exact") == plain_regex(["疫苗", "疫苗x"], "exact", no_space_neighbours=True)
