"""The frozen registration record (registrations/<client>/<version>/registration.json).

Everything that decides a verdict is in this record and hashed: the gold files (by sha256), the
splits file (by sha256), every gate and its threshold, the claim ladder and the gold counting rules.
Changing any of them after freezing is a hard error (``freeze.load_registration``); a new
registration is a new version.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field
from typing import Any

from housestyle.pipelines.conventions.model import canonical_json

FORMAT = "housestyle-registration/1"

GOLD_KINDS: tuple[str, ...] = ("conventions", "termbase_csv", "tbx")

# metric -> (value kind, gold kinds it reads). Every metric compares ``value >= threshold``.
METRICS: dict[str, tuple[str, tuple[str, ...]]] = {
    "term_recall": ("fraction", ("termbase_csv", "tbx")),
    "conventions_recovered": ("count", ("conventions",)),
    "precision_under_review": ("fraction", ()),
    "heldout_agreement": ("fraction", ()),
}
# ``automatic``: a gate computed from the client's own data with no gold and no person (issue 25's
# heldout_agreement); labelled so, it never stands in for the linguists' review gate.
GATE_ROLES: tuple[str, ...] = ("dev", "heldout", "review", "automatic")

# Folding used by every gold comparison (../shared/gold/README.md).
FOLD_MAP: dict[str, str] = {"\u2019": "'", "\u2018": "'", "\u02bc": "'", "\u00a0": " ", "\u202f": " "}

# The counting rules are frozen into each registration; the evaluator refuses a registration whose
# rules id it does not implement, so an evaluator change can never silently re-score an old one.
COUNTING_RULES: dict[str, Any] = {
    "id": "housestyle-gold-counting/1",
    "folding": {
        "casefold": True,
        "map": FOLD_MAP,
        "collapse_spaces": True,
        "text": "casefold; ’ ‘ ʼ -> '; U+00A0 and U+202F -> space; runs of whitespace collapsed to one space; stripped",
    },
    "term_pairs": "a gold term pair is (folded source term, folded target term); duplicates after folding count once; "
    "a TBX entry gives every source-language term x every target-language term",
    "term_attestation": "a gold pair is attested in a split when, in one unit of that split, its folded source term occurs "
    "word-bounded in the folded source and its folded target term occurs word-bounded in the folded target "
    "(word-bounded: the character before/after the match, if any, is not a letter or digit)",
    "term_recovery": "a mined rule with rule='term' recovers a gold pair when its folded src equals the folded source term "
    "(regex src: re.fullmatch of src on the folded source term, IGNORECASE) and one expected term equals the folded target "
    "term (regex entry: re.fullmatch on the folded target term, IGNORECASE); a rule whose src_lang/tgt_lang is set must "
    "have the gold file's primary language subtags",
    "term_recall": "recovered attested pairs / attested pairs in the gate's split (0 attested -> value 0, gate fails)",
    "convention_attestation": "a gold convention is attested in a split when at least min_units units of the split match its "
    "frozen evidence: the 'source' regex (if any) searches the unit's raw source and the 'target' regex searches the unit's "
    "raw target; evidence regexes are frozen per gold_id in the gold file entry",
    "convention_recovery": "a mined set recovers a gold convention when, on every probe of that gold convention, the set "
    "passes the good output and fails the bad output; the set FAILS an output when at least one applicable mined convention "
    "(housestyle.pipelines.scoring.check.check_item returns a verdict, i.e. it applies to the probe source) has full_pass false; "
    "the set PASSES an output when none fails (an empty set passes everything, so recovers nothing)",
    "conventions_recovered": "number of gold conventions attested in the gate's split that the set recovers",
    "precision_under_review": "pending until a review file exists; only judgements whose reviewer_role is in counted_roles "
    "(linguists) and whose convention_id is in the evaluated set count: engineers' judgements never pass the gate; "
    "precision = correct / (correct + incorrect) with a Wilson 95% interval; pass when the point estimate >= threshold, "
    "fail when below, pending while fewer than min_judgements counted judgements exist",
    "verdict": "pass when every gate passes; fail when any gate fails; otherwise pending. The claim is the lowest rung of "
    "claim_levels named by a failed gate's on_fail (claim_levels[0] when none failed). label = validated only once the "
    "precision_under_review gate has passed, indicative before",
}

# Counting rules /2 (issue 25) = /1 plus the automatic held-out agreement gate. Frozen /1 registrations
# keep evaluating under the rules they froze: the evaluator implements both ids (IMPLEMENTED_RULES).
COUNTING_RULES_V1_ID = "housestyle-gold-counting/1"
COUNTING_RULES = {
    **COUNTING_RULES,
    "id": "housestyle-gold-counting/2",
    "heldout_agreement": "automatic, no gold and no reviewer: over the set's conventions that a run scores by default "
    "(status candidate or validated) and that carry held-out counts, sum(heldout_passed) / sum(heldout_items) "
    "(heldout_*: the miner's cross-fitted folds, each rule mined without a fold and scored on that fold's approved "
    "targets with the scoring engine); 0 items -> value 0, gate fails. Never a substitute for precision_under_review",
}
COUNTING_RULES_V2_ID = COUNTING_RULES["id"]

# Counting rules /3 = /2, except that recovery (term and convention) counts only the conventions a run
# scores by default (candidate, validated): since the miner writes `suggested` rules (issue 25), a
# rule that is never scored must not recover gold. Frozen after /2's demo result showed that /2's
# recall counts suggested rules (stricter, never looser: it can only lower recall).
SCORED_FOR_RECOVERY: tuple[str, ...] = ("candidate", "validated")
COUNTING_RULES = {
    **COUNTING_RULES,
    "id": "housestyle-gold-counting/3",
    "term_recovery": COUNTING_RULES["term_recovery"] + "; only rules with status candidate or validated (what a run "
    "scores by default) recover: a suggested, indicative or rejected rule recovers nothing",
    "convention_recovery": COUNTING_RULES["convention_recovery"] + "; applicable mined conventions are those with "
    "status candidate or validated (what a run scores by default)",
}
IMPLEMENTED_RULES: tuple[str, ...] = (COUNTING_RULES_V1_ID, COUNTING_RULES_V2_ID, COUNTING_RULES["id"])


def recovery_statuses(rules_id: str) -> tuple[str, ...] | None:
    """The statuses whose conventions may recover gold under the frozen rules ``rules_id`` (None: all)."""
    return SCORED_FOR_RECOVERY if rules_id not in (COUNTING_RULES_V1_ID, COUNTING_RULES_V2_ID) else None


@dataclass(slots=True)
class GoldFile:
    """One frozen gold file, copied beside the registration (``path`` is relative to it)."""

    name: str
    path: str
    sha256: str
    kind: str
    src_lang: str
    tgt_lang: str
    origin: str = ""
    licence: str = ""
    attestation: dict[str, dict[str, Any]] = field(default_factory=dict)


@dataclass(slots=True)
class Gate:
    """One pre-registered gate: ``metric`` on ``split`` against ``gold`` must reach ``threshold``."""

    name: str
    metric: str
    split: str | None
    threshold: float
    gold: str | None
    on_fail: str
    role: str
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(slots=True)
class Informative:
    """A figure reported beside the gates that never decides anything (e.g. Google term recall)."""

    name: str
    metric: str
    split: str | None
    gold: str


@dataclass(slots=True)
class SplitsRef:
    """The client's splits.json (path relative to the repository root) and its sha256."""

    path: str
    sha256: str


@dataclass(slots=True)
class Registration:
    """A frozen registration; ``registration_hash`` covers every field except itself and field_hashes."""

    client: str
    version: str
    created_at: str
    gold: list[GoldFile]
    splits: SplitsRef
    gates: list[Gate]
    informative: list[Informative]
    claim_levels: list[str]
    counting_rules: dict[str, Any]
    description: str = ""
    format: str = FORMAT
    registration_hash: str = ""
    field_hashes: dict[str, str] = field(default_factory=dict)

    def payload(self) -> dict[str, Any]:
        """The hashed content: everything but the two derived hash fields."""
        data = asdict(self)
        data.pop("registration_hash")
        data.pop("field_hashes")
        return data

    def gold_by_name(self, name: str) -> GoldFile:
        for gold in self.gold:
            if gold.name == name:
                return gold
        raise KeyError(name)

    def to_json(self) -> str:
        data = self.payload()
        data["field_hashes"] = self.field_hashes
        data["registration_hash"] = self.registration_hash
        return json.dumps(data, ensure_ascii=True, indent=2, sort_keys=True) + "\n"  # invisible spaces stay visible

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Registration:
        return cls(
            client=data["client"],
            version=data["version"],
            created_at=data["created_at"],
            gold=[GoldFile(**g) for g in data["gold"]],
            splits=SplitsRef(**data["splits"]),
            gates=[Gate(**g) for g in data["gates"]],
            informative=[Informative(**i) for i in data.get("informative", [])],
            claim_levels=list(data["claim_levels"]),
            counting_rules=data["counting_rules"],
            description=data.get("description", ""),
            format=data.get("format", FORMAT),
            registration_hash=data.get("registration_hash", ""),
            field_hashes=data.get("field_hashes", {}),
        )


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def hash_payload(payload: dict[str, Any]) -> str:
    """sha256 of the canonical JSON (sorted keys, no whitespace): the registration hash."""
    return sha256_bytes(canonical_json(payload).encode("utf-8"))


def flatten_fields(value: Any, prefix: str = "") -> dict[str, str]:
    """Leaf path -> canonical JSON of the leaf, so a changed field can be named exactly.

    Lists of records are keyed by their ``name`` when they have one (``gates[facebook_recall_dev]``),
    so reordering is reported as what it is rather than as every field changing.
    """
    out: dict[str, str] = {}
    if isinstance(value, dict):
        if not value and prefix:
            out[prefix] = canonical_json(value)
        for key in sorted(value):
            out.update(flatten_fields(value[key], f"{prefix}.{key}" if prefix else str(key)))
    elif isinstance(value, list):
        if not value:
            out[prefix] = canonical_json(value)
        for index, item in enumerate(value):
            label = item.get("name") if isinstance(item, dict) and isinstance(item.get("name"), str) else index
            out.update(flatten_fields(item, f"{prefix}[{label}]"))
    else:
        out[prefix] = canonical_json(value)
    return out


def field_hashes_of(payload: dict[str, Any]) -> dict[str, str]:
    """Leaf path -> first 16 hex of sha256 of the leaf's canonical JSON."""
    return {path: sha256_bytes(text.encode("utf-8"))[:16] for path, text in flatten_fields(payload).items()}
