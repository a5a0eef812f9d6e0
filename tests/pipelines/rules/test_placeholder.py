"""placeholder: the same multiset of placeholders and inline tokens."""

from __future__ import annotations

from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.rules.placeholder import MARKUP_PATTERN
from housestyle.pipelines.scoring.check import check_item

CONV = Convention(dimension="placeholder:integrity", rule="placeholder",
                  params={"patterns": [r"\{\d+\}", r"%\(\w+\)s"]})


def test_same_multiset_passes_in_any_order() -> None:
    v = check_item(CONV, "⟨g1⟩Open {0}⟨/g1⟩ for %(name)s ⟨x2/⟩", "Pour %(name)s, ⟨x2/⟩ ⟨g1⟩ouvrir {0}⟨/g1⟩")
    assert v is not None and v.full_pass


def test_missing_and_extra_tokens() -> None:
    v = check_item(CONV, "{0} and {1} ⟨x1/⟩", "{0} et {0} ⟨x1/⟩ ⟨x1/⟩")
    assert v is not None
    assert v.missing_expected == ["{1}"]
    assert v.found_wrong == ["{0}", "⟨x1/⟩"]
    assert v.spans == [(7, 10), (17, 22)]


def test_default_patterns_and_applicability() -> None:
    default = Convention(dimension="placeholder:integrity", rule="placeholder")
    v = check_item(default, "Hello %s, you have %d items in {cart}", "Bonjour %s, vous avez %d articles dans {cart}")
    assert v is not None and v.full_pass
    v = check_item(default, "50% of people", "50 % des gens")  # '% o' is not a placeholder
    assert v is not None and v.full_pass  # applies (no src: every segment), nothing to carry


def test_a_token_the_output_adds_fails_also_where_the_source_has_none() -> None:
    default = Convention(dimension="placeholder:integrity", rule="placeholder")
    v = check_item(default, "Hello there.", "Bonjour {0}.")
    assert v is not None and not v.full_pass
    assert (v.missing_expected, v.found_wrong, v.spans) == ([], ["{0}"], [(8, 11)])
    v = check_item(default, "Hello there.", "Bonjour ⟨x1/⟩.")  # inline codes are always checked
    assert v is not None and v.found_wrong == ["⟨x1/⟩"]


def test_without_src_every_segment_is_scored_whatever_the_output() -> None:
    """The denominator is a property of the sources: two systems over the same sources are scored on
    the same items, whether or not their outputs hold tokens."""
    from housestyle.pipelines.scoring.engine import score_systems

    sources = {"a": "Hello there.", "b": "Open {0}", "c": "Plain text"}
    clean = {"a": "Bonjour.", "b": "Ouvrir {0}", "c": "Texte"}
    noisy = {"a": "Bonjour {0}.", "b": "Ouvrir", "c": "Texte %s"}
    result = score_systems([CONV, Convention(dimension="placeholder:default", rule="placeholder")], sources,
                           {"clean": clean, "noisy": noisy})
    rows = {(r["system"], r["dimension"]): (r["scored"], r["passed"]) for r in result.scores.iter_rows(named=True)}
    assert rows[("clean", "placeholder:integrity")] == (3, 3)
    assert rows[("noisy", "placeholder:integrity")] == (3, 1)  # b lost {0}, a added one; %s is not in CONV's patterns
    assert rows[("noisy", "placeholder:default")] == (3, 0)  # ... but is in the defaults


def test_with_src_the_trigger_alone_decides() -> None:
    conv = Convention(dimension="placeholder:x", rule="placeholder", src="Open")
    assert check_item(conv, "Close", "Fermer {0}") is None
    v = check_item(conv, "Open it", "Ouvrir {0}")
    assert v is not None and v.found_wrong == ["{0}"]


MARKUP = Convention(dimension="placeholder:markup", rule="placeholder", params={"patterns": [MARKUP_PATTERN]})


def test_markup_written_as_text_is_carried_and_may_be_reordered() -> None:
    source = 'Visit <a href="x">our page</a> and <em>will</em> <br/>'
    v = check_item(MARKUP, source, '<em>Visitez</em> <a href="x">notre page</a> <br/>')
    assert v is not None and v.full_pass  # paired tags reordered: allowed
    v = check_item(MARKUP, source, 'Visitez <a href="x">notre page</a> <br/>')
    assert v is not None and v.missing_expected == ["<em>", "</em>"]
    v = check_item(MARKUP, source, 'Visitez <a href="y">notre page</a> <em>x</em> <br/>')
    assert v is not None and v.missing_expected == ['<a href="x">'] and v.found_wrong == ['<a href="y">']


def test_text_that_only_looks_like_markup_is_not_a_tag() -> None:
    for text in ("if a < b and c > d", "1 <2> 3", "<-- back", "x<>y", "< p>"):
        v = check_item(MARKUP, "plain", text)
        assert v is not None and v.full_pass, text


def test_a_link_localised_for_the_target_language_is_the_same_tag() -> None:
    """Django fr (issue 25 held-out failures): the translator keeps the tag and points its docs link
    at /fr/; another change of the tag still fails."""
    conv = Convention(dimension="placeholder:integrity", rule="placeholder", params={"patterns": [MARKUP_PATTERN]},
                      src_lang="en", tgt_lang="fr-FR")
    source = ('View <a href="https://docs.djangoproject.com/en/%(version)s/releases/" target="_blank" '
              'rel="noopener">release notes</a> for Django %(version)s')
    output = ('Afficher les <a href="https://docs.djangoproject.com/fr/%(version)s/releases/" target="_blank" '
              'rel="noopener">notes de publication</a> de Django %(version)s')
    v = check_item(conv, source, output)
    assert v is not None and v.full_pass
    broken = output.replace("/releases/", "/faq/")
    bad = check_item(conv, source, broken)
    assert bad is not None and not bad.full_pass
    assert bad.missing_expected == [source[source.index("<a"):source.index(">") + 1]]
    other_pair = Convention(dimension="placeholder:integrity", rule="placeholder", params={"patterns": [MARKUP_PATTERN]},
                            src_lang="en", tgt_lang="de")
    wrong = check_item(other_pair, source, output)  # /fr/ in a German output is no localisation
    assert wrong is not None and not wrong.full_pass
