"""The TM units a registration or review command reads: a tm_units table given on the command line, or the
client's translation memories (its ingested table when it is the one a set names, else inbox/<client>/tm/
ingested afresh into a temporary folder)."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from housestyle.pipelines.conventionset.store import OpenedSet
from housestyle.pipelines.conventionset.version import sha256_file
from housestyle.pipelines.errors import InputError
from housestyle.pipelines.inbox_files import is_regular, tm_files
from housestyle.pipelines.ingest import domain_from_path, ingest_files
from housestyle.pipelines.paths import client_path
from housestyle.pipelines.project import project_folder, tm_table

TEXT_COLUMNS = ("unit_id", "source", "target")


def read_tm_units(path: Path, columns: tuple[str, ...] = TEXT_COLUMNS) -> pl.DataFrame:
    """A tm_units table given on the command line: a missing or foreign file is one line, exit 2."""
    if not path.is_file():
        raise InputError("file not found", path=str(path))
    try:
        return pl.read_parquet(path, columns=list(columns))
    except (pl.exceptions.PolarsError, OSError) as exc:
        raise InputError(f"not a tm_units table ({', '.join(columns)}): {exc}", path=str(path)) from None


def ingest_client(inbox: Path, client: str, out_dir: Path) -> Path:
    """tm_units of inbox/<client>/tm/ (domain = first sub-folder), ingested into ``out_dir``."""
    files = tm_files(inbox, client)
    tm_root = client_path(inbox, client, "tm")
    if not files:
        raise InputError("no translation memories to attest gold against (give --tm-units)", path=str(tm_root))
    ingest_files(files, client=client, out_dir=out_dir, domain_of=lambda p: domain_from_path(p, tm_root))
    return out_dir / "tm_units.parquet"


def units_of_set(opened: OpenedSet, inbox: Path, tmp: Path) -> tuple[pl.DataFrame | None, str]:
    """The TM units the set names among its inputs: the client's tm_units table (asset route; where the
    settings resource keeps it, ``project.tm_table``) or the inbox/<client>/tm/ files with the same name
    and sha256 (``mine`` route), ingested afresh into ``tmp``. (None, "") when none is found."""
    client, inputs = str(opened.manifest["client"]), dict(opened.manifest.get("inputs", {}))
    if "tm_units" in inputs:
        table = tm_table(project_folder("storage"), client)
        if table.is_file() and sha256_file(table) == inputs["tm_units"]:
            return pl.read_parquet(table, columns=list(TEXT_COLUMNS)), str(table)
    tm_root = client_path(inbox, client, "tm")
    named = [f for f in tm_files(inbox, client)
             if is_regular(f) and inputs.get(f.relative_to(tm_root).as_posix()) == sha256_file(f)]
    if not named:
        return None, ""
    ingest_files(named, client=client, out_dir=tmp, domain_of=lambda p: domain_from_path(p, tm_root))
    return pl.read_parquet(tmp / "tm_units.parquet", columns=list(TEXT_COLUMNS)), ", ".join(str(f) for f in named)
