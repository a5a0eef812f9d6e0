"""Code spans are blanked before a term trigger matches (issue 25: ``{user}`` triggered ``user``)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from housestyle.pipelines.conventions.code_spans import CODE_SPAN_HINT, CODE_SPAN_RE, mask_code
from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.scoring.check import applies
from housestyle.pipelines.scoring.engine import score_systems


@pytest.mark.parametrize("text", [
    "Hello {user}", "Hello { $user }", "Hello {user, select, other}", "Hello %(user)s", "Hello %1$s / %1",
    "Hello <user>", "Hello ⟨g1⟩", "Hello {{ user }}", "Hello {% user %}", "Hello ${user}", "Hello https://x.org/user",
    "Hello {user, plural, one", "Hello %(user)r", "Hello %(user)a", "Hello label_user_name", "Hello user_add",
    "Hello plone.user", "Hello user.portlets.", "Hello ${action/user}",  # a TAL path (Plone: ${action/title})
])
def test_code_spans_are_blanked_with_offsets_kept(text: str) -> None:
    masked = mask_code(text)
    assert len(masked) == len(text) and masked.startswith("Hello") and "user" not in masked


@pytest.mark.parametrize("text", ["50 % des utilisateurs", "user", "100 %ruser", "user %r", "a < b and c > d", "{# user}",
                                  "user-_x", "_user_", "user_", "user.Next", "Hello user. Next"])
def test_text_stays(text: str) -> None:
    assert "user" not in text or "user" in mask_code(text)
    assert mask_code(text).strip() or not text.strip()


def test_a_placeholder_does_not_trigger_its_term_rule_in_the_engine_or_the_reference() -> None:
    conv = Convention(dimension="term:user", rule="term", src="user", expected_terms=["utilisateur"])
    assert not applies(conv, "Welcome, {user}!") and applies(conv, "Welcome, user {name}!")
    result = score_systems([conv], {"s1": "Welcome, {user}!", "s2": "Welcome, user {name}!"},
                           {"mt": {"s1": "Bienvenue, {user} !", "s2": "Bienvenue, utilisateur {name} !"}})
    (row,) = result.dimension_scores.filter(result.dimension_scores["dimension"] == "term:user").iter_rows(named=True)
    assert (row["scored"], row["passed"]) == (1, 1)


def test_a_msgid_key_as_source_triggers_no_term_rule() -> None:
    """Plone keys units by msgids (``folder_add_more``): an identifier is code, not the word folder."""
    conv = Convention(dimension="term:folder", rule="term", src="folder", expected_terms=["Ordner"])
    assert not applies(conv, "folder_add_more") and applies(conv, "Move to top of folder")


def test_a_term_reads_the_output_with_its_code_spans_blanked_in_the_engine_and_the_reference() -> None:
    """A placeholder glued to the rendering leaves it whole ("%sexterne": Sphinx fr's held-out
    failure); a rendering only inside a placeholder or a URL is not there. Spans stay raw offsets."""
    from housestyle.pipelines.scoring.check import check_item
    conv = Convention(dimension="term:external", rule="term", src="external", expected_terms=["externe"])
    outputs = {"glued": "%sexterne : cible", "inside": "cible {externe} et https://x.org/externe", "plain": "lien externe"}
    sources = {k: "external %s: target" for k in outputs}
    for seg, output in outputs.items():
        got = check_item(conv, sources[seg], output)
        assert got is not None and got.full_pass is (seg != "inside"), seg
    result = score_systems([conv], sources, {"mt": outputs})
    assert result.failures["segment_id"].to_list() == ["inside"]
    assert result.failures["output"].to_list() == [outputs["inside"]]  # the raw output, not the masked one
    wrong = Convention(dimension="term:external", rule="term", src="external", expected_terms=["externe"],
                       wrong_variants=["extérieur"])
    found = score_systems([wrong], {"s": "external %s"}, {"mt": {"s": "{x}extérieur externe"}}).failures
    assert found["spans"].to_list() == [[{"start": 3, "end": 12}]]  # offsets into the raw output


# Texts made of the characters the code spans are built from, so that spans occur often.
_CODE_TEXTS = st.lists(st.sampled_from([*"aAzZ09_.%$({})<>&;#x⟨⟩/:-,sdr @wh\ntp", "http://", "www.", "plural"]),
                       max_size=30).map("".join)


@settings(max_examples=3000, deadline=None)
@given(_CODE_TEXTS)
def test_every_code_span_holds_the_hint(text: str) -> None:
    """The shortcut in ``mask_code`` (no hint: nothing to mask) never skips a span the full search finds."""
    for match in CODE_SPAN_RE.finditer(text):
        assert CODE_SPAN_HINT.search(match.group()), match.group()
    assert mask_code(text) == CODE_SPAN_RE.sub(lambda m: " " * len(m.group()), text)
