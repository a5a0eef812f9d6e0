"""The four match modes and their maps back to raw offsets."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from housestyle.pipelines.conventions.folding import TYPOGRAPHIC_TABLE, fold_text, fold_with_map

MODES = ("exact", "caseless", "typographic", "nfkc")


def test_fold_tables_as_spec() -> None:
    assert fold_text("Masse D’Air", "caseless") == "masse d’air"
    assert fold_text("Masse D’Air", "typographic") == "masse d'air"
    assert fold_text("“a” „b‟ ″", "typographic") == '"a" "b" "'
    assert fold_text("‐‑‒–—−", "typographic") == "------"
    spaces = "\u00a0\u202f\u2007\u2009" + "".join(chr(c) for c in range(0x2000, 0x200B))
    assert fold_text(spaces, "typographic") == " " * len(spaces)
    assert fold_text("«（ｘ）»", "typographic") == "«（ｘ）»"  # width and guillemets kept
    assert fold_text("（ｘ）ﬁ", "nfkc") == "(x)fi"
    assert fold_text("Straße", "caseless") == "strasse"
    assert all(len(v) == 1 for v in TYPOGRAPHIC_TABLE.values())


def test_casefold_expansion_maps_back_to_the_raw_character() -> None:
    folded = fold_with_map("Die Straße hier", "caseless")
    assert folded.text == "die strasse hier"
    start = folded.text.index("strasse")
    assert folded.raw_span(start, start + 7) == (4, 10)  # "Straße" in the raw text
    # a span ending inside the expanded ß covers the whole raw ß
    assert folded.raw_span(start + 4, start + 5) == (8, 9)


def test_nfkc_map_covers_ligatures_and_fullwidth() -> None:
    raw = "ﬁn （ｘ） e\u0301"
    folded = fold_with_map(raw, "nfkc")
    assert folded.text == "fin (x) é"
    i = folded.text.index("(x)")
    assert raw[slice(*folded.raw_span(i, i + 3))] == "（ｘ）"
    j = folded.text.index("é")
    assert raw[slice(*folded.raw_span(j, j + 1))] == "e\u0301"


text_st = st.text(
    alphabet=st.sampled_from(list("aAßẞİıΣσς ﬁﬂ（）ｘ’'‘“”–—\u00a0\u202f e\u0301\u0301가각ᄀ\u1161!?:;0123") + ["ǅ", "ŉ", "ΐ"]),
    max_size=30,
)


@settings(max_examples=300, deadline=None)
@given(text=text_st, mode=st.sampled_from(MODES))
def test_map_is_consistent_with_plain_fold(text: str, mode: str) -> None:
    folded = fold_with_map(text, mode)
    assert folded.text == fold_text(text, mode)
    if folded.starts is not None and folded.ends is not None:
        assert len(folded.starts) == len(folded.ends) == len(folded.text)
        assert list(folded.starts) == sorted(folded.starts)
        for i in range(len(folded.text)):
            start, end = folded.raw_span(i, i + 1)
            assert 0 <= start <= end <= len(text)


@pytest.mark.parametrize("mode", ["caseless", "typographic"])
@settings(max_examples=200, deadline=None)
@given(text=text_st)
def test_per_character_fold_equals_whole_string_fold(mode: str, text: str) -> None:
    # the offset map assumes casefold is context free; this checks it on tricky characters
    assert "".join(fold_text(c, mode) for c in text) == fold_text(text, mode)
