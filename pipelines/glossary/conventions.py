"""Glossary concepts → the client's conventions (origin ``glossary``, status ``validated``).

One ``term`` convention per source term of a concept: the preferred and admitted target terms are
ONE expected entry (any of them passes), each deprecated / forbidden term a wrong variant; a concept
with only forbidden target terms becomes a ``forbidden`` convention. Forms come from the miner's own
lexicon (``mining.tokens`` lemmas and POS, ``mining.paradigm.generated_forms``: French and Russian
number / gender forms, German case / number forms), bounded like the miner's rules (compound parts
included in a compounding target language) (``matching.plain_regex``, as ``mining.inflection.alternatives``), so a
glossary rule and a mined rule of the same term read the same. Two concepts of one source term
(homonyms) join as alternatives of one rule, reported as merged.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from housestyle.pipelines.conventions.compound_parts import compound_regex, compounding
from housestyle.pipelines.conventions.matching import no_space_target, plain_regex
from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.rules.validate import validate_convention
from housestyle.pipelines.errors import ConventionError
from housestyle.pipelines.glossary.model import Concept, Refusal
from housestyle.pipelines.mining.paradigm import generated_forms
from housestyle.pipelines.mining.term_rules import MQM_TERM, _is_acronym
from housestyle.pipelines.mining.tokens import fold_count, tokenize

MODE = "typographic"  # the miner's term rules' mode
NOTE_CHARS = 300
_WORD = re.compile(r"[^\s']+'?")


@dataclass(slots=True)
class Converted:
    """The conventions of a glossary and what was refused or merged on the way."""

    conventions: list[Convention] = field(default_factory=list)
    refused: list[Refusal] = field(default_factory=list)
    merged: int = 0


def _analyses(terms: Sequence[str], lang: str) -> dict[str, tuple[str, str]]:
    """term → (lemma key, POS key), one lemma and tag per word, as the miner's candidate tables hold them."""
    out: dict[str, tuple[str, str]] = {}
    for term, toks in zip(terms, tokenize(terms, lang, analyse=True)):
        keys, tags = [], []
        for m in _WORD.finditer(term):
            inside = [t for t in toks if m.start() <= t.start < m.end() and not t.is_hyphen]
            one = len(inside) == 1 and inside[0].end <= m.end()
            keys.append(inside[0].key if one else fold_count(m.group()))
            tags.append(inside[-1].pos if inside else "X")
        out[term] = (" ".join(keys), " ".join(tags))
    return out


def term_forms(term: str, analysis: tuple[str, str], lang: str, source: str) -> list[str]:
    """The folded forms of one target term: itself plus the number/gender forms the miner would generate."""
    key, pos = analysis
    return generated_forms([fold_count(term)], key, Counter({pos: 1}) if pos.strip() else None, lang, source)


def _entries(groups: Iterable[list[str]], lang: str, regex: bool) -> list[str]:
    """Each group of forms as one entry; in a language that writes compounds, a regex that also
    matches them as compound parts (``compound_parts``), as the miner writes its German rules."""
    if compounding(lang):
        return [compound_regex(g, MODE) for g in groups]
    no_space = no_space_target(lang)
    return [plain_regex(g, MODE, no_space_neighbours=no_space) if regex else g[0] for g in groups]


def _convention(concept: Concept, source: str, expected: list[str], wrong: list[list[str]],
                terms: dict[str, list[str]]) -> Convention:
    regex = compounding(concept.tgt_lang) or len(expected) > 1 or any(len(g) > 1 for g in wrong)
    rule = "term" if expected else "forbidden"
    note = f"glossary {concept.where.split(':')[0]} entry {concept.concept_id}" + (
        f": {concept.note[:NOTE_CHARS]}" if concept.note else "")
    conv = Convention(
        dimension=f"term:{fold_count(source)}", rule=rule, src=source,
        src_match_mode="exact" if _is_acronym(source) else None,
        expected_terms=_entries([expected], concept.tgt_lang, regex) if expected else [],
        wrong_variants=_entries(wrong, concept.tgt_lang, regex), regex=regex, match_mode=MODE,
        src_lang=concept.src_lang, tgt_lang=concept.tgt_lang, mqm_category=MQM_TERM, origin="glossary",
        status="validated", note=note)
    # the termbase's own words: what publish writes as the concept's base forms (not every inflection)
    conv.extra = {"glossary_entry": concept.concept_id, **{f"glossary_{k}": v for k, v in terms.items() if v}}
    return conv


def _control(term: str) -> str | None:
    """The first control character (Unicode Cc: NUL, line breaks, C1 codes) of a term, if any."""
    return next((ch for ch in term if unicodedata.category(ch) == "Cc"), None)


def to_conventions(concepts: Sequence[Concept]) -> Converted:
    """Every concept as conventions (module doc); concepts without a source or a target term, and
    rules that do not validate, are refused with the reason."""
    out = Converted()
    by_lang: dict[str, set[str]] = {}
    for c in concepts:
        by_lang.setdefault(c.tgt_lang, set()).update(c.preferred + c.admitted + c.wrong)
    analysed = {lang: _analyses(sorted(terms), lang) for lang, terms in by_lang.items()}
    rules: dict[tuple[str, str, str], tuple[Concept, str, set[str], list[list[str]], dict[str, list[str]]]] = {}
    for c in concepts:
        if not c.sources:
            out.refused.append(Refusal(c.where, c.concept_id, f"no source term ({c.src_lang})"))
            continue
        if bad := next((t for t in c.sources + c.preferred + c.admitted + c.wrong if _control(t)), None):
            out.refused.append(Refusal(c.where, c.concept_id, f"term {bad!r} holds a control character "
                                       f"(U+{ord(_control(bad) or ' '):04X}): no text can match it"))
            continue
        if not (c.preferred or c.admitted or c.wrong):
            out.refused.append(Refusal(c.where, c.concept_id, f"no target term ({c.tgt_lang})"))
            continue
        for source in c.sources:
            if not any(ch.isalnum() for ch in source):
                out.refused.append(Refusal(c.where, c.concept_id, f"source term {source!r} has no letter or digit"))
                continue
            forms = {t: term_forms(t, analysed[c.tgt_lang][t], c.tgt_lang, source) for t in c.preferred + c.admitted + c.wrong}
            expected = {f for t in c.preferred + c.admitted for f in forms[t]}
            wrong = [[f for f in forms[t] if f not in expected] for t in c.wrong]
            key = (c.src_lang, c.tgt_lang, fold_count(source))
            terms = {"preferred": list(c.preferred), "admitted": list(c.admitted), "wrong": list(c.wrong)}
            if key in rules:  # a homonym: its renderings become alternatives of the same rule
                first = rules[key]
                first[2].update(expected)
                first[3].extend(g for g in wrong if g and g not in first[3])
                for role, listed in terms.items():
                    first[4][role].extend(t for t in listed if t not in first[4][role])
                out.merged += 1
                continue
            rules[key] = (c, source, expected, [g for g in wrong if g], terms)
    for c, source, expected, wrong, terms in rules.values():
        if not expected and not wrong:
            out.refused.append(Refusal(c.where, c.concept_id, "every forbidden term is also a preferred form"))
            continue
        conv = _convention(c, source, sorted(expected), [sorted(set(g) - expected) for g in wrong if set(g) - expected], terms)
        try:
            validate_convention(conv)
        except ConventionError as exc:
            out.refused.append(Refusal(c.where, c.concept_id, f"not a valid rule: {exc.reason}"))
            continue
        out.conventions.append(conv)
    return out
