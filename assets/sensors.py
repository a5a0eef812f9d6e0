"""The inbox sensor (on by default): a new or changed file under inbox/<client>/tm/ adds the client and
runs what the change makes stale; so does a new or changed inbox/<client>/decisions.parquet (a
review-import), whose decisions every new set of the client follows, and a new or changed delivery
under inbox/<client>/systems/ (a file, zip or folder per system), ignores.parquet (an ignore-import)
or settings.json (the pass threshold), which re-score.

The cursor maps client → a cheap fingerprint of its tm/ files and its decisions file (paths, sizes,
mtimes), so an untouched
inbox costs one directory walk a tick. When it moves, the client's refresh plan (assets/freshness.py:
content fingerprints of every input, Dagster's code versions and records) decides what to run: a
touched but identical file runs nothing, a rewritten TM re-runs ingest and what depends on it. Each
location's sensor looks only at its own inbox, and a client with a run queued or in progress (from
any location of the instance) is left for a later tick, its cursor entry unchanged — unless the process
that ran it is gone (``kill -9``, out of memory): such a run is marked failed (assets/run_owner.py) and
the client is planned on this very tick. Inbox folders whose name is not a client name
(``housestyle.pipelines.paths``) or that are symlinks are skipped with a logged reason.
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

from housestyle.pipelines.inbox_files import clients_with_tm, fingerprint, input_files, tm_files, unsafe_client_folders
from housestyle.pipelines.scoring.client_settings import SETTINGS_FILE
from housestyle.pipelines.scoring.ignores import IGNORES_FILE
from housestyle.pipelines.conventionset.decisions import DECISIONS_FILE
from housestyle.assets.jobs import CLIENT_JOB_NAME
from housestyle.assets.partitions import CLIENTS, CLIENTS_PARTITIONS_NAME
from housestyle.assets.resources import HousestyleSettings
from housestyle.assets.run_owner import release_dead_runs
from housestyle.assets.schedules import client_in_flight, refresh_request
from housestyle.pipelines.paths import CLIENT_GRAMMAR, UnsafePathError


def _repository(context: SensorEvaluationContext) -> RepositoryDefinition:
    """The code location's repository (a test builds its context with ``repository_def=``)."""
    if context.repository_def is None:
        raise RuntimeError("the inbox sensor runs inside a code location (its context has no repository)")
    return context.repository_def


def _watched(settings: HousestyleSettings, client: str, tm: list[Path]) -> str:
    """The cursor entry: tm/'s fingerprint, plus the decisions and glossary files' when there are any (so a
    client without decisions keeps the entry it always had), plus systems/ (files, zips, delivery folders),
    ignores.parquet and settings.json when present."""
    client_dir = settings.client_dir(client)
    moved = fingerprint(tm, client_dir / "tm")
    also = [p for p in [client_dir / DECISIONS_FILE] if p.is_file()] + input_files(client_dir / "glossary")
    if also:
        moved = f"{moved}+{fingerprint(also, client_dir)}"
    scoring = [*input_files(client_dir / "systems"),
               *(p for p in (client_dir / n for n in (IGNORES_FILE, SETTINGS_FILE)) if p.is_file())]
    return f"{moved}+s{fingerprint(scoring, client_dir)}" if scoring else moved


def evaluate_inbox(context: SensorEvaluationContext, settings: HousestyleSettings) -> SensorResult:
    """One tick: compare each client's tm/ fingerprint with the cursor; plan the clients that moved."""
    seen: dict[str, str] = json.loads(context.cursor) if context.cursor else {}
    known = set(context.instance.get_dynamic_partitions(CLIENTS_PARTITIONS_NAME))
    current: dict[str, str] = {}
    new_clients: list[str] = []
    requests: list[RunRequest] = []
    notes: list[str] = []
    for name in unsafe_client_folders(settings.inbox):
        note = f"inbox/{name[:80]!r}: skipped, not a client (a client folder is a real folder named {CLIENT_GRAMMAR})"
        context.log.warning(note)
        notes.append(note)
    for client in clients_with_tm(settings.inbox):
        try:
            files = tm_files(settings.inbox, client)
        except UnsafePathError as exc:  # inbox/<client>/tm links out of the inbox
            context.log.warning(f"{client}: skipped: {exc}")
            notes.append(f"{client}: skipped: {exc}")
            continue
        if not files:
            continue
        moved = _watched(settings, client, files)
        if client not in known:
            new_clients.append(client)
        if seen.get(client) == moved:
            current[client] = moved
            continue
        for run_id in release_dead_runs(context.instance, client):
            context.log.warning(f"{client}: run {run_id} marked failed: the process that ran it is gone")
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
        skip_reason=None if requests else SkipReason("; ".join(notes) or "no new or changed files under inbox/*/tm/, "
                                                                           "systems/, decisions, ignores or settings"),
    )


@sensor(job_name=CLIENT_JOB_NAME, minimum_interval_seconds=30, default_status=DefaultSensorStatus.RUNNING,
        description="Adds a client partition and runs what changed when files appear or change under inbox/<client>/tm/ "
                    "or systems/, or inbox/<client>/decisions.parquet, ignores.parquet or settings.json changes.")
def inbox_sensor(context: SensorEvaluationContext, settings: HousestyleSettings) -> SensorResult:
    return evaluate_inbox(context, settings)
