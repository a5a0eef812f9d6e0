"""Per-client exceptions to a convention on one segment: ``inbox/<client>/ignores.parquet``.

A reviewer marks a false alarm in the run's ``issues.xlsx`` (``ignore`` column) and imports it; the
item is then counted as *ignored*, not failed, by every later run of the client. An ignore names
the convention by its *identity* (dimension, rule, src, language pair: ``decisions.identity_of``),
so, like a decision, it survives re-mining that changes a rule's evidence or forms. ``system`` is a
system name or ``*`` (every system). Appended under an exclusive lock and rewritten whole in one
rename, so two imports at once both land.
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

import polars as pl

from housestyle.pipelines import atomic
from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.conventionset.decisions import identity_of
from housestyle.pipelines.typed_table import read_typed_parquet

IGNORES_FILE = "ignores.parquet"
ALL_SYSTEMS = "*"
IGNORES_SCHEMA = pl.Schema({
    "identity": pl.Utf8(), "convention_id": pl.Utf8(), "dimension": pl.Utf8(), "segment_id": pl.Utf8(),
    "system": pl.Utf8(), "comment": pl.Utf8(), "reviewer": pl.Utf8(), "decided_at": pl.Utf8(),
})


def empty_ignores() -> pl.DataFrame:
    return pl.DataFrame(schema=IGNORES_SCHEMA)


def read_ignores(path: Path) -> pl.DataFrame:
    """The ignores table (IGNORES_SCHEMA), empty when the file does not exist; InputError naming
    the file when it is not one."""
    path = Path(path)
    if not path.is_file():
        return empty_ignores()
    return read_typed_parquet(path, IGNORES_SCHEMA, "an ignores table")


def append_ignores(path: Path, rows: pl.DataFrame) -> int:
    """Append ``rows`` (exact duplicates of a recorded ignore are kept once); returns the rows the
    file now holds."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic.file_lock(path):  # the decisions' lock: concurrent imports wait for each other
        frame = pl.concat([read_ignores(path), rows.select(list(IGNORES_SCHEMA)).cast(IGNORES_SCHEMA)])
        frame = frame.unique(["identity", "segment_id", "system"], keep="last", maintain_order=True)
        atomic.write_with(path, frame.write_parquet)
        return frame.height


def apply_ignores(failures: pl.DataFrame, conventions: Sequence[Convention], ignores: pl.DataFrame) -> pl.DataFrame:
    """Add ``ignored`` (bool) to the failures: the item's convention identity and segment are
    recorded for its system or for ``*``. Error items (a regex timed out) are never ignored."""
    identity = {c.convention_id: identity_of(c) for c in conventions}
    keys = set(zip(ignores["identity"].to_list(), ignores["segment_id"].to_list(), ignores["system"].to_list()))
    flags = []
    for cid, seg, system, error in zip(failures["convention_id"].to_list(), failures["segment_id"].to_list(),
                                       failures["system"].to_list(), failures["error"].to_list()):
        ident = identity.get(cid)
        flags.append(error is None and ident is not None
                     and ((ident, seg, system) in keys or (ident, seg, ALL_SYSTEMS) in keys))
    return failures.with_columns(pl.Series("ignored", flags, dtype=pl.Boolean))
