"""Required literal factors of a regex: a prefilter that lets the engine skip segments safely.

For a pattern P we compute a set F of literal strings such that every match of P contains at least
one string of F. Segments whose (folded) text contains none of F cannot match, so the engine runs
Python ``re`` only on the few segments an Aho–Corasick pass flags. The semantics stay Python ``re``'s:
the factors only ever remove segments that provably cannot match (a superset filter), never decide
a match. Hand-written because no installed library exposes RE2-style prefilters for Python ``re``
syntax (lookaround, backreferences, possessive quantifiers all stay allowed: they are simply
treated as "no requirement").
"""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import product
from re import _constants as C  # type: ignore[attr-defined]
from typing import Any

from housestyle.pipelines.conventions.pattern_tree import parse_tree

MAX_SET = 64  # largest literal alternative set we keep (bigger = weaker filter, more AC patterns)


@lru_cache(maxsize=1)
def _space_chars() -> frozenset[str]:
    """What ``\\s`` matches, computed on first use (a scan of every code point costs ~1 s, which
    every command importing this module paid at import time)."""
    return frozenset(chr(c) for c in range(0x110000) if re.match(r"\s", chr(c)))


class _Unsupported(Exception):
    """The pattern uses something whose literal content we do not model (e.g. inline case flags)."""


Strings = frozenset[str] | None


def _cat(a: frozenset[str], b: frozenset[str]) -> frozenset[str] | None:
    if len(a) * len(b) > MAX_SET:
        return None
    return frozenset(x + y for x, y in product(a, b))


def _class_set(items: Any) -> Strings:
    chars: set[str] = set()
    for op, av in items:
        if op is C.NEGATE:
            return None
        if op is C.LITERAL:
            chars.add(chr(av))
        elif op is C.RANGE:
            lo, hi = av
            if hi - lo > MAX_SET:
                return None
            chars.update(chr(c) for c in range(lo, hi + 1))
        elif op is C.CATEGORY and av is C.CATEGORY_SPACE:
            chars.update(_space_chars())
        else:
            return None
    return frozenset(chars) if len(chars) <= MAX_SET else None


def _better(a: frozenset[str] | None, b: frozenset[str] | None) -> frozenset[str] | None:
    """Prefer the factor set whose shortest string is longest, then the smaller set."""
    cands = [s for s in (a, b) if s and "" not in s]
    if not cands:
        return None
    return max(cands, key=lambda s: (min(len(x) for x in s), -len(s)))


def _node(op: Any, av: Any, forms: bool) -> tuple[Strings, Strings]:
    """(exact set, factor set) of one parse node; None = unknown / no requirement. ``forms``: model
    optional parts exactly (for ``literal_forms``; the prefilter keeps the shorter factor instead)."""
    if op is C.LITERAL:
        return frozenset({chr(av)}), None
    if op is C.IN:
        return _class_set(av), None
    if op in (C.AT, C.ASSERT, C.ASSERT_NOT):
        return frozenset({""}), None  # zero width: only removes matches, so "" is a safe model
    if op is C.SUBPATTERN:
        _group, add_flags, del_flags, sub = av
        if add_flags or del_flags:
            raise _Unsupported
        return _seq(sub, forms)
    if op is getattr(C, "ATOMIC_GROUP", None):
        return _seq(av, forms)
    if op is C.BRANCH:  # one pass, sets grown in place: linear in the alternatives (200,000 took > 300 s)
        union: set[str] | None = set()
        found: set[str] | None = set()
        for alt in av[1]:
            e, f = _seq(alt, forms)
            if union is not None:
                union = None if e is None or len(e) > MAX_SET else union | e
                union = None if union is None or len(union) > MAX_SET else union
            best = _better(e, f)
            if best is None:
                found = None
            elif found is not None:
                found.update(best)
            if union is None and found is None:
                break  # neither set can come back: the other alternatives change nothing
        return (None if union is None else frozenset(union)), (frozenset(found) if found else None)
    if op in (C.MAX_REPEAT, C.MIN_REPEAT) or op is getattr(C, "POSSESSIVE_REPEAT", None):
        lo, hi, sub = av
        e, f = _seq(sub, forms)
        if lo == 0:  # an optional part (``x?``): exactly "" or one of its strings; no requirement
            return (e | {""} if forms and e is not None and hi == 1 else None), None
        exact = None
        if e is not None and lo == hi and lo <= 3:
            exact = frozenset({""})
            for _ in range(lo):
                exact = _cat(exact, e) if exact is not None else None
        return exact, _better(e, f)
    return None, None  # ANY, NOT_LITERAL, CATEGORY outside a class, GROUPREF, GROUPREF_EXISTS…


def _seq(items: Any, forms: bool = False) -> tuple[Strings, Strings]:
    """(exact set, factor set) of a sequence: concatenate exact runs, keep the best factor seen."""
    run: frozenset[str] | None = frozenset({""})
    exact_all = True
    best: Strings = None
    for op, av in items:
        e, f = _node(op, av, forms)
        best = _better(best, f)
        if e is None:
            best = _better(best, run)
            run = frozenset({""})
            exact_all = False
            continue
        joined = _cat(run, e) if run is not None else None
        if joined is None:
            best = _better(best, run)
            run = e
            exact_all = False
        else:
            run = joined
    best = _better(best, run)
    return (run if exact_all else None), best


def _analyse(pattern: str, *, forms: bool) -> tuple[Strings, Strings] | None:
    """(exact set, factor set) of a whole pattern; None when it does not compile, is
    case-insensitive or uses what we do not model."""
    try:
        parsed = parse_tree(pattern)
    except re.error:
        return None
    if parsed.state.flags & re.IGNORECASE:
        return None
    try:
        return _seq(parsed.data if hasattr(parsed, "data") else parsed, forms)
    except _Unsupported:
        return None


@lru_cache(maxsize=16384)
def required_factors(pattern: str) -> tuple[str, ...] | None:
    """Literal strings one of which occurs in every match of ``pattern``; None when no such set is
    known (the engine must then run the regex on every applicable segment)."""
    sets = _analyse(pattern, forms=False)
    if sets is None:
        return None
    best = _better(*sets)
    return None if best is None else tuple(sorted(best))


@lru_cache(maxsize=16384)  # a set's writer asks twice per rule (conventions.jsonl and .parquet)
def literal_forms(entry: str, is_regex: bool) -> tuple[str, ...] | None:
    """The literal strings an entry stands for, for people (review packets, glossaries): a plain
    string is itself; a regex whose language is finite and small (the miner's bounded alternations,
    ``\\bsavon(?:s ménagers| ménager)\\b`` → ``savon ménager``, ``savons ménagers``) is the sorted
    set of its strings, word-boundary assertions dropped; None when it is not (``\\d+``, classes
    of more than a few characters, case-insensitive flags, more than MAX_SET strings)."""
    if not is_regex:
        return (entry,)
    sets = _analyse(entry, forms=True)
    exact = None if sets is None else sets[0]
    if exact is None or "" in exact:
        return None
    return tuple(sorted(exact))
