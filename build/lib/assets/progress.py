"""Concise progress lines for `housestyle run` (one per step start/end, materialisation and check).

Dagster's console logger prints every engine event with run ids; a person running the demo wants
to see which asset is running, what it produced and whether the checks held.
"""

from __future__ import annotations

import logging
import sys
import time
from typing import Any, TextIO

from dagster import AssetCheckSeverity, DagsterEvent, InitLoggerContext, logger


class ProgressHandler(logging.Handler):
    """Turns Dagster log records into short lines on ``stream``."""

    def __init__(self, stream: TextIO) -> None:
        super().__init__(level=logging.DEBUG)
        self.stream = stream
        self.started: dict[str, float] = {}

    def emit(self, record: logging.LogRecord) -> None:
        meta: dict[str, Any] = getattr(record, "dagster_meta", None) or {}
        event: DagsterEvent | None = meta.get("dagster_event")
        line = self._line(event, meta, record) if event is not None else self._user_line(meta, record)
        if line:
            print(line, file=self.stream, flush=True)

    def _user_line(self, meta: dict[str, Any], record: logging.LogRecord) -> str | None:
        """Messages the assets log themselves (context.log.info / warning)."""
        if record.levelno < logging.INFO:
            return None
        text = meta.get("orig_message") or record.getMessage()
        mark = "  !" if record.levelno >= logging.WARNING else "  ·"
        return f"{mark} {text}"

    def _line(self, event: DagsterEvent, meta: dict[str, Any], record: logging.LogRecord) -> str | None:
        step = event.step_key or meta.get("step_key") or ""
        if event.is_step_start:
            self.started[step] = time.monotonic()
            return f"▶ {step}"
        if event.is_step_success:
            return f"  done {step} ({time.monotonic() - self.started.get(step, time.monotonic()):.1f}s)"
        if event.is_step_materialization and event.asset_key is not None:
            return f"  ✓ materialised {event.asset_key.to_user_string()}"
        check = event.asset_check_evaluation_data if event.event_type_value == "ASSET_CHECK_EVALUATION" else None
        if check is not None:
            if check.passed:
                return f"  ✓ check {check.check_name}: passed"
            if check.severity == AssetCheckSeverity.WARN:
                return f"  ! check {check.check_name}: failed (warning)"
            # a non-blocking check (e.g. an evaluation gate) is reported and labels results; it stops nothing
            return f"  ✗ check {check.check_name}: FAILED{'' if check.blocking else ' (reported, non-blocking)'}"
        if event.is_step_skipped:
            return f"  – skipped {step} (an upstream asset produced nothing)"
        if event.is_step_failure:
            error = event.step_failure_data.error if event.step_failure_data else None
            return f"✗ {step} failed: {_root_cause(error) if error else event.message}"
        if event.is_job_failure or event.is_run_failure:
            return f"✗ run failed: {event.message}"
        return None


def _root_cause(error: Any) -> str:
    """The innermost error of Dagster's wrapper chain (what the asset itself raised), as one line."""
    while getattr(error, "cause", None) is not None:
        error = error.cause
    message = str(getattr(error, "message", error)).strip()
    return message.splitlines()[0] if message else str(getattr(error, "cls_name", "error"))


@logger(config_schema=None, description="Short progress lines on stderr (used by `housestyle run`).")
def progress_logger(init_context: InitLoggerContext) -> logging.Logger:
    log = logging.getLogger("housestyle.progress")
    log.setLevel(logging.DEBUG)
    log.propagate = False
    log.handlers = [ProgressHandler(sys.stderr)]  # replace, so a second run in one process prints once
    return log
