"""Shared validation for the static rules (forbidden, pattern; term has its own params). Empty
expected_terms and wrong_variants are valid (SPEC.md §2: vacuously true; a rule with both empty is ``vacuous``)."""

from __future__ import annotations

from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.errors import ConventionError


def require_no_params(conv: Convention) -> None:
    """Static rules take no parameters: a stray key is almost always a misplaced field."""
    if conv.params:
        raise ConventionError(
            f"rule {conv.rule!r} takes no params, got {sorted(conv.params)}",
            convention=conv.convention_id, field="params",
        )
