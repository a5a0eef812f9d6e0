"""casing: sentence/title style and fixed casing of kept names."""

from __future__ import annotations

from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.scoring.check import check_item


def casing(**params: object) -> Convention:
    return Convention(dimension="casing:x", rule="casing", params=dict(params))


def test_sentence_style_first_word() -> None:
    conv = casing(style="sentence")
    assert check_item(conv, "Hello", "Bonjour à tous").full_pass  # type: ignore[union-attr]
    v = check_item(conv, "Hello", "« bonjour » à tous")
    assert v is not None and v.found_wrong == ["bonjour"] and v.spans == [(2, 3)]
    assert check_item(conv, "Hi", "⟨g1⟩Bonjour⟨/g1⟩").full_pass  # type: ignore[union-attr]
    assert check_item(conv, "Hi", "你好").full_pass  # type: ignore[union-attr]


def test_strict_sentence_style_flags_capitalised_words() -> None:
    conv = casing(style="sentence", strict=True, keep=["Firefox"])
    v = check_item(conv, "Connection Settings", "Paramètres De connexion. Voir Firefox et l'API")
    assert v is not None and v.found_wrong == ["De"]


def test_title_style() -> None:
    conv = casing(style="title", minor_words=["of", "the"])
    assert check_item(conv, "x", "The Art of the Deal").full_pass  # type: ignore[union-attr]
    v = check_item(conv, "x", "The art of the Deal")
    assert v is not None and v.found_wrong == ["art"]


def test_keep_names_apply_only_when_source_has_them() -> None:
    conv = casing(keep=["Firefox", "API"])
    assert check_item(conv, "Open the browser", "Ouvrez firefox") is None
    v = check_item(conv, "Open Firefox and the api", "Ouvrez FireFox et l'Api")
    assert v is not None
    assert v.found_wrong == ["FireFox", "Api"]
    assert v.spans == [(7, 14), (20, 23)]


def test_strict_sentence_style_leaves_names_units_and_glued_letters_alone() -> None:
    conv = casing(style="sentence", strict=True)
    # copied as written from the source: a name (Mozilla VPN held-out: Kuala Lumpur, Buenos Aires)
    assert check_item(conv, "Kuala Lumpur", "Kuala Lumpur").full_pass  # type: ignore[union-attr]
    assert check_item(conv, "Streaming in 4K", "Streaming en 4K").full_pass  # type: ignore[union-attr]
    assert check_item(conv, "Fast Speeds", "Débit de 5 GHz").full_pass  # type: ignore[union-attr]
    v = check_item(conv, "Open System Settings", "Ouvrir les Réglages système")
    assert v is not None and v.found_wrong == ["Réglages"]  # not in the source, a plain capital: still wrong


def test_a_kept_lowercase_initial_is_left_as_written() -> None:
    conv = casing(style="sentence", strict=True, keep=["anglais"])
    assert check_item(conv, "British English", "anglais britannique").full_pass  # type: ignore[union-attr]
    assert not check_item(conv, "Open Settings", "ouvrir les paramètres").full_pass  # type: ignore[union-attr]


def test_a_language_name_keeps_the_case_its_translator_gave_it() -> None:
    conv = casing(style="sentence", strict=True)
    for source, output in (("British English", "anglais britannique"), ("Lower Sorbian", "bas-sorabe"),
                           ("Mexican Spanish", "espagnol du Mexique")):
        assert check_item(conv, source, output).full_pass, source  # type: ignore[union-attr]
    assert not check_item(conv, "Manage Devices", "gérer les appareils").full_pass  # type: ignore[union-attr]
