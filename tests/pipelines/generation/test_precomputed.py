"""The precomputed backend: any segment file, WMT <seg> files with Moses detokenisation, ids matched."""

from __future__ import annotations

from pathlib import Path

import pytest

from housestyle.pipelines.errors import ConfigError
from housestyle.pipelines.generation.precomputed import PrecomputedBackend
from housestyle.pipelines.generation.registry import backend_options, make_backend
from housestyle.pipelines.generation.tasks import translate

FIX = Path(__file__).resolve().parents[2] / "fixtures" / "generation"


@pytest.mark.parametrize("name", ["outputs.tsv", "outputs.tmx"])
def test_tsv_and_tmx_outputs_by_id(name: str) -> None:
    backend = PrecomputedBackend(str(FIX / name))
    run = translate({"u1": "The meeting is on Thursday.", "u2": "Wash your hands.", "u9": "?"}, backend,
                    src_lang="en", tgt_lang="fr")
    assert run.texts() == {"u1": "La réunion est jeudi.", "u2": "Lavez-vous les mains."}
    missing = run.outcomes[2]
    assert missing.status == "failed" and "'u9' is not in" in (missing.error or "")
    assert backend.model.startswith(f"{name}@") and not backend.cacheable


def test_jsonl_null_text_is_missing() -> None:
    backend = PrecomputedBackend(str(FIX / "outputs.jsonl"))
    assert backend.ids() == ["u1"]


def test_wmt_sgml_with_moses_detokenisation() -> None:
    raw = PrecomputedBackend(str(FIX / "fairseq_like.sgm"))
    detok = make_backend("precomputed", {"path": str(FIX / "fairseq_like.sgm"), "detokenize": "moses", "tgt_lang": "fr"})
    assert raw.ids() == ["DOC_1:1", "DOC_1:2", "DOC_2:1"]
    run = translate({"DOC_1:1": "x", "DOC_2:1": "y"}, detok, src_lang="en", tgt_lang="fr")
    assert run.texts() == {"DOC_1:1": "l'éloignement social est important.",
                           "DOC_2:1": "portez un masque facial, s'il vous plaît."}
    assert detok.model != raw.model and detok.model.endswith("+moses")


def test_registry_rejects_unknown_options() -> None:
    assert "base_url" in backend_options("openai") and "model_path" in backend_options("llamacpp")
    with pytest.raises(ConfigError, match="does not take option"):
        make_backend("precomputed", {"path": str(FIX / "outputs.tsv"), "base_url": "http://x"})
    with pytest.raises(ConfigError, match="unknown generator backend"):
        make_backend("nope", {})


def test_target_language_names_the_detokeniser_and_only_lang_filters() -> None:
    assert PrecomputedBackend(str(FIX / "outputs.tmx"), tgt_lang="fr-FR").ids() == ["u1", "u2"]
    assert PrecomputedBackend(str(FIX / "outputs.tmx"), only_lang="de").ids() == []
