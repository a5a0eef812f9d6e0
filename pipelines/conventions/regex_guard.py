"""Refuse regular expressions that are provably slow, before they meet a million segments.

At run time every match is bounded in time anyway (``timed_regex``: a timed-out item is an error of
the run). These load-time guards refuse what would make such errors routine:

1. Static (deterministic, instant): reject *nested unbounded quantifiers* — a repeat with an
   upper bound > 1 inside another unbounded repeat, e.g. ``(a+)+``, ``(\\w+\\s?)*``. This is the
   classic cause of exponential backtracking (star height ≥ 2). Possessive quantifiers and atomic
   groups (``a++``, ``(?>…)``, Python ≥ 3.11) do not backtrack and are allowed.
2. Timed probe of the patterns the cost rule cannot bound (``timed_regex.per_start_cost``; a
   bounded pattern is linear in the text on any backtracking engine and needs no probe): each runs
   on the engine the scorer will use (``regex`` with its per-call timeout, so the probe itself can
   never hang) over adversarial strings built from its own characters — short ones for
   exponential, ``PROBE_LENGTH`` ones for polynomial behaviour (``\\s+$`` is quadratic: 1.5 s on
   20,000 spaces here, 44.6 s on 100,000). A pattern that exceeds ``timeout`` on one is refused.
   Timing is the machine's: a pattern near the limit may pass on a quiet machine and not on a busy
   one; clear cases (an order of magnitude either side) do not depend on it.
   The body of every lookaround is probed as a pattern of its own too: ``q(?=(a|aa)+$)`` only
   backtracks after a ``q``, which no probe string starts with, but its body ``(a|aa)+$`` is probed
   directly. (At run time a pattern that keeps timing out is stopped: ``timed_regex.MAX_TIMEOUTS``.)
"""

from __future__ import annotations

import re
from re import _constants as C  # type: ignore[attr-defined]  # the stdlib parser's opcodes
from typing import Any

from housestyle.pipelines.conventions.pattern_tree import parse_tree
from housestyle.pipelines.conventions.timed_regex import TimedPattern, compiled_re, per_start_cost

_REPEATS = {C.MAX_REPEAT, C.MIN_REPEAT}
_NON_BACKTRACKING = {getattr(C, "POSSESSIVE_REPEAT", None), getattr(C, "ATOMIC_GROUP", None)} - {None}


def _can_match_nonempty(sub: Any) -> bool:
    return bool(sub.getwidth()[1] > 0)


def _walk(items: Any, inside_unbounded: bool) -> str | None:
    """Return a description of the first nested quantifier found, else None."""
    for op, av in items:
        if op in _REPEATS:
            lo, hi, sub = av
            unbounded = hi == C.MAXREPEAT or hi > 64
            if inside_unbounded and hi > 1 and _can_match_nonempty(sub):
                return "nested quantifier (a repeated group containing another repeat)"
            found = _walk(sub, inside_unbounded or unbounded)
            if found:
                return found
        elif op in _NON_BACKTRACKING:
            continue  # no backtracking into it
        elif op is C.SUBPATTERN:
            found = _walk(av[-1], inside_unbounded)
            if found:
                return found
        elif op is C.BRANCH:
            for alt in av[1]:
                found = _walk(alt, inside_unbounded)
                if found:
                    return found
        elif op in (C.ASSERT, C.ASSERT_NOT):
            found = _walk(av[1], inside_unbounded)
            if found:
                return found
        elif op is C.GROUPREF_EXISTS:
            for part in av[1:]:
                if part is not None:
                    found = _walk(part, inside_unbounded)
                    if found:
                        return found
    return None


def static_problem(pattern: str) -> str | None:
    """Why ``pattern`` is statically unsafe, or None. Assumes the pattern compiles."""
    return _walk(parse_tree(pattern), False)


def min_width(pattern: str) -> int:
    """The shortest match length (0 means the pattern can match the empty string)."""
    return int(parse_tree(pattern).getwidth()[0])


PROBE_LENGTH = 20_000  # characters: a long segment; quadratic patterns take seconds here


def _probes(pattern: str) -> list[str]:
    """Adversarial strings from the pattern's own characters (and a few common ones): runs that
    almost match, then fail on a NUL."""
    chars = sorted(set(c for c in pattern if c.isprintable() and c not in "\\()[]{}|*+?.^$"))[:10]
    chars += ["a", "0", " ", "\u00a0", "x"]
    probes = []
    for c in chars:
        probes += [c * 28 + "\x00", c * 3000 + "\x00"]
    probes += ["".join(chars) * 40 + "\x00", "".join(chars) * 400 + "\x00"]
    probes += ["".join(pair) * 20 + "\x00" for pair in zip(chars, chars[1:])]
    probes += [c * (PROBE_LENGTH - 1) + "\x00" for c in chars]
    return probes


_LOOKAROUND = re.compile(r"\(\?<?[=!]")


def lookaround_bodies(pattern: str) -> list[str]:
    """The source text of every lookaround's body (``(?=…)``, ``(?!…)``, ``(?<=…)``, ``(?<!…)``),
    nested ones included; escapes and character classes are skipped when matching parentheses."""
    bodies = []
    for found in _LOOKAROUND.finditer(pattern):
        if found.start() and pattern[found.start() - 1] == "\\":
            continue
        depth, i, in_class = 1, found.end(), False
        while i < len(pattern) and depth:
            c = pattern[i]
            if c == "\\":
                i += 2
                continue
            if in_class:
                in_class = c != "]"
            elif c == "[":
                in_class = True
                if pattern[i + 1:i + 2] == "]":
                    i += 1  # a ']' first in a class is a literal
            elif c == "(":
                depth += 1
            elif c == ")":
                depth -= 1
            i += 1
        if not depth:
            bodies.append(pattern[found.end():i - 1])
    return bodies


def _probe_slow(pattern: str, timeout: float) -> int | None:
    """The length of the first probe ``pattern`` did not finish within ``timeout`` on, or None."""
    if per_start_cost(pattern) is not None:
        return None
    engine = TimedPattern(pattern, timeout).timed
    for probe in _probes(pattern):
        try:
            engine.search(probe, timeout=timeout)
        except TimeoutError:
            return len(probe)
    return None


def slow_patterns(patterns: list[str], timeout: float = 1.0) -> dict[str, str]:
    """{pattern: reason} for the patterns that did not finish a probe within ``timeout`` seconds on
    the scorer's timed engine (patterns with a bounded cost per start are not probed), itself or
    the body of one of its lookarounds probed alone."""
    slow: dict[str, str] = {}
    for pattern in dict.fromkeys(patterns):
        for part in [pattern, *lookaround_bodies(pattern)]:
            try:
                compiled_re(part)
            except (re.error, RecursionError, OverflowError):
                continue  # a body that refers to an outer group: probed with its pattern only
            length = _probe_slow(part, timeout)
            if length is not None:
                where = "" if part == pattern else f" (in its lookaround {part!r})"
                slow[pattern] = (f"did not finish within {timeout:g} s on a {length:,}-character adversarial "
                                 f"input{where}; a repeat the search retries at every position is quadratic, "
                                 "alternatives that overlap under a repeat are exponential: anchor it "
                                 "(e.g. (?<!\\s)\\s+ instead of \\s+)")
                break
    return slow


def compile_problem(pattern: str) -> str | None:
    """Why ``pattern`` does not compile as a Python regex, or None. Compiled through ``compiled_re``'s
    cache, which the slow-pattern probe and the scorer then read: ``re``'s own cache holds 512
    patterns, and a mined set has thousands, so each was parsed and compiled again at every step."""
    try:
        compiled_re(pattern)
    except (re.error, RecursionError, OverflowError) as exc:
        return f"regex does not compile: {exc}"
    return None
