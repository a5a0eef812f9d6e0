"""The explicit rule registry (no discovery) and the cached compile of a convention."""

from __future__ import annotations

from collections.abc import Iterable

from housestyle.pipelines.conventions.compiled import Compiled, compile_generic
from housestyle.pipelines.conventions.model import Convention
from housestyle.pipelines.rules import casing, forbidden, numeric, pattern, placeholder, source_copy, term
from housestyle.pipelines.rules.base import RuleSpec

RULES: dict[str, RuleSpec] = {
    "term": term.SPEC,
    "forbidden": forbidden.SPEC,
    "pattern": pattern.SPEC,
    "source_copy": source_copy.SPEC,
    "casing": casing.SPEC,
    "numeric": numeric.SPEC,
    "placeholder": placeholder.SPEC,
}

_CACHE: dict[tuple[str, int], Compiled] = {}
_CACHE_MAX = 20000


def is_vacuous(conv: Convention) -> bool:
    """A convention that checks nothing (SPEC.md §2): a static rule (term, forbidden, pattern) with
    neither expected strings nor wrong variants. Rules that derive what they require from the source
    (numeric, placeholder, source_copy, casing) always check something."""
    return RULES[conv.rule].static and not conv.expected_terms and not conv.wrong_variants


def compile_convention(conv: Convention) -> Compiled:
    """Compile (cached by convention_id: the id hashes every semantic field, so equal ids mean
    identical matchers; the object id guards against a convention mutated after its id was set)."""
    key = (conv.convention_id, id(conv))
    cached = _CACHE.get(key)
    if cached is not None and cached.conv is conv:
        return cached
    compiled = compile_generic(conv)
    compiled.prepared = RULES[conv.rule].prepare(conv)
    if len(_CACHE) >= _CACHE_MAX:
        _CACHE.clear()
    _CACHE[key] = compiled
    return compiled


def release_compiled(conventions: Iterable[Convention]) -> None:
    """Forget the compiled forms of ``conventions``, for rules that will not be scored again (a
    held-out fold's): the cache holds each convention, its matchers and regexes (~14,000 of a fold's
    at 1M units, held through the next fold's mining), until it fills and is cleared."""
    for conv in conventions:
        _CACHE.pop((conv.convention_id, id(conv)), None)
