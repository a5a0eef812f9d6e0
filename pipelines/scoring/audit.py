"""Acknowledging a run's failure list: a score stays ``unaudited`` until a reviewer has looked.

The acknowledgement is bound to the sha256 of failures.parquet: if the failure list ever changes
(re-run with other inputs in the same directory, edited file), the label falls back to
``unaudited`` by itself. Acknowledgements are appended, never overwritten (who, when, what note).
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from housestyle.pipelines import atomic
from housestyle.pipelines.errors import InputError
from housestyle.pipelines.scoring.run_record import AUDIT_FILE, open_run


def failures_digest(run_dir: Path) -> str:
    return hashlib.sha256((run_dir / "failures.parquet").read_bytes()).hexdigest()


def _entries(run_dir: Path) -> list[dict[str, Any]]:
    path = run_dir / AUDIT_FILE
    if not path.exists():
        return []
    data = json.loads(path.read_text(encoding="utf-8"))
    return list(data.get("acknowledgements", []))


def audit_status(run_dir: Path) -> tuple[str, str]:
    """("audited" | "unaudited", human-readable detail)."""
    entries = _entries(run_dir)
    if not entries:
        return "unaudited", "nobody has acknowledged this failure list yet (housestyle audit --ack)"
    digest = failures_digest(run_dir)
    valid = [e for e in entries if e.get("failures_sha256") == digest]
    if not valid:
        return "unaudited", "the failure list changed after the last acknowledgement"
    last = valid[-1]
    note = f": {last['note']}" if last.get("note") else ""
    return "audited", f"failure list acknowledged by {last['reviewer']} on {last['acknowledged_at']}{note}"


def acknowledge(run_dir: Path, reviewer: str, note: str) -> None:
    """Record that ``reviewer`` reviewed the failure list of ``run_dir`` (a complete run: an
    interrupted or altered one is refused before anything is recorded). The report shows the new
    label once re-rendered (``runs.acknowledge_run`` does both)."""
    run_dir = Path(run_dir)
    open_run(run_dir)
    if not reviewer.strip():
        raise InputError("an acknowledgement needs a reviewer name", path=str(run_dir))
    entries = _entries(run_dir)
    entries.append({
        "reviewer": reviewer.strip(),
        "note": note,
        "acknowledged_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "failures_sha256": failures_digest(run_dir),
    })
    atomic.write_text(run_dir / AUDIT_FILE, json.dumps({"acknowledgements": entries}, indent=1, ensure_ascii=False) + "\n")
