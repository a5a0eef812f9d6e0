"""Hostile MQM files, for every registered layout: each is one InputError naming the file and the
line, raised in well under a second (generated inputs, no real data)."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest

from housestyle.pipelines.errors import InputError
from housestyle.pipelines.metaeval.mqm import LAYOUTS, load_mqm, sniff_layout
from housestyle.pipelines.metaeval.mqm_tsv import MAX_LINE_BYTES

HEADERS = {
    "ted": "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity",
    "marot": "system\tdoc\tdocSegId\tglobalSegId\trater\tsource\ttarget\tcategory\tseverity\tmetadata\t# Documentation",
}
GOOD = {
    "ted": "A\td\t1\t1\tr1\tThe cat.\tDie Katze.\tNo-error\tNo-error",
    "marot": "A\td:en-de\t1\t1\tr1\tThe cat.\tDie Katze.\tNo-error\tNo-error\t{}",
}


def test_every_layout_has_hostile_cases() -> None:
    assert {layout.name for layout in LAYOUTS} == set(HEADERS)


def _truncated(layout: str) -> bytes:
    return f"{HEADERS[layout]}\n{GOOD[layout]}\n{GOOD[layout].rsplit(chr(9), 3)[0]}\n".encode()


def _huge_field(layout: str) -> bytes:
    return f"{HEADERS[layout]}\n{GOOD[layout].replace('Die Katze.', 'x' * 200_000)}\n".encode()


def _huge_line(layout: str) -> bytes:
    return f"{HEADERS[layout]}\n".encode() + b"y" * (MAX_LINE_BYTES + 10)


def _not_utf8(layout: str) -> bytes:
    return f"{HEADERS[layout]}\n{GOOD[layout]}\n".encode() + GOOD[layout].encode().replace(b"Katze", b"K\xe4tze") + b"\n"


def _nul(layout: str) -> bytes:
    return f"{HEADERS[layout]}\n{GOOD[layout]}\n".encode() + GOOD[layout].encode().replace(b"Katze", b"Ka\0tze") + b"\n"


def _header_only(layout: str) -> bytes:
    return f"{HEADERS[layout]}\n".encode()


def _bad_severity(layout: str) -> bytes:
    return f"{HEADERS[layout]}\n{GOOD[layout].replace('No-error' + chr(9) + 'No-error', 'Style' + chr(9) + 'Awful')}\n".encode()


def _cr_only(layout: str) -> bytes:
    return f"{HEADERS[layout]}\r{GOOD[layout]}\r".encode()


CASES: dict[str, tuple[Callable[[str], bytes], str, str]] = {
    "truncated row": (_truncated, "3", "fields"),
    "huge field": (_huge_field, "2", "field larger"),
    "huge line": (_huge_line, "2", "line longer"),
    "not utf-8": (_not_utf8, "3", "not UTF-8"),
    "nul byte": (_nul, "3", "NUL byte"),
    "header only": (_header_only, "2", "no rated rows"),
    "unknown severity": (_bad_severity, "2", "no MQM weight"),
    "cr-only line ends": (_cr_only, "1", "carriage return"),
}


@pytest.mark.parametrize("layout", sorted(HEADERS))
@pytest.mark.parametrize("case", sorted(CASES))
def test_hostile_file_is_one_located_error(tmp_path: Path, layout: str, case: str) -> None:
    make, line, message = CASES[case]
    path = tmp_path / "mqm_hostile_ende.tsv"
    path.write_bytes(make(layout))
    started = time.perf_counter()
    with pytest.raises(InputError, match=message) as info:
        load_mqm(path)
    assert time.perf_counter() - started < 5
    assert info.value.path == str(path) and info.value.location == line
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("content", [b"", b"\n\n", b"system\tdoc\tfoo\n", b"\xff\xfe\x00s"])
def test_empty_or_wrong_header_refused_from_the_header_alone(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "x.tsv"
    path.write_bytes(content)
    with pytest.raises(InputError) as info:
        sniff_layout(path)
    assert info.value.location == "1"


def test_absent_directory_and_fifo_refused(tmp_path: Path) -> None:
    import os

    with pytest.raises(InputError, match="not found"):
        load_mqm(tmp_path / "absent.tsv")
    with pytest.raises(InputError, match="not found"):
        load_mqm(tmp_path)
    fifo = tmp_path / "fifo.tsv"
    os.mkfifo(fifo)
    with pytest.raises(InputError, match="not a regular file"):
        load_mqm(fifo)  # never opened: would block
