"""`housestyle generate` and `housestyle references` through a stub OpenAI-compatible endpoint."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from housestyle.pipelines.cli.main import main
from housestyle.pipelines.references.generate import read_references
from tests.pipelines.generation.stub_server import stub_server

FIX = Path(__file__).resolve().parents[3] / "fixtures" / "generation"


def test_generate_writes_jsonl_and_uses_the_cache(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOUSESTYLE_GENERATOR_API_KEY", "sk-env")
    out = tmp_path / "out.jsonl"
    with stub_server() as (url, state):
        args = ["generate", "--backend", "openai", "-o", f"base_url={url}", "-o", "model=m", "--source",
                str(FIX / "sources.jsonl"), "--src", "en", "--tgt", "fr", "--cache", str(tmp_path / "c"), "--out", str(out)]
        assert main(args) == 0
        assert main(args) == 0
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(rows) == 8 and rows[0] == {"id": "s1", "text": "echo:Wash your hands often.", "error": None}
    assert len(state.calls) == 7 and state.calls[0]["auth"] == "Bearer sk-env"  # second run: all cached
    assert "0 generated, 8 cached" in capsys.readouterr().err


def test_references_and_bad_options(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "refs.jsonl"
    with stub_server() as (url, state):
        state.script = [("reply", "1. Wash often.\n2. Wash your hands a lot.\n3. Wash often.", "stop")]
        assert main(["references", "--backend", "openai", "-o", f"base_url={url}", "-o", "model=m", "-o", "max_workers=1", "--source",
                     str(FIX / "outputs.tmx"), "--ground-truth", str(FIX / "outputs.tmx"), "--src", "en", "--tgt", "fr",
                     "--n", "5", "--cache", str(tmp_path / "c"), "--out", str(out)]) == 0
    header, records = read_references(out)
    assert header["n"] == 5 and records[0].ground_truth == "La réunion est jeudi."
    assert records[0].candidates == ["Wash often.", "Wash your hands a lot."]
    assert main(["generate", "--backend", "precomputed", "-o", "nope=1", "--source", str(FIX / "sources.jsonl"),
                 "--src", "en", "--tgt", "fr", "--out", str(out)]) == 2
    assert "does not take option(s) ['nope']" in capsys.readouterr().err
