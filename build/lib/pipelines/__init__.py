"""housestyle domain logic: readers, miners, checker, metrics. Never imports dagster or assets."""

__version__ = "0.1.0"
