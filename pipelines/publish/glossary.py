"""Term conventions as glossary entries: the literal strings a translator can look up.

A termbase holds words, not regexes: each ``expected_terms`` / ``wrong_variants`` entry becomes the
literal forms it stands for (``factors.literal_forms``, which expands the miner's bounded
alternations). An entry whose language is not finite (``\\d+``) cannot be a term: it is left out and
counted, and a convention left with no target term at all is not published. Rules ``term`` and
``forbidden`` with a source term are glossary material; every other rule is a QA check (``qa.py``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from housestyle.pipelines.conventions.factors import literal_forms
from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.publish.select import NO_FINITE_FORM, Account

GLOSSARY_RULES: tuple[str, ...] = ("term", "forbidden")


@dataclass(frozen=True, slots=True)
class GlossaryEntry:
    """One published term convention: its source terms, preferred and deprecated target terms."""

    convention: Convention
    source_terms: tuple[str, ...]
    preferred: tuple[str, ...]
    deprecated: tuple[str, ...]
    regex_entries: tuple[str, ...]  # the regex entries the forms came from (kept in a note for audit)
    base_preferred: tuple[str, ...] = ()  # one form per concept term (``base_forms``): what a CSV row holds
    base_admitted: tuple[str, ...] = ()
    base_deprecated: tuple[str, ...] = ()

    @property
    def src_lang(self) -> str:
        return self.convention.src_lang or "und"

    @property
    def tgt_lang(self) -> str:
        return self.convention.tgt_lang or "und"


def _forms(entries: Iterable[str], is_regex: bool) -> tuple[list[str], int]:
    """Distinct literal forms of the entries in order, and how many entries had none (non-finite)."""
    forms: dict[str, None] = {}
    dropped = 0
    for entry in entries:
        found = literal_forms(entry, is_regex)
        if found is None:
            dropped += 1
            continue
        for form in found:
            if form.strip():
                forms.setdefault(form, None)
    return list(forms), dropped


def _shortest(forms: Iterable[str]) -> str | None:
    return min(forms, key=lambda f: (len(f), f), default=None)


def base_forms(conv: Convention) -> tuple[list[str], list[str], list[str]]:
    """(preferred, admitted, deprecated): one word per term, not every inflection. A glossary
    convention keeps its termbase's own terms (``glossary_*`` extras); for another rule each entry
    (the miner writes one entry per rendering, its inflections as one alternation) stands for its
    shortest literal form (``mot de passe`` for ``mots? de passe``)."""
    extra = conv.extra
    if extra.get("glossary_preferred") or extra.get("glossary_admitted") or extra.get("glossary_wrong"):
        return (list(extra.get("glossary_preferred") or []), list(extra.get("glossary_admitted") or []),
                list(extra.get("glossary_wrong") or []))
    def per_entry(entries: Iterable[str]) -> list[str]:
        out: list[str] = []
        for entry in entries:
            base = _shortest(literal_forms(entry, conv.regex) or [])
            if base and base.strip() and base not in out:
                out.append(base)
        return out
    preferred = per_entry(conv.expected_terms)
    return preferred, [], [f for f in per_entry(conv.wrong_variants) if f not in preferred]


def is_glossary(conv: Convention) -> bool:
    """Glossary material: a ``term`` or ``forbidden`` rule whose source term has literal forms.
    (One without a source term, or with a non-finite source regex, is a QA check instead.)"""
    return conv.rule in GLOSSARY_RULES and bool(conv.src) and bool(literal_forms(conv.src or "", conv.src_regex))


def glossary_entries(conventions: Iterable[Convention], account: Account) -> list[GlossaryEntry]:
    """The glossary entries of ``conventions`` (filtered by status and ``is_glossary``); a convention
    with no finite target form left, and every non-finite form, is counted in ``account``."""
    entries = []
    for conv in conventions:
        count = account.of(conv.rule)
        sources = literal_forms(conv.src or "", conv.src_regex) or ()
        preferred, dropped_p = _forms(conv.expected_terms, conv.regex)
        deprecated, dropped_d = _forms(conv.wrong_variants, conv.regex)
        deprecated = [form for form in deprecated if form not in preferred]
        count.forms_left_out += dropped_p + dropped_d
        if not preferred and not deprecated:
            count.left_out[NO_FINITE_FORM] += 1
            continue
        count.published += 1
        regexes = tuple([*conv.expected_terms, *conv.wrong_variants]) if conv.regex else ()
        base_p, base_a, base_d = base_forms(conv)
        # the base forms first, so a reader taking the first target term takes the concept's word
        preferred = sorted(preferred, key=lambda f: (f not in base_p, preferred.index(f)))
        entries.append(GlossaryEntry(conv, tuple(sources), tuple(preferred), tuple(deprecated), regexes,
                                     tuple(base_p), tuple(base_a), tuple(base_d)))
    # a glossary is read by source term; the id breaks ties so the order is stable
    return sorted(entries, key=lambda e: (e.source_terms[0].casefold(), e.convention.convention_id))


def entry_note(conv: Convention, set_version: str | None) -> list[str]:
    """The readable facts of a convention, one string each (TBX notes, the CSV note column)."""
    facts = []
    if conv.note:
        facts.append(conv.note)
    if conv.support is not None:
        facts.append(f"support: {conv.support}")
    if conv.consistency is not None:
        facts.append(f"consistency: {conv.consistency:g}")
    facts.append(f"status: {conv.status}")
    facts.append(f"convention_id: {conv.convention_id}")
    if set_version:
        facts.append(f"set_version: {set_version}")
    return facts
