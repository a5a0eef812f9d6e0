"""The client's glossary rules in a set: they stand for the mined rules of the same term.

A mined (or contrast) ``term`` / ``forbidden`` rule with the glossary rule's trigger and language
pair is removed either way — never two rules for one term. When every form the mined rule requires
passes the glossary rule and none is one of its wrong variants, they agree (counted as
``also_mined``); otherwise the TM and the termbase disagree, and a conflict of kind ``glossary`` is
reported (resolved: the glossary's rendering is the client's word), with both renderings.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from housestyle.pipelines.conventions.compiled import Entry, compile_generic
from housestyle.pipelines.conventions.folding import fold_with_map
from housestyle.pipelines.rules.io import forms_of
from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.mining.tokens import fold_count

TERM_RULES = ("term", "forbidden")


@dataclass(slots=True)
class Merged:
    conventions: list[Convention]
    removed: set[str] = field(default_factory=set)
    conflicts: list[dict[str, Any]] = field(default_factory=list)
    report: dict[str, Any] = field(default_factory=dict)


def _primary(lang: str | None) -> str:
    return (lang or "").split("-")[0].lower()


def _key(conv: Convention) -> tuple[str, str, str] | None:
    """A term rule's trigger and pair; languages by primary subtag (a termbase's en-US is the TM's en)."""
    if conv.rule not in TERM_RULES or conv.src is None or conv.src_regex:
        return None
    return fold_count(conv.src), _primary(conv.src_lang), _primary(conv.tgt_lang)


def _passes(entries: Sequence[Entry], form: str) -> bool:
    return any(e.present(fold_with_map(form, e.mode).text, form) for e in entries)


def agrees(mined: Convention, glossary: Convention) -> bool:
    """Whether every form ``mined`` requires passes ``glossary`` and none is a glossary wrong variant."""
    forms = forms_of(mined.expected_terms, mined.regex)
    if not forms:
        return not mined.expected_terms  # a forbidden-only rule: no rendering to disagree with
    compiled = compile_generic(glossary)
    return all(_passes(compiled.expected, f) and not _passes(compiled.wrong, f) for f in forms)


def _rendering(conv: Convention, chosen: bool) -> dict[str, Any]:
    return {"convention_id": conv.convention_id, "origin": conv.origin, "chosen": chosen, "support": conv.support,
            "forms": forms_of(conv.expected_terms, conv.regex) or conv.expected_terms,
            "wrong": forms_of(conv.wrong_variants, conv.regex) or conv.wrong_variants}


def merge_glossary(conventions: Sequence[Convention], glossary: Sequence[Convention]) -> Merged:
    """The set's rules with the glossary's added and the mined rules of its terms removed (module doc)."""
    by_key: dict[tuple[str, str, str], Convention] = {}
    for conv in glossary:
        key = _key(conv)
        if key is not None:
            by_key.setdefault(key, conv)
    ids = {c.convention_id for c in glossary}
    out = Merged([])
    also_mined = 0
    for conv in conventions:
        if conv.convention_id in ids:  # the same rule (the id ignores origin and evidence): added once below
            also_mined += conv.origin != "glossary"
            continue
        key = _key(conv)
        rule = by_key.get(key) if key is not None else None
        if rule is None:
            out.conventions.append(conv)
            continue
        out.removed.add(conv.convention_id)
        if agrees(conv, rule):
            also_mined += 1
        else:
            out.conflicts.append({"kind": "glossary", "dimension": rule.dimension, "src": rule.src, "resolved": True,
                                  "renderings": [_rendering(rule, True), _rendering(conv, False)]})
    out.conventions.extend({c.convention_id: c for c in glossary}.values())
    out.report = {"conventions": len(ids), "also_mined": also_mined, "conflicts": len(out.conflicts)}
    return out
