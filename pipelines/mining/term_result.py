"""What the term miner produces, in a module of its own: the filters, context checks and compound
repair that shape it import it from here, and ``term_rules`` (which imports them) does too, so no
module of the term miner imports another in a circle, not even for types."""

from __future__ import annotations

from collections.abc import Callable
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
    build_trace: Callable[[], pl.DataFrame] | None = None  # builds the term_trace.TRACE_SCHEMA rows
    forms: dict[str, list[str]] = field(default_factory=dict)  # convention_id -> the forms its entry was built from
    _frame: pl.DataFrame | None = None

    @property
    def trace_frame(self) -> pl.DataFrame | None:
        """The trace rows, built on first read: a pass whose rules are thrown away (the first, when
        units are told misaligned) never pays for its trace (~3 s of a demo TM run)."""
        if self._frame is None and self.build_trace is not None:
            self._frame, self.build_trace = self.build_trace(), None
        return self._frame
