"""A filled review packet → the client's decisions (``conventionset.decisions.DECISIONS_SCHEMA``).

All or nothing: every filled row is checked first (its convention is in the set, the packet is of
this client and set, the decision word is known, an edit has forms that make a valid convention),
and the first bad row is refused with its row number — nothing is recorded then. A row is filled
when its decision, forms or comment hold text (a reviewer's name copied down every row is not a
decision); the rest are rules not reviewed yet.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

import polars as pl

from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.rules.validate import validate_conventions
from housestyle.pipelines.conventionset.decisions import (
    DECISION_WORDS,
    DECISIONS_SCHEMA,
    describe_entries,
    edited_convention,
    identity_of,
    parse_forms,
)
from housestyle.pipelines.cells import xlsx_text
from housestyle.pipelines.errors import ConventionError, InputError

FILLED_COLUMNS = ("decision", "expected_terms", "wrong_variants", "comment")

# How decisions count for a registration's precision-under-review gate: an edit means the rule was
# not right as mined.
VERDICT_OF = {"accept": "correct", "reject": "incorrect", "edit": "incorrect"}


def _problem(row: dict[str, str], by_id: dict[str, Convention], client: str, set_version: str) -> str | None:
    """Why this filled row cannot be recorded (None: it can)."""
    cid = row.get("convention_id", "").strip()
    if row.get("client", "").strip() not in ("", client):
        return f"packet row of client {row['client'].strip()!r}, not of {client!r} (the set given)"
    if row.get("set_version", "").strip() not in ("", set_version):
        return f"packet row of set {row['set_version'].strip()!r}, not of {set_version!r} (the set given)"
    if cid not in by_id:
        return f"unknown convention_id {cid!r}: not a rule of set {set_version}"
    for column in ("dimension", "rule"):  # a column sorted or pasted alone moves ids away from their rules
        given, own = row.get(column, "").strip(), str(getattr(by_id[cid], column))
        if given and given not in (own.strip(), xlsx_text(own).strip()):
            return (f"{column} {given!r} is not convention {cid}'s ({own!r}): the row no longer lines up with its "
                    "rule (a column sorted or pasted alone?)")
    word = row.get("decision", "").strip().lower()
    if not word:
        return f"no decision ({', '.join(DECISION_WORDS)}) but forms or a comment are filled"
    if word not in DECISION_WORDS:
        return f"unknown decision {row.get('decision', '').strip()!r} (one of {', '.join(DECISION_WORDS)})"
    expected, wrong = parse_forms(row.get("expected_terms")), parse_forms(row.get("wrong_variants"))
    if word != "edit":
        return None if not (expected or wrong) else f"forms given with decision {word!r}: only an edit takes forms"
    if not (expected or wrong):
        return "edit without forms: fill expected_terms and/or wrong_variants ('a | b': any of these forms; ';' between terms)"
    try:
        validate_conventions([edited_convention(by_id[cid], expected, wrong)], regex_guard=True)
    except ConventionError as exc:
        return f"the edited forms do not make a valid convention: {exc.reason} (field {exc.field})"
    return None


def _once_each(filled: Sequence[tuple[int, dict[str, str]]]) -> tuple[list[tuple[int, dict[str, str]]], list[tuple[int, str]]]:
    """The filled rows with a rule's repeats dropped, and a problem for each repeat that says something
    else: the later row would silently win, and an identical repeat would count twice as a judgement
    in the precision gate."""
    first: dict[str, tuple[int, tuple[str, ...]]] = {}
    kept, problems = [], []
    for n, row in filled:
        cid = row.get("convention_id", "").strip()
        said = (row.get("decision", "").strip().lower(), *(" ".join(row.get(c, "").split()) for c in FILLED_COLUMNS[1:]))
        if cid not in first:
            first[cid] = (n, said)
            kept.append((n, row))
        elif first[cid][1] != said:
            problems.append((n, f"convention {cid!r} is decided again, differently from row {first[cid][0]} "
                                f"(decision, forms or comment): one row per rule"))
    return kept, problems


def decisions_from_rows(rows: Sequence[tuple[int, dict[str, str]]], conventions: Sequence[Convention], *, path: Path,
                        client: str, set_version: str, now: datetime | None = None) -> pl.DataFrame:
    """The decisions of the filled rows (``rows``: row number, column → text), or InputError naming
    the first bad row (and how many others are bad)."""
    by_id = {c.convention_id: c for c in conventions}
    filled = [(n, r) for n, r in rows if any(r.get(c, "").strip() for c in FILLED_COLUMNS)]
    problems = [(n, why) for n, r in filled for why in [_problem(r, by_id, client, set_version)] if why]
    filled, twice = _once_each(filled)
    problems = sorted(problems + twice)
    if problems:
        more = f" (and {len(problems) - 1} more bad row(s)); nothing recorded" if len(problems) > 1 else "; nothing recorded"
        raise InputError(problems[0][1] + more, path=str(path), location=f"row {problems[0][0]}")
    stamp = (now or datetime.now(UTC)).strftime("%Y-%m-%dT%H:%M:%SZ")
    records = []
    for _n, row in filled:
        conv = by_id[row["convention_id"].strip()]
        word = row["decision"].strip().lower()
        edit = word == "edit"
        records.append({
            "convention_id": conv.convention_id, "identity": identity_of(conv), "decision": word,
            "expected_terms": parse_forms(row.get("expected_terms")) if edit else [],
            "wrong_variants": parse_forms(row.get("wrong_variants")) if edit else [],
            "comment": row.get("comment", "").strip() or None, "reviewer": row.get("reviewer", "").strip() or None,
            "reviewer_role": row.get("reviewer_role", "").strip().lower() or None,
            "decided_at": stamp, "set_version": set_version,
        })
    return pl.DataFrame(records, schema=DECISIONS_SCHEMA)


def edit_summaries(decisions: pl.DataFrame, conventions: Sequence[Convention]) -> list[str]:
    """One line per edit saying what the new rule will require and refuse, printed before recording."""
    by_id = {c.convention_id: c for c in conventions}
    lines = []
    for row in decisions.filter(pl.col("decision") == "edit").iter_rows(named=True):
        conv = by_id[row["convention_id"]]
        wrong = row["wrong_variants"] or []
        lines.append(f"{conv.dimension} ({conv.src or '-'}): requires {describe_entries(row['expected_terms'] or [])}"
                     + (f"; wrong: {describe_entries(wrong)}" if wrong else ""))
    return lines


def review_frame(decisions: pl.DataFrame) -> pl.DataFrame:
    """The decisions as a precision-gate review table (convention_id, verdict, comment, reviewer,
    reviewer_role; ``registration.review``)."""
    return decisions.select(
        "convention_id", pl.col("decision").replace_strict(VERDICT_OF, return_dtype=pl.Utf8).alias("verdict"),
        "comment", "reviewer", "reviewer_role")
