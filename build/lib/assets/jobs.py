"""The per-client job: every client-partitioned asset (and its checks), in graph order."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from dagster import AssetsDefinition, AssetSelection, define_asset_job

if TYPE_CHECKING:  # the return type is not exported by dagster's public API
    from dagster._core.definitions.unresolved_asset_job_definition import (
        UnresolvedAssetJobDefinition,
    )

from assets.partitions import CLIENTS

CLIENT_JOB_NAME = "client_refresh"


def client_job(assets: Sequence[AssetsDefinition]) -> UnresolvedAssetJobDefinition:
    """A job over every asset partitioned by client (unpartitioned assets, if any, stay out of it)."""
    keys = [key for a in assets if a.partitions_def == CLIENTS for key in a.keys]
    return define_asset_job(CLIENT_JOB_NAME, selection=AssetSelection.assets(*keys),
                            description="Materialise the whole graph for one client.")
