"""The inbox sensor (on by default): a new or changed file under inbox/<client>/tm/ adds the client and
runs what the change makes stale; so does a new or changed inbox/<client>/decisions.parquet (a
review-import), whose decisions every new set of the client follows.

The cursor maps client → a cheap fingerprint of its tm/ files and its decisions file (paths, sizes,
mtimes), so an untouched
inbox costs one directory walk a tick. When it moves, the client's refresh plan (assets/freshness.py:
content fingerprints of every input, Dagster's code versions and records) decides what to run: a
touched but identical file runs nothing, a rewritten TM re-runs ingest and what depends on it. Each
location's sensor looks only at its own inbox, and a client with a run queued or in progress (from
any location of the instance) is left for a later tick, its cursor entry unchanged.
"""

# No `from __future__ import annotations`: Dagster inspects the context/resource annotations at runtime.

import json
from pathlib import Path

from dagster import (
    DefaultSensorStatus,
    RepositoryDefinition,
    RunRequest,
    SensorEvaluationContext,
    SensorResult,
    SkipReason,
    sensor,
)

from assets.inbox import clients_with_tm, fingerprint, tm_files
from pipelines.conventionset.decisions import DECISIONS_FILE
from assets.jobs import CLIENT_JOB_NAME
from assets.partitions import CLIENTS, CLIENTS_PARTITIONS_NAME
from assets.resources import HousestyleSettings
from assets.schedules import client_in_flight, refresh_request


def _repository(context: SensorEvaluationContext) -> RepositoryDefinition:
    """The code location's repository (a test builds its context with ``repository_def=``)."""
    if context.repository_def is None:
        raise RuntimeError("the inbox sensor runs inside a code location (its context has no repository)")
    return context.repository_def


def _watched(settings: HousestyleSettings, client: str, tm: list[Path]) -> str:
    """The cursor entry: tm/'s fingerprint, plus the decisions file's when there is one (so a client
    without decisions keeps the entry it always had)."""
    moved = fingerprint(tm, settings.inbox / client / "tm")
    decisions = settings.client_dir(client) / DECISIONS_FILE
    return f"{moved}+{fingerprint([decisions], settings.client_dir(client))}" if decisions.is_file() else moved


def evaluate_inbox(context: SensorEvaluationContext, settings: HousestyleSettings) -> SensorResult:
    """One tick: compare each client's tm/ fingerprint with the cursor; plan the clients that moved."""
    seen: dict[str, str] = json.loads(context.cursor) if context.cursor else {}
    known = set(context.instance.get_dynamic_partitions(CLIENTS_PARTITIONS_NAME))
    current: dict[str, str] = {}
    new_clients: list[str] = []
    requests: list[RunRequest] = []
    notes: list[str] = []
    for client in clients_with_tm(settings.inbox):
        files = tm_files(settings.inbox, client)
        if not files:
            continue
        moved = _watched(settings, client, files)
        if client not in known:
            new_clients.append(client)
        if seen.get(client) == moved:
            current[client] = moved
            continue
        if client_in_flight(context.instance, client):
            if client in seen:
                current[client] = seen[client]  # not advanced: this change is planned on a later tick
            notes.append(f"{client}: run in flight")
            continue
        current[client] = moved
        request, plan = refresh_request(context.instance, _repository(context), settings, client, "inbox",
                                        f"{client}:{moved}")
        if request is not None:
            requests.append(request)
        else:
            notes.append(f"{client}: tm/ or decisions touched, content unchanged")
    return SensorResult(
        run_requests=requests,
        dynamic_partitions_requests=[CLIENTS.build_add_request(new_clients)] if new_clients else [],
        cursor=json.dumps(current, sort_keys=True),
        skip_reason=None if requests else SkipReason("; ".join(notes) or "no new or changed files under inbox/*/tm/ "
                                                                           "or inbox/*/decisions.parquet"),
    )


@sensor(job_name=CLIENT_JOB_NAME, minimum_interval_seconds=30, default_status=DefaultSensorStatus.RUNNING,
        description="Adds a client partition and runs what changed when files appear or change under inbox/<client>/tm/ "
                    "or inbox/<client>/decisions.parquet changes.")
def inbox_sensor(context: SensorEvaluationContext, settings: HousestyleSettings) -> SensorResult:
    return evaluate_inbox(context, settings)
