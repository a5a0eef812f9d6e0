"""``casing``: sentence case vs title case, and fixed casing of listed names.

params (all optional, at least one of ``style``/``keep``):
- ``style``: ``"sentence"`` — the output's first word starts with a capital (words that are
  ``keep`` names follow their own casing); with ``"strict": true`` every later capitalised word
  that does not start a sentence (after ``. ! ? …``), is not all capitals (acronyms) and is not a
  ``keep`` name is also wrong (for UI strings; prose has proper nouns, so strict is off by default).
  ``"title"`` — every word starts with a capital except ``minor_words`` (compared caselessly, never
  the first word).
- ``keep``: names whose casing is fixed (``["Acme", "API"]``): every occurrence found caselessly
  (word-bounded; apostrophes/spaces folded too under ``typographic``/``nfkc``) must be written exactly so.
- ``strict`` (bool, default false), ``minor_words`` (list of words, title style only).

Applies: with a ``style``, to every segment its ``src`` trigger selects; with ``keep`` only, to the
segments whose source contains a kept name (caselessly). Violations are wrong variants (the
offending word; span = its first letter, or the whole miscased name); code spans
(``code_spans.mask_code``) are masked first so ``⟨g1⟩`` or ``%s`` never count as words. Under
``strict``, a later capitalised word is no error when it is a name: copied as written from the
source (``Kuala Lumpur``) or capitalised inside (``GHz``, ``iPhone``); a letter glued to a digit
(``4K``) is no word. A source that is a language's name (``British English``) leaves the case of
its rendering's case free (``anglais britannique``, ``espagnol du Mexique``): a label, not a sentence.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

import langcodes

from housestyle.pipelines.conventions.compiled import Compiled
from housestyle.pipelines.conventions.folding import fold_term, fold_with_map
from housestyle.pipelines.conventions.code_spans import mask_code
from housestyle.pipelines.conventions.matching import find_plain
from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.rules._params import check_keys, fail, one_of, str_list
from housestyle.pipelines.rules.base import Findings, ItemVerdict, RuleSpec, match_entries, verdict

# A word starts with a letter not glued to a digit or letter before it: "4K", "5G" are no words.
_WORD_RE = re.compile(r"(?<![\w'’\-])[^\W\d_][\w'’\-]*")
_SENTENCE_END_RE = re.compile(r"[.!?…]['\"’”»)\]]*\s+$")


@dataclass(frozen=True, slots=True)
class CasingParams:
    style: str | None
    keep: tuple[str, ...]
    strict: bool
    minor_words: frozenset[str]


def prepare(conv: Convention) -> CasingParams:
    return CasingParams(
        style=conv.params.get("style"),
        keep=tuple(conv.params.get("keep", [])),
        strict=bool(conv.params.get("strict", False)),
        minor_words=frozenset(w.casefold() for w in conv.params.get("minor_words", [])),
    )


def validate(conv: Convention) -> None:
    check_keys(conv, {"style", "keep", "strict", "minor_words"})
    style = one_of(conv, "style", (None, "sentence", "title"), None)
    keep = str_list(conv, "keep")
    str_list(conv, "minor_words")
    one_of(conv, "strict", (True, False), False)
    if style is None and not keep:
        raise fail(conv, "casing needs params.style or params.keep", "style")


def _find_mode(mode: str) -> str:
    return "caseless" if mode in ("exact", "caseless") else mode


def applies(cc: Compiled, source: str) -> bool:
    params: CasingParams = cc.prepared
    if params.style is not None:
        return True
    folded = fold_with_map(source, "caseless").text
    return any(find_plain(folded, fold_term(name, "caseless"), first_only=True, raw=source, mode="caseless")
               for name in params.keep)


def _keep_occurrences(params: CasingParams, output: str, mode: str, out: Findings) -> list[tuple[int, int]]:
    """Record miscased kept names; return the raw spans of all kept-name occurrences."""
    find_mode = _find_mode(mode)
    folded = fold_with_map(output, find_mode)
    spans: list[tuple[int, int]] = []
    for name in params.keep:
        for start, end in find_plain(folded.text, fold_term(name, find_mode), raw=output, mode=find_mode):
            raw_start, raw_end = folded.raw_span(start, end)
            spans.append((raw_start, raw_end))
            if output[raw_start:raw_end] != name:
                out.found.append(output[raw_start:raw_end])
                out.spans.append((raw_start, raw_end))
    return spans


@lru_cache(maxsize=65536)
def names_a_language(source: str) -> bool:
    """The whole source is a language's name (``British English``, ``Lower Sorbian``; CLDR names via
    ``langcodes``): many languages write language names in lowercase (``anglais britannique``), so
    its rendering keeps the case the translator gave it."""
    text = source.strip()
    if not text or len(text) > 60 or not text[0].isalpha():
        return False
    try:
        langcodes.find(text)
    except LookupError:
        return False
    return True


def _named(text: str, source_words: frozenset[str]) -> bool:
    """A capitalised word that is a name, not a casing error: copied as written from the source
    (``Kuala Lumpur``, ``Explorer``), or with a capital inside (``GHz``, ``iPhone``, ``WireGuard``)."""
    return text in source_words or any(c.isupper() for c in text[1:])


def _style(params: CasingParams, output: str, kept: list[tuple[int, int]], out: Findings, source: str = "") -> None:
    masked = mask_code(output)
    source_words = frozenset(m.group() for m in _WORD_RE.finditer(mask_code(source)) if m.group()[0].isupper())
    for index, word in enumerate(_WORD_RE.finditer(masked)):
        if any(s <= word.start() < e for s, e in kept):
            continue
        text, first = word.group(), word.group()[0]
        if not (first.isupper() or first.islower()):
            continue  # uncased script
        capital = first.isupper() or first.istitle()
        if params.style == "sentence":
            if index == 0:
                bad = not capital
            elif not params.strict:
                break  # only the first word matters
            else:
                acronym = len(text) > 1 and text.isupper()
                bad = (capital and not acronym and not _named(text, source_words)
                       and not _SENTENCE_END_RE.search(masked[: word.start()]))
        else:  # title
            minor = index > 0 and text.casefold() in params.minor_words
            bad = not capital and not minor
        if bad:
            out.found.append(text)
            out.spans.append((word.start(), word.start() + 1))


def check(cc: Compiled, source: str, output: str) -> ItemVerdict:
    params: CasingParams = cc.prepared
    findings = match_entries(fold_with_map(output, cc.mode), cc.expected, cc.wrong, Findings())
    kept = _keep_occurrences(params, output, cc.mode, findings)
    if params.style is not None and not names_a_language(source):
        _style(params, output, kept, findings, source)
    return verdict(findings.missing, findings.found, findings.spans)


SPEC = RuleSpec(
    name="casing", static=False, validate=validate, prepare=prepare, applies=applies, check=check,
    params_doc='{"style": "sentence"|"title", "keep": [names], "strict": bool, "minor_words": [words]}',
)
