"""Inflected forms of one rendering as ONE expected entry: an escaped alternation of the attested
forms (``contagieu(?:x|se|ses)``), so a rule requires the term, not one of its forms.

Forms are grouped upstream by lemma key (spaCy lemmas where the language has a lemmatiser); here
they become a regex in FOLDED form (regexes apply as written to folded text, SPEC §2), with the
plain strings' word boundary written out (``matching.plain_regex``: hyphen-joined words are one
word, which Python's ``\\b`` does not give), because regex entries get none automatically.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from housestyle.pipelines.conventions.compound_parts import compound_regex, compounding
from housestyle.pipelines.conventions.matching import no_space_target, plain_regex


def alternatives(forms: Iterable[str], match_mode: str = "typographic", tgt_lang: str | None = None) -> tuple[str, bool]:
    """(entry, is_regex): the single form as a plain string, else a regex of all forms bounded like
    a plain string of ``match_mode`` (the term rules' mode) in a ``tgt_lang`` target
    (``matching.no_space_target``). In a language that writes compounds the forms are always a
    regex that also admits them as compound parts (``compound_parts``)."""
    return _alternatives(tuple(sorted({f for f in forms if f})), match_mode, tgt_lang)


@lru_cache(maxsize=16384)
def _alternatives(unique: tuple[str, ...], match_mode: str, tgt_lang: str | None) -> tuple[str, bool]:
    """``alternatives`` of the sorted distinct forms, remembered: each term pass and held-out fold of
    a mining run builds most rules' entries again (~0.7 s of the demo TM's run)."""
    if not unique:
        raise ValueError("no forms")
    if compounding(tgt_lang):
        return compound_regex(unique, match_mode), True
    if len(unique) == 1:
        return unique[0], False
    return plain_regex(unique, match_mode, no_space_neighbours=no_space_target(tgt_lang)), True


def entry_matches(entry: str, is_regex: bool, text: str) -> bool:
    """Whether a folded ``text`` is exactly one of the entry's forms (used by tests and conflicts)."""
    return re.fullmatch(entry, text) is not None if is_regex else entry == text
