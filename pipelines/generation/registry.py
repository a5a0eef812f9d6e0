"""The backend registry: name -> class (explicit; adding a backend is one module and one line here)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from housestyle.pipelines.errors import ConfigError
from housestyle.pipelines.generation.base import Backend
from housestyle.pipelines.generation.llamacpp import LlamaCppBackend
from housestyle.pipelines.generation.openai_compat import OpenAICompatBackend
from housestyle.pipelines.generation.precomputed import PrecomputedBackend

BACKENDS: dict[str, type] = {
    "openai": OpenAICompatBackend,
    "llamacpp": LlamaCppBackend,
    "precomputed": PrecomputedBackend,
}


def backend_options(name: str) -> list[str]:
    """The options a backend takes (its constructor fields)."""
    if name not in BACKENDS:
        raise ConfigError(f"unknown generator backend {name!r}: one of {sorted(BACKENDS)}")
    return [f.name for f in dataclasses.fields(BACKENDS[name]) if f.init and f.name != "name"]


def make_backend(name: str, options: Mapping[str, Any] | None = None) -> Backend:
    """Build a backend; options set to None are left at their defaults, unknown ones are an error."""
    allowed = backend_options(name)
    given = {k: v for k, v in (options or {}).items() if v is not None}
    unknown = sorted(set(given) - set(allowed))
    if unknown:
        raise ConfigError(f"backend {name!r} does not take option(s) {unknown}; it takes {allowed}")
    required = [f.name for f in dataclasses.fields(BACKENDS[name])
                if f.init and f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING]
    absent = [k for k in required if k not in given]
    if absent:
        raise ConfigError(f"backend {name!r} needs option(s) {absent}")
    backend: Backend = BACKENDS[name](**given)
    return backend
