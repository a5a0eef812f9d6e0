"""The convention record of SPEC.md §2 and its stable id.

``convention_id`` hashes only the semantic fields, so evidence, status or support can change
without changing the id, and the same rule mined twice gets the same id.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

RuleType = Literal["term", "forbidden", "pattern", "source_copy", "casing", "numeric", "placeholder"]
MatchMode = Literal["exact", "caseless", "typographic", "nfkc"]
Origin = Literal["mined", "contrast", "gold", "authored", "glossary"]
Status = Literal["suggested", "candidate", "indicative", "validated", "rejected"]

RULE_TYPES: tuple[str, ...] = ("term", "forbidden", "pattern", "source_copy", "casing", "numeric", "placeholder")
MATCH_MODES: tuple[str, ...] = ("exact", "caseless", "typographic", "nfkc")
ORIGINS: tuple[str, ...] = ("mined", "contrast", "gold", "authored", "glossary")
STATUSES: tuple[str, ...] = ("suggested", "candidate", "indicative", "validated", "rejected")

SEMANTIC_FIELDS: tuple[str, ...] = (
    "dimension", "rule", "src_lang", "tgt_lang", "src", "src_regex", "src_match_mode",
    "expected_terms", "wrong_variants", "regex", "match_mode", "params",
)


@dataclass(slots=True)
class Convention:
    """One convention. ``src_match_mode`` None means "same as match_mode"."""

    dimension: str
    rule: str
    src: str | None = None
    src_regex: bool = False
    src_match_mode: str | None = None
    expected_terms: list[str] = field(default_factory=list)
    wrong_variants: list[str] = field(default_factory=list)
    regex: bool = False
    match_mode: str = "exact"
    params: dict[str, Any] = field(default_factory=dict)
    src_lang: str | None = None
    tgt_lang: str | None = None
    mqm_category: str | None = None
    origin: str = "authored"
    status: str = "candidate"
    support: int | None = None
    consistency: float | None = None
    evidence_unit_ids: list[str] = field(default_factory=list)
    counter_unit_ids: list[str] = field(default_factory=list)
    # Held-out agreement (SPEC §2, issue 25): of the units the rule applies to that were not used to
    # mine it, how many approved targets pass it. Evidence, not part of the id; None when not mined.
    heldout_items: int | None = None
    heldout_passed: int | None = None
    note: str | None = None
    convention_id: str = ""
    # Fields other tools added to a row that are not part of this model: kept for round trips,
    # never part of the id (additive extension, see housestyle.pipelines.rules.io).
    extra: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        if not self.convention_id:
            self.convention_id = convention_id_of(self)

    @property
    def trigger_mode(self) -> str:
        """The equivalence used for the ``src`` trigger."""
        return self.src_match_mode or self.match_mode

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def canonical_json(value: Any) -> str:
    """Deterministic JSON: sorted keys, no whitespace, unicode kept (so hashes are stable)."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def convention_id_of(conv: Convention) -> str:
    """sha256 of the canonical JSON of the semantic fields, first 16 hex digits (SPEC.md)."""
    semantic = {name: getattr(conv, name) for name in SEMANTIC_FIELDS}
    semantic["src_match_mode"] = conv.trigger_mode  # an explicit default and an omitted one are the same rule
    return hashlib.sha256(canonical_json(semantic).encode("utf-8")).hexdigest()[:16]
