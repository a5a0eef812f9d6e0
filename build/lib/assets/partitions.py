"""The one partitioning of the graph: by client (a folder under inbox/), added by the inbox sensor."""

from __future__ import annotations

from dagster import DynamicPartitionsDefinition

CLIENTS_PARTITIONS_NAME = "clients"
CLIENTS = DynamicPartitionsDefinition(name=CLIENTS_PARTITIONS_NAME)
