"""The ``heldout_agreement`` gate (counting rules /2, issue 25): how often the client's own unseen
approved targets keep the rules a run would score.

Automatic — no gold, no reviewer — and labelled so in its result: it says the mined set agrees with
the client's own translations on units it was not mined from, never that a linguist accepts it
(that is ``precision_under_review``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.conventions.statuses import SCORED_STATUSES
from housestyle.pipelines.mining.heldout import heldout_table

LABEL = "automatic (the client's held-out approved targets; not a linguist's review)"


def heldout_agreement(conventions: Sequence[Convention]) -> tuple[float, dict[str, Any]]:
    """(Σ heldout_passed / Σ heldout_items over the conventions scored by default, detail with the
    per-kind table); 0.0 when none carries held-out items."""
    scored = [c for c in conventions if c.status in SCORED_STATUSES and c.heldout_items is not None]
    table = heldout_table(scored)
    items = sum(row["heldout_items"] for row in table.values())
    passed = sum(row["heldout_passed"] for row in table.values())
    value = passed / items if items else 0.0
    return value, {"label": LABEL, "rules": len(scored), "heldout_items": items, "heldout_passed": passed,
                   "by_kind": table}
