"""Conflicts: two mandated renderings for one term (or two rules on one dimension that disagree).

Reported, never silently resolved: each row names the dimension, the competing contents with
their support, and whether a rule was still emitted (a clear majority) or not.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from housestyle.pipelines.conventions.model import Convention, canonical_json


def dimension_conflicts(conventions: Sequence[Convention]) -> list[dict[str, Any]]:
    """Rules sharing a dimension and trigger but requiring different content."""
    groups: dict[tuple[str, str], list[Convention]] = defaultdict(list)
    for conv in conventions:
        groups[(conv.dimension, conv.src or "")].append(conv)
    out = []
    for (dimension, src), convs in sorted(groups.items()):
        contents = {canonical_json([c.expected_terms, c.wrong_variants, c.params]) for c in convs}
        if len(contents) > 1:
            out.append({"kind": "dimension", "dimension": dimension, "src": src or None, "resolved": False,
                        "renderings": [{"convention_id": c.convention_id, "expected_terms": c.expected_terms,
                                        "wrong_variants": c.wrong_variants, "support": c.support} for c in convs]})
    return out


def conflict_rows(conflicts: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Flat rows for conflicts.parquet (details as canonical JSON text), sorted."""
    rows = [{"kind": str(c["kind"]), "dimension": str(c["dimension"]), "src": c.get("src"),
             "resolved": bool(c.get("resolved")), "renderings": canonical_json(c.get("renderings", []))}
            for c in conflicts]
    return sorted(rows, key=lambda r: (r["kind"], r["dimension"], r["renderings"]))
