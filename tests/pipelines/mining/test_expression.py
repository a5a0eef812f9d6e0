"""A one-word rendering that is a word of a fixed expression (pipelines/mining/expression.py, issue 25):
``update`` → "jour" of "mise à jour", ``password`` → "mot" of "mot de passe"."""

from __future__ import annotations

from collections import Counter

from housestyle.pipelines.mining.boundary import Choice
from housestyle.pipelines.mining.expression import attested_context, fragment_of_expression, inside_share, longer_keys

TARGETS = ["saisissez votre mot de passe", "mot de passe oublié ?", "changer les mots de passe",
           "le mot de passe est trop court"]


def test_a_word_of_a_longer_aligned_rendering_is_a_fragment() -> None:
    aligned = Counter({"mot": 5, "mot de passer": 5, "passer": 3})
    assert longer_keys("mot", aligned) == ["mot de passer"]
    assert inside_share(["mot", "mots"], ["mot de passe", "mots de passe"], TARGETS) == 1.0
    assert inside_share(["mot"], ["mot de passe"], ["un mot de passe", "un mot", "ce mot"]) == 1 / 3
    mot = Choice("mot", ["mot", "mots"], 4, 1.0, 0.9, 5)
    forms = {"mot de passer": Counter({"mot de passe": 3, "mots de passe": 1})}
    assert fragment_of_expression(mot, [mot], aligned, forms, TARGETS, 0.9) == (True, "mot de passer")
    whole = Choice("mot de passer", ["mot de passe", "mots de passe"], 4, 1.0, 1.0, 5)
    assert fragment_of_expression(mot, [mot, whole], aligned, forms, TARGETS, 0.9) == (True, whole)
    # a word that mostly stands alone is its own rendering
    alone = ["un mot", "ce mot", "le mot juste", "mot de passe"]
    assert fragment_of_expression(mot, [mot], aligned, forms, alone, 0.9) == (False, None)


def test_the_expression_is_read_off_the_targets_when_the_aligner_linked_another() -> None:
    """Django fr: the aligner linked ``password`` to "réinitialisation de mot" only; the TM writes
    "mot(s) de passe" around every "mot"."""
    assert attested_context(["mot", "mots"], TARGETS, 0.9) == ["mot de passe", "mots de passe"]
    # a preposition alone is no expression, and a word in varied company has none
    assert attested_context(["jour"], ["mise à jour", "mettre à jour", "mis à jour"], 0.9) == []
    assert attested_context(["page"], ["la page", "cette page de test", "une page"], 0.9) == []
