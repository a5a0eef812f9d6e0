"""Generate the LLM criteria (concepts → yes/no questions) from a task description: one call per concept.

Input: a seed set (criteria/llm_seed.json): the task description and the concepts, each with an
authored fallback question. The generator (template judge_criteria, versioned) writes up to
``max_questions`` questions per concept; parsing keeps numbered lines that end with ``?``
(deduplicated, 3–200 characters) and records everything it dropped. A concept for which nothing
usable came back keeps its authored question, marked ``origin: fallback``: a weak model must not
leave a concept empty, and the record says so. The generated set is saved with a new version
(seed version + 1 when the questions changed) and its provenance (backend, model, template, raw text).
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from housestyle.pipelines.generation.base import Backend
from housestyle.pipelines.generation.cache import GenerationCache
from housestyle.pipelines.generation.runner import run_generation
from housestyle.pipelines.judge.criteria import Concept, CriteriaSet, Question
from housestyle.pipelines.judge.llm import backend_signature, judge_template

_ITEM = re.compile(r"^\s*(?:\d+\s*[.)]|[-*•])\s*(.+?)\s*$")


def parse_questions(text: str, max_questions: int) -> tuple[list[str], list[str]]:
    """(kept questions, dropped lines) from a completion that continues after ``1.``."""
    kept: list[str] = []
    dropped: list[str] = []
    for i, line in enumerate(("1." + text).splitlines()):
        if not line.strip():
            continue
        match = _ITEM.match(line)
        question = match.group(1) if match else (line.strip() if i == 0 else "")
        if not question.endswith("?") or not 3 <= len(question) <= 200:
            dropped.append(line.strip())
            continue
        if question.casefold() in {k.casefold() for k in kept} or len(kept) >= max_questions:
            dropped.append(line.strip())
            continue
        kept.append(question)
    return kept, dropped


def generate_criteria(seed: CriteriaSet, backend: Backend, *, max_questions: int = 3,
                      cache: GenerationCache | None = None) -> CriteriaSet:
    """The seed's LLM concepts with generated questions (deterministic concepts are copied)."""
    template = judge_template("judge_criteria")
    llm_concepts = seed.of_kind("llm")
    requests = [template.request(c.id, {"task": seed.task, "concept": c.id, "description": c.description,
                                        "n": max_questions}) for c in llm_concepts]
    summary = run_generation(requests, backend, cache=cache)
    records: list[dict[str, Any]] = []
    generated: dict[str, Concept] = {}
    for concept, outcome in zip(llm_concepts, summary.outcomes):
        kept, dropped = parse_questions(outcome.text or "", max_questions)
        if kept:
            questions = tuple(Question(f"q{i}", q, origin="generated") for i, q in enumerate(kept, start=1))
        else:
            questions = tuple(replace(q, origin="fallback") for q in concept.questions)
        generated[concept.id] = replace(concept, questions=questions)
        records.append({"concept": concept.id, "status": outcome.status, "raw": outcome.text, "error": outcome.error,
                        "kept": kept, "dropped": dropped, "prompt_tokens": outcome.prompt_tokens,
                        "completion_tokens": outcome.completion_tokens})
    concepts = tuple(generated.get(c.id, c) for c in seed.concepts)
    changed = concepts != seed.concepts
    provenance = {"origin": "generated", "seed": seed.signature, "generator": backend_signature(backend),
                  "template": template.signature, "calls": summary.calls, "wall_seconds": round(summary.wall_seconds, 2),
                  "per_concept": records}
    return CriteriaSet(seed.name.replace("_seed", "") or seed.name, seed.version + (1 if changed else 0), seed.task,
                       concepts, provenance)


def main(argv: list[str] | None = None) -> int:
    """``python -m housestyle.pipelines.judge.criteria_gen --out pipelines/judge/criteria/llm.json [--backend B -o K=V]``."""
    import argparse
    import sys
    from pathlib import Path

    from housestyle.pipelines.generation.registry import make_backend
    from housestyle.pipelines.judge.criteria import load_criteria, save_criteria, to_json

    parser = argparse.ArgumentParser(prog="python -m housestyle.pipelines.judge.criteria_gen", description=__doc__.splitlines()[0])
    parser.add_argument("--seed-set", default="llm_seed", help="seed criteria (name under criteria/ or a path)")
    parser.add_argument("--backend", default="llamacpp")
    parser.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--max-questions", type=int, default=3)
    parser.add_argument("--cache", type=Path)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    options = dict(o.split("=", 1) for o in args.option)
    backend = make_backend(args.backend, options)
    try:
        generated = generate_criteria(load_criteria(args.seed_set), backend, max_questions=args.max_questions,
                                      cache=GenerationCache(args.cache) if args.cache else None)
    finally:
        backend.close()
    save_criteria(generated, args.out)
    print(to_json(generated), file=sys.stderr)
    print(f"wrote {args.out} ({generated.signature})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
