"""LLM criteria answers through the generator (housestyle.pipelines.generation): prompts, yes/no parsing, cost.

Every call goes through ``run_generation`` (backend interface, Parquet cache, per-segment failures),
with the versioned templates in pipelines/judge/templates/. Decoding is the backend's (temperature 0
by default for llama.cpp). Three kinds of call per sample:
- ``per_concept``: one call per LLM concept, its questions numbered 1..k;
- ``joint``: one call with every question of every LLM concept, numbered 1..K;
- ``accept``: the zero-shot "is this translation acceptable?" baseline (LLM as aggregator).
Answers: yes → 1.0, no → 0.0, anything else → null (counted as unparsed, never guessed). Cost per
sample: calls, prompt tokens, completion tokens (a cached answer keeps the tokens it cost when made).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from housestyle.pipelines.generation.base import Backend, Request
from housestyle.pipelines.generation.cache import GenerationCache
from housestyle.pipelines.generation.prompts import PromptTemplate, language_name, load_template
from housestyle.pipelines.generation.runner import RunSummary, run_generation
from housestyle.pipelines.judge.criteria import Concept, CriteriaSet

TEMPLATES_DIR = Path(__file__).resolve().parent / "templates"
MODES = ("joint", "per_concept")

_NUMBERED = re.compile(r"(\d+)\s*[.):\-]\s*\**\s*(yes|no|true|false|y|n)\b", re.IGNORECASE)
_WORD = re.compile(r"\b(yes|no)\b", re.IGNORECASE)
_TRUE = {"yes", "true", "y"}

ANSWERS_SCHEMA: dict[str, pl.DataType] = {
    "system": pl.Utf8(), "seg_id": pl.Int64(), "mode": pl.Utf8(), "concept": pl.Utf8(), "question": pl.Utf8(),
    "answer": pl.Float64(), "raw": pl.Utf8(),
}
COST_SCHEMA: dict[str, pl.DataType] = {
    "system": pl.Utf8(), "seg_id": pl.Int64(), "mode": pl.Utf8(), "calls": pl.Int64(), "failed_calls": pl.Int64(),
    "cached_calls": pl.Int64(), "prompt_tokens": pl.Int64(), "completion_tokens": pl.Int64(),
    "unparsed": pl.Int64(), "answers": pl.Int64(),
}


def judge_template(name: str) -> PromptTemplate:
    """judge_criteria / judge_answers / judge_accept from pipelines/judge/templates/."""
    return load_template(TEMPLATES_DIR / f"{name}.json")


def parse_yes_no(text: str, n: int) -> list[float | None]:
    """n answers from a completion that continues after ``1.``: numbered ``k. yes`` items first;
    when no item is numbered, the yes/no words in order. Missing or contradictory → None."""
    body = "1." + text if not text.lstrip().startswith("1") else text
    found: dict[int, set[float]] = {}
    for number, word in _NUMBERED.findall(body):
        found.setdefault(int(number), set()).add(1.0 if word.lower() in _TRUE else 0.0)
    words = [1.0 if w.lower() in _TRUE else 0.0 for w in _WORD.findall(text)]
    if len(found) < n and len(words) == n and n > 1:  # "yes no yes" on one line: exactly n words, in order
        return list(words)
    if found:
        return [next(iter(found[k])) if len(found.get(k, ())) == 1 else None for k in range(1, n + 1)]
    return [words[0] if words else None] if n == 1 else [None] * n


def parse_words(text: str, n: int) -> list[float | None]:
    """n answers from a plain ``yes no yes`` line (the judge_answers v2 format), in question order:
    numbered items when the model numbered them (``parse_yes_no``), else the first n yes/no words;
    words beyond n are ignored (a base model tends to run on), missing ones are None."""
    if _NUMBERED.search(text):
        return parse_yes_no(text, n)
    words = [1.0 if w.lower() in _TRUE else 0.0 for w in _WORD.findall(text)]
    return [words[k] if k < len(words) else None for k in range(n)]


def parse_answers(template: PromptTemplate, text: str, n: int) -> list[float | None]:
    """Parse with the format the template version asks for (``answer_format``: numbered | words)."""
    if template.data.get("answer_format") == "words":
        return parse_words(text, n)
    return parse_yes_no(text, n)


def numbered(items: Sequence[str]) -> str:
    return "\n".join(f"{i}. {q}" for i, q in enumerate(items, start=1))


def render_shots(template: PromptTemplate, questions: Sequence[str], src_lang: str, tgt_lang: str) -> str:
    """The few-shot block of judge_answers for these questions (shots of this language pair, else all)."""
    shots = list(template.data.get("shots", []))
    own = [s for s in shots if s["src_lang"] == src_lang.split("-")[0] and s["tgt_lang"] == tgt_lang.split("-")[0]]
    blocks = []
    words = template.data.get("answer_format") == "words"
    for shot in own or shots:
        answers = ["yes" if shot["good"] else "no"] * len(questions)
        head = (f"Source ({language_name(shot['src_lang'])}): {shot['source']}\n"
                f"Translation ({language_name(shot['tgt_lang'])}): {shot['translation']}\n")
        if words:  # v2: questions are in the header once; answers on one line
            blocks.append(f"{head}Answers: {' '.join(answers)}\n\n")
        else:
            blocks.append(f"{head}Questions:\n{numbered(questions)}\nAnswers:\n{numbered(answers)}\n\n")
    return "".join(blocks)


@dataclass(frozen=True)
class Call:
    """One planned call: which sample, which mode, which (concept, question) pairs it answers."""

    key: tuple[str, int]
    mode: str
    items: tuple[tuple[str, str], ...]
    request: Request


def plan_calls(samples: pl.DataFrame, criteria: CriteriaSet, mode: str, src_lang: str, tgt_lang: str) -> list[Call]:
    """The requests of ``mode`` for every sample (columns system, seg_id, source, target)."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, not {mode!r}")
    template = judge_template("judge_answers")
    per_answer = int(template.data.get("tokens_per_answer", 5))
    concepts = criteria.of_kind("llm")
    groups: list[list[Concept]] = [concepts] if mode == "joint" else [[c] for c in concepts]
    calls = []
    # Concept-major order: consecutive calls share the prompt prefix (instructions + few-shot block),
    # which llama.cpp keeps in its KV cache, so only the sample part is processed again.
    for group in groups:
        for system, seg_id, source, target in samples.select("system", "seg_id", "source", "target").iter_rows():
            items = tuple((c.id, q.id) for c in group for q in c.questions)
            texts = [q.text for c in group for q in c.questions]
            variables = {"source": source, "translation": target, "src_lang": src_lang, "tgt_lang": tgt_lang,
                         "questions": numbered(texts), "shots": render_shots(template, texts, src_lang, tgt_lang)}
            name = "joint" if mode == "joint" else group[0].id
            request = template.request(f"{system}|{seg_id}|{name}", variables,
                                       max_tokens=per_answer * len(texts) + 2)
            calls.append(Call((system, seg_id), mode, items, request))
    return calls


def _run(requests: list[Request], backend: Backend, cache: GenerationCache | None,
         progress: Callable[[int, int], None] | None) -> RunSummary:
    return run_generation(requests, backend, cache=cache, progress=progress)


def ask_criteria(samples: pl.DataFrame, criteria: CriteriaSet, backend: Backend, *, mode: str, src_lang: str,
                 tgt_lang: str, cache: GenerationCache | None = None,
                 progress: Callable[[int, int], None] | None = None) -> tuple[pl.DataFrame, pl.DataFrame, RunSummary]:
    """(answers: one row per sample × question, cost: one row per sample, the run summary)."""
    calls = plan_calls(samples, criteria, mode, src_lang, tgt_lang)
    template = judge_template("judge_answers")
    summary = _run([c.request for c in calls], backend, cache, progress)
    answers: dict[str, list[Any]] = {k: [] for k in ANSWERS_SCHEMA}
    cost: dict[tuple[str, int], dict[str, int]] = {}
    for call, outcome in zip(calls, summary.outcomes):
        parsed = (parse_answers(template, outcome.text, len(call.items)) if outcome.text is not None
                  else [None] * len(call.items))
        row = cost.setdefault(call.key, dict.fromkeys(("calls", "failed_calls", "cached_calls", "prompt_tokens",
                                                        "completion_tokens", "unparsed", "answers"), 0))
        row["calls"] += 1
        row["failed_calls"] += outcome.status == "failed"
        row["cached_calls"] += outcome.status == "cached"
        row["prompt_tokens"] += outcome.prompt_tokens or 0
        row["completion_tokens"] += outcome.completion_tokens or 0
        row["unparsed"] += sum(a is None for a in parsed)
        row["answers"] += len(parsed)
        for (concept, question), value in zip(call.items, parsed):
            for name, v in zip(ANSWERS_SCHEMA, (call.key[0], call.key[1], mode, concept, question, value,
                                                outcome.text if outcome.text is not None else f"FAILED: {outcome.error}")):
                answers[name].append(v)
    cost_frame = pl.DataFrame([{"system": k[0], "seg_id": k[1], "mode": mode, **v} for k, v in cost.items()],
                              schema=COST_SCHEMA)
    return pl.DataFrame(answers, schema=ANSWERS_SCHEMA), cost_frame, summary


def ask_acceptable(samples: pl.DataFrame, backend: Backend, *, src_lang: str, tgt_lang: str,
                   cache: GenerationCache | None = None,
                   progress: Callable[[int, int], None] | None = None) -> tuple[pl.DataFrame, RunSummary]:
    """Zero-shot acceptability: system, seg_id, acceptable (1/0/null), raw, prompt/completion tokens."""
    template = judge_template("judge_accept")
    keys = list(samples.select("system", "seg_id").iter_rows())
    requests = [template.request(f"{s}|{k}|accept", {"source": src, "translation": tgt, "src_lang": src_lang,
                                                     "tgt_lang": tgt_lang})
                for (s, k), src, tgt in zip(keys, samples["source"].to_list(), samples["target"].to_list())]
    summary = _run(requests, backend, cache, progress)
    rows = [{"system": s, "seg_id": k, "acceptable": parse_yes_no(o.text, 1)[0] if o.text is not None else None,
             "raw": o.text if o.text is not None else f"FAILED: {o.error}", "prompt_tokens": o.prompt_tokens or 0,
             "completion_tokens": o.completion_tokens or 0, "status": o.status}
            for (s, k), o in zip(keys, summary.outcomes)]
    schema = {"system": pl.Utf8(), "seg_id": pl.Int64(), "acceptable": pl.Float64(), "raw": pl.Utf8(),
              "prompt_tokens": pl.Int64(), "completion_tokens": pl.Int64(), "status": pl.Utf8()}
    return pl.DataFrame(rows, schema=schema), summary


def backend_signature(backend: Backend, extra: Mapping[str, Any] | None = None) -> str:
    settings = ",".join(f"{k}={v}" for k, v in sorted({**backend.settings(), **(extra or {})}.items()))
    return f"generator:{backend.name}|model:{backend.model}|{settings}"
