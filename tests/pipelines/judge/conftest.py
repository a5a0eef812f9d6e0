"""Fixtures of the judge tests: the toy MQM files and a scripted generator backend.

``ScriptedBackend`` is a stand-in for an external MODEL (not for our code): it implements the
generator Backend protocol and answers from a function of the prompt, so the LLM paths (requests,
cache, parsing, cost) run for real without a model download.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from housestyle.pipelines.generation.base import Completion, Request

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "judge"


@pytest.fixture(scope="session")
def toy_ende() -> Path:
    return FIXTURES / "mqm_judge_ende.tsv"


@pytest.fixture(scope="session")
def toy_zhen() -> Path:
    return FIXTURES / "mqm_judge_zhen.tsv"


@dataclass
class ScriptedBackend:
    """Answers ``reply(prompt_text)``; token counts are word counts, so cost sums are checkable."""

    reply: Callable[[str], str]
    name: str = "scripted"
    model: str = "scripted-v1"
    max_workers: int = 1
    cacheable: bool = True
    prompts: list[str] = field(default_factory=list)

    def settings(self) -> dict[str, Any]:
        return {"temperature": 0.0}

    def complete(self, request: Request) -> Completion:
        self.prompts.append(request.prompt.text)
        text = self.reply(request.prompt.text)
        return Completion(text=text, prompt_tokens=len(request.prompt.text.split()), completion_tokens=len(text.split()))

    def close(self) -> None:
        pass


def yes_unless_short(prompt: str) -> str:
    """A 'model' that says no when the translation under judgement is shorter than 20 characters;
    criteria prompts get one word per question listed in the header (judge_answers v2 format)."""
    translation = prompt.rsplit("Translation (", 1)[-1].split("): ", 1)[1].split("\n", 1)[0]
    word = "no" if len(translation) < 20 else "yes"
    if "Questions:" not in prompt:
        return f" {word}"
    header = prompt.split("Questions:\n", 1)[1].split("\n\n", 1)[0]
    n = sum(1 for line in header.splitlines() if line[:1].isdigit())
    return " " + " ".join([word] * n)
