"""The in-process llama.cpp backend over the default Gemma 3 270M GGUF (skips without the llm extra)."""

from __future__ import annotations

from pathlib import Path

import pytest

from housestyle.pipelines.errors import ConfigError
from housestyle.pipelines.generation.cache import GenerationCache
from housestyle.pipelines.generation.llamacpp import LlamaCppBackend
from housestyle.pipelines.generation.registry import make_backend
from housestyle.pipelines.generation.tasks import translate

pytestmark = pytest.mark.llm


def test_default_model_translates_and_caches(gemma_model: Path, tmp_path: Path) -> None:
    backend = make_backend("llamacpp", {})
    assert isinstance(backend, LlamaCppBackend) and backend.model_path == str(gemma_model)
    assert backend.model.startswith("gemma-3-270m-q4_k_m.gguf@")
    cache = GenerationCache(tmp_path)
    sources = {"a": "Good morning.", "b": "Where is the station?"}
    try:
        run = translate(sources, backend, src_lang="en", tgt_lang="fr", cache=cache, max_tokens=16)
        again = translate(sources, backend, src_lang="en", tgt_lang="fr", cache=cache, max_tokens=16)
    finally:
        backend.close()
    assert run.counts["generated"] == 2 and all(run.texts().values())
    assert run.completion_tokens > 0 and (run.tokens_per_second or 0) > 0
    assert again.calls == 0 and again.texts() == run.texts()


def test_missing_model_file_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="GGUF model file not found"):
        LlamaCppBackend(model_path=str(tmp_path / "none.gguf"))
