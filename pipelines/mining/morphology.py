"""Word segmentation and lemmas for languages spaCy ships no installable pipeline for (zh, ru, de).

Chinese: ``spacy.blank("zh")`` splits into single characters by default, so the aligner linked an
English word to ONE character of its rendering (Canadian → 加 of 加拿大). spaCy's own zh tokenizer
takes the ``jieba`` segmenter (dictionary bundled in the wheel, works offline, deterministic), so
the segmenter is a tokenizer config, not our code.

Russian: without a lemmatiser every case form was a separate rendering (веков, века, векам). spaCy's
``lemmatizer`` component in ``pymorphy3`` mode needs a POS tagger (there is no installed ru
pipeline); without POS it falls back to its lookup mode, which leaves every word whose analyses
disagree on the normal form unlemmatised, including the out-of-dictionary domain words a TM is full
of (коронавирусной, коронавирусная stay apart). So pymorphy3 is called directly: the normal form of
its most probable analysis (ties broken by pymorphy3's own order), cached per word.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from housestyle.pipelines.mining.lexicon import lemma_of

# spacy.blank config per primary language subtag (explicit registry).
TOKENIZER_CONFIG: dict[str, dict[str, Any]] = {
    "zh": {"nlp": {"tokenizer": {"segmenter": "jieba"}}},
}


def quiet_jieba() -> None:
    """jieba logs its dictionary loading at DEBUG on stderr; the miner's output stays clean."""
    import jieba  # imported here: only Chinese needs it

    jieba.setLogLevel(logging.WARNING)


@lru_cache(maxsize=1)
def russian_analyzer() -> Any:
    import pymorphy3  # imported here: loading the dictionaries costs ~0.3 s and ~15 MB

    return pymorphy3.MorphAnalyzer(lang="ru")


@lru_cache(maxsize=200_000)
def russian_lemma(word: str) -> str:
    """Normal form of the most probable pymorphy3 analysis (the word itself when none)."""
    parses = russian_analyzer().parse(word)
    return str(parses[0].normal_form) if parses else word.lower()


@lru_cache(maxsize=200_000)
def german_lemma(word: str) -> str:
    """The lemma simplemma's German dictionary gives the folded word (``kommentare`` → ``kommentar``,
    ``passwörter`` → ``passwort``); the word itself when it lists none. WHY: without one every case
    and number form was a rendering of its own, so no German rendering reached the consistency bar
    (issue 25: 8-19 term rules scored on each German PO corpus, against 16-74 in French)."""
    folded = word.casefold()
    return lemma_of(folded, "de") or folded


# Per-word lemmatisers for languages without a spaCy pipeline (no POS: renderings are not tagged).
WORD_LEMMATIZERS: dict[str, Callable[[str], str]] = {"ru": russian_lemma, "de": german_lemma}
