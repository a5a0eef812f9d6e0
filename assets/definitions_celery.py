"""The same graph as housestyle.assets.definitions, with the per-client job on dagster-celery's executor.

A code location of its own, because Dagster fixes a job's executor in code (run config cannot swap it).
Steps go to Celery workers (`housestyle worker`, i.e. `dagster-celery worker start -A dagster_celery.app`)
through the broker named by $HOUSESTYLE_CELERY_BROKER_URL (e.g. redis://host:6379/0), results through
$HOUSESTYLE_CELERY_BACKEND_URL; both are read when a run starts, never at import. Workers must run the
same code with the same project folder, storage root and Dagster instance (PostgreSQL profile): a
step writes its Parquet where the next step, maybe on another worker, reads it.
Needs the services extra (`pip install 'housestyle[services]'`).
"""

from __future__ import annotations

from dagster_celery import celery_executor

from housestyle.assets.definitions import build_definitions

ENV_BROKER = "HOUSESTYLE_CELERY_BROKER_URL"
ENV_BACKEND = "HOUSESTYLE_CELERY_BACKEND_URL"
CELERY_CONFIG = {"broker": {"env": ENV_BROKER}, "backend": {"env": ENV_BACKEND}}

defs = build_definitions(executor_def=celery_executor.configured(CELERY_CONFIG, name="celery"))
