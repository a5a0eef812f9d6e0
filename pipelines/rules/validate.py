"""Refuse bad conventions at load time, naming the file, the line (or row) and the field.

A convention that cannot mean what it says (unknown rule or mode, a regex that does not compile,
is catastrophically slow or matches the empty string, an ``nfkc`` convention whose strings NFKC
would destroy, an expected string that equals a wrong variant after folding) must fail loudly
before it scores anything. A convention that checks NOTHING (a term, forbidden or pattern rule
whose expected_terms and wrong_variants are both empty) is valid (SPEC.md §2): it loads with a
warning naming its file and line, passes every item it applies to and is reported as ``vacuous``,
so a reader sees why its 100 means nothing.
"""

from __future__ import annotations

import logging
import re
from re import _constants as C  # type: ignore[attr-defined]
from typing import Iterable, Sequence

from housestyle.pipelines.conventions.pattern_tree import parse_tree
from housestyle.pipelines.conventions.folding import fold_text, nfkc_changes
from housestyle.pipelines.conventions.model import MATCH_MODES, ORIGINS, RULE_TYPES, STATUSES, Convention
from housestyle.pipelines.conventions.regex_guard import compile_problem, min_width, slow_patterns, static_problem
from housestyle.pipelines.conventions.timed_regex import per_start_cost
from housestyle.pipelines.errors import ConventionError
from housestyle.pipelines.rules.registry import RULES, is_vacuous


LOG = logging.getLogger("housestyle.conventions")


def _err(conv: Convention, message: str, field: str | None, path: str | None, label: str | None) -> ConventionError:
    """``path`` is the file with its line (``conv.jsonl:2``); ``label`` overrides the convention id."""
    return ConventionError(message, convention=label or conv.convention_id, field=field, path=path)


def at_location(path: str | None, location: str | int | None) -> str | None:
    """``conv.jsonl:2`` (a line), ``conv.parquet:row 3``, or the path alone."""
    if path is None:
        return None if location is None else str(location)
    return path if location is None else f"{path}:{location}"


def _top_literals(pattern: str) -> list[str]:
    """Characters a regex requires literally at its top level (outside classes and lookarounds)."""
    out: list[str] = []

    def walk(items: object) -> None:
        for op, av in items:  # type: ignore[attr-defined]
            if op is C.LITERAL:
                out.append(chr(av))
            elif op is C.SUBPATTERN and not (av[1] or av[2]):
                walk(av[-1])
            elif op in (C.MAX_REPEAT, C.MIN_REPEAT) and av[0] >= 1:
                walk(av[2])

    try:
        parsed = parse_tree(pattern)
    except re.error:
        return out
    if parsed.state.flags & re.IGNORECASE:
        return out
    walk(parsed)
    return out


def _check_regex(conv: Convention, pattern: str, mode: str, field: str, path: str | None, label: str | None) -> None:
    problem = compile_problem(pattern) or static_problem(pattern)
    if problem is None and min_width(pattern) == 0:
        problem = "regex can match the empty string, so 'present' would be meaningless"
    if problem is None:
        # Asked by the slow-pattern probe after the whole set is read, when this pattern's parse tree has
        # left parse_tree's small cache; its answer is cached by pattern, so read it while the tree is here.
        per_start_cost(pattern)
    if problem is None and mode != "exact":
        # Regexes apply AS WRITTEN to folded text: a literal the fold rewrites can never match.
        for char in _top_literals(pattern):
            if fold_text(char, mode) != char:
                problem = (
                    f"regex literal {char!r} never occurs in {mode}-folded text (it folds to "
                    f"{fold_text(char, mode)!r}); write the pattern in folded form"
                )
                break
    if problem:
        raise _err(conv, f"{problem}: {pattern!r}", field, path, label)


def _check_strings(conv: Convention, values: Sequence[str], field: str, path: str | None, label: str | None) -> None:
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        raise _err(conv, "must be a list of strings", field, path, label)
    for value in values:
        if not value:
            raise _err(conv, "empty string entry", field, path, label)


def validate_convention(conv: Convention, *, path: str | None = None, label: str | None = None) -> None:
    """Raise ConventionError (naming ``path`` — the file and line —, ``label`` or the convention id,
    and the field) if ``conv`` is bad. Does not run the timed regex probe (``validate_conventions``
    does, once per set)."""
    try:
        _validate(conv, path, label)
    except ConventionError as exc:
        if exc.path is not None or path is None:
            raise
        # a rule module's own check knows the convention, not where it was read: add that
        raise _err(conv, exc.reason, exc.field, path, label) from None


def _validate(conv: Convention, path: str | None, label: str | None) -> None:
    if not isinstance(conv.dimension, str) or not conv.dimension.strip():
        raise _err(conv, "dimension is empty", "dimension", path, label)
    kind, sep, name = conv.dimension.partition(":")
    if not sep or not kind.strip() or not name.strip():
        raise _err(conv, f"dimension must be 'kind:name', got {conv.dimension!r}", "dimension", path, label)
    if conv.rule not in RULE_TYPES:
        raise _err(conv, f"unknown rule {conv.rule!r} (one of {', '.join(RULE_TYPES)})", "rule", path, label)
    if conv.match_mode not in MATCH_MODES:
        raise _err(conv, f"unknown match_mode {conv.match_mode!r} (one of {', '.join(MATCH_MODES)})", "match_mode", path, label)
    if conv.src_match_mode is not None and conv.src_match_mode not in MATCH_MODES:
        raise _err(conv, f"unknown src_match_mode {conv.src_match_mode!r}", "src_match_mode", path, label)
    if conv.origin not in ORIGINS:
        raise _err(conv, f"unknown origin {conv.origin!r} (one of {', '.join(ORIGINS)})", "origin", path, label)
    if conv.status not in STATUSES:
        raise _err(conv, f"unknown status {conv.status!r} (one of {', '.join(STATUSES)})", "status", path, label)
    if not isinstance(conv.params, dict):
        raise _err(conv, "params must be a JSON object", "params", path, label)
    _check_heldout(conv, path, label)
    _check_strings(conv, conv.expected_terms, "expected_terms", path, label)
    _check_strings(conv, conv.wrong_variants, "wrong_variants", path, label)
    if conv.src is not None:
        if not isinstance(conv.src, str) or not conv.src:
            raise _err(conv, "src must be a non-empty string or null", "src", path, label)
        if conv.src_regex:
            _check_regex(conv, conv.src, conv.trigger_mode, "src", path, label)
        elif conv.trigger_mode == "nfkc" and nfkc_changes(conv.src):
            raise _err(conv, "src changes under NFKC: its content is a code point nfkc destroys; use exact", "src", path, label)
    for field in ("expected_terms", "wrong_variants"):
        for value in getattr(conv, field):
            if conv.regex:
                _check_regex(conv, value, conv.match_mode, field, path, label)
            if conv.match_mode == "nfkc" and nfkc_changes(value):
                raise _err(
                    conv,
                    f"{value!r} changes under NFKC (e.g. full-width brackets, NBSP): nfkc would destroy the "
                    "distinction this convention is about; use match_mode 'exact'",
                    field, path, label,
                )
    if not conv.regex:
        expected = {fold_text(t, conv.match_mode): t for t in conv.expected_terms}
        for wrong in conv.wrong_variants:
            clash = expected.get(fold_text(wrong, conv.match_mode))
            if clash is not None:
                raise _err(
                    conv,
                    f"wrong variant {wrong!r} equals expected {clash!r} under {conv.match_mode}: the convention "
                    "can never pass (use a stricter match_mode)",
                    "wrong_variants", path, label,
                )
    RULES[conv.rule].validate(conv)


def _check_heldout(conv: Convention, path: str | None, label: str | None) -> None:
    """heldout_items / heldout_passed (SPEC §2): both null or both counts, passed <= items."""
    items, passed = conv.heldout_items, conv.heldout_passed
    if items is None and passed is None:
        return
    if items is None or passed is None:
        raise _err(conv, "heldout_items and heldout_passed are given together or not at all",
                   "heldout_items" if items is None else "heldout_passed", path, label)
    if items < 0 or passed < 0:
        raise _err(conv, "held-out counts cannot be negative", "heldout_items" if items < 0 else "heldout_passed", path, label)
    if passed > items:
        raise _err(conv, f"heldout_passed {passed} exceeds heldout_items {items}", "heldout_passed", path, label)


def _regexes(conv: Convention) -> Iterable[tuple[str, str]]:
    """(field, pattern) for every regex a convention carries."""
    if conv.src is not None and conv.src_regex:
        yield "src", conv.src
    if conv.regex:
        for field in ("expected_terms", "wrong_variants"):
            for value in getattr(conv, field):
                yield field, value
    if conv.rule == "placeholder":
        for value in conv.params.get("patterns", []):
            yield "params.patterns", value


def validate_conventions(
    conventions: Sequence[Convention],
    *,
    path: str | None = None,
    locations: Sequence[str | int] | None = None,
    labels: Sequence[str] | None = None,
    regex_guard: bool = True,
    regex_timeout: float = 1.0,
) -> None:
    """Validate a whole set: each convention, duplicate ids, and (``regex_guard``) the timed probe
    of every regex (see ``regex_guard``). ``locations`` (a line number, or ``row 3``) say where
    each convention was read in ``path``; errors and warnings name ``path:location``. A vacuous
    convention is logged as a warning (logger ``housestyle.conventions``), never refused."""
    seen: dict[str, str] = {}
    for index, conv in enumerate(conventions):
        label = labels[index] if labels else None
        location = locations[index] if locations else None
        at = at_location(path, location)
        validate_convention(conv, path=at, label=label)
        if conv.convention_id in seen:
            raise _err(conv, f"duplicate of {seen[conv.convention_id]} (same semantic fields)", "convention_id", at, label)
        seen[conv.convention_id] = f"line {location}" if isinstance(location, int) else str(location or label or f"#{index + 1}")
        if is_vacuous(conv):
            LOG.warning("%s: convention %s (%s): checks nothing (expected_terms and wrong_variants are both empty): "
                        "it passes every item it applies to and is reported as vacuous",
                        at or "(in memory)", label or conv.convention_id, conv.dimension)
    if not regex_guard:
        return
    owners: dict[str, tuple[int, str]] = {}
    for index, conv in enumerate(conventions):
        for field, pattern in _regexes(conv):
            owners.setdefault(pattern, (index, field))
    if owners:
        slow = slow_patterns(list(owners), timeout=regex_timeout)
        for pattern, reason in slow.items():
            index, field = owners[pattern]
            conv = conventions[index]
            raise _err(conv, f"regex is too slow ({reason}): {pattern!r}", field,
                       at_location(path, locations[index] if locations else None), labels[index] if labels else None)
