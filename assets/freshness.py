"""Incremental refresh: which of a client's assets must be recomputed, decided from Dagster's own records.

Inputs are Dagster assets too: every file input of a client (tm/, systems/, generic/, conventions/,
decisions.parquet, splits.json, review/, its registrations/) is an external source asset,
partitioned by client, whose version is a content fingerprint (sha256 of relative paths and file
contents: a touched but unchanged file is unchanged). A requester (the inbox sensor, the daily
schedule, `housestyle run`) records a new version as a Dagster observation when the fingerprint
differs from the last one observed. Every asset carries a ``code_version`` (its module and the
housestyle modules it imports, transitively, plus the installed versions of the declared
dependencies), which Dagster stamps on each materialization.

An asset of a client is stale when: it was never evaluated for the client; its recorded code
version differs from the current one; a source it reads was observed at a new version after its
last evaluation; an upstream asset was materialized after it (outside the run that evaluated it);
or an upstream asset is stale. A stale asset's whole downstream is stale (their logical data
versions, hashes of code and input versions, change with it). Nothing else is recomputed.

"Evaluated" counts a successful run in which the asset produced nothing (an optional asset, e.g.
registration for a client without one) as well as a materialization, so such assets are not
re-run every day. Known limit: a code change alone does not re-run an asset that has never
materialized (no recorded code version exists to compare); any input change still does.

Why not Dagster's declarative automation (checked against the installed Dagster 1.13; issue 28.5):
``AutomationCondition`` has the pieces (``code_version_changed``, ``data_version_changed``,
``any_deps_updated``; https://docs.dagster.io/guides/automate/declarative-automation/) but not this
behaviour. (1) Optional outputs: a successful run of an ``output_required=False`` asset that wrote
nothing (``registration`` for a client without one) leaves the partition *missing*, so ``eager``'s
``~any_deps_missing()`` blocks its downstream for ever; here that run counts as an evaluation.
(2) Sources: the inputs are external assets observed without a run; ``eager`` / ``newly_updated``
fire on every observation, not on a changed data version (dagster-io/dagster#28063, open), and
changes to partitioned non-observable sources are not seen as parent changes (#19207, open).
(3) One run per client, launched by the sensor that adds the partition, skipped while any code
location has a run of that client in flight. (4) ``housestyle run`` plans without a daemon. The
sensor tests (unchanged client → no run; new system file → ``system_outputs`` + ``scoring_run``;
new decisions file → the set and what reads it) are the acceptance test for a future move.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import metadata
from pathlib import Path
from typing import Any

from dagster import AssetKey, AssetObservation, AssetRecordsFilter, AssetSpec, DagsterInstance, DagsterRunStatus

from housestyle.pipelines.inbox_files import content_fingerprint, input_files, tm_files
from housestyle.assets.partitions import CLIENTS
from housestyle.assets.resources import HousestyleSettings
from housestyle.pipelines.paths import client_path
from housestyle.pipelines.fingerprint import CODE_PACKAGES as INTERNAL_PACKAGES
from housestyle.pipelines.fingerprint import PACKAGE_ROOT, files_digest

DATA_VERSION_TAG = "dagster/data_version"
CODE_VERSION_TAG = "dagster/code_version"


def _client_file(name: str) -> Callable[[HousestyleSettings, str], list[Path]]:
    def files(settings: HousestyleSettings, client: str) -> list[Path]:
        path = settings.client_dir(client) / name
        return [path] if path.is_file() else []
    return files


def _client_folder(name: str) -> Callable[[HousestyleSettings, str], list[Path]]:
    def files(settings: HousestyleSettings, client: str) -> list[Path]:
        return input_files(settings.client_dir(client) / name)
    return files


def _registration_files(settings: HousestyleSettings, client: str) -> list[Path]:
    folder = client_path(settings.registrations, client)
    return sorted(p for p in folder.rglob("*") if p.is_file()) if folder.is_dir() else []


# source asset key -> (the files it stands for, what it is). The registry of a client's file inputs.
SOURCES: dict[str, tuple[Callable[[HousestyleSettings, str], list[Path]], str]] = {
    "inbox_tm": (lambda s, c: tm_files(s.inbox, c), "`inbox/<client>/tm/`: the translation memories"),
    "inbox_systems": (_client_folder("systems"), "`inbox/<client>/systems/`: outputs to score (a file, zip or folder each)"),
    "inbox_generic": (_client_folder("generic"), "`inbox/<client>/generic/`: generic-system outputs (contrast)"),
    "inbox_conventions": (_client_folder("conventions"), "`inbox/<client>/conventions/`: authored conventions"),
    "inbox_decisions": (_client_file("decisions.parquet"), "`inbox/<client>/decisions.parquet`: linguists' decisions"),
    "inbox_glossary": (_client_folder("glossary"), "`inbox/<client>/glossary/`: the client's termbase (import-glossary)"),
    "inbox_ignores": (_client_file("ignores.parquet"), "`inbox/<client>/ignores.parquet`: reviewers' per-item ignores"),
    "inbox_settings": (_client_file("settings.json"), "`inbox/<client>/settings.json`: the pass threshold"),
    "inbox_splits": (_client_file("splits.json"), "`inbox/<client>/splits.json`: which units each mining run sees"),
    "inbox_review": (_client_folder("review"), "`inbox/<client>/review/`: linguist reviews of a set's sample"),
    "client_registrations": (_registration_files, "`registrations/<client>/`: frozen gold registrations"),
}


def source_specs() -> list[AssetSpec]:
    """The client's file inputs as external assets (lineage in the UI; observed, never materialized)."""
    return [AssetSpec(key, description=what, partitions_def=CLIENTS, group_name="inbox", kinds={"files"})
            for key, (_files, what) in SOURCES.items()]


def source_root(settings: HousestyleSettings, key: str, client: str) -> Path:
    return client_path(settings.registrations, client) if key == "client_registrations" else settings.client_dir(client)


def source_versions(settings: HousestyleSettings, client: str) -> dict[str, str]:
    """Current content fingerprint of each source of one client."""
    return {key: content_fingerprint(files(settings, client), source_root(settings, key, client))
            for key, (files, _what) in SOURCES.items()}


# ---------------------------------------------------------------------------------------- code versions

IMPORT_PREFIX = "housestyle."  # the one import package; its code lives in PACKAGE_ROOT/{pipelines,assets}


def _module_path(name: str) -> Path | None:
    if not name.startswith(IMPORT_PREFIX):
        return None
    base = PACKAGE_ROOT.joinpath(*name[len(IMPORT_PREFIX):].split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


@lru_cache(maxsize=None)
def _direct_imports(name: str) -> frozenset[str]:
    """housestyle modules ``name`` imports (any nesting level: lazy imports count too)."""
    path = _module_path(name)
    if path is None:
        return frozenset()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join(anchor + ([node.module] if node.module else []))
            targets = [base, *(f"{base}.{alias.name}" for alias in node.names)]
        for target in targets:
            if target.split(".")[1:2] and target.split(".")[1] in INTERNAL_PACKAGES and _module_path(target) is not None:
                found.add(target)
    return frozenset(found)


def import_closure(name: str) -> list[str]:
    """``name`` and every housestyle module it reaches through imports, sorted."""
    seen: set[str] = set()
    todo = [name]
    while todo:
        current = todo.pop()
        if current in seen:
            continue
        seen.add(current)
        todo.extend(_direct_imports(current) - seen)
    return sorted(seen)


def _data_files(module_file: Path) -> list[Path]:
    """Data shipped beside a module in folders that are not packages (prompt templates, criteria)."""
    folder = module_file.parent
    return sorted(p for sub in folder.iterdir() if sub.is_dir() and not (sub / "__init__.py").exists()
                  and sub.name != "__pycache__" for p in sub.rglob("*") if p.is_file() and p.suffix != ".pyc")


@lru_cache(maxsize=1)
def dependency_versions() -> str:
    """Installed versions of housestyle's declared dependencies (a library upgrade is a code change)."""
    try:
        requirements = metadata.requires("housestyle") or []
    except metadata.PackageNotFoundError:
        return "housestyle-not-installed"
    names = sorted({m.group(0).lower() for r in requirements if "extra ==" not in r
                    for m in [re.match(r"[A-Za-z0-9_.\-]+", r)] if m})
    parts = []
    for name in names:
        try:
            parts.append(f"{name}=={metadata.version(name)}")
        except metadata.PackageNotFoundError:
            parts.append(f"{name}==absent")
    return ";".join(parts)


@lru_cache(maxsize=None)
def code_version(module: str) -> str:
    """Dagster code version of the assets defined in ``module``: a hash of its import closure's source."""
    files: set[Path] = set()
    for name in import_closure(module):
        path = _module_path(name)
        if path is not None:
            files.add(path)
            files.update(_data_files(path))
    return files_digest(files, PACKAGE_ROOT, seed=dependency_versions().encode())[:16]


# ---------------------------------------------------------------------------------------- staleness

@dataclass
class RefreshPlan:
    """What one client needs: the stale assets (with why) and the sources observed at a new version."""

    client: str
    stale: dict[AssetKey, str] = field(default_factory=dict)
    new_versions: dict[str, str] = field(default_factory=dict)

    @property
    def asset_selection(self) -> list[AssetKey]:
        return sorted(self.stale, key=lambda k: k.to_user_string())


@dataclass(frozen=True)
class _Evaluation:
    storage_id: int  # -1: never evaluated
    run_id: str | None
    code_version: str | None


def _latest_observed(instance: DagsterInstance, key: str, client: str) -> tuple[int, str | None]:
    records = instance.fetch_observations(AssetRecordsFilter(asset_key=AssetKey(key), asset_partitions=[client]),
                                          limit=1).records
    if not records:
        return -1, None
    observation = records[0].event_log_entry.asset_observation
    return records[0].storage_id, (observation.tags or {}).get(DATA_VERSION_TAG) if observation else None


def _evaluation(instance: DagsterInstance, key: AssetKey, client: str) -> _Evaluation:
    """The asset's last evaluation for the client: its newest materialization, or a later successful run
    that planned it and got nothing (an optional output)."""
    records = instance.fetch_materializations(AssetRecordsFilter(asset_key=key, asset_partitions=[client]),
                                              limit=1).records
    materialized = _Evaluation(-1, None, None)
    if records:
        entry = records[0].event_log_entry
        tags = entry.asset_materialization.tags or {} if entry.asset_materialization else {}
        materialized = _Evaluation(records[0].storage_id, entry.run_id, tags.get(CODE_VERSION_TAG))
    planned = instance.get_latest_planned_materialization_info(key, client)
    if planned is None or planned.storage_id <= materialized.storage_id:
        return materialized
    run = instance.get_run_record_by_id(planned.run_id)
    if run is None or run.dagster_run.status != DagsterRunStatus.SUCCESS:
        return materialized
    return _Evaluation(planned.storage_id, planned.run_id, materialized.code_version)


def plan_refresh(instance: DagsterInstance, graph: Any, keys: Iterable[AssetKey], settings: HousestyleSettings,
                 client: str) -> RefreshPlan:
    """Which of ``keys`` (the client job's assets, any order) are stale for ``client``, and why."""
    plan = RefreshPlan(client)
    observed: dict[str, tuple[int, str | None]] = {}
    for key, version in source_versions(settings, client).items():
        storage_id, last = _latest_observed(instance, key, client)
        observed[key] = (storage_id, last)
        if version != last:
            plan.new_versions[key] = version
    wanted = set(keys)
    evaluations: dict[AssetKey, _Evaluation] = {}
    for key in graph.toposorted_asset_keys:
        if key not in wanted:
            continue
        node = graph.get(key)
        evaluation = evaluations[key] = _evaluation(instance, key, client)
        reason = _stale_reason(node, evaluation, observed, plan, evaluations)
        if reason:
            plan.stale[key] = reason
    return plan


def _stale_reason(node: Any, evaluation: _Evaluation, observed: Mapping[str, tuple[int, str | None]],
                  plan: RefreshPlan, evaluations: Mapping[AssetKey, _Evaluation]) -> str | None:
    if evaluation.storage_id < 0:
        return "never evaluated for this client"
    if evaluation.code_version is not None and node.code_version and evaluation.code_version != node.code_version:
        return f"code changed ({evaluation.code_version} → {node.code_version})"
    for parent in sorted(node.parent_keys, key=lambda k: k.to_user_string()):
        name = parent.to_user_string()
        if name in observed:
            if name in plan.new_versions:
                return f"{name} changed"
            if observed[name][0] > evaluation.storage_id:
                return f"{name} was observed at a new version after the last evaluation"
        elif parent in plan.stale:
            return f"upstream {name} is stale"
        elif parent in evaluations:
            upstream = evaluations[parent]
            if upstream.storage_id > evaluation.storage_id and upstream.run_id != evaluation.run_id:
                return f"upstream {name} was materialized after the last evaluation"
    return None


def record_observations(instance: DagsterInstance, plan: RefreshPlan) -> list[AssetObservation]:
    """Store the sources' new versions as Dagster observations (what the next plan compares against)."""
    events = [AssetObservation(asset_key=key, partition=plan.client, tags={DATA_VERSION_TAG: version},
                               metadata={"fingerprint": version})
              for key, version in sorted(plan.new_versions.items())]
    for event in events:
        instance.report_runless_asset_event(event)
    return events
