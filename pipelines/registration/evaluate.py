"""Evaluate a convention set against a frozen registration: every gate, the verdict, the claim.

The registration is re-verified first (any change since freezing is a hard error). Attestation is
measured on the client's tm_units per split; a gold item counts for a split only when attested in it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import polars as pl

from housestyle.pipelines.rules.io import load_conventions
from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.conventionset.store import convention_source
from housestyle.pipelines.errors import InputError
from housestyle.pipelines.fingerprint import code_version
from housestyle.pipelines.registration.agreement import LABEL, heldout_agreement
from housestyle.pipelines.registration.behaviour import Evidence, Recovery, attested_units, recover
from housestyle.pipelines.registration.freeze import load_registration, sha256_file
from housestyle.pipelines.registration.gold import (
    GoldConvention,
    GoldPair,
    load_gold_conventions,
    load_term_pairs,
)
from housestyle.pipelines.registration.model import Gate, Informative, Registration, recovery_statuses
from housestyle.pipelines.registration.review import precision_gate, read_review
from housestyle.pipelines.splits import Splits, read_splits, split_units
from housestyle.pipelines.registration.terms import attest_pairs, recovered_pairs, term_recall
from housestyle.pipelines.registration.verdict import Evaluation, GateResult, decide, every_scored_validated

Units = list[tuple[str, str, str]]
NOT_MINED = ("authored", "gold")  # manifest origins for which "mined on which split" has no meaning


@dataclass(slots=True)
class ConventionSet:
    """The evaluated set: its conventions, version and the split it was mined on (from manifest.json)."""

    conventions: list[Convention]
    directory: Path | None
    set_version: str
    split: Any = None
    has_manifest: bool = False
    origin: str | None = None


def load_set(path: Path) -> ConventionSet:
    """A complete set folder (verified against its manifest, ``conventionset.store``) or a bare
    conventions file."""
    file, opened = convention_source(Path(path))
    directory = file.parent
    manifest = opened.manifest if opened else None
    version = opened.set_version if opened else f"file:{sha256_file(file)[:16]}"
    return ConventionSet(list(load_conventions(file)), directory, version,
                         manifest.get("split") if manifest else None, manifest is not None and "split" in manifest,
                         manifest.get("origin") if manifest else None)


def _units_frame(tm_units: pl.DataFrame | Path) -> pl.DataFrame:
    frame = tm_units if isinstance(tm_units, pl.DataFrame) else pl.read_parquet(tm_units)
    missing = {"unit_id", "source", "target", "domain"} - set(frame.columns)
    if missing:
        raise InputError(f"tm_units lacks columns {sorted(missing)}", path=str(tm_units) if isinstance(tm_units, Path) else "<tm_units>")
    return frame


def _rows(frame: pl.DataFrame) -> Units:
    return list(zip(frame["unit_id"].to_list(), frame["source"].to_list(), frame["target"].to_list()))


def tm_hash(frame: pl.DataFrame) -> str:
    digest = hashlib.sha256()
    for uid, src, tgt in sorted(_rows(frame.filter(pl.col("target").is_not_null())), key=lambda r: (r[0], r[1], r[2])):
        digest.update(f"{uid}\x1f{src}\x1f{tgt}\x1e".encode())
    return digest.hexdigest()


class _Context:
    """Caches gold, split units and per-gold work shared by several gates."""

    def __init__(self, reg: Registration, reg_dir: Path, splits: Splits, units: pl.DataFrame, conventions: list[Convention]):
        self.reg, self.reg_dir, self.splits, self.units, self.conventions = reg, reg_dir, splits, units, conventions
        self._split_rows: dict[str, Units] = {}
        self._pairs: dict[str, list[GoldPair]] = {}
        self._gold_conv: dict[str, list[GoldConvention]] = {}
        self._recovery: dict[str, dict[str, Recovery]] = {}

    def rows(self, split: str) -> Units:
        if split not in self._split_rows:
            self._split_rows[split] = _rows(split_units(self.units, self.splits, split))
        return self._split_rows[split]

    def pairs(self, name: str) -> list[GoldPair]:
        if name not in self._pairs:
            gold = self.reg.gold_by_name(name)
            self._pairs[name] = load_term_pairs(self.reg_dir / gold.path, gold.kind, gold.src_lang, gold.tgt_lang)
        return self._pairs[name]

    def gold_conventions(self, name: str) -> list[GoldConvention]:
        if name not in self._gold_conv:
            gold = self.reg.gold_by_name(name)
            self._gold_conv[name] = load_gold_conventions(self.reg_dir / gold.path, gold.src_lang, gold.tgt_lang)
        return self._gold_conv[name]

    def recovery(self, name: str) -> dict[str, Recovery]:
        if name not in self._recovery:
            self._recovery[name] = {g.gold_id: recover(g, self.conventions) for g in self.gold_conventions(name)}
        return self._recovery[name]


def _term_recall(ctx: _Context, gold_name: str, split: str) -> tuple[float, dict[str, Any]]:
    gold = ctx.reg.gold_by_name(gold_name)
    pairs = ctx.pairs(gold_name)
    result = term_recall(pairs, attest_pairs(pairs, ctx.rows(split)),
                         recovered_pairs(ctx.conventions, pairs, gold.src_lang, gold.tgt_lang))
    return result.value, {"units": len(ctx.rows(split)), "gold_pairs": len(pairs), **result.detail()}


def _conventions_recovered(ctx: _Context, gold_name: str, split: str) -> tuple[float, dict[str, Any]]:
    gold = ctx.reg.gold_by_name(gold_name)
    recovery = ctx.recovery(gold_name)
    attested, unattested = {}, []
    for item in ctx.gold_conventions(gold_name):
        evidence = Evidence.from_dict(gold.attestation[item.gold_id])
        ids = attested_units(evidence, ctx.rows(split), limit=max(evidence.min_units, 3))
        if len(ids) >= evidence.min_units:
            attested[item.gold_id] = ids
        else:
            unattested.append(item.gold_id)
    recovered = [g for g in attested if recovery[g].recovered]
    missed = [{"gold_id": g, "dimension": recovery[g].dimension, "failed_probes": recovery[g].failed_probes} for g in attested
              if not recovery[g].recovered]
    return float(len(recovered)), {
        "units": len(ctx.rows(split)), "attested": len(attested), "recovered": len(recovered),
        "attested_examples": attested, "not_attested": unattested,
        "recovered_items": [{"gold_id": g, "dimension": recovery[g].dimension, "convention_ids": recovery[g].recovering_ids[:10]}
                            for g in recovered],
        "missed": missed}


def _mining_provenance(ctx: _Context, cset: ConventionSet, split: str) -> str:
    """Which units the set was mined on, relative to a held-out split (recorded, never a failure).

    The held-out split is one the miner is never *tuned* on (SPEC.md §2); mining is unsupervised and
    is meant to run there — the held-out gate measures the untuned miner on unseen material. Gold is
    never an input to mining, so a set mined on held-out units is not leakage. What the gate cannot
    check (thresholds chosen by looking at held-out results) is a matter of process, stated in the
    closing notes; here we only make the provenance visible beside the figure.
    """
    if not cset.has_manifest or cset.origin in NOT_MINED:
        return ""  # unknown provenance, or hand-authored: nothing was mined
    mined_on = cset.split if isinstance(cset.split, list) else [cset.split] if cset.split else []
    if not mined_on:
        return "set mined on all units (held-out split included, untuned there)"
    unknown = [s for s in mined_on if s not in ctx.splits]
    if unknown:
        return f"set mined on split(s) {unknown} unknown to the registered splits file"
    seen = {uid for s in mined_on for uid, _, _ in ctx.rows(s)}
    overlap = sum(1 for uid, _, _ in ctx.rows(split) if uid in seen)
    return f"set mined on {mined_on}: {overlap} units shared with held-out split {split!r}"


def _measure(ctx: _Context, item: Gate | Informative) -> tuple[float, dict[str, Any]]:
    if item.metric == "term_recall":
        return _term_recall(ctx, str(item.gold), str(item.split))
    if item.metric == "conventions_recovered":
        return _conventions_recovered(ctx, str(item.gold), str(item.split))
    if item.metric == "heldout_agreement":
        return heldout_agreement(ctx.conventions)
    raise InputError(f"metric {item.metric} cannot be measured here", path=str(ctx.reg_dir))


def evaluate(registration_dir: Path, conventions: Path | Sequence[Convention], tm_units: pl.DataFrame | Path,
             review: Path | None = None, *, root: Path | None = None, splits_file: Path | None = None) -> Evaluation:
    """All gates of the registration on one convention set (nothing is written; see Evaluation.write).

    ``root``/``splits_file`` locate the client's splits file as in ``load_registration``.
    """
    reg_dir = Path(registration_dir)
    reg_dir = reg_dir.parent if reg_dir.is_file() else reg_dir
    reg = load_registration(reg_dir, root=root, splits_file=splits_file)
    root = Path(root) if root is not None else reg_dir.resolve().parents[2]
    splits_path = Path(splits_file) if splits_file is not None else root / reg.splits.path
    cset = load_set(conventions) if isinstance(conventions, (str, Path)) else \
        ConventionSet(list(conventions), None, "in-memory:" + hashlib.sha256(
            "".join(sorted(c.convention_id for c in conventions)).encode()).hexdigest()[:16])
    units = _units_frame(tm_units)
    statuses = recovery_statuses(str(reg.counting_rules["id"]))
    recovering = cset.conventions if statuses is None else [c for c in cset.conventions if c.status in statuses]
    ctx = _Context(reg, reg_dir, read_splits(splits_path), units, recovering)
    review_frame = read_review(review) if review is not None else None
    gates: list[GateResult] = []
    for gate in reg.gates:
        if gate.metric == "precision_under_review":
            prec = precision_gate(review_frame, {c.convention_id for c in cset.conventions}, gate.threshold, gate.params)
            gates.append(_result(gate, prec.value, prec.status, prec.reason, prec.detail()))
            continue
        value, detail = _measure(ctx, gate)
        status, reason = ("pass" if value >= gate.threshold else "fail"), ""
        if gate.role == "heldout":
            reason = _mining_provenance(ctx, cset, str(gate.split))
        elif gate.role == "automatic":
            reason = LABEL
        gates.append(_result(gate, value, status, reason, detail))
    informative = []
    for info in reg.informative:
        value, detail = _measure(ctx, info)
        informative.append(GateResult(name=info.name, metric=info.metric, split=info.split, gold=info.gold, threshold=None,
                                      value=value, status="info", gate=False, detail=detail))
    verdict, claim, downgrades, label = decide(gates, reg.claim_levels,
                                               every_scored_validated([c.status for c in cset.conventions]))
    units_hash = tm_hash(units)
    review_hash = sha256_file(review)[:12] if review is not None else "none"
    signature = (f"reg:{reg.client}/{reg.version}#{reg.registration_hash[:12]}|rules:{reg.counting_rules['id']}"
                 f"|set:{cset.set_version}|tm:{units_hash[:12]}|review:{review_hash}|housestyle:{code_version()}")
    return Evaluation(
        client=reg.client,
        registration={"path": str(reg_dir), "version": reg.version, "registration_hash": reg.registration_hash,
                      "created_at": reg.created_at},
        conventions={"path": str(conventions) if isinstance(conventions, (str, Path)) else None,
                     "set_version": cset.set_version, "count": len(cset.conventions), "split": cset.split},
        tm_units={"rows": units.height, "sha256": units_hash},
        gates=gates, informative=informative, verdict=verdict, claim_level=claim, downgrades=downgrades, label=label,
        signature=signature, evaluated_at=datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"))


def _result(gate: Gate, value: float | None, status: str, reason: str, detail: dict[str, Any]) -> GateResult:
    return GateResult(name=gate.name, metric=gate.metric, split=gate.split, gold=gate.gold, threshold=gate.threshold,
                      value=value, status=status, on_fail=gate.on_fail, role=gate.role, reason=reason, detail=detail)


def set_directory(conventions: Path) -> Path:
    """Where evaluation.json goes: the set folder (or the folder of a bare conventions file)."""
    conventions = Path(conventions)
    return conventions if conventions.is_dir() else conventions.parent
