"""What the term miner produces, in a module of its own: the filters, context checks and compound
repair that shape it import it from here, and ``term_rules`` (which imports them) does too, so no
module of the term miner imports another in a circle, not even for types."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import polars as pl

from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.mining.term_trace import Decision


@dataclass(slots=True)
class TermResult:
    conventions: list[Convention]
    evidence: dict[str, tuple[np.ndarray, np.ndarray]]  # convention_id -> (evidence, counter) unit indices
    conflicts: list[dict[str, object]] = field(default_factory=list)
    stats: dict[str, int] = field(default_factory=dict)
    trace: dict[str, Decision] = field(default_factory=dict)  # term -> what was decided (term_trace)
    trace_frame: pl.DataFrame | None = None  # term_trace.TRACE_SCHEMA rows, built once mining is done
    forms: dict[str, list[str]] = field(default_factory=dict)  # convention_id -> the forms its entry was built from
