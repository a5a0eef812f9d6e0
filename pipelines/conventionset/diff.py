"""``housestyle diff A B``: added, removed and changed conventions between two set versions.

Conventions are matched by id (identical semantics); those whose id differs but share
(dimension, rule, src) are CHANGED (e.g. a new rendering for one term), the rest added/removed.
Changes in support/consistency of an unchanged rule are listed separately (evidence moved), and so
are the TM units newly left out of, or back in, the term rules (``suspect_units.parquet``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from housestyle.pipelines.rules.io import load_conventions
from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.conventionset.store import convention_source


@dataclass(slots=True)
class SetDiff:
    added: list[Convention] = field(default_factory=list)
    removed: list[Convention] = field(default_factory=list)
    changed: list[tuple[Convention, Convention]] = field(default_factory=list)
    evidence_changed: list[tuple[Convention, Convention]] = field(default_factory=list)
    suspects_added: list[str] = field(default_factory=list)  # unit ids B leaves out and A did not
    suspects_removed: list[str] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        return {"added": len(self.added), "removed": len(self.removed), "changed": len(self.changed),
                "evidence_changed": len(self.evidence_changed)}


def _key(conv: Convention) -> tuple[str, str, str]:
    return conv.dimension, conv.rule, conv.src or ""


def diff_conventions(old: list[Convention], new: list[Convention]) -> SetDiff:
    out = SetDiff()
    old_ids = {c.convention_id: c for c in old}
    new_ids = {c.convention_id: c for c in new}
    gone = [c for c in old if c.convention_id not in new_ids]
    came = [c for c in new if c.convention_id not in old_ids]
    gone_by_key: dict[tuple[str, str, str], list[Convention]] = {}
    for conv in gone:
        gone_by_key.setdefault(_key(conv), []).append(conv)
    for conv in sorted(came, key=lambda c: (_key(c), c.convention_id)):
        match = gone_by_key.get(_key(conv))
        if match:
            out.changed.append((match.pop(0), conv))
        else:
            out.added.append(conv)
    out.removed = sorted((c for group in gone_by_key.values() for c in group), key=lambda c: (_key(c), c.convention_id))
    for cid in sorted(set(old_ids) & set(new_ids)):
        a, b = old_ids[cid], new_ids[cid]
        if (a.support, a.consistency) != (b.support, b.consistency):
            out.evidence_changed.append((a, b))
    return out


def _open(path: Path) -> tuple[list[Convention], set[str] | None]:
    """A side of the diff: its conventions (a set only when complete, ``store``) and, for a set
    folder, its suspect unit ids (None for a file, or a set written before the table)."""
    file, opened = convention_source(Path(path))
    conventions = load_conventions(file, regex_guard=False)
    has_table = opened is not None and Path(path).is_dir() and "suspect_units.parquet" in opened.files
    table = opened.path / "suspect_units.parquet" if opened is not None and has_table else None
    return conventions, None if table is None else set(pl.read_parquet(table, columns=["unit_id"])["unit_id"])


def diff_sets(a: Path, b: Path) -> SetDiff:
    (old_conventions, old), (new_conventions, new) = _open(Path(a)), _open(Path(b))
    out = diff_conventions(old_conventions, new_conventions)
    if old is not None and new is not None:
        out.suspects_added, out.suspects_removed = sorted(new - old), sorted(old - new)
    return out


def _show(conv: Convention) -> str:
    what = conv.expected_terms or conv.wrong_variants or [str(conv.params)]
    return f"{conv.dimension} [{conv.rule}] {conv.src or ''} → {' | '.join(what)[:120]}"


def render(diff: SetDiff) -> str:
    lines = [(f"added {len(diff.added)}, removed {len(diff.removed)}, changed {len(diff.changed)}, "
             f"evidence changed {len(diff.evidence_changed)}")]
    lines += [f"+ {_show(c)}" for c in diff.added]
    lines += [f"- {_show(c)}" for c in diff.removed]
    for a, b in diff.changed:
        lines += [f"~ {_show(a)}", f"  → {_show(b)}"]
    for a, b in diff.evidence_changed:
        lines.append(f"= {a.dimension} [{a.rule}] support {a.support}→{b.support}, consistency {a.consistency}→{b.consistency}")
    if diff.suspects_added or diff.suspects_removed:
        lines.append(f"suspect units: {len(diff.suspects_added)} newly left out of the term rules, "
                     f"{len(diff.suspects_removed)} back in")
        lines += [f"! {u}" for u in diff.suspects_added] + [f". {u}" for u in diff.suspects_removed]
    return "\n".join(lines) + "\n"
