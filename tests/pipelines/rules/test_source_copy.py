"""source_copy: spans matched by src in the source must appear verbatim in the output."""

from __future__ import annotations

from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.scoring.check import check_item

URLS = Convention(dimension="copy:urls", rule="source_copy", src=r"https?://\S+", src_regex=True)


def test_every_span_required_verbatim() -> None:
    src = "See https://a.org/x and http://b.net."
    v = check_item(URLS, src, "Voir https://a.org/x et http://b.net.")
    assert v is not None and v.full_pass
    v = check_item(URLS, src, "Voir https://a.org/X.")
    assert v is not None
    assert v.missing_expected == ["https://a.org/x", "http://b.net."]
    assert check_item(URLS, "no link", "x") is None


def test_caseless_trigger_still_copies_raw_source_text() -> None:
    conv = Convention(dimension="copy:brand", rule="source_copy", src="firefox", src_match_mode="caseless", match_mode="exact")
    v = check_item(conv, "Open FireFox now", "Ouvrez Firefox")
    assert v is not None and v.missing_expected == ["FireFox"]


def test_span_inside_a_word_is_looked_up_as_a_substring() -> None:
    conv = Convention(dimension="copy:code", rule="source_copy", src=r"\d+", src_regex=True)
    v = check_item(conv, "COVID19 and 42", "COVID19 et 42")
    assert v is not None and v.full_pass
