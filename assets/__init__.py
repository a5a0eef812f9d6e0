"""The Dagster layer: thin wiring around ``pipelines`` (assets, checks, resources, sensors, schedules) and the
commands that run the graph (``commands/``); the rest of the command line is ``pipelines/cli/``."""
