"""``source_copy``: do-not-translate spans. Every span the ``src`` pattern matches in the source
(product names, URLs, codes…) must appear verbatim in the output.

The spans are taken from the RAW source (the trigger may be matched on folded text; the map
gives back the raw characters) and looked up in the output under ``match_mode`` (use ``exact``
for "verbatim"). A span that sat at word boundaries in the source must sit at word boundaries in
the output; a span cut out of a longer word (``3`` in ``MP3``) is looked up as a substring.
``expected_terms``/``wrong_variants`` still apply on top. Params: none.
"""

from __future__ import annotations

from housestyle.pipelines.conventions.compiled import Compiled, make_entry
from housestyle.pipelines.conventions.folding import fold_with_map
from housestyle.pipelines.conventions.matching import bounded_at
from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.errors import ConventionError
from housestyle.pipelines.rules._static import require_no_params
from housestyle.pipelines.rules.base import Findings, ItemVerdict, RuleSpec, always, match_entries, no_params, verdict


def validate(conv: Convention) -> None:
    require_no_params(conv)
    if not conv.src:
        raise ConventionError(
            "rule 'source_copy' needs src: the pattern whose matches in the source must be copied",
            convention=conv.convention_id, field="src",
        )


def source_spans(cc: Compiled, source: str) -> list[tuple[str, bool]]:
    """Distinct raw source spans matched by ``src``, each with whether it was word-bounded."""
    if cc.trigger is None:
        return []
    folded = fold_with_map(source, cc.trigger_mode)
    spans: dict[str, bool] = {}
    for start, end in cc.trigger.find(folded.text, raw=source):
        raw_start, raw_end = folded.raw_span(start, end)
        text = source[raw_start:raw_end]
        if text:
            bounded = bounded_at(source, text, raw_start)
            spans[text] = spans.get(text, False) or bounded
    return list(spans.items())


def check(cc: Compiled, source: str, output: str) -> ItemVerdict:
    folded = fold_with_map(output, cc.mode)
    findings = match_entries(folded, cc.expected, cc.wrong, Findings())
    for text, bounded in source_spans(cc, source):
        entry = make_entry(text, cc.mode, regex=False)
        present = entry.present(folded.text, output) if bounded else (entry.folded or "") in folded.text
        if not present:
            findings.missing.append(text)
    return verdict(findings.missing, findings.found, findings.spans)


SPEC = RuleSpec(
    name="source_copy", static=False, validate=validate, prepare=no_params, applies=always,
    check=check, params_doc="none (src is the pattern of the spans to copy)",
)
