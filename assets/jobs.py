"""The per-client job (every client-partitioned asset and its checks, in graph order) and its execution.

Its executor is a property of the code location (Dagster cannot swap an executor by run config):
the default location (housestyle.assets.definitions) runs each step in its own process, so independent assets
of one run (pattern, rule and term candidates, contrast) run side by side; housestyle.assets.definitions_celery
carries dagster-celery's executor instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from dagster import (
    AssetsDefinition,
    AssetSelection,
    Backoff,
    ExecutorDefinition,
    Jitter,
    RetryPolicy,
    define_asset_job,
    multiprocess_executor,
)

if TYPE_CHECKING:  # the return type is not exported by dagster's public API
    from dagster._core.definitions.unresolved_asset_job_definition import (
        UnresolvedAssetJobDefinition,
    )

from housestyle.assets.partitions import CLIENTS

CLIENT_JOB_NAME = "client_refresh"
# Step processes fork from a server that has already imported the graph (spaCy, polars, sklearn...):
# a spawned step would spend ~10 s importing them before doing any work.
LOCAL_EXECUTION_CONFIG = {"execution": {"config": {
    "start_method": {"forkserver": {"preload_modules": ["housestyle.assets.definitions"]}}}}}
# Steps that call a model server (generation, LLM criteria) retry a failed call with exponential
# back-off and jitter: 5 s, ~10 s, ~20 s. Deterministic steps do not retry (a retry would fail the same way).
MODEL_SERVER_RETRY = RetryPolicy(max_retries=3, delay=5, backoff=Backoff.EXPONENTIAL, jitter=Jitter.PLUS_MINUS)


def client_asset_keys(assets: Sequence[AssetsDefinition]) -> list[str]:
    return [key.to_user_string() for a in assets if a.partitions_def == CLIENTS and a.is_executable
            and not a.is_external for key in a.keys]


def client_job(assets: Sequence[AssetsDefinition],
               executor_def: ExecutorDefinition | None = None) -> UnresolvedAssetJobDefinition:
    """A job over every materialisable asset partitioned by client (unpartitioned ones stay out of it)."""
    return define_asset_job(CLIENT_JOB_NAME, selection=AssetSelection.assets(*client_asset_keys(assets)),
                            executor_def=executor_def or multiprocess_executor,
                            config=None if executor_def else LOCAL_EXECUTION_CONFIG,
                            description="Materialise the client's graph (the schedule and the sensor select "
                                        "only what changed).")
