"""The Dagster layer: thin wiring around ``pipelines`` (assets, checks, resources, sensors, CLI)."""
