"""Measure (never tune: the Mozilla PO files are a held-out probe) the mined placeholder rule against
translate-toolkit's ``pofilter -t xmltags`` on the Mozilla fr PO files.

Definitions
- pofilter units: non-fuzzy PO entries ``pofilter --nofuzzy -t xmltags`` reports, counted as rows of
  ``tm_units`` (an entry repeated in two files counts twice, as pofilter counts it);
- found: the mined set's ``placeholder`` conventions fail on the unit (its TM target as the output).
  The rule allows paired tags in another order, pofilter does not: such a unit is a miss by design.

Run (after ``housestyle mine ../shared/data/mozilla-fr/fomo-l10n --src en --tgt fr --out OUT``):
    python -m tests.eval.po_markup_pofilter --set OUT/local/<set_version> [--data ../shared/data]
"""

from __future__ import annotations

import argparse
import subprocess
import tempfile
from pathlib import Path

import polars as pl
from translate.storage import factory

from housestyle.pipelines.rules.io import load_conventions
from housestyle.pipelines.ingest import ingest_files
from housestyle.pipelines.scoring.check import check_item

REPO = Path(__file__).resolve().parents[2]


def pofilter_pairs(files: list[Path]) -> set[tuple[str, str]]:
    """(source, target) of every entry pofilter's xmltags test reports."""
    flagged: set[tuple[str, str]] = set()
    with tempfile.TemporaryDirectory() as tmp:
        for i, path in enumerate(files):
            out = Path(tmp) / f"{i}.po"
            subprocess.run(["pofilter", "-t", "xmltags", "--nofuzzy", str(path), str(out)], check=True, capture_output=True)
            if out.exists():
                flagged |= {(str(u.source), str(u.target)) for u in factory.getobject(str(out)).units if not u.isheader()}
    return flagged


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", required=True, type=Path, help="a mined convention-set folder")
    parser.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data")
    args = parser.parse_args()
    files = sorted((args.data / "mozilla-fr" / "fomo-l10n").rglob("*.po"))
    convs = [c for c in load_conventions(args.set, regex_guard=False) if c.rule == "placeholder"]
    with tempfile.TemporaryDirectory() as tmp:
        ingest_files(files, client="mozilla-po", out_dir=Path(tmp))
        units = pl.read_parquet(Path(tmp) / "tm_units.parquet")
    rows = [(r["source"], r["target"]) for r in units.iter_rows(named=True)
            if r["target"] and "fuzzy" not in (r["flags"] or [])]
    flagged = pofilter_pairs(files)

    def fails(source: str, target: str) -> bool:
        return any((v := check_item(c, source, target)) is not None and not v.full_pass for c in convs)

    ours = {(s, t) for s, t in rows if fails(s, t)}
    hit = [(s, t) for s, t in rows if (s, t) in flagged]
    print(f"placeholder conventions: {[c.params for c in convs]}")
    print(f"pofilter xmltags units: {len(hit)} ({len(flagged)} distinct source/target pairs)")
    print(f"... failed by the mined placeholder rule: {sum(1 for u in hit if u in ours)}")
    print(f"units the mined rule fails that pofilter does not report: {len({u for u in ours if u not in flagged})}")
    for source, target in sorted(flagged - ours):
        print(f"  not found: {source[:120]!r} => {target[:120]!r}")


if __name__ == "__main__":
    main()
