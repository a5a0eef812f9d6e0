"""From mined candidates to a published set: the ONE function ``housestyle mine`` and the
``convention_set`` asset both call (``build_set``), so the command line and the graph cannot drift.

``build_set`` takes the merged candidates of each language pair (``mining.mine.combine``: what
``mine_corpus`` returns and the ``convention_candidates`` asset stores) and the other inputs that
decide a set (``SetSources``: the generic system's contrast candidates, the client's authored
rules), runs the ``SET_STEPS`` over them in order, and writes the set. A step is a plain function
``(draft, sources) -> draft``.

A new input that shapes sets is one more field of ``SetSources`` (read by ``read_sources``) and one
more entry of ``SET_STEPS``; both routes then apply it, and the input's hash goes into
``draft.inputs`` so the set_version follows it. The last step is the client's review decisions
(``inbox/<client>/decisions.parquet``, ``conventionset.decisions``: accepted → ``validated``,
rejected → ``rejected``, edits → ``authored`` rules replacing the mined one), reported in the
manifest's ``decisions`` block.

It never takes a gold or registration path: the miner never sees gold.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import polars as pl

from housestyle.pipelines.contrast.conventions import fold_contrast_with_evidence
from housestyle.pipelines.rules.io import load_authored, load_conventions
from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.conventionset.decisions import apply_decisions, read_decisions
from housestyle.pipelines.mining.set_glossary import merge_glossary
from housestyle.pipelines.conventionset.version import sha256_file
from housestyle.pipelines.mining.set_writer import WrittenSet, write_set
from housestyle.pipelines.mining.corpus import corpus_from_units
from housestyle.pipelines.mining.merge import EVIDENCE_SCHEMA, MiningResult, empty_evidence
from housestyle.pipelines.mining.mine import mine_corpus
from housestyle.pipelines.mining.params import DEFAULT_PARAMS, MiningParams
from housestyle.pipelines.splits import select_split


@dataclass(frozen=True, slots=True)
class InputFile:
    """Conventions read from one file, named as the set's ``inputs`` name it."""

    name: str  # e.g. ``conventions/authored.jsonl``
    sha256: str
    conventions: tuple[Convention, ...]


@dataclass(frozen=True, slots=True)
class SetSources:
    """Every input beyond the mined candidates that decides what a set holds (one field per step)."""

    contrast: tuple[InputFile, ...] = ()  # negative candidates (origin contrast), folded into term rules
    authored: tuple[InputFile, ...] = ()  # hand-authored rules, added unless the miner found them too
    glossary: tuple[InputFile, ...] = ()  # the client's termbase (import-glossary): replaces mined term rules
    decisions: DecisionsFile | None = None  # the client's review decisions, applied last


@dataclass(frozen=True, slots=True)
class DecisionsFile:
    """The client's decisions table (``conventionset.decisions.DECISIONS_SCHEMA``)."""

    name: str  # ``decisions/decisions.parquet``
    sha256: str
    frame: pl.DataFrame


def read_sources(*, contrast: Sequence[Path] = (), authored: Sequence[Path] = (),
                 decisions: Path | None = None, glossary: Sequence[Path] = ()) -> SetSources:
    """Load the contrast candidate files, the authored convention files (validated; authored
    rules with the full regex probe, as they come from people), the client's glossary files
    (``inbox/<client>/glossary/``, written by import-glossary) and the decisions file."""
    def read(kind: str, path: Path, guard: bool) -> InputFile:
        loaded = load_authored(path) if kind == "conventions" else load_conventions(path, regex_guard=guard)
        return InputFile(f"{kind}/{path.name}", sha256_file(path), tuple(loaded))

    decided = None if decisions is None else DecisionsFile(f"decisions/{Path(decisions).name}", sha256_file(decisions),
                                                           read_decisions(Path(decisions)))
    return SetSources(contrast=tuple(read("contrast", Path(p), False) for p in contrast if Path(p).stat().st_size),
                      authored=tuple(read("conventions", Path(p), True) for p in authored), decisions=decided,
                      glossary=tuple(read("glossary", Path(p), True) for p in glossary))


@dataclass(slots=True)
class SetDraft:
    """The set as the steps shape it: its rules with evidence, conflicts and suspects (one
    MiningResult over all language pairs), and the inputs its version hashes."""

    result: MiningResult
    inputs: dict[str, str] = field(default_factory=dict)


Step = Callable[[SetDraft, SetSources], SetDraft]


def fold_contrast(draft: SetDraft, sources: SetSources) -> SetDraft:
    """A term rule the generic system renders otherwise gains those renderings as wrong variants
    (``housestyle.pipelines.contrast``); candidates whose base rule is not in the set are left out."""
    candidates = [c for f in sources.contrast for c in f.conventions]
    if not candidates:
        return draft
    result = draft.result
    conventions, evidence = fold_contrast_with_evidence(result.conventions, result.evidence, candidates)
    result.stats["contrast_candidates"] = sum(c.origin == "contrast" for c in conventions)
    draft.inputs.update({f.name: f.sha256 for f in sources.contrast})
    # replace(), not a new MiningResult: every other field (conflicts, suspects, term trace) rides along
    draft.result = replace(result, conventions=conventions, evidence=evidence)
    return draft


def add_authored(draft: SetDraft, sources: SetSources) -> SetDraft:
    """Authored rules join the set; one the miner found itself keeps the mined row (it has evidence)."""
    ids = {c.convention_id for c in draft.result.conventions}
    also_mined = 0
    for source in sources.authored:
        for conv in source.conventions:
            if conv.convention_id in ids:
                also_mined += 1
                continue
            ids.add(conv.convention_id)
            draft.result.conventions.append(conv)
        draft.inputs[source.name] = source.sha256
    draft.result.stats["authored_also_mined"] = also_mined
    return draft


def add_glossary(draft: SetDraft, sources: SetSources) -> SetDraft:
    """The client's glossary rules join the set and stand for the mined rules of the same term
    (``conventionset.glossary``): one that agrees is not written twice, one that contradicts is
    dropped and reported in conflicts.parquet (kind ``glossary``)."""
    if not sources.glossary:
        return draft
    result = draft.result
    merged = merge_glossary(result.conventions, [c for f in sources.glossary for c in f.conventions])
    evidence = result.evidence.filter(~pl.col("convention_id").is_in(sorted(merged.removed)))
    result.stats["glossary"] = merged.report
    draft.inputs.update({f.name: f.sha256 for f in sources.glossary})
    draft.result = replace(result, conventions=merged.conventions, evidence=evidence,
                           conflicts=[*result.conflicts, *merged.conflicts])
    return draft


def follow_decisions(draft: SetDraft, sources: SetSources) -> SetDraft:
    """The newest review decision per rule identity sets its status or replaces it by the edit
    (``conventionset.decisions``); the manifest's ``decisions`` block says what applied."""
    if sources.decisions is None:
        return draft
    result = draft.result
    done = apply_decisions(result.conventions, result.evidence, sources.decisions.frame)
    draft.inputs[sources.decisions.name] = sources.decisions.sha256
    result.stats["decisions"] = done.report
    draft.result = replace(result, conventions=done.conventions, evidence=done.evidence)
    return draft


# The order matters: contrast extends mined term rules before authored rules join; the client's
# glossary then stands for the mined rules of its terms; the review decisions go last (they may
# override any rule, mined, contrast, authored or glossary).
SET_STEPS: tuple[Step, ...] = (fold_contrast, add_authored, add_glossary, follow_decisions)


def _pairs_result(pairs: Mapping[str, MiningResult]) -> MiningResult:
    """One result over the language pairs (in key order); per-pair statistics under their key."""
    keys = sorted(pairs)
    evidence = [empty_evidence(), *(pairs[k].evidence.select(list(EVIDENCE_SCHEMA)).cast(EVIDENCE_SCHEMA) for k in keys)]
    traces = [t for k in keys if (t := pairs[k].term_trace) is not None]
    return MiningResult([c for k in keys for c in pairs[k].conventions], pl.concat(evidence),
                        [c for k in keys for c in pairs[k].conflicts], {"pairs": {k: pairs[k].stats for k in keys}},
                        [s for k in keys for s in pairs[k].suspects], pl.concat(traces) if traces else None)


def build_set(pairs: Mapping[str, MiningResult], sources: SetSources, *, client: str, rules_out: Path,
              inputs: Mapping[str, str], split: str | None, params: MiningParams = DEFAULT_PARAMS,
              steps: Sequence[Step] = SET_STEPS) -> tuple[WrittenSet, MiningResult]:
    """Run ``steps`` over the pairs' merged candidates (``pairs``: ``"<src>__<tgt>"`` → the pair's
    ``combine`` result) and ``sources``, and publish the set; returns it and what it holds."""
    draft = SetDraft(_pairs_result(pairs), dict(inputs))
    for step in steps:
        draft = step(draft, sources)
    langs = [key.split("__", 1) for key in sorted(pairs)]
    written = write_set(draft.result, client=client, rules_out=rules_out, inputs=draft.inputs,
                        params=params.to_dict(), split=split,
                        src_lang=",".join(sorted({s for s, _ in langs})), tgt_lang=",".join(sorted({t for _, t in langs})))
    return written, draft.result


def pair_key(src_lang: str, tgt_lang: str) -> str:
    """How a language pair is named among a set's candidates and statistics."""
    return f"{src_lang}__{tgt_lang}"


def mine_to_set(units: pl.DataFrame, *, src_lang: str, tgt_lang: str, client: str, rules_out: Path,
                inputs: Mapping[str, str], split: str | None = None, splits_file: Path | None = None,
                params: MiningParams = DEFAULT_PARAMS, sources: SetSources = SetSources(),
                ) -> tuple[WrittenSet, MiningResult]:
    """``housestyle mine``: mine all units, or the units of ``split`` (from ``splits_file``), of one
    language pair and build the set with ``build_set``; returns the set and the pair's mined result."""
    all_inputs = dict(inputs)
    if split is not None:
        if splits_file is None:
            raise ValueError("a split needs its splits file")
        units = select_split(units, splits_file, split)
        all_inputs["splits.json"] = sha256_file(splits_file)
    corpus = corpus_from_units(units, src_lang, tgt_lang)
    result = mine_corpus(corpus, params)
    written, _ = build_set({pair_key(corpus.src_lang, corpus.tgt_lang): result}, sources, client=client,
                           rules_out=rules_out, inputs=all_inputs, split=split, params=params)
    return written, result
