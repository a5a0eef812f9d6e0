"""The Definitions object (`dagster dev -m housestyle.assets.definitions`), the default code location.

ASSET_MODULES is the registry: a module that defines assets or asset checks joins the graph with one
line here. Every client-partitioned asset is part of the per-client job the sensor, the schedule and
`housestyle run` launch; the client's file inputs are external source assets (assets/freshness.py).
This location runs the job on the multiprocess executor; assets/definitions_celery.py is the same
graph on Celery workers.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from dagster import (
    AssetsDefinition,
    Definitions,
    ExecutorDefinition,
    load_asset_checks_from_modules,
    load_assets_from_modules,
)

from housestyle.assets.freshness import source_specs
from housestyle.assets.jobs import client_job
from housestyle.assets.resources import HousestyleSettings
from housestyle.assets.schedules import daily_refresh
from housestyle.assets.sensors import inbox_sensor

ASSET_MODULES: list[str] = [
    "housestyle.assets.ingest",
    "housestyle.assets.mining",
    "housestyle.assets.scoring",
    "housestyle.assets.metaeval",
    "housestyle.assets.evaluation",
    "housestyle.assets.generation",
    "housestyle.assets.judge",
]


def _modules() -> list[ModuleType]:
    return [importlib.import_module(name) for name in ASSET_MODULES]


def build_definitions(executor_def: ExecutorDefinition | None = None) -> Definitions:
    """Assemble the graph from the registry (a function, so tests and other locations can build it afresh)."""
    modules = _modules()
    all_assets = [a for a in load_assets_from_modules(modules) if isinstance(a, AssetsDefinition)]
    return Definitions(
        assets=[*all_assets, *source_specs()],
        asset_checks=load_asset_checks_from_modules(modules),
        jobs=[client_job(all_assets, executor_def)],
        sensors=[inbox_sensor],
        schedules=[daily_refresh],
        resources={"settings": HousestyleSettings()},
    )


defs = build_definitions()
