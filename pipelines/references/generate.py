"""Generated references: N candidates per source in ONE call, parsed, filtered by Self-BLEU, saved.

Uses the generator backends and the Parquet cache of ``housestyle.pipelines.generation`` (a re-run parses and
selects again from the cached raw answers without calling the model, so parsing or the threshold can
change freely). The prompt is the ``references`` template: rules, input and — when an approved
reference exists — the ground truth. Output: one JSONL record per source with the raw answer, the
parsed candidates, what was dropped and why, the Self-BLEU values and the kept references;
``load_reference_set`` turns the file into a ``housestyle.pipelines.metaeval`` ReferenceSet (origin
``selected``) for multi-reference metrics and meta-evaluation.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from housestyle.pipelines import atomic
from housestyle.pipelines.errors import InputError
from housestyle.pipelines.generation.base import Backend
from housestyle.pipelines.generation.cache import GenerationCache
from housestyle.pipelines.generation.prompts import load_template
from housestyle.pipelines.generation.runner import RunSummary, run_generation
from housestyle.pipelines.metaeval.metrics import ReferenceSet
from housestyle.pipelines.references.parse import parse_candidates
from housestyle.pipelines.references.selfbleu import DEFAULT_THRESHOLD, select

DEFAULT_N = 10
FORMAT = "housestyle-generated-references/1"


@dataclass(slots=True)
class ReferenceRecord:
    """Everything about one source's generated references (one JSONL line)."""

    id: str
    source: str
    ground_truth: str | None
    status: str  # generated | cached | failed
    error: str | None = None
    raw: str | None = None
    candidates: list[str] = field(default_factory=list)
    dropped: list[list[str]] = field(default_factory=list)  # [text, reason]
    self_bleu: list[float | None] = field(default_factory=list)  # initial, per candidate
    references: list[str] = field(default_factory=list)  # the kept (selected) ones
    references_self_bleu: list[float | None] = field(default_factory=list)
    removed: list[list[Any]] = field(default_factory=list)  # [candidate, Self-BLEU when removed]


def generate_references(sources: Mapping[str, str], backend: Backend, *, src_lang: str, tgt_lang: str,
                        n: int = DEFAULT_N, ground_truth: Mapping[str, str] | None = None,
                        cache: GenerationCache | None = None, threshold: float = DEFAULT_THRESHOLD,
                        template: str = "references", max_tokens: int | None = None, flush_every: int = 4,
                        progress: Callable[[int, int], None] | None = None) -> tuple[list[ReferenceRecord], RunSummary]:
    """Generate, parse and select references for every source (id -> text)."""
    tpl = load_template(template)
    prefix = str(tpl.data.get("response_prefix", ""))
    truths = ground_truth or {}
    requests = [tpl.request(seg_id, {"source": text, "src_lang": src_lang, "tgt_lang": tgt_lang, "n": n,
                                     "ground_truth": truths.get(seg_id)}, max_tokens=max_tokens)
                for seg_id, text in sources.items()]
    run = run_generation(requests, backend, cache=cache, flush_every=flush_every, progress=progress)
    records = []
    for outcome in run.outcomes:
        source, truth = sources[outcome.segment_id], truths.get(outcome.segment_id)
        record = ReferenceRecord(outcome.segment_id, source, truth, outcome.status, outcome.error, outcome.text)
        if outcome.status != "failed" and outcome.text is not None:
            # the chat rendering asks for the list from "1."; only a completion continues the prefix
            lead = prefix if getattr(backend, "api", "completion") == "completion" else ""
            parsed = parse_candidates(outcome.text, n, prefix=lead, source=source, ground_truth=truth,
                                      truncated=outcome.finish_reason == "length")
            chosen = select(parsed.candidates, threshold, tgt_lang)
            record.candidates, record.dropped = parsed.candidates, [list(d) for d in parsed.dropped]
            record.self_bleu = chosen.initial_self_bleu
            record.references, record.references_self_bleu = chosen.kept, chosen.kept_self_bleu
            record.removed = [[c, v] for c, v in chosen.removed]
        records.append(record)
    return records, run


def write_references(records: list[ReferenceRecord], path: Path, *, meta: Mapping[str, Any] | None = None) -> Path:
    """JSONL: a header line ``{"format", ...meta}``, then one record a line."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic.atomic_path(path) as tmp, tmp.open("w", encoding="utf-8") as handle:
        handle.write(json.dumps({"format": FORMAT, **dict(meta or {})}, ensure_ascii=False) + "\n")
        for record in records:
            handle.write(json.dumps(asdict(record), ensure_ascii=False) + "\n")
    return path


def read_references(path: Path) -> tuple[dict[str, Any], list[ReferenceRecord]]:
    """(header, records) of a file written by ``write_references``; errors name file and line."""
    path = Path(path)
    if not path.is_file():
        raise InputError("generated-references file not found", path=str(path))
    header: dict[str, Any] = {}
    records = []
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                raise InputError(f"invalid JSON: {exc.msg}", path=str(path), location=number) from None
            if number == 1 and "format" in row:
                if row["format"] != FORMAT:
                    raise InputError(f"unknown format {row['format']!r} (expected {FORMAT})", path=str(path), location=1)
                header = row
                continue
            try:
                records.append(ReferenceRecord(**row))
            except TypeError as exc:
                raise InputError(f"not a reference record: {exc}", path=str(path), location=number) from None
    return header, records


def load_reference_set(path: Path, *, name: str = "generated", origin: str = "selected",
                       id_type: Callable[[str], Any] = str) -> ReferenceSet:
    """The kept references (``origin="selected"``) or all parsed candidates (``origin="generated"``)
    as a ReferenceSet; ``id_type=int`` for MQM segment ids."""
    _header, records = read_references(path)
    texts = {id_type(r.id): (r.references if origin == "selected" else r.candidates) for r in records}
    return ReferenceSet.from_texts(name, {k: v for k, v in texts.items() if v}, origin=origin)
