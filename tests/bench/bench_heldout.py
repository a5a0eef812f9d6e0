"""Held-out benchmark (issue 25), on demand, never a timed test: ``python -m tests.bench.bench_heldout``.

Per corpus: mine one half with ``housestyle mine … --splits S --split A`` (a fresh subprocess, so
wall time and peak RSS are that run's own), then score the other half's APPROVED targets with the
scoring engine (``score_systems``, the statuses a run scores by default) and report, per rule kind:
rules by status, held-out items, approved pass rate; term items per held-out segment; the review
packet's default size (every status but ``suggested``). Corpora: TICO-19 en→fr on the registration's
splits (both ways), Mozilla VPN XLIFF, Mozilla fomo PO (a held-out probe: measured, nothing tuned on
it), and ../shared/data/po-corpora (Django, Wagtail, Plone, Sphinx; fr and de) on seeded halves.

TICO also scores the generic system (the WMT21 Fairseq output, detokenised, keyed by TMX tuid:
inbox/demo/systems/fairseq.jsonl, built from ../shared/data/wmt21-terminology-enfr) on the same held-out
sources with the same rules, and reports approved − generic per kind. Attested-gold recall (issue 25's
definition, ``tests.eval.term_gold_recall.attested_recall`` on the mined half's units): TICO against the
Facebook en→fr CSV, the Mozilla corpora against the Mozilla TBX; counted over the rules a run scores
(candidate/validated) and over all rules (``suggested`` included).

Options: ``--only NAME[,NAME]`` (substring of the case names), ``--both-folds`` (also mine B and score
A on the seeded corpora), ``--out FILE`` (default tests/bench/results/heldout_<date>.md), ``--label``,
``--failures DIR`` (write each case's held-out failures of scored rules, approved output, to DIR/<case>.parquet),
``--keep DIR`` (keep each case's work folder, with its mined set, under DIR/<case>).
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

from housestyle.pipelines.rules.io import load_conventions
from housestyle.pipelines.conventions.statuses import SCORED_STATUSES, select_statuses
from housestyle.pipelines.ingest import ingest_files
from housestyle.pipelines.mining.corpus import corpus_from_units
from housestyle.pipelines.scoring.engine import score_systems
from housestyle.pipelines.segments import load_segments
from tests.conftest import REPO_ROOT, find_shared_data
from tests.eval.term_gold_recall import attested_recall, csv_pairs, tbx_pairs

SEED = "bench-heldout-1"


@dataclass(slots=True)
class Case:
    name: str
    files: list[Path]
    tgt: str
    splits: dict[str, list[str]] | None = None  # None: seeded halves A/B of the ingested units
    mine_split: str = "A"
    score_split: str = "B"
    generic: Path | None = None  # generic-system outputs keyed by unit id (TICO: Fairseq)
    gold: Path | None = None  # gold terminology for attested recall (.csv: TICO CSV; .tbx)


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
        generic, gold = REPO_ROOT / "inbox" / "demo" / "systems" / "fairseq.jsonl", tico / "terminologies" / "f_en-fr_XX.csv"
        out += [Case("tico en-fr test→dev", tmx, "fr", ids, "test", "dev", generic, gold),
                Case("tico en-fr dev→test", tmx, "fr", ids, "dev", "test", generic, gold)]
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
    tbx = moz / "terminology_management" / "terminology" / "fr.tbx"
    for name, files, lang in seeded:
        gold_file = tbx if name.startswith("mozilla") and tbx.is_file() else None
        out.append(Case(name, files, lang, gold=gold_file))
        if both_folds:
            out.append(Case(name + " (B→A)", files, lang, None, "B", "A", gold=gold_file))
    return out


def mine(tm_units: Path, splits: Path, split: str, tgt: str, out: Path) -> tuple[float, int, str]:
    """(wall seconds, peak RSS KiB, the CLI's `mined` line) of one `housestyle mine` subprocess."""
    cmd = ["/usr/bin/time", "-f", "%e %M", sys.executable, "-m", "housestyle.pipelines.cli.main", "mine", str(tm_units), "--src", "en",
           "--tgt", tgt, "--splits", str(splits), "--split", split, "--client", "bench", "--out", str(out)]
    done = subprocess.run(cmd, cwd=REPO_ROOT, capture_output=True, text=True, check=False)
    if done.returncode:
        raise SystemExit(f"mine failed\n{done.stderr[-3000:]}")
    wall, rss = done.stderr.strip().splitlines()[-1].split()
    mined = next((line for line in done.stdout.splitlines() if line.startswith("mined")), "")
    return float(wall), int(rss), mined


def gold_recall(case: Case, units: pl.DataFrame, mined_ids: list[str], conventions: list[Any]) -> dict[str, Any] | None:
    """Attested-gold recall on the mined half: over the scored rules and over all rules."""
    if case.gold is None:
        return None
    pairs = csv_pairs(case.gold) if case.gold.suffix == ".csv" else tbx_pairs(case.gold)
    mined = units.filter(pl.col("unit_id").is_in(mined_ids) & pl.col("target").is_not_null()).unique("unit_id")
    terms = pl.DataFrame([{"src": c.src or "", "expected_terms": c.expected_terms, "regex": c.regex, "status": c.status}
                          for c in conventions if c.rule == "term" and c.expected_terms],
                         schema={"src": pl.Utf8, "expected_terms": pl.List(pl.Utf8), "regex": pl.Boolean, "status": pl.Utf8})
    out: dict[str, Any] = {"gold": case.gold.name}
    for label, rows in (("scored", terms.filter(pl.col("status").is_in(list(SCORED_STATUSES)))), ("all", terms)):
        att, rec, missed = attested_recall(pairs, mined["source"].to_list(), mined["target"].to_list(), rows)
        out[label] = {"attested": att, "recalled": rec, "recall": round(rec / att, 3) if att else None, "missed": missed}
    return out


def run_case(case: Case, work: Path, failures_dir: Path | None = None, aligned: bool = False) -> dict[str, Any]:
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
    systems = {"approved": dict(zip(ids, held.targets))}
    if case.generic is not None:
        generic = load_segments(case.generic)
        systems["generic"] = {i: generic[i] for i in ids if i in generic}
    result = score_systems(scored, dict(zip(ids, held.sources)), systems)
    table = result.scores
    every = _every_term_rule(conventions, held)
    by_kind = table.group_by("system", "rule").agg(pl.col("scored").sum(), pl.col("passed").sum()).sort("rule")
    if failures_dir is not None:
        failures_dir.mkdir(parents=True, exist_ok=True)
        rules = pl.DataFrame([{"convention_id": c.convention_id, "src": c.src, "expected": c.expected_terms,
                               "status": c.status} for c in scored],
                             schema={"convention_id": pl.Utf8, "src": pl.Utf8, "expected": pl.List(pl.Utf8), "status": pl.Utf8})
        fails = result.failures.filter((pl.col("system") == "approved") & pl.col("error").is_null())
        fails.join(rules, on="convention_id", how="left").write_parquet(failures_dir / f"{_slug(case.name)}.parquet")
    statuses = Counter((c.rule, c.status) for c in conventions)
    kinds: dict[str, dict[str, Any]] = {}
    for rule in sorted({c.rule for c in conventions}):
        items, rate = _rate(by_kind, "approved", rule)
        kinds[rule] = {"statuses": {s: n for (r, s), n in sorted(statuses.items()) if r == rule}, "items": items,
                       "pass": rate}
        if "generic" in systems:
            g_items, g_rate = _rate(by_kind, "generic", rule)
            kinds[rule] |= {"generic_items": g_items, "generic_pass": g_rate,
                            "gap": round(rate - g_rate, 4) if rate is not None and g_rate is not None else None}
    out = {"aligned": _aligned_only(case, work, splits_file, scored, held)} if aligned else {}
    return out | {"case": case.name, "mined_on": f"{case.mine_split} ({len(splits[case.mine_split])} units)",
            "held_out": len(ids), "wall_s": wall, "peak_mib": round(rss / 1024), "mined": mined, "kinds": kinds,
            "term_items_per_segment": round(kinds.get("term", {}).get("items", 0) / len(ids), 2) if ids else None,
            "every_term_rule": every,
            "packet": sum(1 for c in conventions if c.status != "suggested"),
            "manifest_heldout": manifest.get("heldout"),
            "gold_recall": gold_recall(case, units, splits[case.mine_split], conventions)}


def _ceiling(r: dict[str, Any]) -> str:
    e = r.get("every_term_rule") or {}
    if e.get("items_per_segment") is None:
        return "— | —"
    return f"{e['items_per_segment']}, {_fmt(e['pass'])} | {e['suggested_items']}, {_fmt(e['suggested_pass'])}"


def _every_term_rule(conventions: list[Any], held: Any) -> dict[str, Any]:
    """The ceiling of the term tier: held-out items per segment and pass rate if the ``suggested``
    term rules were scored too (they never are). Says whether "coverage >= 0.5 at pass >= .97" is
    within reach of the TM, whatever the bar."""
    terms = [c for c in conventions if c.rule == "term"]
    ids = list(held.unit_ids)
    if not terms or not ids:
        return {"items_per_segment": None, "pass": None, "suggested_items": 0, "suggested_pass": None}
    table = score_systems(terms, dict(zip(ids, held.sources)), {"approved": dict(zip(ids, held.targets))}).scores
    status = pl.DataFrame({"convention_id": [c.convention_id for c in terms], "status": [c.status for c in terms]})
    rows = table.join(status, on="convention_id", how="left")
    items, passed = int(rows["scored"].sum()), int(rows["passed"].sum())
    sug = rows.filter(pl.col("status") == "suggested")
    s_items, s_passed = int(sug["scored"].sum()), int(sug["passed"].sum())
    return {"items_per_segment": round(items / len(ids), 2), "pass": round(passed / items, 4) if items else None,
            "suggested_items": s_items, "suggested_pass": round(s_passed / s_items, 4) if s_items else None}


def _aligned_only(case: Case, work: Path, splits_file: Path, scored: list[Any], held: Any) -> dict[str, Any]:
    """Pass rates by kind on the held-out units the miner does NOT flag as misaligned when it mines
    the held-out half itself (its suspect_units.parquet): a target translating another source says
    nothing about the client's conventions. Reported beside the raw figure, never instead of it."""
    mine(work / "tm_units.parquet", splits_file, case.score_split, case.tgt, work / "rules_held")
    held_set = work / "rules_held" / "bench" / (work / "rules_held" / "bench" / "LATEST").read_text().strip()
    misaligned = set(pl.read_parquet(held_set / "suspect_units.parquet")["unit_id"].to_list())
    ids = [i for i in held.unit_ids if i not in misaligned]
    sources, targets = dict(zip(held.unit_ids, held.sources)), dict(zip(held.unit_ids, held.targets))
    table = score_systems(scored, {i: sources[i] for i in ids}, {"approved": {i: targets[i] for i in ids}}).scores
    by_kind = table.group_by("system", "rule").agg(pl.col("scored").sum(), pl.col("passed").sum())
    rates = {rule: _rate(by_kind, "approved", rule) for rule in sorted(set(table["rule"].to_list()))}
    return {"excluded": len(misaligned), "kinds": {rule: {"items": n, "pass": r} for rule, (n, r) in rates.items()}}


def _rate(by_kind: pl.DataFrame, system: str, rule: str) -> tuple[int, float | None]:
    row = by_kind.filter((pl.col("system") == system) & (pl.col("rule") == rule))
    items = int(row["scored"][0]) if row.height else 0
    passed = int(row["passed"][0]) if row.height else 0
    return items, (round(passed / items, 4) if items else None)


def _slug(name: str) -> str:
    return "".join(ch if ch.isalnum() else "_" for ch in name).strip("_")


def render(results: list[dict[str, Any]], label: str) -> str:
    lines = [f"## {label} — {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, commit {_head()}", "",
             "| corpus | mined on | held-out segs | kind | rules by status | held-out items | approved pass |",
             "|---|---|---|---|---|---|---|"]
    for r in results:
        for rule, k in r["kinds"].items():
            mix = ", ".join(f"{s} {n}" for s, n in k["statuses"].items())
            rate = "—" if k["pass"] is None else f"{k['pass']:.3f}"
            lines.append(f"| {r['case']} | {r['mined_on']} | {r['held_out']} | {rule} | {mix} | {k['items']} | {rate} |")
    lines += ["", "| corpus | term items / held-out seg | review packet (default) | mining wall s | peak MiB "
              "| every term rule scored (suggested too): items / seg, pass | suggested alone: items, pass |",
              "|---|---|---|---|---|---|---|"]
    lines += [f"| {r['case']} | {r['term_items_per_segment']} | {r['packet']} | {r['wall_s']} | {r['peak_mib']} "
              f"| {_ceiling(r)} |" for r in results]
    generic = [(r, rule, k) for r in results for rule, k in r["kinds"].items() if "generic_pass" in k]
    if generic:
        lines += ["", "| corpus | kind | approved items / pass | generic items / pass | approved − generic (points) |",
                  "|---|---|---|---|---|"]
        lines += [f"| {r['case']} | {rule} | {k['items']} / {_fmt(k['pass'])} | {k['generic_items']} / "
                  f"{_fmt(k['generic_pass'])} | {_points(k['gap'])} |"
                  for r, rule, k in generic]
    aligned = [r for r in results if r.get("aligned")]
    if aligned:
        lines += ["", "| corpus | held-out units flagged misaligned (left out) | kind | items | approved pass, aligned units |",
                  "|---|---|---|---|---|"]
        lines += [f"| {r['case']} | {r['aligned']['excluded']} | {rule} | {k['items']} | {_fmt(k['pass'])} |"
                  for r in aligned for rule, k in r["aligned"]["kinds"].items()]
    gold = [r for r in results if r.get("gold_recall")]
    if gold:
        lines += ["", "| corpus | gold | attested | recalled, scored rules | recalled, all rules | missed by the scored rules |",
                  "|---|---|---|---|---|---|"]
        for r in gold:
            g = r["gold_recall"]
            lines.append(f"| {r['case']} | {g['gold']} | {g['scored']['attested']} | {g['scored']['recalled']} "
                         f"({_fmt(g['scored']['recall'])}) | {g['all']['recalled']} ({_fmt(g['all']['recall'])}) | "
                         f"{'; '.join(g['scored']['missed'][:12])}{' …' if len(g['scored']['missed']) > 12 else ''} |")
    return "\n".join(lines) + "\n"


def _points(gap: float | None) -> str:
    return "—" if gap is None else f"{100 * gap:.1f}"


def _fmt(value: float | None) -> str:
    return "—" if value is None else f"{value:.3f}"


def _head() -> str:
    done = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO_ROOT, capture_output=True, text=True, check=False)
    return done.stdout.strip() or "?"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="")
    parser.add_argument("--both-folds", action="store_true")
    parser.add_argument("--label", default="run")
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--failures", type=Path, default=None)
    parser.add_argument("--aligned", action="store_true",
                        help="also mine each held-out half and report pass rates without the units it flags as misaligned")
    parser.add_argument("--keep", type=Path, default=None,
                        help="keep each case's work folder (ingested units, splits, mined set) under KEEP/<case>")
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
        if args.keep is not None:
            work = args.keep / _slug(case.name)
            work.mkdir(parents=True, exist_ok=True)
            results.append(run_case(case, work, args.failures, args.aligned))
        else:
            with tempfile.TemporaryDirectory(prefix="bench-heldout-") as tmp:
                results.append(run_case(case, Path(tmp), args.failures, args.aligned))
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
