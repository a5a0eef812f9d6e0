"""Small validators for rule ``params`` (each error names the convention and the param)."""

from __future__ import annotations

from typing import Any

from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.errors import ConventionError


def fail(conv: Convention, message: str, name: str) -> ConventionError:
    return ConventionError(message, convention=conv.convention_id, field=f"params.{name}")


def check_keys(conv: Convention, allowed: set[str]) -> None:
    unknown = sorted(set(conv.params) - allowed)
    if unknown:
        raise fail(conv, f"unknown params {unknown} for rule {conv.rule!r} (allowed: {sorted(allowed)})", unknown[0])


def str_list(conv: Convention, name: str, default: list[str] | None = None) -> list[str]:
    value: Any = conv.params.get(name, default if default is not None else [])
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise fail(conv, f"params.{name} must be a list of non-empty strings", name)
    return list(value)


def one_of(conv: Convention, name: str, choices: tuple[Any, ...], default: Any) -> Any:
    value = conv.params.get(name, default)
    if value not in choices:
        raise fail(conv, f"params.{name} must be one of {list(choices)}, got {value!r}", name)
    return value
