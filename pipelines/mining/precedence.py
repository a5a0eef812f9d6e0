"""Longest match between mined term rules: a term yields to the longer mined terms that hold it.

WHY (issue 25, held-out failures classified by hand): 16 of the 39 matching defects were a shorter
term's rule triggered inside a longer term that has its own rule: ``page`` required "page(s)" in
"Ajouter une sous-page", where ``child page`` → "sous-page" is the client's rendering of the whole
span. Termbase QA tools match the longest term; so does the checker now: each mined term rule lists
in ``params.yields_to`` the longer mined source terms it is a word sequence of (``rules/term.py``),
and an occurrence inside one of them does not trigger it. The rule still applies wherever the short
term stands on its own ("Supprimer cette page").

A term yields only to the longer terms whose rendering does not hold its own: where it does
("Mozilla VPN" → "Mozilla VPN" holds ``VPN``'s "VPN") the short rule passes there and keeps those
items (yielding to every longer term cut Mozilla VPN's held-out term items from 452 to 255 and its
pass rate from .989 to .980: rules lost the items that passed and fell under the held-out bar). A
longer rendering whose forms cannot be listed (``factors.literal_forms``) is not yielded to.
Statuses are not known yet (the held-out bar comes later), so a longer rule that ends ``suggested``
still takes the span: it is the miner's reading of it, shown for review.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence

from housestyle.pipelines.conventions.compiled import make_entry
from housestyle.pipelines.conventions.compound_parts import compounding
from housestyle.pipelines.conventions.factors import literal_forms
from housestyle.pipelines.conventions.folding import fold_term
from housestyle.pipelines.conventions.model import Convention, convention_id_of
from housestyle.pipelines.mining.term_result import TermResult
from housestyle.pipelines.rules.term import MAX_YIELDS


def _words(conv: Convention, mode: str) -> tuple[str, ...]:
    return tuple(fold_term(conv.src or "", mode).split())


Present = Callable[[str, str], bool]  # (folded text, raw text) -> whether a rule's rendering is in it


def _holds_rendering(short: Convention, longer: Convention, present: Present | None = None,
                     forms: list[list[str] | None] | None = None) -> bool:
    """Whether every form of the longer rule's rendering holds the short rule's rendering (then the
    short rule passes inside the longer term: no need to yield); True when the longer rendering's
    forms cannot be listed. ``present`` / ``forms``: how to tell the short rendering and the longer
    rule's listed forms, when the caller has them (``longer_terms`` compares each rule with many)."""
    present = present if present is not None else _present(short)
    forms = forms if forms is not None else _forms(longer)
    for listed in forms:
        if listed is None:
            return True
        if not all(present(fold_term(form, short.match_mode), form) for form in listed):
            return False
    return True


def _present(conv: Convention, forms: Sequence[str] | None = None) -> Present:
    """How to tell ``conv``'s rendering in a text: its ``forms`` as plain strings when the miner
    handed them over (no regex to build: parsing and compiling ~9,000 of them was 13% of a demo
    mining run's profile), else its compiled entries. A compounding target keeps its regex, which
    admits compound parts (``compound_parts``)."""
    if forms is not None and not compounding(conv.tgt_lang):
        plain = [make_entry(f, conv.match_mode, False) for f in forms]
        return lambda folded, raw: any(e.present(folded, raw) for e in plain)
    entries = [make_entry(e, conv.match_mode, conv.regex) for e in conv.expected_terms]
    return lambda folded, raw: all(e.present(folded, raw) for e in entries)


def _forms(conv: Convention, known: Mapping[str, list[str]] | None = None) -> list[list[str] | None]:
    """The rule's forms per expected entry: the miner's (``known``) or read off its entries."""
    if known is not None and conv.convention_id in known:
        return [list(known[conv.convention_id])]
    out: list[list[str] | None] = []
    for expected in conv.expected_terms:
        listed = literal_forms(expected, conv.regex)
        out.append(None if listed is None else list(listed))
    return out


def longer_terms(conventions: Sequence[Convention], known: Mapping[str, list[str]] | None = None) -> dict[str, list[str]]:
    """convention_id -> the ``src`` of every other term rule of the same language pair whose words
    contain its words as a contiguous run (compared in the shorter rule's trigger mode) and whose
    rendering does not hold the shorter rule's (``_holds_rendering``), the most supported first,
    at most ``MAX_YIELDS``. ``known``: convention_id -> the forms its entry was built from (the miner's)."""
    terms = [c for c in conventions if c.rule == "term" and c.src and not c.src_regex]
    runs: dict[tuple[object, ...], list[Convention]] = defaultdict(list)  # (pair, mode, word run) -> longer rules
    modes = {c.trigger_mode for c in terms}
    for conv in terms:
        for mode in modes:
            words = _words(conv, mode)
            for size in range(1, len(words)):
                for start in range(len(words) - size + 1):
                    runs[(conv.src_lang, conv.tgt_lang, mode, words[start:start + size])].append(conv)
    out: dict[str, list[str]] = {}
    forms: dict[str, list[list[str] | None]] = {}  # each longer rule's forms, listed once
    for conv in terms:
        candidates = runs.get((conv.src_lang, conv.tgt_lang, conv.trigger_mode, _words(conv, conv.trigger_mode)), [])
        if not candidates:
            continue
        present = _present(conv, known.get(conv.convention_id) if known is not None else None)
        for c in candidates:
            if c.convention_id not in forms:
                forms[c.convention_id] = _forms(c, known)
        longer = [c for c in candidates if not _holds_rendering(conv, c, present, forms[c.convention_id])]
        if longer:
            ranked = sorted({c.src or "": c for c in longer}.values(), key=lambda c: (-(c.support or 0), c.src or ""))
            out[conv.convention_id] = [c.src or "" for c in ranked[:MAX_YIELDS]]
    return out


def add_precedence(result: TermResult) -> int:
    """Write ``params.yields_to`` into the term rules that have longer mined terms, re-keying their
    id in the evidence and the trace; returns how many rules yield."""
    yields = longer_terms(result.conventions, result.forms)
    result.forms.clear()  # read once, here
    for conv in result.conventions:
        longer = yields.get(conv.convention_id)
        if not longer:
            continue
        old = conv.convention_id
        conv.params = {**conv.params, "yields_to": longer}
        conv.convention_id = convention_id_of(conv)
        if old in result.evidence:
            result.evidence[conv.convention_id] = result.evidence.pop(old)
        decision = result.trace.get(conv.dimension.removeprefix("term:"))
        if decision is not None and decision.convention_id == old:
            decision.convention_id = conv.convention_id
    result.stats["yields_to_longer"] = len(yields)
    return len(yields)
