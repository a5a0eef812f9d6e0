"""German case and number forms of a one-word rendering, from the lexicon (``lexicon``: simplemma).

WHY: a German noun changes its ending with case and number (``Kommentar``, ``Kommentare``,
``Kommentaren``, ``Kommentars``) and a verb rendering with its use (``erstellt``, ``erstellen``); a
rule listing the forms its TM half happened to use failed the other half's approved targets
(issue 25, German PO corpora: ``Passwortes`` against ``passworts?``, ``Kommentaren`` against
``Kommentare``). Every form the lexicon lists for the rendering's lemma is the same term. A
multiword rendering keeps its attested forms (its adjectives agree with the noun: generating the
combinations is not done), and so does a name or code copied from the source.
"""

from __future__ import annotations

from housestyle.pipelines.mining import lexicon


def forms(form: str, key: str, tags: str, frozen: frozenset[str]) -> set[str]:
    """``form`` and, for a one-word rendering that is no copied name, every lexicon form of its lemma
    (the lemma key the tokenizer gave it, else the lexicon's lemma of the form)."""
    if " " in form or "-" in form or form in frozen or any(c.isdigit() for c in form):
        return {form}
    found = lexicon.lemma_forms(key, "de") if " " not in key else set()
    if form not in found:
        lemma = lexicon.lemma_of(form, "de")
        found = lexicon.lemma_forms(lemma, "de") if lemma else set()
    return found | {form} if form in found else {form}
