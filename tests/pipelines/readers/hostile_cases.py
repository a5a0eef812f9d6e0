"""Hostile inputs for the ingest, generated (never committed): each case knows how many units it wrote
and how many of them must be kept and rejected, independently of the code under test.

``python -m tests.pipelines.readers.hostile_cases`` prints the table (case, units in the file, kept,
rejected, file-level rows) as measured by the ingest, beside the expected figures.
"""

from __future__ import annotations

import gzip
import sys
import tempfile
import zipfile
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

HEAD = ('<?xml version="1.0" encoding="UTF-8"?>\n<tmx version="1.4">\n<header creationtool="hostile" '
        'creationtoolversion="1" segtype="sentence" o-tmf="x" adminlang="en" srclang="en" datatype="plaintext"/>\n'
        '<body>\n')
TAIL = "</body>\n</tmx>\n"


def tu(i: int, source: str | None = None, target: str | None = None, tuid: str | None = None) -> str:
    source = f"Source sentence number {i}." if source is None else source
    target = f"Phrase source numéro {i}." if target is None else target
    return (f'<tu tuid="{tuid or f"t{i}"}">\n  <tuv xml:lang="en"><seg>{source}</seg></tuv>\n'
            f'  <tuv xml:lang="fr"><seg>{target}</seg></tuv>\n</tu>\n')


def tmx_bytes(n: int, faults: dict[int, bytes] | None = None, head: str = HEAD, tail: str = TAIL) -> bytes:
    """``n`` bilingual units; ``faults[i]`` replaces unit i's bytes (1-based)."""
    faults = faults or {}
    units = [faults.get(i, tu(i).encode()) for i in range(1, n + 1)]
    return head.encode() + b"".join(units) + tail.encode()


def faulty(i: int, seg: bytes) -> bytes:
    """Unit ``i`` whose source segment content is ``seg`` (raw bytes: may be ill-formed)."""
    return (f'<tu tuid="t{i}">\n  <tuv xml:lang="en"><seg>'.encode() + seg
            + f'</seg></tuv>\n  <tuv xml:lang="fr"><seg>Phrase {i}.</seg></tuv>\n</tu>\n'.encode())


@dataclass
class Case:
    name: str
    build: Callable[[Path], Path]  # writes the input into a folder, returns its path
    units: int | None  # units in the file (None: the file's count cannot be established)
    kept: int  # rows in tm_units
    rejected: int  # unit rows in tm_rejects
    file_rows: int = 0  # file-level rows in tm_rejects
    reason: str = ""  # must appear in the first reject's reason
    limits: dict[str, float] = field(default_factory=dict)  # ContainerLimits overrides


def _write(name: str, data: bytes) -> Callable[[Path], Path]:
    def build(folder: Path) -> Path:
        path = folder / name
        path.write_bytes(data)
        return path
    return build


def _zip(name: str, members: dict[str, bytes]) -> Callable[[Path], Path]:
    def build(folder: Path) -> Path:
        path = folder / name
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
            for member, data in members.items():
                archive.writestr(member, data)
        return path
    return build


BOMB_SPACES = 96 << 20


def _bomb_payload() -> bytes:
    """One unit, then 96 MB of spaces: well-formed as far as it goes, ~230x smaller deflated."""
    return HEAD.encode() + tu(1).encode() + b" " * BOMB_SPACES


def _zip_bomb(folder: Path) -> Path:
    """The issue's zip bomb shape (its header declares the real size): refused before reading."""
    path = folder / "bomb.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as archive:
        archive.writestr("bomb.tmx", _bomb_payload())
    return path


def _gz_bomb(folder: Path) -> Path:
    """A .gz bomb (no trustworthy size header): refused while it streams, after ~100x its size."""
    path = folder / "bomb.tmx.gz"
    path.write_bytes(gzip.compress(_bomb_payload(), compresslevel=1))
    return path


def _truncated_gz(folder: Path) -> Path:
    data = gzip.compress(tmx_bytes(2000), compresslevel=6)
    path = folder / "cut.tmx.gz"
    path.write_bytes(data[: len(data) // 2])
    return path


def complete_units_in_truncated_gz(path: Path) -> int:
    """Independent of the reader: inflate what the cut gzip still holds, count whole units."""
    inflater = zlib.decompressobj(zlib.MAX_WBITS | 16)
    text = inflater.decompress(path.read_bytes())
    return text.count(b"</tu>")


def _utf16(folder: Path) -> Path:
    text = tmx_bytes(5).decode().replace('encoding="UTF-8"', 'encoding="UTF-16"')
    data = text.encode("utf-16")
    bad = "Source sentence number 2.".encode("utf-16-le")
    data = data.replace(bad, "Source ".encode("utf-16-le") + b"\x00\xd8" + "number 2.".encode("utf-16-le"))
    path = folder / "utf16.tmx"
    path.write_bytes(data)
    return path


XLIFF12 = b"""<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2" xmlns:sdl="urn:sdl" xmlns:ext="urn:ext">
<file original="a" source-language="en" target-language="fr" datatype="plaintext">
<header><sdl:trans-unit id="shadow-h"><source>Header shadow</source><target>Ombre</target></sdl:trans-unit></header>
<body>
<trans-unit id="u1"><source>One</source><target>Un</target><ext:trans-unit id="inner"><source>No</source></ext:trans-unit></trans-unit>
<ext:trans-unit id="shadow-b"><source>Body shadow</source><target>Ombre</target></ext:trans-unit>
<trans-unit id="u2"><source>Two</source><target>Deux</target></trans-unit>
<trans-unit id="u3"><source>Three <ext:b>bold</ext:b></source><target>Trois</target></trans-unit>
<trans-unit id="u4"><source>Four</source><target>Quatre\x00</target></trans-unit>
</body>
</file>
</xliff>
"""

XLIFF2 = b"""<?xml version="1.0" encoding="UTF-8"?>
<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" xmlns:ext="urn:ext" version="2.0" srcLang="en" trgLang="fr">
<file id="f1">
<ext:unit id="shadow"><segment><source>Shadow</source><target>Ombre</target></segment></ext:unit>
<unit id="u1"><segment><source>One</source><target>Un</target></segment></unit>
<unit id="u2"><ext:segment><source>Shadow</source><target>Ombre</target></ext:segment>
<segment><source>Two</source><target>Deux</target></segment></unit>
<unit id="u3"><segment><source>Three</source><target>Trois &nbsp;</target></segment></unit>
</file>
</xliff>
"""

PO_HEAD = ('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Language: fr\\n"\n'
           '"Plural-Forms: nplurals={n}; plural=(n > 1);\\n"\n\n')


def po(n: str, entries: str) -> bytes:
    return (PO_HEAD.format(n=n) + entries).encode()


PLURALS = ('msgid "One"\nmsgstr "Un"\n\n'
           'msgid "%d file"\nmsgid_plural "%d files"\nmsgstr[0] "%d fichier"\nmsgstr[1] "%d fichiers"\n\n'
           'msgid "%d dir"\nmsgid_plural "%d dirs"\nmsgstr[0] "%d dossier"\nmsgstr[2] "%d dossiers"\n\n'
           'msgid "%d tab"\nmsgid_plural "%d tabs"\nmsgstr[0] "%d onglet"\nmsgstr[1] "%d onglets"\n'
           'msgstr[2] "%d onglets!"\n\n')
CP1252 = po("2", "".join(f'msgid "Entry {i}"\nmsgstr "Entrée {i}"\n\n' for i in range(1, 6))).replace(
    "Entrée 3".encode(), b"Entr\xe9e 3")
BROKEN_PO = po("2", 'msgid "One"\nmsgstr "Un"\n\nmsgid "Two\nmsgstr "Deux"\n\nmsgid "Three"\nmsgstr "Trois"\n\n'
               'msgid "Four"\nmsgstr "Quatre"\n')

CASES = [
    Case("nul byte in unit 9 of 20", _write("nul.tmx", tmx_bytes(20, {9: faulty(9, b"a\x00b")})), 20, 19, 1,
         reason="Char 0x0 out of allowed range"),
    Case("invalid UTF-8 byte in unit 5", _write("utf8.tmx", tmx_bytes(20, {5: faulty(5, b"caf\xe9 noir")})),
         20, 19, 1, reason="Invalid bytes in character encoding"),
    Case("undefined entity &nbsp; in unit 3", _write("nbsp.tmx", tmx_bytes(20, {3: faulty(3, b"a&nbsp;b")})),
         20, 19, 1, reason="Entity 'nbsp' not defined (line"),
    Case("control character in unit 7", _write("ctrl.tmx", tmx_bytes(20, {7: faulty(7, b"a\x03b")})), 20, 19, 1,
         reason="PCDATA invalid Char value 3"),
    Case("11 MB text node in unit 4", _write("huge.tmx", tmx_bytes(20, {4: faulty(4, b"x" * 11_000_000)})),
         20, 19, 1, reason="Text node too long"),
    Case("10,000-deep inline nesting in unit 6", _write("deep.tmx", tmx_bytes(
        20, {6: faulty(6, b'<hi x="1">' * 10_000 + b"x" + b"</hi>" * 10_000)})), 20, 19, 1,
         reason="Excessive depth in document: 256"),
    Case("tag mismatch in unit 12", _write("mismatch.tmx", tmx_bytes(20, {12: faulty(12, b"a</tuv>")})),
         20, 19, 1, reason="Opening and ending tag mismatch"),
    Case("two faults in one chunk", _write("two.tmx", tmx_bytes(20, {2: faulty(2, b"\x00"), 3: faulty(3, b"&x;")})),
         20, 18, 2, reason="Char 0x0"),
    Case("every unit broken", _write("all.tmx", tmx_bytes(20, {i: faulty(i, b"&bad;") for i in range(1, 21)})),
         20, 0, 20, reason="Entity 'bad' not defined"),
    Case("file cut inside unit 15", _write("cut.tmx", tmx_bytes(20)[: tmx_bytes(20).index(b'<tu tuid="t15"') + 60]),
         15, 14, 1, file_rows=1, reason="Premature end of data"),
    Case("</tu> and <tu> inside comments, CDATA and a PI", _write("false.tmx", tmx_bytes(20, {
        4: b'<!-- </tu> <tu tuid="fake"> -->' + tu(4).encode(),
        8: faulty(8, b"<![CDATA[ </tu><tu tuid='fake2'> ]]>"),
        11: b"<?pi </tu> ?>" + tu(11).encode()})), 20, 20, 0),
    Case("> and </tu> in an attribute value", _write("attr.tmx", tmx_bytes(20, {5: tu(5, tuid="a>b").encode()})),
         20, 20, 0),
    Case("NUL between units", _write("between.tmx", tmx_bytes(20, {10: tu(10).encode() + b"\x00\n"})), 20, 20, 0,
         file_rows=1, reason="between units"),
    Case("NUL in the header", _write("header.tmx", tmx_bytes(20, head=HEAD.replace("hostile", "hos\x00tile"))),
         20, 0, 20, reason="header does not parse"),
    Case("entity declaration (billion laughs)", _write("bomb.tmx", b'<?xml version="1.0"?>\n<!DOCTYPE tmx [ '
         b'<!ENTITY a "aaaaaaaaaa"> <!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"> ]>\n'
         + tmx_bytes(3, {2: faulty(2, b"&b;")})[len(b'<?xml version="1.0" encoding="UTF-8"?>\n'):]), 3, 0, 3,
         reason="unsafe xml: refused"),
    Case("UTF-16 with a lone surrogate in unit 2", _utf16, 5, 4, 1, reason="not well-formed XML"),
    Case("XLIFF 1.2: foreign units and an inline foreign element", _write("ns.xlf", XLIFF12), 4, 2, 2,
         reason="foreign element"),
    Case("XLIFF 2.0: foreign unit and segment, undefined entity", _write("ns2.xlf", XLIFF2), 3, 2, 1,
         reason="Entity 'nbsp' not defined"),
    Case("PO: plural gap and extra form", _write("plurals.po", po("2", PLURALS)), 4, 3, 2, reason="plural forms"),
    Case("PO: Plural-Forms nplurals=abc", _write("npl.po", po("abc", PLURALS)), 4, 1, 3, reason="nplurals='abc'"),
    Case("PO: cp1252 byte in a UTF-8 file", _write("cp1252.po", CP1252), 5, 4, 1, reason="line 14 does not decode"),
    Case("PO: unterminated string in entry 2", _write("syntax.po", BROKEN_PO), 4, 3, 1, reason="PO syntax error"),
    Case("zip bomb (96 MB in 0.4 MB, size declared)", _zip_bomb, None, 0, 0, file_rows=1, reason="ratio limit"),
    Case("gz bomb (96 MB in 0.4 MB)", _gz_bomb, None, 1, 0, file_rows=1, reason="inflates beyond 100x"),
    Case("zip member over the ratio limit", _zip("ratio.zip", {"a.tmx": tmx_bytes(3000)}), None, 0, 0,
         file_rows=1, reason="over the 5x ratio limit", limits={"max_ratio": 5, "ratio_slack_bytes": 1 << 16}),
    Case("zip members over the total limit", _zip("total.zip", {"a.tmx": tmx_bytes(2000), "b.tmx": tmx_bytes(2000)}),
         None, 2000, 0, file_rows=1, reason="in total", limits={"max_total_bytes": 500_000}),  # b refused unread
    Case("colliding tuids, different content", _write("ids.tmx", tmx_bytes(4, {
        3: tu(3, tuid="t1").encode(), 4: tu(2).encode()})), 4, 4, 0),
    Case("truncated .gz", _truncated_gz, None, -1, 1, file_rows=1, reason="Premature end of data"),
    Case("TMX without srclang", _write("nosrc.tmx", tmx_bytes(5, head=HEAD.replace(' srclang="en"', ""))), 5, 5, 0),
]


def measure(case: Case, folder: Path) -> dict[str, object]:
    """Ingest the case; what the written tables say, per the accounting read back from them."""
    import polars as pl

    from housestyle.pipelines.ingest import ingest_files
    from housestyle.pipelines.readers.containers import ContainerLimits
    from housestyle.pipelines.tm_accounting import accounting

    folder.mkdir(parents=True, exist_ok=True)
    path = case.build(folder)
    out = folder / "out"
    summary = ingest_files([path], client="hostile", out_dir=out, workers=1,
                           limits=ContainerLimits(**case.limits))  # type: ignore[arg-type]
    accounts = accounting([(f.source_file, f.units_in_file) for f in summary.per_file],
                          out / "tm_units.parquet", out / "tm_rejects.parquet")
    rejects = pl.read_parquet(out / "tm_rejects.parquet")
    counts = [a.units_in_file for a in accounts]
    return {
        "units": None if None in counts else sum(c or 0 for c in counts),
        "kept": pl.read_parquet(out / "tm_units.parquet").height,
        "rejected": rejects.filter(pl.col("unit_ordinal").is_not_null()).height,
        "file_rows": rejects.filter(pl.col("unit_ordinal").is_null()).height,
        "reasons": [f"{r} {raw}" for r, raw in zip(rejects["reason"], rejects["raw"])],  # the cause may be in raw
        "accounted": all(a.ok for a in accounts),
        "summary": summary,
        "path": path,
        "out": out,
    }


def main() -> int:
    print("| case | units in file | kept | rejected | file-level rows | units = kept + rejected |")
    print("|---|---|---|---|---|---|")
    for case in CASES:
        with tempfile.TemporaryDirectory() as tmp:
            got = measure(case, Path(tmp))
            units = "? (cannot be counted)" if got["units"] is None else got["units"]
            print(f"| {case.name} | {units} | {got['kept']} | {got['rejected']} | {got['file_rows']} | "
                  f"{'yes' if got['accounted'] else 'NO'} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
