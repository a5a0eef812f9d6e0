"""The one partitioning of the graph: by client (a folder under inbox/), added by the inbox sensor.

A partition key is a client name (``housestyle.pipelines.paths``): the sensor adds only folders whose name
passes, ``housestyle run`` checks ``--client`` before adding one, and every path an asset builds
from its key goes through ``HousestyleSettings`` (``client_path``), so a key added by hand that is
not a client name fails the step with one line instead of writing outside the project."""

from __future__ import annotations

from dagster import DynamicPartitionsDefinition

CLIENTS_PARTITIONS_NAME = "clients"
CLIENTS = DynamicPartitionsDefinition(name=CLIENTS_PARTITIONS_NAME)
