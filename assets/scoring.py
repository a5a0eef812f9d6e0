"""system_outputs and scoring_run for one client (SPEC.md §1, bottom of the graph).

The convention set itself is the ``convention_set`` asset of assets/mining.py (mined candidates plus
authored rules from inbox/<client>/conventions/, published under rules_out/<client>/<set_version>/);
scoring_run scores the client's LATEST set. A client without a set or without systems skips the
dependent assets instead of failing.
"""

# No `from __future__ import annotations`: Dagster inspects the context/resource annotations at runtime.

import json
import shutil
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import polars as pl
from dagster import AssetExecutionContext, Config, MaterializeResult, MetadataValue, asset

from housestyle.assets.freshness import code_version
from housestyle.pipelines.inbox_files import system_files
from housestyle.assets.metadata import md_table
from housestyle.assets.partitions import CLIENTS
from housestyle.pipelines.reports_server import report_url
from housestyle.assets.resources import HousestyleSettings
from housestyle.pipelines import atomic
from housestyle.pipelines.scoring.audit import audit_status
from housestyle.pipelines.scoring.report import NO_SCORE
from housestyle.pipelines.scoring.run_record import AUDIT_FILE, open_run
from housestyle.pipelines.scoring.runs import open_conventions, plan_run, run_scoring
from housestyle.pipelines.conventions.statuses import SCORED_STATUSES, parse_statuses
from housestyle.pipelines.scoring.verdicts import run_threshold, system_verdicts
from housestyle.pipelines.scoring.summary import KIND_PREFIX, adequacy_references, system_summary
from housestyle.pipelines.paths import client_path
from housestyle.pipelines.scoring.client_settings import client_threshold
from housestyle.pipelines.scoring.delivery import input_digest, load_segments_at
from housestyle.pipelines.scoring.ignores import IGNORES_FILE

SYSTEMS_MANIFEST = "systems.json"


def system_name(path: Path) -> str:
    """fairseq.jsonl → fairseq; ref.tsv.gz → ref (the name scores and reports use)."""
    name = path.name.removesuffix(".gz")
    return Path(name).stem


@asset(partitions_def=CLIENTS, group_name="scoring", output_required=False, deps=["inbox_systems"], code_version=code_version(__name__))
def system_outputs(context: AssetExecutionContext, settings: HousestyleSettings) -> Iterator[MaterializeResult]:
    """The outputs to score: `inbox/<client>/systems/<name>.<ext>`, copied as read so a run can be replayed."""
    client = context.partition_key
    files = delivery_files(settings.inbox, client)
    if not files:
        context.log.warning(f"no system outputs for {client}: add inbox/{client}/systems/<name>.jsonl")
        return
    names = [system_name(p) for p in files]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise ValueError(f"inbox/{client}/systems/: two files give system name(s) {duplicates}; one file per system")
    out_dir = settings.asset_dir("system_outputs", client)
    rows: list[dict[str, Any]] = []
    manifest: dict[str, dict[str, Any]] = {}
    for name, path in zip(names, files):
        segments = load_segments_at(path)
        copy = out_dir / path.name
        if path.is_dir():
            copy_tree(path, copy)
        else:
            atomic.copy_file(path, copy)
        manifest[name] = {"path": copy.name, "sha256": input_digest(copy), "segments": len(segments),
                          "qualified": path.is_dir() or path.suffix.lower() == ".zip"}
        rows.append({"system": name, "file": path.name, "segments": len(segments)})
    atomic.write_text(out_dir / SYSTEMS_MANIFEST, json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    yield MaterializeResult(metadata={
        "systems": len(files),
        "per_system": MetadataValue.md(md_table(rows, ["system", "file", "segments"])),
        "path": MetadataValue.path(str(out_dir)),
    })


def delivery_files(inbox: Path, client: str) -> list[Path]:
    """inbox/<client>/systems/: a file (or .zip) per system, or a folder per system (its name is the
    system's); symlinks are never followed."""
    folder = inbox / client / "systems"
    dirs = sorted(p for p in folder.iterdir() if p.is_dir() and not p.is_symlink() and not p.name.startswith(".")) \
        if folder.is_dir() else []
    return sorted([*system_files(inbox, client), *dirs])


def copy_tree(source: Path, target: Path) -> None:
    """A delivery folder's readable files (``delivery``'s selection), copied as read."""
    from housestyle.pipelines.scoring.delivery import folder_files

    if target.exists():
        shutil.rmtree(target)
    for file in folder_files(source):
        dest = target / file.relative_to(source)
        dest.parent.mkdir(parents=True, exist_ok=True)
        atomic.copy_file(file, dest)


def _qualifier(tm_root: Path) -> pl.Expr:
    """``<file>::<unit_id>``: the unit's file relative to tm/ (a zip member: its path in the zip), as a
    delivery folder or zip mirroring the TM names it (``housestyle.pipelines.scoring.delivery``)."""
    root = tm_root.resolve().as_posix().rstrip("/") + "/"
    file = pl.col("source_file").str.replace(r"^.*!", "").str.replace(root, "", literal=True)
    return pl.concat_str([file, pl.lit("::"), pl.col("unit_id")])


def _scoring_inputs(units_path: Path, out_dir: Path, tgt_langs: set[str],
                    tm_root: Path | None = None) -> tuple[Path, Path, str]:
    """Sources and references (JSONL keyed by unit_id) from tm_units, for the set's target language.

    When the set names no target language, the client's most frequent pair is scored; a unit id that
    repeats (several files) keeps its first row, so the source file order decides. With ``tm_root``
    (a system delivered as a folder or zip) ids are qualified by file: ``<file>::<unit_id>``.
    """
    columns = ["unit_id", "source", "target", "src_lang_norm", "tgt_lang_norm"]
    units = pl.read_parquet(units_path, columns=columns + (["source_file"] if tm_root is not None else []))
    if tm_root is not None:
        units = units.with_columns(_qualifier(tm_root).alias("unit_id"))
    pairs = units.group_by("src_lang_norm", "tgt_lang_norm").len().sort("len", descending=True)
    if tgt_langs:
        pairs = pairs.filter(pl.col("tgt_lang_norm").is_in(sorted(tgt_langs)))
    if pairs.is_empty():
        raise ValueError(f"tm_units has no units for target language(s) {sorted(tgt_langs)}")
    src, tgt = pairs.row(0)[:2]
    chosen = units.filter((pl.col("src_lang_norm") == src) & (pl.col("tgt_lang_norm") == tgt)).unique(
        "unit_id", keep="first", maintain_order=True)
    source_path, reference_path = out_dir / "source.jsonl", out_dir / "reference.jsonl"
    atomic.write_with(source_path, chosen.select(pl.col("unit_id").alias("id"), pl.col("source").alias("text")).write_ndjson)
    atomic.write_with(reference_path, chosen.select(pl.col("unit_id").alias("id"), pl.col("target").alias("text")).write_ndjson)
    return source_path, reference_path, f"{src}→{tgt}"


class ScoringConfig(Config):
    """Which conventions to score, by status (SPEC.md §3): candidate and validated unless named;
    rejected ones are scored only when listed here."""

    statuses: list[str] = list(SCORED_STATUSES)  # noqa: RUF012  (pydantic copies field defaults per instance)


@asset(partitions_def=CLIENTS, group_name="scoring", deps=["tm_units", "convention_set", "system_outputs", "inbox_ignores", "inbox_settings"],
       output_required=False, code_version=code_version(__name__))
def scoring_run(context: AssetExecutionContext, settings: HousestyleSettings, config: ScoringConfig) -> Iterator[MaterializeResult]:
    """Score every system against the client's LATEST convention set; the run lands beside the set."""
    client = context.partition_key
    set_dir = settings.latest_set_dir(client)
    systems_dir = client_path(settings.storage / "system_outputs", client)
    if set_dir is None or not (systems_dir / SYSTEMS_MANIFEST).is_file():
        context.log.warning(f"nothing to score for {client}: needs a convention set and system outputs")
        return
    manifest = json.loads((systems_dir / SYSTEMS_MANIFEST).read_text(encoding="utf-8"))
    systems = {name: systems_dir / entry["path"] for name, entry in sorted(manifest.items())}
    # a set is read only when complete (conventionset.store); the JSONL keeps the miner's extra fields
    statuses = parse_statuses(config.statuses)
    _, conventions, _ = open_conventions(set_dir / "conventions.jsonl")
    tgt_langs = {c.tgt_lang for c in conventions if c.tgt_lang}
    inputs_dir = settings.asset_dir("scoring_run", client)
    qualified = any(entry.get("qualified") for entry in manifest.values())
    plain = sorted(name for name, entry in manifest.items() if not entry.get("qualified"))
    if qualified and plain:
        context.log.warning(f"systems {plain} are single files keyed by unit id while others are folders or zips "
                            "keyed <file>::<id>: the single files will show as missing; deliver them the same way")
    source, reference, pair = _scoring_inputs(settings.tm_units_path(client), inputs_dir, tgt_langs,
                                              settings.inbox / client / "tm" if qualified else None)
    n_scored = sum(c.status in statuses for c in conventions)
    context.log.info(f"scoring {len(systems)} system(s) × {n_scored} of the set's {len(conventions)} conventions "
                     f"(statuses {'+'.join(statuses)}) on {pair}")
    run_dir = _score_whole(settings, client, set_dir, source, systems, reference, statuses,
                           threshold=client_threshold(settings.client_dir(client)),
                           ignores_path=settings.client_dir(client) / IGNORES_FILE)
    run = open_run(run_dir)
    scores = pl.read_parquet(run_dir / "scores.parquet")
    audit, audit_detail = audit_status(run_dir)
    yield MaterializeResult(metadata={
        "summary": MetadataValue.md(summary_markdown(run_dir, run)),
        "statuses_scored": "+".join(run.get("statuses") or statuses),
        "left_out": MetadataValue.json(run.get("left_out") or {}),
        "signature": run.get("signature", ""),
        "audit": f"{audit}: {audit_detail}",
        "run_dir": MetadataValue.path(str(run_dir)),
        "report": MetadataValue.path(str(run_dir / "report.html")),
        **({"report_url": MetadataValue.url(url)} if (url := report_url(settings.rules_out, run_dir / "report.html")) else {}),
        "set_version": set_dir.name,
        "language_pair": pair,
        "per_dimension": MetadataValue.md(_dimension_table(scores)),
    })


def _score_whole(settings: HousestyleSettings, client: str, set_dir: Path, source: Path, systems: dict[str, Path],
                 reference: Path, statuses: Sequence[str], *, threshold: float, ignores_path: Path) -> Path:
    """Score into a temporary folder beside the run's place, renamed at the end (``atomic.replace_dir``):
    a full disk leaves no torn run folder, and the error names the run folder."""
    conventions_file = set_dir / "conventions.jsonl"
    file, _, version = open_conventions(conventions_file, regex_guard=False)
    run_id, _ = plan_run(file, source, systems, [reference], version, statuses, ignores_path=ignores_path,
                         threshold=threshold)
    final = client_path(settings.rules_out, client, version, "runs", run_id)

    def build(tmp: Path) -> None:
        if (final / AUDIT_FILE).is_file():  # an acknowledgement of this very run (same inputs, same id) stays
            atomic.copy_file(final / AUDIT_FILE, tmp / AUDIT_FILE)
        run_scoring(conventions_file, source, systems, [reference], tmp, reference_names=["tm_target"],
                    set_version=version, statuses=statuses, threshold=threshold, ignores_path=ignores_path,
                    client=client)

    return atomic.replace_dir(final, build)


def summary_markdown(run_dir: Path, run: dict[str, Any]) -> str:
    """The report's summary table (``housestyle.pipelines.scoring.summary.system_summary``, the same function)
    as markdown, with the status line under it."""
    adequacy = pl.read_parquet(run_dir / "adequacy.parquet")
    scores, coverage = pl.read_parquet(run_dir / "scores.parquet"), pl.read_parquet(run_dir / "coverage.parquet")
    summary = system_summary(scores, coverage, adequacy, run.get("systems"))
    verdicts = {r["system"]: r for r in system_verdicts(
        scores, coverage, summary["system"].to_list(), run_threshold(run)).iter_rows(named=True)}
    kinds = [c for c in summary.columns if c.startswith(KIND_PREFIX)]
    rows = []
    for r in summary.iter_rows(named=True):
        scs = NO_SCORE if r["scs"] is None else f"{r['scs']:.1f}"
        row = {"system": r["system"], "SCS": f"**{scs}**" if r["best"] else scs, "items": f"{r['passed']}/{r['scored']}"}
        row |= {k: verdicts[r["system"]][k] for k in ("new", "inherited", "ignored", "verdict")} if "new_failed" in scores.columns else {}
        row |= {k: NO_SCORE if r[k] is None else r[k] for k in kinds}
        row |= {"coverage %": r["coverage"], "missing": r["missing"],
                "BLEU": NO_SCORE if r["BLEU"] is None else r["BLEU"], "chrF": NO_SCORE if r["chrF"] is None else r["chrF"]}
        rows.append(row)
    mix = run.get("status_mix") or {}
    note = (f"\n\nConventions: {', '.join(f'{s} {n}' for s, n in mix.items()) or 'none'}; scored: "
            f"{'+'.join(run.get('statuses') or [])}; left out: "
            f"{', '.join(f'{s} {n}' for s, n in (run.get('left_out') or {}).items()) or 'none'}. "
            f"BLEU/chrF vs {adequacy_references(adequacy) or '—'}, beside the SCS, never merged.")
    return md_table(rows, list(rows[0]) if rows else None) + note


def _dimension_table(scores: pl.DataFrame) -> str:
    """Systems × dimensions: score per dimension = 100 × passed / scored over its conventions."""
    per_dim = (scores.group_by("dimension", "system").agg(pl.col("scored").sum(), pl.col("passed").sum())
               .with_columns(pl.when(pl.col("scored") > 0).then(100 * pl.col("passed") / pl.col("scored"))
                             .otherwise(None).alias("score")))
    wide = per_dim.pivot(on="system", index="dimension", values="score").sort("dimension")
    wide = wide.select("dimension", *sorted(c for c in wide.columns if c != "dimension"))  # stable column order
    rows = [{k: NO_SCORE if v is None else v for k, v in row.items()} for row in wide.to_dicts()]
    return md_table(rows, wide.columns)
