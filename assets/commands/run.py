"""`housestyle run [--client NAME] [--executor multiprocess|in_process] [-v]`: materialise the whole graph for
one client on this machine, with progress lines (quiet by default; ``-v`` adds Dagster's DEBUG log).

The default executor runs each step in its own process (independent assets side by side, as in a
deployment); ``in_process`` runs every step in this process (one at a time, simplest to debug). The
inputs' versions are observed first, so a later daily tick recomputes nothing that this run made.

A command of the Dagster layer (it joins through pyproject's ``housestyle.commands`` entry points). Its
module is imported to build the parser for every command line, `housestyle --help` included, so Dagster
and the definitions (seconds to load) are imported in ``run`` only, when this command runs.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from housestyle.pipelines.cli.dagster_home import ensure_dagster_home
from housestyle.pipelines.errors import ConfigError
from housestyle.pipelines.inbox_files import tm_files
from housestyle.pipelines.paths import CLIENT_GRAMMAR

if TYPE_CHECKING:
    from housestyle.assets.resources import HousestyleSettings

DEFAULT_CLIENT = "demo"
EXECUTORS = ("multiprocess", "in_process")


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("run", help="materialise every asset for a client (default: the demo client)",
                                   description="Run the whole asset graph for one client partition on this machine.")
    parser.add_argument("--client", default=DEFAULT_CLIENT,
                        help=f"client folder under inbox/ (default: {DEFAULT_CLIENT}); a client name is one path "
                             f"segment: {CLIENT_GRAMMAR}")
    parser.add_argument("--executor", choices=EXECUTORS, default="multiprocess",
                        help="a process per step, independent steps side by side (default), or every step in this process")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="also print Dagster's own DEBUG log (default: only housestyle's progress lines)")
    parser.set_defaults(func=run)


def cli_job() -> Any:
    """The client job with the progress logger (module level: the multiprocess executor rebuilds it per step)."""
    from dagster import colored_console_logger  # the Dagster layer, loaded when the command runs (module docstring)

    from housestyle.assets.definitions import defs
    from housestyle.assets.jobs import CLIENT_JOB_NAME
    from housestyle.assets.progress import progress_logger

    return defs.resolve_job_def(CLIENT_JOB_NAME).with_logger_defs({"progress": progress_logger,
                                                                   "console": colored_console_logger})


def _materialisation_metadata(result: Any) -> dict[str, dict[str, Any]]:
    """asset key → metadata values of its materialisation in this run."""
    found: dict[str, dict[str, Any]] = {}
    for event in result.get_asset_materialization_events():
        materialization = event.step_materialization_data.materialization
        found[materialization.asset_key.to_user_string()] = {k: v.value for k, v in materialization.metadata.items()}
    return found


def _print_outcome(settings: HousestyleSettings, client: str, produced: dict[str, dict[str, Any]]) -> None:
    """Where the analyst finds things: TM tables, the convention set, the scoring report, the verdict."""
    units = produced.get("tm_units")
    if units:
        print(f"tm_units:        {units.get('path')} ({units.get('dagster/row_count', 0):,} units)")
        print(f"tm_rejects:      {settings.tm_rejects_path(client)}")
    set_dir = settings.latest_set_dir(client)
    print(f"convention set:  {set_dir if set_dir else '(none yet: add inbox/' + client + '/conventions/ or mine one)'}")
    run_info = produced.get("scoring_run")
    if run_info:
        print(f"scoring run:     {run_info.get('run_dir')}")
        print(f"report:          {run_info.get('report')}")
    evaluation = set_dir / "evaluation.json" if set_dir else None
    if evaluation is not None and evaluation.is_file():
        data = json.loads(evaluation.read_text(encoding="utf-8"))
        print(f"verdict:         {data.get('verdict')} (claim level: {data.get('claim_level')}; "
              f"label: {data.get('label', 'indicative')})")


def _instance(verbose: bool) -> Any:
    """The project's instance; quiet unless ``verbose``: Dagster's console log (step workers starting,
    engine events) is kept at WARNING, here and in the step processes (they rebuild the instance from
    its ref, overrides included). The UI's event log records every event either way."""
    from dagster import DagsterInstance  # loaded when the command runs (module docstring)
    from dagster._core.instance.ref import InstanceRef

    if verbose:
        return DagsterInstance.get()
    home = str(ensure_dagster_home())
    return DagsterInstance.from_ref(InstanceRef.from_dir(home, overrides={"python_logs": {"python_log_level": "WARNING"}}))


def _observe_inputs(instance: Any, settings: HousestyleSettings, client: str) -> None:
    """Record the client's input versions (what the schedule compares against), as its sensor would."""
    from housestyle.assets.definitions import defs  # loaded when the command runs (module docstring)
    from housestyle.assets.freshness import plan_refresh, record_observations
    from housestyle.assets.jobs import CLIENT_JOB_NAME

    repository = defs.get_repository_def()
    keys = repository.get_job(CLIENT_JOB_NAME).asset_layer.selected_asset_keys
    record_observations(instance, plan_refresh(instance, repository.asset_graph, keys, settings, client))


def run(args: argparse.Namespace) -> int:
    ensure_dagster_home()
    # the Dagster layer, loaded when the command runs (module docstring)
    from dagster import execute_job, reconstructable

    from housestyle.assets.jobs import LOCAL_EXECUTION_CONFIG
    from housestyle.assets.partitions import CLIENTS_PARTITIONS_NAME
    from housestyle.assets.resources import HousestyleSettings
    from housestyle.assets.run_owner import client_run_lock, owner_tags, release_dead_runs
    from housestyle.assets.schedules import client_in_flight

    settings = HousestyleSettings()
    client = args.client
    if not settings.client_dir(client).is_dir():
        known = ", ".join(client_dirs(settings.inbox)) or "none"
        raise ConfigError(f"no client folder {settings.client_dir(client)} (clients: {known})")
    if not tm_files(settings.inbox, client):  # nothing to learn from: say so now, not after minutes of steps
        raise ConfigError(f"{settings.client_dir(client) / 'tm'}: no translation memories for client {client!r} "
                          "(add TMX, XLIFF, PO or TBX files there, then run again)")
    run_config: dict[str, Any] = {"loggers": {"progress": {}, **({"console": {}} if args.verbose else {})}}
    tags = {"housestyle/trigger": "cli", **owner_tags()}
    with client_run_lock(settings.storage, client), _instance(args.verbose) as instance:
        release_dead_runs(instance, client)
        if client_in_flight(instance, client):
            raise ConfigError(f"a run of client {client!r} is already queued or in progress (see `dagster` runs or "
                              "the UI): wait for it to finish, then run again")
        if not instance.has_dynamic_partition(CLIENTS_PARTITIONS_NAME, client):
            instance.add_dynamic_partitions(CLIENTS_PARTITIONS_NAME, [client])
        _observe_inputs(instance, settings, client)
        print(f"housestyle run: client {client!r}, inbox {settings.inbox}, DAGSTER_HOME={instance.root_directory}, "
              f"{args.executor} executor", file=sys.stderr, flush=True)
        if args.executor == "in_process":
            result = cli_job().execute_in_process(run_config=run_config, partition_key=client, instance=instance,
                                                  raise_on_error=False, tags=tags)
            produced, success = _materialisation_metadata(result), result.success
        else:
            with execute_job(reconstructable(cli_job), instance=instance, run_config={**run_config, **LOCAL_EXECUTION_CONFIG},
                             raise_on_error=False,
                             tags={**tags, "dagster/partition": client}) as job_result:
                produced, success = _materialisation_metadata(job_result), job_result.success
    _print_outcome(settings, client, produced)
    if not success:
        print(f"housestyle run: the run for {client!r} failed (see the lines marked ✗ above)", file=sys.stderr)
        return 1
    return 0


def client_dirs(inbox: Path) -> list[str]:
    return sorted(p.name for p in inbox.iterdir() if p.is_dir()) if inbox.is_dir() else []
