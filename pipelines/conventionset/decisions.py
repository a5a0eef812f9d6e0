"""A client's review decisions (``inbox/<client>/decisions.parquet``) and how they shape every new set.

A decision names the rule it is about by ``identity`` (dimension, rule, src and language pair), not
by convention_id: re-mining changes a rule's forms or evidence (and so its id) while the rule stays
the one a linguist judged. The file is append-only; the newest decision per identity wins. Applied
last among the set steps: accept → status ``validated``; reject → ``rejected`` (kept for audit,
never scored); edit → an ``authored`` convention with the linguist's forms replaces the mined one
(status ``validated``). Decisions that match no rule of the new set are reported, never dropped.

Edited forms mean what the packet shows: an entry ``a | b`` is ONE term in any of these forms (the
packet displays a mined rule's inflected forms that way), several terms are separate entries
separated by ``;`` (each required, or each wrong), and an entry that starts with ``re:`` is one
regular expression running to the end of the cell (its own ``|`` and ``;`` stay regex syntax). A
convention holding a regex entry is a regex rule; its literal entries then become regexes bounded
like plain strings (``matching.plain_regex``, the miner's own bound).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import polars as pl

from housestyle.pipelines import atomic
from housestyle.pipelines.conventions.model import Convention, canonical_json
from housestyle.pipelines.rules.validate import validate_convention
from housestyle.pipelines.errors import ConventionError, InputError
from housestyle.pipelines.typed_table import read_typed_parquet

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


ENTRY_SEPARATOR = ";"
FORM_SEPARATOR = "|"


def parse_forms(cell: str | None) -> list[str]:
    """A packet cell as its entries: ``a | b`` → ["a | b"] (one term, any of these forms);
    ``a; b | c`` → ["a", "b | c"]; ``x; re:y|z`` → ["x", "re:y|z"] (a regex runs to the cell's end)."""
    text = (cell or "").strip()
    entries: list[str] = []
    while text:
        if text.startswith(REGEX_PREFIX):
            entries.append(text)
            break
        head, _, text = text.partition(ENTRY_SEPARATOR)
        forms = entry_forms(head)
        if forms:
            entries.append(f" {FORM_SEPARATOR} ".join(forms))
        text = text.strip()
    return entries


def entry_forms(entry: str) -> list[str]:
    """The literal forms of one non-regex entry (``a | b`` → ["a", "b"]), in order, deduplicated."""
    out: list[str] = []
    for part in entry.split(FORM_SEPARATOR):
        if part.strip() and part.strip() not in out:
            out.append(part.strip())
    return out


def describe_entries(entries: Sequence[str]) -> str:
    """What an edit's entries require, for a person: ``"a" or "b"; and "c"``."""
    def one(entry: str) -> str:
        if entry.startswith(REGEX_PREFIX):
            return f"the regex {entry[len(REGEX_PREFIX):]}"
        return " or ".join(f'"{f}"' for f in entry_forms(entry))
    return "; and ".join(one(e) for e in entries) or "nothing"


def edited_convention(base: Convention, expected: Sequence[str], wrong: Sequence[str], note: str | None = None) -> Convention:
    """The authored rule an edit makes of ``base``: same dimension, rule, trigger, pair, mode and
    params; the linguist's entries (``parse_forms``); ``validated``. Not validated here (the caller
    names the row)."""
    from housestyle.pipelines.conventions.matching import no_space_target, plain_regex

    def forms(entry: str) -> list[str]:
        return [] if entry.startswith(REGEX_PREFIX) else entry_forms(entry)

    regex = any(e.startswith(REGEX_PREFIX) or len(forms(e)) > 1 for e in [*expected, *wrong])
    no_space = no_space_target(base.tgt_lang)

    def entry(text: str) -> str:
        if text.startswith(REGEX_PREFIX):
            return text[len(REGEX_PREFIX):]
        literals = forms(text)
        return plain_regex(literals, base.match_mode, no_space_neighbours=no_space) if regex else literals[0]

    conv = Convention(dimension=base.dimension, rule=base.rule, src=base.src, src_regex=base.src_regex,
                      src_match_mode=base.src_match_mode,
                      expected_terms=[entry(e) for e in expected if e.startswith(REGEX_PREFIX) or forms(e)],
                      wrong_variants=[entry(e) for e in wrong if e.startswith(REGEX_PREFIX) or forms(e)],
                      regex=regex, match_mode=base.match_mode,
                      params=dict(base.params), src_lang=base.src_lang, tgt_lang=base.tgt_lang,
                      mqm_category=base.mqm_category, origin="authored", status="validated", note=note)
    conv.extra = {"replaces": base.convention_id}
    return conv


def empty_decisions() -> pl.DataFrame:
    return pl.DataFrame(schema=DECISIONS_SCHEMA)


def read_decisions(path: Path) -> pl.DataFrame:
    """The decisions table (DECISIONS_SCHEMA); InputError naming the file when it is not one."""
    path = Path(path)
    frame = read_typed_parquet(path, DECISIONS_SCHEMA, "a decisions table")
    for index, word in enumerate(frame["decision"].to_list(), start=1):
        if word not in DECISION_WORDS:
            raise InputError(f"unknown decision {word!r} (one of {', '.join(DECISION_WORDS)})", path=str(path),
                             location=f"row {index}")
    return frame


def append_decisions(path: Path, rows: pl.DataFrame) -> int:
    """Append ``rows`` to the decisions file (created when absent) under its lock, rewritten whole in
    one rename (``atomic.locked_append``: two imports at once both land); returns the rows it now holds."""
    return atomic.locked_append(Path(path), rows.select(list(DECISIONS_SCHEMA)).cast(DECISIONS_SCHEMA),
                                read=read_decisions)


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
