"""The generation tasks other packages call: translate sources (model contrast) with one template."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from housestyle.pipelines.generation.base import Backend, Request
from housestyle.pipelines.generation.cache import GenerationCache
from housestyle.pipelines.generation.prompts import PromptTemplate, load_template
from housestyle.pipelines.generation.runner import RunSummary, run_generation


def translation_requests(sources: Mapping[str, str], template: PromptTemplate, *, src_lang: str, tgt_lang: str,
                         max_tokens: int | None = None) -> list[Request]:
    """One request per segment; the input hash covers source and languages (not the id)."""
    return [template.request(seg_id, {"source": text, "src_lang": src_lang, "tgt_lang": tgt_lang},
                             max_tokens=max_tokens) for seg_id, text in sources.items()]


def translate(sources: Mapping[str, str], backend: Backend, *, src_lang: str, tgt_lang: str,
              cache: GenerationCache | None = None, template: str = "translate", max_tokens: int | None = None,
              flush_every: int = 8, progress: Callable[[int, int], None] | None = None) -> RunSummary:
    """Translate ``sources`` (id -> text); outputs are stripped of surrounding whitespace."""
    tpl = load_template(template)
    summary = run_generation(translation_requests(sources, tpl, src_lang=src_lang, tgt_lang=tgt_lang,
                                                  max_tokens=max_tokens),
                             backend, cache=cache, flush_every=flush_every, progress=progress)
    for outcome in summary.outcomes:
        if outcome.text is not None:
            outcome.text = outcome.text.strip()
    return summary
