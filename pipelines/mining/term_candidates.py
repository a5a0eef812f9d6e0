"""Candidate source terms (word n-grams) and their aligned target renderings, per unit.

Source candidates: 1..``terms.max_words``-word spans of the spaCy tokens whose edge tokens are
content words (no stop word, number or punctuation at an edge; stop words, digits and hyphens may
sit inside: "speed of light", "type 2 error", "two-factor authentication"). Renderings: the target
span that the word alignment makes consistent with the source span (Och & Ney phrase extraction),
trimmed of closed-class edge words (determiners, prepositions, elided articles such as ``l’``).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import pairwise

from housestyle.pipelines.mining.align import Links
from housestyle.pipelines.mining.params import DEFAULT_PARAMS, MiningParams
from housestyle.pipelines.mining.tokens import CLOSED_POS, Tok, fold_count

Span = tuple[int, int]  # inclusive token positions
# Function words a multiword term may hold inside ("speed of light"); "and"/"for" phrases are
# coordinations and purpose clauses far more often than terms.
INNER_STOPS = frozenset({"of"})


def _edge_ok(tok: Tok, params: MiningParams) -> bool:
    return (tok.is_word and not tok.is_stop and not tok.is_hyphen
            and len(tok.norm) >= min(params.candidates.edge_min_chars, params.terms.min_chars))


def _glued_number(toks: Sequence[Tok], i: int, inward: int) -> bool:
    """A number joined by a hyphen to the rest of the span (``windows-10``, ``3-d``)."""
    j = i + inward
    if not toks[i].norm.isalnum() or toks[i].is_word or not 0 <= j < len(toks) or not toks[j].is_hyphen:
        return False
    return toks[j].end == toks[i].start if inward < 0 else toks[i].end == toks[j].start


def _inner_ok(tok: Tok) -> bool:
    return tok.is_word or tok.is_hyphen or tok.norm.isdigit()


def source_spans(toks: Sequence[Tok], text: str, params: MiningParams) -> list[tuple[Span, str]]:
    """Candidate term spans of one source and their folded surface (deduplicated by surface). A
    multiword span never ends inside a hyphenated word: ``release of Windows`` (of Windows-10) and
    ``party cookies`` (of third-party) are fragments; one word may (``windows``), as a piece the
    aligner can link: the checker never triggers on it inside ``windows-10`` (SPEC §2: hyphen-joined
    words are one word), so a rule on the piece is counted with the raw texts and compound repair
    (``compound.repair_halves``) rebuilds the whole word before the choice."""
    out: list[tuple[Span, str]] = []
    for i, first in enumerate(toks):
        if not (_edge_ok(first, params) or _glued_number(toks, i, 1)):
            continue
        words = 0
        for j in range(i, min(len(toks), i + 2 * params.terms.max_words)):
            tok = toks[j]
            if j > i and not _inner_ok(tok):
                break
            words += tok.is_word and not tok.is_hyphen
            if words > params.terms.max_words:
                break
            if j > i and tok.is_stop and tok.is_word and tok.norm not in INNER_STOPS:
                break  # "speed of light" yes, "avoid buying the tickets" no
            if _edge_ok(tok, params) or (j > i and _glued_number(toks, j, -1)):
                surface = fold_count(text[first.start:tok.end])
                if len(surface) >= params.terms.min_chars and not (" " in surface and any(cut_edges(toks, (i, j)))):
                    out.append(((i, j), surface))  # "latest release Windows" (of Windows-10) is a fragment
    return out


def _closed(tok: Tok, params: MiningParams) -> bool:
    """Edge words a rendering never starts or ends with."""
    if tok.is_hyphen or not tok.is_word or tok.norm.startswith("-"):
        return True
    if tok.norm.endswith("'") and len(tok.norm) <= params.candidates.elided_max_chars:  # elided: l' d' qu' n'
        return True
    if tok.pos:
        return tok.pos in CLOSED_POS
    return tok.is_stop


def _joined(toks: Sequence[Tok], i: int, step: int, *, words_only: bool = True) -> bool:
    """Whether token ``i`` continues, across a glued ``-``, into a word (or, unless ``words_only``,
    a number) at ``i + 2 * step``."""
    j, k = i + step, i + 2 * step
    if not (0 <= j < len(toks) and 0 <= k < len(toks)) or toks[j].norm != "-":
        return False
    if not (toks[k].is_word or (not words_only and toks[k].norm.isalnum())):
        return False
    left, right = (toks[i], toks[k]) if step > 0 else (toks[k], toks[i])
    return left.end == toks[j].start and toks[j].end == right.start


def cut_edges(toks: Sequence[Tok], span: Span) -> tuple[bool, bool]:
    """Whether the span's left / right edge cuts a hyphenated word (``windows`` of ``windows-10``)."""
    return _joined(toks, span[0], -1, words_only=False), _joined(toks, span[1], 1, words_only=False)


_REORDERED = frozenset({"ADP", "DET"})  # function words inside a reordered noun phrase


class LinkIndex:
    """One unit's links looked up from either side: ``rendering_span`` runs for every source span
    of a unit, and reading the unit's whole link list each time was the largest own cost of
    candidate extraction."""

    __slots__ = ("by_source", "by_target")

    def __init__(self, links: Links) -> None:
        self.by_source: dict[int, list[int]] = {}
        self.by_target: dict[int, list[int]] = {}
        for i, j in links:
            self.by_source.setdefault(i, []).append(j)
            self.by_target.setdefault(j, []).append(i)

    def linked_outside(self, j: int, lo: int, hi: int) -> bool:
        """Whether target position ``j`` is linked from a source word outside ``lo..hi``."""
        return any(i < lo or i > hi for i in self.by_target.get(j, ()))


def trim_closed_edges(a: int, b: int, tgt: Sequence[Tok], params: MiningParams) -> Span | None:
    """``a..b`` without the closed words (``_closed``) at its edges but a number glued to the span;
    None when nothing is left."""
    while a <= b and _closed(tgt[a], params) and not _glued_number(tgt, a, 1):
        a += 1
    while b >= a and _closed(tgt[b], params) and not (b > a and _glued_number(tgt, b, -1)):
        b -= 1
    return None if a > b else (a, b)


def rendering_span(span: Span, links: Links | LinkIndex, tgt: Sequence[Tok], max_words: int,
                   cut: tuple[bool, bool] = (True, True), params: MiningParams = DEFAULT_PARAMS) -> Span | None:
    """The target span consistent with ``span`` under ``links``, trimmed; None when there is none.
    An edge the source term does not ``cut`` inside a hyphenated word grows over the rest of a
    hyphenated target word that renders nothing outside the term (``email address`` is
    ``adresse e-mail``, not ``adresse e``; ``Kingdom`` stays ``uni`` of
    ``royaume-uni`` where ``royaume`` renders ``United``)."""
    index = links if isinstance(links, LinkIndex) else LinkIndex(links)
    lo, hi = span
    targets = [j for i in range(lo, hi + 1) for j in index.by_source.get(i, ())]  # linked from inside the span
    if not targets:
        return None
    a, b = min(targets), max(targets)
    # A target word inside the span that belongs to a source word outside makes it inconsistent,
    # except a preposition or article inside a multiword term's reordered rendering: IBM-1 links
    # ``de`` of ``vitesse de la lumière`` to an ``of`` after ``light speed``; dev split: +38 rules,
    # about 5 in 6 of them right by our reading.
    # A one-word term keeps the strict check: across a preposition it is mostly a longer phrase.
    if any(index.linked_outside(j, lo, hi) and (lo == hi or tgt[j].pos not in _REORDERED) for j in range(a, b + 1)):
        return None
    trimmed = trim_closed_edges(a, b, tgt, params)
    if trimmed is None:
        return None
    a, b = trimmed
    while not cut[0] and _joined(tgt, a, -1) and not (index.linked_outside(a - 1, lo, hi) or index.linked_outside(a - 2, lo, hi)):
        a -= 2
    while not cut[1] and _joined(tgt, b, 1) and not (index.linked_outside(b + 1, lo, hi) or index.linked_outside(b + 2, lo, hi)):
        b += 2
    if sum(t.is_word and not t.is_hyphen for t in tgt[a:b + 1]) > max_words:
        return None
    return a, b


@dataclass(slots=True)
class TermCandidate:
    """What the aligned sample says about one source term."""

    units: set[int] = field(default_factory=set)  # units (sample indices) whose source has it
    occurrences: int = 0
    aligned: Counter[str] = field(default_factory=Counter)  # rendering lemma key -> aligned occurrences
    surfaces: Counter[str] = field(default_factory=Counter)  # raw source spellings (Wi-Fi, wi-fi)
    # (last word, the content word right after the term) per occurrence; ("", "") when none follows
    next_words: Counter[tuple[str, str]] = field(default_factory=Counter)


@dataclass(slots=True)
class Candidates:
    terms: dict[str, TermCandidate]
    forms: dict[str, Counter[str]]  # rendering lemma key -> folded surface forms seen (all terms)
    pos: dict[str, Counter[str]]  # rendering lemma key -> POS sequences seen ("" without a tagger)
    unit_keys: list[frozenset[str]]  # per sample unit: lemma keys of its target content words
    word_pairs: Counter[tuple[str, str]] = field(default_factory=Counter)  # adjacent source words -> units with them
    genders: dict[str, str] = field(default_factory=dict)  # target noun lemma -> m/f where the TM's articles tell (French)


def extract(sources: Sequence[str], targets: Sequence[str], src_toks: Sequence[Sequence[Tok]],
            tgt_toks: Sequence[Sequence[Tok]], links: Sequence[tuple[Links, Links]],
            params: MiningParams) -> Candidates:
    """Term candidates with their aligned renderings over the (sample of) units. ``links`` holds,
    per unit, the symmetrised links and the sure ones (both directions agree).

    Where a term's span is inconsistent under the symmetrised links (a grown link ties a word of
    the rendering to a neighbour: ``password manager`` → ``gestionnaire de mots de passe``), the sure
    links may still give a span. Such a span only corroborates a rendering the symmetrised links
    found for the same term elsewhere: on its own it is too often wrong on rare words (on the dev split
    it would add 514 one-unit rules, many wrong: ``irregular`` → ``battements``, ``Asian`` →
    ``originaires``), while as corroboration it lifts the support of
    renderings a few inconsistent units had hidden (a multiword term whose rendering is reordered
    around a preposition)."""
    terms: dict[str, TermCandidate] = defaultdict(TermCandidate)
    forms: dict[str, Counter[str]] = defaultdict(Counter)
    pos: dict[str, Counter[str]] = defaultdict(Counter)
    unit_keys: list[frozenset[str]] = []
    corroborating: dict[str, Counter[str]] = defaultdict(Counter)
    word_pairs: Counter[tuple[str, str]] = Counter()
    for index, (src, tgt, stoks, ttoks, (grown_links, sure_links)) in enumerate(zip(sources, targets, src_toks, tgt_toks, links)):
        grown, sure = LinkIndex(grown_links), None
        for span, surface in source_spans(stoks, src, params):
            cand = terms[surface]
            cand.units.add(index)
            cand.occurrences += 1
            cand.surfaces[src[stoks[span[0]].start:stoks[span[1]].end]] += 1
            cand.next_words[_next_word(stoks, span[1])] += 1
            cut = cut_edges(stoks, span)
            rspan = rendering_span(span, grown, ttoks, params.terms.max_rendering_words, cut, params)
            if rspan is None:
                sure = sure if sure is not None else LinkIndex(sure_links)
                rspan = rendering_span(span, sure, ttoks, params.terms.max_rendering_words, cut, params)
                if rspan is not None:
                    corroborating[surface][_key(ttoks, rspan)] += 1
                continue
            a, b = rspan
            key = _key(ttoks, rspan)
            cand.aligned[key] += 1
            forms[key][fold_count(tgt[ttoks[a].start:ttoks[b].end])] += 1
            pos[key][" ".join(t.pos for t in ttoks[a:b + 1])] += 1
        keys = set()
        for tok in ttoks:
            if not _closed(tok, params) and len(tok.norm) >= params.candidates.cooc_min_chars:
                keys.add(tok.key)
                forms[tok.key][tok.norm] += 1
                pos[tok.key][tok.pos] += 1
        unit_keys.append(frozenset(keys))
        word_pairs.update({(a.norm, b.norm) for a, b in pairwise(stoks) if _content(a) and _content(b)})
    for surface, found in corroborating.items():
        aligned = terms[surface].aligned
        for key, count in found.items():
            if key in aligned:
                aligned[key] += count
    return Candidates(dict(terms), dict(forms), dict(pos), unit_keys, word_pairs)


def _key(toks: Sequence[Tok], span: Span) -> str:
    """A rendering's lemma key: what inflection grouping compares."""
    return " ".join(t.key for t in toks[span[0]:span[1] + 1])


def _content(tok: Tok) -> bool:
    return tok.is_word and not tok.is_stop and not tok.is_hyphen


def _next_word(toks: Sequence[Tok], last: int) -> tuple[str, str]:
    following = toks[last + 1] if last + 1 < len(toks) else None
    return (toks[last].norm, following.norm) if following is not None and _content(following) else ("", "")
