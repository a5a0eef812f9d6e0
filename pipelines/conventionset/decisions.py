"""A client's review decisions (``inbox/<client>/decisions.parquet``) and how they shape every new set.

A decision names the rule it is about by ``identity`` (dimension, rule, src and language pair), not
by convention_id: re-mining changes a rule's forms or evidence (and so its id) while the rule stays
the one a linguist judged. The file is append-only; the newest decision per identity wins. Applied
last among the set steps: accept → status ``validated``; reject → ``rejected`` (kept for audit,
never scored); edit → an ``authored`` convention with the linguist's forms replaces the mined one
(status ``validated``). Decisions that match no rule of the new set are reported, never dropped.

Edited forms: ``|``-separated literal strings; a cell that starts with ``re:`` is ONE regular
expression (so its own ``|`` stays an alternation). A convention holding a regex form is a regex
rule, its literal forms escaped and bounded by ``\\b`` at word-character edges.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import polars as pl

from pipelines import atomic
from pipelines.conventions.model import Convention, canonical_json
from pipelines.rules.validate import validate_convention
from pipelines.errors import ConventionError, InputError

DECISIONS_FILE = "decisions.parquet"
DECISION_WORDS: tuple[str, ...] = ("accept", "reject", "edit")
STATUS_OF = {"accept": "validated", "reject": "rejected", "edit": "validated"}
REGEX_PREFIX = "re:"
DECISIONS_SCHEMA = pl.Schema({
    "convention_id": pl.Utf8(), "identity": pl.Utf8(), "decision": pl.Utf8(),
    "expected_terms": pl.List(pl.Utf8), "wrong_variants": pl.List(pl.Utf8),
    "comment": pl.Utf8(), "reviewer": pl.Utf8(), "reviewer_role": pl.Utf8(),
    "decided_at": pl.Utf8(),  # ISO 8601 UTC, e.g. 2025-01-31T12:00:00Z
    "set_version": pl.Utf8(),
})


def identity_of(conv: Convention) -> str:
    """What a decision is about: sha256 of (dimension, rule, src, src_lang, tgt_lang), 16 hex."""
    key = [conv.dimension, conv.rule, conv.src, conv.src_lang, conv.tgt_lang]
    return hashlib.sha256(canonical_json(key).encode("utf-8")).hexdigest()[:16]


def parse_forms(cell: str | None) -> list[str]:
    """A packet cell as the forms it names: ``a | b`` → ["a", "b"]; ``re:x|y`` → ["re:x|y"]."""
    text = (cell or "").strip()
    if not text:
        return []
    if text.startswith(REGEX_PREFIX):
        return [text]
    return [part.strip() for part in text.split("|") if part.strip()]


def _bounded(literal: str) -> str:
    left = r"\b" if literal[:1].isalnum() else ""
    right = r"\b" if literal[-1:].isalnum() else ""
    return f"{left}{re.escape(literal)}{right}"


def edited_convention(base: Convention, expected: Sequence[str], wrong: Sequence[str], note: str | None = None) -> Convention:
    """The authored rule an edit makes of ``base``: same dimension, rule, trigger, pair, mode and
    params; the linguist's forms; ``validated``. Not validated here (the caller names the row)."""
    regex = any(f.startswith(REGEX_PREFIX) for f in [*expected, *wrong])

    def entry(form: str) -> str:
        if form.startswith(REGEX_PREFIX):
            return form[len(REGEX_PREFIX):]
        return _bounded(form) if regex else form

    conv = Convention(dimension=base.dimension, rule=base.rule, src=base.src, src_regex=base.src_regex,
                      src_match_mode=base.src_match_mode, expected_terms=[entry(f) for f in expected],
                      wrong_variants=[entry(f) for f in wrong], regex=regex, match_mode=base.match_mode,
                      params=dict(base.params), src_lang=base.src_lang, tgt_lang=base.tgt_lang,
                      mqm_category=base.mqm_category, origin="authored", status="validated", note=note)
    conv.extra = {"replaces": base.convention_id}
    return conv


def empty_decisions() -> pl.DataFrame:
    return pl.DataFrame(schema=DECISIONS_SCHEMA)


def read_decisions(path: Path) -> pl.DataFrame:
    """The decisions table (DECISIONS_SCHEMA); InputError naming the file when it is not one."""
    path = Path(path)
    try:
        frame = pl.read_parquet(path)
    except (pl.exceptions.PolarsError, OSError) as exc:
        raise InputError(f"not a decisions table: {exc}", path=str(path)) from None
    missing = [c for c in DECISIONS_SCHEMA if c not in frame.columns]
    if missing:
        raise InputError(f"decisions table lacks columns {missing}", path=str(path))
    try:
        frame = frame.select(list(DECISIONS_SCHEMA)).cast(DECISIONS_SCHEMA)
    except pl.exceptions.PolarsError as exc:
        raise InputError(f"decisions table has columns of the wrong type: {exc}", path=str(path)) from None
    for index, word in enumerate(frame["decision"].to_list(), start=1):
        if word not in DECISION_WORDS:
            raise InputError(f"unknown decision {word!r} (one of {', '.join(DECISION_WORDS)})", path=str(path),
                             location=f"row {index}")
    return frame


def append_decisions(path: Path, rows: pl.DataFrame) -> int:
    """Append ``rows`` to the decisions file (created when absent), rewritten whole in one rename;
    returns the rows it now holds."""
    path = Path(path)
    old = read_decisions(path) if path.is_file() else empty_decisions()
    frame = pl.concat([old, rows.select(list(DECISIONS_SCHEMA)).cast(DECISIONS_SCHEMA)])
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic.write_with(path, frame.write_parquet)
    return frame.height


def newest(decisions: pl.DataFrame) -> list[dict[str, Any]]:
    """The newest decision per identity (latest ``decided_at``, then the later row), in identity order."""
    ranked = decisions.with_row_index("_row").sort("decided_at", "_row")
    return ranked.unique("identity", keep="last").sort("identity").drop("_row").to_dicts()


@dataclass(slots=True)
class Applied:
    """The set after its decisions, and what to report (the manifest's ``decisions`` block)."""

    conventions: list[Convention]
    evidence: pl.DataFrame
    report: dict[str, Any]


def apply_decisions(conventions: Sequence[Convention], evidence: pl.DataFrame, decisions: pl.DataFrame) -> Applied:
    """Newest decision per identity applied to every convention of that identity (see module doc)."""
    by_identity: dict[str, list[int]] = {}
    for index, conv in enumerate(conventions):
        by_identity.setdefault(identity_of(conv), []).append(index)
    out: list[Convention | None] = list(conventions)
    added: list[Convention] = []
    applied: dict[str, int] = {w: 0 for w in DECISION_WORDS}
    unmatched: list[dict[str, Any]] = []
    invalid: list[dict[str, Any]] = []  # edits that make no valid rule of this set: the mined rule stays
    for row in newest(decisions):
        indices = by_identity.get(row["identity"])
        if not indices:
            unmatched.append({k: row[k] for k in ("identity", "convention_id", "decision", "set_version", "decided_at")})
            continue
        applied[row["decision"]] += 1
        if row["decision"] == "edit":
            base = conventions[indices[0]]
            note = (f"edit of {base.convention_id} by {row['reviewer'] or 'a reviewer'} ({row['reviewer_role'] or '-'}), "
                    f"set {row['set_version']}" + (f": {row['comment']}" if row["comment"] else ""))
            edit = edited_convention(base, row["expected_terms"] or [], row["wrong_variants"] or [], note)
            try:  # checked at import against the set it was made on; the rule may have changed since
                validate_convention(edit)
            except ConventionError as exc:
                applied["edit"] -= 1
                invalid.append({"identity": row["identity"], "convention_id": row["convention_id"], "reason": exc.reason})
                continue
            added.append(edit)
            for index in indices:
                out[index] = None
            continue
        for index in indices:
            out[index] = replace(conventions[index], status=STATUS_OF[row["decision"]])
    kept = [c for c in out if c is not None]
    ids = {c.convention_id for c in kept}
    for conv in added:  # an edit identical to a kept rule is that rule, now authored and validated
        if conv.convention_id in ids:
            kept = [c for c in kept if c.convention_id != conv.convention_id]
        kept.append(conv)
        ids.add(conv.convention_id)
    removed = {c.convention_id for c in conventions} - ids
    if removed:
        evidence = evidence.filter(~pl.col("convention_id").is_in(sorted(removed)))
    by_status: dict[str, int] = {}
    for conv in kept:
        by_status[conv.status] = by_status.get(conv.status, 0) + 1
    report = {"decisions": decisions.height, "identities": len(newest(decisions)),
              "applied": sum(applied.values()), "applied_by_decision": applied,
              "unmatched": len(unmatched), "unmatched_decisions": unmatched, "invalid_edits": invalid,
              "by_status": dict(sorted(by_status.items()))}
    return Applied(kept, evidence, report)
