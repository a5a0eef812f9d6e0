"""A client's scoring settings: ``inbox/<client>/settings.json`` (``{"threshold": 95}``).

``threshold`` is the SCS over new errors a system must reach to pass (``verdicts``); absent file
or key: ``verdicts.DEFAULT_THRESHOLD``. Read bounded; a bad value is an error naming the file.
"""

from __future__ import annotations

import json
from pathlib import Path

from housestyle.pipelines.errors import InputError
from housestyle.pipelines.scoring.verdicts import DEFAULT_THRESHOLD

SETTINGS_FILE = "settings.json"
MAX_BYTES = 64 << 10


def client_threshold(client_dir: Path) -> float:
    """The client's pass threshold (0–100), the default when it sets none."""
    path = Path(client_dir) / SETTINGS_FILE
    if not path.is_file() or path.is_symlink():
        return DEFAULT_THRESHOLD
    if path.stat().st_size > MAX_BYTES:
        raise InputError(f"refused: over {MAX_BYTES:,} bytes", path=str(path))
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as exc:
        raise InputError(f"not valid JSON: {exc}", path=str(path)) from None
    value = data.get("threshold", DEFAULT_THRESHOLD) if isinstance(data, dict) else None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 100:
        raise InputError(f"threshold must be a number from 0 to 100, got {value!r}", path=str(path), location="threshold")
    return float(value)
