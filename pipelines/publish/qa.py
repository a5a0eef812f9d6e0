"""The non-term rules as QA checks a CAT tool's QA can run (Xbench / Verifika regex checklists).

Why a JSON of checks and not the conventions themselves: a QA checklist wants, per check, a source
trigger, what the target must hold and must not hold, and a severity; our conventions say the same
with SPEC-specific fields (``src_regex``, plain strings bound at word edges, ``match_mode``). Each
check is written out in those regex terms, field by field in docs/publish.md. What a regex pair
cannot say (copy THE span the source matched, the same placeholders both ways, each number in the
target format) is named by ``source_derived`` with the parameters a tool's own check needs.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from housestyle.pipelines import atomic
from housestyle.pipelines.conventions.matching import plain_regex
from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.publish.select import Account
from housestyle.pipelines.rules.numbers import LIBERAL_RE
from housestyle.pipelines.rules.placeholder import DEFAULT_PATTERNS

QA_FORMAT = "housestyle-qa-checks/1"
# Accuracy errors (a DNT span, a number, a placeholder, a banned word) break the text; the rest are
# house style. Severities follow MQM's major/minor.
SEVERITY: dict[str, str] = {"source_copy": "major", "numeric": "major", "placeholder": "major",
                            "forbidden": "major", "term": "major", "pattern": "minor", "casing": "minor"}
SOURCE_DERIVED: dict[str, str] = {"source_copy": "copy_spans", "numeric": "numbers",
                                  "placeholder": "placeholders", "casing": "casing"}


def _plain(text: str) -> str:
    """A plain convention string as a regex with SPEC §2's word edges, written as the checker's own
    (``matching.plain_regex`` on the text as written: a CAT tool's QA runs on unfolded text)."""
    return plain_regex([text], "exact")


def _as_regexes(entries: Sequence[str], is_regex: bool) -> list[str]:
    return list(entries) if is_regex else [_plain(e) for e in entries if e]


def _source_regex(conv: Convention) -> str | None:
    if conv.rule == "numeric":
        return LIBERAL_RE.pattern  # applies to segments whose source holds a number
    if conv.rule == "placeholder" and not conv.src:
        patterns = conv.params.get("patterns", list(DEFAULT_PATTERNS))
        return "|".join(f"(?:{p})" for p in sorted(patterns, key=lambda p: -len(p)))
    if not conv.src:
        return None
    return conv.src if conv.src_regex else _plain(conv.src)


def _description(conv: Convention) -> str:
    if conv.note:
        return conv.note
    what = {
        "source_copy": "copy every source span the source regex matches into the target, unchanged",
        "numeric": "every source number appears in the target, in the target number format (params)",
        "placeholder": "the target holds exactly the source's placeholders (same multiset, order free)",
        "casing": "target casing as params say (style, fixed-case names)",
        "pattern": "the target follows the house pattern: required regexes present, wrong ones absent",
        "forbidden": "none of the banned variants may appear",
        "term": "the required terms must appear",
    }.get(conv.rule, conv.rule)
    return f"{conv.dimension}: {what}"


def qa_check(conv: Convention) -> dict[str, Any]:
    """One convention as one QA check (see docs/publish.md for every field)."""
    return {
        "id": conv.convention_id,
        "kind": conv.rule,
        "dimension": conv.dimension,
        "description": _description(conv),
        "severity": SEVERITY.get(conv.rule, "minor"),
        "source_regex": _source_regex(conv),
        "source_ignore_case": conv.trigger_mode != "exact",
        "target_required": _as_regexes(conv.expected_terms, conv.regex),
        "target_forbidden": _as_regexes(conv.wrong_variants, conv.regex),
        "match_mode": conv.match_mode,
        "ignore_case": conv.match_mode != "exact",
        "source_derived": SOURCE_DERIVED.get(conv.rule),
        "params": dict(conv.params),
        "mqm_category": conv.mqm_category,
        "status": conv.status,
        "support": conv.support,
        "consistency": conv.consistency,
        "src_lang": conv.src_lang,
        "tgt_lang": conv.tgt_lang,
    }


def qa_checks(conventions: Iterable[Convention], account: Account) -> list[dict[str, Any]]:
    """Every convention given as a check (the caller passes the non-glossary ones), counted."""
    checks = []
    for conv in conventions:
        checks.append(qa_check(conv))
        account.of(conv.rule).published += 1
    return checks


def qa_document(checks: list[dict[str, Any]], *, client: str | None, set_version: str | None,
                statuses: Sequence[str]) -> dict[str, Any]:
    return {"format": QA_FORMAT, "client": client, "set_version": set_version,
            "statuses": sorted(statuses),
            "regex_syntax": "python-re", "checks": checks}


def write_qa(document: dict[str, Any], out: Path) -> int:
    """Write the QA JSON atomically; returns its size in bytes."""
    data = (json.dumps(document, ensure_ascii=False, indent=1) + "\n").encode("utf-8")
    atomic.write_bytes(out, data)
    return len(data)
