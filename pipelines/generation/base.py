"""The one interface every generator backend implements, and the records that flow through it.

A backend turns one rendered prompt into one completion, or raises ``SegmentFailure`` for that
segment only: the runner records the failure and carries on, so one bad segment (or a server that
went away) never loses the outputs already produced. Concurrency, caching and resumption live in
the runner, not in backends, so every backend gets them for free.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from housestyle.pipelines.conventions.model import canonical_json
from housestyle.pipelines.errors import GenerationError

API_MODES = ("completion", "chat")


@dataclass(frozen=True, slots=True)
class Prompt:
    """A rendered prompt in both shapes (plain completion text, chat messages); the backend's
    ``api`` picks one. ``template``/``version`` identify the template file it came from."""

    template: str
    version: int
    text: str
    messages: tuple[Mapping[str, str], ...]
    stop: tuple[str, ...] = ()
    max_tokens: int = 256


@dataclass(frozen=True, slots=True)
class Request:
    """One segment to generate for. ``input_hash`` (of the template variables: source, languages,
    ground truth, n) is the cache key's source part, so two ids with the same source share one call."""

    segment_id: str
    prompt: Prompt
    variables: Mapping[str, Any]
    input_hash: str


def input_hash_of(variables: Mapping[str, Any]) -> str:
    """sha256 of the canonical JSON of the template variables (first 32 hex digits)."""
    return hashlib.sha256(canonical_json(dict(variables)).encode("utf-8")).hexdigest()[:32]


@dataclass(frozen=True, slots=True)
class Completion:
    """What a backend produced for one request."""

    text: str
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    finish_reason: str | None = None
    attempts: int = 1


class SegmentFailure(GenerationError):
    """This segment could not be generated (timeout, HTTP error, missing id): recorded, not raised.

    ``unreachable`` marks failures that say the backend itself is gone (connection refused), which
    lets the runner stop calling a dead server instead of waiting out every retry for every segment.
    """

    def __init__(self, message: str, *, attempts: int = 1, unreachable: bool = False) -> None:
        super().__init__(message)
        self.reason = message
        self.attempts = attempts
        self.unreachable = unreachable


@runtime_checkable
class Backend(Protocol):
    """A generator. ``model`` names what produced the text (part of the cache key); ``settings``
    are the decoding parameters that change outputs (also part of the key); ``max_workers`` is how
    many requests may run at once; ``cacheable`` is False for backends that merely read a file."""

    name: str
    model: str
    max_workers: int
    cacheable: bool

    def settings(self) -> dict[str, Any]: ...

    def complete(self, request: Request) -> Completion: ...

    def close(self) -> None: ...


def settings_hash(settings: Mapping[str, Any]) -> str:
    return hashlib.sha256(canonical_json(dict(settings)).encode("utf-8")).hexdigest()[:16]


@dataclass(frozen=True, slots=True)
class CacheKey:
    """(backend, model, template@version, decoding settings) — everything but the input."""

    backend: str
    model: str
    template: str
    template_version: int
    settings: str

    @classmethod
    def of(cls, backend: Backend, prompt: Prompt) -> CacheKey:
        """The prompt's own decoding limits (max_tokens, stop) change outputs too, so they are in the key."""
        settings = {**backend.settings(), "prompt_max_tokens": prompt.max_tokens, "stop": list(prompt.stop)}
        return cls(backend.name, backend.model, prompt.template, prompt.version, settings_hash(settings))


@dataclass(slots=True)
class Outcome:
    """One segment's result in a run: ``status`` is ``generated``, ``cached`` or ``failed``."""

    segment_id: str
    input_hash: str
    status: str
    text: str | None = None
    error: str | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    seconds: float | None = None
    attempts: int = 0
    finish_reason: str | None = None  # "length" = cut at max_tokens (a list's last item may be truncated)
    extra: dict[str, Any] = field(default_factory=dict)
