"""Shared validation for the static rules (term, forbidden, pattern)."""

from __future__ import annotations

from pipelines.conventions.model import Convention
from pipelines.errors import ConventionError


def require_no_params(conv: Convention) -> None:
    """Static rules take no parameters: a stray key is almost always a misplaced field."""
    if conv.params:
        raise ConventionError(
            f"rule {conv.rule!r} takes no params, got {sorted(conv.params)}",
            convention=conv.convention_id, field="params",
        )


def require_nonempty(conv: Convention, field_name: str) -> None:
    """A static convention must check something, or every item would pass vacuously."""
    if not getattr(conv, field_name):
        raise ConventionError(
            f"rule {conv.rule!r} needs at least one entry in {field_name}",
            convention=conv.convention_id, field=field_name,
        )
