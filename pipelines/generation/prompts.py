"""Prompt templates are versioned data files (templates/*.json), never strings scattered in code.

A template file has ``name``, ``version`` (an integer bumped on ANY change: it is part of the cache
key, so a changed prompt regenerates instead of silently reusing old outputs), and two renderings:
``completion`` (few-shot text for base models such as Gemma 270M) and ``chat`` (system/user
messages for instruction-tuned endpoints). Placeholders are ``$name`` (``string.Template``), so
braces in a source text or a template are literal. A rendering may carry three parts — ``rules``
(role and principles), ``input`` (task and source) and ``ground_truth`` (used only when the request
has one) — as the multi-reference method prescribes. Few-shot ``examples`` are per language pair
(``en-fr``), with ``*`` as the fallback; the ``sha256`` of the file is recorded too.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from string import Template
from typing import Any

from housestyle.pipelines.errors import ConfigError, InputError
from housestyle.pipelines.generation.base import Prompt, Request, input_hash_of

TEMPLATES_DIR = Path(__file__).resolve().parent / "templates"

# The registry: template name -> file (explicit, no discovery).
TEMPLATES: dict[str, str] = {
    "translate": "translate.json",
    "references": "references.json",
}

LANGUAGE_NAMES: dict[str, str] = {
    "en": "English", "fr": "French", "de": "German", "es": "Spanish", "pt": "Portuguese", "ru": "Russian",
    "zh": "Chinese", "ja": "Japanese", "ko": "Korean", "it": "Italian", "nl": "Dutch",
}


def language_name(tag: str) -> str:
    return LANGUAGE_NAMES.get(tag.split("-")[0].split("_")[0].lower(), tag)


@dataclass(frozen=True)
class PromptTemplate:
    """One parsed template file."""

    name: str
    version: int
    task: str
    data: Mapping[str, Any]
    sha256: str
    path: Path

    @property
    def stop(self) -> tuple[str, ...]:
        return tuple(self.data.get("stop", ()))

    @property
    def max_tokens(self) -> int:
        return int(self.data.get("max_tokens", 256))

    def examples(self, src_lang: str, tgt_lang: str) -> list[Mapping[str, Any]]:
        table = self.data.get("examples", {})
        for key in (f"{src_lang}-{tgt_lang}", f"{src_lang.split('-')[0]}-{tgt_lang.split('-')[0]}", "*"):
            if key in table:
                return list(table[key])
        return []

    def render(self, variables: Mapping[str, Any], *, max_tokens: int | None = None) -> Prompt:
        """Both renderings for these variables (``source``, ``src_lang``, ``tgt_lang``, optional
        ``ground_truth``, ``n``...)."""
        values = _values(variables)
        examples = self.examples(str(variables.get("src_lang", "")), str(variables.get("tgt_lang", "")))
        text = _render_completion(self.data["completion"], values, examples)
        messages = _render_chat(self.data["chat"], values, examples)
        return Prompt(self.name, self.version, text, messages, self.stop,
                      max_tokens if max_tokens is not None else self.max_tokens)

    def request(self, segment_id: str, variables: Mapping[str, Any], *, max_tokens: int | None = None) -> Request:
        return Request(segment_id, self.render(variables, max_tokens=max_tokens), dict(variables),
                       input_hash_of(variables))

    @property
    def signature(self) -> str:
        return f"template:{self.name}@{self.version}|sha:{self.sha256[:12]}"


def _values(variables: Mapping[str, Any]) -> dict[str, str]:
    values = {k: "" if v is None else str(v) for k, v in variables.items()}
    values["src_name"] = language_name(values.get("src_lang", ""))
    values["tgt_name"] = language_name(values.get("tgt_lang", ""))
    return values


def _sub(text: str, values: Mapping[str, str]) -> str:
    return Template(text).safe_substitute(values)


def _example_values(example: Mapping[str, Any], values: Mapping[str, str]) -> dict[str, str]:
    """An example's own fields over the request's (so ``$source`` in an example is the example's)."""
    merged = dict(values)
    for key, value in example.items():
        if isinstance(value, list):  # numbered alternatives of an example: "1. a\n2. b"
            merged[key] = "\n".join(f"{i}. {v}" for i, v in enumerate(value, start=1))
            merged[f"{key}_count"] = str(len(value))
        else:
            merged[key] = str(value)
    return merged


def _parts(spec: Mapping[str, Any], values: Mapping[str, str]) -> list[str]:
    """rules, input and (only when the request has one) ground_truth, in that order."""
    out = [_sub(spec["rules"], values)] if spec.get("rules") else []
    if spec.get("input"):
        out.append(_sub(spec["input"], values))
    if spec.get("ground_truth") and values.get("ground_truth"):
        out.append(_sub(spec["ground_truth"], values))
    return out


def _render_completion(spec: Mapping[str, Any], values: Mapping[str, str], examples: list[Mapping[str, Any]]) -> str:
    with_truth = bool(values.get("ground_truth"))
    example_key = "example_with_ground_truth" if with_truth and "example_with_ground_truth" in spec else "example"
    shots = "".join(_sub(spec[example_key], _example_values(ex, values)) for ex in examples) if example_key in spec else ""
    head = _sub(spec.get("header", ""), values)
    query_key = "query_with_ground_truth" if with_truth and "query_with_ground_truth" in spec else "query"
    return head + shots + _sub(spec[query_key], values)


def _render_chat(spec: Mapping[str, Any], values: Mapping[str, str],
                 examples: list[Mapping[str, Any]]) -> tuple[Mapping[str, str], ...]:
    messages: list[Mapping[str, str]] = []
    if spec.get("system"):
        messages.append({"role": "system", "content": _sub(spec["system"], values)})
    for ex in examples if spec.get("use_examples") else []:
        ex_values = _example_values(ex, values)
        messages.append({"role": "user", "content": "\n\n".join(_parts(spec["user"], ex_values))})
        messages.append({"role": "assistant", "content": _sub(spec["assistant_example"], ex_values)})
    messages.append({"role": "user", "content": "\n\n".join(_parts(spec["user"], values))})
    return tuple(messages)


_REQUIRED = ("name", "version", "task", "completion", "chat")


def load_template_file(path: Path) -> PromptTemplate:
    """Parse and check one template file (every problem names the file)."""
    path = Path(path)
    try:
        raw = path.read_bytes()
        data = json.loads(raw.decode("utf-8"))
    except FileNotFoundError:
        raise InputError("prompt template not found", path=str(path)) from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(f"invalid JSON: {exc}", path=str(path)) from None
    if not isinstance(data, dict):
        raise InputError("a template is a JSON object", path=str(path))
    missing = [k for k in _REQUIRED if k not in data]
    if missing:
        raise InputError(f"template lacks field(s) {missing}", path=str(path))
    if not isinstance(data["version"], int) or data["version"] < 1:
        raise InputError("version must be a positive integer", path=str(path), location="version")
    if "query" not in data["completion"]:
        raise InputError("completion rendering needs a 'query'", path=str(path), location="completion")
    if "user" not in data["chat"]:
        raise InputError("chat rendering needs 'user' parts", path=str(path), location="chat")
    return PromptTemplate(str(data["name"]), int(data["version"]), str(data["task"]), data,
                          hashlib.sha256(raw).hexdigest(), path)


def load_template(name_or_path: str | Path) -> PromptTemplate:
    """A registered template by name (``translate``, ``references``), or any template file by path."""
    if isinstance(name_or_path, str) and name_or_path in TEMPLATES:
        return load_template_file(TEMPLATES_DIR / TEMPLATES[name_or_path])
    path = Path(name_or_path)
    if path.suffix == ".json" and path.exists():
        return load_template_file(path)
    raise ConfigError(f"unknown prompt template {str(name_or_path)!r}: one of {sorted(TEMPLATES)} or a .json path")
