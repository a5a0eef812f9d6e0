"""registration → miner_evaluation, with one non-blocking asset check per gate role.

The registration asset only verifies the frozen file (a changed gold/splits/threshold fails it,
hard). miner_evaluation judges the client's LATEST convention set and writes evaluation.json beside
it; gates are reported as non-blocking checks: a failed gate labels the set, never deletes it and
never stops scoring (scoring_run does not depend on these assets). Both assets carry the
``housestyle/reads_gold`` tag, which the isolation test uses to prove nothing upstream of the
candidates reads gold.
"""

# No `from __future__ import annotations`: Dagster inspects the context/resource annotations at runtime.

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from dagster import (
    AssetCheckExecutionContext,
    AssetCheckResult,
    AssetCheckSeverity,
    AssetCheckSpec,
    AssetExecutionContext,
    MaterializeResult,
    MetadataValue,
    asset,
    multi_asset_check,
)

from housestyle.assets.freshness import code_version
from housestyle.assets.metadata import md_table
from housestyle.assets.partitions import CLIENTS
from housestyle.assets.resources import HousestyleSettings
from housestyle.pipelines.registration.evaluate import evaluate
from housestyle.pipelines.registration.freeze import latest_registration_dir, load_registration
from housestyle.pipelines.registration.verdict import EVALUATION_FILE

READS_GOLD = {"housestyle/reads_gold": "true"}
GATE_ROLES = ("dev", "heldout", "review")
REVIEW_SUFFIXES = (".csv", ".tsv", ".parquet")


def review_file(settings: HousestyleSettings, client: str, set_version: str) -> Path | None:
    """inbox/<client>/review/<set_version>.csv|.tsv|.parquet — a linguist review of THIS set's sample."""
    folder = settings.client_dir(client) / "review"
    found = [folder / f"{set_version}{suffix}" for suffix in REVIEW_SUFFIXES if (folder / f"{set_version}{suffix}").is_file()]
    return found[0] if found else None


@asset(partitions_def=CLIENTS, group_name="evaluation", output_required=False, tags=READS_GOLD,
       deps=["client_registrations", "inbox_splits"], code_version=code_version(__name__))
def registration(context: AssetExecutionContext, settings: HousestyleSettings) -> Iterator[MaterializeResult]:
    """The client's newest frozen registration, verified (any change since freezing is a hard error)."""
    client = context.partition_key
    reg_dir = latest_registration_dir(settings.registrations, client)
    if reg_dir is None:
        context.log.warning(f"no registration for {client}: freeze one with `housestyle register --spec`")
        return
    reg = load_registration(reg_dir, splits_file=settings.client_dir(client) / "splits.json")
    gates = [{"gate": g.name, "metric": g.metric, "split": g.split, "threshold": g.threshold, "on_fail": g.on_fail}
             for g in reg.gates]
    yield MaterializeResult(metadata={
        "version": reg.version, "registration_hash": reg.registration_hash, "created_at": reg.created_at,
        "path": MetadataValue.path(str(reg_dir)),
        "gates": MetadataValue.md(md_table(gates, ["gate", "metric", "split", "threshold", "on_fail"])),
    })


@asset(partitions_def=CLIENTS, group_name="evaluation", output_required=False, tags=READS_GOLD,
       deps=["registration", "convention_set", "tm_units", "client_registrations", "inbox_review", "inbox_splits"],
       code_version=code_version(__name__))
def miner_evaluation(context: AssetExecutionContext, settings: HousestyleSettings) -> Iterator[MaterializeResult]:
    """Gates → verdict → claim level for the LATEST set; evaluation.json beside it (set_version unchanged)."""
    client = context.partition_key
    reg_dir = latest_registration_dir(settings.registrations, client)
    set_dir = settings.latest_set_dir(client)
    if reg_dir is None or set_dir is None:
        context.log.warning(f"nothing to evaluate for {client}: needs a registration and a convention set")
        return
    review = review_file(settings, client, set_dir.name)
    result = evaluate(reg_dir, set_dir, settings.tm_units_path(client), review,
                      splits_file=settings.client_dir(client) / "splits.json")
    path = result.write(set_dir)
    for line in result.summary_lines():
        context.log.info(line)
    rows = [{"gate": g.name, "split": g.split, "value": g.value, "threshold": g.threshold, "status": g.status}
            for g in [*result.gates, *result.informative]]
    yield MaterializeResult(metadata={
        "verdict": result.verdict, "claim_level": result.claim_level, "label": result.label,
        "signature": result.signature, "evaluation": MetadataValue.path(str(path)),
        "review": str(review) if review else "none (precision gate pending)",
        "gates": MetadataValue.md(md_table(rows, ["gate", "split", "value", "threshold", "status"])),
    })


def _role_check(role: str, evaluation: dict[str, Any]) -> AssetCheckResult:
    """One check per gate role: fail → ERROR, pending → WARN, no gate of that role → passed (nothing registered)."""
    gates = [g for g in evaluation["gates"] if g.get("role") == role]
    statuses = [g["status"] for g in gates]
    metadata: dict[str, Any] = {"gates": ", ".join(f"{g['name']}={g['status']}" for g in gates) or "none registered",
                                "verdict": evaluation["verdict"], "claim_level": evaluation["claim_level"]}
    for gate in gates:
        metadata[f"{gate['name']}.value"] = gate["value"] if gate["value"] is not None else "pending"
    if "fail" in statuses:
        return AssetCheckResult(check_name=f"gate_{role}", passed=False, severity=AssetCheckSeverity.ERROR, metadata=metadata)
    if "pending" in statuses:
        return AssetCheckResult(check_name=f"gate_{role}", passed=False, severity=AssetCheckSeverity.WARN, metadata=metadata)
    return AssetCheckResult(check_name=f"gate_{role}", passed=True, metadata=metadata)


@multi_asset_check(
    specs=[AssetCheckSpec(f"gate_{role}", asset="miner_evaluation", blocking=False,
                          description=f"pre-registered {role} gate(s); a failure labels the set, never blocks")
           for role in GATE_ROLES],
    can_subset=False,
)
def evaluation_gates(context: AssetCheckExecutionContext, settings: HousestyleSettings) -> Iterator[AssetCheckResult]:
    """Report each gate role from the evaluation.json the asset just wrote."""
    client = context.run.tags.get("dagster/partition", "")
    set_dir = settings.latest_set_dir(client)
    path = set_dir / EVALUATION_FILE if set_dir else None
    if path is None or not path.is_file():
        for role in GATE_ROLES:
            yield AssetCheckResult(check_name=f"gate_{role}", passed=False, severity=AssetCheckSeverity.WARN,
                                   metadata={"reason": f"no evaluation.json for client {client!r}"})
        return
    evaluation = json.loads(path.read_text(encoding="utf-8"))
    for role in GATE_ROLES:
        yield _role_check(role, evaluation)
