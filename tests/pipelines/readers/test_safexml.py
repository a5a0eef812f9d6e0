"""Hostile XML: entity bombs and external entities are refused and reported; nothing is read from disk.

"Nothing read from disk" is proved with a named pipe (FIFO): opening a FIFO for reading blocks until
a writer appears, so a watcher thread that keeps trying a non-blocking open for writing succeeds if
(and only if) the parser opened the file. A control case with DTD loading switched on shows the
probe does detect an open.
"""

from __future__ import annotations

import io
import os
import threading
import time
from pathlib import Path

import polars as pl
import pytest
from lxml import etree

from housestyle.pipelines.ingest import ingest_files
from housestyle.pipelines.readers import safexml
from housestyle.pipelines.readers.base import Reject
from housestyle.pipelines.readers.registry import READERS, iter_units

from .conftest import read_all

TMX_BODY = ('<tmx version="1.4"><header srclang="en" creationtool="x" creationtoolversion="1" segtype="sentence" '
            'o-tmf="x" adminlang="en" datatype="plaintext"/><body><tu tuid="t"><tuv xml:lang="en"><seg>{seg}</seg>'
            '</tuv><tuv xml:lang="fr"><seg>ok</seg></tuv></tu></body></tmx>')


class OpenProbe:
    """Counts opens of a FIFO by anyone else, answering them with a secret."""

    def __init__(self, fifo: Path, secret: bytes) -> None:
        self.fifo, self.secret, self.opened = fifo, secret, 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                fd = os.open(self.fifo, os.O_WRONLY | os.O_NONBLOCK)
            except OSError:  # ENXIO: nobody has it open for reading
                time.sleep(0.001)
                continue
            self.opened += 1
            try:
                os.write(fd, self.secret)
            except BrokenPipeError:  # the reader opened and closed before we wrote: still an open
                pass
            finally:
                os.close(fd)

    def __enter__(self) -> "OpenProbe":
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


@pytest.fixture()
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "secret.fifo"
    os.mkfifo(path)
    return path


def refused_only(reasons: dict[str, int], units: int) -> bool:
    return len(reasons) == 1 and next(iter(reasons)).startswith("unsafe xml: refused: the DOCTYPE declares entities") \
        and sum(reasons.values()) == units


def test_billion_laughs_is_refused_and_reported(fixtures: Path, tmp_path: Path) -> None:
    units, rejects, errors = read_all(fixtures / "billion_laughs.tmx")
    assert not units and not errors and [r.ordinal for r in rejects] == [1]  # its one unit, refused
    summary = ingest_files([fixtures / "billion_laughs.tmx"], client="c", out_dir=tmp_path)
    assert (summary.units_kept, summary.units_rejected) == (0, 1)
    assert refused_only(summary.reject_reasons, 1)
    table = pl.read_parquet(tmp_path / "tm_rejects.parquet")
    assert "declares entities" in table["reason"][0] and "lollol" not in table["raw"][0]
    assert table["raw"][0].startswith('<tu tuid="bomb">')  # the unit as written: the entity never expanded


@pytest.mark.parametrize(
    "doctype",
    ['<!DOCTYPE tmx [ <!ENTITY xxe SYSTEM "file://{path}"> ]>',
     '<!DOCTYPE tmx [ <!ENTITY % pe SYSTEM "file://{path}"> %pe; ]>'],
    ids=["general-entity", "parameter-entity"],
)
def test_xxe_never_reads_the_secret(tmp_path: Path, doctype: str) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET-4f9c2", encoding="utf-8")
    doc = tmp_path / "xxe.tmx"
    seg = "&xxe;" if "xxe" in doctype else "plain"
    doc.write_text('<?xml version="1.0"?>\n' + doctype.format(path=secret) + "\n" + TMX_BODY.format(seg=seg),
                   encoding="utf-8")
    out = tmp_path / "out"
    summary = ingest_files([doc], client="c", out_dir=out)
    assert summary.units_kept == 0 and refused_only(summary.reject_reasons, 1)
    for table in ("tm_units.parquet", "tm_rejects.parquet"):
        assert "TOP-SECRET" not in str(pl.read_parquet(out / table).to_dicts())
        assert b"TOP-SECRET" not in (out / table).read_bytes()


def test_static_xxe_fixture_is_refused(fixtures: Path) -> None:
    records = [record for _label, record in iter_units(fixtures / "xxe.tmx")]
    assert len(records) == 1 and isinstance(records[0], Reject) and records[0].reason.startswith("unsafe xml")


@pytest.mark.parametrize(
    "doctype",
    ['<!DOCTYPE tmx [ <!ENTITY xxe SYSTEM "file://{path}"> ]>',
     '<!DOCTYPE tmx [ <!ENTITY % pe SYSTEM "file://{path}"> %pe; ]>',
     '<!DOCTYPE tmx SYSTEM "file://{path}">'],
    ids=["general-entity", "parameter-entity", "external-dtd"],
)
def test_parser_never_opens_the_referenced_file(fifo: Path, doctype: str) -> None:
    data = ('<?xml version="1.0"?>\n' + doctype.format(path=fifo) + "\n" + TMX_BODY.format(seg="x")).encode()
    with OpenProbe(fifo, b"SECRET") as probe:
        records = list(iter_units_from_bytes(data))
    assert probe.opened == 0
    assert all("SECRET" not in (getattr(r, "source", "") or "") for r in records)


def iter_units_from_bytes(data: bytes) -> list[object]:
    return list(READERS["tmx"].read(io.BytesIO(data), "probe.tmx"))


def test_probe_detects_an_open_when_dtd_loading_is_on(fifo: Path) -> None:
    """Control: the same external DTD *is* opened by a parser that loads DTDs, and the probe sees it."""
    data = ('<?xml version="1.0"?>\n<!DOCTYPE tmx SYSTEM "file://' + str(fifo) + '">\n<tmx/>').encode()
    with OpenProbe(fifo, b"<!ELEMENT tmx ANY>") as probe:
        parser = etree.XMLParser(load_dtd=True, no_network=True)
        try:
            etree.fromstring(data, parser)
        except etree.XMLSyntaxError:  # the probe may answer more than one open; only the opens matter
            pass
    assert probe.opened >= 1


def test_external_dtd_declared_reads_normally(fixtures: Path) -> None:
    units, rejects, errors = read_all(fixtures / "external_dtd.tmx")
    assert len(units) == 1 and not rejects and not errors


def test_parser_options_are_hardened() -> None:
    assert safexml.PARSER_OPTIONS["resolve_entities"] is False
    assert safexml.PARSER_OPTIONS["no_network"] is True
    assert safexml.PARSER_OPTIONS["load_dtd"] is False
    assert safexml.PARSER_OPTIONS["huge_tree"] is False
