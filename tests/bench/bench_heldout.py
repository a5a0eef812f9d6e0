"""Held-out benchmark (issue 25), on demand, never a timed test: ``python -m tests.bench.bench_heldout``.

Per corpus: mine one half with ``housestyle mine … --splits S --split A`` (a fresh subprocess, so
wall time and peak RSS are that run's own), then score the other half's APPROVED targets with the
scoring engine (``score_systems``, the statuses a run scores by default) and report, per rule kind:
rules by status, held-out items, approved pass rate; term items per held-out segment; the review
packet's default size (every status but ``suggested``). Corpora: TICO-19 en→fr on the registration's
splits (both ways), Mozilla VPN XLIFF, Mozilla fomo PO (a held-out probe: measured, nothing tuned on
it), and ../shared/data/po-corpora (Django, Wagtail, Plone, Sphinx; fr and de) on seeded halves.

Options: ``--only NAME[,NAME]`` (substring of the case names), ``--both-folds`` (also mine B and score
A on the seeded corpora), ``--out FILE`` (default tests/bench/results/heldout_<date>.md), ``--label``.
Not measured here (yet): the generic system's pass rate and attested-gold recall.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import polars as pl

from housestyle.pipelines.conventions.io import load_conventions
from housestyle.pipelines.conventions.statuses import SCORED_STATUSES, select_statuses
from housestyle.pipelines.ingest import ingest_files
from housestyle.pipelines.mining.corpus import corpus_from_units
from housestyle.pipelines.scoring.engine import score_systems
from tests.conftest import REPO_ROOT, find_shared_data

SEED = "bench-heldout-1"


@dataclass(slots=True)
class Case:
    name: str
    files: list[Path]
    tgt: str
    splits: dict[str, list[str]] | None = None  # None: seeded halves A/B of the ingested units
    mine_split: str = "A"
    score_split: str = "B"


def seeded_halves(unit_ids: list[str]) -> dict[str, list[str]]:
    halves: dict[str, list[str]] = {"A": [], "B": []}
    for uid in unit_ids:
        digest = hashlib.sha256(f"{SEED}:{uid}".encode()).digest()
        halves["A" if digest[0] % 2 == 0 else "B"].append(uid)
    return halves


def cases(data: Path, both_folds: bool) -> list[Case]:
    out: list[Case] = []
    tico = data / "tico19"
    if tico.is_dir():
        splits = json.loads((REPO_ROOT / "inbox" / "demo" / "splits.json").read_text())
        ids = {k: list(v["unit_id"]) for k, v in splits.items()}
        tmx = [tico / "TM" / "all.en-fr.tmx"]
        out += [Case("tico en-fr test→dev", tmx, "fr", ids, "test", "dev"),
                Case("tico en-fr dev→test", tmx, "fr", ids, "dev", "test")]
    seeded: list[tuple[str, list[Path], str]] = []
    moz = data / "mozilla-fr"
    if moz.is_dir():
        seeded.append(("mozilla vpn xliff fr", sorted((moz / "mozilla-vpn-client-l10n" / "fr").rglob("*.xliff")), "fr"))
        seeded.append(("mozilla fomo po fr (probe)", sorted((moz / "fomo-l10n").rglob("fr/LC_MESSAGES/*.po")), "fr"))
    po = data / "po-corpora"
    for package in sorted(p for p in po.iterdir() if p.is_dir()) if po.is_dir() else []:
        for lang in ("fr", "de"):
            files = sorted(package.rglob(f"{lang}/LC_MESSAGES/*.po"))
            if files:
                seeded.append((f"{package.name.split('-')[0]} po {lang}", files, lang))
    for name, files, lang in seeded:
        out.append(Case(name, files, lang))
        if both_folds:
            out.append(Case(name + " (B→A)", files, lang, None, "B", "A"))
    return out


def mine(tm_units: Path, splits: Path, split: str, tgt: str, out: Path) -> tuple[float, int, str]:
    """(wall seconds, peak RSS KiB, the CLI's `mined` line) of one `housestyle mine` subprocess."""
    cmd = ["/usr/bin/time", "-f", "%e %M", sys.executable, "-m", "housestyle.assets.cli", "mine", str(tm_units), "--src", "en",
           "--tgt", tgt, "--splits", str(splits), "--split", split, "--client", "bench", "--out", str(out)]
    done = subprocess.run(cmd, cwd=REPO_ROOT, capture_output=True, text=True, check=False)
    if done.returncode:
        raise SystemExit(f"mine failed\n{done.stderr[-3000:]}")
    wall, rss = done.stderr.strip().splitlines()[-1].split()
    mined = next((line for line in done.stdout.splitlines() if line.startswith("mined")), "")
    return float(wall), int(rss), mined


def run_case(case: Case, work: Path) -> dict[str, Any]:
    ingest_files(case.files, client="bench", out_dir=work)
    units = pl.read_parquet(work / "tm_units.parquet")
    splits = case.splits or seeded_halves(sorted(units["unit_id"].to_list()))
    splits_file = work / "splits.json"
    splits_file.write_text(json.dumps({k: {"unit_id": v} for k, v in splits.items()}))
    wall, rss, mined = mine(work / "tm_units.parquet", splits_file, case.mine_split, case.tgt, work / "rules")
    set_dir = work / "rules" / "bench" / (work / "rules" / "bench" / "LATEST").read_text().strip()
    conventions = load_conventions(set_dir, regex_guard=False, validate=False)
    manifest = json.loads((set_dir / "manifest.json").read_text())
    held = corpus_from_units(units.filter(pl.col("unit_id").is_in(splits[case.score_split])), "en", case.tgt)
    ids = list(held.unit_ids)
    scored, _ = select_statuses(conventions, SCORED_STATUSES)
    table = score_systems(scored, dict(zip(ids, held.sources)), {"approved": dict(zip(ids, held.targets))}).scores
    by_kind = table.group_by("rule").agg(pl.col("scored").sum(), pl.col("passed").sum()).sort("rule")
    statuses = Counter((c.rule, c.status) for c in conventions)
    kinds: dict[str, dict[str, Any]] = {}
    for rule in sorted({c.rule for c in conventions}):
        row = by_kind.filter(pl.col("rule") == rule)
        items = int(row["scored"][0]) if row.height else 0
        passed = int(row["passed"][0]) if row.height else 0
        kinds[rule] = {"statuses": {s: n for (r, s), n in sorted(statuses.items()) if r == rule}, "items": items,
                       "pass": round(passed / items, 4) if items else None}
    return {"case": case.name, "mined_on": f"{case.mine_split} ({len(splits[case.mine_split])} units)",
            "held_out": len(ids), "wall_s": wall, "peak_mib": round(rss / 1024), "mined": mined, "kinds": kinds,
            "term_items_per_segment": round(kinds.get("term", {}).get("items", 0) / len(ids), 2) if ids else None,
            "packet": sum(1 for c in conventions if c.status != "suggested"),
            "manifest_heldout": manifest.get("heldout")}


def render(results: list[dict[str, Any]], label: str) -> str:
    lines = [f"## {label} — {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, commit {_head()}", "",
             "| corpus | mined on | held-out segs | kind | rules by status | held-out items | approved pass |",
             "|---|---|---|---|---|---|---|"]
    for r in results:
        for rule, k in r["kinds"].items():
            mix = ", ".join(f"{s} {n}" for s, n in k["statuses"].items())
            rate = "—" if k["pass"] is None else f"{k['pass']:.3f}"
            lines.append(f"| {r['case']} | {r['mined_on']} | {r['held_out']} | {rule} | {mix} | {k['items']} | {rate} |")
    lines += ["", "| corpus | term items / held-out seg | review packet (default) | mining wall s | peak MiB |",
              "|---|---|---|---|---|"]
    lines += [f"| {r['case']} | {r['term_items_per_segment']} | {r['packet']} | {r['wall_s']} | {r['peak_mib']} |"
              for r in results]
    return "\n".join(lines) + "\n"


def _head() -> str:
    done = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO_ROOT, capture_output=True, text=True, check=False)
    return done.stdout.strip() or "?"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="")
    parser.add_argument("--both-folds", action="store_true")
    parser.add_argument("--label", default="run")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    data = find_shared_data()
    if data is None:
        raise SystemExit("../shared/data not found: nothing to benchmark")
    wanted = [w.strip() for w in args.only.split(",") if w.strip()]
    results = []
    for case in cases(data, args.both_folds):
        if wanted and not any(w in case.name for w in wanted):
            continue
        start = time.perf_counter()
        with tempfile.TemporaryDirectory(prefix="bench-heldout-") as work:
            results.append(run_case(case, Path(work)))
        print(f"{case.name}: {time.perf_counter() - start:.0f}s", file=sys.stderr, flush=True)
    out = args.out or REPO_ROOT / "tests" / "bench" / "results" / f"heldout_{datetime.now(UTC):%Y-%m-%d}.md"
    out.parent.mkdir(parents=True, exist_ok=True)
    text = render(results, args.label)
    with out.open("a", encoding="utf-8") as handle:
        handle.write(text + "\n")
    (out.with_suffix(".jsonl")).open("a", encoding="utf-8").write(
        "".join(json.dumps({"label": args.label, **r}, ensure_ascii=False) + "\n" for r in results))
    print(text)


if __name__ == "__main__":
    main()
