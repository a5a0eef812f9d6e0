"""No gold term in the code: pipelines/ and assets/ (code, comments and docstrings) never name a
term of the gold lists the miner is judged on (../shared/gold/*.jsonl terms and probes, the TICO-19
termbases ../shared/data/tico19/terminologies/*.csv, both sides). An example taken from the gold
is a thumb on the scale: it shows the rule was written for that term.

Entries are folded (casefold, ’ → ') and matched word-bounded; only multi-word entries and
single words of at least ``MIN_WORD_CHARS`` characters are looked for (shorter gold words such as
``flu`` or ``who`` are ordinary English). General words the code must use are allowed below, each
with why.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import ahocorasick_rs
import pytest

from tests.conftest import REPO_ROOT, find_shared_data

MIN_WORD_CHARS = 6
ALLOWED = {
    "surface": "linguistics' 'surface form' (a word as written): identifiers and docstrings of the miners",
    "surfaces": "plural of the same ('cand.surfaces': the raw spellings of a term)",
    "isolation": "names tests/assets/test_isolation.py, the test that keeps gold away from the miner",
}


def _fold(text: str) -> str:
    return " ".join(text.casefold().replace("\u2019", "'").split())


def gold_entries(shared: Path) -> set[str]:
    """Every gold string, folded: both sides of the termbases, the gold conventions' literal terms
    and their probes' texts."""
    entries: set[str] = set()
    for path in sorted((shared / "data" / "tico19" / "terminologies").glob("*.csv")):
        with path.open(encoding="utf-8") as handle:
            for row in csv.DictReader(handle):
                entries |= {row["sourceString"], row["targetString"]}
    for path in sorted((shared / "gold").glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            row = json.loads(line)
            entries |= {row["src"]} if row.get("src") else set()
            if not row.get("regex"):
                entries |= set(row.get("expected_terms") or []) | set(row.get("wrong_variants") or [])
            entries |= {text for probe in row.get("probes", []) for text in probe.values()}
    folded = {_fold(e) for e in entries if e}
    return {e for e in folded if " " in e or len(e) >= MIN_WORD_CHARS}


def _bounded(line: str, start: int, end: int) -> bool:
    def word(ch: str) -> bool:
        return ch.isalnum() or ch == "_"
    return not (start > 0 and word(line[start - 1])) and not (end < len(line) and word(line[end]))


def gold_mentions(root: Path, entries: set[str]) -> list[str]:
    """``path:line: entry`` for every word-bounded gold entry in the .py files under root/pipelines
    and root/assets."""
    patterns = sorted(entries - ALLOWED.keys())
    automaton = ahocorasick_rs.AhoCorasick(patterns)
    found = []
    for path in sorted([*(root / "pipelines").rglob("*.py"), *(root / "assets").rglob("*.py")]):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            folded = line.casefold().replace("\u2019", "'")
            if len(folded) != len(line):  # a few letters grow when case-folded (ß → ss): fold word by word
                folded = " ".join(_fold(w) for w in line.split(" "))
            for index, start, end in automaton.find_matches_as_indexes(folded, overlapping=True):
                if _bounded(folded, start, end):
                    found.append(f"{path.relative_to(root)}:{number}: {patterns[index]}")
    return found


@pytest.fixture(scope="module")
def entries() -> set[str]:
    data = find_shared_data()
    shared = data.parent if data is not None else REPO_ROOT.parent / "shared"
    if not (shared / "gold").is_dir() or not (shared / "data" / "tico19" / "terminologies").is_dir():
        pytest.skip(f"gold lists not found under {shared} (../shared/gold and ../shared/data/tico19/terminologies)")
    found = gold_entries(shared)
    assert len(found) > 1000, "the gold lists were read but hold almost nothing: the scan would be vacuous"
    return found


def test_no_gold_term_in_pipelines_or_assets(entries: set[str]) -> None:
    assert gold_mentions(REPO_ROOT, entries) == []


def test_the_scan_finds_a_gold_term(entries: set[str], tmp_path: Path) -> None:
    """Not vacuous: a planted gold entry (a multi-word one, typographic apostrophe and capitals
    folded) is found, and a word merely containing one is not."""
    planted = sorted(e for e in entries if " " in e and "'" in e)[0]
    (tmp_path / "pipelines").mkdir()
    (tmp_path / "assets").mkdir()
    (tmp_path / "pipelines" / "a.py").write_text(f"# an example: {planted.replace(chr(39), chr(0x2019)).upper()}\n",
                                                 encoding="utf-8")
    word = sorted(e for e in entries if " " not in e and e.isalpha())[0]
    (tmp_path / "assets" / "b.py").write_text(f"x{word} = 1\n", encoding="utf-8")
    found = gold_mentions(tmp_path, entries)
    assert f"pipelines/a.py:1: {planted}" in found and not any(f.startswith("assets/") for f in found)
