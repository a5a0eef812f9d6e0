"""Language tags: kept as written, normalised for grouping (case, separator), never merged across variants."""

from __future__ import annotations

import pytest

from housestyle.pipelines.langtags import LanguageTagError, normalise_tag, same_language, try_normalise


@pytest.mark.parametrize(
    ("written", "normalised"),
    [
        ("fr_FR", "fr-FR"),
        ("zh", "zh"),
        ("es-LA", "es-LA"),
        ("es-419", "es-419"),
        ("En-uS", "en-US"),
        ("FR-CA", "fr-CA"),
        ("zh-hans-cn", "zh-Hans-CN"),
        ("pt_BR.UTF-8", "pt-BR"),
        ("sr@latin", "sr-Latn"),
        ("de_DE@euro", "de-DE"),
        ("en-US-x-twain", "en-US-x-twain"),
        (" ru ", "ru"),
    ],
)
def test_normalise_tag(written: str, normalised: str) -> None:
    assert normalise_tag(written) == normalised


def test_variants_stay_distinct() -> None:
    assert normalise_tag("zh") != normalise_tag("zh-CN")
    assert normalise_tag("es-LA") != normalise_tag("es-419")


@pytest.mark.parametrize("bad", ["", "   ", "en US", "fr--FR", "*all*", "français"])
def test_unreadable_tags(bad: str) -> None:
    with pytest.raises(LanguageTagError):
        normalise_tag(bad)
    assert try_normalise(bad) is None


def test_try_normalise_none_and_same_language() -> None:
    assert try_normalise(None) is None
    assert same_language("fr_fr", "FR-fr")
    assert not same_language("fr", "fr-FR")
    assert not same_language(None, None)


def test_primary_subtag_is_the_language_as_written() -> None:
    from housestyle.pipelines.langtags import primary_subtag

    assert [primary_subtag(t) for t in ("de_CH", "FR-ca", "zh-Hans-CN", "", None)] == ["de", "fr", "zh", "", ""]
