"""placeholder: the same multiset of placeholders and inline tokens."""

from __future__ import annotations

from pipelines.conventions.model import Convention
from pipelines.scoring.check import check_item

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
    assert check_item(default, "50% of people", "50 % des gens") is None  # '% o' is not a placeholder
